#include "gen/help_generate.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "gen/generate.h"
#include "gen/graph.h"
#include "gen/help_solver.h"
#include "gen/plan.h"
#include "gen/self_solver.h"
#include "gen/table_lock.h"
#include "probe/header_check.h"
#include "probe/help_tablebase.h"
#include "probe/indexer.h"
#include "probe/table_file.h"

namespace feerie {

namespace {

// Why the files of `material` cannot be reused: "" when both are on disk and read back
// sound (header and blocks), "missing" when one is not there, else what is wrong with one
// (reuse_problem names the file).
std::string reuse_problem_of(const std::string& dir, const RuleSet& rules, const Material& material,
                             StipulationKind kind) {
  for (Color mated : {WHITE, BLACK}) {
    const Stipulation s = Stipulation::of(kind, mated);
    const std::string path = table_file_path(dir, rules.name(), material.name(), s);
    const std::string problem = reuse_problem(path, material, rules, false, s);
    if (!problem.empty()) return problem;  // (naming the file)
  }
  return "";
}

// The bytes a component's solve holds at its peak: the program (program_resident_bytes()),
// the value store (up to 2 bytes per entry, both colours mated and both sides) and the
// tables it makes (3 bytes per entry and colour and side), with the sub-tables it reads
// whole (the same 3 bytes per entry). The sub-tables were counted at the component's own
// size each, and the program not at all: orthodox KQvKR was estimated at 79.4 MiB for a
// peak of 46.1 MiB.
std::uint64_t peak_bytes(const std::vector<Material>& component, const std::vector<const Indexer*>& members,
                         const RuleSet& rules) {
  std::uint64_t entries = 0;
  for (const Indexer* m : members) entries += 4 * m->size();
  // The members, then each sub-table once.
  std::set<std::string> counted;
  for (const Material& m : component) counted.insert(m.canonical_orientation().name());
  std::uint64_t read_entries = 0;
  for (const Material& m : component)
    for (const Material& successor : material_successors(m, rules)) {
      const Material canonical = successor.canonical_orientation();
      if (counted.insert(canonical.name()).second) read_entries += 4 * Indexer(canonical, rules).size();
    }
  return std::uint64_t(program_resident_bytes()) + entries * (2 + 3) + read_entries * 3;
}

}  // namespace

Expected<std::vector<GeneratedHelpTable>> generate_helpmates(const std::vector<Material>& targets, const RuleSet& rules,
                                                             const HelpGenerateOptions& options) {
  HelpTablebase tables(rules, options.tables_dir, options.kind, HelpReading::Whole);
  std::vector<GeneratedHelpTable> out;
  const std::string dir = condition_directory(options.tables_dir, rules.name());
  auto notice = [&](const std::string& message) {
    if (options.on_notice) options.on_notice(message);
  };
  // What interrupted runs left goes first, as for direct-mate tables.
  tidy_stale_temporaries(dir, options.on_notice);
  for (const std::vector<Material>& component : solving_order(targets, rules)) {
    if (options.cancelled && options.cancelled())
      return error(ErrorKind::Interrupted, "interrupted before the tables of " + component.front().name());
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::unique_ptr<Indexer>> indexers;
    std::vector<const Indexer*> members;
    for (const Material& m : component) {
      indexers.push_back(std::make_unique<Indexer>(m, rules));
      members.push_back(indexers.back().get());
    }
    // Why the component's files cannot be reused: its first member's problem, or "".
    auto component_problem = [&] {
      for (const Material& m : component)
        if (std::string problem = reuse_problem_of(options.tables_dir, rules, m, options.kind); !problem.empty())
          return problem;
      return std::string();
    };
    std::string why_not = component_problem();
    // One writer per component, as for direct-mate tables: a second run waits, then reuses
    // what the first wrote. (The lock files are apart from the direct-mate ones.)
    std::optional<TableLock> lock;
    if (!why_not.empty()) {
      if (Status s = prepare_directory(dir); !s) return s.error();
      const std::string stem =
          component.front().name() + (options.kind == StipulationKind::Selfmate ? ".self" : ".help");
      bool waited = false;
      Expected<TableLock> acquired =
          TableLock::acquire((std::filesystem::path(dir) / ("." + stem + ".lock")).string(), [&] {
            waited = true;
            notice("waiting for another feerie gen writing the " +
                   Stipulation::of(options.kind, BLACK).header_name().substr(0, 2) + " tables of " +
                   component.front().name());
          });
      if (!acquired) return acquired.error();
      lock.emplace(std::move(*acquired));
      if (waited) why_not = component_problem();  // what the other run wrote
    }
    const bool reuse = why_not.empty();
    std::vector<GeneratedHelpTable> done(component.size());
    for (std::size_t i = 0; i < component.size(); ++i) {
      done[i].material = component[i];
      done[i].entries = members[i]->size();
      for (Color mated : {WHITE, BLACK})
        done[i].paths[mated] = table_file_path(options.tables_dir, rules.name(), component[i].name(),
                                               Stipulation::of(options.kind, mated));
      done[i].reused = reuse;
      if (!reuse && why_not != "missing") done[i].replaced_because = why_not;
      // A reused table's longest mates are its files' statistics (they once read "none").
      if (reuse)
        for (Color mated : {WHITE, BLACK}) {
          Expected<std::unique_ptr<TableFile>> file = TableFile::open(done[i].paths[mated]);
          if (!file) return file.error();
          for (const SideStatistics& side : (*file)->header().stats)
            done[i].longest_plies[mated] = std::max(done[i].longest_plies[mated], side.longest_mate_plies);
        }
    }
    if (!reuse) {
      const std::uint64_t peak = peak_bytes(component, members, rules);
      if (options.max_memory && peak > options.max_memory)
        return error(ErrorKind::ResourceLimit,
                     "the " + Stipulation::of(options.kind, BLACK).header_name().substr(0, 2) + " tables of " +
                         component.front().name() + " need about " + bytes_text(double(peak)) +
                         ", more than the limit of " + bytes_text(double(options.max_memory)) + " (" +
                         options.max_memory_source + ")");
      Expected<std::vector<HelpTable>> solved =
          options.kind == StipulationKind::Selfmate
              ? solve_self_component(members, tables, options.threads, options.cancelled)
              : solve_help_component(members, tables, options.threads, options.cancelled);
      if (!solved) return solved.error();
      for (std::size_t i = 0; i < solved->size(); ++i) {
        if (Status s = write_help_table(options.tables_dir, rules, (*solved)[i], options.kind); !s) return s.error();
        for (Color mated : {WHITE, BLACK})
          for (const auto& side : (*solved)[i].plies[mated])
            for (ValueCode v : side)
              if (value::is_mate(v))
                done[i].longest_plies[mated] = std::max(done[i].longest_plies[mated], value::plies(v));
        tables.add(std::move((*solved)[i]));
      }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (GeneratedHelpTable& t : done) {
      t.seconds = reuse ? 0 : seconds;
      if (options.on_table) options.on_table(t);
      out.push_back(std::move(t));
    }
  }
  return out;
}

}  // namespace feerie
