// The entries of a component solved once per colour (the helpmate and selfmate tables,
// gen/help_solver.h, gen/self_solver.h): a value store's member `2 m + c` holds member m's
// entries for colour c (the colour mated). With magic units a move can lead into a member
// of the other orientation, where that colour is the other: both colours are one solve.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "gen/entry.h"
#include "gen/value_store.h"
#include "probe/help_tablebase.h"
#include "probe/indexer.h"
#include "rules/position.h"
#include "rules/retro.h"

namespace feerie {

class ColourComponent {
 public:
  explicit ColourComponent(const std::vector<const Indexer*>& members) : members_(members) {}

  int halves() const { return int(2 * members_.size()); }
  const Indexer& indexer(int half) const { return *members_[std::size_t(half / 2)]; }
  const std::vector<const Indexer*>& members() const { return members_; }
  static Color colour_of(int half) { return Color(half % 2); }

  // A move known to keep the material (and the member) without playing it: no capture, no
  // promotion, no magic units (SPEC 5; gen/solver.cpp decides alike).
  static bool keeps_material(const Position& pos, Move m) {
    return m.promotion() == NO_PIECE_TYPE && m.kind() != MoveKind::EN_PASSANT && m.kind() != MoveKind::LOCUST_CAPTURE &&
           pos.empty(m.to()) && !pos.magic_pieces();
  }

  // Whether the material of `pos` is a member (in either orientation).
  bool in_component(const Position& pos) const {
    const Material material = Material::of(pos).canonical_orientation();
    for (const Indexer* m : members_)
      if (m->material() == material) return true;
    return false;
  }

  // The entry of `pos` for `colour` when its material is a member; a member of the other
  // orientation is looked up with colours exchanged, the colour's too.
  std::optional<Entry> locate(const Position& pos, Color colour) const {
    const Material material = Material::of(pos);
    for (std::size_t m = 0; m < members_.size(); ++m) {
      const Indexer& member = *members_[m];
      if (member.material() == material) {
        if (!member.kings_indexable(pos)) return std::nullopt;
        return Entry::of(int(2 * m) + int(colour), pos.side_to_move(), member.index(pos));
      }
      if (member.material() == material.colors_swapped()) {
        const Position flipped = color_flipped(pos);
        if (!member.kings_indexable(flipped)) return std::nullopt;
        return Entry::of(int(2 * m) + int(~colour), flipped.side_to_move(), member.index(flipped));
      }
    }
    return std::nullopt;
  }

  // The entry `after` (the position `pos`, entry i of `half`, after the legal move m) has
  // when it is in the component; nothing when the move leaves it.
  std::optional<Entry> successor(int half, const Position& pos, std::uint64_t i, Move m, const Position& after) const {
    if (keeps_material(pos, m))
      return Entry::of(half, ~pos.side_to_move(), indexer(half).index_after_move(i, pos, after, m.from(), m.to()));
    if (!in_component(after)) return std::nullopt;
    return locate(after, colour_of(half));
  }

  // Calls f(Entry) for each predecessor entry of `pos` (entry i of `half`) in the
  // component, with repetitions, including predecessors where the side not to move is in
  // check (Illegal in a store: callers that only change open entries need no test).
  template <class Rules, class F>
  void for_each_predecessor_entry(int half, const Position& pos, std::uint64_t i, const Rules& rules, F&& f) const {
    // Without magic units a predecessor has the same material: its index follows from this
    // one's.
    const bool same_material = !pos.magic_pieces();
    for_each_predecessor<false>(pos, rules, [&](const Position& before, Square from, Square to) {
      if (same_material)
        f(Entry::of(half, before.side_to_move(), indexer(half).index_after_move(i, pos, before, to, from)));
      else if (std::optional<Entry> e = locate(before, colour_of(half)))
        f(*e);
    });
  }

 private:
  const std::vector<const Indexer*>& members_;
};

// The first failure of any thread of a solve.
class FirstError {
 public:
  void set(Error e) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::move(e);
  }
  const std::optional<Error>& get() const { return error_; }  // after the parallel loops

 private:
  std::mutex mutex_;
  std::optional<Error> error_;
};

// The script of a solve per colour over its store (members 2 m + c of `component`): every
// entry gets initial(half, side, index), then propagate(n) for n = 0 up to the longest
// value stored, then what is still open is never reached (Draw). `what` names the tables
// in the error for a component too large for one store. `cancelled` (may be empty) is
// polled after each pass: true stops the solve with an Interrupted error.
template <class Initial, class Propagate>
Expected<std::unique_ptr<ValueStore>> solve_by_colour(const ColourComponent& component, int threads, const char* what,
                                                      const std::function<bool()>& cancelled, Initial&& initial,
                                                      Propagate&& propagate) {
  if (component.halves() > ValueStore::MaxMembers)
    return error(ErrorKind::NotSupported, std::string("a ") + what + " component of more than " +
                                              std::to_string(ValueStore::MaxMembers / 2) + " materials");
  std::vector<std::uint64_t> sizes;
  for (const Indexer* m : component.members()) sizes.insert(sizes.end(), 2, m->size());
  auto store = std::make_unique<ValueStore>(sizes, 0, 1, threads);
  store->for_all_entries(
      [&](int half, int side, std::uint64_t i) {
        store->store(Entry::of(half, side, i), initial(half, Color(side), i));
      },
      [](std::uint64_t, std::uint64_t) {});
  store->settle_overflow();
  int passes = 1;
  auto interrupted = [&]() -> std::optional<Error> {
    if (!cancelled || !cancelled()) return std::nullopt;
    return error(ErrorKind::Interrupted, std::string("interrupted: the ") + what + " solve stopped after " +
                                             std::to_string(passes) + (passes == 1 ? " pass" : " passes"));
  };
  if (auto stop = interrupted()) return *stop;
  for (int n = 0; n <= store->max_plies(); ++n) {
    // The pass scans n and offers n + 1.
    store->hold_mates_up_to(n + 1);
    propagate(*store, n);
    store->settle_overflow();
    ++passes;
    if (auto stop = interrupted()) return *stop;
  }
  store->settle_open_as_draws();
  return store;
}

// The values of a solved store as one table per member (colour c of member m from the
// store's member 2 m + c), with no solutions counted yet.
inline std::vector<HelpTable> colour_tables(const ColourComponent& component, ValueStore& store) {
  std::vector<HelpTable> out(component.members().size());
  for (std::size_t m = 0; m < out.size(); ++m) {
    out[m].material = component.members()[m]->material();
    for (int colour = 0; colour < 2; ++colour)
      for (int side = 0; side < 2; ++side) {
        const ValueArray& values = store.values()[2 * m + std::size_t(colour)][std::size_t(side)];
        std::vector<ValueCode>& plies = out[m].plies[std::size_t(colour)][std::size_t(side)];
        plies.resize(values.size());
        for (std::uint64_t i = 0; i < values.size(); ++i) plies[i] = values.at(i);
        out[m].solutions[std::size_t(colour)][std::size_t(side)].assign(values.size(), 0);
      }
  }
  return out;
}

}  // namespace feerie
