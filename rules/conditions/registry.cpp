#include "rules/conditions/registry.h"

#include <utility>

#include "rules/text.h"

namespace feerie {

namespace {

using enum IsardamCheck;

Expected<NamedRules> eiffel_with_pairs(std::string_view pairs) {
  ParsedRelation relation;
  std::string why;
  if (!parse_relation(std::string(pairs), relation, why))
    return error(ErrorKind::InvalidArgument, "bad condition 'eiffel:" + printable(std::string(pairs)) + "': " + why);
  // A relation a condition of its own has (the default Eiffel cycle written out, or every
  // type paralysing its own: Madrasi, with kings Madrasi RI) is that condition, with its
  // tables, its name and its Popeye keyword (it had a table directory of its own).
  for (const auto& [name, same] :
       {std::pair{"eiffel", eiffel_relation()}, std::pair{"madrasi", madrasi_relation(false)},
        std::pair{"madrasi-ri", madrasi_relation(true)}})
    if (relation.relation.paralyses == same.paralyses) return NamedRules{name, paralysis_rules(same)};
  return NamedRules{"eiffel:" + relation.canonical, paralysis_rules(relation.relation)};
}

// Annan and Nanna, types A-D: type A is the default and its name has no suffix.
template <bool Nanna, char Type>
RuleSetVariant annan_type() {
  return annan_rules(Nanna, Type);
}

// Name, alias, parameters, Popeye's keywords, Popeye knows it, remark for Popeye users, doc page,
// rules.
constexpr ConditionEntry Registry[] = {
    {"orthodox", "", "", "", true, "", "", []() -> RuleSetVariant { return OrthodoxRules{}; }, nullptr},
    {"madrasi", "", "", "Madrasi", true, "", "madrasi.md",
     []() -> RuleSetVariant { return paralysis_rules(madrasi_relation(false)); }, nullptr},
    {"madrasi-ri", "", "", "Madrasi RexInclusive", true, "", "madrasi.md",
     []() -> RuleSetVariant { return paralysis_rules(madrasi_relation(true)); }, nullptr},
    // Isardam: "TypeB" before "RexInclusive" (Popeye's input/plaintext/condition.c parses
    // them in that order).
    {"isardam", "", "", "Isardam", true, "", "isardam.md",
     []() -> RuleSetVariant { return isardam_rules<TypeA>(madrasi_relation(false)); }, nullptr},
    {"isardam-b", "", "", "Isardam TypeB", true, "", "isardam.md",
     []() -> RuleSetVariant { return isardam_rules<TypeB>(madrasi_relation(false)); }, nullptr},
    {"isardam-ri", "", "", "Isardam RexInclusive", true, "", "isardam.md",
     []() -> RuleSetVariant { return isardam_rules<TypeA>(madrasi_relation(true)); }, nullptr},
    {"isardam-b-ri", "", "", "Isardam TypeB RexInclusive", true, "", "isardam.md",
     []() -> RuleSetVariant { return isardam_rules<TypeB>(madrasi_relation(true)); }, nullptr},
    {"eiffel", "", "", "EiffelChess", true, "", "eiffel.md",
     []() -> RuleSetVariant { return paralysis_rules(eiffel_relation()); }, nullptr},
    {"eiffel:", "", "<pairs>", "", false, "each pair XY: X paralyses Y, Eiffel's mechanism", "eiffel.md", nullptr,
     eiffel_with_pairs},
    {"leffie", "", "", "Leffie", true, "", "isardam.md",
     []() -> RuleSetVariant { return isardam_rules<TypeA>(eiffel_relation()); }, nullptr},
    {"annan", "annan-a", "", "AnnanChess", true, "", "annan.md", annan_type<false, 'a'>, nullptr},
    {"annan-b", "", "", "AnnanChess TypeB", true, "", "annan.md", annan_type<false, 'b'>, nullptr},
    {"annan-c", "", "", "AnnanChess TypeC", true, "", "annan.md", annan_type<false, 'c'>, nullptr},
    {"annan-d", "", "", "AnnanChess TypeD", true, "", "annan.md", annan_type<false, 'd'>, nullptr},
    {"nanna", "nanna-a", "", "NannaChess", true, "", "annan.md", annan_type<true, 'a'>, nullptr},
    {"nanna-b", "", "", "NannaChess TypeB", true, "", "annan.md", annan_type<true, 'b'>, nullptr},
    {"nanna-c", "", "", "NannaChess TypeC", true, "", "annan.md", annan_type<true, 'c'>, nullptr},
    {"nanna-d", "", "", "NannaChess TypeD", true, "", "annan.md", annan_type<true, 'd'>, nullptr},
    {"face-to-face", "", "", "FaceToFace", true, "", "face-to-face.md",
     []() -> RuleSetVariant { return face_to_face_rules(); }, nullptr},
    {"back-to-back", "", "", "BackToBack", true, "", "face-to-face.md",
     []() -> RuleSetVariant { return back_to_back_rules(); }, nullptr},
};

}  // namespace

std::span<const ConditionEntry> condition_registry() { return Registry; }

const ConditionEntry* find_condition(std::string_view name) {
  for (const ConditionEntry& e : Registry) {
    if (!e.parameters.empty() ? name.starts_with(e.name) : (name == e.name || (!e.alias.empty() && name == e.alias)))
      return &e;
  }
  return nullptr;
}

}  // namespace feerie
