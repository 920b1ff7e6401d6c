// `feerie gen`, `probe`, `stat`, `verify`: tables from the command line (SPEC 7).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "gen/checkpoint.h"
#include "gen/generate.h"
#include "gen/plan.h"
#include "gen/verify.h"
#include "probe/material_set.h"
#include "probe/header_check.h"
#include "probe/mine.h"
#include "probe/problem_quality.h"
#include "probe/threat_sound.h"
#include "probe/solution_tree.h"
#include "probe/table_file.h"
#include "probe/tablebase.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "rules/san.h"
#include "tools/cli.h"
#include "tools/json_text.h"
#include "rules/text.h"
#include "tools/popeye.h"
#include "tools/threat_text.h"

namespace feerie::cli {

namespace {

struct TableOptions {
  std::string condition = "orthodox";
  std::string tables = "tables";
  int threads = 0;
  bool json = false;
  std::vector<std::string> args;
};

void add_common(CLI::App* cmd, TableOptions& opt) {
  cmd->add_option("--condition", opt.condition, "Condition (default: orthodox)");
  cmd->add_option("--tables", opt.tables, "Tables directory (default: ./tables)");
}

std::vector<Material> parse_materials(const std::vector<std::string>& names) {
  std::vector<Material> out;
  for (const std::string& n : names) out.push_back(take(Material::parse(n)));
  return out;
}

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

// Progress of a job counted in entries ("verifying KRRvKRR (madrasi-ri): 42% of the
// entries, 3120 s"): on a terminal one line rewritten, in a log a line every `log_seconds`
// with --progress, otherwise nothing.
VerifyProgress entries_progress_printer(const std::string& what, bool log, double log_seconds) {
  const bool terminal = isatty(STDERR_FILENO);
  if (!terminal && !log) return {};
  const auto start = std::chrono::steady_clock::now();
  auto last = std::make_shared<double>(-1e9);
  return [=](std::uint64_t done, std::uint64_t total) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string text = fmt::format("{}: {}% of the entries, {:.0f} s", what,
                                         100 * done / std::max<std::uint64_t>(total, 1), elapsed);
    if (terminal) {
      std::cerr << "\r\033[K" << text << std::flush;
    } else if (elapsed - *last >= log_seconds) {
      *last = elapsed;
      std::cerr << "feerie: " << text << std::endl;
    }
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
             t.passes, t.passes == 1 ? "pass" : "passes", t.resumed_at_pass < 0 ? "" : fmt::format(", resumed at pass {}", t.resumed_at_pass),
             t.file_bytes, component,
             t.exchanged ? fmt::format("; {} updates exchanged ({}), at most {} in a pass", t.exchanged,
                                       bytes_text(8.0 * double(t.exchanged)), t.busiest_pass_exchanged)
                         : "")
      << std::endl;
}



// A move's value for the side that plays it.
std::string move_verdict_text(const MoveValue& mv) {
  if (mv.checkmate) return "checkmate";
  if (mv.stalemate) return "stalemate (draw)";
  ProbeResult r = ProbeResult::of(mv.value);
  if (r.wdl == Wdl::Draw) return "draw";
  if (r.wdl == Wdl::Win) return fmt::format("mates in {} ({} plies)", r.mate_in(), r.dtm_plies);
  return fmt::format("is mated in {} ({} plies)", -r.mate_in(), r.dtm_plies);
}

struct ProbeOptions {
  bool json = false;
  bool moves = false;  // every legal move with its value
  bool pv = true;
  bool uci = false;  // long algebraic notation instead of SAN in the text
  int tree_width = -1;  // >= 0: the solution tree, at most that many replies per node (0: all)
  bool problem = false;  // the mining filters' verdicts on the position (issue 24)
  bool figurine = false;  // SAN with figurines (♘f3)
  bool pgn = false;       // with --tree: the tree as PGN
  PopeyeWriter* popeye = nullptr;  // with --popeye: each position as a Popeye problem
};

}  // namespace



