// The study tools over helpmate and selfmate tables (study/help_study.h, issue 25): the
// survey's raw counts per length against a count over every placement of the units (each
// placement a raw position, probed one by one: no indexer, no symmetry), mining against
// the same count, samples, the other orientation, and Popeye problems of both kinds.
#include "study/help_study.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "gen/help_generate.h"
#include "probe/indexer.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "study/popeye.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

// Helpmate tables of a material, generated once per test process into a shared directory.
const std::string& help_dir(const char* condition, const char* material, StipulationKind kind) {
  static std::map<std::string, std::string> made;
  const std::string key = std::string(condition) + "/" + material + (kind == StipulationKind::Selfmate ? "/s" : "/h");
  auto it = made.find(key);
  if (it != made.end()) return it->second;
  const std::string dir = test::shared_tables_dir("help-study");
  HelpGenerateOptions options;
  options.kind = kind;
  options.tables_dir = dir;
  auto generated = generate_helpmates({*Material::parse(material)}, *RuleSet::parse(condition), options);
  EXPECT_TRUE(generated.ok()) << generated.error_message();
  return made[key] = dir;
}

// Every placement of White's king and `piece` and Black's king, each side to move: the
// raw positions, with the entry of each legal one (mated: `mated`).
template <class F>
void for_each_placement(const HelpTablebase& tb, Piece piece, Color mated, F f) {
  for (int wk = 0; wk < 64; ++wk)
    for (int bk = 0; bk < 64; ++bk)
      for (int x = 0; x < 64; ++x) {
        if (wk == bk || x == wk || x == bk) continue;
        for (Color side : {WHITE, BLACK}) {
          Position pos;
          pos.put_piece(Piece(WHITE, KING), Square(wk));
          pos.put_piece(Piece(BLACK, KING), Square(bk));
          pos.put_piece(piece, Square(x));
          pos.set_side_to_move(side);
          Expected<HelpEntry> e = tb.entry(pos, mated);
          ASSERT_TRUE(e.ok()) << to_fen(pos) << ": " << e.error_message();
          // The table's positions are the legal ones, each placement its own raw position.
          ASSERT_EQ(e->plies != value::Illegal, is_legal_position(pos, tb.rules())) << to_fen(pos);
          f(pos, *e);
        }
      }
}

TEST(HelpStudy, SurveyCountsEveryPlacementOnce) {
  const HelpTablebase tb(RuleSet::orthodox(), help_dir("orthodox", "KRvK", StipulationKind::Helpmate));
  auto survey = survey_help_table(tb, *Material::parse("KRvK"), BLACK);
  ASSERT_TRUE(survey.ok()) << survey.error_message();
  std::array<HelpSideSurvey, 2> expected;
  for_each_placement(tb, Piece(WHITE, ROOK), BLACK, [&](const Position& pos, const HelpEntry& e) {
    HelpSideSurvey& s = expected[pos.side_to_move()];
    if (e.plies == value::Illegal) return;
    ++s.positions;
    if (!value::is_mate(e.plies)) return;
    ++s.with_mate;
    s.unique += e.solutions == 1;
    HelpLengthCount& c = s.by_plies[std::size_t(value::plies(e.plies))];
    ++c.positions;
    c.unique += e.solutions == 1;
  });
  for (Color side : {WHITE, BLACK}) {
    const HelpSideSurvey &got = (*survey)[side], &want = expected[side];
    EXPECT_EQ(got.positions, want.positions);
    EXPECT_EQ(got.with_mate, want.with_mate);
    EXPECT_EQ(got.unique, want.unique);
    for (std::size_t p = 0; p < got.by_plies.size(); ++p) {
      EXPECT_EQ(got.by_plies[p].positions, want.by_plies[p].positions) << "plies " << p;
      EXPECT_EQ(got.by_plies[p].unique, want.by_plies[p].unique) << "plies " << p;
    }
    // The example is a position of the longest length.
    ASSERT_GE(got.longest_plies, 0);
    EXPECT_GT(got.by_plies[std::size_t(got.longest_plies)].positions, 0u);
    auto e = tb.entry(test::position(got.longest_fen), BLACK);
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(e->plies, value::mate_in_plies(got.longest_plies));
  }
  // KRvK: h#7 with Black to move, h#6.5 with White to move (docs/results/helpmates.md);
  // the legal positions are those of the direct-mate table's statistics.
  EXPECT_EQ((*survey)[BLACK].longest_plies, 14);
  EXPECT_EQ((*survey)[WHITE].longest_plies, 13);
  EXPECT_EQ((*survey)[WHITE].positions, 175168u);
  EXPECT_EQ((*survey)[BLACK].positions, 223944u);
  // The stored orientation only: KvKR is that table with the other colour mated.
  auto other = survey_help_table(tb, *Material::parse("KvKR"), WHITE);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().kind, ErrorKind::InvalidArgument);
  EXPECT_NE(other.error_message().find("KRvK"), std::string::npos) << other.error_message();
}

