#!/usr/bin/env python3
"""Probing speed from Python (the module `feerie`), and the random positions every language's
benchmark probes. Run by bench/probe_bench.sh (a benchmark run by hand, not a test); needs the
module on PYTHONPATH (build/python).

  probe_bench.py positions TABLES_DIR COUNT SEED > FILE   random legal KQvKR positions, one FEN a line
  probe_bench.py bench TABLES_DIR FILE CACHED_PROBES       prints "cached <probes/s>",
                                    "cold <first-probe latency in us> <probes/s>" and "checksum <n>"

Measured as bench/probe_bench.cpp says: cold = a fresh Tablebase (median of 7), whose first
probe opens the table; cached = one Tablebase that has probed every position once. Each probe
is probe_dtm(fen), a FEN string, as python-chess users pass boards' fen().
"""

import random
import statistics
import sys
import time

import feerie

COLD_RUNS = 7


def random_positions(tables, count, seed):
    """`count` legal KQvKR positions (the side not to move not in check, kings apart), either
    side to move, from uniformly random placements: the library decides what is legal."""
    rng = random.Random(seed)
    fens = []
    with feerie.open_tablebase(tables) as tb:
        while len(fens) < count:
            squares = rng.sample(range(64), 4)
            board = [["" for _ in range(8)] for _ in range(8)]
            for unit, square in zip("KQkr", squares):
                board[7 - square // 8][square % 8] = unit
            rows = []
            for rank in board:
                row, empty = "", 0
                for unit in rank:
                    if unit:
                        row += (str(empty) if empty else "") + unit
                        empty = 0
                    else:
                        empty += 1
                rows.append(row + (str(empty) if empty else ""))
            fen = "/".join(rows) + (" w" if rng.random() < 0.5 else " b") + " - - 0 1"
            try:
                tb.probe_dtm(fen)
            except feerie.IllegalPositionError:
                continue
            fens.append(fen)
    return fens


def bench(tables, fens, cached_probes):
    first_latency, cold_rate = [], []
    for _ in range(COLD_RUNS):
        start = time.perf_counter()
        with feerie.open_tablebase(tables) as fresh:
            fresh.probe_dtm(fens[0])
            first_latency.append(time.perf_counter() - start)
            for fen in fens[1:]:
                fresh.probe_dtm(fen)
            cold_rate.append(len(fens) / (time.perf_counter() - start))

    with feerie.open_tablebase(tables) as warm:
        checksum = sum(abs(warm.probe_dtm(fen)) for fen in fens)  # as bench/probe_bench.cpp
        probe = warm.probe_dtm
        cycle = (fens * (cached_probes // len(fens) + 1))[:cached_probes]
        start = time.perf_counter()
        for fen in cycle:
            probe(fen)
        cached_rate = cached_probes / (time.perf_counter() - start)
    print(f"cached {cached_rate:.0f}")
    print(f"cold {statistics.median(first_latency) * 1e6:.0f} {statistics.median(cold_rate):.0f}")
    print(f"checksum {checksum}")


def main(argv):
    if len(argv) == 5 and argv[1] == "positions":
        for fen in random_positions(argv[2], int(argv[3]), int(argv[4])):
            print(fen)
    elif len(argv) == 5 and argv[1] == "bench":
        with open(argv[3]) as f:
            fens = [line.strip() for line in f if line.strip()]
        bench(argv[2], fens, int(argv[4]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
