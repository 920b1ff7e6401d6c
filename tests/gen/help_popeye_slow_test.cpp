// Every helpmate and selfmate Popeye recorded (tests/gen/help_corpus.h), 3- and 4-man,
// under orthodox chess, Madrasi RI and Annan: at least 300 positions each (slow suite: the
// 4-man tables take a minute or two per condition).
#include "tests/gen/help_corpus.h"
#include "tests/gen/self_reference.h"

namespace feerie {
namespace {

const std::set<std::string> All = {"KQvK", "KRvK", "KPvK", "KBNvK", "KQvKR", "KRvKN", "KPvKP", "KRvKP"};

TEST(HelpPopeyeSlow, OrthodoxEqualsPopeyes) { EXPECT_GE(test::expect_popeye_helpmates("orthodox", All), 300); }
TEST(HelpPopeyeSlow, MadrasiRiEqualsPopeyes) { EXPECT_GE(test::expect_popeye_helpmates("madrasi-ri", All), 300); }
TEST(HelpPopeyeSlow, AnnanEqualsPopeyes) { EXPECT_GE(test::expect_popeye_helpmates("annan", All), 300); }

const std::set<std::string> Selfmates = {"KQvKR", "KRvKR", "KQvKQ", "KPvKR", "KBvKR", "KNvKQ", "KRvKQ"};

TEST(SelfPopeyeSlow, OrthodoxEqualsPopeyes) { EXPECT_GE(test::expect_popeye_selfmates("orthodox", Selfmates), 300); }
TEST(SelfPopeyeSlow, MadrasiRiEqualsPopeyes) { EXPECT_GE(test::expect_popeye_selfmates("madrasi-ri", Selfmates), 300); }
TEST(SelfPopeyeSlow, AnnanEqualsPopeyes) { EXPECT_GE(test::expect_popeye_selfmates("annan", Selfmates), 300); }

// Madrasi, Isardam (A, B), Eiffel, Leffie, Nanna and madrasi-ri+annan
// (helpmates_conditions.txt and selfmates_conditions.txt): every line.
const std::set<std::string> HelpOfConditions = {"KQvK",  "KRvK",  "KPvK",  "KQvKR", "KRvKQ",
                                                "KRvKN", "KNvKR", "KQvKQ", "KRvKR"};
const std::set<std::string> SelfOfConditions = {"KQvKR", "KRvKQ", "KRvKR", "KQvKQ"};
struct ConditionCounts {
  const char* condition;
  int helpmates, selfmates;
};
class HelpPopeyeConditionsSlow : public ::testing::TestWithParam<ConditionCounts> {};
TEST_P(HelpPopeyeConditionsSlow, EveryLineEqualsPopeyes) {
  EXPECT_EQ(test::expect_popeye_helpmates(GetParam().condition, HelpOfConditions, test::HelpmatesOfConditions),
            GetParam().helpmates);
  EXPECT_EQ(test::expect_popeye_selfmates(GetParam().condition, SelfOfConditions, test::SelfmatesOfConditions),
            GetParam().selfmates);
}
INSTANTIATE_TEST_SUITE_P(Conditions, HelpPopeyeConditionsSlow,
                         ::testing::Values(ConditionCounts{"madrasi", 111, 42}, ConditionCounts{"isardam", 108, 53},
                                           ConditionCounts{"isardam-b", 99, 45}, ConditionCounts{"eiffel", 84, 37},
                                           ConditionCounts{"leffie", 84, 53}, ConditionCounts{"nanna", 81, 69},
                                           ConditionCounts{"madrasi-ri+annan", 85, 104}));

// Annan: selfmates within 4 plies are rare here (Popeye found 3 in 2,000 KRvKR positions),
// so the sample holds the mated-now positions and those without.
TEST(SelfSolverSlow, AnnanKRvKREqualsAForwardSearch) {
  Expected<HelpTablebase> tb = test::selfmates("annan", "KRvKR");
  ASSERT_TRUE(tb.ok()) << tb.error_message();
  test::expect_reference_values(*tb, "KRvKR", 4, 6, 2);
}

}  // namespace
}  // namespace feerie
