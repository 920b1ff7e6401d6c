// What makes a mined direct mate worth publishing (issue 24, `feerie mine` filters): the
// key's kind, captures in the solution, the units the problem needs. Definitions, for a
// position `pos` won by the side to move (the attacker) with value `v`:
//
// - key: a legal move of the attacker that keeps the shortest mate (every such move when
//   there are several).
// - quiet key: every key is neither a capture nor a check.
// - solution tree: from `pos`, every key; after it every legal reply of the defender;
//   after each reply every move of the attacker that keeps the shortest mate from there;
//   and so on down to the mates.
// - no capture: no move of the solution tree captures (captures by the defender
//   included: a defence that takes a unit is part of the play).
// - every unit needed: for each unit other than the kings, the position without it is
//   illegal, or its value differs from `v` (another result or length), or its solution
//   tree (study/solution_tree.h: keys, every defence, every shortest continuation) differs
//   from that of `pos` (moves compared by squares and promotion). A unit whose removal
//   leaves the same problem with the same solution is not needed. A magic unit counts as
//   needed (it is never captured: the tables without it are not made).
// - checks in the solution: the attacker's moves of the solution tree (keys, every
//   continuation after every defence) that give check without mating, counted as the
//   tree lists them (a position reached by two lines counts on each); mates are not
//   counted (each one checks).
// - flights: the squares the defender's king can move to, the defender to move. Before
//   the key: the diagram with the defender to move (no en-passant right); after: the
//   position after the key. A key gives a flight when a square is a flight after it and
//   was not before, takes one in the other case (it may do both). A diagram whose
//   attacker is in check has no "before" (the defender could not be to move): its keys
//   neither give nor take.
//
// Thread-safety: the functions only read through `tb` (whose probes are thread-safe).
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "probe/tablebase.h"
#include "rules/expected.h"
#include "rules/position.h"

namespace feerie {

// Whether the solution below each position read so far is free of captures (exact keys for
// up to 8 units; a bounded number of them, forgotten all at once when full): what one
// thread's solution_has_no_capture() calls over many positions of one tablebase share,
// since the solutions of the longer mates run through those of the shorter ones.
class NoCaptureMemo {
 public:
  std::optional<bool> find(const Position& pos) const;
  void remember(const Position& pos, bool clean);

 private:
  struct Key {
    std::uint64_t high = 0, low = 0;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return std::size_t((k.high * 0x9E3779B97F4A7C15ULL) ^ k.low); }
  };
  static std::optional<Key> key_of(const Position& pos);
  static constexpr std::size_t MaxEntries = std::size_t(1) << 19;
  std::unordered_map<Key, bool, KeyHash> known_;
};

Expected<bool> has_quiet_key(const Tablebase& tb, const Position& pos, ValueCode v);
// `memo`: what earlier calls of this thread over the same tablebase learnt (none: this call's own).
Expected<bool> solution_has_no_capture(const Tablebase& tb, const Position& pos, ValueCode v,
                                       NoCaptureMemo* memo = nullptr);
Expected<bool> every_unit_needed(const Tablebase& tb, const Position& pos, ValueCode v);
// The checks in the solution of `pos` (won in `v`), counting up to `stop_at`.
Expected<int> checks_in_solution(const Tablebase& tb, const Position& pos, ValueCode v, int stop_at = 1 << 30);

// The flights one key gives and takes (squares, as bitboards).
struct KeyFlights {
  Move key;
  Bitboard given = 0;
  Bitboard taken = 0;
};
// For each key of `pos` (won in `v`), in generation order.
Expected<std::vector<KeyFlights>> key_flights(const Tablebase& tb, const Position& pos, ValueCode v);

}  // namespace feerie
