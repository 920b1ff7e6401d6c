// Helpmate tables (gen/help_solver.h) against an independent slow reference: a forward
// search that counts, for increasing k, the move sequences of exactly k plies that end
// with the victim checkmated (memoised per position and k), over positions sampled from
// every distance the tables hold, both victims and both orientations.
#include "gen/help_solver.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "rules/fen.h"
#include "rules/movegen.h"
#include "tests/gen/colour_table_samples.h"
#include "tests/gen/help_reference.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

// Up to `per_distance` positions of each distance up to max_plies (and as many without a
// helpmate that short) of `material` and `victim`, drawn from the table, each compared
// with the reference, then its colour-flipped image through the other orientation.
void expect_reference_values(const char* condition, const char* material_name, int max_plies, int per_distance) {
  const RuleSet rules = *RuleSet::parse(condition);
  const Material material = *Material::parse(material_name);
  Expected<HelpTablebase> tb = solve_helpmates({material}, rules, 2);
  ASSERT_TRUE(tb.ok()) << tb.error_message();
  Expected<const HelpTable*> loaded = tb->load(material);
  ASSERT_TRUE(loaded.ok()) << loaded.error_message();
  const HelpTable* table = *loaded;
  const Indexer indexer(material, rules);
  for (Color victim : {WHITE, BLACK}) {
    test::ForwardHelpmates reference(rules, victim);
    int compared = 0;
    const std::map<int, int> taken =
        test::for_each_sample(*tb, *table, indexer, victim, max_plies, per_distance, 2511, 200000,
                              [&](const Position& pos, std::uint64_t i, int distance, const std::string& what) {
                                const auto [plies, solutions] = reference.shortest(pos, max_plies);
                                EXPECT_EQ(distance, plies) << what;
                                if (plies >= 0) {
                                  EXPECT_EQ(int(table->solutions[victim][pos.side_to_move()][i]), solutions) << what;
                                }
                                ++compared;
                              });
    // Something of every kind: mates now, longer ones, none.
    EXPECT_GE(taken.size(), victim == BLACK ? 3u : 1u) << condition << " " << material_name;
    EXPECT_GT(compared, 0);
  }
}

TEST(HelpSolver, OrthodoxKQvKEqualsAForwardSearch) { expect_reference_values("orthodox", "KQvK", 7, 6); }
TEST(HelpSolver, OrthodoxKPvKWithPromotionsEqualsAForwardSearch) { expect_reference_values("orthodox", "KPvK", 7, 6); }
TEST(HelpSolver, MadrasiRiKRvKEqualsAForwardSearch) { expect_reference_values("madrasi-ri", "KRvK", 7, 6); }
TEST(HelpSolver, AnnanKPvKEqualsAForwardSearch) { expect_reference_values("annan", "KPvK", 7, 6); }

// The seed of every helpmate: a mate in one ply is a helpmate of 1 ply with one solution
// per mating move, and the position mated is 0 plies.
TEST(HelpSolver, MateNowAndMateInOne) {
  Expected<HelpTablebase> tb = solve_helpmates({*Material::parse("KRvK")}, RuleSet::orthodox(), 2);
  ASSERT_TRUE(tb.ok()) << tb.error_message();
  auto entry = [&](const char* fen, Color victim) {
    Expected<HelpEntry> e = tb->entry(test::position(fen), victim);
    EXPECT_TRUE(e.ok());
    return e.ok() ? *e : HelpEntry{};
  };
  EXPECT_EQ(entry("k7/2K5/8/8/8/8/8/R7 b - - 0 1", BLACK).plies, value::mate_in_plies(0));
  // Ra1 is the one mating move (Rb8+ lets the king out to a7).
  const HelpEntry one = entry("k7/2K5/8/8/8/8/8/1R6 w - - 0 1", BLACK);
  EXPECT_EQ(one.plies, value::mate_in_plies(1));
  EXPECT_EQ(one.solutions, 1);
  // White is never mated by a lone king.
  EXPECT_EQ(entry("k7/2K5/8/8/8/8/8/1R6 w - - 0 1", WHITE).plies, value::Draw);
}

}  // namespace
}  // namespace feerie
