#include "gen/help_solver.h"

#include <omp.h>

#include <algorithm>
#include <climits>
#include <optional>

#include "gen/colour_component.h"
#include "gen/colour_solver.h"
#include "gen/graph.h"
#include "gen/self_solver.h"
#include "gen/value_store.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "rules/retro.h"

namespace feerie {

namespace {

// The helpmate solve of one component under `Rules` (gen/help_solver.h): the passes
// "initialise" and "propagate" over a value store, then "count", for both colours mated
// at once (gen/colour_component.h).
template <class Rules>
class HelpSolver : ColourSolver<Rules> {
  using Base = ColourSolver<Rules>;
  using Base::component_, Base::rules_, Base::error_, Base::threads_;

 public:
  using Base::Base;

  Expected<std::vector<HelpTable>> run() {
    Expected<std::vector<HelpTable>> out = this->solve_tables(
        "helpmate", [&](int half, Color side, std::uint64_t i) { return initial_value(half, side, i); },
        [&](ValueStore& values, int n) { propagate(values, n); });
    if (!out) return out;
    count_solutions(*out);
    if (error_.get()) return *error_.get();
    return out;
  }

 private:
  // Pass "initialise": the terminal positions (ColourSolver::terminal_value); else the
  // shortest helpmate through a move out of the component, to be bettered by the passes;
  // or open.
  ValueCode initial_value(int half, Color side, std::uint64_t i) {
    const Color mated = ColourComponent::colour_of(half);
    Position pos;
    MoveList moves;
    if (std::optional<ValueCode> v = this->terminal_value(half, side, i, pos, moves)) return *v;
    int shortest = INT_MAX;
    for (Move m : moves) {
      if (ColourComponent::keeps_material(pos, m)) continue;
      Position after = pos;
      UndoRecord undo;
      make_move(after, m, undo, rules_);
      if (component_.in_component(after)) continue;
      const std::optional<HelpEntry> e = this->exit_entry(after, mated);
      if (!e) return value::Unknown;
      if (value::is_mate(e->plies)) shortest = std::min(shortest, value::plies(e->plies) + 1);
    }
    return shortest == INT_MAX ? value::open(0) : value::mate_in_plies(shortest);
  }

  // Pass n of "propagate": every predecessor of an entry at n plies is at n + 1 unless it
  // is nearer. Entries at n are final: every offer from now on is longer. Predecessors in
  // which the side not to move is in check are Illegal in the store, which no offer
  // changes.
  void propagate(ValueStore& store, int n) {
    const ValueCode next = value::mate_in_plies(n + 1);
    this->for_each_entry_at(store, n, [&](int half, const Position& pos, std::uint64_t i) {
      component_.for_each_predecessor_entry(half, pos, i, rules_, [&](Entry e) { store.offer_shorter(e, next); });
    });
  }

  // Pass "count", per distance from 1 up: the shortest solutions of an entry are the sum,
  // over its moves to positions one ply nearer, of theirs.
  void count_solutions(std::vector<HelpTable>& out) {
    int longest = 0;
    for (HelpTable& t : out)
      for (int mated = 0; mated < 2; ++mated)
        for (int side = 0; side < 2; ++side) {
          const std::vector<ValueCode>& plies = t.plies[std::size_t(mated)][std::size_t(side)];
          std::vector<std::uint8_t>& counts = t.solutions[std::size_t(mated)][std::size_t(side)];
          counts.assign(plies.size(), 0);
          for (std::size_t i = 0; i < plies.size(); ++i) {
            if (!value::is_mate(plies[i])) continue;
            longest = std::max(longest, value::plies(plies[i]));
            counts[i] = plies[i] == value::mate_in_plies(0);
          }
        }
    for (int level = 1; level <= longest; ++level)
      for (int half = 0; half < component_.halves(); ++half)
        for (int side = 0; side < 2; ++side) {
          HelpTable& t = out[std::size_t(half / 2)];
          const std::vector<ValueCode>& plies = t.plies[std::size_t(half % 2)][std::size_t(side)];
          std::vector<std::uint8_t>& counts = t.solutions[std::size_t(half % 2)][std::size_t(side)];
          const std::int64_t size = std::int64_t(plies.size());
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads_)
          for (std::int64_t i = 0; i < size; ++i)
            if (plies[std::size_t(i)] == value::mate_in_plies(level))
              counts[std::size_t(i)] = solutions_of(half, Color(side), std::uint64_t(i), level, out);
        }
  }

  std::uint8_t solutions_of(int half, Color side, std::uint64_t i, int level, const std::vector<HelpTable>& out) {
    const Color mated = ColourComponent::colour_of(half);
    Position pos;
    component_.indexer(half).decode(i, side, pos);
    MoveList moves;
    generate_legal(pos, rules_, moves);
    const ValueCode below = value::mate_in_plies(level - 1);
    int total = 0;
    for (Move m : moves) {
      Position after = pos;
      UndoRecord undo;
      make_move(after, m, undo, rules_);
      if (std::optional<Entry> e = component_.successor(half, pos, i, m, after)) {
        const HelpTable& t = out[std::size_t(e->member() / 2)];
        const std::size_t c = std::size_t(e->member() % 2), s = std::size_t(e->side());
        if (t.plies[c][s][e->index()] == below) total += t.solutions[c][s][e->index()];
      } else {
        const std::optional<HelpEntry> sub = this->exit_entry(after, mated);
        if (!sub) return 0;
        if (sub->plies == below) total += sub->solutions;
      }
      total = std::min(total, HelpSolutionsCap);
    }
    return std::uint8_t(total);
  }
};

}  // namespace

Expected<std::vector<HelpTable>> solve_help_component(const std::vector<const Indexer*>& members,
                                                      const HelpTablebase& subtables, int threads,
                                                      const std::function<bool()>& cancelled) {
  return solve_colour_component<HelpSolver>(members, subtables, threads, cancelled);
}

Expected<HelpTablebase> solve_in_memory(const std::vector<Material>& targets, const RuleSet& rules,
                                        StipulationKind kind, int threads) {
  HelpTablebase tables(rules, "", kind);
  for (const std::vector<Material>& component : solving_order(targets, rules)) {
    std::vector<std::unique_ptr<Indexer>> indexers;
    std::vector<const Indexer*> members;
    for (const Material& m : component) {
      indexers.push_back(std::make_unique<Indexer>(m, rules));
      members.push_back(indexers.back().get());
    }
    Expected<std::vector<HelpTable>> solved = kind == StipulationKind::Selfmate
                                                  ? solve_self_component(members, tables, threads)
                                                  : solve_help_component(members, tables, threads);
    if (!solved) return solved.error();
    for (HelpTable& t : *solved) tables.add(std::move(t));
  }
  return tables;
}

Expected<HelpTablebase> solve_helpmates(const std::vector<Material>& targets, const RuleSet& rules, int threads) {
  return solve_in_memory(targets, rules, StipulationKind::Helpmate, threads);
}

}  // namespace feerie
