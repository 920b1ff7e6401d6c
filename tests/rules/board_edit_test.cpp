// The board edits (rules/board_edit.h) and Position::without_unit_on, which make their edit
// while copying, against the same edits made on a copy of the position by its own
// methods (remove_piece, do_move), square by square and bitboard by bitboard, on random
// positions: moves to empty squares and captures, promotions, the king's moves, and a
// second move on an edit (Isardam's capture of the king after a move).
#include "rules/board_edit.h"

#include <cctype>
#include <random>
#include <string>

#include "rules/fen.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

// Every question a board edit answers, against the position `expected`.
void expect_same_board(const BoardEdit& board, const Position& expected, const std::string& what) {
  for (Color c : {WHITE, BLACK}) ASSERT_EQ(board.pieces(c), expected.pieces(c)) << what;
  for (int pt = 0; pt < PIECE_TYPE_NB; ++pt)
    ASSERT_EQ(board.pieces(PieceType(pt)), expected.pieces(PieceType(pt))) << what;
  ASSERT_EQ(board.occupied(), expected.pieces()) << what;
  for (int s = 0; s < SQUARE_NB; ++s)
    ASSERT_EQ(board.piece_on(Square(s)), expected.piece_on(Square(s))) << what << " " << square_name(Square(s));
}

// Two positions the same square by square too (Position::operator== compares the
// bitboards, which a board array out of step with them would pass).
void expect_same_position(const Position& made, const Position& expected, const std::string& what) {
  ASSERT_EQ(made, expected) << what;
  for (int s = 0; s < SQUARE_NB; ++s)
    ASSERT_EQ(made.piece_on(Square(s)), expected.piece_on(Square(s))) << what << " " << square_name(Square(s));
}

// `pos` after the unit on `from` goes to `to` (taking what stands there) as `arriving`,
// made by the position's own methods.
Position moved(const Position& pos, Square from, Square to, PieceType arriving) {
  Position after = pos;
  const Piece unit = after.piece_on(from);
  after.remove_piece(from);
  after.remove_piece(to);
  after.put_piece(Piece(unit.color(), arriving), to);
  return after;
}

TEST(BoardEdit, EditsMadeWhileCopyingAreThoseMadeOnThePosition) {
  std::mt19937 rng(20261130);
  int moves = 0, captures = 0, second_moves = 0;
  for (const char* units : {"KQRkq", "KRPkrp", "KQBNkqrn", "KPkpP"}) {
    for (int b = 0; b < 60; ++b) {
      const Position pos = test::random_board(rng, units);
      for (Bitboard from_squares = pos.pieces(); from_squares;) {
        const Square from = pop_lsb(from_squares);
        Position lifted = pos;
        lifted.remove_piece(from);
        expect_same_board(BoardEdit(pos, square_bb(from)), lifted, to_fen(pos) + " lifting " + square_name(from));
        expect_same_position(pos.without_unit_on(from), lifted, to_fen(pos) + " " + square_name(from));
        const Piece unit = pos.piece_on(from);
        for (Bitboard targets = ~pos.pieces(unit.color()) & ~pos.pieces(KING); targets;) {
          const Square to = pop_lsb(targets);
          const PieceType arriving = unit.type() == PAWN && (to & 1) ? QUEEN : unit.type();
          const BoardEdit after(pos, from, to, arriving);
          const Position expected = moved(pos, from, to, arriving);
          expect_same_board(after, expected, to_fen(pos) + " " + square_name(from) + square_name(to));
          ++moves;
          captures += !pos.empty(to);
          // A second move on the edit, by an enemy unit, onto the moved unit's square or
          // elsewhere (the unit put down by the first move taken, or kept).
          for (Bitboard enemies = expected.pieces(~unit.color()) & ~expected.pieces(KING); enemies;) {
            const Square e = pop_lsb(enemies);
            for (Square target : {to, Square((to + 9) % SQUARE_NB)}) {
              if (target == e || (expected.pieces(~unit.color()) & square_bb(target)) ||
                  (expected.pieces(KING) & square_bb(target)))
                continue;
              const PieceType type = expected.piece_on(e).type();
              expect_same_board(BoardEdit(after, e, target, type), moved(expected, e, target, type),
                                to_fen(pos) + " " + square_name(from) + square_name(to) + " then " + square_name(e) +
                                    square_name(target));
              ++second_moves;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(moves, 10000);
  EXPECT_GT(captures, 500);
  EXPECT_GT(second_moves, 10000);
}

}  // namespace
}  // namespace feerie
