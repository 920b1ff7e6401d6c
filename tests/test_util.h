// Helpers shared by the test suites.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie::test {

// The whole content of a file (empty when it cannot be read): tables compared byte for byte.
inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Parses a FEN that the test expects to be well formed.
// `units` (upper case White, lower case Black, as in a FEN) on distinct squares drawn
// from `rng`; White to move, no en-passant square.
template <class Rng>
Position random_board(Rng& rng, const std::string& units) {
  Position pos;
  std::uniform_int_distribution<int> square(0, SQUARE_NB - 1);
  for (char c : units) {
    Square s;
    do s = Square(square(rng));
    while (!pos.empty(s));
    const Color colour = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
    pos.put_piece(Piece(colour, piece_type_from_letter(c)), s);
  }
  return pos;
}

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

// The units a rule set's relation pairs in pos (paralysed; the forbidden pairs under
// Isardam), or 0 when the rule set has no relation.
inline Bitboard paralysed_units(const RuleSet& rules, const Position& pos) {
  return rules.visit([&](const auto& r) -> Bitboard {
    if constexpr (requires { r.paralysed_bb(pos); })
      return r.paralysed_bb(pos);
    else
      return 0;
  });
}

// The parameters of a rule set's restriction, read from the engine's rule value for the
// slow references (data only: their logic is their own).
struct ParalysisParameters {
  std::array<std::uint16_t, PIECE_TYPE_NB> paralyses{};  // paralyses[walk]: bit set of the types it paralyses
  bool isardam = false;                                  // pairs are forbidden instead of taking effect
  bool ordinary_checks = false;                          // Isardam type B
};
inline ParalysisParameters paralysis_parameters(const RuleSet& rules) {
  return rules.visit([](const auto& r) {
    using Restriction = typename std::decay_t<decltype(r)>::RestrictionPart;
    ParalysisParameters p;
    if constexpr (std::is_base_of_v<ParalysisRelation, Restriction>) p.paralyses = r.paralyses;
    p.isardam = std::is_same_v<Restriction, Isardam<IsardamCheck::TypeA>> ||
                std::is_same_v<Restriction, Isardam<IsardamCheck::TypeB>>;
    p.ordinary_checks = std::is_same_v<Restriction, Isardam<IsardamCheck::TypeB>>;
    return p;
  });
}
// The walk policy of a rule set that borrows walks (Annan, Nanna, combinations).
inline AnnanWalk annan_walk(const RuleSet& rules) {
  return rules.visit([](const auto& r) {
    if constexpr (std::is_same_v<typename std::decay_t<decltype(r)>::WalkPart, AnnanWalk>)
      return r.walk();
    else
      return AnnanWalk{};
  });
}

inline bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Compares the legal moves of every line `condition|FEN|moves` of a file recorded from
// the reference solver (tests/data/, `#` lines are comments) with the engine's; returns
// the number of positions compared (-1 when the file cannot be read).
inline int expect_recorded_moves(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  if (!in) return -1;
  int compared = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t a = line.find('|'), b = line.find('|', a + 1);
    EXPECT_NE(b, std::string::npos) << line;
    if (b == std::string::npos) continue;
    std::istringstream words(line.substr(b + 1));
    const std::vector<std::string> recorded{std::istream_iterator<std::string>(words),
                                            std::istream_iterator<std::string>()};
    EXPECT_EQ(legal_moves(line.substr(a + 1, b - a - 1), rules(line.substr(0, a))), recorded) << line;
    ++compared;
  }
  return compared;
}

}  // namespace feerie::test
