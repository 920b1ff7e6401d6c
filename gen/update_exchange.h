// The updates a spread solve sends between processes (docs/scale.md): a pass that
// reaches an entry another process owns buffers the update here, per thread and owner,
// and the processes swap their buffers when one of them holds too many and at the end
// of the pass. The pass says what an update means (a win offered, a successor taken), so
// only the entry travels. The one part of the solver that knows there are processes.
#pragma once

#include <omp.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "gen/entry.h"
#include "gen/partition.h"
#include "rules/expected.h"

namespace feerie {

class UpdateExchange {
 public:
  // `limit`: the buffered updates (in the fullest process) above which full() says so.
  UpdateExchange(Partition& partition, int threads, std::uint64_t limit);

  // Buffers an update of `e` for its owner; from any thread of the OpenMP team.
  void send(Entry e, int owner) { outbox_[std::size_t(omp_get_thread_num())][std::size_t(owner)].push_back(e.code); }
  // Whether some process buffers more than the limit. Collective.
  Expected<bool> full();
  // Sends every buffered update to its owner; returns the updates the processes sent
  // this one (Entry codes), in the order of their ranks. Collective.
  Expected<std::vector<std::uint64_t>> swap();
  // The updates this process sent since the last call.
  std::uint64_t take_sent() { return std::exchange(sent_, 0); }

 private:
  Partition& partition_;
  const std::uint64_t limit_;
  std::vector<std::vector<std::vector<std::uint64_t>>> outbox_;  // [thread][owner]
  std::uint64_t sent_ = 0;
};

}  // namespace feerie
