// Helpers shared by the test suites.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie::test {

// Parses a FEN that the test expects to be well formed.
inline Position position(const std::string& fen) {
  Expected<Position> p = parse_fen(fen);
  EXPECT_TRUE(p.ok()) << fen << ": " << (p.ok() ? "" : p.error_message());
  return p.ok() ? *p : Position{};
}

// A condition name the test expects to be known.
inline RuleSet rules(const std::string& name) {
  Expected<RuleSet> r = RuleSet::parse(name);
  EXPECT_TRUE(r.ok()) << name << ": " << (r.ok() ? "" : r.error_message());
  return r.ok() ? *r : RuleSet::orthodox();
}

// The legal moves in long algebraic notation, sorted.
inline std::vector<std::string> legal_moves(const std::string& fen, const RuleSet& rules = RuleSet::orthodox()) {
  MoveList moves;
  generate_legal(position(fen), rules, moves);
  std::vector<std::string> names;
  for (Move m : moves) names.push_back(to_uci(m));
  std::sort(names.begin(), names.end());
  return names;
}

inline bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace feerie::test
