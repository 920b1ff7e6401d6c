// Checkpoints of a spread solve committed by all processes together
// (gen/spread_checkpoint.h): a job stopped while its processes were writing them resumes
// from the latest pass every process holds, in either of its two files; one process that
// cannot write keeps everyone's old checkpoint. The processes are threads here, talking
// through an in-memory all_gather; tests/mpi/resume.sh runs the same through mpirun.
#include "gen/spread_checkpoint.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "tests/gen/table_test_util.h"
#include "tests/gen/thread_processes.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

namespace fs = std::filesystem;

constexpr int Ranks = 2;

class SpreadCheckpoint : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::temporary_tables_dir("feerie-spread-checkpoint-");
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string checkpoint(int rank) const { return checkpoint_path(dir_, {&indexer_}, CheckpointPart{rank, Ranks}); }
  // Every value of a process's part at `state` is the same mate (its pass), so a load
  // shows which file it read.
  std::vector<MemberValues> values_at(const SolverState& state) const {
    std::vector<MemberValues> values(1);
    for (ValueArray& side : values[0]) {
      side = ValueArray(Entries);
      std::vector<ValueCode> codes(Entries, value::mate_in_plies(state.next_ply));
      side.write(0, codes);
    }
    return values;
  }
  // Saves `state` for every process, each in its checkpoint file (as a committed save).
  void save_all(const SolverState& state) {
    for (int r = 0; r < Ranks; ++r) save(checkpoint(r), r, state);
  }
  void save(const std::string& path, int rank, const SolverState& state) {
    ASSERT_TRUE(save_checkpoint(path, "orthodox", {&indexer_}, state, values_at(state), 1, {rank, Ranks}).ok());
  }
  // What every process resumes from, and the pass its values hold.
  struct Loaded {
    SpreadResume resume;
    int values_pass = -1;
  };
  std::vector<Loaded> load_all() {
    std::vector<Loaded> loaded(Ranks);
    test::ThreadProcesses processes(Ranks);
    processes.run([&](test::ThreadProcesses::Process& p) {
      std::vector<MemberValues> values(1);
      for (ValueArray& side : values[0]) side = ValueArray(Entries);
      Expected<SpreadResume> r = load_spread_checkpoint(p, checkpoint(p.rank()), "orthodox", {&indexer_}, values);
      ASSERT_TRUE(r.ok()) << r.error_message();
      loaded[std::size_t(p.rank())].resume = *r;
      loaded[std::size_t(p.rank())].values_pass = value::plies(values[0][1].codes().front());
    });
    return loaded;
  }

  // A spread save of `state` by every process, process r writing to `path_of(r)`; what
  // each said of the save ("" when all saved).
  std::vector<std::string> save_spread(const SolverState& state, const std::function<std::string(int)>& path_of) {
    std::vector<std::string> said(Ranks);
    test::ThreadProcesses processes(Ranks);
    processes.run([&](test::ThreadProcesses::Process& p) {
      Expected<std::string> failed =
          save_spread_checkpoint(p, path_of(p.rank()), "orthodox", {&indexer_}, state, values_at(state), 1);
      ASSERT_TRUE(failed.ok()) << failed.error_message();
      said[std::size_t(p.rank())] = *failed;
    });
    return said;
  }
  // Every process resumes from `pass`, its values those saved there.
  void expect_resumed_at(int pass) {
    for (const Loaded& l : load_all()) {
      ASSERT_TRUE(l.resume.state);
      EXPECT_EQ(l.resume.state->next_ply, pass);
      EXPECT_EQ(l.values_pass, pass);
    }
  }

  // The checkpoints hold a process's part: a few thousand entries stand for it here.
  static constexpr std::uint64_t Entries = 3000;
  Indexer indexer_{*Material::parse("KQvK"), RuleSet::orthodox()};
  std::string dir_;
};

TEST(LatestCommonState, IsTheLatestPassEveryProcessHolds) {
  const SolverState p104{104, 120}, p105{105, 120}, p93{93, 120};
  EXPECT_EQ(latest_common_state({{p104, p105}, {p104}})->next_ply, 104);
  EXPECT_EQ(latest_common_state({{p105}, {p104, p105}})->next_ply, 105);
  EXPECT_EQ(latest_common_state({{p104, p105}, {p105, p104}})->next_ply, 105);
  EXPECT_FALSE(latest_common_state({{p93}, {p104}}));
  EXPECT_FALSE(latest_common_state({{p104}, {}}));
  EXPECT_FALSE(latest_common_state({}));
  // A pass with another longest mate is another state.
  EXPECT_FALSE(latest_common_state({{SolverState{104, 120}}, {SolverState{104, 121}}}));
}

