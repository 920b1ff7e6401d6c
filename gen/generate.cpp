#include "gen/generate.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "feerie/tablebase.h"
#include "gen/graph.h"
#include "gen/plan.h"
#include "gen/solver.h"
#include "gen/statistics.h"
#include "probe/indexer.h"

namespace feerie {

namespace {

void say(const GenerateOptions& options, const std::string& message) {
  if (options.on_progress) options.on_progress(message);
}

// Solves `component` (its dependencies are on disk) and writes one table per member.
Expected<std::vector<GeneratedTable>> generate_component(std::vector<Material> component, const RuleSet& rules,
                                                         const GenerateOptions& options) {
  std::sort(component.begin(), component.end(), [](const Material& a, const Material& b) { return a.name() < b.name(); });
  auto start = std::chrono::steady_clock::now();
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  Tablebase subtables = Tablebase::open(options.tables_dir, rules);  // the solver loads what it needs
  std::vector<Indexer> indexers;
  for (const Material& m : component) indexers.emplace_back(m, rules);
  std::vector<const Indexer*> members;
  for (const Indexer& indexer : indexers) members.push_back(&indexer);
  const std::string names = material_names(component);
  SolveOptions solve_options;
  solve_options.threads = options.threads;
  solve_options.on_pass = [&](const SolveProgress& p) {
    std::string message = (component.size() == 1 ? names : "component " + names) + ": " +
                          (p.plies == 0 ? std::string("initialised") : "pass " + std::to_string(p.plies)) + ", " +
                          std::to_string(p.resolved) + " resolved";
    if (component.size() > 1) {
      // Which members the pass resolved entries in.
      std::string busy;
      for (std::size_t m = 0; m < component.size(); ++m)
        if (p.by_member[m]) busy += (busy.empty() ? "" : ", ") + component[m].name() + " " + std::to_string(p.by_member[m]);
      if (!busy.empty()) message += " (" + busy + ")";
    }
    say(options, message + ", " + std::to_string(int(since(start))) + " s");
  };
  Expected<std::vector<SolvedTable>> solved = solve_component(members, subtables, solve_options);
  if (!solved) return with_context("solving " + names + ": ", solved.error());
  double solve_seconds = since(start);

  std::vector<GeneratedTable> out;
  for (std::size_t m = 0; m < component.size(); ++m) {
    auto stats_start = std::chrono::steady_clock::now();
    GeneratedTable table;
    table.material = component[m];
    table.component = component;
    table.entries = indexers[m].size();
    table.passes = (*solved)[m].passes;
    table.stats = compute_statistics(indexers[m], (*solved)[m].values, options.threads);
    table.path = subtables.table_path(component[m]);
    table.solve_seconds = solve_seconds;  // the component's, shared by its members
    table.statistics_seconds = since(stats_start);
    auto write_start = std::chrono::steady_clock::now();
    TableHeader header;
    header.condition = rules.name();
    header.material = component[m].name();
    header.index_layout = indexers[m].layout();
    header.entries = indexers[m].size();
    header.stats = table.stats;
    header.generator = "feerie 0.1";
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(table.path).parent_path(), ec);
    if (ec) return error(ErrorKind::IOError, "cannot create the tables directory for '" + table.path + "': " + ec.message());
    if (Status s = write_table(table.path, header, (*solved)[m].values); !s) return s.error();
    (*solved)[m].values = {};  // release the member's memory once written
    table.file_bytes = std::filesystem::file_size(table.path, ec);
    table.write_seconds = since(write_start);
    table.seconds = since(start);
    out.push_back(table);
  }
  return out;
}

}  // namespace

Expected<GeneratedTable> generate_one(const Material& material, const RuleSet& rules, const GenerateOptions& options) {
  Expected<std::vector<GeneratedTable>> tables = generate_component({material}, rules, options);
  if (!tables) return tables.error();
  return tables->front();
}

Expected<std::vector<GeneratedTable>> generate(const std::vector<Material>& targets, const RuleSet& rules,
                                               const GenerateOptions& options) {
  Expected<Plan> plan = make_plan(targets, rules, options.tables_dir, options.max_memory);
  if (!plan) return plan.error();
  std::vector<GeneratedTable> done;
  Tablebase paths = Tablebase::open(options.tables_dir, rules);
  // What interrupted runs left behind goes before new files are written beside it.
  if (!plan->components.empty())
    remove_stale_temporaries(std::filesystem::path(paths.table_path(plan->components.front().members.front())).parent_path());
  for (const PlannedComponent& component : plan->components) {
    // A component is reused when every member's table is on disk and sound; otherwise it
    // is solved again whole (its members depend on each other), saying why when files
    // were there but could not be trusted.
    if (component.reuse) {
      for (const Material& material : component.members) {
        GeneratedTable reused;
        reused.material = material;
        reused.path = paths.table_path(material);
        reused.reused = true;
        reused.component = component.members;
        done.push_back(reused);
      }
      continue;
    }
    const std::string names = material_names(component.members);
    say(options, "generating " + (component.members.size() == 1 ? names : "component " + names) + " (" + rules.name() +
                     ")");
    Expected<std::vector<GeneratedTable>> tables = generate_component(component.members, rules, options);
    if (!tables) return tables.error();
    for (GeneratedTable& t : *tables) t.replaced_because = component.why_not_reused;
    done.insert(done.end(), tables->begin(), tables->end());
  }
  return done;
}

}  // namespace feerie
