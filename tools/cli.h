// Shared plumbing of the `feerie` subcommands: each registers itself on the CLI11 app and
// reports failure by throwing CommandError, which main() prints as one line.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "rules/expected.h"
#include "rules/position.h"
#include "rules/ruleset.h"

namespace feerie::cli {

struct CommandError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Unwraps an Expected or throws its message as a CommandError.
template <class T>
T take(Expected<T> e) {
  if (!e) throw CommandError(e.error_message());
  return std::move(e).value();
}

RuleSet parse_condition(const std::string& name);
// A FEN given as one argument or as its fields in several arguments; legal under `rules`.
Position parse_position(const std::vector<std::string>& fen_fields, const RuleSet& rules);
Position parse_position(const std::string& fen, const RuleSet& rules);

// Erases the progress line on a terminal (nothing otherwise).
void clear_progress();

void add_moves_command(CLI::App& app);
void add_perft_command(CLI::App& app);
void add_table_commands(CLI::App& app);  // gen, probe, stat, verify
void add_gen_command(CLI::App& app);
void add_probe_command(CLI::App& app);
void add_stat_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_bench_command(CLI::App& app);

}  // namespace feerie::cli
