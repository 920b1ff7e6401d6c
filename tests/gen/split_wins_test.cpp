// Two threads split the wins of a pass by the colour parity of the winning side's units
// (gen/solver.cpp, wins_split()), each taking the counts of its own predecessors without
// locked instructions: the values are those of one thread, under orthodox chess, a
// paralysis condition (Madrasi RI: kings may touch) and borrowed walks (Annan).
#include <gtest/gtest.h>

#include <vector>

#include "gen/generate.h"
#include "gen/solver.h"
#include "tests/gen/table_test_util.h"

namespace feerie {
namespace {

constexpr const char* Conditions[] = {"orthodox", "madrasi-ri", "annan"};

class SplitWins : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = test::shared_tables_dir("split_wins");
    for (const char* condition : Conditions) ASSERT_TRUE(test::generate_kqvkr_subtables(dir_, condition));
  }

  // Every value of KQvKR (white to move, then black) under `condition` with `threads`;
  // `split` receives the sides whose wins were split, over all passes.
  static std::vector<ValueCode> solve_with(const char* condition, int threads, int& split) {
    const RuleSet rules = *RuleSet::parse(condition);
    Indexer indexer(*Material::parse("KQvKR"), rules);
    SolveOptions options;
    options.threads = threads;
    split = 0;
    options.on_pass = [&](const SolveProgress& p) { split += p.split; };
    Expected<SolvedTable> solved = solve(indexer, Tablebase::open(dir_, rules), options);
    EXPECT_TRUE(solved.ok()) << solved.error_message();
    if (!solved.ok()) return {};
    return test::codes_of_both_sides(*solved);
  }

  static std::string dir_;
};
std::string SplitWins::dir_;

TEST_F(SplitWins, TwoThreadsSplittingTheWinsGiveTheValuesOfOne) {
  for (const char* condition : Conditions) {
    SCOPED_TRACE(condition);
    int split = 0;
    const std::vector<ValueCode> one = solve_with(condition, 1, split);
    ASSERT_FALSE(one.empty());
    EXPECT_EQ(split, 0);
    EXPECT_EQ(solve_with(condition, 2, split), one);
    EXPECT_GE(split, 10);  // both sides of most passes of wins
  }
}

}  // namespace
}  // namespace feerie
