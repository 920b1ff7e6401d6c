#include "gen/verify.h"

#include <omp.h>

#include <climits>
#include <mutex>
#include <optional>

#include "probe/tablebase.h"
#include "gen/graph.h"
#include "probe/indexer.h"
#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie {

namespace {

std::string describe(ValueCode v) {
  if (v == value::Illegal) return "illegal";
  if (v == value::Draw) return "draw";
  if (v == value::Unknown) return "unknown";
  return std::string(value::is_win(v) ? "win in " : "loss in ") + std::to_string(value::plies(v)) + " plies";
}

// The value of `pos` from its successors' stored values, or an error.
template <class Rules>
Expected<ValueCode> expected_value(const Position& pos, const Rules& rules, const Tablebase& tb) {
  MoveList moves;
  generate_legal(pos, rules, moves);
  if (moves.empty()) return king_in_check(pos, pos.side_to_move(), rules) ? value::mate_in_plies(0) : value::Draw;
  int shortest_win = INT_MAX, longest_loss = -1;
  bool draw = false;
  for (Move m : moves) {
    Position after = pos;
    UndoRecord undo;
    make_move(after, m, undo, rules);
    Expected<ValueCode> s = tb.value_code(after);
    if (!s) return s.error();
    ValueCode v = value_through_move(*s);
    if (value::is_win(v))
      shortest_win = std::min(shortest_win, value::plies(v));
    else if (value::is_loss(v))
      longest_loss = std::max(longest_loss, value::plies(v));
    else if (v == value::Draw)
      draw = true;
    else
      return error(ErrorKind::Corruption, "successor " + to_fen(after) + " has no value (" + describe(*s) + ")");
  }
  if (shortest_win != INT_MAX) return value::mate_in_plies(shortest_win);
  if (draw) return value::Draw;
  return value::mate_in_plies(longest_loss);
}

}  // namespace

Expected<VerifyReport> verify_table(const Material& material, const RuleSet& rules, const std::string& tables_dir,
                                    int threads) {
  Tablebase tb = Tablebase::open(tables_dir, rules);
  if (Status s = tb.preload(material); !s) return s.error();
  for (const Material& m : material_successors(material, rules))
    if (Status s = tb.preload(m); !s) return s.error();
  Indexer indexer(material, rules);
  if (threads <= 0) threads = omp_get_max_threads();
  VerifyReport report;
  std::mutex mutex;
  std::optional<Error> failure;  // the first probe that failed
  rules.visit([&](const auto& r) {
    for (int side = 0; side < 2; ++side) {
      const std::int64_t size = std::int64_t(indexer.size());
      std::uint64_t bad = 0;
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads) reduction(+ : bad)
      for (std::int64_t i = 0; i < size; ++i) {
        Position pos;
        bool is_position = indexer.decode(std::uint64_t(i), Color(side), pos) && is_legal_position(pos, r);
        if (!is_position) continue;  // illegal entries may hold anything (SPEC 6)
        Expected<ValueCode> stored = tb.value_code(pos);
        Expected<ValueCode> want = expected_value(pos, r, tb);
        if (!stored || !want) {
          std::lock_guard lock(mutex);
          if (!failure) failure = !stored ? stored.error() : want.error();
          continue;
        }
        if (*stored == *want) continue;
        ++bad;
        std::lock_guard lock(mutex);
        if (report.examples.size() < 10)
          report.examples.push_back(to_fen(pos) + ": stored " + describe(*stored) + ", expected " + describe(*want));
      }
      report.inconsistent += bad;
      report.checked += indexer.size();
    }
  });
  if (failure) return with_context("verifying " + material.name() + ": ", *failure);
  return report;
}

}  // namespace feerie
