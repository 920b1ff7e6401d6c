// The C API probed from 4 threads at once on one shared handle, built with ThreadSanitizer
// (tests/tsan/run.sh; docs/testing.md). Every result of every thread must equal the one a
// single thread gets on a handle of its own; ThreadSanitizer, run with halt_on_error=1, turns
// any data race it sees into a failing exit status.
//
// The tables (KQvKR and the KQvK, KRvK and KvK it depends on, orthodox) are made beforehand by
// tests/tsan/run.sh with the ordinary build's `feerie gen`: generating them here, under
// ThreadSanitizer, would cost most of the run, and the generator's OpenMP teams would need one
// thread (libgomp is not built with ThreadSanitizer, so its barriers would show up as false
// races). Nothing on the probing path uses OpenMP. Positions are random placements (a fixed
// seed) of KQvKR, of its colour-flipped KRvKQ, and of the three- and two-unit materials, with
// either side to move; the illegal ones stay in as error cases. Each round opens a fresh
// handle, so the threads also race to open the tables lazily, then probe every position in a
// different order. The concurrent rounds come first, so that the threads' probes are the first
// calls into the library in the process: what is set up on first use (the readers of table
// headers, the prober's caches) is set up by 4 threads at once.
//
// Usage: concurrent_probe_test TABLES_DIR
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "feerie/feerie.h"

namespace {

constexpr int Threads = 4;
constexpr int Rounds = 3;
constexpr const char* Condition = "orthodox";

// One position, as a piece list and as the FEN the test writes from it.
struct Case {
  std::vector<feerie_piece> pieces;
  int white_to_move = 1;
  std::string fen;
};

// What every call answers for one position: its status, its values and its error text.
struct Answer {
  int probe_status = 0;
  feerie_result probe{};
  int wdl_status = 0;
  int wdl = 0;
  int pieces_status = 0;
  feerie_result pieces{};
  int moves_status = 0;
  std::vector<feerie_move_value> moves;
  std::string errors;  // the four error messages, one after the other

