#include "rules/ruleset.h"

#include <algorithm>
#include <vector>

#include "rules/conditions/registry.h"
#include "rules/text.h"

namespace feerie {

std::vector<std::string> RuleSet::known_names() {
  std::vector<std::string> names;
  for (const ConditionEntry& e : condition_registry()) names.push_back(std::string(e.name) + std::string(e.parameters));
  names.push_back("<paralysis>+<walk>");
  return names;
}

namespace {

enum class ConditionKind { Paralysis, Walk, Other };

template <class Rules>
constexpr ConditionKind kind_of() {
  if constexpr (IsParalysisCondition<Rules>) return ConditionKind::Paralysis;
  if constexpr (IsWalkCondition<Rules>) return ConditionKind::Walk;
  return ConditionKind::Other;
}

ConditionKind kind_of(const RuleSet& rules) {
  return rules.visit([](const auto& r) { return kind_of<std::decay_t<decltype(r)>>(); });
}

}  // namespace

// SPEC 3.6: one walk condition and one paralysis condition, in either order.
Expected<RuleSet> RuleSet::parse_combination(const std::string& n) {
  std::vector<std::string> parts;
  for (std::size_t at = 0, plus; at <= n.size(); at = plus + 1) {
    plus = std::min(n.find('+', at), n.size());
    parts.push_back(n.substr(at, plus - at));
  }
  // An empty part is named as such: "madrasi++annan" is not a third condition.
  if (std::any_of(parts.begin(), parts.end(), [](const std::string& part) { return part.empty(); }))
    return error(ErrorKind::InvalidArgument, "bad condition '" + printable_excerpt(n) +
                                                 "': an empty part (a combination is a paralysis condition and a "
                                                 "walk condition joined by one '+', e.g. madrasi-ri+annan)");
  if (parts.size() != 2)
    return error(ErrorKind::InvalidArgument, "bad condition '" + printable_excerpt(n) +
                                                 "': a combination has two parts (a paralysis condition and a walk "
                                                 "condition)");
  const RuleSet *paralysis = nullptr, *walk = nullptr;
  RuleSet parsed[2] = {orthodox(), orthodox()};
  for (int i = 0; i < 2; ++i) {
    Expected<RuleSet> part = parse(parts[i]);
    if (!part) return with_context("bad condition '" + printable_excerpt(n) + "': ", part.error());
    parsed[i] = *part;
  }
  // The messages name the parts as they were typed ("annan-a+annan": 'annan-a' and 'annan').
  const std::string both = "('" + printable_excerpt(parts[0]) + "' and '" + printable_excerpt(parts[1]) + "')";
  for (int i = 0; i < 2; ++i) {
    const RuleSet& part = parsed[i];
    const ConditionKind kind = kind_of(part);
    if (kind == ConditionKind::Paralysis) {
      if (paralysis)
        return error(ErrorKind::InvalidArgument, "bad condition '" + printable_excerpt(n) +
                                                     "': two paralysis conditions " + both +
                                                     "; a combination has one, and one walk condition");
      paralysis = &part;
    } else if (kind == ConditionKind::Walk) {
      if (walk)
        return error(ErrorKind::InvalidArgument, "bad condition '" + printable_excerpt(n) + "': two walk conditions " +
                                                     both + "; a combination has one, and one paralysis condition");
      walk = &part;
    } else {
      return error(ErrorKind::InvalidArgument, "bad condition '" + printable_excerpt(n) + "': '" +
                                                   printable_excerpt(parts[i]) +
                                                   "' does not combine (a combination is a paralysis condition and "
                                                   "a walk condition such as Annan or Nanna, e.g. madrasi-ri+annan)");
    }
  }
  // The paralysis condition's restriction (with its relation and check type) given the
  // walk condition's walks: the rule set of that pair of policies.
  Variant combined = paralysis->visit([&](const auto& p) -> Variant {
    return walk->visit([&](const auto& w) -> Variant {
      using P = std::decay_t<decltype(p)>;
      using W = std::decay_t<decltype(w)>;
      if constexpr (IsParalysisCondition<P> && IsWalkCondition<W>)
        return combine(p, w);
      else
        return p;  // not reached: the kinds were checked above
    });
  });
  return RuleSet(paralysis->name() + "+" + walk->name(), std::move(combined));
}

Expected<RuleSet> RuleSet::parse(std::string_view name) {
  std::string n(name);
  if (n.find('+') != std::string::npos) return parse_combination(n);
  if (const ConditionEntry* e = find_condition(n)) {
    if (e->make_with) {
      Expected<NamedRules> r = e->make_with(std::string_view(n).substr(e->name.size()));
      if (!r) return r.error();
      return RuleSet(r->name, std::move(r->rules));
    }
    return RuleSet(std::string(e->name), e->make());
  }
  std::string known;
  for (const std::string& k : known_names()) known += (known.empty() ? "" : ", ") + k;
  // Magic is a property of units, not a condition (SPEC 3.5): say where it is written.
  const std::string magic = n == "magic" ? "; magic units are marked in the FEN (R*) and the material (KmRvK), "
                                           "under any condition"
                                         : "";
  return error(ErrorKind::InvalidArgument,
               "unknown condition '" + printable_excerpt(n) + "' (known: " + known + ")" + magic);
}

}  // namespace feerie
