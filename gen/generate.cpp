#include "gen/generate.h"

#include <chrono>
#include <filesystem>

#include "feerie/tablebase.h"
#include "gen/graph.h"
#include "gen/solver.h"
#include "gen/statistics.h"
#include "probe/indexer.h"

namespace feerie {

namespace {

void say(const GenerateOptions& options, const std::string& message) {
  if (options.on_progress) options.on_progress(message);
}

// An existing table is reused when it opens cleanly and matches the rules and index.
bool usable_table(const std::string& path, const Material& material, const RuleSet& rules) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) || ec) return false;
  Expected<std::unique_ptr<TableFile>> file = TableFile::open(path);
  if (!file) return false;
  const TableHeader& h = (*file)->header();
  Indexer indexer(material, rules);
  return h.condition == rules.name() && h.material == material.name() && h.index_layout == indexer.layout() &&
         h.entries == indexer.size();
}

}  // namespace

Expected<GeneratedTable> generate_one(const Material& material, const RuleSet& rules, const GenerateOptions& options) {
  auto start = std::chrono::steady_clock::now();
  Tablebase subtables = Tablebase::open(options.tables_dir, rules);  // the solver loads what it needs
  Indexer indexer(material, rules);
  SolveOptions solve_options;
  solve_options.threads = options.threads;
  solve_options.on_pass = [&](const SolveProgress& p) {
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    say(options, material.name() + ": " + (p.plies == 0 ? std::string("initialised") : "pass " + std::to_string(p.plies)) +
                     ", " + std::to_string(p.resolved) + " resolved, " + std::to_string(int(elapsed)) + " s");
  };
  Expected<SolvedTable> solved = solve(indexer, subtables, solve_options);
  if (!solved) return error("solving " + material.name() + ": " + solved.error_message());
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  double solve_seconds = since(start);
  auto stats_start = std::chrono::steady_clock::now();

  GeneratedTable out;
  out.material = material;
  out.entries = indexer.size();
  out.passes = solved->passes;
  out.stats = compute_statistics(indexer, solved->values, options.threads);
  out.path = subtables.table_path(material);
  out.solve_seconds = solve_seconds;
  out.statistics_seconds = since(stats_start);
  auto write_start = std::chrono::steady_clock::now();

  TableHeader header;
  header.condition = rules.name();
  header.material = material.name();
  header.index_layout = indexer.layout();
  header.entries = indexer.size();
  header.stats = out.stats;
  header.generator = "feerie 0.1";
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(out.path).parent_path(), ec);
  if (ec) return error("cannot create the tables directory for '" + out.path + "': " + ec.message());
  if (Status s = write_table(out.path, header, solved->values); !s) return s.error();
  out.file_bytes = std::filesystem::file_size(out.path, ec);
  out.write_seconds = since(write_start);
  out.seconds = since(start);
  return out;
}

Expected<std::vector<GeneratedTable>> generate(const std::vector<Material>& targets, const RuleSet& rules,
                                               const GenerateOptions& options) {
  std::vector<GeneratedTable> done;
  Tablebase paths = Tablebase::open(options.tables_dir, rules);
  for (const std::vector<Material>& component : solving_order(targets, rules)) {
    if (component.size() != 1)
      return error("materials that change into each other without capture (" + component.front().name() +
                   ", ...) are not supported yet");
    const Material& material = component.front();
    std::string path = paths.table_path(material);
    if (usable_table(path, material, rules)) {
      GeneratedTable reused;
      reused.material = material;
      reused.path = path;
      reused.reused = true;
      done.push_back(reused);
      continue;
    }
    say(options, "generating " + material.name() + " (" + rules.name() + ")");
    Expected<GeneratedTable> t = generate_one(material, rules, options);
    if (!t) return t.error();
    done.push_back(*t);
  }
  return done;
}

}  // namespace feerie
