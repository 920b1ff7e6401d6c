#include "gen/help_solver.h"

#include <omp.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <optional>

#include "gen/graph.h"
#include "gen/value_store.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "rules/retro.h"

namespace feerie {

namespace {

// The helpmate solve of one component under `Rules` (gen/help_solver.h): the passes
// "initialise" and "propagate" over a value store, then "count". Both victims are solved
// together, as two halves of the store: with magic units a move can lead to a member in
// the other orientation, where the victim has the other colour. The store's member
// `2 m + v` holds member m's entries with victim colour v.
template <class Rules>
class HelpSolver {
 public:
  HelpSolver(const std::vector<const Indexer*>& members, const Rules& rules, const HelpTablebase& subtables,
             int threads)
      : members_(members), rules_(rules), subtables_(subtables), threads_(threads) {}

  Expected<std::vector<HelpTable>> run() {
    if (2 * members_.size() > std::size_t(ValueStore::MaxMembers))
      return error(ErrorKind::NotSupported,
                   "a helpmate component of more than " + std::to_string(ValueStore::MaxMembers / 2) + " materials");
    std::vector<std::uint64_t> sizes;
    for (const Indexer* m : members_) sizes.insert(sizes.end(), 2, m->size());
    store_ = std::make_unique<ValueStore>(sizes, 0, 1, threads_);
    initialise();
    for (int n = 0; n <= store_->max_plies(); ++n) propagate(n);
    store_->settle_open_as_draws();
    if (error_) return *error_;
    std::vector<HelpTable> out(members_.size());
    for (std::size_t m = 0; m < members_.size(); ++m) {
      out[m].material = members_[m]->material();
      for (int victim = 0; victim < 2; ++victim)
        for (int side = 0; side < 2; ++side) {
          const ValueArray& values = store_->values()[2 * m + std::size_t(victim)][std::size_t(side)];
          std::vector<ValueCode>& plies = out[m].plies[std::size_t(victim)][std::size_t(side)];
          plies.resize(values.size());
          for (std::uint64_t i = 0; i < values.size(); ++i) plies[i] = values.at(i);
        }
    }
    store_.reset();
    count_solutions(out);
    if (error_) return *error_;
    return out;
  }

 private:
  const Indexer& indexer(int half) const { return *members_[std::size_t(half / 2)]; }
  static Color victim_of(int half) { return Color(half % 2); }

  // Pass "initialise": Illegal; the victim mated (0 plies); Draw for every other position
  // without a move (stalemate, the other side mated); the shortest helpmate through a move
  // out of the component, to be bettered by the passes; or open.
  void initialise() {
    store_->for_all_entries(
        [&](int half, int side, std::uint64_t i) {
          store_->store(Entry::of(half, side, i), initial_value(half, Color(side), i));
        },
        [](std::uint64_t, std::uint64_t) {});
    store_->settle_overflow();
  }

  ValueCode initial_value(int half, Color side, std::uint64_t i) {
    const Color victim = victim_of(half);
    Position pos;
    if (!indexer(half).decode(i, side, pos) || !is_legal_position(pos, rules_)) return value::Illegal;
    MoveList moves;
    generate_legal(pos, rules_, moves);
    if (moves.empty())
      return side == victim && king_in_check(pos, side, rules_) ? value::mate_in_plies(0) : value::Draw;
    int shortest = INT_MAX;
    for (Move m : moves) {
      if (keeps_material(pos, m)) continue;
      Position after = pos;
      UndoRecord undo;
      make_move(after, m, undo, rules_);
      if (in_component(after)) continue;
      Expected<HelpEntry> e = subtables_.entry(after, victim);
      if (!e) {
        fail(e.error());
        return value::Unknown;
      }
      if (value::is_mate(e->plies)) shortest = std::min(shortest, value::plies(e->plies) + 1);
    }
    return shortest == INT_MAX ? value::open(0) : value::mate_in_plies(shortest);
  }

  // Pass n of "propagate": every predecessor of an entry at n plies is at n + 1 unless it
  // is nearer. Entries at n are final: every offer from now on is longer.
  void propagate(int n) {
    if (n + 1 > store_->narrow_max_plies()) store_->widen();
    const ValueCode next = value::mate_in_plies(n + 1);
    store_->for_entries_with<false>(
        value::mate_in_plies(n),
        [&](int half, int side, std::uint64_t i) {
          Position pos;
          indexer(half).decode(i, Color(side), pos);
          // Predecessors in which the side not to move is in check are Illegal in the
          // store, which no offer changes: no need to test them.
          // Without magic units a predecessor has the same material: its index follows from
          // this one's.
          const bool same_material = !pos.magic_pieces();
          for_each_predecessor<false>(pos, rules_, [&](const Position& before, Square from, Square to) {
            if (same_material)
              store_->offer_shorter(Entry::of(half, 1 - side, indexer(half).index_after_move(i, pos, before, to, from)),
                                    next);
            else if (std::optional<Entry> e = locate(before, victim_of(half)))
              store_->offer_shorter(*e, next);
          });
        },
        [] {});
    store_->settle_overflow();
  }