namespace {

// The verdicts of `mine`'s problem filters on one position (issue 24: one position could
// not be tested without mining its whole table): "problem: unique key yes, sound no, ...",
// then with a unique key what it threatens ("key Rb5: threat Rb1#").
std::string problem_text(const Tablebase& tb, const Position& pos) {
  const ValueCode v = take(tb.value_code(pos));
  if (!value::is_win(v)) return "problem: none (the side to move does not win)\n";
  auto yes = [](Expected<bool> b) { return take(std::move(b)) ? "yes" : "no"; };
  const ThreatReading threats = take(read_threats(tb, pos));
  const std::vector<KeyFlights> flights = take(key_flights(tb, pos, v));
  auto every_key = [&](auto&& does) {
    return std::all_of(flights.begin(), flights.end(), does) && !flights.empty() ? "yes" : "no";
  };
  std::string text = fmt::format(
      "problem: #{} ({} units); unique key {}, sound {}, sound (threat) {}, quiet key {}, no capture {}, every unit "
      "needed {}, checks {}, key gives a flight {}, key takes a flight {}\n",
      value::moves(v), popcount(pos.pieces()), yes(has_unique_key(tb, pos)), yes(is_sound(tb, pos)),
      threats.sound ? "yes" : "no", yes(has_quiet_key(tb, pos, v)), yes(solution_has_no_capture(tb, pos, v)),
      yes(every_unit_needed(tb, pos, v)), take(checks_in_solution(tb, pos, v)),
      every_key([](const KeyFlights& k) { return k.given != 0; }),
      every_key([](const KeyFlights& k) { return k.taken != 0; }));
  if (threats.keys == 1) text += threat_text(pos, threats, tb.rules()) + "\n";
  return text;
}

void probe_one(const Tablebase& tb, const std::string& fen, const ProbeOptions& o) {
  Position pos = parse_position(fen, tb.rules());  // a legal position
  if (o.popeye) {
    // With --problem, the verdicts go into the problem as remarks (one per line).
    std::vector<std::string> remarks;
    if (o.problem) {
      std::istringstream verdicts(problem_text(tb, pos));
      for (std::string line; std::getline(verdicts, line);) remarks.push_back(line);
    }
    o.popeye->write(take(popeye_problem(pos, tb.rules(), take(tb.value_code(pos)), remarks)));
    return;
  }
  if (o.json) {
    std::cout << probe_json(tb, pos, o.moves, o.pv, o.tree_width) << "\n";
    return;
  }
  ProbeResult r = take(tb.probe(pos));
  std::vector<Move> best = take(tb.best_moves(pos));
  std::vector<Move> pv = o.pv ? take(tb.principal_variation(pos)) : std::vector<Move>{};
  std::vector<MoveValue> values = o.moves ? take(tb.move_values(pos)) : std::vector<MoveValue>{};
  // SAN (numbered lines) for people; --uci the long algebraic names.
  const RuleSet& rules = tb.rules();
  auto people = [&](const std::string& san) { return o.figurine ? to_figurine(san) : san; };
  auto move_text = [&](const Position& at, Move m) { return o.uci ? to_uci(m) : people(to_san(at, m, rules)); };
  auto line_text = [&](const Position& at, const std::vector<Move>& line) {
    return o.uci ? fmt::format("{}", fmt::join(move_names(line), " ")) : people(san_line(at, line, rules));
  };
  std::cout << to_fen(pos) << ": " << verdict_text(r);
  if (!best.empty()) {
    std::vector<std::string> names;
    for (Move m : best) names.push_back(move_text(pos, m));
    std::cout << "; best: " << fmt::format("{}", fmt::join(names, " "));
  }
  if (!pv.empty()) std::cout << "; pv: " << line_text(pos, pv);
  std::cout << "\n";
  if (o.problem) std::cout << problem_text(tb, pos);
  if (o.tree_width >= 0 && r.wdl != Wdl::Draw && r.dtm_plies > 0) {
    const SolutionNode root = take(solution_tree(tb, pos, o.tree_width, TreeNodeBudget));
    std::cout << (o.pgn ? solution_pgn(pos, root, rules.name()) : people(solution_text(pos, root)));
  }
  for (const MoveValue& mv : values) {
    std::cout << fmt::format("  {:<7} {}", move_text(pos, mv.move), move_verdict_text(mv));
    if (o.pv && value::is_mate(mv.value) && !mv.checkmate)
      std::cout << "; pv: " << line_text(mv.after, take(tb.principal_variation(mv.after)));
    std::cout << "\n";
  }
}


}  // namespace


