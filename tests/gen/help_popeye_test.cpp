// Helpmate tables of the 3-man materials against Popeye's answers under orthodox chess,
// Madrasi RI and Annan, and the selfmates of Madrasi RI KQvKR (both orientations; where
// Popeye found most) (tests/gen/help_corpus.h); the other 4-man ones are in the slow suite
// (help_popeye_slow_test.cpp).
#include "tests/gen/help_corpus.h"

namespace feerie {
namespace {

const std::set<std::string> ThreeMen = {"KQvK", "KRvK", "KPvK"};

TEST(HelpPopeye, OrthodoxThreeMenEqualPopeyes) { EXPECT_GE(test::expect_popeye_helpmates("orthodox", ThreeMen), 120); }
TEST(HelpPopeye, MadrasiRiThreeMenEqualPopeyes) {
  EXPECT_GE(test::expect_popeye_helpmates("madrasi-ri", ThreeMen), 120);
}
TEST(HelpPopeye, AnnanThreeMenEqualPopeyes) { EXPECT_GE(test::expect_popeye_helpmates("annan", ThreeMen), 120); }

// Madrasi, Isardam (A, B), Eiffel, Leffie, Nanna and madrasi-ri+annan: the 3-man lines
// (helpmates_conditions.txt; the 4-man ones and the selfmates are in the slow suite).
class HelpPopeyeConditions : public ::testing::TestWithParam<std::pair<const char*, int>> {};
TEST_P(HelpPopeyeConditions, ThreeMenEqualPopeyes) {
  EXPECT_EQ(test::expect_popeye_helpmates(GetParam().first, ThreeMen, test::HelpmatesOfConditions), GetParam().second);
}
INSTANTIATE_TEST_SUITE_P(Conditions, HelpPopeyeConditions,
                         ::testing::Values(std::pair{"madrasi", 67}, std::pair{"isardam", 66},
                                           std::pair{"isardam-b", 63}, std::pair{"eiffel", 63}, std::pair{"leffie", 59},
                                           std::pair{"nanna", 65}, std::pair{"madrasi-ri+annan", 62}));

TEST(SelfPopeye, MadrasiRiKQvKREqualsPopeyes) {
  EXPECT_GE(test::expect_popeye_selfmates("madrasi-ri", {"KQvKR", "KRvKQ"}), 90);
}

}  // namespace
}  // namespace feerie
