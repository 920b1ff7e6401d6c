#include "mpi/mpi_partition.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <thread>

namespace feerie {

namespace {

Error mpi_error(const std::string& what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return error(ErrorKind::IOError, what + ": " + std::string(text, std::size_t(length)));
}

// MPI counts are ints: larger transfers go in pieces of at most this many elements.
constexpr std::size_t MaxCount = std::size_t(1) << 30;

// Waits for a non-blocking collective. Open MPI's blocking ones poll at full speed: the
// processes waiting while process 0 waited for another job's lock took 39% of a core
// each. Polled without pause for a millisecond (the waits between passes are mostly
// shorter), then with pauses growing to 10 ms.
// With `limit`, gives up after it (MPI_ERR_PENDING, the request left as it is).
int wait_politely(MPI_Request& request, std::optional<std::chrono::duration<double>> limit = std::nullopt) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    int done = 0;
    if (int e = MPI_Test(&request, &done, MPI_STATUS_IGNORE)) return e;
    if (done) return MPI_SUCCESS;
    if (limit && Clock::now() - start > *limit) return MPI_ERR_PENDING;
    if (Clock::now() - start < std::chrono::milliseconds(1)) continue;
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(10));
  }
}

// MPI_Allreduce in place, waiting politely.
int all_reduce(void* values, int count, MPI_Datatype type, MPI_Op op) {
  MPI_Request request;
  if (int e = MPI_Iallreduce(MPI_IN_PLACE, values, count, type, op, MPI_COMM_WORLD, &request)) return e;
  return wait_politely(request);
}

}  // namespace

Expected<std::unique_ptr<MpiPartition>> MpiPartition::start() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
      return error(ErrorKind::IOError, "MPI could not start");
    if (provided < MPI_THREAD_FUNNELED)
      return error(ErrorKind::NotSupported, "this MPI library cannot be used with threads (MPI_THREAD_FUNNELED)");
  }
  // Errors come back as codes, to be reported with context, rather than aborting the job.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // The processes that share this machine's memory (MPI-3 shared-memory split).
  int on_node = 1;
  MPI_Comm node;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
    MPI_Comm_size(node, &on_node);
    MPI_Comm_free(&node);
  }
  MPI_Comm reports;
  if (int e = MPI_Comm_dup(MPI_COMM_WORLD, &reports)) return mpi_error("MPI could not start", e);
  return std::unique_ptr<MpiPartition>(new MpiPartition(rank, ranks, std::max(1, on_node), reports));
}

MpiPartition::~MpiPartition() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (finalised) return;
  MPI_Comm_free(&reports_);
  MPI_Finalize();
}

void MpiPartition::abort(int exit_code) {
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::abort();  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

std::optional<std::vector<std::string>> MpiPartition::gather_within(const std::string& mine, double seconds) {
  constexpr std::size_t Width = 16384;
  std::string block = mine.substr(0, Width);
  block.resize(Width, '\0');
  std::string all(Width * std::size_t(ranks_), '\0');
  MPI_Request request;
  if (MPI_Iallgather(block.data(), int(Width), MPI_CHAR, all.data(), int(Width), MPI_CHAR, reports_, &request) !=
      MPI_SUCCESS)
    return std::nullopt;
  // A request given up on is left pending: the job is about to be aborted.
  if (wait_politely(request, std::chrono::duration<double>(seconds)) != MPI_SUCCESS) return std::nullopt;
  std::vector<std::string> out;
  for (int r = 0; r < ranks_; ++r) {
    std::string one = all.substr(std::size_t(r) * Width, Width);
    one.resize(std::min(one.find('\0'), one.size()));
    out.push_back(one);
  }
  return out;
}

Expected<std::vector<std::uint64_t>> MpiPartition::exchange(std::vector<std::uint64_t> outgoing,
                                                            const std::vector<std::uint64_t>& counts) {
  const std::size_t n = static_cast<std::size_t>(ranks_);
  std::vector<int> send_counts(n), receive_counts(n);
  for (std::size_t r = 0; r < n; ++r) {
    if (counts[r] > std::uint64_t(INT_MAX))
      return error(ErrorKind::ResourceLimit, "more than 2^31 updates for one process in one exchange");
    send_counts[r] = int(counts[r]);
  }
  if (int e = MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, MPI_COMM_WORLD))
    return mpi_error("exchanging update counts", e);
  std::vector<int> send_offsets(n), receive_offsets(n);
  std::uint64_t sent = 0, received = 0;
  for (int r = 0; r < ranks_; ++r) {
    send_offsets[std::size_t(r)] = int(sent);
    receive_offsets[std::size_t(r)] = int(received);
    sent += std::uint64_t(send_counts[std::size_t(r)]);
    received += std::uint64_t(receive_counts[std::size_t(r)]);
  }
  if (sent > std::uint64_t(INT_MAX) || received > std::uint64_t(INT_MAX))
    return error(ErrorKind::ResourceLimit, "more than 2^31 updates in one exchange (lower the exchange limit)");
  if (sent != outgoing.size()) return error(ErrorKind::Internal, "update counts do not add up");
  std::vector<std::uint64_t> receive_buffer(received);
  if (int e =
          MPI_Alltoallv(outgoing.data(), send_counts.data(), send_offsets.data(), MPI_UINT64_T, receive_buffer.data(),
                        receive_counts.data(), receive_offsets.data(), MPI_UINT64_T, MPI_COMM_WORLD))
    return mpi_error("exchanging updates", e);
  return receive_buffer;
}