void clear_progress() {
  if (isatty(STDERR_FILENO)) std::cerr << "\r\033[K" << std::flush;
}

void add_table_commands(CLI::App& app) {
  add_gen_command(app);
  add_probe_command(app);
  add_stat_command(app);
  add_verify_command(app);
  add_check_command(app);
}

// On Ctrl-C (SIGINT) or SIGTERM: remove this run's temporary files in `dir`, say so, and
// stop with status 128 + signal. The signals are blocked in every thread (the OpenMP
// workers start later and inherit the mask) and taken by one waiting thread, so the
// clean-up runs as ordinary code, not in a signal handler.
void clean_up_when_interrupted(const std::string& dir) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread([signals, dir] {
    int signal = 0;
    if (sigwait(&signals, &signal) != 0) return;
    int removed = remove_temporaries_of(dir, long(::getpid()));
    clear_progress();
    std::cerr << "feerie: interrupted; " << removed << " temporary file" << (removed == 1 ? "" : "s") << " removed\n";
    std::_Exit(128 + signal);
  }).detach();
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
  if (used == 0 || scale < 0 || value <= 0)
    throw CommandError("bad size '" + text + "' for " + option + " (expected a number with an optional K, M, G or T)",
                       ErrorKind::InvalidArgument);
  return std::uint64_t(value * scale);
}

void print_plan(const Plan& plan, bool json) {
  if (json) {
    nlohmann::ordered_json out;
    out["peak_bytes"] = plan.peak_bytes;
    out["seconds"] = std::round(plan.seconds);  // rough: within about a factor of 2
    out["ranks"] = plan.ranks;  // the peaks are per process
    out["components"] = nlohmann::ordered_json::array();
    for (const PlannedComponent& c : plan.components) {
      nlohmann::ordered_json j;
      j["members"] = nlohmann::ordered_json::array();
      for (const Material& m : c.members) j["members"].push_back(m.name());
      j["action"] = c.reuse ? "reuse" : "generate";
      if (!c.why_not_reused.empty()) j["why_not_reused"] = c.why_not_reused;
      j["entries"] = std::uint64_t(c.entries);
      j["peak_bytes"] = c.peak_bytes;
      j["file_bytes"] = c.file_bytes;
      j["seconds"] = std::round(c.seconds);
      out["components"].push_back(j);
    }
    std::cout << json_text(out, 2) << "\n";
    return;
  }
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
    std::cout << fmt::format("{}: generate, {} entries (both sides), peak about {}, files about {}, time about {}{}\n",
                             names, std::uint64_t(c.entries), bytes_text(double(c.peak_bytes)),
                             bytes_text(double(c.file_bytes)), duration_text(c.seconds),
                             c.why_not_reused.empty() ? "" : " (the files on disk: " + c.why_not_reused + ")");
  }
  if (plan.ranks > 1)
    std::cout << "peak memory per process about " << bytes_text(double(plan.peak_bytes)) << " (" << plan.ranks
              << " processes)\n";
  else
    std::cout << "peak memory about " << bytes_text(double(plan.peak_bytes)) << "\n";
  std::cout << "time about " << duration_text(plan.seconds) << " (rough, within about a factor of 2)\n";
}

