#!/usr/bin/env python3
"""Generates the 3- and 4-man tables (the 35 orthodox materials of
shared/reference/orthodox_3_4_man.csv) under the combinations `madrasi-ri+annan` and
`madrasi+annan` and under each of their parts alone (`madrasi-ri`, `madrasi`, `annan`),
verifies every table, and writes docs/results/combinations.md: per combination and
material, win/draw/loss with White to move beside the same under each part alone, the
longest mates (combination and parts), the verification; then "What changes": the
materials whose White-to-move win counts differ most from both parts, the materials where
the combination's longest mate exceeds both parts', and the longest mate of each
combination with an example and its principal variation (`feerie probe --json`).

Usage: tools/combination_results.py [--feerie build/tools/feerie] [--tables tables]
       [--out docs/results/combinations.md] [--only KQvK KRvK ...] [--no-verify]
--only replaces the 35 materials (quick tries: --only KQvK KRvK --tables /tmp/t
--out /tmp/combinations.md). The tables are scratch files: never add them to git.
Exit status 1 when a table fails to verify.
"""
import argparse
import csv
import datetime
import json
import os
import re
import subprocess
import sys
import time

from results_common import add_common_arguments, longest_mate_diagrams, regenerate_command, run as run_checked, verify

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (combination, its paralysis part, its walk part)
COMBINATIONS = [("madrasi-ri+annan", "madrasi-ri", "annan"), ("madrasi+annan", "madrasi", "annan")]
TOP = 5  # materials listed per combination in "What changes"


def conditions():
    out = []
    for combo, para, walk in COMBINATIONS:
        for c in (combo, para, walk):
            if c not in out:
                out.append(c)
    return out


def run(cmd):
    """results_common.run, saying which command failed and what it printed."""
    try:
        return run_checked(cmd)
    except subprocess.CalledProcessError as e:
        sys.stderr.write(f"failed (exit {e.returncode}): {' '.join(cmd)}\n{e.stdout}{e.stderr}")
        raise


def default_materials():
    ref = os.path.join(ROOT, "..", "shared", "reference", "orthodox_3_4_man.csv")
    with open(ref) as f:
        return [r["table"] for r in csv.DictReader(f)]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            models = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
    except OSError:
        return "unknown CPU"
    return f"{models[0]} ({len(models)} logical CPUs)" if models else "unknown CPU"


def wdl(s):
    return f"{s['win']} / {s['draw']} / {s['loss']}"


def longest(s):
    return s["longest_mate_moves"] if s["longest_mate_plies"] is not None else 0


def mates(st):
    return f"{longest(st['wtm'])} / {longest(st['btm'])}"


def pct(n, d):
    return 100.0 * n / d if d else 0.0


def signed(n):
    return f"{n:+d}"


