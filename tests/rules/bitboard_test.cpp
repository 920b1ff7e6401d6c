#include "rules/bitboard.h"

#include <random>
#include <vector>

#include "tests/test_util.h"

namespace feerie {
namespace {

// The sliders' table look-ups (PEXT tables where the processor has BMI2) against the
// ray-by-ray walk they are built from: every square, the empty and the full board, and
// random boards of every density.
TEST(Bitboard, SliderAttacksMatchTheRays) {
  std::mt19937_64 random(20261129);
  std::vector<Bitboard> boards = {0, ~Bitboard(0)};
  for (int i = 0; i < 3000; ++i) {
    Bitboard b = random();
    for (int thin = i % 4; thin > 0; --thin) b &= random();  // a quarter to all the squares
    boards.push_back(b);
  }
  for (int s = 0; s < SQUARE_NB; ++s)
    for (Bitboard occupied : boards) {
      const Square sq = Square(s);
      ASSERT_EQ(rook_attacks_bb(sq, occupied), rook_attacks_by_rays(sq, occupied)) << s << " " << occupied;
      ASSERT_EQ(bishop_attacks_bb(sq, occupied), bishop_attacks_by_rays(sq, occupied)) << s << " " << occupied;
    }
}

// The empty-board lines: what a rook and a bishop reach on an empty board, counted too
// (14 squares for a rook everywhere; 7 to 13 for a bishop).
TEST(Bitboard, EmptyBoardLinesAreTheAttacksOnTheEmptyBoard) {
  for (int s = 0; s < SQUARE_NB; ++s) {
    const Square sq = Square(s);
    EXPECT_EQ(rook_lines_bb(sq), rook_attacks_by_rays(sq, 0)) << s;
    EXPECT_EQ(bishop_lines_bb(sq), bishop_attacks_by_rays(sq, 0)) << s;
    EXPECT_EQ(popcount(rook_lines_bb(sq)), 14) << s;
    EXPECT_GE(popcount(bishop_lines_bb(sq)), 7) << s;
    EXPECT_LE(popcount(bishop_lines_bb(sq)), 13) << s;
  }
}

}  // namespace
}  // namespace feerie