Status MpiPartition::max(std::vector<std::int64_t>& values) {
  if (int e = all_reduce(values.data(), int(values.size()), MPI_INT64_T, MPI_MAX))
    return mpi_error("reducing (maximum)", e);
  return Ok{};
}

Status MpiPartition::sum(std::vector<std::uint64_t>& values) {
  if (int e = all_reduce(values.data(), int(values.size()), MPI_UINT64_T, MPI_SUM))
    return mpi_error("reducing (sum)", e);
  return Ok{};
}

Expected<std::vector<std::string>> MpiPartition::all_gather(const std::string& mine) {
  if (mine.size() > std::size_t(INT_MAX)) return error(ErrorKind::ResourceLimit, "more than 2 GB to gather");
  std::vector<int> sizes(static_cast<std::size_t>(ranks_));
  int size = int(mine.size());
  if (int e = MPI_Allgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD))
    return mpi_error("gathering sizes", e);
  std::vector<int> offsets(static_cast<std::size_t>(ranks_));
  std::uint64_t total = 0;
  for (int r = 0; r < ranks_; ++r) {
    offsets[std::size_t(r)] = int(total);
    total += std::uint64_t(sizes[std::size_t(r)]);
  }
  if (total > std::uint64_t(INT_MAX)) return error(ErrorKind::ResourceLimit, "more than 2 GB to gather");
  std::string all(total, '\0');
  if (int e = MPI_Allgatherv(mine.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR,
                             MPI_COMM_WORLD))
    return mpi_error("gathering", e);
  std::vector<std::string> out;
  for (int r = 0; r < ranks_; ++r)
    out.push_back(all.substr(std::size_t(offsets[std::size_t(r)]), std::size_t(sizes[std::size_t(r)])));
  return out;
}

Status MpiPartition::write_pieces(const std::string& path,
                                  const std::vector<std::pair<std::uint64_t, std::string_view>>& pieces) {
  MPI_File file;
  if (int e = MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &file))
    return mpi_error("cannot write '" + path + "'", e);
  int failure = MPI_SUCCESS;
  // Open MPI 4.1 returns MPI_SUCCESS from a write the disk had no room for: the bytes
  // written, from the status, are what says it (a full disk once gave a table with holes
  // and exit 0).
  std::string short_write;
  for (const auto& [offset, bytes] : pieces)
    for (std::size_t done = 0; done < bytes.size() && failure == MPI_SUCCESS && short_write.empty();) {
      const std::size_t count = std::min(MaxCount, bytes.size() - done);
      MPI_Status status;
      failure = MPI_File_write_at(file, MPI_Offset(offset + done), bytes.data() + done, int(count), MPI_BYTE, &status);
      int written = 0;
      if (failure == MPI_SUCCESS && (MPI_Get_count(&status, MPI_BYTE, &written) != MPI_SUCCESS ||
                                     written == MPI_UNDEFINED || std::size_t(written) != count))
        short_write = "wrote " + std::to_string(written < 0 ? 0 : written) + " of " + std::to_string(count) +
                      " bytes at offset " + std::to_string(offset + done) + " (is the disk full?)";
      done += count;
    }
  // Collective, so every process reaches them even after its own failure.
  const int synced = MPI_File_sync(file);
  const int closed = MPI_File_close(&file);
  if (failure != MPI_SUCCESS) return mpi_error("cannot write '" + path + "'", failure);
  if (!short_write.empty()) return error(ErrorKind::IOError, "cannot write '" + path + "': " + short_write);
  if (synced != MPI_SUCCESS) return mpi_error("cannot write '" + path + "' (sync)", synced);
  if (closed != MPI_SUCCESS) return mpi_error("cannot write '" + path + "' (close)", closed);
  return Ok{};
}

}  // namespace feerie
