// Checkpoints of a component being solved (the reliability issue: a long generation can
// be interrupted — Ctrl-C, a killed process, a lost machine — and resumed).
//
// A checkpoint holds the solver's state between two passes: the pass to run next, the
// longest mate found so far, and every value of every member, both sides to move. That is
// all the solver's result depends on (a pass reads values and writes values; its block
// skipping is rebuilt from the values), so a solve resumed from a checkpoint gives tables
// byte-identical to an uninterrupted one.
//
// File "<tables>/<condition>/<first member>.ckpt", written atomically (probe/atomic_file.h):
//   prefix (24 bytes, little-endian): magic "FEERIECK", u32 version, u32 header length,
//          u64 XXH64 of the header
//   header: JSON: condition, generator, next_ply, max_plies, chunk_entries, and per member
//          its material, index layout and entries per side
//   body:  for each member in order, white to move then black, the values cut into chunks
//          of chunk_entries: u32 compressed size, u64 XXH64 of the compressed bytes, then
//          the chunk's u16 little-endian codes compressed with zstd.
// A reader checks everything against the solve it is asked to resume (condition, members,
// layouts, generator) and every size against the file before it reads, so a stale, foreign
// or damaged checkpoint is refused with the reason, and the solve starts over.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gen/solver.h"
#include "probe/indexer.h"
#include "rules/expected.h"

namespace feerie {

// A solve spread over processes (gen/partition.h) keeps one checkpoint per process,
// "<first member>.<rank>-of-<ranks>.ckpt", holding the process's own entries; its header
// also says "rank" and "ranks". One process alone: rank 0 of 1, the file above.
struct CheckpointPart {
  int rank = 0, ranks = 1;
};

// Where the checkpoint of the component made of `members` (sorted by name) is kept.
std::string checkpoint_path(const std::string& table_directory, const std::vector<const Indexer*>& members,
                            CheckpointPart part = {});

// Where a process of a spread solve writes its next checkpoint before every process has
// written its own: "<first member>.<rank>-of-<ranks>.next.ckpt" beside `checkpoint`
// (gen/spread_checkpoint.h says why).
std::string pending_checkpoint_path(const std::string& checkpoint);

// What a checkpoint's file name says: the component's first member, the number of
// processes of the run that wrote it (1: one process) and whether it is a pending one
// (pending_checkpoint_path). nullopt for any other name.
struct CheckpointName {
  std::string first_member;
  int ranks = 1;
  bool pending = false;
};
std::optional<CheckpointName> parse_checkpoint_name(const std::string& filename);

// Removes from `table_directory` the checkpoints of the component whose first member is
// named `first_member`, except those of runs of `keep_ranks` processes (0: keeps none;
// each process of a run removes its own), and returns the names of the files removed.
// Used once the component's tables are finished (issue 27 C: an interrupted run of
// another shape left its checkpoints for ever).
std::vector<std::string> remove_checkpoints(const std::string& table_directory, const std::string& first_member,
                                            int keep_ranks);

// The numbers of processes of the runs that left checkpoints of the component whose first
// member is named `first_member` in `table_directory` (1: one process), sorted, each once.
std::vector<int> checkpoint_runs(const std::string& table_directory, const std::string& first_member);

// Writes the checkpoint of `state` and `values` (one entry per member, in the order of
// `members`) to `path`, replacing the one there. `threads` compress in parallel.
Status save_checkpoint(const std::string& path, const std::string& condition,
                       const std::vector<const Indexer*>& members, const SolverState& state,
                       const std::vector<MemberValues>& values, int threads, CheckpointPart part = {});

// The state the checkpoint at `path` was saved at, from its header alone (checked as
// load_checkpoint checks it; the values are not read). Errors as load_checkpoint's.
Expected<SolverState> read_checkpoint_state(const std::string& path, const std::string& condition,
                                            const std::vector<const Indexer*>& members, CheckpointPart part = {});

// Reads the checkpoint at `path` into `values` (already sized: one entry per member, each
// side holding the member's entries, or the part's) and returns its state. Errors: NotFound
// when there is none; Corruption when it is damaged or does not belong to this solve (say
// which).
Expected<SolverState> load_checkpoint(const std::string& path, const std::string& condition,
                                      const std::vector<const Indexer*>& members, std::vector<MemberValues>& values,
                                      CheckpointPart part = {});

}  // namespace feerie
