// `feerie gen` as a library call: solve the requested materials and everything they
// depend on, reusing the tables already on disk, writing each new table atomically.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "probe/material.h"
#include "probe/table_file.h"
#include "rules/expected.h"
#include "rules/ruleset.h"

namespace feerie {

struct GenerateOptions {
  std::string tables_dir = "tables";
  int threads = 0;  // 0: OpenMP's default
  // Refuse, before any work, a job whose estimated peak memory exceeds this (gen/plan.h);
  // 0: no limit.
  std::uint64_t max_memory = 0;
  // Progress messages for people (a table started, a pass done, a table written).
  std::function<void(const std::string&)> on_progress;
};

struct GeneratedTable {
  Material material;
  std::string path;
  bool reused = false;  // found on disk, not regenerated
  // Not empty when a file was on disk but could not be trusted, so it was generated
  // again: what was wrong (a corrupt block, another material or condition, ...).
  std::string replaced_because;
  double seconds = 0;   // solving, statistics and writing
  double solve_seconds = 0, statistics_seconds = 0, write_seconds = 0;
  std::uint64_t file_bytes = 0;
  std::uint64_t entries = 0;  // per side to move
  int passes = 0;
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
