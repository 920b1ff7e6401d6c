// Isardam and Leffie (SPEC 3.2, 3.3; shared/seeds/002 and 003; docs/conditions/isardam.md):
// the relation of Madrasi (Isardam) or Eiffel (Leffie), but paralysis never takes effect.
// A move is illegal if the position after it holds a "pair": a unit the relation would
// paralyse (ParalysisRelation::paralysed_bb, en-passant observation included). Check has
// two types, fixed at compile time so that each is its own specialised rule set:
//   type A  a unit gives check only if capturing the king would leave no pair;
//   type B  ordinary checks.
#pragma once

#include "rules/conditions/paralysis.h"

namespace feerie {

enum class IsardamCheck { TypeA, TypeB };

// The restriction policy of Isardam and Leffie (rules/conditions/composed.h).
template <IsardamCheck Check>
struct Isardam : ParalysisRelation {
  static constexpr bool EveryAttackerChecks = Check == IsardamCheck::TypeB;
  static constexpr bool NothingImmobile = true;
  static constexpr bool EveryMoveAllowed = false;

  template <class Walk>
  Bitboard immobile_bb(const Position&, const Walk&) const {
    return 0;
  }
  template <class Walk>
  bool is_immobile(const Position&, Square, const Walk&) const {
    return false;
  }
  template <class Walk>
  bool move_allowed(const Position& after, const Walk& walk) const {
    return !paralysed_bb(after, walk);
  }
  // Type A: the capture of the king must itself leave no pair (asked only for type A:
  // type B declares EveryAttackerChecks).
  template <class Walk>
  bool gives_check(const Position& pos, Square attacker, Square king, const Walk& walk) const;
  bool full_symmetry() const { return true; }
  // Type A: a king next to the enemy king is not in check when taking it would leave a
  // pair (White Kb1 Ra2, Black Kc2 Rd2 is legal with Black to move: Kxb1 would leave the
  // rooks facing each other). Type B: adjacent kings always give an ordinary check.
  bool kings_may_touch() const { return Check == IsardamCheck::TypeA; }
};

using IsardamRules = ComposedRules<OwnWalk, Isardam<IsardamCheck::TypeA>>;
using IsardamBRules = ComposedRules<OwnWalk, Isardam<IsardamCheck::TypeB>>;

template <IsardamCheck Check>
ComposedRules<OwnWalk, Isardam<Check>> isardam_rules(const ParalysisRelation& relation) {
  return {OwnWalk{}, Isardam<Check>{relation}};
}

}  // namespace feerie
