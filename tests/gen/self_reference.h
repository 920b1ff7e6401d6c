// An independent slow reference for selfmate tables (gen/self_solver.h): a forward search of
// whether the colour to be mated can force its own mate within k plies (any move of its
// own, every move of the other; memoised per position and k), compared on positions sampled
// from every distance the tables hold, both colours and both orientations.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <unordered_map>

#include "gen/help_solver.h"
#include "gen/self_solver.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "tests/gen/colour_table_samples.h"
#include "tests/test_util.h"

namespace feerie::test {

// The reference. Knows nothing of indices, retro moves or the tables.
class ForwardSelfmates {
 public:
  ForwardSelfmates(RuleSet rules, Color mated) : rules_(std::move(rules)), mated_(mated) {}

  // The shortest selfmate up to max_plies, or -1.
  int shortest(const Position& pos, int max_plies) {
    for (int k = 0; k <= max_plies; ++k)
      if (within(pos, k)) return k;
    return -1;
  }

 private:
  bool within(const Position& pos, int k) {
    std::string key = to_fen(pos);
    key.append(" ").append(std::to_string(k));
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    MoveList moves;
    generate_legal(pos, rules_, moves);
    bool result;
    if (moves.empty()) {
      result = pos.side_to_move() == mated_ && in_check(pos, rules_);
    } else if (k == 0) {
      result = false;
    } else {
      // The colour to be mated needs one move that works, the other cannot escape by any.
      const bool forcing = pos.side_to_move() == mated_;
      result = !forcing;
      for (Move m : moves) {
        Position after = pos;
        UndoRecord undo;
        make_move(after, m, undo, rules_);
        if (within(after, k - 1) == forcing) {
          result = forcing;
          break;
        }
      }
    }
    memo_.emplace(key, result);
    return result;
  }

  RuleSet rules_;
  Color mated_;
  std::unordered_map<std::string, bool> memo_;
};

// Compares positions of up to `per_distance` per distance up to max_plies (and as many
// without a selfmate that short) with the reference, and expects at least `kinds`
// distances (none included) per colour mated.
inline void expect_reference_values(const HelpTablebase& tb, const char* material_name, int max_plies, int per_distance,
                                    std::size_t kinds) {
  const RuleSet& rules = tb.rules();
  const Material material = *Material::parse(material_name);
  const char* condition = rules.name().c_str();
  Expected<const HelpTable*> loaded = tb.load(material);
  ASSERT_TRUE(loaded.ok()) << loaded.error_message();
  const HelpTable* table = *loaded;
  const Indexer indexer(material, rules);
  for (Color mated : {WHITE, BLACK}) {
    ForwardSelfmates reference(rules, mated);
    const std::map<int, int> taken =
        for_each_sample(tb, *table, indexer, mated, max_plies, per_distance, 2611, 400000,
                        [&](const Position& pos, std::uint64_t, int distance, const std::string& what) {
                          EXPECT_EQ(distance, reference.shortest(pos, max_plies)) << what;
                        });
    EXPECT_GE(taken.size(), kinds) << condition << " " << material_name << (mated == WHITE ? " white" : " black");
  }
}

inline Expected<HelpTablebase> selfmates(const char* condition, const char* material) {
  return solve_in_memory({*Material::parse(material)}, *RuleSet::parse(condition), StipulationKind::Selfmate, 2);
}

}  // namespace feerie::test
