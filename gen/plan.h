// What `feerie gen` will do, worked out before it does anything (the reliability issue):
// the components to build or reuse in solving order, each one's index entries and its
// estimated peak memory and file size. A job too large for the machine is refused here,
// with the estimate in the message, before any table is touched; a target beyond the
// supported index size is refused before its dependency graph is even computed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "probe/material.h"
#include "probe/stipulation.h"
#include "rules/expected.h"
#include "rules/ruleset.h"

namespace feerie {

struct PlannedComponent {
  std::vector<Material> members;  // one material, or several solved together; by name
  bool reuse = false;             // every member's table is on disk and sound
  // When not reused although files were there: what was wrong with them.
  std::string why_not_reused;
  double entries = 0;            // index entries, both sides to move, all members
  std::uint64_t peak_bytes = 0;  // estimated peak memory of solving and writing it (per process)
  // The same if a mate is longer than narrow::MaxPlies (151 plies): the values then take a
  // high bit per entry more (probe/value_array.h). What the limit is checked against.
  std::uint64_t long_mate_peak_bytes = 0;
  std::uint64_t file_bytes = 0;  // estimated size of its table files
  double seconds = 0;            // rough wall time of generating it (estimated_seconds); 0 when reused
};

struct Plan {
  std::vector<PlannedComponent> components;  // in solving order
  std::uint64_t peak_bytes = 0;              // the largest component's peak (0: all reused)
  std::uint64_t long_mate_peak_bytes = 0;    // the largest with a mate longer than 151 plies
  double seconds = 0;                        // rough wall time of the whole job
  int ranks = 1;                             // the processes the estimates are for
};

// Index entries per side to move of `material`, in floating point: exact for every
// material that can be generated, and defined for those whose count overflows 64 bits.
double estimated_entries(const Material& material, const RuleSet& rules);

// The program as resident in this process now, with the work of a solve: the part of a
// job's peak that is not its tables (counted by the helpmate jobs' estimate too).
double program_resident_bytes();

// Estimated peak memory of generating `component` with `threads` threads (0: OpenMP's
// default): its values, 1 byte per entry and side (and a high bit per entry with
// `long_mates`: a mate longer than 151 plies extends them); the block caches of the tables
// it reads through their blocks; the compressed blocks held while writing (no more than
// HeldCompressedBytes and a batch, probe/table_file.h); the program itself, as
// resident in this process now, and the work of a solve. In each of `ranks` processes when
// spread over them (gen/partition.h: a part of the values and of the file, its own block
// caches, the exchange buffers).
std::uint64_t estimated_peak_bytes(const std::vector<Material>& component, const RuleSet& rules, int threads,
                                   int ranks = 1, bool long_mates = false);

// A rough wall time of generating `entries` index entries (both sides to move) under
// `rules` with `threads` threads in each of `ranks` processes: a cost per entry measured
// on whole jobs (gen/plan.cpp), right within about a factor of 2 (the number of passes
// varies from table to table). `magic`: the materials hold magic units, whose mutations
// cost as a fairy condition does even under orthodox rules.
double estimated_seconds(double entries, const RuleSet& rules, int threads, int ranks = 1, bool magic = false);

// What this process may still use, and what bounds it: the smallest of the memory the
// machine can give now (MemAvailable of /proc/meminfo), the process's address-space and
// data-segment limits (RLIMIT_AS, `ulimit -v`; RLIMIT_DATA, `ulimit -d`) less what it
// uses of them now (VmSize, VmData of /proc/self/status), and its control group's
// memory.max less memory.current (cgroup v2). `bytes` is 0 when none is known.
struct MemoryAllowance {
  std::uint64_t bytes = 0;
  std::string bound;  // which one bounds it, for messages: "the address-space limit (RLIMIT_AS, ulimit -v)"
};
MemoryAllowance memory_allowance();
// The default memory limit of a generation job (`feerie gen`, feerie_generate(), Python's
// generate()): the allowance less 10%, and the words that name it in a refusal.
struct MemoryLimit {
  std::uint64_t bytes = 0;  // 0: no limit
  std::string source = "--max-memory";
};
MemoryLimit default_memory_limit();

// The plan for generating `targets` and everything they depend on into `tables_dir`.
// Errors: a target whose index would exceed the supported size (2^47 entries per side);
// a component (or a target alone) whose estimated peak exceeds `max_memory` (0: no
// limit). Tables on disk are checked as gen reuses them (checksums of every block).
// `ranks` > 1: the job spread over that many processes, estimates and limit per process.
// `limit_source` names where `max_memory` came from in a refusal. `threads` (0: OpenMP's
// default) is what the time estimates assume.
// `told`: whether each component is reused, as another process found it on the disk,
// followed here instead of reading the disk (below); nullptr: read here.
struct ReuseVerdict;
Expected<Plan> make_plan(const std::vector<Material>& targets, const RuleSet& rules, const std::string& tables_dir,
                         std::uint64_t max_memory, int ranks = 1, const std::string& limit_source = "--max-memory",
                         int threads = 0, const std::vector<ReuseVerdict>* told = nullptr);

// Whether a component is reused, and why not, as one process found it on the disk: the
// processes of a spread job follow process 0's reading (each reading its own view, a node
// that saw a stale table planned another job than the others and they waited on each
// other for ever).
struct ReuseVerdict {
  std::vector<std::string> members;  // the component's materials, by name
  bool reuse = false;
  std::string why_not_reused;
};
std::vector<ReuseVerdict> reuse_verdicts(const Plan& plan);

// Why the table at `path` cannot be reused for `material` under `rules`, or "" when it
// can: it must open cleanly, be built for these rules, this material and this index, and
// every block must match its checksum and declare its size (`deep`: and decompress to
// it, TableFile::check_blocks). "missing" when there is no file.
std::string reuse_problem(const std::string& path, const Material& material, const RuleSet& rules, bool deep = false,
                          const Stipulation& stipulation = Stipulation::direct_mate());

// "1.2 GiB", "640 MiB": sizes for people, in powers of 1024.
std::string bytes_text(double bytes);

}  // namespace feerie
