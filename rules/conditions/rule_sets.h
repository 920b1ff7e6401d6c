// Every rule set a condition name can give: each walk policy composed with each
// restriction policy (rules/conditions/composed.h). The two lists below are the only place
// the policies are named: RuleSet::Variant and the explicit instantiation lists of the
// templates compiled per rule set (movegen.cpp) or per walk (paralysis.cpp, isardam.cpp)
// are derived from them, so a new policy is added here once (docs/architecture.md,
// "Adding a condition").
#pragma once

#include <variant>

#include "rules/conditions/annan.h"
#include "rules/conditions/face_to_face.h"
#include "rules/conditions/isardam.h"
#include "rules/conditions/orthodox.h"
#include "rules/conditions/paralysis.h"

// F(ARG, Walk) for each walk policy.
#define FEERIE_WALK_POLICIES(F, ARG) F(ARG, OwnWalk) F(ARG, AnnanWalk) F(ARG, ConfrontationWalk)
// X(Walk, Restriction) for each restriction policy.
#define FEERIE_WITH_RESTRICTIONS(X, Walk) \
  X(Walk, NoRestriction)                  \
  X(Walk, Paralysis) X(Walk, Isardam<IsardamCheck::TypeA>) X(Walk, Isardam<IsardamCheck::TypeB>)
// X(Walk, Restriction) for every rule set, ComposedRules<Walk, Restriction>.
#define FEERIE_RULE_SETS(X) FEERIE_WALK_POLICIES(FEERIE_WITH_RESTRICTIONS, X)

namespace feerie {

namespace rule_sets_detail {
template <class Unused, class... Rules>
struct VariantOf {
  using type = std::variant<Rules...>;
};
#define FEERIE_COMMA_RULE_SET(Walk, Restriction) , ComposedRules<Walk, Restriction>
using AllRuleSets = VariantOf<void FEERIE_RULE_SETS(FEERIE_COMMA_RULE_SET)>::type;
#undef FEERIE_COMMA_RULE_SET
}  // namespace rule_sets_detail

// std::variant of every rule set (RuleSet::Variant).
using RuleSetVariant = rule_sets_detail::AllRuleSets;

}  // namespace feerie
