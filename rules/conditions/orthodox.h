// Orthodox chess as a condition: the baseline every other condition is measured against.
//
// The condition hooks (docs/architecture.md). Every condition type provides:
//   PieceType walk_of(pos, s)        the walk the unit on s uses (Annan borrows one)
//   unsigned  retro_walks(pos, s)    bit set of the walks (1 << PieceType) the unit on s
//                                    may have used for the move that brought it there
//   Bitboard  immobile_bb(pos)       units that cannot move now (paralysis)
//   bool      move_allowed(pos)      extra legality of the position after a move (Isardam)
//   bool      gives_check(pos, s, k) the unit on s, which reaches the enemy king on k by
//                                    its walk, gives check (only asked when
//                                    EveryAttackerChecks is false)
//   bool      full_symmetry()        the rules are unchanged by flipping the board
//                                    vertically or along a diagonal (colours kept)
//   bool      kings_may_touch()      adjacent kings can occur in a legal position
//   static constexpr bool OwnWalks   every unit uses its own type's walk (check by
//                                    reverse look-ups from the king)
//   static constexpr bool EveryAttackerChecks
//                                    every unit that reaches the enemy king gives check
//   static constexpr bool ExactRetroWalks
//                                    reversing the unit's walk yields exactly the moves
//                                    the forward generator would play, so retro moves
//                                    need no forward confirmation (proved by the
//                                    retro/forward property test)
//   static constexpr bool OrthodoxLegality
//                                    check is orthodox attack by own walks, nothing is
//                                    immobile, no after-move effect, no extra legality:
//                                    movegen may then use pins instead of make/unmake
// What all conditions share is written once, not per condition: which units may be
// captured, the promotion choices and check (rules/capture.h), and magic units with
// their mutation (rules/magic.h, applied by make_move). movegen.h instantiates its loops
// once per condition type, so orthodox play pays for none of the fairy hooks.
#pragma once

#include "rules/position.h"

namespace feerie {

struct OrthodoxRules {
  static constexpr bool OwnWalks = true;
  static constexpr bool EveryAttackerChecks = true;
  static constexpr bool ExactRetroWalks = true;
  static constexpr bool OrthodoxLegality = true;
  PieceType walk_of(const Position& pos, Square s) const { return pos.piece_on(s).type(); }
  unsigned retro_walks(const Position& pos, Square s) const { return 1u << pos.piece_on(s).type(); }
  Bitboard immobile_bb(const Position&) const { return 0; }
  bool move_allowed(const Position&) const { return true; }
  bool gives_check(const Position&, Square, Square) const { return true; }
  bool full_symmetry() const { return true; }
  bool kings_may_touch() const { return false; }
};

}  // namespace feerie
