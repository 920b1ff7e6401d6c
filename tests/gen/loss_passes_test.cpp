// The passes of losses push each loss to its predecessors or have the entries that may
// still win pull it from their successors (gen/solver.h, LossPassChoice): whichever way a
// pass goes, the solve gives the same values. Each table is solved pushing only and then
// pulling wherever the candidates are fewer than four times the losses (far more often
// than the default choice, which the small tables here seldom reach), in every width of
// the values and under a paralysis condition.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "gen/generate.h"
#include "gen/solver.h"
#include "tests/gen/table_test_util.h"

namespace feerie {
namespace {

class LossPasses : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = test::shared_tables_dir("loss_passes");
    for (const char* condition : {"orthodox", "madrasi-ri"})
      ASSERT_TRUE(test::generate_kqvkr_subtables(dir_, condition));
  }

  // Every value of `material` (white to move, then black) solved under `condition` with
  // `choice`; `pulled` receives the sides pulled over all passes.
  static std::vector<ValueCode> solve_with(const char* material, const char* condition, LossPassChoice choice,
                                           int narrow_max_plies, int& pulled) {
    const RuleSet rules = *RuleSet::parse(condition);
    Indexer indexer(*Material::parse(material), rules);
    Tablebase subtables = Tablebase::open(dir_, rules);
    SolveOptions options;
    options.threads = 2;
    options.loss_passes = choice;
    options.narrow_max_plies = narrow_max_plies;
    pulled = 0;
    options.on_pass = [&](const SolveProgress& p) { pulled += p.pulled; };
    Expected<SolvedTable> solved = solve(indexer, subtables, options);
    EXPECT_TRUE(solved.ok()) << solved.error_message();
    if (!solved.ok()) return {};
    return test::codes_of_both_sides(*solved);
  }

  static constexpr LossPassChoice PullOften{0.25, 1};
  static std::string dir_;
};
std::string LossPasses::dir_;

TEST_F(LossPasses, PushedAndPulledGiveTheSameValuesInEveryWidth) {
  int pulled = 0;
  const std::vector<ValueCode> pushed =
      solve_with("KQvKR", "orthodox", LossPassChoice::push_only(), narrow::MaxPlies, pulled);
  ASSERT_FALSE(pushed.empty());
  EXPECT_EQ(pulled, 0);
  // Narrow; extended from pass 40 on (mates of 41 plies and more take a high bit); wide.
  for (int narrow_max_plies : {narrow::MaxPlies, 40, -1}) {
    EXPECT_EQ(solve_with("KQvKR", "orthodox", PullOften, narrow_max_plies, pulled), pushed) << narrow_max_plies;
    EXPECT_GE(pulled, 5) << narrow_max_plies;
  }
  // The default choice gives them too, pulling or not.
  EXPECT_EQ(solve_with("KQvKR", "orthodox", LossPassChoice{}, narrow::MaxPlies, pulled), pushed);
}

// Under Madrasi RI the kings may touch and units paralyse each other: the candidates' legal
// moves (pulled) and the losses' un-moves (pushed) are the rules' own.
TEST_F(LossPasses, PushedAndPulledGiveTheSameValuesUnderMadrasiRexInclusive) {
  int pulled = 0;
  const std::vector<ValueCode> pushed =
      solve_with("KQvKR", "madrasi-ri", LossPassChoice::push_only(), narrow::MaxPlies, pulled);
  ASSERT_FALSE(pushed.empty());
  // Far more entries stay open (drawn by paralysis): pulled even with a hundred times more
  // candidates than losses.
  EXPECT_EQ(solve_with("KQvKR", "madrasi-ri", LossPassChoice{0.01, 1}, narrow::MaxPlies, pulled), pushed);
  EXPECT_GE(pulled, 5);
}

}  // namespace
}  // namespace feerie
