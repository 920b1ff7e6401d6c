#include "gen/generate.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "gen/checkpoint.h"
#include "gen/graph.h"
#include "gen/partitioned_table.h"
#include "gen/plan.h"
#include "gen/solver.h"
#include "gen/spread_checkpoint.h"
#include "gen/statistics.h"
#include "gen/table_lock.h"
#include "probe/atomic_file.h"
#include "probe/indexer.h"
#include "probe/tablebase.h"

namespace feerie {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// How far the whole job is: entries of the components to generate, done and in all.
struct JobProgress {
  Clock::time_point start = Clock::now();
  double total_entries = 0, done_entries = 0;
  // The largest fraction said so far: the share said never goes back (a magic component
  // said 42% while initialising and 15% at its first pass, where fewer entries are decided
  // than the initialisation's assumed half).
  double said_fraction = 0;
};

// Reports `message` with the job's fraction done once `current` of the entries of the
// component being solved (`component_entries`) are accounted for.
void say(const GenerateOptions& options, JobProgress& job, const std::string& message, double current = 0) {
  if (!options.on_progress) return;
  GenerateProgress p;
  p.message = message;
  p.elapsed_seconds = seconds_since(job.start);
  p.job_fraction = job.total_entries > 0 ? std::min(1.0, (job.done_entries + current) / job.total_entries) : 0;
  p.job_fraction = job.said_fraction = std::max(job.said_fraction, p.job_fraction);
  // Too early a guess swings wildly; from 1% on it is at least a useful order of magnitude.
  if (p.job_fraction >= 0.01) p.remaining_seconds = p.elapsed_seconds * (1 - p.job_fraction) / p.job_fraction;
  options.on_progress(p);
}

void notice(const GenerateOptions& options, const std::string& message) {
  if (options.on_notice) options.on_notice(message);
}

// Tells of the checkpoints an earlier interrupted run of `title` left and that are now
// removed, its tables being finished (remove_checkpoints).
void say_removed(const GenerateOptions& options, const std::string& title, const std::vector<std::string>& removed) {
  if (removed.empty()) return;
  std::string names;
  for (const std::string& r : removed) names += (names.empty() ? "" : ", ") + r;
  notice(options, "removed the checkpoints an earlier interrupted run of " + title + " left: " + names);
}

// "KQvKR" or "component KmRvKP, KNvKmR, ...": how messages name what is being solved.
std::string component_title(const std::vector<Material>& component) {
  return (component.size() == 1 ? "" : "component ") + material_names(component);
}

// Says that the checkpoints on disk of the component whose first member is `first` were
// saved by runs of another number of processes than this one's `part`, if they were: they
// cannot be resumed from, and used to be passed over in silence.
void say_checkpoints_of_other_runs(const GenerateOptions& options, const std::string& path, CheckpointPart part,
                                   const std::string& title, const std::string& first) {
  std::vector<int> runs = checkpoint_runs(std::filesystem::path(path).parent_path().string(), first);
  std::erase(runs, part.ranks);
  if (runs.empty()) return;
  auto processes = [](int n) { return std::to_string(n) + (n == 1 ? " process" : " processes"); };
  std::string saved;
  for (int n : runs) saved += (saved.empty() ? "" : " and of ") + processes(n);
  notice(options, title + ": not resuming: its checkpoints on disk were saved by a job of " + saved +
                      ", and a job resumes only with as many (this one has " + processes(part.ranks) +
                      "); starting over");
}

// The state to resume the solve from, its values loaded into `values`, or nothing (saying
// why when checkpoints were there). Processes of a spread solve (`spread`) commit their
// checkpoints together (gen/spread_checkpoint.h); one process alone replaces its file
// atomically.
std::optional<SolverState> resume_solve(const GenerateOptions& options, Partition* spread, const std::string& path,
                                        CheckpointPart part, const std::string& title, const RuleSet& rules,
                                        const std::vector<const Indexer*>& members, std::vector<MemberValues>& values) {
  const std::string first = members.front()->material().name();
  if (spread) {
    // The latest pass every process saved, whichever of its two files holds it.
    Expected<SpreadResume> found = load_spread_checkpoint(*spread, path, rules.name(), members, values);
    if (!found) {
      notice(options, title + ": not resuming: " + found.error_message() + "; starting over");
      return std::nullopt;
    }
    if (!found->why_not.empty())
      notice(options, title + ": not resuming: " + found->why_not + "; starting over");
    else if (!found->state)
      say_checkpoints_of_other_runs(options, path, part, title, first);
    return found->state;
  }
  Expected<SolverState> state = load_checkpoint(path, rules.name(), members, values, part);
  if (!state) {
    if (state.error_kind() != ErrorKind::NotFound)
      notice(options, title + ": not resuming: " + state.error_message() + "; starting over");
    else
      say_checkpoints_of_other_runs(options, path, part, title, first);
    return std::nullopt;
  }
  return *state;
}

// Solve options that save the solve to a checkpoint as often as asked and resume from
// one found on disk, saying so.
void add_checkpoints(SolveOptions& solve, const std::string& path, CheckpointPart part, const std::string& title,
                     const RuleSet& rules, const std::vector<const Indexer*>& members, const GenerateOptions& options,
                     int& resumed_at) {
  Partition* spread = options.partition && options.partition->ranks() > 1 ? options.partition : nullptr;
  solve.resume = [&, spread, path, part, title](std::vector<MemberValues>& values) {
    return resume_solve(options, spread, path, part, title, rules, members, values);
  };
  solve.on_resume_checked = [&options, &resumed_at, title](const SolverState& state, const std::string& refused) {
    if (!refused.empty()) {
      notice(options, title + ": not resuming: " + refused + "; starting over");
      return;
    }
    resumed_at = state.next_ply;
    notice(options, "resuming " + title + " from its checkpoint at pass " + std::to_string(state.next_ply));
  };
  auto last_save = std::make_shared<Clock::time_point>(Clock::now());
  // Whether saves are failing: a full disk is said once, not at every pass (issue 27 G),
  // and a save that works again is said too.
  auto failing = std::make_shared<bool>(false);
  solve.after_pass = [&, spread, path, part, title, last_save, failing](
                         const SolverState& state, const std::vector<MemberValues>& values, bool stopping) -> Status {
    bool due = options.checkpoint_seconds >= 0 && (stopping || seconds_since(*last_save) >= options.checkpoint_seconds);
    if (options.partition) {
      // Every process saves at the same pass, or none does (clocks differ).
      Expected<bool> anyone = options.partition->any(due);
      if (!anyone) return anyone.error();
      due = *anyone;
    }
    if (!due) return Ok{};
    // Why this save failed ("" when it did not): in a spread solve, any process's failure,
    // the same words in every process, the old checkpoints kept (gen/spread_checkpoint.h).
    std::string failure;
    if (spread) {
      Expected<std::string> saved =
          save_spread_checkpoint(*spread, path, rules.name(), members, state, values, options.threads);
      if (!saved) return saved.error();
      failure = *saved;
    } else if (Status s = save_checkpoint(path, rules.name(), members, state, values, options.threads, part); !s) {
      failure = s.error_message();
    }
    if (!failure.empty()) {
      // A checkpoint is a safety net, not the job: the solve goes on without it.
      if (!*failing)
        notice(options, title + ": could not save a checkpoint: " + failure +
                            " (said once; the solve goes on, trying again at the next checkpoint)");
      *failing = true;
    } else if (*failing) {
      notice(options, title + ": checkpoint saved again at pass " + std::to_string(state.next_ply));
      *failing = false;
    }
    *last_save = Clock::now();
    return Ok{};
  };
  solve.cancelled = options.cancelled;
}

// Solves `component` (its dependencies are on disk; its directory is prepared) and writes
// one table per member, handing each to options.on_table as soon as it is written.
// `replaced_because`: why tables on disk were not reused, for each member's record.
Expected<std::vector<GeneratedTable>> solve_and_write_component(std::vector<Material> component, const RuleSet& rules,
                                                                const GenerateOptions& options, JobProgress& job,
                                                                const std::string& replaced_because) {
  std::sort(component.begin(), component.end(),
            [](const Material& a, const Material& b) { return a.name() < b.name(); });
  auto start = Clock::now();
  Tablebase subtables = Tablebase::open(options.tables_dir, rules);  // the solver loads what it needs
  const std::string dir = std::filesystem::path(subtables.table_path(component.front())).parent_path().string();
  std::vector<Indexer> indexers;
  for (const Material& m : component) indexers.emplace_back(m, rules);
  std::vector<const Indexer*> members;
  for (const Indexer& indexer : indexers) members.push_back(&indexer);
  const std::string names = material_names(component), title = component_title(component);
  SolveOptions solve_options;
  solve_options.threads = options.threads;
  solve_options.partition = options.partition;
  if (options.exchange_limit) solve_options.exchange_limit = options.exchange_limit;
  solve_options.loss_passes = options.loss_passes;
  std::uint64_t exchanged = 0, busiest = 0;
  int pulled = 0;
  solve_options.on_pass = [&](const SolveProgress& p) {
    exchanged += p.sent;
    pulled += p.pulled;
    busiest = std::max(busiest, p.sent);
    std::string message = title + ": " +
                          (p.plies == 0 ? std::string("initialised") : "pass " + std::to_string(p.plies)) + ", " +
                          std::to_string(p.resolved) + " resolved";
    if (component.size() > 1) {
      // Which members the pass resolved entries in.
      std::string busy;
      for (std::size_t m = 0; m < component.size(); ++m)
        if (p.by_member[m])
          busy += (busy.empty() ? "" : ", ") + component[m].name() + " " + std::to_string(p.by_member[m]);
      if (!busy.empty()) message += " (" + busy + ")";
    }
    const double decided = p.entries ? double(p.decided) / double(p.entries) : 0;
    message += ", " + std::to_string(int(100 * std::min(1.0, decided))) + "% decided";
    say(options, job, message, decided * double(p.entries));
  };
  // The initialisation decides most entries at once, and is counted as it goes as
  // deciding half of them: counted as none, the estimate of the time left grew all
  // through it (annan KQRvKR: "about 1 h 24 min left" at 98% of it, for a job of 10 min).
  constexpr double InitialisationShare = 0.5;
  double component_entries = 0;
  for (const Indexer& indexer : indexers) component_entries += 2 * double(indexer.size());
  solve_options.on_initialising = [&](std::uint64_t done, std::uint64_t total) {
    const double fraction = double(done) / double(std::max<std::uint64_t>(total, 1));
    say(options, job, title + ": initialising, " + std::to_string(int(100 * fraction)) + "% of the entries",
        InitialisationShare * fraction * component_entries);
  };
  const CheckpointPart part =
      options.partition ? CheckpointPart{options.partition->rank(), options.partition->ranks()} : CheckpointPart{};
  const std::string checkpoint = checkpoint_path(dir, members, part);
  int resumed_at = -1;
  add_checkpoints(solve_options, checkpoint, part, title, rules, members, options, resumed_at);
  Expected<std::vector<SolvedTable>> solved = solve_component(members, subtables, solve_options);
  if (!solved) return with_context("solving " + names + ": ", solved.error());
  double solve_seconds = seconds_since(start);

  std::vector<GeneratedTable> out;
  for (std::size_t m = 0; m < component.size(); ++m) {
    auto stats_start = Clock::now();
    GeneratedTable table;
    table.material = component[m];
    table.component = component;
    table.entries = indexers[m].size();
    table.passes = (*solved)[m].passes;
    table.pulled = pulled;
    table.resumed_at_pass = resumed_at;
    table.exchanged = exchanged;
    table.busiest_pass_exchanged = busiest;
    table.replaced_because = replaced_because;
    if (options.partition) {
      Expected<std::array<SideStatistics, 2>> stats = partitioned_statistics(
          *options.partition, indexers[m], (*solved)[m].values, (*solved)[m].range, options.threads);
      if (!stats) return stats.error();
      table.stats = *stats;
    } else {
      table.stats = compute_statistics(indexers[m], (*solved)[m].values, options.threads);
    }
    table.path = subtables.table_path(component[m]);
    table.solve_seconds = solve_seconds;  // the component's, shared by its members
    table.statistics_seconds = seconds_since(stats_start);
    auto write_start = Clock::now();
    TableHeader header;
    header.condition = rules.name();
    header.material = component[m].name();
    header.index_layout = indexers[m].layout();
    header.entries = indexers[m].size();
    header.stats = table.stats;
    header.generator = GeneratorName;
    Status written =
        options.partition
            ? write_partitioned_table(*options.partition, table.path, header, (*solved)[m].values, (*solved)[m].range)
            : write_table(table.path, header,
                          {ValueSource::of((*solved)[m].values[0]), ValueSource::of((*solved)[m].values[1])});
    if (!written) return written.error();
    (*solved)[m].values = {};  // release the member's memory once written
    std::error_code ec;
    table.file_bytes = std::filesystem::file_size(table.path, ec);
    table.write_seconds = seconds_since(write_start);
    table.seconds = seconds_since(start);
    out.push_back(table);
    if (options.on_table) options.on_table(table);
  }
  for (const Indexer& indexer : indexers) job.done_entries += 2 * double(indexer.size());
  // Every member is on disk: the checkpoint has served, and so have those an earlier run
  // of another shape left (one process, or another number of them: issue 27 C), which the
  // leader removes, saying so.
  std::error_code ec;
  std::filesystem::remove(checkpoint, ec);
  std::filesystem::remove(pending_checkpoint_path(checkpoint), ec);
  if (!options.partition || options.partition->rank() == 0) {
    say_removed(options, title, remove_checkpoints(dir, component.front().name(), part.ranks));
  }
  return out;
}

// Running out of memory in the middle of a solve (the plan's estimate fitted, but the
// process could not get the memory: another program took it, or a limit counts address
// space the threads reserve) is a resource limit the caller can act on, not an internal
// error.
Expected<std::vector<GeneratedTable>> generate_component(const std::vector<Material>& component, const RuleSet& rules,
                                                         const GenerateOptions& options, JobProgress& job,
                                                         const std::string& replaced_because) {
  try {
    return solve_and_write_component(component, rules, options, job, replaced_because);
  } catch (const std::bad_alloc&) {
    const MemoryAllowance allowance = memory_allowance();
    return error(ErrorKind::ResourceLimit,
                 "out of memory while generating " + component_title(component) + " (now " +
                     bytes_text(double(allowance.bytes)) + " left: " + allowance.bound +
                     "); free memory or raise the limit, or spread the table over processes with --mpi");
  }
}

// Whether every member of `members` has a sound table on disk (another run may have
// written them since the plan).
bool all_sound(const std::vector<Material>& members, const RuleSet& rules, const Tablebase& paths) {
  return std::all_of(members.begin(), members.end(),
                     [&](const Material& m) { return reuse_problem(paths.table_path(m), m, rules).empty(); });
}

Status check_thread_count(int threads) {
  if (threads < 0 || threads > MaxThreads)
    return error(ErrorKind::InvalidArgument, "a thread count of " + std::to_string(threads) +
                                                 " (expected 0 for all cores, or 1 to " + std::to_string(MaxThreads) +
                                                 ")");
  return Ok{};
}

GeneratedTable reused_table(const Material& material, const std::vector<Material>& component, const Tablebase& paths) {
  GeneratedTable reused;
  reused.material = material;
  reused.path = paths.table_path(material);
  reused.reused = true;
  reused.component = component;
  // The file's size on disk (issue 24: Python's generate() said 0 bytes for a reused table).
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(reused.path, ec);
  reused.file_bytes = ec ? 0 : std::uint64_t(size);
  return reused;
}

}  // namespace

