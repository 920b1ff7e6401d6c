// `feerie bench` and `feerie check` as a user meets them: regression tests of an exploratory
// test of both across the conditions (each named after what failed).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tools/command_run.h"

namespace {

namespace fs = std::filesystem;
using CommandRun = feerie::test::JoinedRun;

CommandRun run_command(const std::string& command_line) { return feerie::test::run_joined(command_line); }
CommandRun run_feerie(const std::string& args) { return feerie::test::run_feerie_joined(args); }

int entries_under(const fs::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(dir)) ++n;
  return n;
}

// bench built every dependency of a material far beyond the index (minutes of 5-man
// tables) before failing on the material itself; it now refuses as gen --plan does, before
// it makes anything.
TEST(BenchCli, RefusesWhatGenRefusesBeforeGeneratingAnything) {
  const fs::path dir = "/tmp/feerie-bench-refuse-" + std::to_string(::getpid());
  CommandRun r = run_feerie("bench --threads 1 --tables " + dir.string() + "/a/b KQRBNvKQRBN");
  EXPECT_EQ(r.exit_code, 7) << r.output;
  EXPECT_NE(r.output.find("cannot generate KQRBNvKQRBN: its index would have"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("condition orthodox"), std::string::npos) << "a dependency was timed: " << r.output;
  EXPECT_FALSE(fs::exists(dir)) << "bench made its directory";
}

// Interrupted (SIGTERM, as `timeout` sends it, or Ctrl-C), bench left its scratch directory
// with the tables of its running gen, and the directories it had made for --tables; it
// now stops the gen, removes them and exits with 128 + the signal. Run to the end, the
// directories it made on the way to --tables (not only the last) are gone too.
TEST(BenchCli, InterruptedOrDoneLeavesNothingBehind) {
  const fs::path dir = "/tmp/feerie-bench-stop-" + std::to_string(::getpid());
  fs::create_directories(dir);
  CommandRun r = run_command("timeout --preserve-status -s TERM 3 " + std::string(FEERIE_BINARY) +
                             " bench --threads 1 --tables " + dir.string() + "/made/for/bench KQRvKR");
  EXPECT_EQ(r.exit_code, 143) << r.output;
  EXPECT_NE(r.output.find("interrupted; the scratch directory was removed"), std::string::npos) << r.output;
  EXPECT_EQ(entries_under(dir), 0) << "left behind under " << dir;

  r = run_feerie("bench --threads 1 --tables " + dir.string() + "/made/for/bench KvK");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(entries_under(dir), 0) << "left behind under " << dir;
  fs::remove_all(dir);
}

// The default scratch place missing (TMPDIR names no directory) was an uncaught
// filesystem error, exit 1.
TEST(BenchCli, AMissingTemporaryDirectoryIsAnIOError) {
  CommandRun r = run_command("TMPDIR=/nonexistent-feerie " + std::string(FEERIE_BINARY) + " bench --threads 1 KvK");
  EXPECT_EQ(r.exit_code, 5) << r.output;
  EXPECT_NE(r.output.find("no temporary directory to generate in"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--tables"), std::string::npos) << r.output;
}

class CheckCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = "/tmp/feerie-check-" + std::to_string(::getpid());
    fs::remove_all(dir_);
    ASSERT_EQ(run_feerie("gen --threads 1 --tables " + dir_.string() + " KRvK").exit_code, 0);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void copy_table(const std::string& from, const fs::path& to) {
    fs::create_directories(to.parent_path());
    fs::copy_file(dir_ / "orthodox" / from, to, fs::copy_options::overwrite_existing);
  }

  fs::path dir_;
};

// A symbolic link in a loop stopped check with an uncaught filesystem error (exit 1) before
// any table was reported; it is now a directory that cannot be read (exit 5), the others
// checked. Asked for by --condition, the loop passed as "0 tables checked" (exit 0).
TEST_F(CheckCli, ALinkInALoopIsADirectoryThatCannotBeRead) {
  fs::create_directory_symlink("isardam", dir_ / "isardam");
  CommandRun r = run_feerie("check --tables " + dir_.string());
  EXPECT_EQ(r.exit_code, 5) << r.output;
  EXPECT_NE(r.output.find("/isardam: cannot list"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("/orthodox/KRvK.ftb: ok"), std::string::npos) << r.output;
  r = run_feerie("check --tables " + dir_.string() + " --condition isardam");
  EXPECT_EQ(r.exit_code, 5) << r.output;
  EXPECT_NE(r.output.find("/isardam: cannot list"), std::string::npos) << r.output;
}

// check said "ok" of files no command reads: a material's other spellings (kqvk.ftb,
// KRvPK-like orders) and a condition's other spellings as a directory (annan-a/ for
// annan/, eiffel pairs in another order). Each is now bad, with the name that is read.
TEST_F(CheckCli, FilesNoCommandReadsAreBad) {
  copy_table("KRvK.ftb", dir_ / "orthodox" / "krvk.ftb");
  copy_table("KRvK.ftb", dir_ / "annan-a" / "KRvK.ftb");
  copy_table("KRvK.ftb", dir_ / "eiffel:qb,bq" / "KRvK.ftb");
  CommandRun r = run_feerie("check --tables " + dir_.string());
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_NE(r.output.find("/orthodox/krvk.ftb: not a table name: the table of KRvK is read from '" + dir_.string() +
                          "/orthodox/KRvK.ftb'"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("/annan-a/KRvK.ftb: in no condition's directory: the tables of condition annan are read "
                          "from '" +
                          dir_.string() + "/annan'"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("/eiffel:qb,bq/KRvK.ftb: in no condition's directory: the tables of condition "
                          "eiffel:bq,qb"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("/orthodox/KRvK.ftb: ok"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("5 tables checked, 3 bad"), std::string::npos) << r.output;
  // The lines come in the order of the files' names (a bad name once came first).
  EXPECT_LT(r.output.find("/orthodox/KRvK.ftb: ok"), r.output.find("/orthodox/krvk.ftb"));
}

// `check MATERIAL` reported the files of every material in a directory named by no
// condition, and the stale checkpoints of other materials, and failed on them.
TEST_F(CheckCli, AMaterialAskedForIsTheOnlyOneReported) {
  copy_table("KRvK.ftb", dir_ / "bogus" / "KQvK.ftb");
  std::ofstream(dir_ / "orthodox" / "KvK.ckpt") << "stale";
  CommandRun r = run_feerie("check --tables " + dir_.string() + " KRvK");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("bogus"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("KvK.ckpt"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 table checked, 0 bad"), std::string::npos) << r.output;
  r = run_feerie("check --tables " + dir_.string() + " KQvK");
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_NE(r.output.find("/bogus/KQvK.ftb: in no condition's directory"), std::string::npos) << r.output;
  r = run_feerie("check --tables " + dir_.string());
  EXPECT_NE(r.output.find("KvK.ckpt: stale checkpoint"), std::string::npos) << r.output;
}

}  // namespace
