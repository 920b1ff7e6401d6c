// Where positions fall in the component being solved (the materials solved together, one
// member each): the entry of a position, and where a move made from a member lands. The
// solver's look-ups outside its own member's arithmetic (gen/solver.cpp).
//
// Thread-safety: const methods may be called concurrently; flips_seen() is set by any.
#pragma once

#include <atomic>
#include <vector>

#include "gen/entry.h"
#include "probe/indexer.h"
#include "probe/material.h"
#include "rules/position.h"

namespace feerie {

class ComponentEntries {
 public:
  // `members` must outlive this object.
  explicit ComponentEntries(const std::vector<const Indexer*>& members) : members_(members) {}

  // The member holding `material` (canonical orientation), or -1.
  int member_of(const Material& material) const {
    for (std::size_t m = 0; m < members_.size(); ++m)
      if (members_[m]->material() == material) return int(m);
    return -1;
  }

  // The entry of `pos` when its material is a member of the component (positions of the
  // other orientation are looked up with colours exchanged); false for a material outside.
  bool locate(const Position& pos, Entry& out) const {
    Material material = Material::of(pos);
    const bool flipped = !material.is_canonical_orientation();
    int member = member_of(flipped ? material.colors_swapped() : material);
    if (member < 0) return false;
    const Indexer& indexer = *members_[member];
    if (!flipped) {
      if (!indexer.kings_indexable(pos)) return false;
      out = Entry::of(member, pos.side_to_move(), indexer.index(pos));
      return true;
    }
    Position other = color_flipped(pos);
    if (!indexer.kings_indexable(other)) return false;
    out = Entry::of(member, other.side_to_move(), indexer.index(other));
    flips_seen_.store(true, std::memory_order_relaxed);
    return true;
  }

  // Where a move made on `after` (from the position of `member`) lands: true with its
  // entry when inside the component. Moves without capture, promotion or mutation stay
  // in the member; `need_entry` false lets those skip the index computation.
  bool lands_inside(int member, const Position& after, Move m, const UndoRecord& undo, bool need_entry,
                    Entry& out) const {
    if (kept_material(m, undo)) {
      out = Entry::of(member, after.side_to_move(), need_entry ? members_[member]->index(after) : 0);
      return true;
    }
    // The members of a component have the same number of units, so a capture leaves it;
    // so does any change of material out of a component of one material.
    if (!undo.captured.empty() || members_.size() == 1) return false;
    return locate(after, out);
  }

  // Whether some locate() found a member of the other orientation (a move into a member
  // stored with colours exchanged).
  bool flips_seen() const { return flips_seen_.load(std::memory_order_relaxed); }

 private:
  const std::vector<const Indexer*>& members_;
  mutable std::atomic<bool> flips_seen_{false};
};

}  // namespace feerie