void add_gen_command(CLI::App& app) {
  {
    auto opt = std::make_shared<TableOptions>();
    CLI::App* cmd = app.add_subcommand("gen", "Generate tables (and the tables they depend on)");
    add_common(cmd, *opt);
    cmd->add_option("--threads", opt->threads, "Threads (default: all cores)")->check(CLI::Range(0, 1024));
    auto max_memory = std::make_shared<std::string>();
    auto plan_only = std::make_shared<bool>(false);
    cmd->add_option("--max-memory", *max_memory,
                    "Refuse a job whose estimated peak memory exceeds this (e.g. 8G, 512M; default: 90% of the "
                    "smallest of the memory available now, what ulimit -v and -d leave this process and its "
                    "cgroup's memory.max)");
    cmd->add_flag("--plan", *plan_only, "Print what would be generated or reused, with estimates, and stop");
    auto checkpoint_seconds = std::make_shared<double>(300);
    auto no_checkpoint = std::make_shared<bool>(false);
    cmd->add_option("--checkpoint-interval", *checkpoint_seconds,
                    "Save a checkpoint of a long solve every so many seconds (default 300; 0: after every pass); an "
                    "interrupted gen resumes from it by itself")
        ->check(seconds());
    cmd->add_flag("--no-checkpoint", *no_checkpoint, "Save no checkpoints");
    auto log_progress = std::make_shared<bool>(false);
    cmd->add_flag("--progress", *log_progress,
                  "When stderr is not a terminal (a log), write a progress line every 10 s (a terminal always shows "
                  "progress)");
    cmd->add_flag("--json", opt->json, "With --plan: the plan as JSON");
    auto mpi = std::make_shared<bool>(false);
    auto ranks = std::make_shared<int>(0);
    cmd->add_flag("--mpi", *mpi,
                  "Spread each table over the processes of an MPI job (mpirun -np P feerie gen --mpi ...; "
                  "docs/scale.md)");
    cmd->add_option("--ranks", *ranks, "With --plan --mpi: the number of processes to plan for")
        ->check(CLI::Range(1, 1 << 20));
    auto exchange_limit = std::make_shared<std::uint64_t>(0);
    cmd->add_option("--exchange-limit", *exchange_limit,
                    "With --mpi: updates a process buffers for the others before they exchange them in the middle of "
                    "a pass (default 262144; small values test the exchange in rounds)")
        ->check(at_least(1));
    auto sets = std::make_shared<std::vector<std::string>>();
    cmd->add_option("--set", *sets,
                    "Every material of a set as one job: N or M-N men (kings included, units Q R B N P), or a "
                    "pattern where ? stands for any of Q R B N P (K?PvK?); may be repeated");
    auto pawns = std::make_shared<bool>(false), no_pawns = std::make_shared<bool>(false);
    auto* with_pawns = cmd->add_flag("--pawns", *pawns, "With --set: only the materials with a pawn");
    cmd->add_flag("--no-pawns", *no_pawns, "With --set: only the materials without a pawn")->excludes(with_pawns);
    cmd->add_option("material", opt->args, "Material signatures, e.g. KQvKR (or a --set)");
    cmd->callback([opt, max_memory, plan_only, checkpoint_seconds, no_checkpoint, log_progress, mpi, ranks,
                   exchange_limit, sets, pawns, no_pawns] {
      RuleSet rules = parse_condition(opt->condition);
      GenerateOptions g;
      g.tables_dir = opt->tables;
      g.threads = opt->threads;
      if (max_memory->empty()) {
        const MemoryLimit limit = default_memory_limit();
        g.max_memory = limit.bytes;
        g.max_memory_source = limit.source + "; --max-memory sets another";
      } else {
        g.max_memory = parse_size(*max_memory, "--max-memory");
      }
      std::vector<Material> targets =
          gen_targets(opt->args, *sets, *pawns ? PawnFilter::WithPawns : *no_pawns ? PawnFilter::WithoutPawns
                                                                                     : PawnFilter::Any);
      if (*ranks && !(*plan_only && *mpi))
        throw CommandError("--ranks is for planning a job spread over processes: use it with --plan --mpi",
                           ErrorKind::InvalidArgument);
      if (*plan_only) {
        if (*mpi && !*ranks)
          throw CommandError("--plan --mpi needs --ranks P, the number of processes to plan for",
                             ErrorKind::InvalidArgument);
        print_plan(take(make_plan(targets, rules, g.tables_dir, g.max_memory, *mpi ? *ranks : 1, g.max_memory_source,
                                  g.threads)),
                   opt->json);
        return;
      }
      g.checkpoint_seconds = *no_checkpoint ? -1 : *checkpoint_seconds;
      if (*exchange_limit && !*mpi)
        throw CommandError("--exchange-limit is for a job spread over processes: use it with --mpi",
                           ErrorKind::InvalidArgument);
      g.exchange_limit = *exchange_limit;
      // Before MPI starts its own threads, so that they too leave the signals to the handler.
      clean_up_when_interrupted(std::filesystem::path(Tablebase::open(g.tables_dir, rules).table_path(targets.front()))
                                    .parent_path()
                                    .string());
      // With --mpi every table is spread over the processes of the MPI job; process 0
      // speaks for the job (progress, tables, notices).
      Partition* partition = *mpi ? &mpi_partition() : nullptr;
      g.partition = partition;
      if (!partition || partition->rank() == 0) {
        g.on_progress = progress_printer(*log_progress, 10);
        g.on_table = print_generated;
        g.on_notice = [](const std::string& message) {
          clear_progress();
          std::cerr << "feerie: " << message << "\n";
        };
      }
      Expected<std::vector<GeneratedTable>> done = generate(targets, rules, g);
      if (!done && partition) {
        // The process that meets a failure says so; one failing alone would leave the
        // others waiting for it forever, so it stops the whole job.
        clear_progress();
        std::cerr << "feerie: process " << partition->rank() << " of " << partition->ranks() << ": "
                  << done.error_message() << "\n";
        abort_mpi_job(done.error_kind());
      }
      take(std::move(done));
      clear_progress();
    });
  }
}

