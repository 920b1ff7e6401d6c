#include "gen/plan.h"

#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "gen/generate.h"
#include "gen/graph.h"
#include "probe/header_check.h"
#include "probe/indexer.h"
#include "probe/table_file.h"
#include "probe/tablebase.h"
#include "probe/value_array.h"

namespace feerie {

namespace {

// The largest index the solver addresses (its entries pack an index in 48 bits).
constexpr double MaxEntriesPerSide = 140737488355328.0;  // 2^47

// Compressed tables take about a quarter of a byte per entry (KQRvKR: 0.25; most 3- and
// 4-man tables less; orthodox KQRvKQR 0.29), held in memory (one string per block) until
// the file is written up to HeldCompressedBytes; past that, a batch of blocks at a time
// (probe/table_file.h).
constexpr double FileBytesPerEntry = 0.25;
constexpr double WriteBatchBytes = FileBytesPerEntry * double(WriteBatchBlocks) * double(DefaultBlockEntries);
// The program beyond its values, block caches and compressed blocks: what this process holds
// when it plans (its code and libraries, resident before any table: 12.8 MiB on an AMD EPYC
// on 2026-11-26, where the same program measured 7.5 MiB on an earlier machine, so a
// constant cannot serve both) and the work of a solve on top of it, measured with 2
// threads: KQvKR's peak (20.2-20.8 MiB) less its values, its file and the 12.8 MiB left 2.4
// MiB; KRvKB's (19.6 MiB) 2.6. The checkpoint writer's few chunk buffers (2 MiB per thread,
// only in solves of minutes) are within the 10% the estimate is held to.
constexpr double SolveWorkBytes = 2.5 * 1024 * 1024;
// The solver's values: one byte per entry and side while every value fits in a byte
// (probe/value_array.h: mates up to 151 plies, the longest of most 5-man tables), two after.
// A table with a longer mate extends its values with a high bit per entry when the solve
// gets there (1.125 bytes per entry, mates up to 303 plies), and widens them to two bytes
// only past that. Which a table needs is known only once solved: the plan gives the peak
// with one byte and with the high bit (orthodox KQRvKQR, a mate of 233 plies: 1.8 GiB of
// high bits), and checks the limit against the second.
constexpr double ValueBytes = 1;
constexpr double LongMateValueBytes = 1.125;
// SolveOptions::exchange_limit's default.
constexpr double ExchangeLimit = double(std::uint64_t(1) << 18);

// A field of /proc/meminfo or /proc/self/status in bytes ("MemAvailable:", "VmSize:"),
// 0 when absent.
std::uint64_t kib_field(const char* path, const std::string& wanted) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(wanted, 0) != 0) continue;
    std::istringstream fields(line.substr(wanted.size()));
    std::uint64_t kib = 0;
    fields >> kib;
    return kib * 1024;
  }
  return 0;
}

// The program as it was resident when it started, before MPI_Init (a namespace-scope
// constant is read as the program loads, before main). A plan for several processes made
// in one process (`gen --plan --ranks`) has no MPI runtime in it, and the job it plans
// does.
const double ResidentAtStart = double(kib_field("/proc/self/status", "VmRSS:"));
// What Open MPI's runtime adds to a process's resident size: 7.5 MiB at MPI_Init with 1 or
// 2 processes, 11.3 MiB with 4 and 8, after a few collectives (Open MPI 4.1.4, AMD EPYC,
// 2026-11-30). Without it a plan for 2 processes accepted what the job then refused, some
// 7 MiB over the plan. Counting the most it was measured at keeps a plan from accepting
// what its job refuses; on a table of seconds it overestimates the peak (Annan KBvKN over
// 2 processes: planned 43.1 MiB, 34.2 MiB measured), on the tables MPI is for it is noise.
constexpr double MpiRuntimeBytes = 12.0 * 1024 * 1024;

// The program, resident now, with the work of a solve (SolveWorkBytes); in a spread job,
// at least what it was at its start with MPI's runtime, whether this process has started
// that runtime yet or not, so that a plan and the job it plans count alike.
double program_bytes(int ranks) {
  const double now = double(kib_field("/proc/self/status", "VmRSS:"));
  const double program = ranks > 1 ? std::max(now, ResidentAtStart + MpiRuntimeBytes) : now;
  return program + SolveWorkBytes;
}