TEST(HelpStudy, MiningKeepsWhatTheFiltersSayAndEachClassOnce) {
  const HelpTablebase tb(RuleSet::orthodox(), help_dir("orthodox", "KRvK", StipulationKind::Helpmate));
  const Material material = *Material::parse("KRvK");
  const Indexer indexer(material, tb.rules());
  // h#2 to h#3 with a unique solution: 4, 5 or 6 plies.
  HelpMineFilter f;
  f.half_moves_min = 4, f.half_moves_max = 6, f.unique = true;
  std::uint64_t raw_mined = 0;
  std::vector<std::string> all;
  auto report = mine_help_table(tb, material, f, 0, 0, [&](const HelpMineMatch& m) {
    EXPECT_EQ(m.entry.solutions, 1);
    const int p = value::plies(m.entry.plies);
    EXPECT_GE(p, 4);
    EXPECT_LE(p, 6);
    raw_mined += std::uint64_t(distinct_images(indexer, m.position));
    all.push_back(to_fen(m.position));
  });
  ASSERT_TRUE(report.ok()) << report.error_message();
  EXPECT_EQ(report->matches, all.size());
  std::uint64_t raw_expected = 0;
  for_each_placement(tb, Piece(WHITE, ROOK), BLACK, [&](const Position&, const HelpEntry& e) {
    raw_expected +=
        value::is_mate(e.plies) && value::plies(e.plies) >= 4 && value::plies(e.plies) <= 6 && e.solutions == 1;
  });
  EXPECT_EQ(raw_mined, raw_expected);
  EXPECT_GT(raw_expected, 0u);

  // A sample: as many as asked, each a match, in scan order, the same for the same seed.
  std::vector<std::string> sample, again;
  ASSERT_TRUE(mine_help_table(tb, material, f, 5, 7, [&](const HelpMineMatch& m) {
                sample.push_back(to_fen(m.position));
              }).ok());
  ASSERT_TRUE(mine_help_table(tb, material, f, 5, 7, [&](const HelpMineMatch& m) {
                again.push_back(to_fen(m.position));
              }).ok());
  ASSERT_EQ(sample.size(), 5u);
  EXPECT_EQ(sample, again);
  std::size_t at = 0;
  for (const std::string& fen : sample) {
    auto it = std::find(all.begin() + std::ptrdiff_t(at), all.end(), fen);
    ASSERT_NE(it, all.end()) << fen;
    at = std::size_t(it - all.begin()) + 1;
  }

  // The other orientation: KvKR with White mated is KRvK with Black mated, colours exchanged.
  HelpMineFilter flipped = f;
  flipped.mated = WHITE;
  std::set<std::string> expected_flipped;
  for (const std::string& fen : all) expected_flipped.insert(to_fen(color_flipped(test::position(fen))));
  std::set<std::string> got_flipped;
  ASSERT_TRUE(mine_help_table(tb, *Material::parse("KvKR"), flipped, 0, 0, [&](const HelpMineMatch& m) {
                got_flipped.insert(to_fen(m.position));
              }).ok());
  EXPECT_EQ(got_flipped, expected_flipped);

  // Side to move and units.
  HelpMineFilter white_only;
  white_only.side = WHITE;
  white_only.units_min = 3;
  std::uint64_t white = 0;
  ASSERT_TRUE(mine_help_table(tb, material, white_only, 0, 0, [&](const HelpMineMatch& m) {
                EXPECT_EQ(m.position.side_to_move(), WHITE);
                ++white;
              }).ok());
  EXPECT_GT(white, 0u);
  white_only.units_min = 4;  // KRvK has three units
  auto none = mine_help_table(tb, material, white_only, 0, 0, [](const HelpMineMatch&) { FAIL(); });
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->matches, 0u);
}

