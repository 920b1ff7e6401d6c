// Helpmate tables from the command line (issue 25): gen, probe, verify and check with
// --stipulation h#, their files and their errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"
#include "tests/tools/command_run.h"

namespace feerie {
namespace {

namespace fs = std::filesystem;
using CommandRun = test::JoinedRun;

CommandRun run_feerie(const std::string& args) { return test::run_feerie_joined(args); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class HelpCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::temporary_tables_dir("feerie-help-cli-");
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(HelpCli, GenWritesBothColoursThenReusesThem) {
  CommandRun r = run_feerie("gen --stipulation h# --tables " + dir_ + " KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "KRvK: generated " + dir_ + "/orthodox/KRvK.help-white.ftb and " + dir_ +
                                     "/orthodox/KRvK.help-black.ftb"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "longest helpmate: white mated none, black mated 14 plies")) << r.output;
  // Direct-mate files are format version 2, helpmate files version 3 (docs/format.md).
  EXPECT_EQ(test::file_bytes(dir_ + "/orthodox/KRvK.help-black.ftb")[8], 3);
  r = run_feerie("gen --stipulation h# --tables " + dir_ + " KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "KRvK: reused")) << r.output;
  r = run_feerie("gen --tables " + dir_ + " KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(test::file_bytes(dir_ + "/orthodox/KRvK.ftb")[8], 2);

  r = run_feerie("verify --stipulation h# --tables " + dir_ + " KRvK");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "KRvK: 118272 entries checked, 0 inconsistent")) << r.output;
  r = run_feerie("check --tables " + dir_);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "KRvK.help-white.ftb: ok")) << r.output;
  // KvK and KRvK: their two helpmate files and their direct-mate table each.
  EXPECT_TRUE(contains(r.output, "6 tables checked, 0 bad")) << r.output;
}

// What gen does for direct-mate tables, helpmate tables do too (an exploratory test): a
// file it cannot trust is replaced saying why, the temporary files of a killed run are
// removed and said, and `check MATERIAL` finds the helpmate files.
TEST_F(HelpCli, GenSaysWhyItReplacesAFileAndTidiesWhatAKilledRunLeft) {
  ASSERT_EQ(run_feerie("gen --stipulation h# --tables " + dir_ + " KRvK").exit_code, 0);
  const std::string orthodox = dir_ + "/orthodox/";
  fs::copy_file(orthodox + "KRvK.help-black.ftb", orthodox + "KRvK.help-white.ftb",
                fs::copy_options::overwrite_existing);
  std::ofstream(orthodox + "KRvK.help-white.ftb.tmp.99999999.0") << "x";
  CommandRun r = run_feerie("gen --stipulation h# --tables " + dir_ + " KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "KRvK: the tables on disk were not reused: table '" + orthodox +
                                     "KRvK.help-white.ftb' answers stipulation h#:black, not h#:white"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "removed 1 temporary file that an interrupted run left")) << r.output;
  EXPECT_FALSE(fs::exists(orthodox + "KRvK.help-white.ftb.tmp.99999999.0"));
  r = run_feerie("check --tables " + dir_ + " KRvK");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "KRvK.help-white.ftb: ok")) << r.output;
  // In the order of the files' names, as without a material (white came first).
  EXPECT_LT(r.output.find("KRvK.help-black.ftb: ok"), r.output.find("KRvK.help-white.ftb: ok")) << r.output;
  EXPECT_TRUE(contains(r.output, "2 tables checked, 0 bad")) << r.output;
}

