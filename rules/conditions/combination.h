// Combinations of a paralysis condition with Annan or Nanna (SPEC 3.6), written
// `PARALYSIS+WALK`: madrasi+annan, madrasi-ri+annan-b, isardam+nanna, eiffel:qb,bq+annan.
// A unit moves, captures, checks and observes with the walk it uses (its lender's under
// Annan), and the paralysis relation is applied to (that walk, the real type of the
// observed unit): a white rook moving as a bishop paralyses a black bishop under Madrasi,
// and is paralysed by a black rook. Nothing here but the composition: the walks are
// Annan's (annan.h), the restriction Madrasi's or Eiffel's (paralysis.h) or Isardam's
// with its check type (isardam.h). docs/conditions/combinations.md.
#pragma once

#include "rules/conditions/annan.h"
#include "rules/conditions/isardam.h"
#include "rules/conditions/paralysis.h"

namespace feerie {

template <class Restriction>
using WithAnnanWalk = ComposedRules<AnnanWalk, Restriction>;

using CombinedRules = WithAnnanWalk<Paralysis>;                             // madrasi+annan, eiffel+nanna-c, ...
using CombinedIsardamRules = WithAnnanWalk<Isardam<IsardamCheck::TypeA>>;   // isardam+annan, leffie+nanna, ...
using CombinedIsardamBRules = WithAnnanWalk<Isardam<IsardamCheck::TypeB>>;  // isardam-b+annan, ...

// A paralysis condition's rule set (own walks, a restriction) given Annan's walks.
template <class Restriction>
WithAnnanWalk<Restriction> combine(const ComposedRules<OwnWalk, Restriction>& paralysis, const AnnanWalk& walk) {
  return {walk, paralysis.restriction()};
}

}  // namespace feerie