def duration(seconds):
    m, s = divmod(int(round(seconds)), 60)
    h, m = divmod(m, 60)
    return f"{h} h {m:02d} min {s:02d} s" if h else f"{m} min {s:02d} s"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(p, os.path.join(ROOT, "docs", "results", "combinations.md"))
    a = p.parse_args()
    materials = a.only or default_materials()
    conds = conditions()

    start = time.time()
    stats, verified, failures = {}, {}, []
    generated, reused = set(), set()  # table files, dependencies (KvK …) included
    for i, m in enumerate(materials, 1):
        for c in conds:
            out = run([a.feerie, "gen", "--condition", c, "--tables", a.tables, m])
            sys.stderr.write(out)
            for line in out.splitlines():
                found = re.match(r"(\S+): (generated|reused) (\S+)", line)
                if found:
                    (generated if found.group(2) == "generated" else reused).add(found.group(3))
            result = verify(a.feerie, a.tables, m, failures, condition=c, skip=a.no_verify, label=f"{c} {m}")
            if result == "FAILED":
                found = re.search(r"(\d+) inconsistent", failures[-1])
                result = f"{found.group(1)} inconsistent" if found else "FAILED"
            verified[c, m] = result
            stats[c, m] = json.loads(run([a.feerie, "stat", "--json", "--condition", c, "--tables", a.tables, m]))
        sys.stderr.write(f"[{i}/{len(materials)}] {m}: done ({time.time() - start:.0f} s)\n")

    # The longest mate of each combination, with an example and its principal variation.
    examples = {}
    for combo, _, _ in COMBINATIONS:
        best = None
        for m in materials:
            for side in ("wtm", "btm"):
                s = stats[combo, m][side]
                if s["longest_mate_plies"] is not None and (best is None or longest(s) > best[0]):
                    best = (longest(s), m, side, s["longest_mate_fen"])
        if best:
            probe = json.loads(run([a.feerie, "probe", "--json", "--condition", combo, "--tables", a.tables,
                                    best[3]]))
            examples[combo] = best + (probe["mate_in"], " ".join(probe["pv"]))
    elapsed = time.time() - start

    n_tables = len(materials) * len(conds)
    n_ok = sum(1 for v in verified.values() if v == "ok")
    command = regenerate_command("combination_results.py", a)
    lines = [
        "# Combinations: `madrasi-ri+annan` and `madrasi+annan`, 3- and 4-man results beside each part",
        "",
        f"Regenerated by `{command}` on {datetime.date.today().isoformat()} (CPU: {cpu_model()});",
        f"total time {duration(elapsed)} ({len(generated)} table files generated, dependencies such as KvK "
        f"included, {len(reused - generated)} found on disk and reused; "
        f"every table verified with `feerie verify`, statistics read with `feerie stat --json`).",
        f"Materials: the {len(materials)} orthodox 3- and 4-man materials of "
        "`shared/reference/orthodox_3_4_man.csv`; each under the combination and under each of its parts "
        f"alone, {n_tables} tables in all, of which {n_ok} verified with 0 inconsistent positions"
        + (" (verification not run)." if a.no_verify else "."),
        "",
        "A combination `PARALYSIS+WALK` ([docs/conditions/combinations.md](../conditions/combinations.md),",
        "SPEC 3.6) plays both parts at once. Every unit moves, captures, gives check and **observes** with",
        "the walk Annan gives it (its lender's walk when a friendly unit stands directly behind it, its",
        "own otherwise), and Madrasi's paralysis is applied to the pair (the walk the observer uses, the",
        "**real** type of the observed unit): a rook moving as a bishop paralyses enemy bishops and is",
        "paralysed by enemy rooks. Under Madrasi RI kings take part too (a king is paired by the walk it",
        "uses when it observes, as a king when it is observed), so kings may stand next to each other.",
        "A paralysed unit still lends its walk. The parts alone are on `madrasi-ri.md`, `madrasi.md` and",
        "`annan.md` beside orthodox chess.",
        "",
        "Counts are raw (every legal position, every symmetry image; SPEC 1) as win / draw / loss with",
        "White to move. Conditions where kings may meet (Madrasi RI, and the combinations where a king",
        "can borrow a walk or be paralysed) have more legal positions, so counts of different columns",
        "need not add up to the same total. Longest mates in moves, White to move / Black to move (the",
        "side to move mating). *Verified*: `feerie verify` on the combination's table (`ok`, or the",
        "number of inconsistent positions); the parts' tables are in the verification summary below.",
    ]
    for combo, para, walk in COMBINATIONS:
        lines += ["", f"## `{combo}`", "",
                  f"| material | wtm win / draw / loss (`{combo}`) | wtm (`{para}`) | wtm (`{walk}`) | "
                  f"longest mate (`{combo}`) | `{para}` | `{walk}` | verified |",
                  "|---|---|---|---|---|---|---|---|"]
        for m in materials:
            sc, sp, sw = stats[combo, m], stats[para, m], stats[walk, m]
            lines.append(f"| {m} | {wdl(sc['wtm'])} | {wdl(sp['wtm'])} | {wdl(sw['wtm'])} | {mates(sc)} | "
                         f"{mates(sp)} | {mates(sw)} | {verified[combo, m]} |")

    lines += ["", "## What changes", "",
              "Computed by the script from the tables above. For each material, the White-to-move win",
              "count of the combination is compared with that of each part alone. Because the conditions",
              "do not have the same legal positions (kings may meet under Madrasi RI and in the",
              "combinations), the comparison is made on the *win share*, wins over White-to-move positions",
              "of the same table, in percentage points (pp); the raw differences of counts are beside it.",
              "*Distance to the nearer part*: the smaller of the two differences of share in absolute value;",
              f"the {TOP} materials where it is largest are those where the combination is furthest from",
              "**both** parts, i.e. behaves like neither."]
    for combo, para, walk in COMBINATIONS:
        rows = []
        for m in materials:
            c, pa, w = (stats[x, m]["wtm"] for x in (combo, para, walk))
            share = [pct(s["win"], s["positions"]) for s in (c, pa, w)]
            dp, dw = share[0] - share[1], share[0] - share[2]
            rows.append((min(abs(dp), abs(dw)), m, c, pa, w, share, dp, dw))
        rows.sort(key=lambda r: (-r[0], r[1]))
        lines += ["", f"### `{combo}`: White-to-move wins furthest from both parts", "",
                  f"| material | wins (`{combo}`) | wins (`{para}`) | wins (`{walk}`) | "
                  f"vs `{para}` | vs `{walk}` | distance to the nearer part |",
                  "|---|---|---|---|---|---|---|"]
        for dist, m, c, pa, w, share, dp, dw in rows[:TOP]:
            lines.append(f"| {m} | {c['win']} ({share[0]:.1f}%) | {pa['win']} ({share[1]:.1f}%) | "
                         f"{w['win']} ({share[2]:.1f}%) | {signed(c['win'] - pa['win'])} ({dp:+.2f} pp) | "
                         f"{signed(c['win'] - w['win'])} ({dw:+.2f} pp) | {dist:.2f} pp |")
        longer = []
        for m in materials:
            for side, who in (("wtm", "White"), ("btm", "Black")):
                lc, lp, lw = (longest(stats[x, m][side]) for x in (combo, para, walk))
                if lc > max(lp, lw):
                    longer.append(f"{m} ({who} to move: {lc} against {lp} under `{para}` and {lw} under `{walk}`)")
        lines += ["", f"Longest mates of `{combo}` longer than under both parts: "
                  + ("; ".join(longer) if longer else "none") + "."]

    lines += ["", "### The longest mate of each combination", ""]
    lines += longest_mate_diagrams(a.feerie, a.out, [(e[0], combo, e[3], combo) for combo, e in examples.items()],
                                   count=len(examples))
    for combo, _, _ in COMBINATIONS:
        if combo in examples:
            moves, m, side, fen, mate_in, pv = examples[combo]
            lines.append(f"- **`{combo}`**, {m} ({'White' if side == 'wtm' else 'Black'} to move), mate in "
                         f"{moves} (`probe`: mate_in {mate_in}): `{fen}` — {pv}")
        else:
            lines.append(f"- **`{combo}`**: no mate in these materials")

    lines += ["", "## Verification summary", ""]
    for c in conds:
        ok = sum(1 for m in materials if verified[c, m] == "ok")
        lines.append(f"- `{c}`: {ok} of {len(materials)} tables ok"
                     + ("" if a.no_verify else f", {len(materials) - ok} with inconsistent positions"))
    if failures:
        lines += ["", "## Verification failures", ""] + [f"- {f}" for f in failures]

    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {a.out} ({n_tables} tables, {n_ok} verified ok, {len(failures)} verification failures, "
          f"{duration(elapsed)})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