double binomial(int n, int k) {
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

std::string entries_text(double entries) {
  std::ostringstream out;
  if (entries < 1e9)
    out << std::uint64_t(entries);
  else
    out.precision(3), out << entries;
  return out.str();
}

}  // namespace

double program_resident_bytes() { return program_bytes(1); }

double estimated_entries(const Material& material, const RuleSet& rules) {
  Indexer indexer(material, rules);
  double entries = double(indexer.king_pair_count()) * (1 + indexer.ep_region_share());
  for (Color c : {WHITE, BLACK})
    for (int magic = 0; magic < 2; ++magic)
      for (PieceType pt : NameOrder)
        if (pt != KING) entries *= binomial(64, material.count(c, pt, magic));
  return entries;
}

std::uint64_t estimated_peak_bytes(const std::vector<Material>& component, const RuleSet& rules, int threads, int ranks,
                                   bool long_mates) {
  if (threads <= 0) threads = omp_get_max_threads();
  double values = 0, largest_member = 0;
  for (const Material& m : component) {
    double e = estimated_entries(m, rules);
    values += 2 * (long_mates ? LongMateValueBytes : ValueBytes) * e;
    largest_member = std::max(largest_member, 2 * e);
  }
  // The tables a move out of the component leads to: the small ones read whole, a byte per
  // entry (read_whole_instead_of_blocks()); the others read through their compressed blocks
  // (SolveOptions::subtable_reading): each file's shared block cache, and each thread's own
  // references to the blocks it read last, which may keep blocks the shared caches let go;
  // no more than all their blocks.
  std::set<Material> exits;
  for (const Material& m : component)
    for (const Material& s : material_successors(m, rules))
      if (std::find(component.begin(), component.end(), s) == component.end()) exits.insert(s);
  double whole = 0, shared = 0, all_blocks = 0;
  for (const Material& m : exits) {
    const double e = estimated_entries(m, rules);
    if (read_whole_instead_of_blocks(std::uint64_t(e))) {
      whole += 2 * e;
      continue;
    }
    shared += double(shared_block_cache_bytes(std::uint64_t(e)));
    all_blocks += 2 * double(sizeof(ValueCode)) * e;
  }
  const double read = whole + std::min(all_blocks, shared + double(threads) * double(ThreadBlockCacheBytes));
  const double file = FileBytesPerEntry * largest_member;
  const double writing = file > double(HeldCompressedBytes) ? double(HeldCompressedBytes) + WriteBatchBytes : file;
  if (ranks <= 1) return std::uint64_t(values + read + writing + program_bytes(1));
  // Spread over processes: each holds its part of the values and of the file being
  // written, its own block caches of the sub-tables, and the updates of one exchange three
  // times (the threads' buffers, the send buffer and what arrives), at most ExchangeLimit
  // of them.
  const double own = values / ranks;
  const double exchange = 3 * 8 * std::min(double(ExchangeLimit), own / 2);
  // (Each process holds its part of the compressed table whole: gen/partitioned_table.h.)
  return std::uint64_t(own + read + file / ranks + exchange + program_bytes(ranks));
}

namespace {

// The first word of a file as a number; nullopt when missing or not a number ("max").
std::optional<std::uint64_t> number_in(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::uint64_t n = 0;
  if (!(in >> n)) return std::nullopt;
  return n;
}

// This process's cgroup v2 directory (from the line "0::/path" of /proc/self/cgroup), or
// empty.
std::filesystem::path own_cgroup() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("0::/", 0) == 0) return std::filesystem::path("/sys/fs/cgroup") / line.substr(4);
  return {};
}

}  // namespace

MemoryAllowance memory_allowance() {
  MemoryAllowance best;
  auto consider = [&](std::uint64_t bytes, const char* bound) {
    if (!best.bytes || bytes < best.bytes) best = {bytes, bound};
  };
  if (std::uint64_t available = kib_field("/proc/meminfo", "MemAvailable:"))
    consider(available, "the memory available on the machine (MemAvailable)");
  // A limit counts what the process already holds: only the rest is left for the job.
  auto limit_less_use = [&](int resource, const char* use_field, const char* bound) {
    rlimit limit{};
    if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
    std::uint64_t used = kib_field("/proc/self/status", use_field);
    consider(limit.rlim_cur > used ? limit.rlim_cur - used : 1, bound);
  };
  limit_less_use(RLIMIT_AS, "VmSize:", "the process's address-space limit (RLIMIT_AS, ulimit -v) less what it maps");
  limit_less_use(RLIMIT_DATA, "VmData:", "the process's data-segment limit (RLIMIT_DATA, ulimit -d) less its data");
  const std::filesystem::path group = own_cgroup();
  if (!group.empty())
    if (std::optional<std::uint64_t> max = number_in(group / "memory.max")) {
      std::uint64_t current = number_in(group / "memory.current").value_or(0);
      consider(*max > current ? *max - current : 1, "the control group's limit (cgroup memory.max) less its use");
    }
  return best;
}