TEST(HelpStudy, SelfmateTablesHaveNoSolutionsToCount) {
  const HelpTablebase tb(*RuleSet::parse("madrasi-ri"), help_dir("madrasi-ri", "KQvKR", StipulationKind::Selfmate),
                         StipulationKind::Selfmate);
  HelpMineFilter f;
  f.mated = WHITE;
  f.unique = true;
  auto refused = mine_help_table(tb, *Material::parse("KQvKR"), f, 0, 0, [](const HelpMineMatch&) {});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::InvalidArgument);
  // s#2: 4 plies with White (mated) to move; the odd lengths state no problem.
  f.unique = false;
  f.half_moves_min = f.half_moves_max = 4;
  std::uint64_t n = 0;
  auto report = mine_help_table(tb, *Material::parse("KQvKR"), f, 0, 0, [&](const HelpMineMatch& m) {
    EXPECT_EQ(m.position.side_to_move(), WHITE);
    EXPECT_EQ(m.entry.problem_name(StipulationKind::Selfmate), "s#2");
    ++n;
  });
  ASSERT_TRUE(report.ok()) << report.error_message();
  EXPECT_GT(n, 0u);
  auto survey = survey_help_table(tb, *Material::parse("KQvKR"), WHITE);
  ASSERT_TRUE(survey.ok());
  EXPECT_EQ((*survey)[WHITE].unique, 0u);
  EXPECT_EQ((*survey)[WHITE].longest_plies, 24);  // s#12
}

TEST(HelpStudy, PopeyeProblemsStateTheColourPopeyeMates) {
  const RuleSet orthodox = RuleSet::orthodox();
  // White mated, h#2 with one solution (Popeye 4.104, colours exchanged: 1.Kd8 Ke6
  // 2.Ke8 Rc8#).
  const Position pos = test::position("2r5/7Q/8/8/8/5k2/2K5/8 w - - 0 1");
  const HelpEntry h2{value::mate_in_plies(4), 1};
  auto problem = popeye_help_problem(pos, orthodox, StipulationKind::Helpmate, WHITE, h2);
  ASSERT_TRUE(problem.ok()) << problem.error_message();
  EXPECT_NE(problem->find("Stipulation h#2\n"), std::string::npos) << *problem;
  EXPECT_NE(problem->find("Pieces White Kf6 Rc1 Black Kc7 Qh2\n"), std::string::npos) << *problem;
  EXPECT_NE(problem->find("colours are exchanged"), std::string::npos) << *problem;
  EXPECT_NE(problem->find("h#2, 1 solution\n"), std::string::npos) << *problem;
  // White to move with Black mated: h#N.5, as Popeye writes it, without exchanging colours.
  const HelpEntry h15{value::mate_in_plies(3), 2};
  problem = popeye_help_problem(test::position("8/8/8/7R/8/2K5/5k2/8 w - - 0 1"), orthodox, StipulationKind::Helpmate,
                                BLACK, h15);
  ASSERT_TRUE(problem.ok());
  EXPECT_NE(problem->find("Stipulation h#1.5\n"), std::string::npos) << *problem;
  EXPECT_EQ(problem->find("exchanged"), std::string::npos) << *problem;
  EXPECT_NE(problem->find("2 solutions"), std::string::npos) << *problem;
  // Madrasi RI s#2 (Popeye 4.104: 1.Qd3+!).
  problem = popeye_help_problem(test::position("8/8/8/1Q6/8/8/7r/2Kk4 w - - 0 1"), *RuleSet::parse("madrasi-ri"),
                                StipulationKind::Selfmate, WHITE, HelpEntry{value::mate_in_plies(4), 1});
  ASSERT_TRUE(problem.ok());
  EXPECT_NE(problem->find("Condition Madrasi RexInclusive\n"), std::string::npos) << *problem;
  EXPECT_NE(problem->find("Stipulation s#2\n"), std::string::npos) << *problem;
  // No problem: no mate, mated already, a selfmate with the other colour to move.
  for (const auto& [kind, mated, e] :
       {std::tuple{StipulationKind::Helpmate, BLACK, HelpEntry{value::Draw, 0}},
        std::tuple{StipulationKind::Helpmate, BLACK, HelpEntry{value::mate_in_plies(0), 1}},
        std::tuple{StipulationKind::Selfmate, BLACK, HelpEntry{value::mate_in_plies(3), 1}}}) {
    auto refused = popeye_help_problem(pos, orthodox, kind, mated, e);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().kind, ErrorKind::NotSupported);
  }
}

