// `--stipulation h#` and `s#` of `feerie gen`, `probe` and `verify` (issue 25,
// docs/stipulations.md).
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "probe/help_tablebase.h"
#include "probe/material.h"
#include "probe/stipulation.h"
#include "rules/ruleset.h"
#include "study/help_study.h"
#include "study/popeye.h"

namespace feerie::cli {

// "#", "h#" or "s#"; a CommandError naming the known ones for anything else.
StipulationKind parse_stipulation(const std::string& text);
// "white" or "black"; none: the stipulation's usual colour mated (Black in a helpmate,
// White in a selfmate, as problems state them); a CommandError for anything else.
Color parse_mated(const std::optional<std::string>& text, StipulationKind kind);

// Generates (or reuses) the helpmate or selfmate tables of `targets` and their
// dependencies, a line per table.
void run_help_gen(StipulationKind kind, const std::vector<Material>& targets, const RuleSet& rules,
                  const std::string& tables, int threads, std::uint64_t max_memory,
                  const std::string& max_memory_source);

// One position's helpmate or selfmate (the tablebase's kind) with `mated` mated: a line of
// text, a JSON object, or with `popeye` a Popeye problem. With `solutions` > 0, a helpmate's
// shortest solutions too, at most that many (SAN lines as problemists print them).
void probe_help(const HelpTablebase& tb, const std::string& fen, Color mated, bool json, PopeyeWriter* popeye = nullptr,
                int solutions = 0);

// The JSON of one position's helpmate or selfmate (`probe --stipulation h# --json`, the
// viewer): with `solutions` > 0 the shortest solutions, with `with_moves` every legal move
// with the entry after it ("moves": move, san, fen_after, helpmate/selfmate, plies,
// solutions).
nlohmann::ordered_json help_probe_json(const HelpTablebase& tb, const Position& pos, Color mated, int solutions,
                                       bool with_moves);
// The JSON of `stat --stipulation h#|s# --json` from a survey of `material`.
nlohmann::ordered_json help_stat_json(const HelpTablebase& tb, const Material& material, Color mated,
                                      const std::array<HelpSideSurvey, 2>& survey);

// `feerie stat --stipulation h#|s#`: the lengths of `material`'s table with `mated` mated,
// per side to move (study/help_study.h), as text or JSON.
void stat_help(const HelpTablebase& tb, const Material& material, Color mated, bool json, int threads);

// How `feerie mine --stipulation h#|s#` prints its matches.
enum class HelpMineOutput { Fen, Json, Popeye, Count };

// `feerie mine --stipulation h#|s#`: the positions of `material`'s table that pass `filter`
// (a sample of `limit` when not 0), one per line, then a summary on a terminal's stderr.
void mine_help(const HelpTablebase& tb, const Material& material, HelpMineFilter filter, std::uint64_t limit,
               std::uint64_t seed, HelpMineOutput output);

}  // namespace feerie::cli
