// The MPI job of `feerie gen --mpi` and `feerie verify --mpi` (mpi/mpi_partition.h), or a
// clear refusal when feerie was built without MPI.
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

bool mpi_job_started() { return job() != nullptr; }

void abort_mpi_job(ErrorKind kind) {
  if (job()) job()->abort(exit_code(kind));
  std::exit(exit_code(kind));
}

void end_failed_mpi_job(const Error& failure) {
  MpiPartition& partition = *job();
  // Long enough for processes that failed together to come, short beside a job's work.
  constexpr double Seconds = 5;
  const std::optional<std::vector<std::string>> told = partition.gather_within(failure_text(&failure), Seconds);
  if (!told) {
    std::cerr << "feerie: process " << partition.rank() << " of " << partition.ranks() << ": " << failure.message
              << "\n";
    abort_mpi_job(failure.kind);
  }
  // Every process failed: the job's failure is process 0's words when all failed alike.
  const Error job_failure = *feerie::job_failure(*told);
  if (partition.rank() == 0) std::cerr << "feerie: " << job_failure.message << std::endl;
  // The others wait until process 0 has said it: the launcher stops the whole job when the
  // first process ends with a failure, and once killed process 0 before it spoke.
  partition.gather_within("", Seconds);
  CommandError e(job_failure);
  e.reported = true;
  throw e;
}
#else
Partition& mpi_partition() {
  throw CommandError("this feerie was built without MPI (install libopenmpi-dev and build again: scripts/setup.sh)",
                     ErrorKind::NotSupported);
}

bool mpi_job_started() { return false; }

void abort_mpi_job(ErrorKind kind) { std::exit(exit_code(kind)); }

void end_failed_mpi_job(const Error& failure) { throw CommandError(failure); }
#endif

}  // namespace feerie::cli
