// A rule set: a condition name parsed and validated once into a value that the hot loops
// use without look-ups (SPEC 4). visit() makes the single dispatch to the condition's
// type; everything inside runs specialised for it.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rules/conditions/combination.h"
#include "rules/conditions/rule_sets.h"
#include "rules/expected.h"

namespace feerie {

class RuleSet {
 public:
  // Every composition of a walk policy and a restriction policy (rules/conditions/rule_sets.h,
  // which the templates instantiated per rule set derive their lists from).
  using Variant = RuleSetVariant;

  // Accepts the names of the condition registry (rules/conditions/registry.h), and the
  // combinations of SPEC 3.6 (`PARALYSIS+WALK`, either order; canonical name with the
  // paralysis condition first); anything else is an error "unknown condition 'X' (known:
  // ...)", or says why a combination is not one (two walk conditions, two paralysis
  // conditions, ...).
  static Expected<RuleSet> parse(std::string_view name);
  static RuleSet orthodox() { return RuleSet("orthodox", OrthodoxRules{}); }
  // The condition names parse() accepts (parameterised families shown as patterns).
  static std::vector<std::string> known_names();

  // Canonical lower-case name, as used in table headers and directories.
  const std::string& name() const { return name_; }

  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), rules_);
  }

  // The condition value when it is of type T, else nullptr (tests and tools that need a
  // family's parameters; hot code dispatches with visit()).
  template <class T>
  const T* get_if() const {
    return std::get_if<T>(&rules_);
  }

  bool full_symmetry() const {
    return visit([](const auto& r) { return r.full_symmetry(); });
  }
  bool kings_may_touch() const {
    return visit([](const auto& r) { return r.kings_may_touch(); });
  }
  // Every unit moves with its own walk (orthodox chess, the paralysis family); else a unit
  // may borrow a walk, from a friendly unit (Annan, Nanna) or, when enemies_lend(), from
  // an enemy unit (Face-to-face, Back-to-back).
  bool own_walks() const {
    return visit([](const auto& r) { return std::decay_t<decltype(r)>::OwnWalks; });
  }
  bool enemies_lend() const {
    return visit([](const auto& r) { return std::decay_t<decltype(r)>::EnemiesLend; });
  }

  bool operator==(const RuleSet& o) const { return name_ == o.name_; }

 private:
  RuleSet(std::string name, Variant rules) : name_(std::move(name)), rules_(std::move(rules)) {}
  static Expected<RuleSet> parse_combination(const std::string& name);

  std::string name_;
  Variant rules_;
};

}  // namespace feerie