MemoryLimit default_memory_limit() {
  MemoryAllowance allowance = memory_allowance();
  if (!allowance.bytes) return {};
  return {std::uint64_t(0.9 * double(allowance.bytes)), "90% of " + allowance.bound};
}

std::string bytes_text(double bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) bytes /= 1024, ++u;
  // Beyond what a whole number of EiB holds (an impossible material's estimate): llround
  // would overflow.
  if (bytes >= 1e15) {
    std::ostringstream out;
    out.precision(3);
    out << bytes << " " << units[u];
    return out.str();
  }
  // Whole numbers from 1000 up (1000 to 1023 of a unit): three significant digits would
  // print them as 1.01e+03.
  if (u == 0 || bytes >= 1000) return std::to_string(std::llround(bytes)) + " " + units[u];
  std::ostringstream out;
  out.precision(bytes < 10 ? 2 : 3);
  out << bytes << " " << units[u];
  return out.str();
}

std::string reuse_problem(const std::string& path, const Material& material, const RuleSet& rules, bool deep,
                          const Stipulation& stipulation) {
  Expected<std::unique_ptr<TableFile>> file = open_table(path, material, rules, stipulation);
  if (!file) return file.error_kind() == ErrorKind::NotFound ? "missing" : file.error_message();
  if (Status s = (*file)->check_blocks(deep); !s) return s.error_message();
  return "";
}

// One thread's time per index entry (both sides to move) of an orthodox table, whole job
// (initialisation, passes, statistics, writing): the orthodox tables of KRPvKR, KBPvKB and
// KNPvKN and their 5-man dependencies took 95 to 360 ns per entry on 2 threads of an AMD
// EPYC (2026-11-26, docs/benchmarks.md), the spread coming from the number of passes.
constexpr double OrthodoxThreadSecondsPerEntry = 2 * 150e-9;
// Fairy conditions cost 1.2 to 3 times orthodox per entry (feerie bench, KQvKR; Madrasi RI
// the cheapest, combinations with Annan the dearest): taken as 2.
constexpr double FairyCostFactor = 2;

double estimated_seconds(double entries, const RuleSet& rules, int threads, int ranks, bool magic) {
  if (threads <= 0) threads = omp_get_max_threads();
  // Magic units make even an orthodox solve a fairy one: the orthodox KNvKmR component of
  // five materials took 49.9 s of two threads for 74.0 M entries (AMD EPYC, 2026-11-30),
  // 2.2 times the orthodox cost per entry; the plan said 11 s, out of its factor of 2.
  const double factor = rules == RuleSet::orthodox() && !magic ? 1 : FairyCostFactor;
  return entries * OrthodoxThreadSecondsPerEntry * factor / (double(threads) * double(std::max(1, ranks)));
}

