// The conditions a user can name, each registered once (docs/architecture.md, "Adding a
// condition"): its name, the rule set it gives, Popeye's keywords for it and its page in
// docs/conditions/. RuleSet::parse, RuleSet::known_names and the Popeye output
// (study/popeye.cpp) read this table; no other code lists condition names. Combinations
// (`PARALYSIS+WALK`, SPEC 3.6) are not entries: RuleSet::parse composes two entries whose
// rule sets are a paralysis condition and a walk condition (combination.h).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "rules/conditions/rule_sets.h"
#include "rules/expected.h"

namespace feerie {

// A condition's rule set with its canonical name (a family with parameters canonicalises
// them: "eiffel:qb,bq" for "eiffel:BQ,QB").
struct NamedRules {
  std::string name;
  RuleSetVariant rules;
};

struct ConditionEntry {
  // The canonical name; for a family with parameters, the prefix before them, ending in
  // ':' ("eiffel:").
  std::string_view name;
  // Another spelling of the same condition ("annan-a" for "annan"), or empty.
  std::string_view alias;
  // How the family's parameters are shown to users ("<pairs>"); empty without parameters.
  std::string_view parameters;
  // Popeye's condition keywords ("Madrasi RexInclusive"; empty for orthodox chess), and
  // whether Popeye has the condition at all.
  std::string_view popeye;
  bool popeye_knows;
  // For a condition Popeye lacks, what it means, for a Popeye user (written beside the
  // remark that Popeye reads the problem without it); empty for the conditions it has.
  std::string_view popeye_remark;
  // The condition's page, docs/conditions/<page> (empty for orthodox chess).
  std::string_view doc_page;
  // The rules of a condition without parameters.
  RuleSetVariant (*make)();
  // The rules of a family given its parameters (the text after the prefix); the error
  // names what is wrong in them.
  Expected<NamedRules> (*make_with)(std::string_view parameters);
};

// Every registered condition, in the order users see them.
std::span<const ConditionEntry> condition_registry();

// The entry of a canonical or alias name, or of a family whose prefix `name` starts with;
// nullptr when none.
const ConditionEntry* find_condition(std::string_view name);

}  // namespace feerie
