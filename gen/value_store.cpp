#include "gen/value_store.h"

namespace feerie {

ValueStore::ValueStore(const std::vector<std::uint64_t>& sizes, int rank, int ranks, int threads)
    : sizes_(sizes), ranks_(ranks), threads_(threads), values_(sizes.size()), block_min_(sizes.size()) {
  for (std::size_t m = 0; m < sizes_.size(); ++m) {
    ranges_.push_back(owned_range(sizes_[m], rank, ranks));
    for (int side = 0; side < 2; ++side) {
      values_[m][side].assign(ranges_[m].size(), value::Unknown);
      block_min_[m][side].assign((ranges_[m].size() + BlockSize - 1) / BlockSize, NoMate);
      const std::size_t table = 2 * m + std::size_t(side);
      value_tables_[table] = std::uintptr_t(values_[m][side].data()) - ranges_[m].first * sizeof(ValueCode);
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
}

std::vector<std::uint64_t> ValueStore::resolved() const {
  std::vector<std::uint64_t> by_member(sizes_.size(), 0);
  for (const Counter& thread : resolved_)
    for (std::size_t m = 0; m < sizes_.size(); ++m) by_member[m] += thread.count[m];
  return by_member;
}

void ValueStore::reset_resolved() {
  for (Counter& thread : resolved_) thread.count.fill(0);
}

std::uint64_t ValueStore::count_decided() const {
  std::uint64_t decided = 0;
  for (const MemberValues& member : values_)
    for (const std::vector<ValueCode>& side : member) {
      const std::int64_t size = std::int64_t(side.size());
#pragma omp parallel for schedule(static) num_threads(threads_) reduction(+ : decided)
      for (std::int64_t i = 0; i < size; ++i) decided += !value::is_open(side[std::size_t(i)]);
    }
  return decided;
}

void ValueStore::rebuild_block_minima(int next_ply) {
  const ValueCode first = value::mate_in_plies(next_ply);
  for (int side = 0; side < 2; ++side)
    for (std::size_t member = 0; member < sizes_.size(); ++member) {
      const std::vector<ValueCode>& values = values_[member][side];
      std::vector<ValueCode>& mins = block_min_[member][side];
      const std::int64_t blocks = std::int64_t(mins.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (std::int64_t b = 0; b < blocks; ++b) {
        ValueCode least = NoMate;
        const std::size_t end = std::min(values.size(), std::size_t(b + 1) * BlockSize);
        for (std::size_t i = std::size_t(b) * BlockSize; i < end; ++i)
          if (value::is_mate(values[i]) && values[i] >= first) least = std::min(least, values[i]);
        mins[std::size_t(b)] = least;
      }
    }
}

void ValueStore::settle_open_as_draws() {
  for_all_entries([&](int member, int side, std::uint64_t i) {
    const Entry e = Entry::of(member, side, i);
    if (value::is_open(load(e))) store(e, value::Draw);
  });
}

}  // namespace feerie
