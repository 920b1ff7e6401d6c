# Sourced by the scripts of tests/mpi after they set `work`: lets mpirun run as root (CI
# containers run as root), names the launcher ($MPIRUN, default mpirun) and starts from an
# empty work directory.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=${MPIRUN:-mpirun}
rm -rf "$work"
mkdir -p "$work"
