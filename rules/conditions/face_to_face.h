// Face-to-face and Back-to-back chess (Popeye's FaceToFace and BackToBack; not in the seed
// texts: added to prove docs/architecture.md "Adding a condition"; docs/conditions/face-to-face.md).
//
// A unit with an enemy unit directly in front of it (Face-to-face: one square north of a
// white unit, south of a black one) or directly behind it (Back-to-back) moves, captures
// and checks with that confronting unit's walk (a paralysis condition combined with it
// still sees its own: ObservationWalk), from its own square and in its own direction (a white unit confronted by a
// black pawn moves as a white pawn). Kings borrow and lend like every unit. A unit and its confronter confront each
// other, so the two exchange walks. The rest is Annan's (annan.h): the borrowed walk is the confronter's real one,
// without chaining; a pawn keeps its identity (it promotes on its last rank, also by a borrowed walk, and may stand on
// its first rank, where the pawn walk has no move); only a real pawn's double step gives an en-passant square. The
// Annan family borrows from a friend; this policy from an enemy, which is the one difference the other code sees: a
// quiet move can change an enemy unit's walk (QuietMovesKeepEnemyWalks).
#pragma once

#include "rules/conditions/orthodox.h"
#include "rules/position.h"

namespace feerie {

// The walk policy of Face-to-face and Back-to-back (rules/conditions/composed.h).
struct ConfrontationWalk {
  static constexpr bool OwnWalks = false;
  // Moving next to an enemy unit, or away from it, changes the walk of that enemy unit.
  static constexpr bool QuietMovesKeepEnemyWalks = false;
  // The lender is an enemy unit: a unit faced by an enemy pawn takes en passant.
  static constexpr bool EnemiesLend = true;
  // Combined with a paralysis condition, units observe with their own walks (Madrasi's
  // paralysis, Isardam's pairs, en-passant observation, type A's test of a check) and
  // move and check with the confronter's: SPEC 3.6 covers Annan and Nanna only, and where
  // SPEC is silent Feerie follows Popeye, whose FaceToFace and BackToBack leave the
  // observation validators out of the walk substitution (docs/conditions/face-to-face.md).
  using ObservationWalk = OwnWalk;

  bool behind = false;  // Back-to-back: the confronter stands behind

  // The square of the unit that would confront a unit of colour c on s, or SQ_NONE off
  // the board.
  Square confronter_square(Color c, Square s) const {
    const bool north = (c == WHITE) != behind;
    if (north) return rank_of(s) == 7 ? SQ_NONE : Square(s + 8);
    return rank_of(s) == 0 ? SQ_NONE : Square(s - 8);
  }

  PieceType walk_of(const Position& pos, Square s) const {
    const Piece unit = pos.piece_on(s);
    const Square c = confronter_square(unit.color(), s);
    if (c == SQ_NONE) return unit.type();
    const Piece confronter = pos.piece_on(c);
    if (confronter.empty() || confronter.color() == unit.color()) return unit.type();
    return confronter.type();
  }

  unsigned retro_walks(const Position& pos, Square s) const;

  // The unit on `to` takes, on each square, the walk of the enemy that confronts it there
  // (the enemy units did not move), and elsewhere uses its own.
  template <class F>
  void for_each_walk_region(const Position& pos, Square to, F&& f) const {
    const Piece unit = pos.piece_on(to);
    const bool confronter_north = (unit.color() == WHITE) != behind;
    Bitboard confronted = 0;
    for (int t = PAWN; t < PIECE_TYPE_NB; ++t) {
      const Bitboard confronters = pos.pieces(~unit.color(), PieceType(t));
      const Bitboard squares = confronter_north ? confronters >> 8 : confronters << 8;
      if (!squares) continue;
      f(PieceType(t), squares);
      confronted |= squares;
    }
    f(unit.type(), ~confronted);
  }

  // Confrontation runs along files, in a direction that depends on the colour: only the
  // a<->h mirror keeps the rules.
  bool full_symmetry() const { return false; }
  // A king confronted by an enemy unit other than a king no longer attacks its neighbours.
  bool kings_may_touch() const { return true; }
};

using ConfrontationRules = ComposedRules<ConfrontationWalk, NoRestriction>;

inline ConfrontationRules face_to_face_rules() { return {ConfrontationWalk{false}, NoRestriction{}}; }
inline ConfrontationRules back_to_back_rules() { return {ConfrontationWalk{true}, NoRestriction{}}; }

}  // namespace feerie
