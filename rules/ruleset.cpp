#include "rules/ruleset.h"

#include "rules/text.h"

namespace feerie {

std::vector<std::string> RuleSet::known_names() {
  return {"orthodox",
          "madrasi",
          "madrasi-ri",
          "isardam",
          "isardam-b",
          "isardam-ri",
          "isardam-b-ri",
          "eiffel",
          "eiffel:<pairs>",
          "leffie",
          "annan",
          "annan-b",
          "annan-c",
          "annan-d",
          "nanna",
          "nanna-b",
          "nanna-c",
          "nanna-d",
          "<paralysis>+<annan|nanna>"};
}

// SPEC 3.6: one walk condition and one paralysis condition, in either order.
Expected<RuleSet> RuleSet::parse_combination(const std::string& n) {
  const std::size_t plus = n.find('+');
  if (n.find('+', plus + 1) != std::string::npos)
    return error(
        ErrorKind::InvalidArgument,
        "bad condition '" + printable(n) + "': a combination has two parts (a paralysis condition and Annan or Nanna)");
  const std::string parts[2] = {n.substr(0, plus), n.substr(plus + 1)};
  const RuleSet *paralysis = nullptr, *walk = nullptr;
  RuleSet parsed[2] = {orthodox(), orthodox()};
  for (int i = 0; i < 2; ++i) {
    Expected<RuleSet> part = parse(parts[i]);
    if (!part) return with_context("bad condition '" + printable(n) + "': ", part.error());
    parsed[i] = *part;
  }
  for (const RuleSet& part : parsed) {
    const bool is_paralysis = part.visit([](const auto& r) { return IsParalysisCondition<std::decay_t<decltype(r)>>; });
    if (is_paralysis) {
      if (paralysis)
        return error(ErrorKind::InvalidArgument, "bad condition '" + printable(n) + "': two paralysis conditions ('" +
                                                     paralysis->name() + "' and '" + part.name() +
                                                     "'); a combination has one, and Annan or Nanna");
      paralysis = &part;
    } else if (part.get_if<AnnanRules>()) {
      if (walk)
        return error(ErrorKind::InvalidArgument, "bad condition '" + printable(n) + "': two walk conditions ('" +
                                                     walk->name() + "' and '" + part.name() +
                                                     "'); a combination has one, and one paralysis condition");
      walk = &part;
    } else {
      return error(ErrorKind::InvalidArgument, "bad condition '" + printable(n) + "': '" + part.name() +
                                                   "' does not combine (a combination is a paralysis condition and "
                                                   "Annan or Nanna, e.g. madrasi-ri+annan)");
    }
  }
  // The paralysis condition's restriction (with its relation and check type) given
  // Annan's walks: the same restriction type, so the same specialised code.
  Variant combined = paralysis->visit([&](const auto& r) -> Variant {
    if constexpr (IsParalysisCondition<std::decay_t<decltype(r)>>)
      return combine(r, *walk->get_if<AnnanRules>());
    else
      return r;  // not reached: `paralysis` is a paralysis condition
  });
  return RuleSet(paralysis->name() + "+" + walk->name(), std::move(combined));
}

Expected<RuleSet> RuleSet::parse(std::string_view name) {
  std::string n(name);
  if (n.find('+') != std::string::npos) return parse_combination(n);
  if (n == "orthodox") return orthodox();
  using enum IsardamCheck;
  if (n == "madrasi") return RuleSet(n, paralysis_rules(madrasi_relation(false)));
  if (n == "madrasi-ri") return RuleSet(n, paralysis_rules(madrasi_relation(true)));
  if (n == "isardam") return RuleSet(n, isardam_rules<TypeA>(madrasi_relation(false)));
  if (n == "isardam-b") return RuleSet(n, isardam_rules<TypeB>(madrasi_relation(false)));
  if (n == "isardam-ri") return RuleSet(n, isardam_rules<TypeA>(madrasi_relation(true)));
  if (n == "isardam-b-ri") return RuleSet(n, isardam_rules<TypeB>(madrasi_relation(true)));
  if (n == "eiffel") return RuleSet(n, paralysis_rules(eiffel_relation()));
  if (n == "leffie") return RuleSet(n, isardam_rules<TypeA>(eiffel_relation()));
  // Annan and Nanna: type A is the default and its canonical name has no suffix.
  for (const char* family : {"annan", "nanna"}) {
    std::string f = family;
    if (n == f) return RuleSet(f, annan_rules(f == "nanna", 'a'));
    if (n.size() == f.size() + 2 && n.rfind(f + "-", 0) == 0 && n.back() >= 'a' && n.back() <= 'd')
      return RuleSet(n.back() == 'a' ? f : n, annan_rules(f == "nanna", n.back()));
  }
  if (n.rfind("eiffel:", 0) == 0) {
    ParsedRelation relation;
    std::string why;
    if (!parse_relation(n.substr(7), relation, why))
      return error(ErrorKind::InvalidArgument, "bad condition '" + printable(n) + "': " + why);
    return RuleSet("eiffel:" + relation.canonical, paralysis_rules(relation.relation));
  }
  std::string known;
  for (const std::string& k : known_names()) known += (known.empty() ? "" : ", ") + k;
  return error(ErrorKind::InvalidArgument, "unknown condition '" + printable(n) + "' (known: " + known + ")");
}

}  // namespace feerie
