// The MPI job of `feerie gen --mpi` and `feerie verify --mpi` (mpi/mpi_partition.h), or a
// clear refusal when feerie was built without MPI.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/cli.h"
#ifdef FEERIE_HAVE_MPI
#include "mpi/mpi_partition.h"
#endif

namespace feerie::cli {

#ifdef FEERIE_HAVE_MPI
namespace {
// Finalised when the program ends, after every command has returned.
std::unique_ptr<MpiPartition>& job() {
  static std::unique_ptr<MpiPartition> partition;
  return partition;
}
}  // namespace

Partition& mpi_partition() {
  if (!job()) job() = take(MpiPartition::start());
  return *job();
}

void abort_mpi_job(ErrorKind kind) {
  if (job()) job()->abort(exit_code(kind));
  std::exit(exit_code(kind));
}

void end_failed_mpi_job(const Error& failure) {
  MpiPartition& partition = *job();
  // Long enough for processes that failed together to come, short beside a job's work.
  constexpr double Seconds = 5;
  const std::optional<std::vector<std::string>> told =
      partition.gather_within(std::to_string(int(failure.kind)) + "\n" + failure.message, Seconds);
  if (!told) {
    std::cerr << "feerie: process " << partition.rank() << " of " << partition.ranks() << ": " << failure.message
              << "\n";
    abort_mpi_job(failure.kind);
  }
  // The job's failure: the message when every process failed alike, else each process's.
  std::vector<Error> failures;
  for (const std::string& t : *told) {
    const std::size_t newline = t.find('\n');
    const int kind = newline == std::string::npos ? 0 : std::atoi(t.substr(0, newline).c_str());
    failures.push_back(Error{ErrorKind(kind), newline == std::string::npos ? t : t.substr(newline + 1)});
  }
  const bool alike = std::all_of(failures.begin(), failures.end(), [&](const Error& e) {
    return e.message == failures.front().message && e.kind == failures.front().kind;
  });
  Error job_failure = failures.front();
  if (!alike) {
    job_failure.message.clear();
    for (std::size_t r = 0; r < failures.size(); ++r)
      job_failure.message += (r ? "; " : "") + ("process " + std::to_string(r) + ": ") + failures[r].message;
    // The kind of the first process that failed for a reason of its own (the others fail
    // as an internal consequence).
    for (const Error& e : failures)
      if (e.kind != ErrorKind::Internal) {
        job_failure.kind = e.kind;
        break;
      }
  }
  CommandError e(job_failure);
  e.reported = partition.rank() != 0;
  throw e;
}
#else
Partition& mpi_partition() {
  throw CommandError("this feerie was built without MPI (install libopenmpi-dev and build again: scripts/setup.sh)",
                     ErrorKind::NotSupported);
}

void abort_mpi_job(ErrorKind kind) { std::exit(exit_code(kind)); }

void end_failed_mpi_job(const Error& failure) { throw CommandError(failure); }
#endif

}  // namespace feerie::cli
