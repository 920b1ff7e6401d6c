// The helpers of tools/cli.h that every command shares: conditions and positions from
// the user's text, and exit codes.
#include "tools/cli.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <thread>

#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie::cli {

RuleSet parse_condition(const std::string& name) { return take(RuleSet::parse(name)); }

void clear_progress() {
  if (isatty(STDERR_FILENO)) std::cerr << "\r\033[K" << std::flush;
}

void on_interrupt(std::function<void(int signal)> on_signal) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread([signals, on_signal = std::move(on_signal)] {
    int signal = 0;
    if (sigwait(&signals, &signal) == 0) on_signal(signal);
  }).detach();
}

void require_tables_directory(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw CommandError("the tables directory '" + dir + "' " +
                           (std::filesystem::exists(dir, ec) ? "is not a directory" : "does not exist"),
                       ErrorKind::InvalidArgument);
}

int exit_code(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Internal:
      return 1;
    case ErrorKind::InvalidArgument:
      return 2;
    case ErrorKind::NotFound:
      return 3;
    case ErrorKind::Corruption:
      return 4;
    case ErrorKind::IOError:
      return 5;
    case ErrorKind::NotSupported:
      return 6;
    case ErrorKind::ResourceLimit:
      return 7;
    case ErrorKind::Interrupted:
      return 130;
    case ErrorKind::ConditionMismatch:
      return 8;
  }
  return 1;
}

Position parse_position(const std::string& fen, const RuleSet& rules) { return take(parse_legal_position(fen, rules)); }

std::string join_fen_fields(const std::vector<std::string>& fen_fields) {
  std::string fen;
  for (const std::string& f : fen_fields) fen += (fen.empty() ? "" : " ") + f;
  return fen;
}

Position parse_position(const std::vector<std::string>& fen_fields, const RuleSet& rules) {
  return parse_position(join_fen_fields(fen_fields), rules);
}

LauncherPlace launcher_place() {
  LauncherPlace place;
  const auto number = [](std::initializer_list<const char*> names) -> std::optional<int> {
    for (const char* name : names)
      if (const char* value = std::getenv(name)) return std::atoi(value);
    return std::nullopt;
  };
  if (std::optional<int> rank = number({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})) place.rank = *rank;
  if (std::optional<int> size = number({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})) place.size = std::max(*size, 1);
  return place;
}

void refuse_several_processes_without_mpi(const std::string& command) {
  const LauncherPlace place = launcher_place();
  if (place.size <= 1) return;
  // An error in the arguments before MPI starts: main() has process 0 alone say it.
  throw CommandError(command + " was started as " + std::to_string(place.size) +
                         " processes without --mpi: each would do the whole job alone; add --mpi to spread it, or "
                         "start one process",
                     ErrorKind::InvalidArgument);
}

}  // namespace feerie::cli
