// One byte per entry while the values fit, a high bit more for long mates, two bytes after
// (probe/value_array.h): the solve gives the same values whatever the width and whenever it
// extends or widens.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "gen/generate.h"
#include "gen/solver.h"
#include "tests/gen/table_test_util.h"

namespace feerie {
namespace {

namespace fs = std::filesystem;

class ValueWidth : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::temporary_tables_dir("feerie-width-");
    ASSERT_TRUE(test::generate_kqvkr_subtables(dir_, "orthodox"));
  }
  void TearDown() override { fs::remove_all(dir_); }

  // KQvKR solved with values narrow up to `narrow_max_plies`; the bytes per entry after
  // each pass.
  std::vector<ValueCode> solve_kqvkr(int narrow_max_plies, std::vector<double>& widths) {
    Indexer indexer(*Material::parse("KQvKR"), RuleSet::orthodox());
    Tablebase subtables = Tablebase::open(dir_, RuleSet::orthodox());
    SolveOptions options;
    options.threads = 2;
    options.narrow_max_plies = narrow_max_plies;
    options.on_pass = [&](const SolveProgress& p) { widths.push_back(p.value_bytes); };
    Expected<SolvedTable> solved = solve(indexer, subtables, options);
    EXPECT_TRUE(solved.ok()) << solved.error_message();
    if (!solved.ok()) return {};
    return test::codes_of_both_sides(*solved);
  }

  std::string dir_;
};

TEST_F(ValueWidth, NarrowWideAndExtendedOnTheWayGiveTheSameValues) {
  std::vector<double> narrow, wide, midway, at_once;
  const std::vector<ValueCode> reference = solve_kqvkr(narrow::MaxPlies, narrow);
  ASSERT_FALSE(reference.empty());
  // KQvKR's longest mate (70 plies) fits in a byte: narrow throughout.
  EXPECT_EQ(narrow, std::vector<double>(narrow.size(), 1));
  EXPECT_EQ(solve_kqvkr(-1, wide), reference);
  EXPECT_EQ(wide, std::vector<double>(wide.size(), 2));
  // Extended before pass 40, which offers wins in 41 plies (the mates through captures into
  // KQvK and KRvK, at most 33 plies, fit): a high bit per entry holds the mates of 41 to
  // 192 plies, so the values are never widened.
  EXPECT_EQ(solve_kqvkr(40, midway), reference);
  ASSERT_GT(midway.size(), 42u);
  EXPECT_EQ(midway[40], 1);      // after pass 39 (midway[0] is the initialisation)
  EXPECT_EQ(midway[41], 1.125);  // after pass 40
  EXPECT_EQ(midway.back(), 1.125);
  // Those mates through captures do not fit a byte that holds mates in 0 only: the
  // initialisation's overflow extends at once.
  EXPECT_EQ(solve_kqvkr(0, at_once), reference);
  EXPECT_EQ(at_once.front(), 1.125);
  EXPECT_EQ(at_once.back(), 1.125);
}

}  // namespace
}  // namespace feerie
