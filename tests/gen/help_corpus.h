// The helpmates and selfmates Popeye 4.104 found (tests/data/popeye_help/helpmates.txt and
// selfmates.txt, and *_conditions.txt for more conditions, recorded outside the suite by
// make_corpus.py there) compared with the
// tables: the shortest length and, for helpmates, its number of solutions (Black mated in
// a helpmate, White in a selfmate).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include "gen/help_solver.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "tests/test_util.h"

namespace feerie::test {

// Orthodox, Madrasi RI and Annan; and the other conditions (madrasi, isardam, isardam-b,
// eiffel, leffie, nanna, madrasi-ri+annan: FINDINGS_conditions.md there).
inline const std::string HelpmatesCorpus = FEERIE_SOURCE_DIR "/tests/data/popeye_help/helpmates.txt";
inline const std::string SelfmatesCorpus = FEERIE_SOURCE_DIR "/tests/data/popeye_help/selfmates.txt";
inline const std::string HelpmatesOfConditions = FEERIE_SOURCE_DIR "/tests/data/popeye_help/helpmates_conditions.txt";
inline const std::string SelfmatesOfConditions = FEERIE_SOURCE_DIR "/tests/data/popeye_help/selfmates_conditions.txt";

// Compares the lines of `condition` whose material is in `materials`, solving those tables
// in memory; returns the number of lines compared.
inline int expect_popeye_helpmates(const std::string& condition, const std::set<std::string>& materials,
                                   const std::string& corpus = HelpmatesCorpus) {
  const RuleSet rules = *RuleSet::parse(condition);
  std::vector<Material> targets;
  for (const std::string& m : materials) targets.push_back(Material::parse(m)->canonical_orientation());
  Expected<HelpTablebase> tb = solve_helpmates(targets, rules, 2);
  EXPECT_TRUE(tb.ok()) << tb.error_message();
  if (!tb) return 0;
  std::ifstream in(corpus);
  EXPECT_TRUE(in) << corpus;
  int compared = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind(condition + "|", 0) != 0) continue;
    // condition|FEN|result|solutions, result h#N, h#N.5, none<=h#M or none<=h#M.5.
    const std::size_t a = line.find('|'), b = line.find('|', a + 1), c = line.find('|', b + 1);
    const Position pos = position(line.substr(a + 1, b - a - 1));
    if (!materials.count(Material::of(pos).name())) continue;
    const std::string result = line.substr(b + 1, c - b - 1), solutions = line.substr(c + 1);
    const bool none = result.rfind("none<=", 0) == 0;
    const std::string length = result.substr(result.find("h#") + 2);
    const int plies = 2 * std::stoi(length) + (length.find(".5") != std::string::npos);
    Expected<HelpEntry> e = tb->entry(pos, BLACK);
    EXPECT_TRUE(e.ok()) << line << ": " << e.error_message();
    if (!e) continue;
    ++compared;
    if (none && e->plies == value::mate_in_plies(0)) {
      // Mated already: Popeye's h#1, h#2 ... have no solution since Black cannot move.
      EXPECT_TRUE(in_check(pos, rules) && test::legal_moves(line.substr(a + 1, b - a - 1), rules).empty()) << line;
      continue;
    }
    if (none) {
      EXPECT_TRUE(!value::is_mate(e->plies) || value::plies(e->plies) > plies) << line << ": " << e->problem_name();
      continue;
    }
    EXPECT_EQ(e->problem_name(), result) << line;
    // Popeye's count, or more than MaxSolutions allowed it to print: the tables cap theirs.
    const int popeye = solutions[0] == '>' ? HelpSolutionsCap : std::min(std::stoi(solutions), HelpSolutionsCap);
    EXPECT_EQ(e->solutions, popeye) << line;
  }
  return compared;
}

// The same for selfmates (condition|FEN|s#N or none<=s#M, White to move and mated).
inline int expect_popeye_selfmates(const std::string& condition, const std::set<std::string>& materials,
                                   const std::string& corpus = SelfmatesCorpus) {
  const RuleSet rules = *RuleSet::parse(condition);
  std::vector<Material> targets;
  for (const std::string& m : materials) targets.push_back(Material::parse(m)->canonical_orientation());
  Expected<HelpTablebase> tb = solve_in_memory(targets, rules, StipulationKind::Selfmate, 2);
  EXPECT_TRUE(tb.ok()) << tb.error_message();
  if (!tb) return 0;
  std::ifstream in(corpus);
  EXPECT_TRUE(in) << corpus;
  int compared = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind(condition + "|", 0) != 0) continue;
    const std::size_t a = line.find('|'), b = line.find('|', a + 1);
    const Position pos = position(line.substr(a + 1, b - a - 1));
    if (!materials.count(Material::of(pos).name())) continue;
    const std::string result = line.substr(b + 1);
    Expected<HelpEntry> e = tb->entry(pos, WHITE);
    EXPECT_TRUE(e.ok()) << line << ": " << e.error_message();
    if (!e) continue;
    ++compared;
    if (result.rfind("none<=", 0) == 0 && e->plies == value::mate_in_plies(0)) {
      // Mated already: Popeye's s#1, s#2 ... have no solution since White cannot move.
      EXPECT_TRUE(in_check(pos, rules) && test::legal_moves(line.substr(a + 1, b - a - 1), rules).empty()) << line;
      continue;
    }
    if (result.rfind("none<=", 0) == 0) {
      const int plies = 2 * std::stoi(result.substr(result.find("s#") + 2));
      EXPECT_TRUE(!value::is_mate(e->plies) || value::plies(e->plies) > plies)
          << line << ": " << e->problem_name(StipulationKind::Selfmate);
      continue;
    }
    EXPECT_EQ(e->problem_name(StipulationKind::Selfmate), result) << line;
  }
  return compared;
}

}  // namespace feerie::test