TEST_F(HelpCli, ProbeGivesTheLengthAndTheSolutionsOfEitherColour) {
  ASSERT_EQ(run_feerie("gen --stipulation h# --tables " + dir_ + " KRvK").exit_code, 0);
  const std::string probe = "probe --stipulation h# --tables " + dir_ + " ";
  // Ra1 is the one mate in one ply (Rb8+ lets the king out to a7).
  CommandRun r = run_feerie(probe + "'k7/2K5/8/8/8/8/8/1R6 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "k7/2K5/8/8/8/8/8/1R6 w - - 0 1: black mated in 1 ply (h#0.5), 1 solution\n");
  r = run_feerie(probe + "'k7/2K5/8/8/8/8/8/1R6 b - - 0 1'");
  EXPECT_EQ(r.output, "k7/2K5/8/8/8/8/8/1R6 b - - 0 1: black mated in 2 plies (h#1), 1 solution\n");
  r = run_feerie(probe + "--mated white 'k7/2K5/8/8/8/8/8/1R6 w - - 0 1'");
  EXPECT_EQ(r.output, "k7/2K5/8/8/8/8/8/1R6 w - - 0 1: no helpmate (white mated)\n");
  // The other orientation, read through KRvK with colours exchanged, and named as the
  // problem with colours exchanged (as stat, mine and --popeye name it).
  r = run_feerie(probe + "--mated white 'K7/2k5/8/8/8/8/8/1r6 b - - 0 1'");
  EXPECT_EQ(r.output, "K7/2k5/8/8/8/8/8/1r6 b - - 0 1: white mated in 1 ply (h#0.5), 1 solution\n");
  r = run_feerie(probe + "--json 'k7/2K5/8/8/8/8/8/1R6 b - - 0 1'");
  EXPECT_TRUE(contains(r.output, "\"plies\":2,\"solutions\":1,\"solutions_capped\":false,\"problem\":\"h#1\""))
      << r.output;
}

TEST_F(HelpCli, ErrorsSayWhatToDo) {
  CommandRun r = run_feerie("probe --stipulation h# --tables " + dir_ + " 'k7/2K5/8/8/8/8/8/1R6 w - - 0 1'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(contains(r.output, "missing helpmate table KRvK")) << r.output;
  EXPECT_TRUE(contains(r.output, "feerie gen --tables " + dir_ + " --stipulation h# --condition orthodox KRvK"))
      << r.output;
  r = run_feerie("gen --stipulation x# --tables " + dir_ + " KRvK");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(
      contains(r.output, "unknown stipulation 'x#' (known: # for direct mate, h# for helpmate, s# for selfmate)"))
      << r.output;
  r = run_feerie("gen --stipulation h# --plan --tables " + dir_ + " KRvK");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(
      contains(r.output, "--plan, --mpi, --ranks, --ranks-per-node and --exchange-limit are for direct-mate tables"))
      << r.output;
  // Accepted and ignored, once.
  r = run_feerie("gen --stipulation h# --checkpoint-interval 5 --tables " + dir_ + " KRvK");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "--checkpoint-interval is for direct-mate tables")) << r.output;
  // A component beyond --max-memory is refused before it is solved (its estimate counts the
  // program as resident: no helpmate job fits in 1 MiB), with the limit's source.
  r = run_feerie("gen --stipulation h# --max-memory 1M --tables " + dir_ + "/limited KRvK");
  EXPECT_EQ(r.exit_code, 7) << r.output;
  EXPECT_TRUE(contains(r.output, "the h# tables of KvK need about")) << r.output;
  EXPECT_TRUE(contains(r.output, "more than the limit of 1 MiB (--max-memory)")) << r.output;
  r = run_feerie("probe --mated white --tables " + dir_ + " 'k7/2K5/8/8/8/8/8/1R6 w - - 0 1'");
  EXPECT_TRUE(contains(r.output, "--mated is for --stipulation h# and s#")) << r.output;
  r = run_feerie("probe --stipulation h# --moves --tables " + dir_ + " 'k7/2K5/8/8/8/8/8/1R6 w - - 0 1'");
  EXPECT_TRUE(contains(r.output, "are for direct mates, not --stipulation h# or s#")) << r.output;
  // --no-pv too (a helpmate answer has no principal variation; it was taken without a word).
  r = run_feerie("probe --stipulation h# --no-pv --tables " + dir_ + " 'k7/2K5/8/8/8/8/8/1R6 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "--moves, --no-pv, --tree, --problem and --pgn are for direct mates")) << r.output;

  // A helpmate file where a direct-mate table belongs is refused, not misread.
  ASSERT_EQ(run_feerie("gen --stipulation h# --tables " + dir_ + " KRvK").exit_code, 0);
  fs::copy_file(dir_ + "/orthodox/KRvK.help-black.ftb", dir_ + "/orthodox/KRvK.ftb");
  r = run_feerie("probe --tables " + dir_ + " 'k7/2K5/8/8/8/8/8/1R6 w - - 0 1'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(contains(r.output, "answers stipulation h#:black, not #")) << r.output;
  // And a helpmate file of the other colour in place of this one.
  fs::copy_file(dir_ + "/orthodox/KRvK.help-black.ftb", dir_ + "/orthodox/KRvK.help-white.ftb",
                fs::copy_options::overwrite_existing);
  r = run_feerie("probe --stipulation h# --mated white --tables " + dir_ + " 'k7/2K5/8/8/8/8/8/1R6 w - - 0 1'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(contains(r.output, "answers stipulation h#:black, not h#:white")) << r.output;
}

// A probe, stat or mine with one colour mated reads that colour's file alone: with only
// KRvK.help-black.ftb on disk (or a damaged help-white file) they failed for the other's.
TEST_F(HelpCli, OneColourMatedNeedsOnlyItsOwnFile) {
  ASSERT_EQ(run_feerie("gen --stipulation h# --tables " + dir_ + " KRvK").exit_code, 0);
  const std::string white_mated = dir_ + "/orthodox/KRvK.help-white.ftb";
  for (const bool damaged : {false, true}) {
    if (damaged)
      std::ofstream(white_mated, std::ios::binary) << "not a table";
    else
      fs::remove(white_mated);
    const std::string black = "--stipulation h# --mated black --tables " + dir_ + " ";
    CommandRun r = run_feerie("probe " + black + "'k7/2K5/8/8/8/8/8/1R6 b - - 0 1'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output, "k7/2K5/8/8/8/8/8/1R6 b - - 0 1: black mated in 2 plies (h#1), 1 solution\n");
    r = run_feerie("stat " + black + "KRvK");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(contains(r.output, "KRvK (orthodox), helpmates, black mated")) << r.output;
    r = run_feerie("mine " + black + "--count KRvK");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    // White mated still needs its file, and says what is wrong with it.
    r = run_feerie("probe --stipulation h# --mated white --tables " + dir_ + " 'k7/2K5/8/8/8/8/8/1R6 b - - 0 1'");
    EXPECT_EQ(r.exit_code, damaged ? 4 : 3) << r.output;
  }
}

// `--mated ""` is refused (it was read as the default colour), by probe, stat and mine.
TEST_F(HelpCli, AnEmptyMatedIsRefused) {
  for (const char* command : {"probe --stipulation h# --mated '' 'k7/2K5/8/8/8/8/8/1R6 b - - 0 1'",
                              "stat --stipulation h# --mated '' KRvK", "mine --stipulation h# --mated '' KRvK"}) {
    CommandRun r = run_feerie(std::string(command) + " --tables " + dir_);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.output;
    EXPECT_TRUE(contains(r.output, "--mated: an empty value")) << command << ": " << r.output;
  }
}

// Selfmate tables go through the same files and commands (.self-white.ftb, .self-black.ftb).
TEST_F(HelpCli, SelfmateTablesFromGenToProbeAndVerify) {
  CommandRun r = run_feerie("gen --stipulation s# --condition madrasi-ri --tables " + dir_ + " KQvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "KQvK: generated " + dir_ + "/madrasi-ri/KQvK.self-white.ftb and " + dir_ +
                                     "/madrasi-ri/KQvK.self-black.ftb"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "longest selfmate: white mated none")) << r.output;
  r = run_feerie("verify --stipulation s# --condition madrasi-ri --tables " + dir_ + " KQvK");
  EXPECT_TRUE(contains(r.output, "KQvK: 132608 entries checked, 0 inconsistent")) << r.output;
  const std::string probe = "probe --stipulation s# --condition madrasi-ri --tables " + dir_ + " ";
  // White mated is the default: a lone black king never mates.
  r = run_feerie(probe + "'k7/8/1K6/8/8/8/8/6Q1 w - - 0 1'");
  EXPECT_EQ(r.output, "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1: no selfmate (white mated)\n");
  // Mated now: the kings touch, so under Madrasi RI the black king cannot move.
  r = run_feerie(probe + "--mated black '8/8/8/8/4k1Q1/5K2/8/8 b - - 0 1'");
  EXPECT_EQ(r.output, "8/8/8/8/4k1Q1/5K2/8/8 b - - 0 1: black is mated now (s#0)\n");
  r = run_feerie("probe --stipulation h# --condition madrasi-ri --tables " + dir_ +
                 " 'k7/8/1K6/8/8/8/8/6Q1 w - - 0 1'");
  EXPECT_TRUE(contains(r.output, "missing helpmate table KQvK")) << r.output;
}

// A selfmate of an odd number of plies (the other colour to move) states no problem: stat,
// mine and probe say so alike with "problem": null (stat wrote "", probe left it out).
TEST_F(HelpCli, SelfmateAtOddPliesHasANullProblemInEveryJsonAndNoneInText) {
  const std::string options = "--stipulation s# --condition madrasi-ri --tables " + dir_ + " ";
  ASSERT_EQ(run_feerie("gen " + options + "KQvKR").exit_code, 0);
  CommandRun r = run_feerie("stat --json " + options + "KQvKR");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "{\"plies\":1,\"problem\":null,")) << r.output;
  EXPECT_TRUE(contains(r.output, "{\"plies\":2,\"problem\":\"s#1\",")) << r.output;
  const std::string fen = "8/8/2r5/8/8/3Q4/8/Kk6 b - - 0 1";
  r = run_feerie("probe --json " + options + "'" + fen + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "\"plies\":5,\"problem\":null")) << r.output;
  // The text names no problem (it threw on the null: "type must be string, but is null").
  r = run_feerie("probe " + options + "'" + fen + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, fen + ": white mated in 5 plies, forced\n")) << r.output;
  r = run_feerie("mine --json --side black --limit 1 --seed 1 " + options + "KQvKR");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "\"problem\":null")) << r.output;
}

