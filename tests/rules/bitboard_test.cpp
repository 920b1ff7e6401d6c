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

}  // namespace
}  // namespace feerie