  bool operator==(const Answer& o) const {
    auto same = [](const feerie_result& a, const feerie_result& b) {
      return a.wdl == b.wdl && a.dtm_plies == b.dtm_plies && a.mate_in == b.mate_in;
    };
    if (probe_status != o.probe_status || wdl_status != o.wdl_status || pieces_status != o.pieces_status ||
        moves_status != o.moves_status || errors != o.errors || moves.size() != o.moves.size())
      return false;
    if (probe_status == FEERIE_OK && !same(probe, o.probe)) return false;
    if (wdl_status == FEERIE_OK && wdl != o.wdl) return false;
    if (pieces_status == FEERIE_OK && !same(pieces, o.pieces)) return false;
    for (std::size_t i = 0; i < moves.size(); ++i)
      if (std::strcmp(moves[i].move, o.moves[i].move) != 0 || !same(moves[i].value, o.moves[i].value) ||
          moves[i].checkmate != o.moves[i].checkmate || moves[i].stalemate != o.moves[i].stalemate)
        return false;
    return true;
  }
};

std::string fen_of(const std::vector<feerie_piece>& pieces, int white_to_move) {
  char board[64];
  std::memset(board, 0, sizeof board);
  for (const feerie_piece& p : pieces) board[p.square] = p.white ? p.type : char(p.type - 'A' + 'a');
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      char c = board[8 * rank + file];
      if (!c) {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty), empty = 0;
      fen += c;
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  return fen + (white_to_move ? " w - - 0 1" : " b - - 0 1");
}

// Random placements of `units` ("KQkr": upper case white), `count` of them, seeded.
void add_cases(std::vector<Case>& cases, const char* units, int count, std::uint64_t& seed) {
  auto next = [&seed]() {  // splitmix64: the same positions on every run and machine
    std::uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (int n = 0; n < count; ++n) {
    Case c;
    std::uint64_t used = 0;
    for (const char* u = units; *u; ++u) {
      int square;
      do square = int(next() % 64);
      while (used >> square & 1);
      used |= std::uint64_t(1) << square;
      bool white = *u >= 'A' && *u <= 'Z';
      c.pieces.push_back(feerie_piece{square, char(white ? *u : *u - 'a' + 'A'), white ? 1 : 0, 0});
    }
    c.white_to_move = int(next() & 1);
    c.fen = fen_of(c.pieces, c.white_to_move);
    cases.push_back(std::move(c));
  }
}

Answer ask(feerie_tablebase* tb, const Case& c) {
  Answer a;
  char error[256];
  auto note = [&](int status) {
    a.errors += status == FEERIE_OK ? std::string("ok") : std::string(error);
    a.errors += '\n';
  };
  error[0] = '\0';
  note(a.probe_status = feerie_probe(tb, c.fen.c_str(), &a.probe, error, sizeof error));
  error[0] = '\0';
  note(a.wdl_status = feerie_probe_wdl(tb, c.fen.c_str(), &a.wdl, error, sizeof error));
  error[0] = '\0';
  note(a.pieces_status = feerie_probe_pieces(tb, c.pieces.data(), c.pieces.size(), c.white_to_move, -1, &a.pieces,
                                             error, sizeof error));
  feerie_move_value values[256];
  std::size_t count = 0;
  error[0] = '\0';
  note(a.moves_status = feerie_move_values(tb, c.fen.c_str(), values, 256, &count, error, sizeof error));
  if (a.moves_status == FEERIE_OK) a.moves.assign(values, values + count);
  return a;
}

int probe(const std::string& dir) {
  std::vector<Case> cases;
  std::uint64_t seed = 20261124;
  add_cases(cases, "KQkr", 400, seed);
  add_cases(cases, "KRkq", 100, seed);  // stored the other way round: probed through the flipped position
  add_cases(cases, "KQk", 50, seed);
  add_cases(cases, "KRk", 50, seed);
  add_cases(cases, "Kk", 20, seed);
  add_cases(cases, "KBk", 5, seed);  // no KBvK table: FEERIE_ERROR_NOT_FOUND, from every thread

  char error[512] = "";
  // answers[round][thread][case]
  std::vector<std::vector<std::vector<Answer>>> answers(Rounds, std::vector<std::vector<Answer>>(Threads));
  for (int round = 0; round < Rounds; ++round) {
    feerie_tablebase* tb = feerie_open(dir.c_str(), Condition, error, sizeof error);
    if (!tb) {
      std::fprintf(stderr, "concurrent_probe_test: feerie_open: %s\n", error);
      return 1;
    }
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < Threads; ++t)
      threads.emplace_back([&, t] {
        std::vector<Answer>& mine = answers[round][t];
        const std::size_t n = cases.size();
        mine.resize(n);
        // All threads start together, so the first probes race to open the tables.
        ready.fetch_add(1);
        while (ready.load() < Threads) std::this_thread::yield();
        for (std::size_t k = 0; k < n; ++k) {
          // Thread t walks the cases from its own start, odd threads backwards.
          std::size_t i = (std::size_t(t) * n / Threads + (t % 2 ? n - k : k)) % n;
          mine[i] = ask(tb, cases[i]);
        }
      });
    for (std::thread& th : threads) th.join();
    feerie_close(tb);
  }

  // The single-threaded answers, on a handle of their own.
  feerie_tablebase* tb = feerie_open(dir.c_str(), Condition, error, sizeof error);
  if (!tb) return 1;
  std::vector<Answer> expected;
  int legal = 0;
  for (const Case& c : cases) {
    expected.push_back(ask(tb, c));
    const Answer& a = expected.back();
    legal += a.probe_status == FEERIE_OK;
    // Within one thread the three probes agree with each other (feerie_move_values may not: a
    // stalemate without its table has no move to look up).
    if (a.probe_status != a.wdl_status || a.probe_status != a.pieces_status ||
        (a.probe_status == FEERIE_OK && (a.wdl != a.probe.wdl || a.pieces.dtm_plies != a.probe.dtm_plies))) {
      std::fprintf(stderr, "concurrent_probe_test: the calls disagree on %s\n", c.fen.c_str());
      return 1;
    }
  }
  feerie_close(tb);
  // The random placements must give both kinds of case, or the test tests little.
  if (legal < int(cases.size()) / 2 || legal == int(cases.size())) {
    std::fprintf(stderr, "concurrent_probe_test: %d legal positions of %zu\n", legal, cases.size());
    return 1;
  }

  long mismatches = 0;
  for (int round = 0; round < Rounds; ++round)
    for (int t = 0; t < Threads; ++t)
      for (std::size_t i = 0; i < cases.size(); ++i)
        if (!(answers[round][t][i] == expected[i]) && ++mismatches <= 10)
          std::fprintf(stderr,
                       "concurrent_probe_test: thread %d round %d: %s differs from the single-threaded answer\n", t,
                       round, cases[i].fen.c_str());
  std::printf(
      "concurrent_probe_test: %zu positions (%d legal), 4 calls each by %d threads x %d rounds, "
      "%ld mismatches\n",
      cases.size(), legal, Threads, Rounds, mismatches);
  return mismatches == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s TABLES_DIR (KQvKR and its dependencies, orthodox)\n", argv[0]);
    return 2;
  }
  return probe(argv[1]);
}
