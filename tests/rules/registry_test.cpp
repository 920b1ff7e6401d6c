// rules/conditions/registry.h: every registered condition parses to its canonical name,
// has its page in docs/conditions/, and gives Popeye's keywords; the unknown-name error
// lists the registry.
#include "rules/conditions/registry.h"

#include <filesystem>

#include "study/popeye.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

TEST(Registry, EveryConditionParsesToItsNameAndHasItsPage) {
  int without_parameters = 0;
  for (const ConditionEntry& e : condition_registry()) {
    SCOPED_TRACE(std::string(e.name));
    EXPECT_EQ(find_condition(e.name), &e);
    if (!e.doc_page.empty())
      EXPECT_TRUE(
          std::filesystem::exists(std::string(FEERIE_SOURCE_DIR "/docs/conditions/") + std::string(e.doc_page)));
    else
      EXPECT_EQ(e.name, "orthodox");
    if (!e.parameters.empty()) {
      EXPECT_EQ(e.make, nullptr);
      continue;
    }
    ++without_parameters;
    ASSERT_NE(e.make, nullptr);
    Expected<RuleSet> r = RuleSet::parse(e.name);
    ASSERT_TRUE(r) << r.error_message();
    EXPECT_EQ(r->name(), e.name);
    if (!e.alias.empty()) {
      EXPECT_EQ(find_condition(e.alias), &e);
      EXPECT_EQ(RuleSet::parse(e.alias)->name(), e.name);
    }
    EXPECT_EQ(popeye_condition(*r).keywords, e.popeye);
    EXPECT_EQ(popeye_condition(*r).remarks.empty(), e.popeye_knows);
  }
  EXPECT_EQ(without_parameters, 19);
}

TEST(Registry, FamiliesCanonicaliseTheirParameters) {
  EXPECT_EQ(RuleSet::parse("eiffel:BQ,QB")->name(), "eiffel:bq,qb");
  EXPECT_EQ(find_condition("eiffel:qb"), find_condition("eiffel:"));
  EXPECT_NE(find_condition("eiffel"), find_condition("eiffel:"));
  Expected<RuleSet> bad = RuleSet::parse("eiffel:qx");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error_message().find("bad pair 'qx'"), std::string::npos) << bad.error_message();
}

TEST(Registry, CombinationsTakeTheirPartsKeywords) {
  EXPECT_EQ(popeye_condition(*RuleSet::parse("madrasi-ri+back-to-back")).keywords, "Madrasi RexInclusive BackToBack");
  EXPECT_EQ(popeye_condition(*RuleSet::parse("isardam-b+nanna-c")).keywords, "Isardam TypeB NannaChess TypeC");
  EXPECT_TRUE(popeye_condition(*RuleSet::parse("isardam-b+nanna-c")).remarks.empty());
  // Face-to-face combined reads as Popeye reads it (docs/conditions/face-to-face.md): no remark.
  EXPECT_TRUE(popeye_condition(*RuleSet::parse("madrasi+face-to-face")).remarks.empty());
  EXPECT_TRUE(popeye_condition(*RuleSet::parse("face-to-face")).remarks.empty());
  EXPECT_EQ(
      popeye_condition(*RuleSet::parse("eiffel:qb+annan")).remarks,
      std::vector<std::string>{"Feerie's condition eiffel:qb (each pair XY: X paralyses Y, Eiffel's mechanism) has "
                               "no Popeye keyword: Popeye reads this problem without it"});
}

TEST(Registry, TheUnknownNameErrorListsEveryCondition) {
  Expected<RuleSet> r = RuleSet::parse("chess960");
  ASSERT_FALSE(r);
  for (const ConditionEntry& e : condition_registry())
    EXPECT_NE(r.error_message().find(std::string(e.name) + std::string(e.parameters)), std::string::npos) << e.name;
  EXPECT_EQ(find_condition("annan-e"), nullptr);
  EXPECT_EQ(find_condition("eiffelx"), nullptr);
}

}  // namespace
}  // namespace feerie
