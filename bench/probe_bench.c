/* Probing speed from C through the C API (feerie/feerie.h) of the shared libfeerie: the C
 * twin of bench/probe_bench.cpp, built and run by bench/probe_bench.sh (a benchmark run by
 * hand, not a test). Each probe is feerie_probe() on a FEN, as the API takes it.
 *
 * Usage: probe_bench_c TABLES_DIR POSITIONS_FILE CACHED_PROBES
 * Prints "cached <probes/s>", "threads2 <probes/s of one warm handle probed from 2 threads>", "cold <first-probe
 * latency in us> <probes/s>" and "checksum <n>", as bench/probe_bench.cpp says: cold = a fresh handle (median of
 * COLD_RUNS), cached = one handle that has probed every position once. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <feerie/feerie.h>

#define COLD_RUNS 7
#define CACHED_ROUNDS 5
#define MAX_POSITIONS 100000

static char fens[MAX_POSITIONS][96];
static size_t count;
static long sink; /* the probes' values added up, so that no probe is optimised away */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long probe(feerie_tablebase* tb, const char* fen) {
  char error[256];
  feerie_result r;
  if (feerie_probe(tb, fen, &r, error, sizeof error) != FEERIE_OK) {
    fprintf(stderr, "probe_bench_c: %s\n", error);
    exit(1);
  }
  return r.wdl == 0 ? 0 : r.dtm_plies; /* plies to mate, 0 for a draw */
}

static feerie_tablebase* open_tables(const char* dir) {
  char error[256];
  feerie_tablebase* tb = feerie_open(dir, "orthodox", error, sizeof error);
  if (!tb) {
    fprintf(stderr, "probe_bench_c: %s\n", error);
    exit(1);
  }
  return tb;
}

/* One of two threads probing one warm handle at once (the C API's handles are thread-safe). */
struct worker {
  feerie_tablebase* tb;
  size_t offset;
  long probes, sink;
};

static void* probe_from_thread(void* arg) {
  struct worker* w = arg;
  for (long n = 0; n < w->probes; ++n) w->sink += probe(w->tb, fens[(w->offset + (size_t)n) % count]);
  return NULL;
}

static int by_value(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s TABLES_DIR POSITIONS_FILE CACHED_PROBES\n", argv[0]);
    return 2;
  }
  FILE* in = fopen(argv[2], "r");
  if (!in) {
    fprintf(stderr, "probe_bench_c: cannot read %s\n", argv[2]);
    return 1;
  }
  while (count < MAX_POSITIONS && fgets(fens[count], sizeof fens[count], in)) {
    fens[count][strcspn(fens[count], "\n")] = '\0';
    if (fens[count][0]) ++count;
  }
  fclose(in);
  if (count == 0) {
    fprintf(stderr, "probe_bench_c: no positions in %s\n", argv[2]);
    return 1;
  }
  long cached_probes = atol(argv[3]);

  double first_latency[COLD_RUNS], cold_rate[COLD_RUNS];
  for (int run = 0; run < COLD_RUNS; ++run) {
    double start = now();
    feerie_tablebase* fresh = open_tables(argv[1]);
    sink += probe(fresh, fens[0]);
    first_latency[run] = now() - start;
    for (size_t i = 1; i < count; ++i) sink += probe(fresh, fens[i]);
    cold_rate[run] = (double)count / (now() - start);
    feerie_close(fresh);
  }
  qsort(first_latency, COLD_RUNS, sizeof(double), by_value);
  qsort(cold_rate, COLD_RUNS, sizeof(double), by_value);

  feerie_tablebase* warm = open_tables(argv[1]);
  long checksum = 0; /* as bench/probe_bench.cpp */
  for (size_t i = 0; i < count; ++i) checksum += probe(warm, fens[i]);
  /* One thread, then 2 threads on the same handle, alternated CACHED_ROUNDS times: the
   * medians, as bench/probe_bench.cpp says. */
  double one[CACHED_ROUNDS], two[CACHED_ROUNDS];
  for (int round = 0; round < CACHED_ROUNDS; ++round) {
    double start = now();
    for (long n = 0; n < cached_probes; ++n) sink += probe(warm, fens[(size_t)n % count]);
    one[round] = (double)cached_probes / (now() - start);
    struct worker workers[2] = {{warm, 0, cached_probes / 2, 0}, {warm, count / 2, cached_probes / 2, 0}};
    pthread_t threads[2];
    start = now();
    for (int t = 0; t < 2; ++t) pthread_create(&threads[t], NULL, probe_from_thread, &workers[t]);
    for (int t = 0; t < 2; ++t) pthread_join(threads[t], NULL);
    two[round] = (double)(2 * (cached_probes / 2)) / (now() - start);
    sink += workers[0].sink + workers[1].sink;
  }
  qsort(one, CACHED_ROUNDS, sizeof(double), by_value);
  qsort(two, CACHED_ROUNDS, sizeof(double), by_value);
  double cached_rate = one[CACHED_ROUNDS / 2], two_thread_rate = two[CACHED_ROUNDS / 2];
  feerie_close(warm);

  printf("cached %.0f\n", cached_rate);
  printf("threads2 %.0f\n", two_thread_rate);
  printf("cold %.0f %.0f\n", first_latency[COLD_RUNS / 2] * 1e6, cold_rate[COLD_RUNS / 2]);
  printf("checksum %ld\n", checksum);
  fprintf(stderr, "probe_bench_c: %ld\n", sink);
  return 0;
}
