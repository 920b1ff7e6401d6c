// Helpers shared by the test suites.
#pragma once

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie::test {

// The whole content of a file (empty when it cannot be read): tables compared byte for byte.
inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

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

// A perft count of a condition, recorded once the engine and an independent reference
// written in the test agreed on it.
struct PerftCase {
  const char* condition;
  const char* fen;
  int depth;
  std::uint64_t recorded;
  friend void PrintTo(const PerftCase& c, std::ostream* os) { *os << c.condition << " " << c.fen << " " << c.depth; }
};

// The engine's perft equals reference_perft(rules, position, depth) and the recorded count.
template <class ReferencePerft>
void expect_perft(const PerftCase& c, ReferencePerft&& reference_perft) {
  RuleSet r = rules(c.condition);
  Position pos = position(c.fen);
  std::uint64_t engine = perft(pos, r, c.depth);
  EXPECT_EQ(engine, reference_perft(r, pos, c.depth)) << c.condition << " " << c.fen;
  EXPECT_EQ(engine, c.recorded) << c.condition << " " << c.fen;
}

inline bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace feerie::test
