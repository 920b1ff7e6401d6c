// `feerie bench`: generates a fixed set of tables from scratch and prints, per table, wall
// time, positions per second, peak memory and file size; under fairy conditions also the
// time per index entry against orthodox chess (the speed issue's measure). Each table is
// generated in a child process so that its peak memory is its own (docs/benchmarks.md).
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include "gen/generate.h"
#include "gen/graph.h"
#include "probe/indexer.h"
#include "probe/tablebase.h"
#include "tools/cli.h"

namespace feerie::cli {

namespace {

struct BenchRow {
  std::string material;
  double seconds = 0;
  long peak_kib = 0;
  std::uint64_t entries = 0;  // both sides
  std::uint64_t file_bytes = 0;
};

// Generates one table in a child process; the parent reads the child's peak memory.
BenchRow run_child(const Material& m, const RuleSet& rules, const GenerateOptions& options) {
  auto start = std::chrono::steady_clock::now();
  std::cout.flush();  // the child must not inherit (and print again) buffered output
  pid_t pid = fork();
  if (pid < 0) throw CommandError("fork failed");
  if (pid == 0) {
    Expected<GeneratedTable> t = generate_one(m, rules, options);
    if (!t) std::cerr << "feerie: " << t.error_message() << "\n";
    _exit(t ? 0 : 1);
  }
  int status = 0;
  struct rusage usage {};
  if (wait4(pid, &status, 0, &usage) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw CommandError("generating " + m.name() + " failed");
  BenchRow row;
  row.material = m.name();
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  row.peak_kib = usage.ru_maxrss;
  row.entries = 2 * Indexer(m, rules).size();
  row.file_bytes = std::filesystem::file_size(Tablebase::open(options.tables_dir, rules).table_path(m));
  return row;
}

// Times `targets` and their dependencies under `rules`; returns the rows of the targets.
std::vector<BenchRow> bench_condition(const std::vector<Material>& targets, const RuleSet& rules,
                                      const GenerateOptions& options, const std::vector<BenchRow>* orthodox) {
  std::filesystem::remove_all(std::filesystem::path(options.tables_dir) / rules.name());
  std::cout << "condition " << rules.name() << "\n";
  std::cout << fmt::format("{:<10} {:>9} {:>14} {:>12} {:>10} {:>12} {:>9}{}\n", "table", "seconds", "positions/s",
                           "entries", "peak MiB", "bytes/entry", "file KiB", orthodox ? "  per entry vs orthodox" : "");
  std::vector<BenchRow> timed_rows;
  double total = 0;
  for (const std::vector<Material>& component : solving_order(targets, rules)) {
    const Material& m = component.front();
    BenchRow r = run_child(m, rules, options);
    bool timed = std::find(targets.begin(), targets.end(), m) != targets.end();
    std::string ratio;
    if (timed) {
      total += r.seconds;
      timed_rows.push_back(r);
      if (orthodox)
        for (const BenchRow& o : *orthodox)
          if (o.material == r.material)
            ratio = fmt::format("  {:.2f}x", (r.seconds / double(r.entries)) / (o.seconds / double(o.entries)));
    }
    std::cout << fmt::format("{:<10} {:>9.2f} {:>14.0f} {:>12} {:>10.1f} {:>12.2f} {:>9.1f}{}{}\n", r.material,
                             r.seconds, r.entries / r.seconds, r.entries, r.peak_kib / 1024.0,
                             r.peak_kib * 1024.0 / r.entries, r.file_bytes / 1024.0, timed ? "" : "  (dependency)",
                             ratio);
  }
  std::cout << fmt::format("total of the timed tables: {:.2f} s\n", total);
  return timed_rows;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  struct Options {
    int threads = 0;
    std::string tables;
    std::vector<std::string> conditions{"orthodox"};
    std::vector<std::string> materials{"KQvKR", "KRvKB", "KQRvK", "KQRvKR"};
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("bench", "Generate a fixed set of tables from scratch and time them");
  cmd->add_option("--threads", opt->threads, "Threads (default: all cores)")->check(CLI::Range(0, 1024));
  cmd->add_option("--tables", opt->tables, "Scratch directory (default: a new temporary one, removed after)");
  cmd->add_option("--condition", opt->conditions,
                  "Conditions to time, repeatable (default: orthodox); orthodox is timed first for the per-entry "
                  "ratio of the others")
      ->allow_extra_args(false);
  cmd->add_option("material", opt->materials, "Tables to time (default: KQvKR KRvKB KQRvK KQRvKR)");
  cmd->callback([opt] {
    std::vector<RuleSet> conditions{RuleSet::orthodox()};
    for (const std::string& name : opt->conditions) {
      RuleSet rules = parse_condition(name);
      if (std::find(conditions.begin(), conditions.end(), rules) == conditions.end()) conditions.push_back(rules);
    }
    std::vector<Material> targets;
    for (const std::string& n : opt->materials) targets.push_back(take(Material::parse(n)).canonical_orientation());
    namespace fs = std::filesystem;
    bool temporary = opt->tables.empty();
    fs::path dir =
        temporary ? fs::temp_directory_path() / ("feerie-bench-" + std::to_string(getpid())) : fs::path(opt->tables);
    GenerateOptions options;
    options.tables_dir = dir.string();
    options.threads = opt->threads;
    // Orthodox first, as the baseline of the ratios: timed even when only fairy conditions
    // are asked for.
    std::vector<BenchRow> orthodox = bench_condition(targets, conditions.front(), options, nullptr);
    for (std::size_t c = 1; c < conditions.size(); ++c) bench_condition(targets, conditions[c], options, &orthodox);
    if (temporary) fs::remove_all(dir);
  });
}

}  // namespace feerie::cli