// The solutions walked down the table: as many as the table counts (below its cap), each
// a line of legal moves of the table's length that ends in the colour's mate, all distinct.
TEST(HelpStudy, SolutionsAreTheLinesTheTableCounts) {
  const HelpTablebase tb(RuleSet::orthodox(), help_dir("orthodox", "KQvKR", StipulationKind::Helpmate));
  const Material material = *Material::parse("KQvKR");
  int checked = 0;
  for (Color mated : {WHITE, BLACK}) {
    HelpMineFilter f;
    f.mated = mated;
    f.half_moves_min = 2;
    f.half_moves_max = 8;
    std::vector<HelpMineMatch> sample;
    ASSERT_TRUE(mine_help_table(tb, material, f, 40, 11, [&](const HelpMineMatch& m) { sample.push_back(m); }).ok());
    for (const HelpMineMatch& m : sample) {
      const std::string fen = to_fen(m.position);
      auto lines = helpmate_solutions(tb, m.position, mated, HelpSolutionsCap);
      ASSERT_TRUE(lines.ok()) << fen << ": " << lines.error_message();
      if (m.entry.solutions < HelpSolutionsCap)
        EXPECT_EQ(int(lines->size()), m.entry.solutions) << fen;
      else
        EXPECT_EQ(int(lines->size()), HelpSolutionsCap) << fen;
      std::set<std::vector<Move>> distinct(lines->begin(), lines->end());
      EXPECT_EQ(distinct.size(), lines->size()) << fen;
      for (const std::vector<Move>& line : *lines) {
        ASSERT_EQ(int(line.size()), value::plies(m.entry.plies)) << fen;
        Position pos = m.position;
        for (Move mv : line) {
          bool legal = false;
          for (const MoveResult& r : legal_moves_with_results(pos, tb.rules()))
            if (r.move == mv) legal = true, pos = r.after;
          ASSERT_TRUE(legal) << fen << ": " << to_uci(mv);
        }
        EXPECT_EQ(pos.side_to_move(), mated) << fen;
        EXPECT_TRUE(legal_moves_with_results(pos, tb.rules()).empty()) << fen;
        auto end = tb.entry(pos, mated);
        ASSERT_TRUE(end.ok());
        EXPECT_EQ(end->plies, value::mate_in_plies(0)) << fen;
      }
      ++checked;
    }
    // A limit stops the walk.
    auto two = helpmate_solutions(tb, sample.front().position, mated, 1);
    ASSERT_TRUE(two.ok());
    EXPECT_EQ(two->size(), 1u);
  }
  EXPECT_EQ(checked, 80);
  // No helpmate (a lone king mates nobody), or mated already: no line.
  for (const auto& [fen, mated] :
       {std::pair{"8/8/8/8/8/8/2k5/K6R w - - 0 1", WHITE}, std::pair{"k7/1Q6/1K6/8/8/8/8/7r b - - 0 1", BLACK}}) {
    auto none = helpmate_solutions(tb, test::position(fen), mated, 10);
    ASSERT_TRUE(none.ok()) << fen << ": " << none.error_message();
    EXPECT_TRUE(none->empty()) << fen;
  }
}

