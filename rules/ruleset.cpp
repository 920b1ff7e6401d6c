#include "rules/ruleset.h"

namespace feerie {

std::vector<std::string> RuleSet::known_names() { return {"orthodox"}; }

Expected<RuleSet> RuleSet::parse(std::string_view name) {
  if (name == "orthodox") return orthodox();
  std::string known;
  for (const std::string& n : known_names()) known += (known.empty() ? "" : ", ") + n;
  return error("unknown condition '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace feerie
