// `feerie gen` as a library call: solve the requested materials and everything they
// depend on, reusing the tables already on disk, writing each new table atomically.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gen/partition.h"
#include "gen/solver.h"
#include "probe/material.h"
#include "probe/table_file.h"
#include "rules/expected.h"
#include "rules/ruleset.h"

namespace feerie {

struct GeneratedTable;

struct GenerateProgress {
  std::string message;            // one line: what is being done now ("KQRvKR: pass 12, ...")
  double job_fraction = 0;        // how much of the job is done, 0 to 1, by entries (an estimate)
  double elapsed_seconds = 0;     // since the job started
  double remaining_seconds = -1;  // estimated from the fraction and the time so far; -1: unknown yet
};

// The most threads a job may ask for (`--threads`, the C and Python APIs): beyond the cores
// of any machine we know, and below what makes the OpenMP runtime fail to start them.
constexpr int MaxThreads = 1024;

struct GenerateOptions {
  std::string tables_dir = "tables";
  int threads = 0;  // 0: OpenMP's default; at most MaxThreads
  // The processes the job is spread over (gen/partition.h; `feerie gen --mpi`), each
  // running generate() with the same arguments; null: this process alone. Every table is
  // solved and written by all of them together, each holding its own part; process 0
  // alone takes the directory's lock and tidies it.
  Partition* partition = nullptr;
  // Partitioned: SolveOptions::exchange_limit (0: its default).
  std::uint64_t exchange_limit = 0;
  // SolveOptions::loss_passes (tests compare the ways of the passes of losses).
  LossPassChoice loss_passes;
  // Refuse, before any work, a job whose estimated peak memory exceeds this (gen/plan.h);
  // 0: no limit. The source names it in the refusal.
  std::uint64_t max_memory = 0;
  std::string max_memory_source = "--max-memory";
  // Save the state of a solve to a checkpoint beside its tables after a pass when this
  // many seconds have passed since the start or the last save (0: after every pass;
  // negative: never). A later run resumes from it by itself (gen/checkpoint.h).
  double checkpoint_seconds = 300;
  // Progress for people: called when a component starts and after each pass.
  std::function<void(const GenerateProgress&)> on_progress;
  // Called for each table as soon as it is written or found reusable, in solving order.
  std::function<void(const GeneratedTable&)> on_table;
  // Notices that belong in a log too: resuming from a checkpoint, a checkpoint that could
  // not be used, waiting for another run writing the same tables, little disk space.
  std::function<void(const std::string&)> on_notice;
  // Polled after each pass: true stops the job with an Interrupted error (a checkpoint due
  // at that pass is saved first). May be empty.
  std::function<bool()> cancelled;
};

// Makes the directory the tables go to and checks that files can be made there, before
// any solving (a bad --tables is found at once, not after an hour of work): InvalidArgument
// when a file stands where a directory should, IOError when it cannot be made or written.
Status prepare_directory(const std::string& dir);
// The error prepare_directory() gives when a file stands on `dir`'s path, without making
// anything (for gen --plan).
Status refuse_file_on_directory_path(const std::string& dir);
// The error prepare_directory() gives when `dir` (or, when it is not there yet, the
// directory it would be made in) cannot be written, without making anything (for gen
// --plan, which planned normally on a read-only file system where gen stops at once).
Status refuse_unwritable_directory(const std::string& dir);

// Removes the temporary files that interrupted runs left in `dir` (remove_stale_temporaries)
// and tells `on_notice` (may be empty) how many, when there were some.
void tidy_stale_temporaries(const std::string& dir, const std::function<void(const std::string&)>& on_notice);

struct GeneratedTable {
  Material material;
  std::string path;
  bool reused = false;  // found on disk, not regenerated
  // Not empty when a file was on disk but could not be trusted, so it was generated
  // again: what was wrong (a corrupt block, another material or condition, ...).
  std::string replaced_because;
  double seconds = 0;  // solving, statistics and writing
  double solve_seconds = 0, statistics_seconds = 0, write_seconds = 0;
  std::uint64_t file_bytes = 0;
  std::uint64_t entries = 0;  // per side to move
  int passes = 0;
  int pulled = 0;            // sides of passes of losses that pulled rather than pushed (LossPassChoice)
  int resumed_at_pass = -1;  // the pass a checkpoint let the solve resume at, -1 if none
  // Spread over processes: the updates they sent each other (8 bytes each), in all and in
  // the busiest pass (the component's, shared by its members).
  std::uint64_t exchanged = 0, busiest_pass_exchanged = 0;
  std::array<SideStatistics, 2> stats;
  // The materials solved together with this one (its strongly connected component,
  // itself included, sorted by name): one material except with magic mutation.
  std::vector<Material> component;
};

Expected<std::vector<GeneratedTable>> generate(const std::vector<Material>& targets, const RuleSet& rules,
                                               const GenerateOptions& options);

// Generates one material whose dependencies are all on disk; always regenerates.
Expected<GeneratedTable> generate_one(const Material& material, const RuleSet& rules, const GenerateOptions& options);

}  // namespace feerie