TEST(HelpStudy, LinesAreNumberedByTheColourMated) {
  EXPECT_EQ(help_line_text({"Kd8", "Ke6", "Ke8", "Rc8#"}, BLACK, BLACK), "1.Kd8 Ke6 2.Ke8 Rc8#");
  EXPECT_EQ(help_line_text({"Kc2", "Ke1", "Kd3", "Kd1", "Rh1#"}, WHITE, BLACK), "1...Kc2 2.Ke1 Kd3 3.Kd1 Rh1#");
  EXPECT_EQ(help_line_text({"Kd1", "Ke3", "Ke1", "Rc1#"}, WHITE, WHITE), "1.Kd1 Ke3 2.Ke1 Rc1#");
  EXPECT_EQ(help_line_text({"Rh1#"}, WHITE, BLACK), "1...Rh1#");
}

// Probing through the block cache (the default) gives the entries of the whole files, in
// both orientations and for both colours mated.
TEST(HelpStudy, BlocksAndWholeFilesGiveTheSameEntries) {
  const std::string dir = help_dir("orthodox", "KQvKR", StipulationKind::Helpmate);
  const HelpTablebase blocks(RuleSet::orthodox(), dir);
  const HelpTablebase whole(RuleSet::orthodox(), dir, StipulationKind::Helpmate, HelpReading::Whole);
  const Material material = *Material::parse("KQvKR");
  const Indexer indexer(material, RuleSet::orthodox());
  std::uint64_t compared = 0;
  for (std::uint64_t i = 0; i < indexer.size(); i += 997)
    for (Color side : {WHITE, BLACK}) {
      Position pos;
      if (!indexer.decode(i, side, pos)) continue;
      for (const Position& asked : {pos, color_flipped(pos)})
        for (Color mated : {WHITE, BLACK}) {
          auto a = blocks.entry(asked, mated);
          auto b = whole.entry(asked, mated);
          ASSERT_TRUE(a.ok() && b.ok()) << to_fen(asked);
          EXPECT_EQ(a->plies, b->plies) << to_fen(asked);
          EXPECT_EQ(a->solutions, b->solutions) << to_fen(asked);
          ++compared;
        }
    }
  EXPECT_GT(compared, 10000u);
}

// A helpmate file replaced on disk, or removed, while a tablebase has it open, or has read
// it whole, is looked at again within a second (it was read from the old file, or the copy,
// until the tablebase closed).
TEST(HelpStudy, AFileReplacedOnDiskIsReadAgainWithinASecond) {
  namespace fs = std::filesystem;
  const fs::path source = fs::path(help_dir("orthodox", "KRvK", StipulationKind::Helpmate)) / "orthodox";
  const std::string dir = test::temporary_tables_dir("feerie-help-replaced-");
  fs::create_directories(fs::path(dir) / "orthodox");
  const fs::path path = fs::path(dir) / "orthodox" / "KRvK.help-black.ftb";
  fs::copy_file(source / "KRvK.help-black.ftb", path);
  const HelpTablebase tb(RuleSet::orthodox(), dir);
  const Position pos = test::position("k7/2K5/8/8/8/8/8/1R6 b - - 0 1");
  auto entry = tb.entry(pos, BLACK);
  ASSERT_TRUE(entry.ok()) << entry.error_message();
  EXPECT_EQ(entry->plies, value::mate_in_plies(2));
  // Read whole too (as a survey does): the copy in memory goes with the file (it was
  // answered from for ever, even with the file removed).
  ASSERT_TRUE(tb.load(*Material::parse("KRvK"), BLACK).ok());

  fs::remove(path);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  entry = tb.entry(pos, BLACK);
  ASSERT_FALSE(entry.ok());
  EXPECT_EQ(entry.error().kind, ErrorKind::NotFound) << entry.error_message();

  // A file renamed in (as gen writes one) is read.
  fs::copy_file(source / "KRvK.help-black.ftb", path.string() + ".new");
  fs::rename(path.string() + ".new", path);
  entry = tb.entry(pos, BLACK);
  ASSERT_TRUE(entry.ok()) << entry.error_message();
  EXPECT_EQ(entry->plies, value::mate_in_plies(2));
  EXPECT_EQ(entry->solutions, 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace feerie