TEST(CheckpointName, PendingCheckpointsAreNamedAndRecognised) {
  EXPECT_EQ(pending_checkpoint_path("/t/orthodox/KQvKR.1-of-3.ckpt"), "/t/orthodox/KQvKR.1-of-3.next.ckpt");
  std::optional<CheckpointName> name = parse_checkpoint_name("KQvKR.1-of-3.next.ckpt");
  ASSERT_TRUE(name);
  EXPECT_EQ(name->first_member, "KQvKR");
  EXPECT_EQ(name->ranks, 3);
  EXPECT_TRUE(name->pending);
  ASSERT_TRUE(parse_checkpoint_name("KQvKR.1-of-3.ckpt"));
  EXPECT_FALSE(parse_checkpoint_name("KQvKR.1-of-3.ckpt")->pending);
  EXPECT_FALSE(parse_checkpoint_name("KQvKR.next.ckpt"));
  EXPECT_FALSE(parse_checkpoint_name("KQvKR.1-of-3.nex.ckpt"));
}

TEST_F(SpreadCheckpoint, SavedByEveryProcessReplacesTheOldOnesAndLeavesNoPendingFile) {
  save_all({40, 60});
  for (const std::string& said : save_spread({41, 60}, [&](int r) { return checkpoint(r); })) EXPECT_EQ(said, "");
  for (int r = 0; r < Ranks; ++r) EXPECT_FALSE(fs::exists(pending_checkpoint_path(checkpoint(r))));
  expect_resumed_at(41);
}

// One process cannot write (its file's directory is gone): nobody replaces the old
// checkpoint, and every process says which one failed and why.
TEST_F(SpreadCheckpoint, OneProcessFailingKeepsEveryonesOldCheckpoint) {
  save_all({40, 60});
  const std::string elsewhere = dir_ + "/gone/" + fs::path(checkpoint(1)).filename().string();
  const std::vector<std::string> said =
      save_spread({41, 60}, [&](int r) { return r == 1 ? elsewhere : checkpoint(r); });
  EXPECT_EQ(said[0], said[1]);
  EXPECT_EQ(said[0].rfind("process 1: ", 0), 0u) << said[0];
  EXPECT_NE(said[0].find("gone"), std::string::npos) << said[0];
  EXPECT_FALSE(fs::exists(pending_checkpoint_path(checkpoint(0))));
  expect_resumed_at(40);
}

// Stopped while writing: process 0 had written its pending file, process 1 not. Both
// resume from the old pass (process 0 from its old file).
TEST_F(SpreadCheckpoint, StoppedWhileWritingResumesFromTheOldPass) {
  save_all({40, 60});
  save(pending_checkpoint_path(checkpoint(0)), 0, {41, 60});
  expect_resumed_at(40);
  for (const Loaded& l : load_all()) EXPECT_EQ(l.resume.why_not, "");
}

// Stopped while renaming: process 0 had renamed its new file, process 1 not. Both resume
// from the new pass (process 1 from its pending file).
TEST_F(SpreadCheckpoint, StoppedWhileRenamingResumesFromTheNewPass) {
  save(checkpoint(0), 0, {41, 60});
  save(checkpoint(1), 1, {40, 60});
  save(pending_checkpoint_path(checkpoint(1)), 1, {41, 60});
  expect_resumed_at(41);
}

TEST_F(SpreadCheckpoint, NoCommonPassStartsOverSayingWhatEachProcessHolds) {
  save(checkpoint(0), 0, {41, 60});
  save(pending_checkpoint_path(checkpoint(0)), 0, {42, 60});
  for (const Loaded& l : load_all()) {
    EXPECT_FALSE(l.resume.state);
    EXPECT_EQ(l.resume.why_not,
              "the processes hold no pass in common (process 0 holds passes 41 and 42; process 1 has no checkpoint)");
  }
}

// Process 1's checkpoint is damaged: the reason is said (it once read only "not all at
// this pass").
TEST_F(SpreadCheckpoint, DamagedCheckpointOfAnotherProcessIsNamedWithItsReason) {
  save_all({40, 60});
  test::flip_byte_near_end(checkpoint(1));
  for (const Loaded& l : load_all()) {
    EXPECT_FALSE(l.resume.state);
    EXPECT_EQ(l.resume.why_not, "process 1: checkpoint '" + checkpoint(1) + "' is corrupt (checksum mismatch)");
  }
}

TEST_F(SpreadCheckpoint, NoCheckpointAnywhereIsAFreshStartSaidByNoOne) {
  for (const Loaded& l : load_all()) {
    EXPECT_FALSE(l.resume.state);
    EXPECT_EQ(l.resume.why_not, "");
  }
}

}  // namespace
}  // namespace feerie
