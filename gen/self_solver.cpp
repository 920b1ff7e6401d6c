#include "gen/self_solver.h"

#include <algorithm>
#include <climits>
#include <optional>

#include "gen/colour_component.h"
#include "gen/colour_solver.h"
#include "gen/help_solver.h"
#include "gen/value_store.h"
#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie {

namespace {

template <class Rules>
class SelfSolver : ColourSolver<Rules> {
  using Base = ColourSolver<Rules>;
  using Base::component_, Base::rules_, Base::error_;

 public:
  using Base::Base;

  Expected<std::vector<HelpTable>> run() {
    return this->solve_tables(
        "selfmate", [&](int half, Color side, std::uint64_t i) { return initial_value(half, side, i); },
        [&](ValueStore& values, int n) { propagate(values, n); });
  }

 private:
  static Color mated_of(int half) { return ColourComponent::colour_of(half); }

  // The selfmate of the position after a move that leaves the component.
  std::optional<ValueCode> exit_value(const Position& after, Color mated) {
    const std::optional<HelpEntry> e = this->exit_entry(after, mated);
    if (!e) return std::nullopt;
    return e->plies;
  }

  // Pass "initialise" (gen/self_solver.h; the terminal positions are
  // ColourSolver::terminal_value's).
  ValueCode initial_value(int half, Color side, std::uint64_t i) {
    const Color mated = mated_of(half);
    Position pos;
    MoveList moves;
    if (std::optional<ValueCode> v = this->terminal_value(half, side, i, pos, moves)) return *v;
    int shortest = INT_MAX, longest = -1, inside = 0;
    std::uint64_t successors[MoveList::Capacity];
    for (Move m : moves) {
      Position after = pos;
      UndoRecord undo;
      make_move(after, m, undo, rules_);
      if (std::optional<Entry> e = component_.successor(half, pos, i, m, after)) {
        successors[inside++] = e->code;
        continue;
      }
      const std::optional<ValueCode> v = exit_value(after, mated);
      if (!v) return value::Unknown;
      if (!value::is_mate(*v)) {
        if (side != mated) return value::Draw;  // the defender escapes through this move
        continue;
      }
      shortest = std::min(shortest, value::plies(*v) + 1);
      longest = std::max(longest, value::plies(*v) + 1);
    }
    if (side == mated) return shortest == INT_MAX ? value::open(0) : value::mate_in_plies(shortest);
    if (!inside) return value::mate_in_plies(longest);
    // The defender's successor entries inside, each counted once: a predecessor pass
    // meets each entry once (as the direct-mate solver counts).
    std::sort(successors, successors + inside);
    const int distinct = int(std::unique(successors, successors + inside) - successors);
    if (distinct >= value::NeverLost) {
      error_.set(error(ErrorKind::Internal, "a position has more than 254 successors: " + to_fen(pos)));
      return value::Unknown;
    }
    return value::open(distinct);
  }

  // Pass n: at even n the forcing colour is to move in the entries scanned, and each of
  // their predecessors (the defender to move) has one successor fewer not yet a selfmate;
  // at odd n the defender is to move, and each predecessor is at n + 1 unless nearer.
  void propagate(ValueStore& store, int n) {
    const ValueCode next = value::mate_in_plies(n + 1);
    this->for_each_entry_at(store, n, [&](int half, const Position& pos, std::uint64_t i) {
      if (n % 2) {
        component_.for_each_predecessor_entry(half, pos, i, rules_, [&](Entry e) { store.offer_shorter(e, next); });
        return;
      }
      std::vector<std::uint64_t> found;
      component_.for_each_predecessor_entry(half, pos, i, rules_, [&](Entry e) {
        if (value::counts_down(store.load(e))) found.push_back(e.code);
      });
      std::sort(found.begin(), found.end());
      found.erase(std::unique(found.begin(), found.end()), found.end());
      for (std::uint64_t code : found) take_successor(store, Entry{code}, n);
    });
  }

  // One successor fewer for the defender's entry `e`; the thread that takes it to none
  // resolves it at 1 + the longest of its moves (all selfmates now, of at most n plies
  // inside the component).
  void take_successor(ValueStore& store, Entry e, int n) {
    const ValueCode old = store.take_successor(e);
    if (value::open_successors(old) != 1) return;
    const int half = e.member();
    Position pos;
    component_.indexer(half).decode(e.index(), Color(e.side()), pos);
    MoveList moves;
    generate_legal(pos, rules_, moves);
    int longest = n;
    for (Move m : moves) {
      Position after = pos;
      UndoRecord undo;
      make_move(after, m, undo, rules_);
      std::optional<ValueCode> v;
      if (std::optional<Entry> inside = component_.successor(half, pos, e.index(), m, after))
        v = store.load(*inside);
      else
        v = exit_value(after, mated_of(half));
      if (!v) return;
      if (!value::is_mate(*v))
        return error_.set(error(ErrorKind::Internal, "a defender's move of " + to_fen(pos) +
                                                         " has no selfmate, yet all "
                                                         "its successors were counted"));
      longest = std::max(longest, value::plies(*v));
    }
    store.store(e, value::mate_in_plies(longest + 1));
  }
};

}  // namespace

Expected<std::vector<HelpTable>> solve_self_component(const std::vector<const Indexer*>& members,
                                                      const HelpTablebase& subtables, int threads,
                                                      const std::function<bool()>& cancelled) {
  return solve_colour_component<SelfSolver>(members, subtables, threads, cancelled);
}

}  // namespace feerie
