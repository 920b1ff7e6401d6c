// `feerie verify`: every value of a table recomputed from its successors (gen/verify.h).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "gen/generate.h"
#include "gen/help_verify.h"
#include "gen/verify.h"
#include "tools/cli.h"
#include "tools/help_commands.h"
#include "tools/table_command.h"

namespace feerie::cli {

namespace {

// More parts than blocks of entries would leave parts empty; a million is far beyond any table.
constexpr int MaxParts = 1000000;

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
    const std::string text =
        fmt::format("{}: {}% of the entries, {:.0f} s", what, 100 * done / std::max<std::uint64_t>(total, 1), elapsed);
    if (terminal) {
      std::cerr << "\r\033[K" << text << std::flush;
    } else if (elapsed - *last >= log_seconds) {
      *last = elapsed;
      std::cerr << "feerie: " << text << std::endl;
    }
  };
}

// "K/N" (1 <= K <= N): the part of `feerie verify --part`, counted from 0.
VerifyPart parse_part(const std::string& text) {
  int k = 0, n = 0;
  char slash = 0;
  std::istringstream in(text);
  if (!(in >> k >> slash >> n) || slash != '/' || !in.eof() || n < 1 || k < 1 || k > n || n > MaxParts)
    throw CommandError("--part '" + text + "': expected K/N with 1 <= K <= N <= " + std::to_string(MaxParts) +
                           " (part K of N equal parts of the entries, e.g. 1/2)",
                       ErrorKind::InvalidArgument);
  return VerifyPart{k - 1, n};
}

}  // namespace

void add_verify_command(CLI::App& app) {
  auto opt = std::make_shared<TableOptions>();
  CLI::App* cmd = app.add_subcommand("verify", "Recompute every value of a table from its successors");
  add_table_options(cmd, *opt);
  cmd->add_option("--threads", opt->threads, "Threads (default: all cores)")->check(whole_number_in(0, MaxThreads));
  auto mpi = std::make_shared<bool>(false);
  cmd->add_flag("--mpi", *mpi,
                "Spread the work over the processes of an MPI job (mpirun -np P feerie verify --mpi ...); each "
                "holds in memory only the entries it checks and reads the rest through the compressed blocks");
  auto log_progress = std::make_shared<bool>(false);
  cmd->add_flag("--progress", *log_progress,
                "When stderr is not a terminal (a log), write a progress line every 10 s (a terminal always shows "
                "progress)");
  auto part_text = std::make_shared<std::string>();
  cmd->add_option("--part", *part_text,
                  "K/N: check only part K of N equal parts of the entries, holding only that part in memory (a long "
                  "verification split over runs or machines without MPI; parts 1 to N together check the whole table)")
      ->excludes("--mpi");
  auto stipulation = std::make_shared<std::string>("#");
  cmd->add_option("--stipulation", *stipulation,
                  "# (direct mate, the default), h# or s# (the two helpmate or selfmate tables)");
  cmd->add_option("material", opt->args, "Material signatures")->required();
  cmd->callback([opt, mpi, log_progress, stipulation, part_text] {
    if (!*mpi) refuse_several_processes_without_mpi("verify");
    RuleSet rules = parse_condition(opt->condition);
    const StipulationKind kind = parse_stipulation(*stipulation);
    const bool help = kind != StipulationKind::DirectMate;
    if (help && *mpi) throw CommandError("--mpi is for direct-mate tables", ErrorKind::InvalidArgument);
    if (help && !part_text->empty()) throw CommandError("--part is for direct-mate tables", ErrorKind::InvalidArgument);
    const std::optional<VerifyPart> part = part_text->empty() ? std::nullopt : std::optional(parse_part(*part_text));
    // "KQRvKQR: part 1 of 2, 7751073792 entries checked": a part's report says which it is.
    const std::string part_name = part ? fmt::format(": part {} of {}", part->index + 1, part->parts) : std::string();
    // Before MPI starts: an error in the arguments is then said once, by process 0.
    const std::vector<Material> materials = parse_materials(opt->args);
    Partition* partition = *mpi ? &mpi_partition() : nullptr;
    // Every process has the whole report; process 0 prints it.
    const bool speaker = !partition || partition->rank() == 0;
    bool all_good = true;
    // Verify goes on past a table it cannot verify (missing, damaged), as probe goes on
    // past a bad position, and fails at the end (it once stopped at the first). The
    // processes of an MPI job go on together: each has every process's report of a table
    // (verify_table gathers them), failure included, so they all see the same failure.
    int failed = 0;
    ErrorKind first_failure = ErrorKind::Internal;
    for (const Material& m : materials) {
      const std::string title = m.canonical_orientation().name() + " (" + rules.name() + ")" + part_name;
      const VerifyProgress progress =
          speaker ? entries_progress_printer("verifying " + title, *log_progress, 10) : VerifyProgress{};
      Expected<VerifyReport> report =
          help   ? verify_help_table(m.canonical_orientation(), rules, opt->tables, opt->threads, kind)
          : part ? verify_table_part(m.canonical_orientation(), rules, opt->tables, opt->threads, *part, progress)
                 : verify_table(m.canonical_orientation(), rules, opt->tables, opt->threads, partition, progress);
      clear_progress();
      if (!report && materials.size() > 1) {
        if (failed++ == 0) first_failure = report.error_kind();
        if (speaker) std::cerr << "feerie: " << report.error_message() << "\n";
        continue;
      }
      if (!report) {
        CommandError e(report.error());
        e.reported = !speaker;
        throw e;
      }
      const VerifyReport& r = *report;
      if (speaker) {
        std::cout << m.canonical_orientation().name() << part_name << (part ? ", " : ": ") << r.checked
                  << " entries checked, " << r.inconsistent << " inconsistent\n";
        for (const std::string& e : r.examples) std::cout << "  " << e << "\n";
      }
      all_good = all_good && r.inconsistent == 0;
    }
    if (failed) {
      CommandError e(fmt::format("{} of {} tables could not be verified{}", failed, materials.size(),
                                 all_good ? "" : ", and verification found inconsistent values in others"),
                     all_good ? first_failure : ErrorKind::Corruption);
      e.reported = !speaker;
      throw e;
    }
    if (!all_good) {
      CommandError e("verification found inconsistent values", ErrorKind::Corruption);
      e.reported = !speaker;
      throw e;
    }
  });
}

}  // namespace feerie::cli