void add_probe_command(CLI::App& app) {
  {
    auto opt = std::make_shared<TableOptions>();
    CLI::App* cmd = app.add_subcommand("probe", "Probe positions (FEN arguments, or one FEN per line on stdin)");
    add_common(cmd, *opt);
    cmd->add_flag("--json", opt->json, "One JSON object per position");
    auto probe_options = std::make_shared<ProbeOptions>();
    cmd->add_flag("--moves", probe_options->moves,
                  "Also every legal move with the value of the position after it, for the mover, best first");
    cmd->add_flag(
        "--no-pv", [probe_options](std::int64_t) { probe_options->pv = false; }, "Leave the principal variations out");
    auto* tree = cmd->add_flag(
        "--tree", [probe_options](std::int64_t) { probe_options->tree_width = std::max(probe_options->tree_width, 0); },
        "The whole solution of a mate: every key, every defence, every continuation keeping the shortest mate");
    cmd->add_option("--width", probe_options->tree_width,
                    "With --tree: at most this many defences per move (the others counted; default: all)")
        ->check(CLI::Range(1, 1000))
        ->needs(tree);
    cmd->add_flag("--pgn", probe_options->pgn, "With --tree: the solution as a PGN game with variations")
        ->needs(tree);
    cmd->add_flag("--problem", probe_options->problem,
                  "Also the verdicts of mine's problem filters on the position: unique key, sound (every reply, "
                  "threat), quiet key, no capture, every unit needed, checks, flights; and the key's threat (with "
                  "--popeye: as remarks of the problem)")
        ->excludes("--json");
    cmd->add_flag("--figurine", probe_options->figurine, "SAN with figurines for the pieces (\u2658f3)");
    cmd->add_flag("--uci", probe_options->uci,
                  "Moves in long algebraic notation (e2e4, e7e8q) instead of SAN in the text output");
    auto popeye = std::make_shared<bool>(false);
    cmd->add_flag("--popeye", *popeye, "Each position as a problem in Popeye's input language (stipulation #N)")
        ->excludes("--json")
        ->excludes("--moves");
    cmd->add_option("fen", opt->args, "Positions in FEN (each quoted)");
    cmd->callback([opt, probe_options, popeye] {
      Tablebase tb = Tablebase::open(opt->tables, parse_condition(opt->condition));
      ProbeOptions o = *probe_options;
      o.json = opt->json;
      PopeyeWriter writer(std::cout);
      if (*popeye) o.popeye = &writer;
      // EndProblem after the last problem, also when a line of a batch failed.
      struct Finish {
        PopeyeWriter& w;
        ~Finish() { w.finish(); }
      } finish{writer};
      if (!opt->args.empty()) {
        for (const std::string& fen : opt->args) probe_one(tb, fen, o);
        return;
      }
      // A batch keeps going past a bad line: each failure is reported on its own (a JSON
      // object with an "error" field under --json), and the exit status says at the end.
      int lines = 0, failed = 0;
      ErrorKind first_failure = ErrorKind::Internal;
      for (std::string line; std::getline(std::cin, line);) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        ++lines;
        try {
          probe_one(tb, line, o);
        } catch (const CommandError& e) {
          if (failed++ == 0) first_failure = e.kind;
          if (opt->json)
            std::cout
                << json_text(nlohmann::ordered_json{
                       {"fen", printable(line)}, {"error", e.what()}, {"error_kind", kind_name(e.kind)}})
                << "\n";
          else
            std::cerr << "feerie: line " << lines << ": " << e.what() << "\n";
        }
      }
      if (failed)
        throw CommandError(std::to_string(failed) + " of " + std::to_string(lines) + " positions failed",
                           first_failure);
    });
  }
}

