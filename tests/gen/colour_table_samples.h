// Positions drawn from a helpmate or selfmate table (probe/help_tablebase.h) to compare with
// a slow reference (tests/gen/help_solver_test.cpp, self_reference.h).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "probe/help_tablebase.h"
#include "rules/fen.h"

namespace feerie::test {

// Up to `per_distance` legal entries of `table` for colour `mated` of each distance up to
// max_plies, and as many without a mate that short (distance -1), drawn with `seed` in at
// most `tries` draws: f(position, entry index, its distance, a description) for each. Each
// position's colour-flipped image must read the same through the other orientation (the
// other colour mated). Returns the positions taken per distance.
template <class F>
std::map<int, int> for_each_sample(const HelpTablebase& tb, const HelpTable& table, const Indexer& indexer, Color mated,
                                   int max_plies, int per_distance, std::uint64_t seed, int tries, F&& f) {
  std::mt19937_64 rng(seed);
  std::map<int, int> taken;
  for (int t = 0; t < tries; ++t) {
    const Color side = Color(rng() % 2);
    const std::uint64_t i = rng() % indexer.size();
    const ValueCode v = table.plies[mated][side][i];
    if (v == value::Illegal) continue;
    const int distance = value::is_mate(v) && value::plies(v) <= max_plies ? value::plies(v) : -1;
    if (taken[distance] >= per_distance) continue;
    ++taken[distance];
    Position pos;
    EXPECT_TRUE(indexer.decode(i, side, pos));
    std::string what = tb.rules().name();
    what.append(" ").append(to_fen(pos)).append(mated == WHITE ? ", white mated" : ", black mated");
    f(pos, i, distance, what);
    Expected<HelpEntry> flipped = tb.entry(color_flipped(pos), ~mated);
    EXPECT_TRUE(flipped.ok()) << flipped.error_message();
    if (flipped) {
      EXPECT_EQ(flipped->plies, v) << what;
    }
  }
  return taken;
}

}  // namespace feerie::test
