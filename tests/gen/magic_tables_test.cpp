// Tables with magic units (SPEC 3.5, 5): the component of KmRvKP (the black pawn promotes,
// the white magic rook demotes what it touches: KPvKmR, KQvKmR, KRvKmR, KBvKmR, KNvKmR in
// their stored orientation) is solved in one run. The default suite generates it once
// (about 37 million entries per side; the ctest fixture fixture_magic_component, shared with
// mpi_identity_magic), verifies the pawn member (the one promotions leave) entry by entry
// and probes positions across the members; the slow suite (magic_tables_slow_test.cpp)
// verifies every member and compares 1 and 2 threads.
#include <cstdlib>

#include "gen/graph.h"
#include "probe/tablebase.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

namespace fs = std::filesystem;

TEST(MagicTables, ComponentOfKmRvKPSolvedTogether) {
  // The fixture's tables when ctest gives them (generate() then reuses every one), else
  // generated here.
  const char* fixture = std::getenv("FEERIE_MAGIC_COMPONENT");
  const std::string dir = fixture ? std::string(fixture) : test::temporary_tables_dir("feerie-magic-");
  std::vector<GeneratedTable> tables = test::generate_with_threads(dir, "KmRvKP", 2);
  std::vector<std::string> names;
  for (const GeneratedTable& t : tables) names.push_back(t.material.name());
  // The sub-table first (the magic rook alone), then the five members in one run.
  ASSERT_EQ(names, (std::vector<std::string>{"KmRvK", "KBvKmR", "KNvKmR", "KPvKmR", "KQvKmR", "KRvKmR"}));
  if (!fixture) {  // reused tables say nothing of their passes
    for (std::size_t i = 1; i < tables.size(); ++i) EXPECT_EQ(tables[i].passes, tables[1].passes);
  }

  auto report = verify_table(*Material::parse("KPvKmR"), RuleSet::orthodox(), dir, 0);
  ASSERT_TRUE(report.ok()) << report.error_message();
  EXPECT_EQ(report->inconsistent, 0u) << (report->examples.empty() ? "" : report->examples[0]);

  Tablebase tb = Tablebase::open(dir, RuleSet::orthodox());
  auto probe = [&](const char* fen) {
    auto r = tb.probe(test::position(fen));
    EXPECT_TRUE(r.ok()) << fen << ": " << r.error_message();
    return r.ok() ? r->mate_in() : -999;
  };
  // c7c8q mates: the pawn leaves KPvKmR for KQvKmR inside the component.
  EXPECT_EQ(probe("k7/r*1P5/8/8/8/8/8/K7 w - - 0 1"), 1);
  // d8b7 mates: the knight meets the magic rook and becomes a pawn that checks a8 ...
  EXPECT_EQ(probe("k1KN4/r*7/8/8/8/8/8/8 w - - 0 1"), 1);
  // ... while the same position flipped is a draw: pawns move one way, so magic tables
  // keep only the a<->h mirror.
  EXPECT_EQ(probe("8/8/8/8/8/8/r*7/k1KN4 w - - 0 1"), 0);
  auto best = tb.best_moves(test::position("k1KN4/r*7/8/8/8/8/8/8 w - - 0 1"));
  ASSERT_TRUE(best.ok());
  ASSERT_EQ(best->size(), 1u);
  EXPECT_EQ(to_uci(best->front()), "d8b7");
  // The study tools show the mutation (probe --moves, the viewer): every move with its value,
  // d8b7 first and a checkmate, and the position after it holds the knight as a pawn.
  auto values = tb.move_values(test::position("k1KN4/r*7/8/8/8/8/8/8 w - - 0 1"));
  ASSERT_TRUE(values.ok()) << values.error_message();
  ASSERT_FALSE(values->empty());
  EXPECT_EQ(to_uci(values->front().move), "d8b7");
  EXPECT_TRUE(values->front().checkmate);
  EXPECT_EQ(values->front().after.piece_on(SQ_B7), Piece(WHITE, PAWN));
  for (std::size_t i = 1; i < values->size(); ++i) EXPECT_FALSE((*values)[i].checkmate) << to_uci((*values)[i].move);
  // The position after a double step holds an en-passant square only where a capture can
  // use it, as moves --after and play write it (probe --moves and Python's fen_after kept
  // b6 with no white pawn: a docs audit and an exploratory test of magic pieces).
  values = tb.move_values(test::position("4k3/1p6/8/8/8/8/8/K1R*5 b - - 0 1"));
  ASSERT_TRUE(values.ok()) << values.error_message();
  int double_steps = 0;
  for (const MoveValue& mv : *values)
    if (to_uci(mv.move) == "b7b5") {
      ++double_steps;
      EXPECT_EQ(to_fen(mv.after), "4k3/8/8/1p6/8/8/8/K1R*5 w - - 0 1");
    }
  EXPECT_EQ(double_steps, 1);

  if (!fixture) fs::remove_all(dir);
}

TEST(MagicTables, MaterialGraphHasMutationAndPromotionEdges) {
  auto order = solving_order({*Material::parse("KmRvKP")}, RuleSet::orthodox());
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0].size(), 1u);  // KmRvK: the pawn captured
  EXPECT_EQ(order[1].size(), 5u);
  // Own units only go up: no cycle, every material its own component.
  for (const auto& component : solving_order({*Material::parse("KmNPvK")}, RuleSet::orthodox()))
    EXPECT_EQ(component.size(), 1u);
}

}  // namespace
}  // namespace feerie
