// The plan of a job spread over processes (gen/generate.cpp, plan_job): process 0 reads the
// disk and the others follow it; a process that refuses the job (its memory) makes every
// process fail in the same words. The processes are threads here (tests/gen/
// thread_processes.h), each given its own view of the tables as separate directories.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gen/generate.h"
#include "tests/gen/table_test_util.h"
#include "tests/gen/thread_processes.h"

namespace feerie {
namespace {

namespace fs = std::filesystem;

class SpreadPlan : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = test::temporary_tables_dir("feerie-spread-plan-");
    fs::remove_all(root_);
    GenerateOptions options;
    options.tables_dir = view(0);
    options.checkpoint_seconds = -1;
    auto made = generate({*Material::parse("KQvK")}, RuleSet::orthodox(), options);
    ASSERT_TRUE(made.ok()) << made.error_message();
    fs::copy(view(0), view(1), fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(root_); }

  // The tables directory as process `rank` sees it.
  std::string view(int rank) const { return root_ + "/view" + std::to_string(rank); }

  // Generates `target` in two processes, each with its view and memory limit.
  std::vector<Expected<std::vector<GeneratedTable>>> run(const std::string& target,
                                                         std::vector<std::uint64_t> max_memory = {0, 0}) {
    std::vector<Expected<std::vector<GeneratedTable>>> out(2, error(ErrorKind::Internal, "not run"));
    test::ThreadProcesses processes(2);
    processes.run([&](test::ThreadProcesses::Process& p) {
      GenerateOptions options;
      options.tables_dir = view(p.rank());
      options.partition = &p;
      options.max_memory = max_memory[std::size_t(p.rank())];
      options.checkpoint_seconds = -1;
      out[std::size_t(p.rank())] = generate({*Material::parse(target)}, RuleSet::orthodox(), options);
    });
    return out;
  }

  std::string root_;
};

// Process 1 sees a damaged KQvK (a stale mount): it follows process 0, which sees a sound
// one, and reuses it like process 0. Each process once planned from its own view: process
// 1 planned to generate KQvK and the processes waited on each other for ever (here it
// would call a collective these test processes do not have, and fail).
TEST_F(SpreadPlan, StaleViewOfAnotherProcessFollowsProcessZero) {
  test::flip_byte_near_end(view(1) + "/orthodox/KQvK.ftb");
  for (const auto& done : run("KQvK")) {
    ASSERT_TRUE(done.ok()) << done.error_message();
    ASSERT_FALSE(done->empty());
    EXPECT_EQ(done->back().material.name(), "KQvK");
    EXPECT_TRUE(done->back().reused);
  }
}

TEST_F(SpreadPlan, ARefusalOfOneProcessStopsEveryProcessInTheSameWords) {
  const auto done = run("KRvK", {0, 1000});
  ASSERT_FALSE(done[0].ok());
  ASSERT_FALSE(done[1].ok());
  EXPECT_EQ(done[0].error_message(), done[1].error_message());
  EXPECT_EQ(done[0].error_kind(), ErrorKind::ResourceLimit);
  EXPECT_EQ(done[0].error_message().rfind("process 1: cannot generate KRvK", 0), 0u) << done[0].error_message();
}

// Process 0's own refusal is the job's, said without a process's name.
TEST_F(SpreadPlan, ARefusalOfProcessZeroIsEveryProcesssFailure) {
  const auto done = run("KRvK", {1000, 0});
  ASSERT_FALSE(done[0].ok());
  ASSERT_FALSE(done[1].ok());
  EXPECT_EQ(done[0].error_message(), done[1].error_message());
  EXPECT_EQ(done[0].error_message().rfind("cannot generate KRvK", 0), 0u) << done[0].error_message();
}

}  // namespace
}  // namespace feerie