Expected<Plan> make_plan(const std::vector<Material>& targets, const RuleSet& rules, const std::string& tables_dir,
                         std::uint64_t max_memory, int ranks, const std::string& limit_source, int threads,
                         const std::vector<ReuseVerdict>* told) {
  ranks = std::max(1, ranks);
  const std::string each = ranks > 1 ? " per process (" + std::to_string(ranks) + " processes)" : "";
  // The targets alone first: a material far too large is refused in a moment, before its
  // dependency graph (which for 30 units takes minutes) is computed.
  for (const Material& target : targets) {
    Material m = target.canonical_orientation();
    double entries = estimated_entries(m, rules);
    if (entries > MaxEntriesPerSide)
      return error(ErrorKind::ResourceLimit,
                   "cannot generate " + m.name() + ": its index would have " + entries_text(entries) +
                       " entries per side to move (at least " + bytes_text(2 * ValueBytes * entries) +
                       " of memory), beyond the supported " + entries_text(MaxEntriesPerSide));
    double values = 2 * ValueBytes * entries / ranks;
    if (max_memory && values > double(max_memory))
      return error(ErrorKind::ResourceLimit,
                   "cannot generate " + m.name() + ": it needs at least " + bytes_text(values) + " of memory" + each +
                       " (" + entries_text(entries) + " entries per side to move, a byte each), more than the " +
                       bytes_text(double(max_memory)) + " allowed (" + limit_source + ")" +
                       (ranks == 1 ? "; spread over processes with --mpi" : ""));
  }
  Plan plan;
  plan.ranks = ranks;
  Tablebase paths = Tablebase::open(tables_dir, rules);
  // As gen would refuse it (the plan makes nothing).
  if (Status s = refuse_file_on_directory_path(condition_directory(tables_dir, rules.name())); !s) return s.error();
  const std::vector<std::vector<Material>> order = solving_order(targets, rules);
  if (told && told->size() != order.size())
    return error(ErrorKind::Internal, "process 0 planned " + std::to_string(told->size()) + " components, this one " +
                                          std::to_string(order.size()));
  for (std::vector<Material> members : order) {
    std::sort(members.begin(), members.end(), [](const Material& a, const Material& b) { return a.name() < b.name(); });
    PlannedComponent c;
    c.members = members;
    bool sound = true;
    for (const Material& m : members) {
      c.entries += 2 * estimated_entries(m, rules);
      if (told) continue;
      if (std::string problem = reuse_problem(paths.table_path(m), m, rules); !problem.empty()) {
        sound = false;
        if (problem != "missing") c.why_not_reused += (c.why_not_reused.empty() ? "" : "; ") + problem;
      }
    }
    if (told) {
      const ReuseVerdict& verdict = (*told)[plan.components.size()];
      std::vector<std::string> names;
      for (const Material& m : members) names.push_back(m.name());
      if (names != verdict.members)
        return error(ErrorKind::Internal, "process 0 planned another component than " + material_names(members));
      sound = verdict.reuse;
      c.why_not_reused = verdict.why_not_reused;
    }
    c.reuse = sound;
    c.file_bytes = std::uint64_t(FileBytesPerEntry * c.entries);
    c.peak_bytes = estimated_peak_bytes(members, rules, threads, ranks);
    c.long_mate_peak_bytes = estimated_peak_bytes(members, rules, threads, ranks, true);
    if (!c.reuse) {
      if (max_memory && c.long_mate_peak_bytes > max_memory)
        return error(ErrorKind::ResourceLimit,
                     "cannot generate " + material_names(members) + ": it needs about " +
                         bytes_text(double(c.peak_bytes)) + " of memory" + each + ", " +
                         bytes_text(double(c.long_mate_peak_bytes)) + " if a mate is longer than " +
                         std::to_string(narrow::MaxPlies) + " plies (" + entries_text(c.entries) +
                         " entries, both sides to move), more than the " + bytes_text(double(max_memory)) +
                         " allowed (" + limit_source + ")" + (ranks == 1 ? "; spread over processes with --mpi" : ""));
      plan.peak_bytes = std::max(plan.peak_bytes, c.peak_bytes);
      plan.long_mate_peak_bytes = std::max(plan.long_mate_peak_bytes, c.long_mate_peak_bytes);
      const bool magic = std::any_of(members.begin(), members.end(), [](const Material& m) { return m.has_magic(); });
      c.seconds = estimated_seconds(c.entries, rules, threads, ranks, magic);
      plan.seconds += c.seconds;
    }
    plan.components.push_back(c);
  }
  // As gen would stop at once (the plan makes nothing).
  if (plan.peak_bytes)
    if (Status s = refuse_unwritable_directory(condition_directory(tables_dir, rules.name())); !s) return s.error();
  return plan;
}

std::vector<ReuseVerdict> reuse_verdicts(const Plan& plan) {
  std::vector<ReuseVerdict> verdicts;
  for (const PlannedComponent& c : plan.components) {
    ReuseVerdict v;
    for (const Material& m : c.members) v.members.push_back(m.name());
    v.reuse = c.reuse;
    v.why_not_reused = c.why_not_reused;
    verdicts.push_back(v);
  }
  return verdicts;
}

}  // namespace feerie