  // Pass "count", per distance from 1 up: the shortest solutions of an entry are the sum,
  // over its moves to positions one ply nearer, of theirs.
  void count_solutions(std::vector<HelpTable>& out) {
    int longest = 0;
    for (HelpTable& t : out)
      for (int victim = 0; victim < 2; ++victim)
        for (int side = 0; side < 2; ++side) {
          const std::vector<ValueCode>& plies = t.plies[std::size_t(victim)][std::size_t(side)];
          std::vector<std::uint8_t>& counts = t.solutions[std::size_t(victim)][std::size_t(side)];
          counts.assign(plies.size(), 0);
          for (std::size_t i = 0; i < plies.size(); ++i) {
            if (!value::is_mate(plies[i])) continue;
            longest = std::max(longest, value::plies(plies[i]));
            counts[i] = plies[i] == value::mate_in_plies(0);
          }
        }
    for (int level = 1; level <= longest; ++level)
      for (std::size_t half = 0; half < 2 * members_.size(); ++half)
        for (int side = 0; side < 2; ++side) {
          HelpTable& t = out[half / 2];
          const std::vector<ValueCode>& plies = t.plies[half % 2][std::size_t(side)];
          std::vector<std::uint8_t>& counts = t.solutions[half % 2][std::size_t(side)];
          const std::int64_t size = std::int64_t(plies.size());
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads_)
          for (std::int64_t i = 0; i < size; ++i)
            if (plies[std::size_t(i)] == value::mate_in_plies(level))
              counts[std::size_t(i)] = solutions_of(int(half), Color(side), std::uint64_t(i), level, out);
        }
  }

  std::uint8_t solutions_of(int half, Color side, std::uint64_t i, int level, const std::vector<HelpTable>& out) {
    const Color victim = victim_of(half);
    Position pos;
    indexer(half).decode(i, side, pos);
    MoveList moves;
    generate_legal(pos, rules_, moves);
    const ValueCode below = value::mate_in_plies(level - 1);
    int total = 0;
    for (Move m : moves) {
      Position after = pos;
      UndoRecord undo;
      make_move(after, m, undo, rules_);
      const bool kept = keeps_material(pos, m);
      if (kept || in_component(after)) {
        const std::optional<Entry> e =
            kept ? Entry::of(half, ~side, indexer(half).index_after_move(i, pos, after, m.from(), m.to()))
                 : locate(after, victim);
        if (!e) {
          fail(error(ErrorKind::Internal, "a move of " + to_fen(pos) + " leads to a position without an entry"));
          return 0;
        }
        const HelpTable& t = out[std::size_t(e->member() / 2)];
        const std::size_t v = std::size_t(e->member() % 2), s = std::size_t(e->side());
        if (t.plies[v][s][e->index()] == below) total += t.solutions[v][s][e->index()];
      } else {
        Expected<HelpEntry> sub = subtables_.entry(after, victim);
        if (!sub) {
          fail(sub.error());
          return 0;
        }
        if (sub->plies == below) total += sub->solutions;
      }
      total = std::min(total, HelpSolutionsCap);
    }
    return std::uint8_t(total);
  }

  // A move known to keep the material (and the member) without playing it: no capture, no
  // promotion, no magic units (SPEC 5; gen/solver.cpp decides alike).
  static bool keeps_material(const Position& pos, Move m) {
    return m.promotion() == NO_PIECE_TYPE && m.kind() != MoveKind::EN_PASSANT && m.kind() != MoveKind::LOCUST_CAPTURE &&
           pos.empty(m.to()) && !pos.magic_pieces();
  }

  // Whether the material of `pos` is a member of the component (in either orientation).
  bool in_component(const Position& pos) const {
    const Material material = Material::of(pos).canonical_orientation();
    for (const Indexer* m : members_)
      if (m->material() == material) return true;
    return false;
  }

  // The entry of `pos` with `victim` to be mated when its material is a member of the
  // component; a member of the other orientation is looked up with colours exchanged, the
  // victim's too.
  std::optional<Entry> locate(const Position& pos, Color victim) const {
    const Material material = Material::of(pos);
    for (std::size_t m = 0; m < members_.size(); ++m) {
      const Indexer& member = *members_[m];
      if (member.material() == material) {
        if (!member.kings_indexable(pos)) return std::nullopt;
        return Entry::of(int(2 * m) + int(victim), pos.side_to_move(), member.index(pos));
      }
      if (member.material() == material.colors_swapped()) {
        const Position flipped = color_flipped(pos);
        if (!member.kings_indexable(flipped)) return std::nullopt;
        return Entry::of(int(2 * m) + int(~victim), flipped.side_to_move(), member.index(flipped));
      }
    }
    return std::nullopt;
  }

  void fail(Error e) {
    std::lock_guard lock(error_mutex_);
    if (!error_) error_ = std::move(e);
  }

  const std::vector<const Indexer*>& members_;
  const Rules& rules_;
  const HelpTablebase& subtables_;
  const int threads_;
  std::unique_ptr<ValueStore> store_;
  std::mutex error_mutex_;
  std::optional<Error> error_;
};

}  // namespace

Expected<std::vector<HelpTable>> solve_help_component(const std::vector<const Indexer*>& members,
                                                      const HelpTablebase& subtables, int threads) {
  const int team = threads > 0 ? threads : omp_get_max_threads();
  return subtables.rules().visit(
      [&](const auto& r) { return HelpSolver<std::decay_t<decltype(r)>>(members, r, subtables, team).run(); });
}

Expected<HelpTablebase> solve_helpmates(const std::vector<Material>& targets, const RuleSet& rules, int threads) {
  HelpTablebase tables(rules);
  for (const std::vector<Material>& component : solving_order(targets, rules)) {
    std::vector<std::unique_ptr<Indexer>> indexers;
    std::vector<const Indexer*> members;
    for (const Material& m : component) {
      indexers.push_back(std::make_unique<Indexer>(m, rules));
      members.push_back(indexers.back().get());
    }
    Expected<std::vector<HelpTable>> solved = solve_help_component(members, tables, threads);
    if (!solved) return solved.error();
    for (HelpTable& t : *solved) tables.add(std::move(t));
  }
  return tables;
}

}  // namespace feerie
