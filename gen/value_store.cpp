#include "gen/value_store.h"

#include <algorithm>

namespace feerie {

ValueStore::ValueStore(const std::vector<std::uint64_t>& sizes, int rank, int ranks, int threads, int narrow_max_plies)
    : sizes_(sizes),
      ranks_(ranks),
      threads_(threads),
      values_(sizes.size()),
      block_min_(sizes.size()),
      narrow_max_code_(value::mate_in_plies(std::clamp(narrow_max_plies, 0, narrow::MaxPlies))) {
  for (std::size_t m = 0; m < sizes_.size(); ++m) {
    ranges_.push_back(owned_range(sizes_[m], rank, ranks));
    for (int side = 0; side < 2; ++side) {
      values_[m][side] = ValueArray(ranges_[m].size());
      block_min_[m][side].assign((ranges_[m].size() + BlockSize - 1) / BlockSize, NoMate);
      const std::size_t table = 2 * m + std::size_t(side);
      block_min_tables_[table] =
          std::uintptr_t(block_min_[m][side].data()) - ranges_[m].first / BlockSize * sizeof(ValueCode);
      first_[table] = ranges_[m].first;
      owned_[table] = ranges_[m].size();
    }
    // The chunks of ChunkBlocks blocks the largest own range of any process holds.
    std::int64_t steps = 0;
    for (int r = 0; r < ranks; ++r) {
      const std::int64_t blocks = std::int64_t((owned_range(sizes_[m], r, ranks).size() + BlockSize - 1) / BlockSize);
      steps = std::max(steps, (blocks + ChunkBlocks - 1) / ChunkBlocks);
    }
    scan_steps_.push_back(steps);
  }
  if (narrow_max_plies < 0) widen();
  locate_arrays();
}

void ValueStore::locate_arrays() {
  const std::uintptr_t width = wide_ ? sizeof(ValueCode) : 1;
  for (std::size_t m = 0; m < sizes_.size(); ++m)
    for (int side = 0; side < 2; ++side) {
      const ValueArray& values = values_[m][side];
      const std::uintptr_t data = wide_ ? std::uintptr_t(values.words()) : std::uintptr_t(values.narrow_data());
      value_tables_[2 * m + std::size_t(side)] = data - ranges_[m].first * width;
      high_tables_[2 * m + std::size_t(side)] = extended_ ? values.high_words() : nullptr;
    }
}

void ValueStore::widen() {
  if (wide_) return;
  for (MemberValues& member : values_)
    for (ValueArray& side : member) side.widen();
  wide_ = true;
  extended_ = false;
  locate_arrays();
}

void ValueStore::extend() {
  if (wide_ || extended_) return;
  for (MemberValues& member : values_)
    for (ValueArray& side : member)
      if (!side.extended()) side.extend(high_offset());
  extended_ = true;
  locate_arrays();
}

void ValueStore::hold_mates_up_to(int plies) {
  if (wide_ || plies <= narrow_max_plies()) return;
  if (plies <= high_offset() + narrow::MaxPlies)
    extend();
  else
    widen();
}

bool ValueStore::settle_overflow() {
  bool any = false, all_fit_extended = !wide_;
  std::uint8_t b;
  for (const Overflow& thread : overflow_) {
    any = any || !thread.list.empty();
    for (const auto& [e, v] : thread.list)
      all_fit_extended = all_fit_extended && narrow::encode_high(v, high_offset(), b);
  }
  if (!any) return false;
  const bool changed = !wide_ && !(all_fit_extended && extended_);
  if (all_fit_extended)
    extend();
  else
    widen();
  // Stored again: the block minima, the longest mate and the counts already have them.
  for (Overflow& thread : overflow_) {
    for (const auto& [e, v] : thread.list) {
      if (wide_)
        std::atomic_ref<ValueCode>(*wide_slot(e)).store(v, std::memory_order_relaxed);
      else if (narrow::encode_high(v, high_offset(), b))  // fits: checked above
        store_long_mate(e, b);
    }
    thread.list = {};
  }
  return changed;
}

void ValueStore::adopt_filled_values() {
  bool any_wide = false, any_extended = false, offsets_agree = true;
  for (const MemberValues& member : values_)
    for (const ValueArray& side : member) {
      any_wide = any_wide || side.wide();
      any_extended = any_extended || side.extended();
      offsets_agree = offsets_agree && (!side.extended() || side.high_offset() == high_offset());
    }
  // The arrays already wide (or extended) stay as they are.
  if (any_wide || !offsets_agree)
    widen();
  else if (any_extended)
    extend();
  locate_arrays();
}

std::vector<std::uint64_t> ValueStore::resolved() const {
  std::vector<std::uint64_t> by_member(sizes_.size(), 0);
  for (const Counter& thread : resolved_)
    for (std::size_t m = 0; m < sizes_.size(); ++m) by_member[m] += thread.count[m];
  return by_member;
}

std::uint64_t ValueStore::losses(int side, int plies) const {
  if (plies < 0 || plies >= CountedLossPlies || plies % 2) return 0;
  std::uint64_t n = 0;
  for (const LossCounter& thread : losses_) n += thread.count[std::size_t(side)][std::size_t(plies / 2)];
  return n;
}

void ValueStore::reset_resolved() {
  for (Counter& thread : resolved_) thread.count.fill(0);
}

std::uint64_t ValueStore::count_decided() const {
  std::uint64_t decided = 0;
  for (const MemberValues& member : values_)
    for (const ValueArray& side : member) {
      const std::int64_t size = std::int64_t(side.size());
#pragma omp parallel for schedule(static) num_threads(threads_) reduction(+ : decided)
      for (std::int64_t i = 0; i < size; ++i) decided += !value::is_open(side.at(std::uint64_t(i)));
    }
  return decided;
}

void ValueStore::rebuild_block_minima(int next_ply) {
  const ValueCode first = value::mate_in_plies(next_ply);
  for (LossCounter& thread : losses_) thread = {};
  for (int side = 0; side < 2; ++side)
    for (std::size_t member = 0; member < sizes_.size(); ++member) {
      const ValueArray& values = values_[member][side];
      std::vector<ValueCode>& mins = block_min_[member][side];
      const std::int64_t blocks = std::int64_t(mins.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (std::int64_t b = 0; b < blocks; ++b) {
        ValueCode least = NoMate;
        const std::size_t end = std::min(values.size(), std::size_t(b + 1) * BlockSize);
        for (std::size_t i = std::size_t(b) * BlockSize; i < end; ++i) {
          const ValueCode v = values.at(i);
          if (value::is_mate(v) && v >= first) least = std::min(least, v);
          if (value::is_loss(v) && value::plies(v) < CountedLossPlies)
            ++thread_losses().count[std::size_t(side)][std::size_t(value::plies(v) / 2)];
        }
        mins[std::size_t(b)] = least;
      }
    }
}

std::uint64_t ValueStore::count_entries_above(int side, ValueCode code) {
  if (wide_ || extended_ || code > narrow_max_code_) return for_entries_above(side, code, [](int, std::uint64_t) {});
  std::uint64_t count = 0;
  for (std::size_t member = 0; member < sizes_.size(); ++member) {
    const std::uint8_t* bytes = values_[member][std::size_t(side)].narrow_data();
    const std::int64_t size = std::int64_t(ranges_[member].size()), blocks = (size + BlockSize - 1) / BlockSize;
#pragma omp parallel for schedule(static) num_threads(threads_) reduction(+ : count)
    for (std::int64_t b = 0; b < blocks; ++b)
      count += count_narrow_above(bytes, std::uint64_t(b) * BlockSize,
                                  std::min(std::uint64_t(size), std::uint64_t(b + 1) * BlockSize), code);
  }
  return count;
}

void ValueStore::settle_open_as_draws() {
  if (!wide_) {
    // Byte by byte, which the compiler vectorises: an open byte is at or above
    // narrow::OpenBase, extended or not (a long mate's byte is below it), and a draw needs
    // no high bit, no block minimum and no count (store() of a draw does just this).
    constexpr std::uint8_t draw = std::uint8_t(value::Draw);
    static_assert(narrow::decode(draw) == value::Draw);
    for (MemberValues& member : values_)
      for (ValueArray& side : member) {
        std::uint8_t* bytes = side.narrow_data();
        const std::int64_t size = std::int64_t(side.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t i = 0; i < size; ++i) bytes[i] = bytes[i] >= narrow::OpenBase ? draw : bytes[i];
      }
    return;
  }
  for_all_entries(
      [&](int member, int side, std::uint64_t i) {
        const Entry e = Entry::of(member, side, i);
        if (value::is_open(load(e))) store(e, value::Draw);
      },
      [](std::uint64_t, std::uint64_t) {});
}

}  // namespace feerie
