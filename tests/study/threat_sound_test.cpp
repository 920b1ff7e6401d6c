// A problemist's soundness (study/threat_sound.h) against Popeye's verdicts on 278 mined
// #2 and #3 (orthodox, Madrasi RI, Annan; KQvKR, KRvKQ, KRvKB), recorded in
// tests/data/popeye_threat (its README says how they were read from Popeye 4.104's text).
#include "study/threat_sound.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "study/mine.h"
#include "study/solution_tree.h"
#include "tests/study/mine_fixture.h"
#include "tests/test_util.h"

namespace {

using namespace feerie;

struct Recorded {
  std::map<std::string, std::string> field;
  const std::string& operator[](const std::string& name) const { return field.at(name); }
  bool yes(const std::string& name) const { return field.at(name) == "yes"; }
};

std::vector<Recorded> recorded_verdicts() {
  std::ifstream in(std::string(FEERIE_SOURCE_DIR) + "/tests/data/popeye_threat/verdicts.tsv");
  std::vector<Recorded> out;
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::istringstream cells_in(line);
    for (std::string cell; std::getline(cells_in, cell, '\t');) cells.push_back(cell);
    if (names.empty()) {
      names = cells;
      continue;
    }
    Recorded r;
    for (std::size_t i = 0; i < names.size() && i < cells.size(); ++i) r.field[names[i]] = cells[i];
    out.push_back(r);
  }
  return out;
}

