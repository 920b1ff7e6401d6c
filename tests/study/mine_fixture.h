// The tables the mining tests read: orthodox KQvK, KRvK, KPvK, KPvKP and KQRvK, Madrasi RI KQvK,
// Annan KQvK and KPvK (the zugzwang tests need pawns), and KQvKR and KRvKB under the three
// (the problems whose Popeye verdicts tests/data/popeye_threat records). A shared fixture
// (tests/gen/table_test_util.h): generated once per build and reused by every test process
// after it, so the suite pays for them once.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gen/generate.h"
#include "probe/indexer.h"
#include "probe/tablebase.h"
#include "rules/fen.h"
#include "tests/gen/table_test_util.h"

namespace feerie::test {

inline std::string mine_fixture_tables() {
  static const std::string dir = [] {
    const std::string d = shared_tables_dir("mine");
    GenerateOptions options;
    options.tables_dir = d;
    options.checkpoint_seconds = -1;
    for (const auto& [condition, materials] : {std::pair<const char*, std::vector<const char*>>{
                                                   "orthodox", {"KQvK", "KRvK", "KPvKP", "KQRvK", "KQvKR", "KRvKB"}},
                                               {"madrasi-ri", {"KQvK", "KQvKR", "KRvKB"}},
                                               {"annan", {"KQvK", "KPvK", "KQvKR", "KRvKB"}}}) {
      std::vector<Material> targets;
      for (const char* m : materials) targets.push_back(*Material::parse(m));
      auto made = generate(targets, *RuleSet::parse(condition), options);
      EXPECT_TRUE(made.ok()) << (made.ok() ? "" : made.error_message());
    }
    return d;
  }();
  return dir;
}

// The image of `pos` that its table stores (the one mine reports).
inline std::string stored_image(const std::string& fen, const RuleSet& rules) {
  Position pos = *parse_fen(fen);
  // An indexer is costly to build: one per material and rule set.
  static std::map<std::string, std::unique_ptr<Indexer>> indexers;
  std::unique_ptr<Indexer>& made = indexers[Material::of(pos).name() + " " + rules.name()];
  if (!made) made = std::make_unique<Indexer>(Material::of(pos), rules);
  const Indexer& indexer = *made;
  Position image;
  EXPECT_TRUE(indexer.decode(indexer.index(pos), pos.side_to_move(), image)) << fen;
  return to_fen(image);
}

}  // namespace feerie::test
