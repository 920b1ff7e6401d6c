// Helpers for the test suites that generate tables: a generated table, verified entry by
// entry, with its statistics.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gen/generate.h"
#include "gen/solver.h"
#include "gen/verify.h"
#include "probe/table_file.h"

namespace feerie::test {

// Flips one byte 20 bytes before the end of a file: inside its last compressed block (or
// chunk of a checkpoint).
inline void flip_byte_near_end(const std::filesystem::path& path) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(-20, std::ios::end);
  char c;
  f.read(&c, 1);
  f.seekp(-20, std::ios::end);
  c = char(c ^ 0x5a);
  f.write(&c, 1);
}

// A fresh directory name under the system's temporary directory, unique per process.
inline std::string temporary_tables_dir(const std::string& prefix) {
  return (std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()))).string();
}

#ifdef FEERIE_BINARY  // the suites that know where the build's feerie is
// The directory of the shared fixture `name`: <build>/tests/fixtures/<stamp>/<name>, made once per
// build tree and reused by every test process after it (issue 22: each test runs in a
// process of its own, and fixtures used to be generated again in each). gen reuses the
// tables it finds sound, and two processes generating one table at once wait for each
// other (its lock), so suites may generate into it freely; tests that damage or rewrite a
// table work on a copy in a temporary_tables_dir() of their own.
//
// The fixtures of one build are kept under a stamp of the feerie program (the time it was
// linked, which changes with every change of the libraries): gen trusts a sound table of
// the same format, so tables an older build made would otherwise be reused after a change
// to the solver. The first process of a new build removes the older builds' fixtures.
inline std::string shared_tables_dir(const std::string& name) {
  namespace fs = std::filesystem;
  // FEERIE_BINARY is <build>/tools/feerie.
  const fs::path root = fs::path(FEERIE_BINARY).parent_path().parent_path() / "tests" / "fixtures";
  std::error_code ec;
  const std::string stamp = std::to_string(
      static_cast<unsigned long long>(fs::last_write_time(FEERIE_BINARY, ec).time_since_epoch().count()));
  const fs::path mine = root / stamp;
  if (!fs::exists(mine, ec)) {
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().filename() != stamp) fs::remove_all(it->path(), ec);
    fs::create_directories(mine, ec);
  }
  return (mine / name).string();
}
#endif

// Generates `materials` (names) and what they need under `condition` into `dir`, without
// checkpoints.
inline ::testing::AssertionResult generate_materials(const std::string& dir, const std::string& condition,
                                                     const std::vector<const char*>& materials) {
  Expected<RuleSet> rules = RuleSet::parse(condition);
  if (!rules.ok()) return ::testing::AssertionFailure() << rules.error_message();
  GenerateOptions options;
  options.tables_dir = dir;
  options.checkpoint_seconds = -1;
  std::vector<Material> parsed;
  for (const char* name : materials) parsed.push_back(*Material::parse(name));
  auto generated = generate(parsed, *rules, options);
  if (!generated.ok()) return ::testing::AssertionFailure() << generated.error_message();
  return ::testing::AssertionSuccess();
}

// KQvK and KRvK (the sub-tables of KQvKR) under `condition`: the fixture of the suites that
// solve KQvKR.
inline ::testing::AssertionResult generate_kqvkr_subtables(const std::string& dir, const char* condition) {
  return generate_materials(dir, condition, {"KQvK", "KRvK"});
}

// Every value of a solved table: white to move, then black (tests comparing solves).
inline std::vector<ValueCode> codes_of_both_sides(const SolvedTable& solved) {
  std::vector<ValueCode> codes = solved.values[0].codes(), black = solved.values[1].codes();
  codes.insert(codes.end(), black.begin(), black.end());
  return codes;
}

// Generates `material` under `condition` into `dir` (with everything it needs, reusing
// tables already there), checks it with the verifier, and returns it; a reused table's
// statistics are read back from its file.
inline GeneratedTable generate_and_verify(const std::string& dir, const char* condition, const char* material) {
  GenerateOptions options;
  options.tables_dir = dir;
  RuleSet rules = *RuleSet::parse(condition);
  auto generated = generate({*Material::parse(material)}, rules, options);
  EXPECT_TRUE(generated.ok()) << generated.error_message();
  if (!generated.ok()) return {};
  GeneratedTable last = generated->back();
  if (last.reused) {
    auto file = TableFile::open(last.path);
    EXPECT_TRUE(file.ok());
    if (file.ok()) last.stats = (*file)->header().stats;
  }
  auto report = verify_table(*Material::parse(material), rules, dir, 0);
  EXPECT_TRUE(report.ok()) << report.error_message();
  if (report.ok()) {
    EXPECT_EQ(report->inconsistent, 0u) << condition << " " << material;
    EXPECT_GT(report->checked, 0u);
  }
  return last;
}

// Generates `material` and everything it needs into `dir` under orthodox rules with
// `threads` threads; every table of the run, in order.
inline std::vector<GeneratedTable> generate_with_threads(const std::string& dir, const char* material, int threads) {
  GenerateOptions options;
  options.tables_dir = dir;
  options.threads = threads;
  auto generated = generate({*Material::parse(material)}, RuleSet::orthodox(), options);
  EXPECT_TRUE(generated.ok()) << generated.error_message();
  return generated.ok() ? *generated : std::vector<GeneratedTable>{};
}

}  // namespace feerie::test
