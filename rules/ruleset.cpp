#include "rules/ruleset.h"

namespace feerie {

std::vector<std::string> RuleSet::known_names() {
  return {"orthodox", "madrasi",       "madrasi-ri", "isardam", "isardam-b", "isardam-ri",
          "isardam-b-ri", "eiffel", "eiffel:<pairs>", "leffie"};
}

namespace {

ParalysisRules isardam(ParalysisRules relation, bool type_b) {
  relation.isardam = true;
  relation.ordinary_checks = type_b;
  return relation;
}

}  // namespace

Expected<RuleSet> RuleSet::parse(std::string_view name) {
  std::string n(name);
  if (n == "orthodox") return orthodox();
  if (n == "madrasi") return RuleSet(n, madrasi_rules(false));
  if (n == "madrasi-ri") return RuleSet(n, madrasi_rules(true));
  if (n == "isardam") return RuleSet(n, isardam(madrasi_rules(false), false));
  if (n == "isardam-b") return RuleSet(n, isardam(madrasi_rules(false), true));
  if (n == "isardam-ri") return RuleSet(n, isardam(madrasi_rules(true), false));
  if (n == "isardam-b-ri") return RuleSet(n, isardam(madrasi_rules(true), true));
  if (n == "eiffel") return RuleSet(n, eiffel_rules());
  if (n == "leffie") return RuleSet(n, isardam(eiffel_rules(), false));
  if (n.rfind("eiffel:", 0) == 0) {
    ParsedRelation relation;
    std::string why;
    if (!parse_relation(n.substr(7), relation, why)) return error("bad condition '" + n + "': " + why);
    return RuleSet("eiffel:" + relation.canonical, relation.rules);
  }
  std::string known;
  for (const std::string& k : known_names()) known += (known.empty() ? "" : ", ") + k;
  return error("unknown condition '" + n + "' (known: " + known + ")");
}

}  // namespace feerie
