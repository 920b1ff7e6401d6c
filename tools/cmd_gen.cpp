// `feerie gen`: generate tables and the tables they depend on (SPEC 7, docs/cli.md), with a
// plan before any work, progress, checkpoints, and a clean stop on Ctrl-C.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "gen/generate.h"
#include "gen/plan.h"
#include "probe/material_set.h"
#include "probe/table_file.h"
#include "probe/tablebase.h"
#include "probe/value_array.h"
#include "tools/cli.h"
#include "tools/help_commands.h"
#include "tools/json_text.h"
#include "tools/table_command.h"

namespace feerie::cli {

namespace {

// The materials a gen names: those given one by one, then each set's (probe/material_set.h),
// each once. Errors: none at all, a pawn filter without a set, a set the filter empties.
std::vector<Material> gen_targets(const std::vector<std::string>& names, const std::vector<std::string>& sets,
                                  PawnFilter pawns) {
  if (names.empty() && sets.empty())
    throw CommandError("name the materials to generate (KQvKR ...) or a --set", ErrorKind::InvalidArgument);
  if (pawns != PawnFilter::Any && sets.empty())
    throw CommandError("--pawns and --no-pawns choose among the materials of a --set", ErrorKind::InvalidArgument);
  std::vector<Material> out = parse_materials(names);
  for (const std::string& spec : sets) {
    const std::vector<Material> set = take(material_set(spec, pawns));
    if (set.empty())
      throw CommandError("the set '" + spec + "' has no material " +
                             (pawns == PawnFilter::WithPawns ? "with a pawn" : "without a pawn"),
                         ErrorKind::InvalidArgument);
    for (const Material& m : set)
      if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  return out;
}

std::string duration_text(double seconds) {
  int s = int(seconds + 0.5);
  if (s < 60) return std::to_string(s) + " s";
  if (s < 3600) return fmt::format("{} min {:02} s", s / 60, s % 60);
  return fmt::format("{} h {:02} min", s / 3600, s % 3600 / 60);
}

std::string progress_text(const GenerateProgress& p) {
  std::string text = fmt::format("{}; job {}% done, {} elapsed", p.message, int(100 * p.job_fraction),
                                 duration_text(p.elapsed_seconds));
  if (p.remaining_seconds >= 0) text += ", about " + duration_text(p.remaining_seconds) + " left";
  return text;
}

// Progress on a terminal overwrites one line. Elsewhere (a log) it is quiet unless asked
// for with --progress, and then one line every `log_seconds` at most.
std::function<void(const GenerateProgress&)> progress_printer(bool log, double log_seconds) {
  if (isatty(STDERR_FILENO))
    return [](const GenerateProgress& p) { std::cerr << "\r\033[K" << progress_text(p) << std::flush; };
  if (!log) return {};
  auto last = std::make_shared<double>(-1e9);
  return [last, log_seconds](const GenerateProgress& p) {
    if (p.elapsed_seconds - *last < log_seconds) return;
    *last = p.elapsed_seconds;
    std::cerr << "feerie: " << progress_text(p) << std::endl;
  };
}

// The line of one table of `feerie gen`, printed as soon as it is written or reused.
void print_generated(const GeneratedTable& t) {
  clear_progress();
  // Materials solved together (magic mutation) are named on each member's line.
  std::string component;
  if (t.component.size() > 1) {
    component = "; component of " + std::to_string(t.component.size()) + ":";
    for (const Material& m : t.component) component += " " + m.name();
  }
  if (t.reused) {
    std::cout << t.material.name() << ": reused " << t.path
              << (component.empty() ? "" : " (" + component.substr(2) + ")") << std::endl;
    return;
  }
  if (!t.replaced_because.empty())
    std::cout << t.material.name() << ": the table on disk was not reused: " << t.replaced_because << "\n";
  std::cout
      << fmt::format(
             "{}: generated {} in {:.2f} s (solve {:.2f}, statistics {:.2f}, write {:.2f}; {} entries per side, {} "
             "{}{}, {} bytes{}{})",
             t.material.name(), t.path, t.seconds, t.solve_seconds, t.statistics_seconds, t.write_seconds, t.entries,
             t.passes, t.passes == 1 ? "pass" : "passes",
             t.resumed_at_pass < 0 ? "" : fmt::format(", resumed at pass {}", t.resumed_at_pass), t.file_bytes,
             component,
             t.exchanged ? fmt::format("; {} updates exchanged ({}), at most {} in a pass", t.exchanged,
                                       bytes_text(8.0 * double(t.exchanged)), t.busiest_pass_exchanged)
                         : "")
      << std::endl;
}

// How often a long solve saves a checkpoint when --checkpoint-interval is not given.
constexpr double DefaultCheckpointSeconds = 300;

// Whether this process says that it was interrupted: in an MPI job process 0 speaks for
// the job (every process once said it).
std::atomic<bool> says_interrupted{true};
// Whether this is a job of several processes: the launcher then also stops process 0 when
// another process failed alone (after saying why), which process 0 cannot tell from a
// user's Ctrl-C, so it names both.
std::atomic<bool> in_spread_job{false};

// On Ctrl-C (SIGINT) or SIGTERM: remove this run's temporary files in `dir`, say so, and
// stop with status 128 + signal (on_interrupt: before the OpenMP workers start, which
// inherit the blocked signals).
void clean_up_when_interrupted(const std::string& dir) {
  on_interrupt([dir](int signal) {
    int removed = remove_temporaries_of(dir, long(::getpid()));
    if (says_interrupted) {
      clear_progress();
      std::cerr << "feerie: interrupted"
                << (in_spread_job ? " (a signal to the job, or another process failed: see its message)" : "") << "; "
                << removed << " temporary file" << (removed == 1 ? "" : "s") << " removed\n";
    }
    std::_Exit(128 + signal);
  });
}

// "8G", "512M", "1.5GiB", "1000000": bytes, with binary multiples.
std::uint64_t parse_size(const std::string& text, const std::string& option) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::string unit = text.substr(used);
  for (const char* suffix : {"iB", "B"})
    if (unit.size() > std::strlen(suffix) && unit.ends_with(suffix)) unit.resize(unit.size() - std::strlen(suffix));
  double scale = unit.empty() || unit == "B"  ? 1
                 : unit == "K" || unit == "k" ? 1024.0
                 : unit == "M" || unit == "m" ? 1024.0 * 1024
                 : unit == "G" || unit == "g" ? 1024.0 * 1024 * 1024
                 : unit == "T" || unit == "t" ? 1024.0 * 1024 * 1024 * 1024
                                              : -1;
  // `!(value > 0)` refuses NaN too; a size of 2^64 bytes or more does not convert.
  const double bytes = value * scale;
  if (used == 0 || scale < 0 || !(value > 0) || !(bytes < 18446744073709551616.0))
    throw CommandError("bad size '" + text + "' for " + option +
                           " (expected a positive number below 16 EiB with an optional K, M, G or T)",
                       ErrorKind::InvalidArgument);
  return std::uint64_t(bytes);
}

// `ranks_per_node` (0: not said): the processes of the job each machine runs.
void print_plan(const Plan& plan, bool json, int ranks_per_node) {
  const int nodes = ranks_per_node ? (plan.ranks + ranks_per_node - 1) / ranks_per_node : 0;
  const std::uint64_t node_peak = plan.peak_bytes * std::uint64_t(ranks_per_node);
  if (json) {
    nlohmann::ordered_json out;
    out["peak_bytes"] = plan.peak_bytes;
    out["long_mate_peak_bytes"] = plan.long_mate_peak_bytes;  // with a mate longer than 151 plies
    out["seconds"] = std::round(plan.seconds);                // rough: within about a factor of 2
    out["ranks"] = plan.ranks;                                // the peaks are per process
    if (ranks_per_node) {
      out["ranks_per_node"] = ranks_per_node;
      out["nodes"] = nodes;
      out["node_peak_bytes"] = node_peak;
    }
    out["components"] = nlohmann::ordered_json::array();
    for (const PlannedComponent& c : plan.components) {
      nlohmann::ordered_json j;
      j["members"] = nlohmann::ordered_json::array();
      for (const Material& m : c.members) j["members"].push_back(m.name());
      j["action"] = c.reuse ? "reuse" : "generate";
      if (!c.why_not_reused.empty()) j["why_not_reused"] = c.why_not_reused;
      j["entries"] = std::uint64_t(c.entries);
      j["peak_bytes"] = c.peak_bytes;
      j["long_mate_peak_bytes"] = c.long_mate_peak_bytes;
      j["file_bytes"] = c.file_bytes;
      j["seconds"] = std::round(c.seconds);
      out["components"].push_back(j);
    }
    std::cout << json_text(out, 2) << "\n";
    return;
  }
  const std::string long_mates = fmt::format("with a mate longer than {} plies", narrow::MaxPlies);
  for (const PlannedComponent& c : plan.components) {
    std::string names;
    for (const Material& m : c.members) {
      if (!names.empty()) names += ' ';
      names += m.name();
    }
    if (c.reuse) {
      std::cout << names << ": reuse\n";
      continue;
    }
    std::cout << fmt::format(
        "{}: generate, {} entries (both sides), peak about {} ({} {}), files about {}, time about {}{}\n", names,
        std::uint64_t(c.entries), bytes_text(double(c.peak_bytes)), bytes_text(double(c.long_mate_peak_bytes)),
        long_mates, bytes_text(double(c.file_bytes)), duration_text(c.seconds),
        c.why_not_reused.empty() ? "" : " (the files on disk: " + c.why_not_reused + ")");
  }
  if (plan.peak_bytes == 0)
    std::cout << "nothing to generate: every table is on disk and sound\n";
  else if (ranks_per_node)
    std::cout << fmt::format(
        "peak memory per process about {} ({} processes); per node about {} ({} processes "
        "per node, {} node{}); {} per process and {} per node {}\n",
        bytes_text(double(plan.peak_bytes)), plan.ranks, bytes_text(double(node_peak)), ranks_per_node, nodes,
        nodes == 1 ? "" : "s", bytes_text(double(plan.long_mate_peak_bytes)),
        bytes_text(double(plan.long_mate_peak_bytes * std::uint64_t(ranks_per_node))), long_mates);
  else if (plan.ranks > 1)
    std::cout << fmt::format("peak memory per process about {} ({} processes); {} {}\n",
                             bytes_text(double(plan.peak_bytes)), plan.ranks,
                             bytes_text(double(plan.long_mate_peak_bytes)), long_mates);
  else
    std::cout << fmt::format("peak memory about {} ({} {})\n", bytes_text(double(plan.peak_bytes)),
                             bytes_text(double(plan.long_mate_peak_bytes)), long_mates);
  if (plan.peak_bytes)
    std::cout << "time about " << duration_text(plan.seconds) << " (rough, within about a factor of 2)\n";
}

// Everything `feerie gen` is told.
struct GenCommandOptions {
  TableOptions table;
  std::string max_memory;  // empty: the default limit (default_memory_limit())
  bool plan_only = false;
  double checkpoint_seconds = -1;  // negative: not given (DefaultCheckpointSeconds)
  bool no_checkpoint = false;
  bool log_progress = false;
  bool mpi = false;
  int ranks = 0;           // with --plan --mpi
  int ranks_per_node = 0;  // with --plan --mpi: processes sharing one machine (0: not said)
  std::uint64_t exchange_limit = 0;
  std::vector<std::string> sets;
  bool pawns = false, no_pawns = false;
  std::string stipulation = "#";
};

void run_gen(const GenCommandOptions& o) {
  if (!o.mpi && !o.plan_only) refuse_several_processes_without_mpi("gen");
  RuleSet rules = parse_condition(o.table.condition);
  GenerateOptions g;
  g.tables_dir = o.table.tables;
  g.threads = o.table.threads;
  if (o.max_memory.empty()) {
    const MemoryLimit limit = default_memory_limit();
    g.max_memory = limit.bytes;
    g.max_memory_source = limit.source + "; --max-memory sets another";
  } else {
    g.max_memory = parse_size(o.max_memory, "--max-memory");
  }
  std::vector<Material> targets = gen_targets(o.table.args, o.sets,
                                              o.pawns      ? PawnFilter::WithPawns
                                              : o.no_pawns ? PawnFilter::WithoutPawns
                                                           : PawnFilter::Any);
  const std::string dir = condition_directory(g.tables_dir, rules.name());  // where the temporary files go
  if (const StipulationKind kind = parse_stipulation(o.stipulation); kind != StipulationKind::DirectMate) {
    // Helpmate and selfmate tables are solved in memory by one process, without
    // checkpoints (issue 25).
    if (o.plan_only || o.mpi || o.ranks || o.ranks_per_node || o.exchange_limit)
      throw CommandError("--stipulation " + o.stipulation +
                             " generates in one process without a plan: --plan, --mpi, --ranks, --ranks-per-node "
                             "and --exchange-limit are for direct-mate tables",
                         ErrorKind::InvalidArgument);
    // It was accepted and did nothing.
    if (o.checkpoint_seconds >= 0)
      throw CommandError("--stipulation " + o.stipulation +
                             " tables are solved without checkpoints: --checkpoint-interval is for direct-mate tables",
                         ErrorKind::InvalidArgument);
    // Ctrl-C and SIGTERM as for direct-mate tables (they once killed the job without a word
    // and left its temporary files).
    clean_up_when_interrupted(dir);
    run_help_gen(kind, targets, rules, g.tables_dir, g.threads, g.max_memory, g.max_memory_source);
    return;
  }
  if ((o.ranks || o.ranks_per_node) && !(o.plan_only && o.mpi))
    throw CommandError(
        "--ranks and --ranks-per-node are for planning a job spread over processes: use them with "
        "--plan --mpi",
        ErrorKind::InvalidArgument);
  if (o.exchange_limit && !o.mpi)
    throw CommandError("--exchange-limit is for a job spread over processes: use it with --mpi",
                       ErrorKind::InvalidArgument);
  if (o.plan_only) {
    if (o.mpi && !o.ranks)
      throw CommandError("--plan --mpi needs --ranks P, the number of processes to plan for",
                         ErrorKind::InvalidArgument);
    if (o.ranks_per_node > o.ranks)
      throw CommandError(fmt::format("--ranks-per-node {} is more than the {} processes of the job (--ranks)",
                                     o.ranks_per_node, o.ranks),
                         ErrorKind::InvalidArgument);
    // The memory limit is a machine's (by default this one's): the processes that share a
    // node share it.
    const int per_node = std::max(o.ranks_per_node, 1);
    const std::string source = per_node > 1
                                   ? g.max_memory_source + fmt::format(", shared by {} processes per node", per_node)
                                   : g.max_memory_source;
    Plan plan = take(make_plan(targets, rules, g.tables_dir, g.max_memory / std::uint64_t(per_node),
                               o.mpi ? o.ranks : 1, source, g.threads));
    // A plan is made without MPI; started by mpirun all the same, each process would print
    // it: the launcher's rank leaves it to process 0.
    if (launcher_place().rank != 0) return;
    print_plan(plan, o.table.json, o.ranks_per_node);
    return;
  }
  g.checkpoint_seconds = o.no_checkpoint            ? -1
                         : o.checkpoint_seconds < 0 ? DefaultCheckpointSeconds
                                                    : o.checkpoint_seconds;
  g.exchange_limit = o.exchange_limit;
  // Before MPI starts its own threads, so that they too leave the signals to the handler.
  clean_up_when_interrupted(dir);
  // With --mpi every table is spread over the processes of the MPI job; process 0
  // speaks for the job (progress, tables, notices).
  Partition* partition = o.mpi ? &mpi_partition() : nullptr;
  g.partition = partition;
  // The memory limit is the machine's, as in the plan (--ranks-per-node): the processes
  // of the job on this machine share it (each once took it whole).
  if (partition && partition->ranks_on_this_node() > 1 && g.max_memory) {
    g.max_memory /= std::uint64_t(partition->ranks_on_this_node());
    g.max_memory_source +=
        fmt::format(", shared by the {} processes of the job on this machine", partition->ranks_on_this_node());
  }
  says_interrupted = !partition || partition->rank() == 0;
  in_spread_job = partition && partition->ranks() > 1;
  if (!partition || partition->rank() == 0) {
    g.on_progress = progress_printer(o.log_progress, 10);
    g.on_table = print_generated;
    g.on_notice = [](const std::string& message) {
      clear_progress();
      std::cerr << "feerie: " << message << "\n";
    };
  }
  Expected<std::vector<GeneratedTable>> done = generate(targets, rules, g);
  if (!done && partition && partition->ranks() > 1) {
    // Said once for the job by process 0 when the processes failed together; one failing
    // alone says so and stops the whole job (the others would wait for it forever).
    clear_progress();
    // Killed by the launcher once the failure is said, process 0 would add "interrupted".
    says_interrupted = false;
    end_failed_mpi_job(done.error());
  }
  take(std::move(done));
  clear_progress();
}

}  // namespace

void add_gen_command(CLI::App& app) {
  auto o = std::make_shared<GenCommandOptions>();
  CLI::App* cmd = app.add_subcommand("gen", "Generate tables (and the tables they depend on)");
  add_table_options(cmd, o->table);
  cmd->add_option("--threads", o->table.threads, "Threads (default: all cores)")->check(whole_number_in(0, MaxThreads));
  cmd->add_option("--max-memory", o->max_memory,
                  "Refuse a job whose estimated peak memory exceeds this (e.g. 8G, 512M; default: 90% of the "
                  "smallest of the memory available now, what ulimit -v and -d leave this process and its "
                  "cgroup's memory.max)");
  auto* plan =
      cmd->add_flag("--plan", o->plan_only, "Print what would be generated or reused, with estimates, and stop");
  auto* interval = cmd->add_option("--checkpoint-interval", o->checkpoint_seconds,
                                   "Save a checkpoint of a long solve every so many seconds (default 300; 0: after "
                                   "every pass); an interrupted gen resumes from it by itself")
                       ->check(seconds());
  cmd->add_flag("--no-checkpoint", o->no_checkpoint, "Save no checkpoints")->excludes(interval);
  cmd->add_flag("--progress", o->log_progress,
                "When stderr is not a terminal (a log), write a progress line every 10 s (a terminal always shows "
                "progress)");
  cmd->add_flag("--json", o->table.json, "With --plan: the plan as JSON")->needs(plan);
  cmd->add_flag("--mpi", o->mpi,
                "Spread each table over the processes of an MPI job (mpirun -np P feerie gen --mpi ...; "
                "docs/scale.md)");
  cmd->add_option("--ranks", o->ranks, "With --plan --mpi: the number of processes to plan for")
      ->check(whole_number_in(1, 1 << 20));
  cmd->add_option("--ranks-per-node", o->ranks_per_node,
                  "With --plan --mpi: the processes each machine runs; the plan then says what each node needs and "
                  "how many nodes the job takes, and checks the memory limit per node")
      ->check(whole_number_in(1, 1 << 20));
  cmd->add_option("--exchange-limit", o->exchange_limit,
                  "With --mpi: updates a process buffers for the others before they exchange them in the middle of "
                  "a pass (default 262144; small values test the exchange in rounds)")
      ->check(at_least(1));
  cmd->add_option("--set", o->sets,
                  "Every material of a set as one job: N or M-N men (kings included, units Q R B N P), or a "
                  "pattern where ? stands for any of Q R B N P (K?PvK?); may be repeated");
  auto* with_pawns = cmd->add_flag("--pawns", o->pawns, "With --set: only the materials with a pawn");
  cmd->add_flag("--no-pawns", o->no_pawns, "With --set: only the materials without a pawn")->excludes(with_pawns);
  cmd->add_option("--stipulation", o->stipulation,
                  "# (direct mate, the default), h# (helpmate: the fewest moves in which both sides together mate "
                  "each colour, and the number of solutions) or s# (selfmate: the fewest moves in which each colour "
                  "forces the other to mate it); docs/stipulations.md");
  cmd->add_option("material", o->table.args, "Material signatures, e.g. KQvKR (or a --set)");
  cmd->callback([o] { run_gen(*o); });
}

}  // namespace feerie::cli
