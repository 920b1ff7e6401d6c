// `--stipulation h#` and `s#` of `feerie gen`, `probe` and `verify` (issue 25,
// docs/stipulations.md).
#pragma once

#include <string>
#include <vector>

#include "probe/help_tablebase.h"
#include "probe/material.h"
#include "probe/stipulation.h"
#include "rules/ruleset.h"

namespace feerie::cli {

// "#", "h#" or "s#"; a CommandError naming the known ones for anything else.
StipulationKind parse_stipulation(const std::string& text);
// "white" or "black"; empty: the stipulation's usual colour mated (Black in a helpmate,
// White in a selfmate, as problems state them).
Color parse_mated(const std::string& text, StipulationKind kind);

// Generates (or reuses) the helpmate or selfmate tables of `targets` and their
// dependencies, a line per table.
void run_help_gen(StipulationKind kind, const std::vector<Material>& targets, const RuleSet& rules,
                  const std::string& tables, int threads, std::uint64_t max_memory,
                  const std::string& max_memory_source);

// One position's helpmate or selfmate (the tablebase's kind) with `mated` mated: a line of
// text, or a JSON object.
void probe_help(const HelpTablebase& tb, const std::string& fen, Color mated, bool json);

}  // namespace feerie::cli
