// Direct-mate lengths under the paralysis family, Annan, Nanna and madrasi-ri+annan equal
// to the outside referee's: Popeye 4.104's answers on 681 positions sampled from KQvK, KRvK,
// KQvKR, KRvKN, KPvK, KQvKQ, KRvKR and KPvKP, half of them where the condition changes the
// orthodox value (tests/data/popeye_mates/mates.txt, recorded outside the suite by its
// make_corpus.py; FINDINGS.md there gives the Popeye keywords). The KPvKP lines, whose
// tables take minutes under Annan, are in popeye_mates_slow_test.cpp.
#include "tests/gen/popeye_mates.h"

#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

using Expect = test::PopeyeMatesExpectation;

class PopeyeMates : public ::testing::TestWithParam<Expect> {};

TEST_P(PopeyeMates, MateLengthsEqualPopeyes) {
  const std::string condition = GetParam().condition;
  // One fixture directory for every condition: gen keeps each condition's tables apart.
  const std::string dir = test::shared_tables_dir("popeye_mates");
  ASSERT_TRUE(test::generate_materials(dir, condition, {"KQvK", "KRvK", "KQvKR", "KRvKN", "KPvK", "KQvKQ", "KRvKR"}));
  const Material pawns = *Material::parse("KPvKP");
  EXPECT_EQ(test::check_popeye_mate_lengths(dir, condition, test::PopeyeMatesCorpus,
                                            [&](const Material& m) { return m != pawns; }),
            GetParam().positions);
}

INSTANTIATE_TEST_SUITE_P(Conditions, PopeyeMates,
                         ::testing::Values(Expect{"madrasi", 51}, Expect{"madrasi-ri", 74}, Expect{"isardam", 54},
                                           Expect{"isardam-b", 53}, Expect{"eiffel", 48}, Expect{"leffie", 48},
                                           Expect{"annan", 84}, Expect{"nanna", 84}, Expect{"madrasi-ri+annan", 82}),
                         test::test_name);

}  // namespace
}  // namespace feerie