void add_stat_command(CLI::App& app) {
  {
    auto opt = std::make_shared<TableOptions>();
    CLI::App* cmd = app.add_subcommand("stat", "Statistics of a table");
    add_common(cmd, *opt);
    cmd->add_flag("--json", opt->json, "JSON output");
    cmd->add_option("material", opt->args, "Material signature")->required()->expected(1);
    cmd->callback([opt] {
      RuleSet rules = parse_condition(opt->condition);
      Material material = take(Material::parse(opt->args.at(0)));
      Tablebase tb = Tablebase::open(opt->tables, rules);
      std::string path = tb.table_path(material);
      if (!material.is_canonical_orientation())
        throw CommandError("tables are stored as " + material.colors_swapped().name() + "; ask for that material",
                           ErrorKind::InvalidArgument);
      std::unique_ptr<TableFile> file = take(open_table(path, material, rules));
      const TableHeader& h = file->header();
      if (opt->json) {
        std::cout << stat_json(h) << "\n";
        return;
      }
      std::cout << h.material << " (" << h.condition << ")\n";
      for (int side = 0; side < 2; ++side) {
        const SideStatistics& s = h.stats[side];
        std::cout << fmt::format("  {} to move: {} positions: {} win, {} draw, {} loss", side == 0 ? "White" : "Black",
                                 s.positions, s.win, s.draw, s.loss);
        if (s.longest_mate_plies >= 0)
          std::cout << fmt::format("; longest mate {} moves ({} plies), e.g. {}", (s.longest_mate_plies + 1) / 2,
                                   s.longest_mate_plies, s.longest_mate_fen);
        std::cout << "\n";
      }
    });
  }
}

