// The study tools over helpmate and selfmate tables (issue 25, docs/stipulations.md): the
// lengths of a table and how many positions of each length have a unique solution
// (`feerie stat --stipulation h#`), and the positions of a table that pass a composer's
// filters (`feerie mine --stipulation h#`).
//
// Counts are raw (SPEC 1, "Counting positions"): a stored position stands for each of its
// distinct board-symmetry images, which share its length and its number of solutions.
//
// Problem lengths, with the colour mated as problems state it (docs/stipulations.md):
// h#N is 2N plies with the colour mated to move, h#N.5 is 2N + 1 plies with the other
// colour to move; s#N is 2N plies with the colour mated (the one that forces) to move. A
// selfmate position with the other colour to move states no problem.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "probe/help_tablebase.h"
#include "probe/material.h"
#include "rules/expected.h"
#include "rules/move.h"
#include "rules/position.h"

namespace feerie {

// One length of one side to move: the raw positions, and those with exactly one solution
// (helpmates; 0 for selfmates, which have no count).
struct HelpLengthCount {
  std::uint64_t positions = 0;
  std::uint64_t unique = 0;
};

// One side to move of a table with one colour mated.
struct HelpSideSurvey {
  std::uint64_t positions = 0;  // legal positions, raw
  std::uint64_t with_mate = 0;  // of them with a helpmate (selfmate) of the colour mated
  std::uint64_t unique = 0;     // of those with exactly one shortest solution (helpmates)
  // [plies]: the lengths from 0 (the colour mated is mated already) to HelpMaxPlies.
  std::array<HelpLengthCount, HelpMaxPlies + 1> by_plies{};
  int longest_plies = -1;   // -1: no position with a mate
  std::string longest_fen;  // the example of lowest index
  int longest_solutions = 0;
};

// Both sides to move ([WHITE], [BLACK]) of `material` in its stored orientation, with
// `mated` mated. Errors: a material in the other orientation (InvalidArgument, naming the
// stored one), a missing or damaged table.
Expected<std::array<HelpSideSurvey, 2>> survey_help_table(const HelpTablebase& tb, const Material& material,
                                                          Color mated, int threads = 0);

struct HelpMineFilter {
  Color mated = BLACK;        // in the colours of the material asked for
  std::optional<Color> side;  // the side to move
  // Problem lengths in half moves: h#X or s#X with half_moves_min <= 2X <= half_moves_max
  // (h#N.5 counts as N.5: 2N + 1), that is plies from half_moves_min to half_moves_max;
  // 0: no bound. Selfmates keep only the positions that state a problem (the colour mated
  // to move).
  int half_moves_min = 0, half_moves_max = 0;
  bool unique = false;  // exactly one shortest solution (helpmates only)
  // Units on the board, kings included: units_min <= n <= units_max (0: no bound).
  int units_min = 0, units_max = 0;
  // Only positions whose pawns stand on ranks 2 to 7 (SPEC 1 makes a pawn on its first
  // or last rank a position too).
  bool pawns_on_ranks_2_to_7 = false;
  // Only positions with a mate still to play (not mated already) that state a problem:
  // what a Popeye problem can say.
  bool problem_only = false;
};

struct HelpMineMatch {
  Position position;  // in the colours of the material asked for
  HelpEntry entry;
};

struct HelpMineReport {
  std::uint64_t entries = 0;  // index entries scanned (both sides to move)
  std::uint64_t matches = 0;  // every match, also those a sample left out
};

// Scans the table of `material` (either orientation: the other one is the stored table
// with colours exchanged, and so the colour mated) and calls `on_match` for each match in
// scan order (White to move first, then by index; each stored position stands for its
// symmetric images), or with `limit` > 0 for a seeded uniform sample of that many, in
// scan order. Errors: a missing or damaged table, a filter that asks a selfmate table for
// solutions (InvalidArgument).
Expected<HelpMineReport> mine_help_table(const HelpTablebase& tb, const Material& material,
                                         const HelpMineFilter& filter, std::uint64_t limit, std::uint64_t seed,
                                         const std::function<void(const HelpMineMatch&)>& on_match);

// The most solution lines a caller asks for (`probe --solutions`, the viewer's
// `solutions=`, Python's `limit`).
inline constexpr int MaxSolutionLines = 10000;

// The shortest helpmates of `pos` with `mated` mated, each a line of legal moves from
// `pos` to the mate, at most `limit` of them, in move-generation order; none when the
// position has no helpmate or is mated already. Errors: a missing or damaged table of a
// material the moves lead to.
Expected<std::vector<std::vector<Move>>> helpmate_solutions(const HelpTablebase& tb, const Position& pos, Color mated,
                                                            int limit);

// A helpmate's line as problemists print it: numbered by the moves of the colour mated,
// which opens an h#N ("1.Kd8 Ke6 2.Ke8 Rc8#"); an h#N.5 opens with the other colour's move
// ("1...Ke6 2.Kd8 Kf6 3.Ke8 Rc8#"). `san`: the moves' SAN (rules/san.h).
std::string help_line_text(const std::vector<std::string>& san, Color first_mover, Color mated);

}  // namespace feerie
