// The `feerie` program seen as a user sees it: exit codes and one-line reasons.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_util.h"
#include "tests/tools/command_run.h"

namespace {

using CommandRun = feerie::test::JoinedRun;

CommandRun run_command(const std::string& command_line) { return feerie::test::run_joined(command_line); }
CommandRun run_feerie(const std::string& args) { return feerie::test::run_feerie_joined(args); }
using feerie::test::run_script;

int line_count(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// `feerie --version` (planned in SPEC 7) says the version the C API and the Python module
// say, and exits 0 without a command.
TEST(Cli, VersionSaysTheProjectVersion) {
  const CommandRun r = run_feerie("--version");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, std::string("feerie ") + FEERIE_VERSION_STRING + "\n");
}

TEST(Cli, MovesJson) {
  CommandRun r = run_feerie("moves --json '8/8/8/8/8/8/8/K6k w - - 0 1'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, "[\"a1a2\",\"a1b1\",\"a1b2\"]\n");
}

TEST(Cli, MovesAcceptsFenFieldsAsSeparateArguments) {
  CommandRun r = run_feerie("moves 8/8/8/8/8/8/8/K6k w - - 0 1");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, "3 legal moves: a1a2 a1b1 a1b2\n");
}

TEST(Cli, MovesAfterGivesEachMoveWithThePositionAfterIt) {
  // The seed's diagrams A and B: the magic rook b3 goes to b6 between two knights.
  CommandRun r = run_feerie("moves --after '8/8/8/n1N5/8/1R*6/8/K6k w - - 0 1'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("\nb3b6 8/8/1R*6/p1B5/8/8/8/K6k b - - 0 1\n"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.rfind("a1a2 ", 0), 0u);
  r = run_feerie("moves --after --json '8/8/8/8/8/8/8/K6k w - - 0 1'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.rfind("[{\"move\":\"a1a2\",\"fen\":\"8/8/8/8/8/8/K7/7k b - - 0 1\",\"san\":\"Ka2\"},", 0), 0u)
      << r.output;
}

TEST(Cli, MagicKingIsRefused) {
  CommandRun r = run_feerie("moves 'K*7/8/8/8/8/8/8/7k w - - 0 1'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("a king cannot be magic"), std::string::npos);
  EXPECT_EQ(line_count(r.output), 1);
}

// A scratch tables directory with KvK and KRvK, for the regression tests below.
std::string tables_with_krvk() {
  std::string dir = "/tmp/feerie-cli-" + std::to_string(::getpid());
  run_feerie("gen --tables " + dir + " KRvK");
  return dir;
}

// The command the missing-table message suggests writes where the probe looks: it names
// a tables directory that is not the default (it once sent the table to ./tables), quoted
// when the shell would split its name, and as a path when it would read as an option.
TEST(Cli, MissingTableHintNamesTheTablesDirectoryAsTheShellReadsIt) {
  const std::pair<std::string, std::string> cases[] = {
      {"--tables /tmp/feerie-never-written", "--tables /tmp/feerie-never-written"},
      {"--tables \"/tmp/feerie never's\"", "--tables '/tmp/feerie never'\\''s'"},
      {"--tables=-feerie-never-written", "--tables ./-feerie-never-written"}};
  for (const auto& [given, hinted] : cases) {
    CommandRun r = run_feerie("probe " + given + " '8/8/8/8/8/2k5/8/KR6 w - - 0 1'");
    EXPECT_EQ(r.exit_code, 3) << given;
    EXPECT_NE(r.output.find("generate it with: feerie gen " + hinted + " --condition orthodox KRvK"), std::string::npos)
        << r.output;
    // A directory not there at all (often a typo) is said to be missing.
    EXPECT_NE(r.output.find("' does not exist; generate it with"), std::string::npos) << r.output;
  }
}

// A file where the condition's directory of tables should be is named as such, not as a
// missing table whose suggested command would fail.
TEST(Cli, ProbeNamesAFileWhereTheConditionsDirectoryShouldBe) {
  const std::string dir = "/tmp/feerie-file-condition-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/orthodox") << "not a directory";
  CommandRun r = run_feerie("probe --tables " + dir + " '8/8/8/8/8/2k5/8/KR6 w - - 0 1'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("'" + dir + "/orthodox' is not a directory"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("generate it with"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

// A table copied into another condition's directory is refused with its own kind, so that
// programs can tell "wrong directory" from "damaged file".
TEST(Cli, ProbeRefusesATableOfAnotherConditionWithItsOwnExitCode) {
  std::string dir = tables_with_krvk();
  std::system(("mkdir -p " + dir + "/madrasi && cp " + dir + "/orthodox/*.ftb " + dir + "/madrasi/").c_str());
  CommandRun r = run_feerie("probe --tables " + dir + " --condition madrasi '8/8/8/8/8/2k5/8/KR6 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 8);  // condition mismatch
  EXPECT_NE(r.output.find("was built for condition 'orthodox', not 'madrasi'"), std::string::npos) << r.output;
  std::system(("rm -rf " + dir).c_str());
}

TEST(Cli, StatRefusesATableRenamedToAnotherMaterial) {
  std::string dir = tables_with_krvk();
  run_feerie("gen --tables " + dir + " KRvK");
  std::system(("cp " + dir + "/orthodox/KRvK.ftb " + dir + "/orthodox/KQvK.ftb").c_str());
  CommandRun r = run_feerie("stat --tables " + dir + " KQvK");
  EXPECT_EQ(r.exit_code, 4);  // corrupt
  EXPECT_NE(r.output.find("holds material KRvK, not KQvK"), std::string::npos) << r.output;
  std::system(("rm -rf " + dir).c_str());
}

TEST(Cli, ProbeOnStdinKeepsGoingPastABadLine) {
  std::string dir = tables_with_krvk();
  std::string input = dir + "/fens.txt";
  std::ofstream(input) << "8/8/8/8/8/8/R7/K6k w - - 0 1\nnot a fen\n8/8/8/8/8/8/R7/K6k b - - 0 1\n";
  CommandRun r = run_feerie("probe --json --tables " + dir + " < " + input);
  EXPECT_EQ(r.exit_code, 2);                       // the kind of the first failure: a bad FEN is an invalid argument
  EXPECT_EQ(line_count(r.output), 4) << r.output;  // three results, then the summary
  EXPECT_NE(r.output.find("\"error\":\"bad FEN 'not a fen'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"fen\":\"8/8/8/8/8/8/R7/K6k b - - 0 1\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 of 3 positions failed"), std::string::npos) << r.output;
  std::system(("rm -rf " + dir).c_str());
}

// Regression tests of an exploratory test of the program's errors (thirty-eighth session),
// each named after what went wrong.

// The line named was the count of non-blank lines, not the line of the input.
TEST(Cli, ProbeOnStdinNamesTheLineOfTheInputBlankLinesCounted) {
  std::string dir = tables_with_krvk();
  std::string input = dir + "/fens.txt";
  std::ofstream(input) << "\n\nnot a fen\n8/8/8/8/8/8/R7/K6k w - - 0 1\n";
  CommandRun r = run_feerie("probe --tables " + dir + " < " + input);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("feerie: line 3: bad FEN 'not a fen'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 of 2 positions failed"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

// Output to a full disk exited 0, the output lost.
TEST(Cli, OutputThatCannotBeWrittenIsAnIoError) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
  CommandRun r = feerie::test::run_joined("( " + std::string(FEERIE_BINARY) +
                                          " moves '8/8/8/8/8/8/8/K6k w - - 0 1' > /dev/full )");
  EXPECT_EQ(r.exit_code, 5) << r.output;
  EXPECT_NE(r.output.find("feerie: cannot write to standard output"), std::string::npos) << r.output;
}

// And says why when the file system is full, also when the write failed long before the
// end (mine's and probe's output said no reason). Needs a tmpfs of its own (unshare -m).
TEST(Cli, OutputToAFullFileSystemSaysSo) {
  if (std::system("unshare -m true 2> /dev/null") != 0) GTEST_SKIP() << "no unshare -m here";
  const std::string dir = "/tmp/feerie-full-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string tables = tables_with_krvk();
  CommandRun r = feerie::test::run_joined("unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs " + dir +
                                          " || exit 77; dd if=/dev/zero of=" + dir +
                                          "/fill bs=4k count=100 2> /dev/null; " + std::string(FEERIE_BINARY) +
                                          " mine --threads 1 --tables " + tables + " KRvK > " + dir + "/out'");
  if (r.exit_code == 77) GTEST_SKIP() << "no tmpfs mount here: " << r.output;
  EXPECT_EQ(r.exit_code, 5) << r.output;
  EXPECT_NE(r.output.find("cannot write to standard output (No space left on device)"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(tables);
}

// `--max-memory nan` (or inf, or 2^64 bytes and more) switched the memory limit off.
TEST(Cli, MaxMemoryThatIsNotAFiniteSizeIsRefused) {
  for (const char* size : {"nan", "inf", "-inf", "20000000T", "0", "-1G"}) {
    CommandRun r = run_feerie(std::string("gen --plan --max-memory ") + size + " --tables /tmp/feerie-none KQRBNvKQ");
    EXPECT_EQ(r.exit_code, 2) << size << ": " << r.output;
    EXPECT_NE(r.output.find("bad size"), std::string::npos) << size << ": " << r.output;
  }
}

// A FIFO under a table's name made probe, check and gen wait for ever.
TEST(Cli, AFifoUnderATablesNameIsRefusedNotWaitedOn) {
  std::string dir = tables_with_krvk();
  const std::string fifo = dir + "/orthodox/KQvK.ftb";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  CommandRun r = run_feerie("probe --tables " + dir + " '8/8/8/8/8/3Q4/8/k1K5 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_NE(r.output.find("is not a regular file"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

// `verify` of a truncated table beside a missing sub-table named the sub-table (exit 3),
// never the damage of the table asked about.
TEST(Cli, VerifyNamesTheDamagedTableBeforeAMissingSubTable) {
  std::string dir = tables_with_krvk();
  std::filesystem::remove(dir + "/orthodox/KvK.ftb");
  std::filesystem::resize_file(dir + "/orthodox/KRvK.ftb", 1000);
  CommandRun r = run_feerie("verify --threads 1 --tables " + dir + " KRvK");
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_NE(r.output.find("KRvK.ftb' is truncated"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

// gen --plan planned a job on a read-only file system where gen stops at once (exit 5).
// Needs the right to mount a read-only tmpfs (root with CAP_SYS_ADMIN).
TEST(Cli, PlanRefusesAReadOnlyTablesDirectoryAsGenDoes) {
  const std::string dir = "/tmp/feerie-read-only-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  if (std::system(("mount -t tmpfs -o ro,size=64k tmpfs " + dir + " 2> /dev/null").c_str()) != 0) {
    std::filesystem::remove_all(dir);
    GTEST_SKIP() << "cannot mount a read-only tmpfs here";
  }
  CommandRun plan = run_feerie("gen --plan --tables " + dir + " KQvK");
  CommandRun gen = run_feerie("gen --tables " + dir + " KQvK");
  std::system(("umount " + dir).c_str());
  std::filesystem::remove_all(dir);
  EXPECT_EQ(plan.exit_code, 5) << plan.output;
  EXPECT_EQ(gen.exit_code, 5) << gen.output;
  EXPECT_NE(plan.output.find("Read-only file system"), std::string::npos) << plan.output;
}

// As root, gen --plan planned a job under /proc, where gen cannot make its directory: the
// plan's check asked access(), which grants root everything. (A docs audit.)
TEST(Cli, PlanRefusesADirectoryNothingCanBeMadeInAsGenDoes) {
  CommandRun plan = run_feerie("gen --plan --threads 1 --tables /proc KQvK");
  CommandRun gen = run_feerie("gen --threads 1 --tables /proc KQvK");
  EXPECT_EQ(plan.exit_code, 5) << plan.output;
  EXPECT_EQ(gen.exit_code, 5) << gen.output;
  EXPECT_NE(plan.output.find("cannot create the tables directory '/proc/orthodox'"), std::string::npos) << plan.output;
}

// A position of a material no table can exist for (15 queens) was "missing table", with a
// gen command that gen refuses.
TEST(Cli, ProbeOfAMaterialNoTableCanExistForSaysSo) {
  std::string dir = tables_with_krvk();
  CommandRun r = run_feerie("probe --tables " + dir + " 'kqqqqqqq/qqqqqqqq/8/8/8/8/8/K7 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 6) << r.output;
  EXPECT_EQ(r.output.rfind("feerie: no table can be generated for this position: bad material 'KQQQQQQQQQQQQQQQvK': "
                           "too many units of one kind",
                           0),
            0u)
      << r.output;
  EXPECT_EQ(r.output.find("generate it with"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

// `verify` of several materials went no further than the first it could not verify.
TEST(Cli, VerifyGoesOnPastATableItCannotVerify) {
  std::string dir = tables_with_krvk();
  CommandRun r = run_feerie("verify --threads 1 --tables " + dir + " KvK KQvK KRvK");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("KvK: 924 entries checked, 0 inconsistent\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("feerie: missing table KQvK"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("does not exist"), std::string::npos) << r.output;  // the directory is there
  EXPECT_NE(r.output.find("KRvK: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("feerie: 1 of 3 tables could not be verified\n"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

// `verify --part K/N` checks part K of N equal parts of the entries, and says which; the
// parts add up to the whole table. A part that does not exist, --part with --mpi and
// --part of a helpmate table are refused.
TEST(Cli, VerifyPartsAddUpToTheWholeTable) {
  std::string dir = tables_with_krvk();
  ASSERT_EQ(run_feerie("gen --threads 1 --tables " + dir + " KRvKR").exit_code, 0);
  const CommandRun whole = run_feerie("verify --threads 1 --tables " + dir + " KRvKR");
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  // 1,892,352 entries per side: 58 blocks, so every one of three parts has some.
  EXPECT_EQ(whole.output, "KRvKR: 3784704 entries checked, 0 inconsistent\n");
  std::uint64_t sum = 0;
  for (int k = 1; k <= 3; ++k) {
    const CommandRun part =
        run_feerie("verify --threads 1 --part " + std::to_string(k) + "/3 --tables " + dir + " KRvKR");
    ASSERT_EQ(part.exit_code, 0) << part.output;
    const std::string head = "KRvKR: part " + std::to_string(k) + " of 3, ";
    ASSERT_EQ(part.output.rfind(head, 0), 0u) << part.output;
    const std::uint64_t checked = std::stoull(part.output.substr(head.size()));
    EXPECT_GT(checked, 0u) << part.output;
    sum += checked;
  }
  EXPECT_EQ(sum, 3784704u);
  for (const std::string bad : {"0/2", "3/2", "1/0", "x", "1/2/3", "1/", "-1/2"}) {
    const CommandRun r = run_feerie("verify --part " + bad + " --tables " + dir + " KRvKR");
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("--part '" + bad + "': expected K/N"), std::string::npos) << r.output;
  }
  EXPECT_NE(run_feerie("verify --part 1/2 --mpi --tables " + dir + " KRvKR").exit_code, 0);
  const CommandRun help = run_feerie("verify --part 1/2 --stipulation h# --tables " + dir + " KRvKR");
  EXPECT_EQ(help.exit_code, 2) << help.output;
  EXPECT_NE(help.output.find("--part is for direct-mate tables"), std::string::npos) << help.output;
  std::filesystem::remove_all(dir);
}

// `stat KvKR` was refused although every command accepts either orientation.
TEST(Cli, StatAcceptsEitherOrientation) {
  std::string dir = tables_with_krvk();
  CommandRun asked = run_feerie("stat --tables " + dir + " KvKR"),
             stored = run_feerie("stat --tables " + dir + " KRvK");
  EXPECT_EQ(asked.exit_code, 0) << asked.output;
  EXPECT_EQ(asked.output, stored.output);
  EXPECT_EQ(asked.output.rfind("KRvK (orthodox)\n", 0), 0u) << asked.output;
  std::filesystem::remove_all(dir);
}

// `bench --tables DIR` removed every table of the condition in DIR before timing.
TEST(Cli, BenchLeavesTheTablesOfItsDirectoryAlone) {
  namespace fs = std::filesystem;
  const fs::path dir = "/tmp/feerie-bench-keep-" + std::to_string(::getpid());
  fs::create_directories(dir / "orthodox");
  std::ofstream(dir / "orthodox" / "KQvK.ftb") << "a table of the user's\n";
  CommandRun r = run_feerie("bench --threads 1 --tables " + dir.string() + " KvK");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::ifstream kept(dir / "orthodox" / "KQvK.ftb");
  std::string text;
  std::getline(kept, text);
  EXPECT_EQ(text, "a table of the user's");
  int files = 0;  // orthodox/ and its file: the scratch directory is gone
  for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 2);
  r = run_feerie("bench --threads 1 --tables " + (dir / "orthodox" / "KQvK.ftb").string() + " KvK");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("KQvK.ftb' is a file, not a directory"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

TEST(Cli, PerftPrintsTheCountLast) {
  CommandRun r = run_feerie("perft --depth 3 --divide 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(line_count(r.output), 21);
  EXPECT_NE(r.output.find("\n8902\n"), std::string::npos);
}

TEST(Cli, ConditionOrthodoxAccepted) {
  EXPECT_EQ(run_feerie("perft --condition orthodox --depth 1 '8/8/8/8/8/8/8/K6k w - - 0 1'").output, "3\n");
}

// Annan's diagram D: the king b3 in front of the rook a2 moves as a rook.
TEST(Cli, ConditionAnnanAccepted) {
  CommandRun r = run_feerie("moves --condition annan-a '8/8/8/8/R7/1K5k/R7/8 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("b3a3"), std::string::npos) << r.output;
  EXPECT_EQ(run_feerie("perft --condition nanna-d --depth 1 '8/8/8/8/8/8/8/K6k w - - 0 1'").output, "3\n");
}

struct BadInput {
  const char* args;
  int exit_code;
  const char* message_part;
  friend void PrintTo(const BadInput& b, std::ostream* os) { *os << b.args; }
};

class CliErrors : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliErrors, OneLineReasonAndNonZeroExit) {
  CommandRun r = run_feerie(GetParam().args);
  EXPECT_EQ(r.exit_code, GetParam().exit_code) << r.output;
  EXPECT_EQ(line_count(r.output), 1) << r.output;
  EXPECT_EQ(r.output.rfind("feerie: ", 0), 0u) << r.output;
  EXPECT_NE(r.output.find(GetParam().message_part), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Table, CliErrors,
    ::testing::Values(
        BadInput{"moves --condition madrasi-x '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", 2,
                 "unknown condition 'madrasi-x' (known: orthodox"},
        BadInput{"moves --condition annan-e '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", 2, "unknown condition 'annan-e'"},
        BadInput{"moves --condition magic '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", 2,
                 "; magic units are marked in the FEN (R*) and the material (KmRvK), under any condition"},
        BadInput{"moves --condition annan+nanna-b '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", 2,
                 "bad condition 'annan+nanna-b': two walk conditions"},
        BadInput{"gen --tables /tmp/feerie-never-written --condition madrasi+eiffel KQvK", 2,
                 "bad condition 'madrasi+eiffel': two paralysis conditions"},
        BadInput{"moves 'not a fen'", 2, "bad FEN"},
        // (An empty condition drew a board with Black in check under no condition.)
        BadInput{"diagram --condition '' '4k3/8/8/8/8/8/8/4R1K1 w - - 0 1'", 2, "an empty value"},
        BadInput{"play '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1' e4x", 2, "'x' at character 3"},
        // Issue 27 G: a zero --limit is refused in words (CLI11 printed its range as 0 to
        // 1.79e308); a file as --tables is a usage error (2, below), not an I/O error (5).
        BadInput{"--version junk", 2, "--version takes nothing after it (not 'junk')"},
        // --sound's value goes after '=': the separate word was read as the material.
        BadInput{"mine --sound threat KQvK", 2, "--sound takes its value after '=' (--sound=threat)"},
        BadInput{"mine --sound every-reply", 2, "--sound takes its value after '=' (--sound=every-reply)"},
        BadInput{"mine KQvK KRvK", 2, "the following argument was not expected: KRvK"},
        BadInput{"mine --limit 0 KQvK", 2, "--limit: must be a whole number from 1 to 18446744073709551615, not '0'"},
        // CLI11 read these as 2^64 - 1: three seeds gave one sample.
        BadInput{"mine --limit 3 --seed -1 KQvK", 2, "--seed: must be a whole number from 0 to"},
        BadInput{"mine --limit 3 --seed 18446744073709551616 KQvK", 2, "--seed: must be a whole number from 0 to"},
        BadInput{"gen --checkpoint-interval -1 KQvK", 2, "must be a number of seconds, 0 or more"},
        // Sets of tables (issue 23).
        BadInput{"gen --tables /tmp/feerie-never-written", 2, "name the materials to generate (KQvKR ...) or a --set"},
        BadInput{"gen --tables /tmp/feerie-never-written --set 9", 2, "bad set '9': expected N or M-N men"},
        BadInput{"gen --tables /tmp/feerie-never-written --set KXvK?", 2, "bad set 'KXvK?': "},
        BadInput{"gen --tables /tmp/feerie-never-written --pawns KQvK", 2, "--pawns and --no-pawns choose among"},
        BadInput{"gen --tables /tmp/feerie-never-written --set K?vK? --pawns --no-pawns", 2, "excludes"},
        BadInput{"gen --tables /tmp/feerie-never-written --set KQvKR --pawns", 2,
                 "the set 'KQvKR' has no material with a pawn"},
        // Issue 27 G: a relation with an empty pair was accepted as if the comma were not there.
        BadInput{"moves --condition eiffel:qb, '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", 2,
                 "bad condition 'eiffel:qb,': an empty pair"},
        BadInput{"moves --condition eiffel:qb,,bq '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", 2, "an empty pair"},
        BadInput{"moves '4k3/8/8/8/8/8/8/3KK3 w - - 0 1'", 2, "2 white kings"},
        BadInput{"moves '8/8/8/8/8/8/8/4K3 w - - 0 1'", 2, "no black king"},
        BadInput{"moves '4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1'", 2, "castling rights"},
        BadInput{"moves '4k3/8/8/8/8/8/8/4K3 w - e6 0 1'", 2, "en-passant square e6"},
        BadInput{"moves '4k3/8/8/8/8/8/8/4R1K1 w - - 0 1'", 2,
                 "side not to move (black) is in check under orthodox (from Re1)"},
        // The checking units are named (touching kings read as 'in check' without a word why);
        // a paralysed one gives no check.
        BadInput{"moves '8/8/8/8/8/8/8/KkQ5 w - - 0 1'", 2, "is in check under orthodox (from Ka1 and Qc1)"},
        BadInput{"moves --condition madrasi 'Q6k/q7/8/8/8/8/8/2K4R w - - 0 1'", 2,
                 "is in check under madrasi (from Rh1)"},
        BadInput{"moves --frobnicate '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", 2, "--frobnicate"},
        BadInput{"perft '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", 2, "--depth is required"},
        BadInput{"perft --depth x '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", 2, "depth"},
        BadInput{"explode", 2, "unknown command 'explode'"},
        // Regression tests of the reliability issue: jobs too large for the machine are
        // refused at once, with the estimate, instead of growing until killed.
        BadInput{"gen --tables /tmp/feerie-never-written --max-memory 1G KQRvKQR", 7,
                 "cannot generate KQRvKQR: it needs at least 14.4 GiB of memory"},
        BadInput{"gen --tables /tmp/feerie-never-written KQRBNvKQRBN", 7, "beyond the supported"},
        // (The first table of the job is refused: 6 MiB is less than the program itself.)
        BadInput{"gen --tables /tmp/feerie-never-written --max-memory 6M KQvKR", 7,
                 "MiB if a mate is longer than 151 plies (924 entries, both sides to move), more than the 6 MiB "
                 "allowed (--max-memory)"},
        BadInput{"gen --max-memory lots KQvK", 2, "bad size 'lots' for --max-memory"},
        BadInput{"gen --plan --mpi --tables /tmp/feerie-never-written KQvK", 2, "--plan --mpi needs --ranks P"},
        BadInput{"gen --ranks 4 --tables /tmp/feerie-never-written KQvK", 2, "use them with --plan --mpi"},
        BadInput{"gen --exchange-limit 100 --tables /tmp/feerie-never-written KQvK", 2, "use it with --mpi"},
        BadInput{"gen --plan --exchange-limit 5 --tables /tmp/feerie-never-written KQvK", 2, "use it with --mpi"},
        // (stod read these as infinity, 16, 1e-9 and 0 seconds.)
        BadInput{"gen --checkpoint-interval inf --tables /tmp/feerie-never-written KQvK", 2, "not 'inf'"},
        BadInput{"gen --checkpoint-interval 0x10 --tables /tmp/feerie-never-written KQvK", 2, "not '0x10'"},
        BadInput{"gen --checkpoint-interval 1e-9 --tables /tmp/feerie-never-written KQvK", 2, "not '1e-9'"},
        BadInput{"gen --checkpoint-interval -0 --tables /tmp/feerie-never-written KQvK", 2, "not '-0'"},
        BadInput{"gen --plan --mpi --ranks 2 --ranks-per-node 3 --tables /tmp/feerie-never-written KQvK", 2,
                 "--ranks-per-node 3 is more than the 2 processes of the job"},
        BadInput{"gen --ranks-per-node 2 --tables /tmp/feerie-never-written KQvK", 2, "use them with --plan --mpi"},
        // A 32-unit material used to compute its dependency graph for minutes in silence.
        BadInput{"gen --tables /tmp/feerie-never-written KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP", 7,
                 "its index would have 2.07e+46 entries per side to move (at least 3.58e+28 EiB of memory)"},
        BadInput{"gen --plan --tables /tmp/feerie-never-written KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP", 7,
                 "beyond the supported"},
        // The output directory used to be tried only after the solve.
        BadInput{"gen --tables /dev/null KQvK", 2, "'/dev/null' is a file, not a directory"},
        BadInput{"check --tables /tmp/feerie-never-written", 2, "does not exist"},
        // An empty --tables read and wrote ./<condition>/ while messages named no directory.
        BadInput{"probe --tables '' '8/8/8/8/8/8/R7/K6k w - - 0 1'", 2, "an empty directory name"},
        BadInput{"gen --tables '' KQvK", 2, "an empty directory name"}));

}  // namespace

namespace {

// Issue 27 A: the default allowance is the smallest of MemAvailable, the process's
// rlimits and its cgroup's limit, and a refusal names which one bound it; running out of
// memory in the middle of a solve is a resource limit (exit 7) saying so, not
// "std::bad_alloc" with exit 1.
TEST(Cli, Reliability27A_MemoryLimitsOfTheProcess) {
  const std::string dir = "/tmp/feerie-ulimit-" + std::to_string(::getpid()), feerie = FEERIE_BINARY;
  std::filesystem::remove_all(dir);
  CommandRun plan = run_command("ulimit -v 250000; " + feerie + " gen --plan --tables " + dir + " KQRvKR");
  EXPECT_EQ(plan.exit_code, 7) << plan.output;
  EXPECT_NE(plan.output.find("address-space limit (RLIMIT_AS, ulimit -v)"), std::string::npos) << plan.output;
  CommandRun data = run_command("ulimit -d 250000; " + feerie + " gen --plan --tables " + dir + " KQRvKR");
  EXPECT_EQ(data.exit_code, 7) << data.output;
  EXPECT_NE(data.output.find("data-segment limit (RLIMIT_DATA, ulimit -d)"), std::string::npos) << data.output;
  // --max-memory lets the job past the plan; the solve then cannot get its memory.
  CommandRun solve = run_command("ulimit -v 200000; " + feerie + " gen --max-memory 10G --tables " + dir + " KRRvKR");
  EXPECT_EQ(solve.exit_code, 7) << solve.output;
  EXPECT_NE(solve.output.find("out of memory while generating KRRvKR"), std::string::npos) << solve.output;
  EXPECT_EQ(solve.output.find("bad_alloc"), std::string::npos) << solve.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/orthodox/KRRvKR.ftb"));
  std::filesystem::remove_all(dir);
}

// Issue 27 B: a batch with a non-ASCII line (UTF-8, Latin-1) reports it as a JSON error,
// its bytes escaped where they are not UTF-8, and goes on with the next line.
TEST(Cli, Reliability27B_NonAsciiInputOnTheJsonPaths) {
  const std::string dir = tables_with_krvk(), feerie = FEERIE_BINARY;
  CommandRun r = run_command(
      "printf '6k1/8/6K1/8/8/8/8/R\\321\\2046 w - - 0 1\\n6k1/8/6K1/8/8/8/8/R7 w - - 0 1\\n"
      "6k1/8/6K1/8/8/8/8/R\\3516 w - - 0 1\\n' | " +
      feerie + " probe --json --tables " + dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  std::istringstream lines(r.output);
  std::vector<nlohmann::json> objects;
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line[0] == '{') objects.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(objects.size(), 3u) << r.output;
  EXPECT_NE(objects[0]["error"].get<std::string>().find("unknown piece letter '\xd1\x84'"), std::string::npos);
  EXPECT_EQ(objects[1]["wdl"], "win");
  EXPECT_NE(objects[2]["error"].get<std::string>().find("unknown piece letter '\\xe9'"), std::string::npos);
  EXPECT_EQ(objects[2]["fen"], "6k1/8/6K1/8/8/8/8/R\\xe96 w - - 0 1");
  CommandRun material = run_feerie("gen --plan --tables " + dir + " $(printf 'KQv\\351K')");
  EXPECT_EQ(material.exit_code, 2);
  EXPECT_NE(material.output.find("bad material 'KQv\\xe9K'"), std::string::npos) << material.output;
}

// Issue 27 D: a condition directory that cannot be listed (mode 711, an unprivileged
// user) is an I/O error, not "0 tables checked, 0 bad". Issue 27 G: materials named
// without --condition are looked for in every condition's directory.
TEST(Cli, Reliability27D_CheckOfAnUnreadableDirectoryFails) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run check as another user";
  const std::string dir = "/tmp/feerie-unreadable-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  ASSERT_EQ(run_feerie("gen --tables " + dir + " KQvK").exit_code, 0);
  ASSERT_EQ(run_feerie("gen --condition madrasi-ri --tables " + dir + " KRvK").exit_code, 0);
  std::filesystem::permissions(dir, std::filesystem::perms(0755));
  std::filesystem::permissions(dir + "/orthodox", std::filesystem::perms(0711));
  CommandRun r = run_command("setpriv --reuid=65534 --regid=65534 --clear-groups " + std::string(FEERIE_BINARY) +
                             " check --tables " + dir);
  EXPECT_EQ(r.exit_code, 5) << r.output;
  EXPECT_NE(r.output.find("cannot list '" + dir + "/orthodox': Permission denied"), std::string::npos) << r.output;
  std::filesystem::permissions(dir + "/orthodox", std::filesystem::perms(0755));
  CommandRun one = run_feerie("check --tables " + dir + " KQvK");
  EXPECT_EQ(one.exit_code, 0) << one.output;  // not "missing" from madrasi-ri
  EXPECT_NE(one.output.find("1 table checked, 0 bad"), std::string::npos) << one.output;
  CommandRun none = run_feerie("check --tables " + dir + " KRvKN");
  EXPECT_EQ(none.exit_code, 4) << none.output;
  EXPECT_NE(none.output.find("KRvKN: missing (in no condition's directory"), std::string::npos) << none.output;
  std::filesystem::remove_all(dir);
}

// Regression tests of an exploratory test of the study tools: several FEN arguments
// stopped at the first that failed (stdin went on); options that would change nothing were
// taken silently; a stalemated position read as a bare "draw".
TEST(Cli, ProbeArgumentsGoOnPastAFailureAndRefuseOptionsThatWouldBeIgnored) {
  std::string dir = tables_with_krvk();
  const std::string mate = "'8/8/8/8/8/2k5/8/R3K3 w - - 0 1'";
  CommandRun r = run_feerie("probe --tables " + dir + " 'nonsense' " + mate);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("feerie: argument 1: bad FEN 'nonsense'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("8/8/8/8/8/2k5/8/R3K3 w - - 0 1: the side to move mates in 11"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("feerie: 1 of 2 positions failed"), std::string::npos) << r.output;
  // One argument fails as before: its reason alone.
  r = run_feerie("probe --tables " + dir + " 'nonsense'");
  EXPECT_EQ(r.output.rfind("feerie: bad FEN 'nonsense'", 0), 0u) << r.output;
  for (const char* options : {"--json --figurine", "--json --uci", "--tree --uci", "--popeye --tree"}) {
    r = run_feerie("probe --tables " + dir + " " + options + " " + mate);
    EXPECT_EQ(r.exit_code, 2) << options << ": " << r.output;
    EXPECT_NE(r.output.find("excludes"), std::string::npos) << options << ": " << r.output;
  }
  r = run_feerie("probe --tables " + dir + " 'k7/1R6/1K6/8/8/8/8/8 b - - 0 1'");
  EXPECT_EQ(r.output, "k7/1R6/1K6/8/8/8/8/8 b - - 0 1: the side to move is stalemated (draw)\n");
  std::filesystem::remove_all(dir);
}

TEST(Cli, CheckNamesTheBadTableAndExitsWithCorrupt) {
  std::string dir = tables_with_krvk();
  CommandRun r = run_feerie("check --tables " + dir);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("/orthodox/KRvK.ftb: ok"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 tables checked, 0 bad"), std::string::npos) << r.output;
  // One byte flipped in the last block of KRvK.
  std::string path = dir + "/orthodox/KRvK.ftb";
  std::string bytes = feerie::test::file_bytes(path);
  bytes[bytes.size() - 20] = char(bytes[bytes.size() - 20] ^ 0x5a);
  std::ofstream(path, std::ios::binary) << bytes;
  r = run_feerie("check --tables " + dir + " --condition orthodox");
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_NE(r.output.find("KRvK.ftb: table '" + path + "': block"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("checksum mismatch"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("/orthodox/KvK.ftb: ok"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

// In a log (stderr not a terminal) gen used to say nothing until the end; with
// --progress it writes progress lines, and each table's line comes as soon as it is done.
TEST(Cli, GenWritesProgressToALogWhenAsked) {
  std::string dir = "/tmp/feerie-log-" + std::to_string(::getpid());
  CommandRun r = run_feerie("gen --progress --tables " + dir + " KRvK");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("feerie: generating KvK (orthodox); job 0% done, 0 s elapsed"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("KvK: generated"), std::string::npos) << r.output;
  r = run_feerie("gen --tables " + dir + "-quiet KRvK");
  EXPECT_EQ(r.output.find("job"), std::string::npos) << r.output;
  // verify, hours long on a 6-man table, the same way.
  r = run_feerie("verify --progress --tables " + dir + " KRvK");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("feerie: verifying KRvK (orthodox): 50% of the entries, "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("KRvK: 59136 entries checked, 0 inconsistent"), std::string::npos) << r.output;
  r = run_feerie("verify --tables " + dir + " KRvK");
  EXPECT_EQ(r.output.find("verifying"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(dir + "-quiet");
}

}  // namespace

namespace {}  // namespace

namespace {

// The study tools issue: every move with its value, stalemate told apart from other draws.
TEST(Cli, ProbeMovesTellsCheckmateAndStalemateApart) {
  std::string dir = "/tmp/feerie-moves-" + std::to_string(::getpid());
  ASSERT_EQ(run_feerie("gen --tables " + dir + " KQvK").exit_code, 0);
  CommandRun r = run_feerie("probe --moves --tables " + dir + " 'k7/8/1K6/8/8/8/8/2Q5 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(
      r.output.rfind("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1: the side to move mates in 1 (1 ply); best: Qc8#; pv: 1.Qc8#\n"
                     "  Qc8#    checkmate\n",
                     0),
      0u)
      << r.output;
  EXPECT_NE(r.output.find("\n  Qc7     stalemate (draw)\n"), std::string::npos) << r.output;
  // Each move's line, numbered from the position after it (Black to move).
  EXPECT_NE(r.output.find("\n  Kc7     mates in 2 (3 plies); pv: 1...Ka7 2.Qa1#\n"), std::string::npos) << r.output;
  // Stalemates come after the wins, with the other draws.
  EXPECT_GT(r.output.find("stalemate"), r.output.rfind("mates in")) << r.output;
  // --uci: the long algebraic names, for scripts.
  r = run_feerie("probe --uci --moves --tables " + dir + " 'k7/8/1K6/8/8/8/8/2Q5 w - - 0 1'");
  EXPECT_EQ(r.output.rfind("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1: the side to move mates in 1 (1 ply); best: c1c8; pv: c1c8\n"
                           "  c1c8    checkmate\n",
                           0),
            0u)
      << r.output;
  // JSON: SAN beside the long algebraic names.
  r = run_feerie("probe --json --moves --tables " + dir + " 'k7/8/1K6/8/8/8/8/2Q5 b - - 0 1'");
  EXPECT_NE(r.output.find("\"best_moves\":[\"a8b8\"],\"best_moves_san\":[\"Kb8\"],\"pv\":[\"a8b8\",\"b6a6\",\"b8a8\","
                          "\"c1c8\"],\"pv_san\":[\"Kb8\",\"Ka6\",\"Ka8\",\"Qc8#\"]"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("{\"move\":\"a8b8\",\"san\":\"Kb8\","), std::string::npos) << r.output;
  // The position itself checkmated or stalemated (its JSON once read a bare draw or loss).
  r = run_feerie("probe --json --tables " + dir + " 'k7/2Q5/1K6/8/8/8/8/8 b - - 0 1' 'k7/Q7/1K6/8/8/8/8/8 b - - 0 1' " +
                 "'k7/8/1K6/8/8/8/8/2Q5 b - - 0 1'");
  EXPECT_NE(r.output.find("\"wdl\":\"draw\",\"dtm_plies\":null,\"mate_in\":0,\"checkmate\":false,\"stalemate\":true"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\"wdl\":\"loss\",\"dtm_plies\":0,\"mate_in\":0,\"checkmate\":true,\"stalemate\":false"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\"mate_in\":-2,\"checkmate\":false,\"stalemate\":false"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

TEST(Cli, PlayPrintsThePositionAfterEachMoveAndNamesAnIllegalOne) {
  CommandRun r = run_feerie("play --condition annan 8/8/8/8/R7/1K5k/R7/8 w - - 0 1 a2b2");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // Annan: the king in front of the rook moves as a rook and mates along the third rank.
  EXPECT_EQ(r.output, "Rb2# 8/8/8/8/R7/1K5k/1R6/8 b - - 0 1 (checkmate)\n");
  r = run_feerie("play '8/8/8/8/8/8/R7/K6k w - - 0 1' a2a8 h1g1 a8a1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("in 'R7/8/8/8/8/8/8/K5k1 w - - 0 1': no legal move 'a8a1' (legal: Kb1 Ka2"),
            std::string::npos)
      << r.output;
  // Issue 24: SAN accepted (a capture with x), and the end of the game said.
  r = run_feerie("play '8/8/8/8/8/1k6/2r5/K7 w - - 0 1' Kb1 Rc1+ Kxc1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\nKxc1 8/8/8/8/8/1k6/8/2K5 b - - 0 1\n"), std::string::npos) << r.output;
  r = run_feerie("play '8/8/8/8/8/7r/8/K1k5 b - - 0 1' Rh2");
  EXPECT_EQ(r.output, "Rh2 8/8/8/8/8/8/7r/K1k5 w - - 0 1 (stalemate)\n");
  r = run_feerie("play 'k7/8/1K6/8/8/8/8/2Q5 w - - 0 1' Qc8");
  EXPECT_EQ(r.output, "Qc8# k1Q5/8/1K6/8/8/8/8/8 b - - 0 1 (checkmate)\n");
  // An en-passant square only where a capture can use it, as moves --after gives it (play
  // kept e3 after e4 with no black pawn near).
  r = run_feerie("play '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1' e4");
  EXPECT_EQ(r.output, "e4 4k3/8/8/8/4P3/8/8/4K3 b - - 0 1\n");
  r = run_feerie("play '4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1' e4");
  EXPECT_EQ(r.output, "e4 4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1\n");
  // No move: the position as read (it once printed nothing), and whether the game is over.
  r = run_feerie("play 'k7/8/1K6/8/8/8/8/2Q5 w - -'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "start k7/8/1K6/8/8/8/8/2Q5 w - - 0 1\n");
  r = run_feerie("play k1Q5/8/1K6/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(r.output, "start k1Q5/8/1K6/8/8/8/8/8 b - - 0 1 (checkmate)\n");
  // Issue 24: with --tables, the value of each position reached.
  std::string dir = "/tmp/feerie-play-" + std::to_string(::getpid());
  ASSERT_EQ(run_feerie("gen --tables " + dir + " KQvK").exit_code, 0);
  r = run_feerie("play --tables " + dir + " 'k7/8/1K6/8/8/8/8/2Q5 w - - 0 1' Kc7 Ka7 Qa1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "start k7/8/1K6/8/8/8/8/2Q5 w - - 0 1 (the side to move mates in 1 (1 ply))\n"
            "Kc7 k7/2K5/8/8/8/8/8/2Q5 b - - 0 1 (the side to move is mated in 1 (2 plies))\n"
            "Ka7 8/k1K5/8/8/8/8/8/2Q5 w - - 0 1 (the side to move mates in 1 (1 ply))\n"
            "Qa1# 8/k1K5/8/8/8/8/8/Q7 b - - 0 1 (checkmate)\n");
  r = run_feerie("play --tables " + dir + "-missing 'k7/8/1K6/8/8/8/8/2Q5 w - - 0 1' Kc7");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.output.rfind("feerie: missing table KQvK", 0), 0u) << r.output;
  std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

// On a terminal the error used to be glued to the progress line. Run under `script` (a
// pseudo-terminal), gen shows progress, is interrupted, and its message starts on a
// cleared line.
TEST(Cli, ErrorAfterProgressOnATerminalStartsOnAClearedLine) {
  if (std::system("command -v script > /dev/null 2>&1") != 0) GTEST_SKIP() << "no `script` to make a terminal";
  std::string dir = "/tmp/feerie-tty-" + std::to_string(::getpid());
  // The job as a script file: no quoting through three shells.
  const std::string job = dir + ".sh";
  std::ofstream(job) << FEERIE_BINARY << " gen --tables " << dir
                     << " KQRvKR & p=$!\nsleep 1.5\nkill -INT $p\nwait $p\n";
  std::string out = run_script("script -qfc \"bash " + job + "\" /dev/null");
  std::filesystem::remove(job);
  std::size_t message = out.find("feerie: interrupted;");
  ASSERT_NE(message, std::string::npos) << out;
  EXPECT_NE(out.find("% decided; job "), std::string::npos) << "no progress was shown: " << out;
  EXPECT_EQ(out.substr(message - 4, 4), "\r\033[K") << out;
  std::filesystem::remove_all(dir);
}

// `mine --count` on a terminal wrote the count straight after the progress line
// ("...100% scanned1260358").
TEST(Cli, MineCountOnATerminalStandsOnAClearedLine) {
  if (std::system("command -v script > /dev/null 2>&1") != 0) GTEST_SKIP() << "no `script` to make a terminal";
  std::string dir = tables_with_krvk();
  const std::string job = dir + ".sh";
  std::ofstream(job) << FEERIE_BINARY << " mine --count --result win --tables " << dir << " KRvK\n";
  std::string out = run_script("script -qfc \"bash " + job + "\" /dev/null");
  std::filesystem::remove(job);
  const std::size_t scanned = out.rfind("% scanned");
  ASSERT_NE(scanned, std::string::npos) << "no progress was shown: " << out;
  EXPECT_EQ(out.substr(scanned + 9, 4), "\r\033[K") << out;
  std::filesystem::remove_all(dir);
}

}  // namespace
