// The Partition of gen/partition.h over MPI processes (Open MPI, run with mpirun): one
// process per rank of MPI_COMM_WORLD. Only the main thread of each process calls MPI
// (MPI_THREAD_FUNNELED): the solver's OpenMP threads fill buffers, the main thread
// exchanges them between passes.
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gen/partition.h"

namespace feerie {

class MpiPartition final : public Partition {
 public:
  // Initialises MPI (once per process) and finalises it when the last partition goes.
  // Errors: MPI cannot start, or gives less than funnelled thread support.
  static Expected<std::unique_ptr<MpiPartition>> start();
  ~MpiPartition() override;

  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }
  int ranks_on_this_node() const override { return ranks_on_node_; }
  Expected<std::vector<std::uint64_t>> exchange(std::vector<std::uint64_t> outgoing,
                                                const std::vector<std::uint64_t>& counts) override;
  Status max(std::vector<std::int64_t>& values) override;
  Status sum(std::vector<std::uint64_t>& values) override;
  Expected<std::vector<std::string>> all_gather(const std::string& mine) override;
  Status write_pieces(const std::string& path,
                      const std::vector<std::pair<std::uint64_t, std::string_view>>& pieces) override;

  // Stops every process of the job at once (MPI_Abort): for a failure one process cannot
  // tell the others about.
  [[noreturn]] void abort(int exit_code);

  // Every process's `mine` (the first 16 KiB of it), by rank, when every process comes to
  // give its own within `seconds`; nullopt when one does not (it is waiting in a collective
  // of the job, or gone). On a communicator of its own, so that it never matches a
  // collective another process is still waiting in.
  std::optional<std::vector<std::string>> gather_within(const std::string& mine, double seconds);

 private:
  MpiPartition(int rank, int ranks, int ranks_on_node, MPI_Comm reports)
      : rank_(rank), ranks_(ranks), ranks_on_node_(ranks_on_node), reports_(reports) {}
  int rank_ = 0, ranks_ = 1, ranks_on_node_ = 1;
  MPI_Comm reports_;  // gather_within's
};

}  // namespace feerie
