// Combinations of a paralysis condition with a walk condition (SPEC 3.6), written
// `PARALYSIS+WALK`: madrasi+annan, madrasi-ri+annan-b, isardam+nanna, eiffel:qb,bq+annan,
// madrasi+face-to-face. A unit moves, captures, checks and observes with the walk it uses
// (its lender's under Annan, its confronter's under Face-to-face), and the paralysis
// relation is applied to (that walk, the real type of the observed unit): a white rook
// moving as a bishop paralyses a black bishop under Madrasi, and is paralysed by a black
// rook. Nothing here but the composition, for any walk policy: the walks are the walk
// condition's, the restriction Madrasi's or Eiffel's (paralysis.h) or Isardam's with its
// check type (isardam.h). Every composition is a rule set of rule_sets.h.
// docs/conditions/combinations.md.
#pragma once

#include <type_traits>

#include "rules/conditions/annan.h"
#include "rules/conditions/isardam.h"
#include "rules/conditions/paralysis.h"

namespace feerie {

// A walk condition (Annan, Nanna, Face-to-face, ...): borrowed walks, nothing restricted.
template <class Rules>
constexpr bool IsWalkCondition =
    !Rules::WalkPart::OwnWalks && std::is_same_v<typename Rules::RestrictionPart, NoRestriction>;

// A paralysis condition's restriction (with its relation and check type) given a walk
// condition's walks.
template <class Walk, class Restriction>
ComposedRules<Walk, Restriction> combine(const ComposedRules<OwnWalk, Restriction>& paralysis,
                                         const ComposedRules<Walk, NoRestriction>& walk) {
  return {walk.walk(), paralysis.restriction()};
}

using CombinedRules = ComposedRules<AnnanWalk, Paralysis>;                             // madrasi+annan, ...
using CombinedIsardamRules = ComposedRules<AnnanWalk, Isardam<IsardamCheck::TypeA>>;   // isardam+annan, ...
using CombinedIsardamBRules = ComposedRules<AnnanWalk, Isardam<IsardamCheck::TypeB>>;  // isardam-b+annan, ...

}  // namespace feerie
