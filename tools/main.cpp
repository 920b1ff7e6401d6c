// The `feerie` command-line program: parses arguments, calls the libraries, prints, and
// chooses exit codes (0 success; otherwise by the kind of failure, feerie::cli::exit_code()).
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <new>

#include "feerie/feerie.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "tools/cli.h"

namespace {

// The exit code once the command has run: output that could not be written (a full disk
// behind `> out.json`) is an I/O error, not a success, so standard output is flushed and
// asked before exiting. A command that failed keeps its own code.
int finish(int code) {
  errno = 0;
  std::cout.flush();
  if (std::cout) return code;
  int error = errno;
  // Output that failed long before the end (mine, probe) left no errno by now; a file
  // system with no room left is the usual reason, and can still be seen.
  struct statvfs room {};
  if (!error && fstatvfs(STDOUT_FILENO, &room) == 0 && room.f_blocks > 0 && room.f_bavail == 0) error = ENOSPC;
  std::cerr << "feerie: cannot write to standard output"
            << (error ? std::string(" (") + std::strerror(error) + ")" : "") << "\n";
  return code ? code : feerie::cli::exit_code(feerie::ErrorKind::IOError);
}

// The command line parsed and run; its exit code.
int run(int argc, char** argv) {
  CLI::App app{"Feerie: retrograde tablebases for fairy-chess endgames"};
  app.require_subcommand(1);
  // The program's version, the C API's (CMake's project version); table files name their
  // writer apart (TableHeader::generator), as that text is part of every file's bytes.
  app.set_version_flag("--version", std::string("feerie ") + feerie_version());
  feerie::cli::add_moves_command(app);
  feerie::cli::add_perft_command(app);
  feerie::cli::add_play_command(app);
  feerie::cli::add_gen_command(app);
  feerie::cli::add_probe_command(app);
  feerie::cli::add_stat_command(app);
  feerie::cli::add_verify_command(app);
  feerie::cli::add_check_command(app);
  feerie::cli::add_mine_command(app);
  feerie::cli::add_bench_command(app);
  feerie::cli::add_diagram_command(app);
  feerie::cli::add_serve_command(app);
  // CLI11 answers --version before it sees what follows: `feerie --version junk` printed the
  // version and succeeded.
  if (argc > 2 && std::string(argv[1]) == "--version") {
    std::cerr << "feerie: --version takes nothing after it (not '" << argv[2] << "')\n";
    return 2;
  }
  const bool names_a_command = argc > 1 && argv[1][0] != '-';
  if (names_a_command) {
    std::string known;
    bool found = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known += (known.empty() ? "" : ", ") + sub->get_name();
      found = found || sub->get_name() == argv[1];
    }
    if (!found) {
      std::cerr << "feerie: unknown command '" << argv[1] << "' (known: " << known << ")\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --help-all, --version: CLI11 prints them
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // The help of the subcommand that was being parsed, where its options are listed.
    // Every process of an MPI job parses the same arguments: process 0 says what is wrong.
    const std::string where = names_a_command ? std::string(" ") + argv[1] : "";
    if (feerie::cli::launcher_place().rank == 0)
      std::cerr << "feerie: " << e.what() << " (see feerie" << where << " --help)\n";
    return 2;
  } catch (const feerie::cli::CommandError& e) {
    feerie::cli::clear_progress();  // the error on a line of its own, not after a progress line
    // Before an MPI job starts, every process of it meets an error in the arguments alike
    // (they all parse the same ones): process 0 says it (each process said it). Other
    // errors may be one process's own (what it sees of the disk): each says its own.
    const bool said_by_process_0 = e.kind == feerie::ErrorKind::InvalidArgument && !feerie::cli::mpi_job_started() &&
                                   feerie::cli::launcher_place().rank != 0;
    if (!e.reported && !said_by_process_0) std::cerr << "feerie: " << e.what() << "\n";
    return feerie::cli::exit_code(e.kind);
  } catch (const std::bad_alloc&) {
    // A resource limit (exit 7), not a fault of the program: the machine or the process's
    // limits gave no more memory.
    feerie::cli::clear_progress();
    std::cerr << "feerie: out of memory (the machine, or this process's limits, gave no more)\n";
    return feerie::cli::exit_code(feerie::ErrorKind::ResourceLimit);
  } catch (const std::exception& e) {
    feerie::cli::clear_progress();
    std::cerr << "feerie: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return finish(run(argc, argv)); }
