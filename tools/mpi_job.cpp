// The MPI job of `feerie gen --mpi` and `feerie verify --mpi` (mpi/mpi_partition.h), or a
// clear refusal when feerie was built without MPI.
#include <memory>

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
#else
Partition& mpi_partition() {
  throw CommandError("this feerie was built without MPI (install libopenmpi-dev and build again: scripts/setup.sh)",
                     ErrorKind::NotSupported);
}

void abort_mpi_job(ErrorKind kind) { std::exit(exit_code(kind)); }
#endif

}  // namespace feerie::cli
