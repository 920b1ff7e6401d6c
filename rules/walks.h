// The walks of all units (SPEC 2): how a unit moves and captures, from a square, as pure
// board geometry. Conditions choose which walk a unit uses (Annan borrows its lender's)
// and which of the resulting moves are legal; the walks themselves know nothing of them.
#pragma once

#include "rules/move.h"
#include "rules/position.h"

namespace feerie {

// The squares a K, Q, R, B or N walk from `s` reaches (moves to or captures on) with the
// board `occupied`: plain leaper and slider geometry. Empty for the other walks.
inline Bitboard leaper_or_slider_bb(PieceType walk, Square s, Bitboard occupied) {
  switch (walk) {
    case KNIGHT:
      return knight_bb(s);
    case BISHOP:
      return bishop_attacks_bb(s, occupied);
    case ROOK:
      return rook_attacks_bb(s, occupied);
    case QUEEN:
      return queen_attacks_bb(s, occupied);
    case KING:
      return king_bb(s);
    default:
      return 0;
  }
}

// The squares a unit of colour `c` on `s` using an orthodox walk (K, Q, R, B, N or P)
// observes with the board `occupied`: its capture squares, as pure geometry (a pawn's
// two diagonals, none from its own first rank).
inline Bitboard orthodox_observation_bb(PieceType walk, Color c, Square s, Bitboard occupied) {
  return walk == PAWN ? pawn_capture_bb(c, s) : leaper_or_slider_bb(walk, s, occupied);
}

// The units of `them` with an orthodox walk (K, Q, R, B, N, P) that could capture on `s`
// with the board `occupied`, each by its own type's walk: reverse look-ups from `s`. Pawns
// on their first or last rank capture nothing by their own walk.
inline Bitboard orthodox_attackers_bb(const Position& pos, Square s, Color them, Bitboard occupied) {
  return pos.pieces(them) & ((knight_bb(s) & pos.pieces(KNIGHT)) | (king_bb(s) & pos.pieces(KING)) |
                             (pawn_attackers_bb(them, s) & pos.pieces(PAWN)) |
                             (rook_attacks_bb(s, occupied) & (pos.pieces(ROOK) | pos.pieces(QUEEN))) |
                             (bishop_attacks_bb(s, occupied) & (pos.pieces(BISHOP) | pos.pieces(QUEEN))));
}

// Squares of the enemy units that a unit of colour `c` on `s`, using `walk`, could
// capture: the "observation" of SPEC 3.1 (en passant excluded). For a grasshopper it is
// the unit on the landing square beyond a hurdle; for a locust the unit jumped over when
// the square beyond it is empty. Magic units are included: callers that need "can be
// captured" remove them. The pawn walk captures nothing from its first rank, whoever uses
// it, nor from its last (off the board): a real pawn there observes nothing by its own
// walk (SPEC 2) but does by a lent one (SPEC 3.4). The ordinary walks' observation is a
// table look-up, inline (asked per unit of every position under the paralysis family); the
// grasshopper's and the locust's depend on the board beyond their targets
// (hurdle_capture_targets_bb, out of line).
Bitboard hurdle_capture_targets_bb(const Position& pos, Square s, PieceType walk, Color c);
inline Bitboard capture_targets_bb(const Position& pos, Square s, PieceType walk, Color c) {
  if (walk == GRASSHOPPER || walk == LOCUST) return hurdle_capture_targets_bb(pos, s, walk, c);
  return orthodox_observation_bb(walk, c, s, pos.pieces()) & pos.pieces(~c);
}

// Whether the unit on `s` (colour `c`) using `walk` could capture on `target`, an enemy
// unit's square.
inline bool reaches_for_capture(const Position& pos, Square s, PieceType walk, Color c, Square target) {
  return capture_targets_bb(pos, s, walk, c) & square_bb(target);
}

// Appends the pseudo-legal moves of the unit on `s` (of the side to move) using `walk`:
// non-captures, captures of units in `capturable`, double steps from its second rank and
// en passant when the walk is a pawn's, promotions when the unit is a real pawn reaching
// its last rank (however it moved, also from its last rank along it: SPEC 3.4). The pawn
// walk has no move from its own first rank, whoever uses it, nor from its last: a real
// pawn there moves only by a lent walk (SPEC 2, 3.4). A magic unit captures nothing
// and a magic pawn's double step is an ordinary move (no en-passant square; SPEC 3.5).
void add_walk_moves(const Position& pos, Square s, PieceType walk, Bitboard capturable, MoveList& out);

}  // namespace feerie
