// Checkpoints of a solve spread over processes (gen/partition.h), committed by all the
// processes together.
//
// Each process keeps its own entries in "<first member>.<rank>-of-<ranks>.ckpt"
// (gen/checkpoint.h). Replacing them one process at a time lost the whole solve when a job
// was stopped while they were being written: the processes were left at two passes (a
// SIGTERM to mpirun left 104 and 105), a resume needs them all at one, and 4 interrupts of
// 6 started over. So a save has two steps:
//
//   1. every process writes its new checkpoint beside the old one, as
//      "<first member>.<rank>-of-<ranks>.next.ckpt" (pending_checkpoint_path);
//   2. once every process has written its own (they say so to each other), each renames its
//      pending file over its old checkpoint; if any could not write, each removes its
//      pending file and the old checkpoints stay.
//
// Stopped anywhere, every process still holds, in one of its two files, the last pass that
// all of them saved completely: stopped during step 1, the old checkpoints; during step 2,
// the new one (renamed, or still pending). A resume reads the passes of both files of every
// process and starts from the latest one every process holds.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gen/checkpoint.h"
#include "gen/partition.h"
#include "gen/solver.h"
#include "probe/indexer.h"
#include "rules/expected.h"

namespace feerie {

// Saves this process's part of the solve in two steps (above). Collective. Returns "" when
// every process saved, else why the save failed, the same words in every process
// ("process 2: cannot write ...: No space left on device"); the old checkpoints are then
// kept. Errors: the processes could not talk to each other.
Expected<std::string> save_spread_checkpoint(Partition& partition, const std::string& checkpoint,
                                             const std::string& condition, const std::vector<const Indexer*>& members,
                                             const SolverState& state, const std::vector<MemberValues>& values,
                                             int threads);

// The outcome of looking for a spread solve's checkpoints: the state to resume from (the
// values loaded), or none; and, when files were there but the solve cannot resume from
// them, why, in the same words in every process.
struct SpreadResume {
  std::optional<SolverState> state;
  std::string why_not;
};

// Loads this process's checkpoint at the latest pass every process holds. Collective.
// Errors: the processes could not talk to each other.
Expected<SpreadResume> load_spread_checkpoint(Partition& partition, const std::string& checkpoint,
                                              const std::string& condition, const std::vector<const Indexer*>& members,
                                              std::vector<MemberValues>& values);

// The latest state that every process holds, given the states each holds (by rank);
// nullopt when there is none. A state is a pass with its longest mate (both must agree).
std::optional<SolverState> latest_common_state(const std::vector<std::vector<SolverState>>& held);

}  // namespace feerie
