// `feerie gen --stipulation h#` and `s#` (issue 25): the helpmate or selfmate tables of some
// materials and of every material they lead to, written beside the direct-mate tables
// (probe/stipulation.h),
// each component solved in memory once the tables it depends on are on disk or solved in
// the same job. Tables on disk that read back sound are reused.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "probe/material.h"
#include "probe/stipulation.h"
#include "rules/expected.h"
#include "rules/ruleset.h"

namespace feerie {

struct GeneratedHelpTable {
  Material material;
  std::array<std::string, 2> paths;  // per colour mated
  bool reused = false;
  // Not empty when files were on disk but could not be trusted, so they were generated
  // again: what was wrong (as GeneratedTable::replaced_because).
  std::string replaced_because;
  double seconds = 0;                           // solving and writing
  std::uint64_t entries = 0;                    // per side to move
  std::array<int, 2> longest_plies = {-1, -1};  // per colour mated; -1: no helpmate
};

struct HelpGenerateOptions {
  StipulationKind kind = StipulationKind::Helpmate;  // or Selfmate
  std::string tables_dir = "tables";
  int threads = 0;  // 0: OpenMP's default
  // Refuse, before any work, a job whose estimated peak memory exceeds this; 0: no limit.
  std::uint64_t max_memory = 0;
  std::string max_memory_source = "--max-memory";
  std::function<void(const GeneratedHelpTable&)> on_table;  // each table as it is written or reused
  // Notices: waiting for another run writing the same tables, temporary files an
  // interrupted run left and that were removed. May be empty.
  std::function<void(const std::string&)> on_notice;
  // Polled after each pass and before each component: true stops the job with an
  // Interrupted error (the tables written so far are kept). May be empty.
  std::function<bool()> cancelled;
};

// Every material of the job, in solving order, generated or reused.
Expected<std::vector<GeneratedHelpTable>> generate_helpmates(const std::vector<Material>& targets, const RuleSet& rules,
                                                             const HelpGenerateOptions& options);

}  // namespace feerie
