#include "gen/help_verify.h"

#include <omp.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <optional>

#include "probe/help_tablebase.h"
#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie {

namespace {

std::string help_text(const HelpEntry& e) {
  if (e.plies == value::Illegal) return "illegal";
  if (!value::is_mate(e.plies)) return "none";
  return std::to_string(value::plies(e.plies)) + " plies, " + std::to_string(e.solutions) + " solutions";
}

// What the moves of `pos` say its helpmate (or selfmate) with `mated` mated is.
Expected<HelpEntry> expected_entry(const HelpTablebase& tables, const Position& pos, Color mated) {
  const RuleSet& rules = tables.rules();
  const bool self = tables.kind() == StipulationKind::Selfmate;
  MoveList moves;
  generate_legal(pos, rules, moves);
  if (moves.empty()) {
    if (pos.side_to_move() == mated && in_check(pos, rules)) return HelpEntry{value::mate_in_plies(0), !self};
    return HelpEntry{value::Draw, 0};
  }
  // The defender of a selfmate takes the longest, and escapes through any move without one.
  const bool longest = self && pos.side_to_move() != mated;
  int best = longest ? -1 : INT_MAX, solutions = 0;
  for (Move m : moves) {
    Position after = pos;
    UndoRecord undo;
    make_move(after, m, undo, rules);
    Expected<HelpEntry> next = tables.entry(after, mated);
    if (!next) return next.error();
    if (!value::is_mate(next->plies)) {
      if (longest) return HelpEntry{value::Draw, 0};
      continue;
    }
    const int plies = value::plies(next->plies) + 1;
    if (longest) {
      best = std::max(best, plies);
      continue;
    }
    if (plies < best) {
      best = plies;
      solutions = 0;
    }
    if (plies == best && !self) solutions = std::min(solutions + next->solutions, HelpSolutionsCap);
  }
  if (best == INT_MAX) return HelpEntry{value::Draw, 0};
  return HelpEntry{value::mate_in_plies(best), solutions};
}

}  // namespace

Expected<VerifyReport> verify_help_table(const Material& material, const RuleSet& rules, const std::string& tables_dir,
                                         int threads, StipulationKind kind) {
  const HelpTablebase tables(rules, tables_dir, kind, HelpReading::Whole);
  Expected<const HelpTable*> loaded = tables.load(material);
  if (!loaded) return loaded.error();
  const HelpTable& table = **loaded;
  const Indexer indexer(material, rules);
  VerifyReport report;
  std::mutex mutex;
  std::optional<Error> failure;
  for (Color mated : {WHITE, BLACK})
    for (Color side : {WHITE, BLACK}) {
      const std::int64_t size = std::int64_t(indexer.size());
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads > 0 ? threads : omp_get_max_threads())
      for (std::int64_t i = 0; i < size; ++i) {
        const HelpEntry stored{table.plies[mated][side][std::size_t(i)], table.solutions[mated][side][std::size_t(i)]};
        Position pos;
        const bool legal = indexer.decode(std::uint64_t(i), side, pos) && is_legal_position(pos, rules);
        std::string problem;
        if (!legal) {
          if (stored.plies != value::Illegal) problem = "an illegal entry holds " + help_text(stored);
        } else {
          Expected<HelpEntry> expected = expected_entry(tables, pos, mated);
          if (!expected) {
            std::lock_guard lock(mutex);
            if (!failure) failure = expected.error();
            continue;
          }
          if (expected->plies != stored.plies || expected->solutions != stored.solutions)
            problem = to_fen(pos) + (mated == WHITE ? " (white mated)" : " (black mated)") + ": stored " +
                      help_text(stored) + ", expected " + help_text(*expected);
        }
        if (problem.empty()) continue;
        std::lock_guard lock(mutex);
        ++report.inconsistent;
        if (report.examples.size() < 10) report.examples.push_back(problem);
      }
      report.checked += indexer.size();
    }
  if (failure) return *failure;
  return report;
}

}  // namespace feerie
