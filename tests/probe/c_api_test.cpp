// The C API, called as a C program would, and the C example program run on real tables.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "feerie/feerie.h"
#include "feerie/feerie.hpp"
#include "gen/generate.h"
#include "gen/help_generate.h"
#include "tests/gen/table_test_util.h"

namespace {

namespace fs = std::filesystem;

class CApi : public ::testing::Test {
 protected:
  // Shared by every test process (tests/gen/table_test_util.h); the tests that generate
  // write into directories of their own.
  static void SetUpTestSuite() {
    dir_ = feerie::test::shared_tables_dir("c_api");
    feerie::GenerateOptions options;
    options.tables_dir = dir_;
    auto generated = feerie::generate({*feerie::Material::parse("KRvK")}, feerie::RuleSet::orthodox(), options);
    ASSERT_TRUE(generated.ok()) << generated.error_message();
  }
  static std::string dir_;
};

std::string CApi::dir_;

TEST_F(CApi, ProbeBestMovesAndPv) {
  char error[256] = "";
  feerie_tablebase* tb = feerie_open(dir_.c_str(), "orthodox", error, sizeof error);
  ASSERT_NE(tb, nullptr) << error;
  feerie_result r;
  ASSERT_EQ(feerie_probe(tb, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", &r, error, sizeof error), 0) << error;
  EXPECT_EQ(r.wdl, 1);
  EXPECT_EQ(r.dtm_plies, 1);
  EXPECT_EQ(r.mate_in, 1);
  char moves[256];
  ASSERT_EQ(feerie_best_moves(tb, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", moves, sizeof moves, error, sizeof error), 0);
  EXPECT_STREQ(moves, "a1a8");
  ASSERT_EQ(feerie_principal_variation(tb, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", moves, sizeof moves, error, sizeof error),
            0);
  EXPECT_STREQ(moves, "a1a8");
  // Too small a buffer is an error, not an overflow.
  char tiny[2];
  EXPECT_EQ(feerie_best_moves(tb, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", tiny, sizeof tiny, error, sizeof error),
            FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("too small (5 bytes needed)"), std::string::npos);
  EXPECT_STREQ(tiny, "");  // no stale text is left behind
  char enough[FEERIE_MOVES_SIZE];
  EXPECT_EQ(feerie_best_moves(tb, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", enough, sizeof enough, error, sizeof error), 0);
  feerie_close(tb);
}

TEST_F(CApi, Errors) {
  char error[256] = "";
  EXPECT_EQ(feerie_open(dir_.c_str(), "chess960", error, sizeof error), nullptr);
  EXPECT_NE(std::string(error).find("unknown condition 'chess960'"), std::string::npos);
  feerie_tablebase* tb = feerie_open(dir_.c_str(), "orthodox", error, sizeof error);
  ASSERT_NE(tb, nullptr);
  feerie_result r;
  EXPECT_EQ(feerie_probe(tb, "not a fen", &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("bad FEN"), std::string::npos);
  EXPECT_EQ(feerie_probe(tb, "4k3/8/8/8/8/8/8/2BBK3 w - - 0 1", &r, error, sizeof error), FEERIE_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(error).find("missing table KBBvK"), std::string::npos);
  // A truncated error buffer stays NUL-terminated.
  char small[8];
  EXPECT_EQ(feerie_probe(tb, "not a fen", &r, small, sizeof small), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(small).size(), 7u);
  feerie_close(tb);
}

// Regression (review): a path the file system refuses is an error, not an abort.
TEST_F(CApi, UnreadablePathIsAnError) {
  char error[256] = "";
  std::string long_dir = "/tmp/" + std::string(300, 'a');
  feerie_tablebase* tb = feerie_open(long_dir.c_str(), "orthodox", error, sizeof error);
  ASSERT_NE(tb, nullptr);
  feerie_result r;
  EXPECT_EQ(feerie_probe(tb, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", &r, error, sizeof error), FEERIE_ERROR_IO);
  EXPECT_NE(std::string(error).find("cannot read table"), std::string::npos) << error;
  feerie_close(tb);
}

// The probing-from-programs issue: the C API's newer calls.
TEST_F(CApi, VersionWdlAndPieceList) {
  EXPECT_STREQ(feerie_version(), FEERIE_VERSION_STRING);
  char error[256] = "";
  feerie_tablebase* tb = feerie_open(dir_.c_str(), "orthodox", error, sizeof error);
  ASSERT_NE(tb, nullptr) << error;
  int wdl = 7;
  ASSERT_EQ(feerie_probe_wdl(tb, "6k1/8/6K1/8/8/8/8/R7 b - - 0 1", &wdl, error, sizeof error), FEERIE_OK) << error;
  EXPECT_EQ(wdl, -1);
  // The same position as a piece list: Kg6 (46), Ra1 (0), black Kg8 (62), Black to move.
  const feerie_piece pieces[] = {{46, 'K', 1, 0}, {0, 'r', 1, 0}, {62, 'k', 0, 0}};
  feerie_result r, by_fen;
  ASSERT_EQ(feerie_probe_pieces(tb, pieces, 3, 0, -1, &r, error, sizeof error), FEERIE_OK) << error;
  ASSERT_EQ(feerie_probe(tb, "6k1/8/6K1/8/8/8/8/R7 b - - 0 1", &by_fen, error, sizeof error), FEERIE_OK) << error;
  EXPECT_EQ(r.wdl, -1);
  EXPECT_EQ(r.dtm_plies, 4);  // Kf8 or Kh8, then mate
  EXPECT_EQ(r.dtm_plies, by_fen.dtm_plies);
  EXPECT_EQ(r.mate_in, by_fen.mate_in);
  const feerie_piece twice[] = {{46, 'K', 1, 0}, {46, 'R', 1, 0}, {62, 'K', 0, 0}};
  EXPECT_EQ(feerie_probe_pieces(tb, twice, 3, 1, -1, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("two pieces on square 46"), std::string::npos) << error;
  const feerie_piece unknown[] = {{46, 'K', 1, 0}, {0, 'X', 1, 0}, {62, 'K', 0, 0}};
  EXPECT_EQ(feerie_probe_pieces(tb, unknown, 3, 1, -1, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("unknown type 'X'"), std::string::npos) << error;
  // A control character in the type is quoted escaped: the reason stays one line.
  const feerie_piece newline[] = {{46, 'K', 1, 0}, {0, '\n', 1, 0}, {62, 'K', 0, 0}};
  EXPECT_EQ(feerie_probe_pieces(tb, newline, 3, 1, -1, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("unknown type '\\x0a' (K Q R B N P G L)"), std::string::npos) << error;
  // Flags are 1 or 0 (2 was read as White to move).
  EXPECT_EQ(feerie_probe_pieces(tb, pieces, 3, 2, -1, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("white_to_move is 2"), std::string::npos) << error;
  const feerie_piece white_seven[] = {{46, 'K', 7, 0}, {0, 'R', 1, 0}, {62, 'K', 0, 0}};
  EXPECT_EQ(feerie_probe_pieces(tb, white_seven, 3, 1, -1, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  const feerie_piece no_black_king[] = {{46, 'K', 1, 0}, {0, 'R', 1, 0}};
  EXPECT_EQ(feerie_probe_pieces(tb, no_black_king, 2, 1, -1, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("no black king"), std::string::npos) << error;
  feerie_close(tb);
}

TEST_F(CApi, MoveValuesBestFirstAndTheTablesPresent) {
  char error[256] = "";
  feerie_tablebase* tb = feerie_open(dir_.c_str(), "orthodox", error, sizeof error);
  ASSERT_NE(tb, nullptr) << error;
  feerie_move_value values[256];
  size_t count = 0;
  ASSERT_EQ(feerie_move_values(tb, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", values, 256, &count, error, sizeof error),
            FEERIE_OK)
      << error;
  EXPECT_EQ(count, 19u);  // 14 rook moves, 5 king moves (f7, g7 and h7 touch the black king)
  EXPECT_STREQ(values[0].move, "a1a8");
  EXPECT_EQ(values[0].checkmate, 1);
  EXPECT_EQ(values[0].value.wdl, 1);
  EXPECT_EQ(values[0].value.dtm_plies, 1);
  for (size_t i = 1; i < count; ++i) EXPECT_EQ(values[i].checkmate, 0) << values[i].move;
  // Too small a buffer: an error, and the count needed.
  size_t needed = 0;
  EXPECT_EQ(feerie_move_values(tb, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", values, 3, &needed, error, sizeof error),
            FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(needed, count);
  char names[64];
  ASSERT_EQ(feerie_list_tables(tb, names, sizeof names, error, sizeof error), FEERIE_OK) << error;
  EXPECT_STREQ(names, "KRvK KvK");
  EXPECT_EQ(feerie_list_tables(tb, names, 4, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  feerie_close(tb);
}

TEST_F(CApi, GenerateThenProbe) {
  const std::string dir = feerie::test::temporary_tables_dir("feerie-capi-generate-");
  char error[256] = "";
  ASSERT_EQ(feerie_generate(dir.c_str(), "madrasi-ri", "KQvK", 1, error, sizeof error), FEERIE_OK) << error;
  EXPECT_EQ(feerie_generate(dir.c_str(), "madrasi-ri", "KQvX", 1, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(feerie_generate(dir.c_str(), "chess960", "KQvK", 1, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  // A negative thread count or one beyond 1024 (100000 crashed in OpenMP).
  for (int threads : {-1, 1025, 100000}) {
    EXPECT_EQ(feerie_generate(dir.c_str(), "madrasi-ri", "KQvK", threads, error, sizeof error),
              FEERIE_ERROR_INVALID_ARGUMENT)
        << threads;
    EXPECT_NE(std::string(error).find("thread count of " + std::to_string(threads)), std::string::npos) << error;
  }
  feerie_tablebase* tb = feerie_open(dir.c_str(), "madrasi-ri", error, sizeof error);
  ASSERT_NE(tb, nullptr) << error;
  char names[64];
  ASSERT_EQ(feerie_list_tables(tb, names, sizeof names, error, sizeof error), FEERIE_OK) << error;
  EXPECT_STREQ(names, "KQvK KvK");
  int wdl = 0;
  EXPECT_EQ(feerie_probe_wdl(tb, "8/8/8/8/8/8/1k6/K6Q w - - 0 1", &wdl, error, sizeof error), FEERIE_OK) << error;
  feerie_close(tb);
  fs::remove_all(dir);
}

// Helpmate and selfmate tables through the C API and the C++ header: the values the
// command line prints for the same positions (tests/tools/help_cli_test.cpp), the default
// colours, and every bad argument refused.
TEST_F(CApi, HelpmatesAndSelfmates) {
  const std::string dir = feerie::test::temporary_tables_dir("feerie-capi-help-");
  feerie::HelpGenerateOptions options;
  options.tables_dir = dir;
  ASSERT_TRUE(
      feerie::generate_helpmates({*feerie::Material::parse("KRvK")}, feerie::RuleSet::orthodox(), options).ok());
  char error[256] = "";
  feerie_tablebase* tb = feerie_open(dir.c_str(), "orthodox", error, sizeof error);
  ASSERT_NE(tb, nullptr) << error;
  feerie_help_result r{};
  const char* h1 = "k7/2K5/8/8/8/8/8/1R6 b - - 0 1";  // black mated in 2 plies (h#1), 1 solution
  for (const char* mated : {"black", static_cast<const char*>(nullptr)}) {
    ASSERT_EQ(feerie_probe_help(tb, h1, "h#", mated, &r, error, sizeof error), FEERIE_OK) << error;
    EXPECT_EQ(r.plies, 2);
    EXPECT_EQ(r.solutions, 1);
  }
  ASSERT_EQ(feerie_probe_help(tb, "8/8/8/7R/8/2K5/5k2/8 w - - 0 1", "h#", "black", &r, error, sizeof error), FEERIE_OK);
  EXPECT_EQ(r.plies, 5);
  EXPECT_EQ(r.solutions, 26);
  ASSERT_EQ(feerie_probe_help(tb, "k7/2K5/8/8/8/8/8/R7 b - - 0 1", "h#", nullptr, &r, error, sizeof error), FEERIE_OK);
  EXPECT_EQ(r.plies, 0);  // mated now
  ASSERT_EQ(feerie_probe_help(tb, h1, "h#", "white", &r, error, sizeof error), FEERIE_OK) << error;
  EXPECT_EQ(r.plies, -1);  // a lone king never mates
  EXPECT_EQ(r.solutions, 0);
  // The other orientation: White mated by a black rook.
  ASSERT_EQ(feerie_probe_help(tb, "K7/2k5/8/8/8/8/8/1r6 w - - 0 1", "h#", "white", &r, error, sizeof error), FEERIE_OK);
  EXPECT_EQ(r.plies, 2);

  EXPECT_EQ(feerie_probe_help(tb, h1, "s#", nullptr, &r, error, sizeof error), FEERIE_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(error).find("KRvK.self-white.ftb"), std::string::npos) << error;
  for (const char* stipulation : {"#", "x#", ""}) {
    EXPECT_EQ(feerie_probe_help(tb, h1, stipulation, nullptr, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT)
        << stipulation;
  }
  EXPECT_NE(std::string(error).find("unknown stipulation ''"), std::string::npos) << error;
  for (const char* mated : {"", "red"}) {
    EXPECT_EQ(feerie_probe_help(tb, h1, "h#", mated, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(
        std::string(error).find("the mated side is \"white\", \"black\" or NULL, not '" + std::string(mated) + "'"),
        std::string::npos)
        << error;
  }
  EXPECT_EQ(feerie_probe_help(tb, "not a fen", "h#", nullptr, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(feerie_probe_help(tb, h1, nullptr, nullptr, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(feerie_probe_help(tb, h1, "h#", nullptr, nullptr, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(feerie_probe_help(nullptr, h1, "h#", nullptr, &r, error, sizeof error), FEERIE_ERROR_INVALID_ARGUMENT);
  feerie_close(tb);

  const feerie::api::Tablebase cpp(dir);
  const feerie::api::HelpResult h = cpp.probe_help(h1);
  EXPECT_EQ(h.plies, 2);
  EXPECT_EQ(h.solutions, 1);
  EXPECT_EQ(cpp.probe_help(h1, "h#", "white").plies, -1);
  try {
    cpp.probe_help(h1, "s#");
    ADD_FAILURE() << "no selfmate table, no error";
  } catch (const feerie::api::Error& e) {
    EXPECT_EQ(e.code(), FEERIE_ERROR_NOT_FOUND);
  }
  fs::remove_all(dir);
}

// A tables directory that cannot be looked at (here a loop of links) is an I/O error for
// the list as for a probe; the list said "no table" (an empty list, FEERIE_OK).
TEST_F(CApi, AnUnreadableConditionDirectoryIsAnErrorForTheListToo) {
  const std::string dir = feerie::test::temporary_tables_dir("feerie-capi-loop-");
  fs::create_directories(dir);
  fs::create_symlink("orthodox", dir + "/loop");
  fs::create_symlink(fs::absolute(dir + "/loop"), dir + "/orthodox");
  char error[256] = "";
  feerie_tablebase* tb = feerie_open(dir.c_str(), "orthodox", error, sizeof error);
  if (tb) {
    char names[64];
    EXPECT_EQ(feerie_list_tables(tb, names, sizeof names, error, sizeof error), FEERIE_ERROR_IO) << names;
    EXPECT_NE(std::string(error).find("cannot read the tables directory"), std::string::npos) << error;
    feerie_close(tb);
  } else {
    EXPECT_NE(std::string(error).find("symbolic links"), std::string::npos) << error;
  }
  fs::remove_all(dir);
}

// Issue 27 A: under an address-space limit (ulimit -v) feerie_generate refuses a job that
// does not fit with the resource-limit status, before any work, instead of running out
// of memory with an internal error. In a child process: the limit would stay on the test.
TEST_F(CApi, Reliability27A_GenerateUnderAnAddressSpaceLimitIsAResourceLimit) {
  const std::string dir = feerie::test::temporary_tables_dir("feerie-capi-limited-");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    rlimit limit{};
    getrlimit(RLIMIT_AS, &limit);
    // What the process maps now and 64 MiB more: far less than KQRvKR's 309 MiB.
    std::ifstream status("/proc/self/status");
    std::uint64_t vm_kib = 0;
    for (std::string key; status >> key;)
      if (key == "VmSize:") status >> vm_kib;
    limit.rlim_cur = (vm_kib + 65536) * 1024;
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(100);
    char error[512] = "";
    int status_code = feerie_generate(dir.c_str(), "orthodox", "KQRvKR", 1, error, sizeof error);
    bool named = std::string(error).find("RLIMIT_AS") != std::string::npos;
    _exit(status_code == FEERIE_ERROR_RESOURCE_LIMIT && named ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  EXPECT_FALSE(fs::exists(dir + "/orthodox/KQRvKR.ftb"));
  fs::remove_all(dir);
}

TEST_F(CApi, ExampleProgramInC) {
  std::string command = std::string(FEERIE_PROBE_C) + " " + dir_ + " orthodox '6k1/8/6K1/8/8/8/8/R7 w - - 0 1'";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  EXPECT_EQ(pclose(pipe), 0);
  EXPECT_EQ(out, "wdl 1 dtm_plies 1 mate_in 1\nbest a1a8\npv a1a8\n");
}

}  // namespace