void add_verify_command(CLI::App& app) {
  {
    auto opt = std::make_shared<TableOptions>();
    CLI::App* cmd = app.add_subcommand("verify", "Recompute every value of a table from its successors");
    add_common(cmd, *opt);
    cmd->add_option("--threads", opt->threads, "Threads (default: all cores)")->check(CLI::Range(0, 1024));
    auto mpi = std::make_shared<bool>(false);
    cmd->add_flag("--mpi", *mpi,
                  "Spread the work over the processes of an MPI job (mpirun -np P feerie verify --mpi ...); each "
                  "still reads the tables whole");
    auto log_progress = std::make_shared<bool>(false);
    cmd->add_flag("--progress", *log_progress,
                  "When stderr is not a terminal (a log), write a progress line every 10 s (a terminal always shows "
                  "progress)");
    cmd->add_option("material", opt->args, "Material signatures")->required();
    cmd->callback([opt, mpi, log_progress] {
      RuleSet rules = parse_condition(opt->condition);
      Partition* partition = *mpi ? &mpi_partition() : nullptr;
      // Every process has the whole report; process 0 prints it.
      const bool speaker = !partition || partition->rank() == 0;
      bool all_good = true;
      for (const Material& m : parse_materials(opt->args)) {
        const std::string title = m.canonical_orientation().name() + " (" + rules.name() + ")";
        Expected<VerifyReport> report =
            verify_table(m.canonical_orientation(), rules, opt->tables, opt->threads, partition,
                         speaker ? entries_progress_printer("verifying " + title, *log_progress, 10) : VerifyProgress{});
        clear_progress();
        if (!report) {
          CommandError e(report.error());
          e.reported = !speaker;
          throw e;
        }
        const VerifyReport& r = *report;
        if (speaker) {
          std::cout << m.canonical_orientation().name() << ": " << r.checked << " entries checked, " << r.inconsistent
                    << " inconsistent\n";
          for (const std::string& e : r.examples) std::cout << "  " << e << "\n";
        }
        all_good = all_good && r.inconsistent == 0;
      }
      if (!all_good) {
        CommandError e("verification found inconsistent values", ErrorKind::Corruption);
        e.reported = !speaker;
        throw e;
      }
    });
  }
}

namespace {

// The files of a directory with one extension, by name; an error when the directory
// cannot be listed (issue 27 D: an unreadable directory once passed as empty).
Expected<std::vector<std::filesystem::path>> files_with_extension(const std::filesystem::path& dir,
                                                                  const std::string& extension) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec))
    if (it->path().extension() == extension) files.push_back(it->path());
  if (ec) return error(ErrorKind::IOError, "cannot list '" + dir.string() + "': " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

// The checkpoints of a condition's directory ("KQRvKR.ckpt", "KQRvKR.0-of-3.ckpt") whose
// component's first member, named by the file, has a table on disk: the table was
// finished after them, so they are stale (gen removes them when it writes a table).
std::vector<std::filesystem::path> stale_checkpoints(const std::vector<std::filesystem::path>& checkpoints) {
  std::vector<std::filesystem::path> stale;
  for (const std::filesystem::path& c : checkpoints) {
    std::optional<CheckpointName> name = parse_checkpoint_name(c.filename().string());
    std::error_code ec;
    if (name && std::filesystem::exists(c.parent_path() / (name->first_member + ".ftb"), ec)) stale.push_back(c);
  }
  return stale;
}

}  // namespace