// "2.Qb6-b2 2.Rh1*f1" (Popeye's notation) as the set "b6b2 h1f1".
std::set<std::string> popeye_moves(const std::string& text) {
  std::set<std::string> out;
  static const std::regex move(R"(([a-h][1-8])[-*]([a-h][1-8]))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), move); it != std::sregex_iterator(); ++it)
    out.insert((*it)[1].str() + (*it)[2].str());
  return out;
}

std::set<std::string> feerie_moves(const std::vector<Move>& moves) {
  std::set<std::string> out;
  for (Move m : moves) out.insert(square_name(m.from()) + square_name(m.to()));
  return out;
}

const char* kind_name(KeyKind k) {
  return k == KeyKind::Threat ? "threat" : k == KeyKind::Zugzwang ? "zugzwang" : "check";
}

TEST(ThreatSoundness, AgreesWithPopeyeOnEveryRecordedProblem) {
  const std::vector<Recorded> problems = recorded_verdicts();
  ASSERT_EQ(problems.size(), 278u);
  std::map<std::string, int> per_condition, sound_count, double_threats;
  for (const Recorded& p : problems) {
    SCOPED_TRACE(p["id"] + " " + p["fen"]);
    const RuleSet rules = test::rules(p["condition"]);
    Tablebase tb = Tablebase::open(test::mine_fixture_tables(), rules);
    const Position pos = test::position(p["fen"]);
    Expected<ThreatReading> reading = read_threats(tb, pos, /*stop_at_first_dual=*/false);
    ASSERT_TRUE(reading.ok()) << reading.error_message();
    const int keys = int(popeye_moves(p["keys"]).size());
    EXPECT_EQ(reading->keys, std::min(keys, 2));
    EXPECT_EQ(reading->sound, p.yes("sound_threat"));
    // The filter's reading, stopping at the first dual, gives the same verdict.
    EXPECT_EQ(read_threats(tb, pos)->sound, p.yes("sound_threat"));
    // The present --sound (every reply a defence) as recorded beside it.
    EXPECT_EQ(*is_sound(tb, pos), p.yes("feerie_sound"));
    ++per_condition[p["condition"]];
    sound_count[p["condition"]] += reading->sound;
    if (keys != 1) continue;
    EXPECT_STREQ(kind_name(reading->key_kind), p["key_kind"].c_str());
    EXPECT_EQ(feerie_moves(reading->threats), popeye_moves(p["threats"]));
    EXPECT_EQ(reading->double_threat(), p.yes("double_threat"));
    double_threats[p["condition"]] += reading->double_threat();
    EXPECT_EQ(reading->duals, std::stoi(p["duals_after_defences"]));
  }
  // At least 100 problems per the acceptance, under three conditions, with both verdicts.
  EXPECT_EQ(per_condition, (std::map<std::string, int>{{"annan", 95}, {"madrasi-ri", 95}, {"orthodox", 88}}));
  EXPECT_EQ(sound_count, (std::map<std::string, int>{{"annan", 73}, {"madrasi-ri", 57}, {"orthodox", 64}}));
  EXPECT_EQ(double_threats, (std::map<std::string, int>{{"annan", 13}, {"madrasi-ri", 22}, {"orthodox", 12}}));
}

// The tries of probe --tree (study/solution_tree.h) are the moves Popeye's `Option Try`
// prints with their refutation: 192 tries in 102 of the problems.
TEST(Tries, AgreeWithPopeyeOnEveryRecordedProblem) {
  int tries = 0;
  for (const Recorded& p : recorded_verdicts()) {
    SCOPED_TRACE(p["id"] + " " + p["fen"]);
    Tablebase tb = Tablebase::open(test::mine_fixture_tables(), test::rules(p["condition"]));
    // A budget of one node: the tree itself is not wanted, its tries are made in full.
    Expected<SolutionNode> root = solution_tree(tb, test::position(p["fen"]), 0, 1);
    ASSERT_TRUE(root.ok()) << root.error_message();
    std::set<std::string> feerie, popeye;
    for (const SolutionNode& t : root->tries) {
      ASSERT_EQ(t.children.size(), 1u);
      feerie.insert(square_name(t.move.from()) + square_name(t.move.to()) + ">" +
                    square_name(t.children[0].move.from()) + square_name(t.children[0].move.to()));
    }
    std::istringstream in(p["tries"] == "-" ? "" : p["tries"]);
    for (std::string item; in >> item;) {
      const std::size_t at = item.find('>');
      ASSERT_NE(at, std::string::npos) << item;
      const std::set<std::string> attempt = popeye_moves(item.substr(0, at)),
                                  refutation = popeye_moves(item.substr(at));
      ASSERT_EQ(attempt.size(), 1u) << item;
      ASSERT_EQ(refutation.size(), 1u) << item;
      popeye.insert(*attempt.begin() + ">" + *refutation.begin());
    }
    EXPECT_EQ(feerie, popeye);
    tries += int(popeye.size());
  }
  EXPECT_EQ(tries, 192);
}

// Popeye hides a reply after which White mates sooner than the threat; this reading
// counts it when it stops the threat (study/threat_sound.h). annan-018: 1.Qxd4! threat
// 2.Ka2; 1...Kb1 stops it (2.Ka2 is no longer legal) and 2.Qb2# and 2.Qd1# both mate.
TEST(ThreatSoundness, CountsTheDefenceAfterWhichTheMateIsShorterThanTheThreat) {
  Tablebase tb = Tablebase::open(test::mine_fixture_tables(), test::rules("annan"));
  const Position pos = test::position("8/8/8/8/3r4/K7/2k5/Q7 w - - 0 1");
  Expected<ThreatReading> reading = read_threats(tb, pos, false);
  ASSERT_TRUE(reading.ok()) << reading.error_message();
  EXPECT_EQ(to_uci(reading->key), "a1d4");
  EXPECT_EQ(feerie_moves(reading->threats), (std::set<std::string>{"a3a2"}));
  EXPECT_EQ(reading->threat_moves, 2);
  EXPECT_EQ(reading->duals, 1);
  EXPECT_FALSE(reading->sound);
}

TEST(ThreatSoundness, ANonWinHasNoKey) {
  Tablebase tb = Tablebase::open(test::mine_fixture_tables(), RuleSet::orthodox());
  Expected<ThreatReading> reading = read_threats(tb, test::position("8/8/8/8/8/2k5/8/K2r4 w - - 0 1"));
  ASSERT_TRUE(reading.ok()) << reading.error_message();
  EXPECT_EQ(reading->keys, 0);
  EXPECT_FALSE(reading->sound);
}

}  // namespace
