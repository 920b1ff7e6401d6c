// Orthodox chess as a condition: the baseline every other condition is measured against,
// and the two neutral policies the other rule sets are composed with
// (rules/conditions/composed.h): every unit uses its own walk (OwnWalk), and observation
// restricts nothing (NoRestriction).
//
// What all conditions share is written once, not per condition: which units may be
// captured, the promotion choices and check (rules/capture.h), and magic units with
// their mutation (rules/magic.h, applied by make_move). movegen.h instantiates its loops
// once per rule set, so orthodox play pays for none of the fairy hooks.
#pragma once

#include "rules/conditions/composed.h"

namespace feerie {

struct OwnWalk {
  static constexpr bool OwnWalks = true;
  static constexpr bool QuietMovesKeepEnemyWalks = true;
  static constexpr bool EnemiesLend = false;
  PieceType walk_of(const Position& pos, Square s) const { return pos.piece_on(s).type(); }
  unsigned retro_walks(const Position& pos, Square s) const { return 1u << pos.piece_on(s).type(); }
  template <class F>
  void for_each_walk_region(const Position& pos, Square to, F&& f) const {
    f(pos.piece_on(to).type(), ~Bitboard(0));
  }
  bool full_symmetry() const { return true; }
  bool kings_may_touch() const { return false; }
};

// The part of a restriction policy under which no unit is ever immobile: orthodox chess's
// and Isardam's and Leffie's (rules/conditions/isardam.h), which forbid moves, not units.
struct NoImmobileUnits {
  static constexpr bool NothingImmobile = true;
  template <class Walk>
  Bitboard immobile_bb(const Position&, const Walk&) const {
    return 0;
  }
  template <class Walk>
  bool is_immobile(const Position&, Square, const Walk&) const {
    return false;
  }
};

struct NoRestriction : NoImmobileUnits {
  static constexpr bool EveryAttackerChecks = true;
  static constexpr bool EveryMoveAllowed = true;
  template <class Walk>
  bool move_allowed(const Position&, const Walk&) const {
    return true;
  }
  template <class Walk>
  bool gives_check(const Position&, Square, Square, const Walk&) const {
    return true;
  }
  bool full_symmetry() const { return true; }
  bool kings_may_touch() const { return false; }
};

using OrthodoxRules = ComposedRules<OwnWalk, NoRestriction>;

}  // namespace feerie
