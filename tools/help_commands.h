// `--stipulation h#` of `feerie gen` and `feerie probe` (issue 25, docs/stipulations.md).
#pragma once

#include <string>
#include <vector>

#include "probe/help_tablebase.h"
#include "probe/material.h"
#include "probe/stipulation.h"
#include "rules/ruleset.h"

namespace feerie::cli {

// "#" or "h#"; a CommandError naming the known ones for anything else.
Stipulation parse_stipulation(const std::string& text, Color mated = BLACK);
// "white" or "black".
Color parse_mated(const std::string& text);

// Generates (or reuses) the helpmate tables of `targets` and their dependencies, a line per
// table.
void run_help_gen(const std::vector<Material>& targets, const RuleSet& rules, const std::string& tables, int threads,
                  std::uint64_t max_memory, const std::string& max_memory_source);

// One position's helpmate with `mated` mated: a line of text, or a JSON object.
void probe_help(const HelpTablebase& tb, const std::string& fen, Color mated, bool json);

}  // namespace feerie::cli