// Makes the directory the tables go to and checks that files can be made there, before
// any solving: a bad --tables is found at once, not after an hour of work.
// A file where a directory should be is the caller's mistake (`--tables FILE`: issue 27
// G), not a failing disk.
Status refuse_file_on_directory_path(const std::string& dir) {
  std::error_code ec;
  for (std::filesystem::path p = dir; !p.empty() && p != p.root_path(); p = p.parent_path())
    if (std::filesystem::exists(p, ec) && !std::filesystem::is_directory(p, ec))
      return error(ErrorKind::InvalidArgument, "the tables directory '" + dir + "' cannot be made: '" + p.string() +
                                                   "' is a file, not a directory");
  return Ok{};
}

Status refuse_unwritable_directory(const std::string& dir) {
  std::error_code ec;
  // The nearest directory on the path that is there: where the missing ones would be made.
  std::filesystem::path existing = dir.empty() ? "." : dir;
  while (!std::filesystem::exists(existing, ec)) {
    const std::filesystem::path parent = existing.parent_path();
    if (parent == existing) break;
    existing = parent.empty() ? "." : parent;
  }
  // A directory made and removed at once, not access(): root passes access() everywhere,
  // and /proc or /sys (where nothing can be made) then passed the plan and failed gen.
  const std::filesystem::path trial = existing / (".feerie-write-test-" + std::to_string(::getpid()));
  if (::mkdir(trial.c_str(), 0700) == 0 || errno == EEXIST) {
    ::rmdir(trial.c_str());
    return Ok{};
  }
  const std::string why = std::strerror(errno);
  if (existing == std::filesystem::path(dir))
    return error(ErrorKind::IOError, "the tables directory is not writable: '" + dir + "': " + why);
  return error(ErrorKind::IOError,
               "cannot create the tables directory '" + dir + "': '" + existing.string() + "': " + why);
}

