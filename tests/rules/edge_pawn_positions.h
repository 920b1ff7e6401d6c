// Random positions for the tests of SPEC 3.4's pawns on their own first or last rank
// (issue 26): a real pawn there with a friendly unit as its lender — on its last rank
// with the lender behind it (Annan), on its first rank with the lender in front of it
// (Nanna) — beside both kings and a few more units of either colour, any of which may be
// another pawn on an edge rank. Not every position is legal: callers filter.
#pragma once

#include <random>

#include "rules/position.h"

namespace feerie::test {

inline Position random_edge_pawn_position(std::mt19937_64& rng, bool lender_in_front) {
  auto pick = [&](int n) { return int(rng() % unsigned(n)); };
  Position pos;
  auto place = [&](Piece p, Square s) {
    if (!pos.empty(s)) return false;
    pos.put_piece(p, s);
    return true;
  };
  const Color c = Color(pick(2));
  // Annan: the pawn on its last rank, the lender one rank back; Nanna: on its first rank,
  // the lender one rank forward. Rank numbers as seen by c.
  const int pawn_rank = lender_in_front ? 0 : 7, lender_rank = lender_in_front ? 1 : 6;
  const int file = pick(8);
  auto square_for = [&](int relative) { return make_square(file, c == WHITE ? relative : 7 - relative); };
  place(Piece(c, PAWN), square_for(pawn_rank));
  static constexpr PieceType lenders[] = {QUEEN, ROOK, BISHOP, KNIGHT, KING, PAWN, GRASSHOPPER, LOCUST};
  place(Piece(c, lenders[pick(8)]), square_for(lender_rank));
  for (Color side : {WHITE, BLACK})
    while (pos.king_square(side) == SQ_NONE) place(Piece(side, KING), Square(pick(64)));
  static constexpr PieceType extras[] = {QUEEN, ROOK, BISHOP, KNIGHT, PAWN, PAWN, GRASSHOPPER, LOCUST};
  for (int n = pick(3); n > 0;) {
    Color side = Color(pick(2));
    PieceType t = extras[pick(8)];
    // Extra pawns mostly on their edge ranks too.
    int rank = t == PAWN && pick(2) ? (pick(2) ? 0 : 7) : pick(8);
    n -= place(Piece(side, t), make_square(pick(8), side == WHITE ? rank : 7 - rank));
  }
  pos.set_side_to_move(Color(pick(2)));
  return pos;
}

}  // namespace feerie::test
