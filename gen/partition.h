// One table spread over several processes (the MPI issue, docs/scale.md): which entries
// each process owns, and the few collective operations the solver and the writer need,
// behind an interface so that the generator library itself does not depend on MPI (the
// MPI implementation is mpi/mpi_partition.h; one process alone is SingleProcess).
//
// Ownership. Every member table of a component is cut, for both sides to move alike,
// into P contiguous ranges of whole table blocks (DefaultBlockEntries entries, the unit
// of the file format): process r owns blocks [floor(r B / P), floor((r + 1) B / P)) of a
// table of B blocks. A process holds only the values of its ranges; a small table may
// leave a process nothing to own. Every process computes every range from the sizes
// alone, so an entry's owner is known without asking.
//
// Collectives. Every process must call the same collective operations in the same
// order (as MPI requires); the solver calls them at the same points of every pass.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/expected.h"

namespace feerie {

// The entries [first, end) of one table that one process owns.
struct OwnedRange {
  std::uint64_t first = 0, end = 0;
  std::uint64_t size() const { return end - first; }
  bool contains(std::uint64_t index) const { return index - first < end - first; }
};

// The range process `rank` of `ranks` owns in a table of `entries` entries per side.
OwnedRange owned_range(std::uint64_t entries, int rank, int ranks);
// The process that owns `index` in a table of `entries` entries per side.
int owner_of(std::uint64_t index, std::uint64_t entries, int ranks);

class Partition {
 public:
  virtual ~Partition() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  // The processes of the job running on this process's machine (itself included): they
  // share its memory.
  virtual int ranks_on_this_node() const { return 1; }

  // All-to-all: `outgoing` holds the words for process 0, then those for process 1, ...,
  // counts[r] of them for process r (counts has ranks() entries); returns what every
  // process sent to this one, in the order of the senders' ranks. Taken by value, so
  // that its memory is released once sent. At most 2^31 - 1 words out and in.
  virtual Expected<std::vector<std::uint64_t>> exchange(std::vector<std::uint64_t> outgoing,
                                                        const std::vector<std::uint64_t>& counts) = 0;
  // Element-wise maximum and sum over all processes, in place.
  virtual Status max(std::vector<std::int64_t>& values) = 0;
  virtual Status sum(std::vector<std::uint64_t>& values) = 0;
  // The `mine` of every process, by rank.
  virtual Expected<std::vector<std::string>> all_gather(const std::string& mine) = 0;
  // Writes this process's pieces (offset in the file, bytes) into the file at `path`,
  // which every process opens together (created if missing), then closes it after
  // flushing it to the disk. Pieces of different processes must not overlap. By default
  // with the system's file calls (pwrite, fsync), for processes of one machine or a shared
  // file system; returns when this process's pieces are on the disk.
  virtual Status write_pieces(const std::string& path,
                              const std::vector<std::pair<std::uint64_t, std::string_view>>& pieces);

  // Whether any process says `mine` (the maximum of one flag).
  Expected<bool> any(bool mine);
};

// A failure as one process tells the others (through all_gather): "" for none.
std::string failure_text(const Error* failure);
// The failures the processes told (failure_text, by rank) as one error, the same in every
// process; nullopt when none failed. The message alone when process 0 failed and every
// failing process failed alike, else each failing process's, named ("process 1: ...");
// the kind of the first that failed for a reason of its own (not an internal consequence
// of another's failure).
std::optional<Error> job_failure(const std::vector<std::string>& told);

// Process 0 creates the file at `path` (the same path in every process), then every other
// process opens it for writing, as the writers of a spread table do. Collective. Fails,
// alike in every process and naming each process that failed, when one does not see the
// file (another mount of the directory, a stale network cache: the writers' collective
// open once waited for ever) or may not write it (a read-only view). Process 0 removes the
// file when the check fails; `keep` false: when it passes too.
Status every_process_opens(Partition& partition, const std::string& path, bool keep);

// One process owning everything; its collectives are the identity.
class SingleProcess final : public Partition {
 public:
  int rank() const override { return 0; }
  int ranks() const override { return 1; }
  Expected<std::vector<std::uint64_t>> exchange(std::vector<std::uint64_t> outgoing,
                                                const std::vector<std::uint64_t>&) override {
    return outgoing;
  }
  Status max(std::vector<std::int64_t>&) override { return Ok{}; }
  Status sum(std::vector<std::uint64_t>&) override { return Ok{}; }
  Expected<std::vector<std::string>> all_gather(const std::string& mine) override { return std::vector{mine}; }
};

}  // namespace feerie