Status prepare_directory(const std::string& dir) {
  if (Status s = refuse_file_on_directory_path(dir); !s) return s;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return error(ErrorKind::IOError, "cannot create the tables directory '" + dir + "': " + ec.message());
  // A temporary file, removed again when `probe` goes out of scope uncommitted.
  Expected<AtomicFile> probe = AtomicFile::create((std::filesystem::path(dir) / "write-test").string());
  if (!probe) return with_context("the tables directory is not writable: ", probe.error());
  return Ok{};
}

void tidy_stale_temporaries(const std::string& dir, const std::function<void(const std::string&)>& on_notice) {
  const int removed = remove_stale_temporaries(dir);
  if (removed > 0 && on_notice)
    on_notice("removed " + std::to_string(removed) + " temporary file" + (removed == 1 ? "" : "s") +
              " that an interrupted run left in " + dir);
}

Expected<GeneratedTable> generate_one(const Material& material, const RuleSet& rules, const GenerateOptions& options) {
  if (Status s = check_thread_count(options.threads); !s) return s.error();
  const Tablebase paths = Tablebase::open(options.tables_dir, rules);
  if (Status s = prepare_directory(std::filesystem::path(paths.table_path(material)).parent_path().string()); !s)
    return s.error();
  JobProgress job;
  job.total_entries = 2 * double(Indexer(material, rules).size());
  Expected<std::vector<GeneratedTable>> tables = generate_component({material}, rules, options, job, "");
  if (!tables) return tables.error();
  return tables->front();
}

