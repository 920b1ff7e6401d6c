// Shared plumbing of the `feerie` subcommands: each registers itself on the CLI11 app and
// reports failure by throwing CommandError, which main() prints as one line.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "rules/expected.h"
#include "rules/position.h"
#include "rules/ruleset.h"
#include "rules/text.h"

namespace feerie::cli {

// A failed command: its one-line reason and the kind of failure, which chooses the exit
// code (exit_code(); the table is in docs/cli.md).
struct CommandError : std::runtime_error {
  explicit CommandError(const std::string& message, ErrorKind kind = ErrorKind::Internal)
      : std::runtime_error(message), kind(kind) {}
  explicit CommandError(const Error& e) : std::runtime_error(e.message), kind(e.kind) {}
  ErrorKind kind;
  // Said already (by process 0 of an MPI job, for all of its processes): only the exit code.
  bool reported = false;
};

// The exit code of a command that failed with `kind`: 1 internal or a check that failed,
// 2 invalid argument or usage, 3 not found, 4 corrupt, 5 I/O error, 6 not supported,
// 7 resource limit, 8 a table built for another condition, 130 interrupted.
int exit_code(ErrorKind kind);

// A CLI11 check for --tables: an empty directory name is refused (it read and wrote the
// current directory's <condition>/ while the messages named no directory at all).
inline std::string refuse_empty_directory(const std::string& value) {
  return value.empty() ? "an empty directory name (the current directory is ./)" : "";
}

// A CLI11 check for an option whose empty value would read as not given (`--mated ""` took
// the default colour).
inline std::string refuse_empty_value(const std::string& value) { return value.empty() ? "an empty value" : ""; }

// Throws InvalidArgument unless `dir` is a directory, saying whether it is missing or a
// file (check and serve, which read an existing tables directory).
void require_tables_directory(const std::string& dir);

// Unwraps an Expected or throws its error as a CommandError.
template <class T>
T take(Expected<T> e) {
  if (!e) throw CommandError(e.error());
  return std::move(e).value();
}

RuleSet parse_condition(const std::string& name);
// A FEN given as one argument or as its fields, joined by spaces.
std::string join_fen_fields(const std::vector<std::string>& fen_fields);
// A FEN given as one argument or as its fields in several arguments; legal under `rules`.
Position parse_position(const std::vector<std::string>& fen_fields, const RuleSet& rules);
Position parse_position(const std::string& fen, const RuleSet& rules);

// An option check built on one number parser: the whole text must be a number (whole
// when `whole`) of at least `least`, else `complaint` + " not '<text>'". CLI11's own
// PositiveNumber and NonNegativeNumber print their range as "0.000000 to 1.79e308"
// (issue 27 G).
inline CLI::Validator number_check(double least, bool whole, std::string complaint, std::string name) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        std::size_t used = 0;
        double n = 0;
        try {
          n = whole ? double(std::stoll(text, &used)) : std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        // Written in digits (and one '.' for a decimal) alone: stod also read "inf", "0x10",
        // "1e-9" and "-0", which no one means for a count or a number of seconds.
        const std::size_t point = text.find('.');
        const bool plain = !text.empty() && text.find_first_not_of(whole ? "0123456789" : "0123456789.") == text.npos &&
                           (point == text.npos || text.find('.', point + 1) == text.npos) && text != ".";
        if (!plain || used == 0 || used != text.size() || !(n >= least)) return complaint + ", not '" + text + "'";
        return {};
      },
      name);
}
// A whole number of at least `least`.
inline CLI::Validator at_least(long long least) {
  return number_check(double(least), true, "must be a whole number of at least " + std::to_string(least),
                      "N>=" + std::to_string(least));
}
// A whole number from `least` to `most` (at most 2^64 - 1), written in digits alone (CLI11
// read "-1" and numbers past 2^64 as 2^64 - 1, so that different seeds gave one sample).
inline CLI::Validator whole_number_in(std::uint64_t least, std::uint64_t most = ~std::uint64_t(0)) {
  const std::string complaint = "must be a whole number from " + std::to_string(least) + " to " + std::to_string(most);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const bool digits = !text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == text.npos;
        // (20 digits may exceed 2^64 - 1 = 18446744073709551615: compared as text.)
        const bool fits = digits && (text.size() < 20 || text <= "18446744073709551615");
        if (!fits || std::stoull(text) < least || std::stoull(text) > most)
          return complaint + ", not '" + printable_excerpt(text, 40) + "'";
        return {};
      },
      most == ~std::uint64_t(0) ? "N>=" + std::to_string(least) : std::to_string(least) + ".." + std::to_string(most));
}
// A number of seconds, 0 or more.
inline CLI::Validator seconds() { return number_check(0, false, "must be a number of seconds, 0 or more", "SECONDS"); }

