// Tables under combined conditions (SPEC 3.6): 3-man tables of each combination family
// generated and verified entry by entry (the verifier replays every position with the
// forward rules of the combination), and one fact of the results a problemist would
// check: a king and a knight against a lone king win from most positions under Madrasi RI
// with Annan (the king and the knight lend each other their walks), from few under
// either condition alone.
#include <filesystem>

#include "probe/tablebase.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

class CombinationTables : public ::testing::Test {
 protected:
  // Shared by every test process (tests/gen/table_test_util.h): each test generates the
  // tables it needs there, and finds those another process made already.
  static void SetUpTestSuite() { dir_ = test::shared_tables_dir("combination"); }
  static std::string dir_;
};

std::string CombinationTables::dir_;

TEST_F(CombinationTables, ThreeManTablesOfEachFamilyVerify) {
  for (const char* condition : {"madrasi-ri+annan", "madrasi+annan", "isardam+nanna-b", "leffie+annan-d"})
    for (const char* material : {"KQvK", "KRvK", "KPvK"}) test::generate_and_verify(dir_, condition, material);
}

TEST_F(CombinationTables, KingAndKnightWinMostPositionsUnderMadrasiRexInclusiveWithAnnan) {
  GeneratedTable combined = test::generate_and_verify(dir_, "madrasi-ri+annan", "KNvK");
  EXPECT_EQ(combined.stats[WHITE].win, 129426u);
  EXPECT_EQ(combined.stats[WHITE].longest_mate_plies, 135);
  const std::pair<const char*, std::uint64_t> alone[] = {{"madrasi-ri", 7432}, {"annan", 986}};
  for (const auto& [condition, wins] : alone) {
    GeneratedTable t = test::generate_and_verify(dir_, condition, "KNvK");
    EXPECT_EQ(t.stats[WHITE].win, wins) << condition;
  }
}

}  // namespace
}  // namespace feerie
