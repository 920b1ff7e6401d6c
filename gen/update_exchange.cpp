#include "gen/update_exchange.h"

#include <utility>

namespace feerie {

UpdateExchange::UpdateExchange(Partition& partition, int threads, std::uint64_t limit)
    : partition_(partition),
      limit_(limit),
      outbox_(std::size_t(threads), std::vector<std::vector<std::uint64_t>>(std::size_t(partition.ranks()))) {}

Expected<bool> UpdateExchange::full() {
  std::vector<std::int64_t> buffered{0};
  for (const auto& thread : outbox_)
    for (const auto& list : thread) buffered[0] += std::int64_t(list.size());
  if (Status s = partition_.max(buffered); !s) return s.error();
  return std::uint64_t(buffered[0]) > limit_;
}

Expected<std::vector<std::uint64_t>> UpdateExchange::swap() {
  const int ranks = partition_.ranks();
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(ranks)), outgoing;
  for (const auto& thread : outbox_)
    for (int r = 0; r < ranks; ++r) counts[std::size_t(r)] += thread[std::size_t(r)].size();
  std::uint64_t total = 0;
  for (std::uint64_t c : counts) total += c;
  sent_ += total;
  outgoing.reserve(total);
  for (int r = 0; r < ranks; ++r)
    for (auto& thread : outbox_) {
      outgoing.insert(outgoing.end(), thread[std::size_t(r)].begin(), thread[std::size_t(r)].end());
      thread[std::size_t(r)] = {};  // its memory back at once
    }
  return partition_.exchange(std::move(outgoing), counts);
}

}  // namespace feerie
