// The reliability issue's acceptance at full size: KQRvKR (the benchmark's 5-man table)
// stopped at three different points and resumed gives the bytes of an uninterrupted run.
// About four solves of KQRvKR: label `slow`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gen/generate.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

namespace fs = std::filesystem;

TEST(ResumeSlow, KQRvKRInterruptedAtThreePointsIsByteIdentical) {
  const std::string dir = test::temporary_tables_dir("feerie-resume-kqrvkr-");
  const Material kqrvkr = *Material::parse("KQRvKR");
  GenerateOptions options;
  options.tables_dir = dir;
  options.checkpoint_seconds = -1;
  auto reference = generate({kqrvkr}, RuleSet::orthodox(), options);
  ASSERT_TRUE(reference.ok()) << reference.error_message();
  const std::string path = reference->back().path, expected = test::file_bytes(path);
  const int passes = reference->back().passes;

  options.checkpoint_seconds = 300;
  for (int stop_after : {0, passes / 3, 2 * passes / 3}) {
    fs::remove(path);
    int polls = 0;
    options.cancelled = [&polls, stop_after] { return polls++ == stop_after; };
    auto stopped = generate({kqrvkr}, RuleSet::orthodox(), options);
    ASSERT_FALSE(stopped.ok());
    EXPECT_EQ(stopped.error_kind(), ErrorKind::Interrupted);
    options.cancelled = {};
    auto resumed = generate({kqrvkr}, RuleSet::orthodox(), options);
    ASSERT_TRUE(resumed.ok()) << resumed.error_message();
    EXPECT_EQ(resumed->back().resumed_at_pass, stop_after);
    EXPECT_TRUE(test::file_bytes(path) == expected) << "stopped after pass " << stop_after;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace feerie
