// Probing speed from C++ (bench/probe_bench.sh runs it; a benchmark run by hand, not a test).
// Built three times (bench/CMakeLists.txt): probe_bench_cpp over the internal API (probe/tablebase.h,
// positions parsed once beforehand, so only Tablebase::probe is timed); with
// PROBE_BENCH_PARSE (probe_bench_parse) over the same API, each probe parsing its FEN first (parse_fen, then
// probe: what a FEN costs); and with PROBE_BENCH_HPP (probe_bench_hpp) over feerie/feerie.hpp and the shared
// libfeerie (each probe takes a FEN, as that API does).
//
// Usage: probe_bench TABLES_DIR POSITIONS_FILE CACHED_PROBES
// Prints four lines, read by bench/probe_bench.sh:
//   cached <probes per second>
//   threads2 <probes per second of the same warm tablebase probed from 2 threads at once>
//   cold <first-probe latency in microseconds> <probes per second of a fresh tablebase>
//   checksum <the plies to mate of the positions added up, 0 for a draw>
// "Cached": one tablebase, every position probed once beforehand, then CACHED_PROBES probes
// cycling through the positions, and the same from 2 threads; the medians of 5 alternated
// runs of each. "Cold": a fresh tablebase object whose first probe opens the
// table (its header, then a block per first touch); the file is in the OS page cache, since
// nothing drops it. Its figures are the medians over ColdRuns fresh tablebases, each timed
// over one pass of the positions, from before it is opened (which checks nothing and
// reads nothing) to its last probe.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#ifdef PROBE_BENCH_HPP
#include <feerie/feerie.hpp>
#else
#include "probe/tablebase.h"
#include "rules/fen.h"
#endif

namespace {

constexpr int ColdRuns = 7;
constexpr int CachedRounds = 5;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

#ifdef PROBE_BENCH_HPP
using Probe = std::string;
struct Bench {
  explicit Bench(const char* dir) : tb(dir, "orthodox") {}
  int probe(const Probe& fen) const {
    feerie::api::Result r = tb.probe(fen);
    return r.wdl == 0 ? 0 : r.dtm_plies;
  }
  feerie::api::Tablebase tb;
};
bool load_positions(const std::vector<std::string>& fens, std::vector<Probe>& out) {
  out = fens;
  return true;
}
#else
#ifdef PROBE_BENCH_PARSE
using Probe = std::string;
#else
using Probe = feerie::Position;
#endif
struct Bench {
  explicit Bench(const char* dir) : tb(feerie::Tablebase::open(dir, feerie::RuleSet::orthodox())) {}
  int probe(const Probe& p) const {
#ifdef PROBE_BENCH_PARSE
    feerie::Expected<feerie::Position> parsed = feerie::parse_fen(p);
    if (!parsed) std::exit(1);
    const feerie::Position& pos = *parsed;
#else
    const feerie::Position& pos = p;
#endif
    feerie::Expected<feerie::ProbeResult> r = tb.probe(pos);
    if (!r) {
      std::fprintf(stderr, "probe_bench: %s\n", r.error_message().c_str());
      std::exit(1);
    }
    return r->wdl == feerie::Wdl::Draw ? 0 : r->dtm_plies;
  }
  feerie::Tablebase tb;
};
bool load_positions(const std::vector<std::string>& fens, std::vector<Probe>& out) {
  for (const std::string& fen : fens) {
    feerie::Expected<feerie::Position> pos = feerie::parse_fen(fen);
    if (!pos) {
      std::fprintf(stderr, "probe_bench: %s\n", pos.error_message().c_str());
      return false;
    }
#ifdef PROBE_BENCH_PARSE
    out.push_back(fen);
#else
    out.push_back(*pos);
#endif
  }
  return true;
}
#endif

int run(const char* dir, const std::vector<Probe>& positions, long cached_probes) {
  long sink = 0;  // used, so that no probe is optimised away
  std::vector<double> first_latency, cold_rate;
  for (int run = 0; run < ColdRuns; ++run) {
    Clock::time_point start = Clock::now();
    Bench fresh(dir);
    sink += fresh.probe(positions[0]);
    first_latency.push_back(seconds_since(start));
    for (std::size_t i = 1; i < positions.size(); ++i) sink += fresh.probe(positions[i]);
    cold_rate.push_back(double(positions.size()) / seconds_since(start));
  }

  Bench warm(dir);
  long checksum = 0;  // plies to mate over the positions, 0 for a draw: the same in every language
  for (const Probe& p : positions) checksum += warm.probe(p);
  // One thread, then the same warm tablebase probed from 2 threads at once (each doing
  // cached_probes / 2 probes from its own starting point), alternated CachedRounds times: a
  // virtual machine's processors come and go, and the medians of alternated runs compare
  // the two under the same conditions.
  auto one_thread = [&] {
    const Clock::time_point start = Clock::now();
    for (long n = 0; n < cached_probes; ++n) sink += warm.probe(positions[std::size_t(n) % positions.size()]);
    return double(cached_probes) / seconds_since(start);
  };
  auto two_threads = [&] {
    const long half = cached_probes / 2;
    std::vector<long> sinks(2, 0);
    const Clock::time_point start = Clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
      threads.emplace_back([&, t] {
        const std::size_t offset = std::size_t(t) * positions.size() / 2;
        long local = 0;
        for (long n = 0; n < half; ++n) local += warm.probe(positions[(offset + std::size_t(n)) % positions.size()]);
        sinks[std::size_t(t)] = local;
      });
    for (std::thread& t : threads) t.join();
    sink += sinks[0] + sinks[1];
    return double(2 * half) / seconds_since(start);
  };
  std::vector<double> one, two;
  for (int round = 0; round < CachedRounds; ++round) {
    one.push_back(one_thread());
    two.push_back(two_threads());
  }
  const double cached_rate = median(one), two_thread_rate = median(two);

  std::printf("cached %.0f\n", cached_rate);
  std::printf("threads2 %.0f\n", two_thread_rate);
  std::printf("cold %.0f %.0f\n", median(first_latency) * 1e6, median(cold_rate));
  std::printf("checksum %ld\n", checksum);
  std::fprintf(stderr, "probe_bench: %ld\n", sink);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s TABLES_DIR POSITIONS_FILE CACHED_PROBES\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[2]);
  std::vector<std::string> fens;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) fens.push_back(line);
  std::vector<Probe> positions;
  if (fens.empty() || !load_positions(fens, positions)) {
    std::fprintf(stderr, "probe_bench: no positions in %s\n", argv[2]);
    return 1;
  }
  try {
    return run(argv[1], positions, std::atol(argv[3]));
  } catch (const std::exception& e) {  // feerie::api::Error
    std::fprintf(stderr, "probe_bench: %s\n", e.what());
    return 1;
  }
}
