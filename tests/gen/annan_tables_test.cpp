// Tables under Annan and Nanna (SPEC 3.4): the seed's diagram D as a table probe (mate in
// 1, a2b2 the only mating move), and small tables of each family verified, including
// pawns that promote however they move and pawns on their first rank.
#include <cstdio>
#include <filesystem>

#include "probe/tablebase.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

class AnnanTables : public ::testing::Test {
 protected:
  // Shared by every test process (tests/gen/table_test_util.h): each test generates the
  // tables it needs there, and finds those another process made already.
  static void SetUpTestSuite() { dir_ = test::shared_tables_dir("annan"); }

  static void generate_and_verify(const char* condition, const char* material) {
    test::generate_and_verify(dir_, condition, material);
  }

  static std::string dir_;
};

std::string AnnanTables::dir_;

// Diagram D of the seed: White Kb3, Ra2, Ra4, Black Kh3. 1.Rb2 mates; 1.Ka3 is only
// check. The table says mate in 1 and a2b2 is the only move that keeps it.
TEST_F(AnnanTables, SeedDiagramDMateInOne) {
  generate_and_verify("annan", "KRRvK");
  Tablebase tb = Tablebase::open(dir_, *RuleSet::parse("annan"));
  Position pos = test::position("8/8/8/8/R7/1K5k/R7/8 w - - 0 1");
  auto r = tb.probe(pos);
  ASSERT_TRUE(r.ok()) << r.error_message();
  EXPECT_EQ(r->wdl, Wdl::Win);
  EXPECT_EQ(r->dtm_plies, 1);
  auto best = tb.best_moves(pos);
  ASSERT_TRUE(best.ok());
  ASSERT_EQ(best->size(), 1u);
  EXPECT_EQ(to_uci(best->front()), "a2b2");
  // After 1.Ka3 Black is not mated.
  auto after_ka3 = tb.probe(test::position("8/8/8/8/R7/K6k/R7/8 b - - 0 1"));
  ASSERT_TRUE(after_ka3.ok());
  EXPECT_NE(after_ka3->dtm_plies, 0);
  // The study tools issue: `feerie probe --moves` lists every legal move with its value for
  // White, best first, and a2b2 is the only move that mates at once.
  const std::string command = std::string(FEERIE_BINARY) + " probe --moves --no-pv --json --condition annan --tables " +
                              dir_ + " '8/8/8/8/R7/1K5k/R7/8 w - - 0 1'";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  for (char buffer[4096]; std::fgets(buffer, sizeof buffer, pipe);) out += buffer;
  EXPECT_EQ(pclose(pipe), 0) << out;
  EXPECT_NE(out.find("\"moves\":[{\"move\":\"a2b2\",\"san\":\"Rb2#\",\"fen_after\":\"8/8/8/8/R7/1K5k/1R6/8 b - - 0 "
                     "1\",\"wdl\":\"win\","
                     "\"dtm_plies\":1,\"mate_in\":1,\"checkmate\":true,\"stalemate\":false}"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("\"checkmate\":true"), out.rfind("\"checkmate\":true")) << out;
  EXPECT_EQ(out.find("\"pv\""), std::string::npos) << out;
}

TEST_F(AnnanTables, PawnTablesOfEachFamilyVerify) {
  for (const char* condition : {"annan", "annan-d", "nanna"}) generate_and_verify(condition, "KPvK");
  // A pawn on its first rank, lent nothing (Annan): it can never move, so KPvK with the
  // pawn on a1 and the kings far apart is a draw whoever moves.
  Tablebase tb = Tablebase::open(dir_, *RuleSet::parse("annan"));
  auto r = tb.probe(test::position("7k/8/8/8/8/8/8/P6K w - - 0 1"));
  ASSERT_TRUE(r.ok()) << r.error_message();
  EXPECT_EQ(r->wdl, Wdl::Draw);
}

}  // namespace
}  // namespace feerie