// A position whose colour mated is mated already: no count of solutions and no line (it
// said "1 solution" and showed none).
TEST_F(HelpCli, AMatedPositionIsMatedNow) {
  ASSERT_EQ(run_feerie("gen --stipulation h# --tables " + dir_ + " KRvK").exit_code, 0);
  CommandRun r =
      run_feerie("probe --stipulation h# --solutions 3 --tables " + dir_ + " 'k7/2K5/8/8/8/8/8/R7 b - - 0 1'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "k7/2K5/8/8/8/8/8/R7 b - - 0 1: black is mated now (h#0)\n");
}

// The study commands over helpmate tables: stat's lengths, mine's filters and outputs,
// Popeye problems from probe and mine, and the direct-mate options refused.
TEST_F(HelpCli, StatMineAndPopeyeOverHelpmateTables) {
  ASSERT_EQ(run_feerie("gen --stipulation h# --tables " + dir_ + " KRvK").exit_code, 0);
  const std::string tables = " --tables " + dir_ + " ";
  CommandRun r = run_feerie("stat --stipulation h#" + tables + "KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "KRvK (orthodox), helpmates, black mated\n")) << r.output;
  EXPECT_TRUE(contains(r.output, "Black to move: 223944 positions, 223464 with a helpmate")) << r.output;
  EXPECT_TRUE(contains(r.output, "longest 14 plies (h#7)")) << r.output;
  EXPECT_TRUE(contains(r.output, "       14  h#7            184       0\n")) << r.output;
  r = run_feerie("stat --json --stipulation h#" + tables + "KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "\"longest_problem\":\"h#7\"")) << r.output;
  EXPECT_TRUE(contains(r.output, "{\"plies\":2,\"problem\":\"h#1\",\"positions\":2352,\"unique\":2352}")) << r.output;
  // Without a helpmate every longest_ key is null (longest_problem and the others were left out).
  r = run_feerie("stat --json --stipulation h# --mated white" + tables + "KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output,
                       "\"lengths\":[],\"longest_plies\":null,\"longest_problem\":null,\"longest_fen\":null,"
                       "\"longest_solutions\":null,\"longest_solutions_capped\":null}"))
      << r.output;
  r = run_feerie("stat --stipulation h#" + tables + "KvKR");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "stored as KRvK")) << r.output;

  // mine: a count, the same matches as JSON lines, each h#2 or h#2.5 with one solution.
  // Half moves count as such: h#2 to h#2.5 (plies 4 and 5) are those of h#2 to h#3 less the
  // h#3s (6 plies); --mate 2.5 the h#2.5s alone (the docs promised it, the option refused it).
  r = run_feerie("mine --stipulation h# --unique --mate 2-2.5 --count" + tables + "KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const int count = std::stoi(r.output);
  EXPECT_GT(count, 0);
  r = run_feerie("mine --stipulation h# --unique --mate 2.5 --json" + tables + "KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const int halves = int(std::count(r.output.begin(), r.output.end(), '\n'));
  EXPECT_GT(halves, 0);
  EXPECT_FALSE(contains(r.output, "\"problem\":\"h#2\"")) << r.output;
  EXPECT_FALSE(contains(r.output, "\"problem\":\"h#3\"")) << r.output;
  r = run_feerie("mine --stipulation h# --unique --mate 2 --count" + tables + "KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(std::stoi(r.output) + halves, count);
  for (const char* bad : {"2.3", "2-1.5", "-1", "1.5x"}) {
    r = run_feerie("mine --stipulation h# --mate " + std::string(bad) + " --count" + tables + "KRvK");
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.output;
  }
  r = run_feerie("mine --stipulation s# --mate 1.5 --count" + tables + "KRvK");  // selfmates: whole moves
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "s#N to s#M")) << r.output;
  r = run_feerie("mine --stipulation h# --unique --mate 2-2.5 --json" + tables + "KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  int lines = 0;
  for (std::size_t at = 0; (at = r.output.find("\"solutions\":1,", at)) != std::string::npos; ++at) ++lines;
  EXPECT_EQ(lines, count) << r.output;
  EXPECT_TRUE(contains(r.output, "\"problem\":\"h#2.5\"")) << r.output;
  r = run_feerie("mine --stipulation h# --unique --mate 2 --limit 1 --popeye" + tables + "KRvK");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "BeginProblem\n")) << r.output;
  EXPECT_TRUE(contains(r.output, "Stipulation h#2\n")) << r.output;
  EXPECT_TRUE(contains(r.output, "h#2, 1 solution\n")) << r.output;
  r = run_feerie("probe --stipulation h# --popeye" + tables + "'8/8/8/7R/8/2K5/5k2/8 b - - 0 1'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "Stipulation h#2\nPieces White Kc3 Rh5 Black Kf2\nEndProblem\n")) << r.output;

  r = run_feerie("probe --stipulation h# --solutions 2" + tables + "'8/8/8/7R/8/2K5/5k2/8 w - - 0 1'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "8/8/8/7R/8/2K5/5k2/8 w - - 0 1: black mated in 5 plies (h#2.5), 26 solutions\n"
            "  1...Kc2 2.Ke1 Kd3 3.Kd1 Rh1#\n  1...Kd2 2.Kf1 Ke3 3.Ke1 Rh1#\n  (2 of 26 shown)\n");

  // A count at the table's cap (255) may hide more: said also when 255 lines are shown.
  r = run_feerie("probe --stipulation h# --solutions 255" + tables + "'8/8/5k2/8/3R4/8/8/K7 w - - 0 1'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "255 or more solutions\n")) << r.output.substr(0, 300);
  EXPECT_TRUE(contains(r.output, "\n  (255 of 255 or more shown)\n")) << r.output.substr(r.output.size() - 300);
  r = run_feerie("probe --stipulation h# --uci" + tables + "'8/8/5k2/8/3R4/8/8/K7 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 2) << r.output;

  for (const char* args : {"probe --stipulation s# --solutions 2", "mine --stipulation h# --sound",
                           "mine --stipulation h# --unique-key", "mine --stipulation s# --unique", "mine --unique"}) {
    r = run_feerie(std::string(args) + tables + "KRvK");
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.output;
    EXPECT_TRUE(contains(r.output, "is for")) << args << ": " << r.output;
  }
}

}  // namespace
}  // namespace feerie
