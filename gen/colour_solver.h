// What the helpmate and selfmate solvers of one colour component share (gen/help_solver.cpp,
// gen/self_solver.cpp): the component, the rules, the finished sub-tables that moves out
// of the component reach, the first error of any thread, the start of pass "initialise"
// (the same terminal positions for both stipulations) and the script of passes over a
// store per colour (gen/colour_component.h).
#pragma once

#include <omp.h>

#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "gen/colour_component.h"
#include "gen/value_store.h"
#include "probe/help_tablebase.h"
#include "rules/movegen.h"

namespace feerie {

template <class Rules>
class ColourSolver {
 public:
  ColourSolver(const std::vector<const Indexer*>& members, const Rules& rules, const HelpTablebase& subtables,
               int threads, const std::function<bool()>& cancelled)
      : component_(members), rules_(rules), subtables_(subtables), threads_(threads), cancelled_(cancelled) {}

 protected:
  // solve_by_colour with this solver's threads and cancellation, then the tables of its
  // store (which is freed before they are returned); `what` names the tables. The first
  // error of any thread fails the solve.
  template <class Initial, class Propagate>
  Expected<std::vector<HelpTable>> solve_tables(const char* what, Initial&& initial, Propagate&& propagate) {
    Expected<std::unique_ptr<ValueStore>> store = solve_by_colour(
        component_, threads_, what, cancelled_, std::forward<Initial>(initial), std::forward<Propagate>(propagate));
    if (!store) return store.error();
    if (error_.get()) return *error_.get();
    return colour_tables(component_, **store);
  }

  // Calls f(half, pos, i) for every entry i of `store` at n plies (of `half`, the position
  // `pos` decoded): the scan each pass of "propagate" makes.
  template <class F>
  void for_each_entry_at(ValueStore& store, int n, F&& f) const {
    store.for_entries_with<false>(
        value::mate_in_plies(n),
        [&](int half, int side, std::uint64_t i) {
          Position pos;
          component_.indexer(half).decode(i, Color(side), pos);
          f(half, pos, i);
        },
        [] {});
  }

  // The start of pass "initialise" for entry i of `half` (`side` to move): Illegal when
  // the entry is no legal position; for a position without a legal move, mate in 0 plies
  // when it is the colour mated to move and in check, else Draw (a stalemate, or the
  // other colour mated: no sequence goes on from it). Nothing when the position, left in
  // `pos`, has the legal moves left in `moves`, for the stipulation to weigh.
  std::optional<ValueCode> terminal_value(int half, Color side, std::uint64_t i, Position& pos, MoveList& moves) const {
    if (!component_.indexer(half).decode(i, side, pos) || !is_legal_position(pos, rules_)) return value::Illegal;
    generate_legal(pos, rules_, moves);
    if (!moves.empty()) return std::nullopt;
    return side == ColourComponent::colour_of(half) && king_in_check(pos, side, rules_) ? value::mate_in_plies(0)
                                                                                        : value::Draw;
  }

  // The finished sub-table's entry of `after`, a position a move out of the component
  // reached, for the colour `mated`; nothing when the look-up failed (its error kept).
  std::optional<HelpEntry> exit_entry(const Position& after, Color mated) {
    Expected<HelpEntry> e = subtables_.entry(after, mated);
    if (!e) {
      error_.set(e.error());
      return std::nullopt;
    }
    return *e;
  }

  const ColourComponent component_;
  const Rules& rules_;
  const HelpTablebase& subtables_;
  const int threads_;
  const std::function<bool()>& cancelled_;
  FirstError error_;
};

// Solves one component with Solver<Rules> for the rules of `subtables`, with `threads`
// threads (0: OpenMP's default): the entry point both stipulations' solvers give.
template <template <class> class Solver>
Expected<std::vector<HelpTable>> solve_colour_component(const std::vector<const Indexer*>& members,
                                                        const HelpTablebase& subtables, int threads,
                                                        const std::function<bool()>& cancelled) {
  const int team = threads > 0 ? threads : omp_get_max_threads();
  return subtables.rules().visit(
      [&](const auto& r) { return Solver<std::decay_t<decltype(r)>>(members, r, subtables, team, cancelled).run(); });
}

}  // namespace feerie
