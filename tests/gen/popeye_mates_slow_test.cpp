// The KPvKP lines of tests/data/popeye_mates/mates.txt (popeye_mates_test.cpp has the
// others): en passant and promotions under the paralysis family, Annan, Nanna and
// madrasi-ri+annan against Popeye 4.104. Label `slow`: KPvKP takes about a minute under
// Annan on two cores.
#include <filesystem>

#include "tests/gen/popeye_mates.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

using Expect = test::PopeyeMatesExpectation;

class PopeyeMatesSlow : public ::testing::TestWithParam<Expect> {};

TEST_P(PopeyeMatesSlow, PawnMateLengthsEqualPopeyes) {
  const std::string condition = GetParam().condition;
  const std::string dir = test::temporary_tables_dir("feerie_popeye_mates_");
  ASSERT_TRUE(test::generate_materials(dir, condition, {"KPvKP"}));
  const Material pawns = *Material::parse("KPvKP");
  EXPECT_EQ(test::check_popeye_mate_lengths(dir, condition, test::PopeyeMatesCorpus,
                                            [&](const Material& m) { return m == pawns; }),
            GetParam().positions);
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Conditions, PopeyeMatesSlow,
                         ::testing::Values(Expect{"madrasi", 10}, Expect{"madrasi-ri", 12}, Expect{"isardam", 11},
                                           Expect{"isardam-b", 11}, Expect{"eiffel", 12}, Expect{"leffie", 11},
                                           Expect{"annan", 12}, Expect{"nanna", 12}, Expect{"madrasi-ri+annan", 12}),
                         test::test_name);

}  // namespace
}  // namespace feerie