namespace {

// Whether every process of a spread job sees the tables directory `dir` as process 0 does
// (gen/partition.h's every_process_opens, on a file of process 0's naming, removed after).
// Collective. `prepared`: process 0's preparation of the directory; when it failed, every
// process fails with process 0's words.
Status every_process_sees(Partition& partition, const std::string& dir, const Status& prepared) {
  const bool creator = partition.rank() == 0;
  Expected<std::vector<std::string>> told =
      partition.all_gather(creator ? failure_text(prepared ? nullptr : &prepared.error()) : "");
  if (!told) return told.error();
  if (std::optional<Error> failed = job_failure({told->front()})) return *failed;
  Expected<std::vector<std::string>> names =
      partition.all_gather(creator ? temporary_name((std::filesystem::path(dir) / "shared-view-check").string()) : "");
  if (!names) return names.error();
  return every_process_opens(partition, names->front(), false);
}

// The plan of the job. Spread over processes, process 0 alone reads the disk (which tables
// are there and sound) and the others follow its reading (ReuseVerdict); each checks its
// own memory limit, and all fail together, in the same words, when one of them refuses.
Expected<Plan> plan_job(const std::vector<Material>& targets, const RuleSet& rules, const GenerateOptions& options) {
  Partition* partition = options.partition;
  if (!partition || partition->ranks() == 1)
    return make_plan(targets, rules, options.tables_dir, options.max_memory, 1, options.max_memory_source);
  const int ranks = partition->ranks();
  std::string reading;
  Expected<Plan> plan = error(ErrorKind::Internal, "no plan");
  if (partition->rank() == 0) {
    plan = make_plan(targets, rules, options.tables_dir, options.max_memory, ranks, options.max_memory_source);
    nlohmann::json components = nlohmann::json::array();
    if (plan)
      for (const ReuseVerdict& v : reuse_verdicts(*plan))
        components.push_back({{"members", v.members}, {"reuse", v.reuse}, {"why_not_reused", v.why_not_reused}});
    reading = nlohmann::json{{"planned", bool(plan)}, {"components", components}}.dump();
  }
  Expected<std::vector<std::string>> told = partition->all_gather(reading);
  if (!told) return told.error();
  // Whether this process failed to plan on its own account (not because process 0 did).
  bool failed_here = partition->rank() == 0 && !plan;
  if (partition->rank() != 0) {
    std::vector<ReuseVerdict> verdicts;
    nlohmann::json j = nlohmann::json::parse(told->front(), nullptr, false);
    bool planned = false;
    try {
      planned = j.at("planned").get<bool>();
      for (const nlohmann::json& c : j.at("components"))
        verdicts.push_back(ReuseVerdict{c.at("members").get<std::vector<std::string>>(), c.at("reuse").get<bool>(),
                                        c.at("why_not_reused").get<std::string>()});
    } catch (const nlohmann::json::exception&) {
      return error(ErrorKind::Internal, "process 0 told its plan in words not understood");
    }
    if (planned) {
      plan = make_plan(targets, rules, options.tables_dir, options.max_memory, ranks, options.max_memory_source, 0,
                       &verdicts);
      failed_here = !plan;
    }
  }
  Expected<std::vector<std::string>> outcomes =
      partition->all_gather(failure_text(failed_here ? &plan.error() : nullptr));
  if (!outcomes) return outcomes.error();
  if (std::optional<Error> failed = job_failure(*outcomes)) return *failed;
  return plan;
}

}  // namespace