void add_check_command(CLI::App& app) {
  auto opt = std::make_shared<TableOptions>();
  auto all_conditions = std::make_shared<bool>(true);
  CLI::App* cmd = app.add_subcommand(
      "check", "Check the tables of a directory as gen checks them before reuse (header, rules, material, checksums)");
  cmd->add_option("--condition", opt->condition, "Only this condition's tables (default: every condition)")
      ->each([all_conditions](const std::string&) { *all_conditions = false; });
  cmd->add_option("--tables", opt->tables, "Tables directory (default: ./tables)");
  cmd->add_option("material", opt->args, "Only these materials (default: every table file)");
  auto deep = std::make_shared<bool>(false);
  cmd->add_flag("--deep", *deep,
                "Decompress every block too (slower; finds a block whose checksum matches but whose data is damaged)");
  cmd->callback([opt, all_conditions, deep] {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(opt->tables, ec))
      throw CommandError("the tables directory '" + opt->tables + "' is not a directory", ErrorKind::InvalidArgument);
    std::vector<std::string> conditions;
    if (*all_conditions) {
      for (fs::directory_iterator it(opt->tables, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_directory()) conditions.push_back(it->path().filename().string());
      std::sort(conditions.begin(), conditions.end());
    } else {
      conditions.push_back(parse_condition(opt->condition).name());
    }
    if (ec) throw CommandError("cannot list the tables directory '" + opt->tables + "': " + ec.message(),
                               ErrorKind::IOError);
    int checked = 0, bad = 0, unreadable = 0, stale = 0;
    auto report = [&](const std::string& path, const std::string& problem) {
      ++checked;
      bad += !problem.empty();
      std::cout << path << ": " << (problem.empty() ? "ok" : problem) << "\n";
    };
    const std::vector<Material> materials = parse_materials(opt->args);
    std::vector<bool> found(materials.size(), false);
    for (const std::string& condition : conditions) {
      Expected<RuleSet> rules = RuleSet::parse(condition);
      const fs::path dir = fs::path(opt->tables) / condition;
      Expected<std::vector<fs::path>> listed = files_with_extension(dir, ".ftb");
      if (!listed && (*all_conditions || fs::exists(dir, ec))) {
        std::cout << dir.string() << ": " << listed.error_message() << "\n";
        ++unreadable;
        continue;
      }
      const std::vector<fs::path> files = listed ? *listed : std::vector<fs::path>{};
      if (!rules) {
        for (const fs::path& file : files)
          report(file.string(), "in no condition's directory: " + rules.error_message());
        continue;
      }
      if (Expected<std::vector<fs::path>> checkpoints = files_with_extension(dir, ".ckpt"))
        for (const fs::path& c : stale_checkpoints(*checkpoints)) {
          std::cout << c.string() << ": stale checkpoint (its table is finished; the next gen of it removes it)\n";
          ++stale;
        }
      std::vector<std::pair<std::string, Material>> wanted;
      if (!materials.empty()) {
        // Every condition's directory is searched: a material is checked where it is, and
        // missing only when it is in none (issue 27 G).
        for (std::size_t i = 0; i < materials.size(); ++i) {
          const Material m = materials[i].canonical_orientation();
          const std::string path = (dir / (m.name() + ".ftb")).string();
          if (*all_conditions && !fs::exists(path, ec)) continue;
          found[i] = true;
          wanted.emplace_back(path, m);
        }
      } else {
        for (const fs::path& file : files) {
          Expected<Material> m = Material::parse(file.stem().string());
          if (!m || !m->is_canonical_orientation()) {
            report(file.string(), "not a table name (expected a material in its stored orientation, e.g. KQvK.ftb)");
            continue;
          }
          wanted.emplace_back(file.string(), *m);
        }
      }
      for (const auto& [path, material] : wanted) report(path, reuse_problem(path, material, *rules, *deep));
    }
    for (std::size_t i = 0; i < materials.size(); ++i)
      if (*all_conditions && !found[i]) {
        std::cout << materials[i].canonical_orientation().name() << ": missing (in no condition's directory under '"
                  << opt->tables << "')\n";
        ++checked;
        ++bad;
      }
    std::cout << checked << " tables checked, " << bad << " bad"
              << (unreadable ? ", " + std::to_string(unreadable) + " directories unreadable" : "")
              << (stale ? ", " + std::to_string(stale) + " stale checkpoints" : "") << "\n";
    if (unreadable)
      throw CommandError(std::to_string(unreadable) + " condition directories could not be read", ErrorKind::IOError);
    if (bad)
      throw CommandError(std::to_string(bad) + " of " + std::to_string(checked) + " tables are bad",
                         ErrorKind::Corruption);
  });
}

}  // namespace feerie::cli
