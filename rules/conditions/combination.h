// Combinations of a paralysis condition with Annan or Nanna (SPEC 3.6), written
// `PARALYSIS+WALK`: madrasi+annan, madrasi-ri+annan-b, isardam+nanna, eiffel:qb,bq+annan.
// A unit moves, captures, checks and observes with the walk it uses (its lender's under
// Annan), and the paralysis relation is applied to (that walk, the real type of the
// observed unit): a white rook moving as a bishop paralyses a black bishop under Madrasi,
// and is paralysed by a black rook. Nothing here but the composition: the walks are
// Annan's (annan.h), the paralysis Madrasi's, Isardam's or Eiffel's (paralysis.h).
// docs/conditions/combinations.md.
#pragma once

#include "rules/conditions/annan.h"
#include "rules/conditions/paralysis.h"

namespace feerie {

struct CombinedRules : ComposedRules<AnnanWalk, Paralysis> {
  Bitboard paralysed_bb(const Position& pos) const { return Paralysis::paralysed_bb(pos, walk()); }
};

inline CombinedRules combine(const Paralysis& paralysis, const AnnanWalk& walk) {
  CombinedRules rules;
  static_cast<Paralysis&>(rules) = paralysis;
  static_cast<AnnanWalk&>(rules) = walk;
  return rules;
}

}  // namespace feerie
