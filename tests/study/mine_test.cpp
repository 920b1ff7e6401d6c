// study/mine.h: the scan, its report, sampling, images under --differs-from, the filter
// predicates on known positions, and its errors. The filters against a brute force are
// in tests/tools/mine_test.cpp, through the command.
#include "study/mine.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "probe/indexer.h"
#include "rules/fen.h"
#include "tests/study/mine_fixture.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

using test::mine_fixture_tables;

std::vector<std::string> mined(const Tablebase& tb, const char* material, const MineOptions& options,
                               MineReport* report = nullptr) {
  std::vector<std::string> fens;
  Expected<MineReport> r =
      mine(tb, *Material::parse(material), options, [&](const MineMatch& m) { fens.push_back(to_fen(m.position)); });
  EXPECT_TRUE(r.ok()) << r.error_message();
  if (r.ok() && report) *report = *r;
  return fens;
}

TEST(MineLibrary, ScansEveryEntryOnceWhiteToMoveFirst) {
  Tablebase tb = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  MineReport report;
  std::vector<std::string> all = mined(tb, "KQvK", MineOptions{}, &report);
  EXPECT_EQ(report.entries, 2 * Indexer(*Material::parse("KQvK"), RuleSet::orthodox()).size());
  EXPECT_EQ(report.matches, all.size());
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());  // no position twice
  auto first_black = std::find_if(all.begin(), all.end(), [](const std::string& f) { return f.find(" b ") != f.npos; });
  EXPECT_TRUE(std::all_of(first_black, all.end(), [](const std::string& f) { return f.find(" b ") != f.npos; }));
  EXPECT_NE(first_black, all.begin());
}

TEST(MineLibrary, ASampleDoesNotDependOnTheThreadCount) {
  Tablebase tb = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  MineOptions o;
  o.filter.unique_key = true;
  o.limit = 25;
  o.seed = 42;
  MineReport one, two;
  o.threads = 1;
  std::vector<std::string> a = mined(tb, "KRvK", o, &one);
  o.threads = 2;
  std::vector<std::string> b = mined(tb, "KRvK", o, &two);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.size(), 25u);
  EXPECT_EQ(one.matches, two.matches);  // every match is counted, the sample is reported
  EXPECT_GT(one.matches, 1000u);
}

// Orthodox KQvK has the 8 board symmetries, Annan only the a<->h mirror: an orthodox entry
// stands for up to four Annan positions, each compared on its own. Mined from either side,
// the differing positions legal under both conditions are the same (a table holds only
// the positions legal under its own condition).
TEST(MineLibrary, DiffersFromComparesEachImageTheOtherConditionTellsApart) {
  RuleSet annan = test::rules("annan");
  Tablebase orthodox = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  Tablebase annan_tb = Tablebase::open(mine_fixture_tables(), annan);
  // The differing positions legal on both sides, as Annan stores them, and how many
  // orthodox entries they came from.
  auto differing = [&](const Tablebase& tb, const Tablebase& other, std::set<std::string>* entries) {
    MineOptions o;
    o.filter.differs_from = other;
    std::set<std::string> out;
    Expected<MineReport> r = mine(tb, *Material::parse("KQvK"), o, [&](const MineMatch& m) {
      EXPECT_NE(m.value, m.other_value) << to_fen(m.position);
      if (m.other_value == value::Illegal) return;
      EXPECT_EQ(*other.value_code(m.position), m.other_value) << to_fen(m.position);
      out.insert(test::stored_image(to_fen(m.position), annan));
      if (entries) entries->insert(test::stored_image(to_fen(m.position), RuleSet::orthodox()));
    });
    EXPECT_TRUE(r.ok()) << r.error_message();
    return out;
  };
  std::set<std::string> orthodox_entries;
  std::set<std::string> a = differing(orthodox, annan_tb, &orthodox_entries);
  std::set<std::string> b = differing(annan_tb, orthodox, nullptr);
  ASSERT_GT(b.size(), 100u);
  EXPECT_EQ(a, b);
  EXPECT_LT(orthodox_entries.size(), a.size());  // some entries gave several images
}

TEST(MineLibrary, PredicatesOnKnownPositions) {
  Tablebase tb = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  // c1c8 is the only mate.
  Position mate_in_one = test::position("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1");
  Move first;
  EXPECT_EQ(*count_keeping_moves(tb, mate_in_one, value::mate_in_plies(1), 5, &first), 1);
  EXPECT_EQ(to_uci(first), "c1c8");
  EXPECT_TRUE(*has_unique_key(tb, mate_in_one));
  EXPECT_TRUE(*is_sound(tb, mate_in_one));
  // Mate in 5 with two shortest moves (a1a2, a1b2): no unique key.
  Position two_keys = test::position("8/8/8/8/8/8/8/QK1k4 w - - 0 1");
  EXPECT_EQ(*count_keeping_moves(tb, two_keys, value::mate_in_plies(9), 5), 2);
  EXPECT_FALSE(*has_unique_key(tb, two_keys));
  EXPECT_FALSE(*is_sound(tb, two_keys));
  // A loss and a draw have no key.
  EXPECT_FALSE(*has_unique_key(tb, test::position("k7/8/1K6/8/8/8/8/2Q5 b - - 0 1")));
  EXPECT_FALSE(*is_sound(tb, test::position("8/8/8/8/8/8/8/K6k w - - 0 1")));
}

TEST(MineLibrary, ErrorsCarryTheirKind) {
  Tablebase tb = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  auto ignore = [](const MineMatch&) {};
  MineOptions bad_range;
  bad_range.filter.mate_min = 4;
  bad_range.filter.mate_max = 2;
  EXPECT_EQ(mine(tb, *Material::parse("KQvK"), bad_range, ignore).error_kind(), ErrorKind::InvalidArgument);
  EXPECT_EQ(mine(tb, *Material::parse("KBBvK"), MineOptions{}, ignore).error_kind(), ErrorKind::NotFound);
  MineOptions other_missing;
  other_missing.filter.differs_from = Tablebase::open(mine_fixture_tables(), test::rules("leffie"));
  Expected<MineReport> r = mine(tb, *Material::parse("KQvK"), other_missing, ignore);
  EXPECT_EQ(r.error_kind(), ErrorKind::NotFound);
  EXPECT_EQ(r.error_message().rfind("--differs-from leffie: missing table KQvK", 0), 0u) << r.error_message();
}

}  // namespace
}  // namespace feerie