Expected<std::vector<GeneratedTable>> generate(const std::vector<Material>& targets, const RuleSet& rules,
                                               const GenerateOptions& options) {
  if (Status s = check_thread_count(options.threads); !s) return s.error();
  Expected<Plan> plan = plan_job(targets, rules, options);
  if (!plan) return plan.error();
  std::vector<GeneratedTable> done;
  Tablebase paths = Tablebase::open(options.tables_dir, rules);
  if (plan->components.empty()) return done;
  JobProgress job;
  for (const PlannedComponent& c : plan->components) job.total_entries += c.reuse ? 0 : c.entries;
  // A reused table is reported like a written one; checkpoints of its component that an
  // interrupted run left have served (the leader removes them).
  const bool leader = !options.partition || options.partition->rank() == 0;
  auto reuse = [&](const PlannedComponent& component) {
    if (leader) {
      const std::string dir = std::filesystem::path(paths.table_path(component.members.front())).parent_path().string();
      say_removed(options, component_title(component.members),
                  remove_checkpoints(dir, component.members.front().name(), 0));
    }
    for (const Material& material : component.members) {
      done.push_back(reused_table(material, component.members, paths));
      if (options.on_table) options.on_table(done.back());
    }
  };
  const std::filesystem::path dir =
      std::filesystem::path(paths.table_path(plan->components.front().members.front())).parent_path();
  bool work =
      std::any_of(plan->components.begin(), plan->components.end(), [](const PlannedComponent& c) { return !c.reuse; });
  // Processes on other machines cannot tell whether a process id is alive here: the
  // directory is tidied, checked and locked by process 0 alone.
  // What interrupted runs left behind goes first (before new files are written beside it).
  if (leader) tidy_stale_temporaries(dir.string(), options.on_notice);
  Status prepared = Ok{};
  if (work && leader) prepared = prepare_directory(dir.string());
  // Before any solve, not only when the first table is written an hour later: every
  // process must see and write the directory process 0 prepared.
  if (work && options.partition && options.partition->ranks() > 1)
    prepared = every_process_sees(*options.partition, dir.string(), prepared);
  if (!prepared) return prepared.error();
  if (work && leader) {
    std::error_code ec;
    std::uint64_t needed = 0;
    for (const PlannedComponent& c : plan->components) needed += c.reuse ? 0 : c.file_bytes;
    std::filesystem::space_info space = std::filesystem::space(dir, ec);
    if (!ec && space.available < needed)
      notice(options, "only " + bytes_text(double(space.available)) + " free in '" + dir.string() +
                          "'; the tables may need about " + bytes_text(double(needed)));
  }
  for (const PlannedComponent& component : plan->components) {
    // A component is reused when every member's table is on disk and sound; otherwise it
    // is solved again whole (its members depend on each other), saying why when files
    // were there but could not be trusted.
    if (component.reuse) {
      reuse(component);
      continue;
    }
    const std::string title = component_title(component.members);
    // One writer per component: a second run waits, then reuses what the first wrote.
    std::optional<TableLock> lock;
    Status locked = Ok{};
    if (leader) {
      Expected<TableLock> acquired =
          TableLock::acquire((dir / ("." + component.members.front().name() + ".lock")).string(),
                             [&] { notice(options, "waiting for another feerie gen writing " + title); });
      if (acquired)
        lock.emplace(std::move(*acquired));
      else
        locked = acquired.error();
    }
    // Checked again under the lock, waited for or not: another run may have written the
    // tables since the plan (a set and a run of one of its materials started together
    // once both generated it).
    bool reusable = leader && locked && all_sound(component.members, rules, paths);
    if (options.partition) {
      // The others follow process 0: stop if it could not lock, reuse what it reuses.
      Expected<bool> failed = options.partition->any(!locked);
      if (!failed) return failed.error();
      if (*failed && locked) return error(ErrorKind::IOError, "process 0 could not lock the tables of " + title);
      Expected<bool> reuse_them = options.partition->any(reusable);
      if (!reuse_them) return reuse_them.error();
      reusable = *reuse_them;
    }
    if (!locked) return locked.error();
    if (reusable) {
      reuse(component);
      job.total_entries -= component.entries;
      continue;
    }
    say(options, job, "generating " + title + " (" + rules.name() + ")");
    Expected<std::vector<GeneratedTable>> tables =
        generate_component(component.members, rules, options, job, component.why_not_reused);
    if (!tables) return tables.error();
    done.insert(done.end(), tables->begin(), tables->end());
  }
  // Again at the end: a process of an interrupted run may still have been alive (and
  // writing) when this run started, its temporary file left behind when it died.
  if (leader) tidy_stale_temporaries(dir.string(), options.on_notice);
  return done;
}

}  // namespace feerie