// This process's rank and its job's size as an MPI launcher (Open MPI, PMIx, MPICH) tells
// them in the environment before MPI starts; rank 0 of 1 when no launcher started it.
struct LauncherPlace {
  int rank = 0, size = 1;
};
LauncherPlace launcher_place();
// Refuses `command` started by a launcher as several processes without --mpi: each would
// run the whole job alone, over the same files (two gen jobs, each printing its lines).
// Process 0 says so; the others stop with the same exit code in silence.
void refuse_several_processes_without_mpi(const std::string& command);

// Erases the progress line on a terminal (nothing otherwise).
void clear_progress();

// Ctrl-C (SIGINT) and SIGTERM taken by a thread of its own, which calls `on_signal` with
// the signal as ordinary code (not in a signal handler): it cleans up, says so and ends the
// program. The signals are blocked in the calling thread and in the threads it starts
// later (OpenMP's, MPI's, a child's until it unblocks them): call it before starting any.
void on_interrupt(std::function<void(int signal)> on_signal);

void add_moves_command(CLI::App& app);
void add_perft_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_gen_command(CLI::App& app);
void add_probe_command(CLI::App& app);
void add_stat_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_check_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_mine_command(CLI::App& app);
void add_diagram_command(CLI::App& app);

}  // namespace feerie::cli

namespace feerie {
class Tablebase;
struct TableHeader;
struct ProbeResult;
}  // namespace feerie

namespace feerie::cli {

// The JSON object of `probe --json` for a legal position (one line, no newline): value,
// best moves, with `with_pv` the principal variation, with `with_moves` every legal move
// with its value (`probe --moves --json`). Throws CommandError (a missing table: not found).
// Shared by `probe` and `serve`'s API (tools/json_output.cpp).
// `tree_width` >= 0: with the solution tree (study/solution_tree.h; 0: every reply), at
// most TreeNodeBudget moves (a long mate's tree grows exponentially).
inline constexpr int TreeNodeBudget = 5000;
// The most replies per move of a tree (`probe --width`, the API's `tree=`); the most
// helpmate solutions listed is MaxSolutionLines (study/help_study.h).
inline constexpr int MaxTreeWidth = 1000;
std::string probe_json(const Tablebase& tb, const Position& pos, bool with_moves, bool with_pv, int tree_width = -1);
// The JSON object of `stat --json` (indented): material, condition, and per side to move the
// counts, the longest mate and an example. Shared by `stat` and `serve`'s API.
std::string stat_json(const TableHeader& header);
// The value fields of `probe --json` (wdl, dtm_plies, mate_in), shared by `probe`, `mine`
// and `serve`.
void add_result_json(nlohmann::ordered_json& j, const ProbeResult& r);
// A value for people: "the side to move mates in 10 (19 plies)", "draw", ...
std::string verdict_text(const ProbeResult& r);
// Moves in long algebraic notation (`c3d4`, `e7e8q`), in their order.
std::vector<std::string> move_names(const std::vector<Move>& moves);

void add_serve_command(CLI::App& app);

}  // namespace feerie::cli

namespace feerie {
class Partition;
}

namespace feerie::cli {

// The processes of the MPI job this program runs in (`--mpi`), started on first use;
// throws CommandError (not supported) when feerie was built without MPI. Process 0
// speaks for the job: the others print nothing but their own failures.
Partition& mpi_partition();
// Whether mpi_partition() has started the MPI job in this process.
bool mpi_job_started();
// Aborts the whole MPI job with the exit code of `kind` (a failure one process meets
// alone would leave the others waiting for it forever).
[[noreturn]] void abort_mpi_job(ErrorKind kind);
// Ends this process of an MPI job of several processes that failed with `failure`. When
// every process comes within a few seconds to say how it failed (most failures are met by
// all of them together: a plan refused, a table that cannot be written), throws one
// CommandError for the job, which process 0 alone prints; otherwise (another process waits
// for this one in the job's work) prints this process's failure, named, and aborts the job.
[[noreturn]] void end_failed_mpi_job(const Error& failure);

}  // namespace feerie::cli
