#!/usr/bin/env python3
"""The 5-man pawn-endings page of a condition (issue 23): generates the tables with at
least one pawn under the condition and under orthodox chess, and writes
docs/results/<condition>-5-pawns.md: win / draw / loss per side to move beside orthodox,
the verdicts that change, the reciprocal zugzwangs (full and half point) beside orthodox,
the longest mates with an example, its principal variation in SAN and a diagram, and the
time and peak memory of each table's generation (and of its verification).

Usage: scripts/pawn_results.py [CONDITION] [--only MATERIAL...] [--verify N] [--verify-record FILE] [--threads T]
       [--log FILE] [--gen-only] [--gen-log FILE...] [--feerie build/tools/feerie]
       [--tables tables] [--out docs/results/CONDITION-5-pawns.md]
CONDITION defaults to madrasi-ri; the materials default to the 18 of issue 23. Every table
missing is generated in a `feerie gen` process of its own, dependencies first; --log FILE
appends each gen output and the peak of its process to FILE. Tables on disk are reused;
their generation time and peak are then read from --log and from the `feerie gen` outputs
in the --gen-log files ("KRPvKR: generated tables/madrasi-ri/KRPvKR.ftb in 179.05 s ..."),
else shown as "reused" and "-". --gen-only generates the tables and stops (a long set can
be generated first, in as many runs as it takes, and the page made afterwards with the same
--log). --verify N verifies the first N tables under the condition and in orthodox chess
(default: none), each once: a verification that passed is recorded with the table file's
size and modification time in --verify-record FILE (default TABLES/verify-record.json) and
not run again while the file is unchanged. Exit status 1 when a table fails to verify.
"""
import argparse
import datetime
import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from results_common import (add_common_arguments, cpu_model, failure_lines, generated_seconds, longest,
                            longest_mates_section, numbered_line, run, stat, value_table_lines, verdict_change_lines,
                            verify_timed, write_page)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# The materials of issue 23 as their tables are stored (a table holds both colours' sides to
# move, so KQvKRP is KRPvKQ, KRvKBP is KBPvKR, KQvKPP is KPPvKQ, and KRvKPP and KPvKPP are
# the same tables as KPPvKR and KPPvKP): 16 tables for the 18 names.
MATERIALS = ["KRPvKR", "KQPvKQ", "KBPvKB", "KNPvKN", "KBPvKN", "KNPvKB", "KRPvKB", "KRPvKN", "KQPvKR", "KRPvKQ",
             "KBPvKR", "KPPvKP", "KPPvKR", "KPPvKQ", "KBPvKP", "KNPvKP"]
ALIASES = {"KRPvKQ": "KQvKRP", "KBPvKR": "KRvKBP", "KPPvKQ": "KQvKPP", "KPPvKR": "KRvKPP", "KPPvKP": "KPvKPP"}


def gen_process(a, condition, material):
    """Runs `feerie gen` for one material in a child process of its own; returns its output
    and its peak memory in bytes (its maximum resident set)."""
    cmd = [a.feerie, "gen", "--condition", condition, "--tables", a.tables, "--threads", str(a.threads), material]
    with tempfile.TemporaryFile("w+") as log:
        child = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True)
        # wait4 gives this child's own peak, not the largest of every child so far.
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        out = log.read()
    if child.returncode:
        sys.stderr.write(f"failed (exit {child.returncode}): {' '.join(cmd)}\n{out}")
        raise SystemExit(1)
    sys.stderr.write(out)
    return out, usage.ru_maxrss * 1024


@functools.lru_cache(maxsize=None)
def program_digest(path):
    """The start of the SHA-256 of the feerie program: the log says which program made each
    table (tables are byte-identical across speed steps, their times are not)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def generate(a, condition, material):
    """Generates one table and the tables it needs, each table in a gen process of its own
    (dependencies first, in the plan's order) so that each peak is that table's own. Every
    gen output and peak is appended to the --log file, which a later run reads back for the
    tables then on disk. Returns the seconds feerie reports for the table itself (None when
    it was on disk) and the peak memory of its gen process in bytes (None when on disk)."""
    plan = json.loads(run([a.feerie, "gen", "--plan", "--json", "--condition", condition, "--tables", a.tables,
                           "--threads", str(a.threads), material]))
    seconds, peak = None, None
    for component in plan["components"]:
        if component["action"] != "generate":
            continue
        first = component["members"][0]
        out, made_peak = gen_process(a, condition, first)
        if a.log:
            with open(a.log, "a") as f:
                f.write(f"# {time.strftime('%Y-%m-%d %H:%M:%S')}: {a.feerie} (sha256 {program_digest(a.feerie)})\n")
                f.write(out + "".join(f"{m}: gen process peak {made_peak} bytes for "
                                      f"{a.tables}/{condition}/{m}.ftb\n" for m in component["members"]))
        if material in component["members"]:
            seconds, peak = generated_seconds(out, material), made_peak
    return seconds, peak


def logged_runs(files):
    """{(condition, material): seconds} and {(condition, material): peak bytes} from
    `feerie gen` outputs and this script's --log: the condition is the directory the table
    was written to."""
    times, peaks = {}, {}
    for name in files:
        if not os.path.exists(name):
            continue
        with open(name) as f:
            for line in f:
                found = re.match(r"(\S+): generated \S*/([^/\s]+)/[^/\s]+\.ftb in ([0-9.]+) s", line)
                if found:
                    times[(found.group(2), found.group(1))] = float(found.group(3))
                found = re.match(r"(\S+): gen process peak ([0-9]+) bytes for \S*/([^/\s]+)/[^/\s]+\.ftb", line)
                if found:
                    peaks[(found.group(3), found.group(1))] = int(found.group(2))
    return times, peaks


def zugzwangs(a, condition, material):
    """(full point, half point) reciprocal zugzwangs with the pawns on ranks 2-7."""
    def count(kind):
        return int(run([a.feerie, "mine", "--condition", condition, "--tables", a.tables, "--zugzwang", kind,
                        "--usual-pawn-ranks", "--count", material]).strip())
    return count("full"), count("half")


def example_zugzwang(a, condition, material):
    """One reciprocal zugzwang (the first of a seeded sample) as (FEN, its value for White to
    move, the value with Black to move), or None."""
    out = run([a.feerie, "mine", "--condition", condition, "--tables", a.tables, "--zugzwang", "any",
               "--usual-pawn-ranks", "--limit", "1", "--seed", "1", "--json", material]).strip()
    if not out:
        return None
    j = json.loads(out.splitlines()[0])
    return j["fen"], j, j["other_side_to_move"]


def value_words(j):
    """A value for the side it belongs to: "draws", "wins (mates in 3)", "loses (mated in 1)"."""
    if j["wdl"] == "draw":
        return "draws"
    return f"wins (mates in {j['mate_in']})" if j["wdl"] == "win" else f"loses (mated in {-j['mate_in']})"


def mib(b):
    return "-" if b is None else f"{b / 2 ** 20:.0f}"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("condition", nargs="?", default="madrasi-ri")
    add_common_arguments(p, None)
    p.add_argument("--verify", type=int, default=0, metavar="N")
    p.add_argument("--verify-record", metavar="FILE")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--gen-log", nargs="*", default=[], metavar="FILE")
    p.add_argument("--log", metavar="FILE")
    p.add_argument("--gen-only", action="store_true")
    a = p.parse_args()
    c = a.condition
    materials = a.only or MATERIALS
    if a.gen_only:
        for m in materials:
            for cond in (c, "orthodox"):
                generate(a, cond, m)
        return 0
    logged_times, logged_peaks = logged_runs(a.gen_log + ([a.log] if a.log else []))
    out = a.out or os.path.join(ROOT, "docs", "results", c + "-5-pawns.md")
    to_verify = 0 if a.no_verify else min(a.verify, len(materials))
    record = a.verify_record or os.path.join(a.tables, "verify-record.json")

    rows, failures = [], []
    for i, m in enumerate(materials):
        made = {cond: generate(a, cond, m) for cond in (c, "orthodox")}
        # A table on disk: its time and peak from the logs, when they say.
        made = {cond: (sec, peak) if sec is not None else (logged_times.get((cond, m)), logged_peaks.get((cond, m)))
                for cond, (sec, peak) in made.items()}
        ours, orth = stat(a, c, m), stat(a, "orthodox", m)
        verified, verify_runs = "not run", {}
        if i < to_verify:
            for cond in (c, "orthodox"):
                verify_runs[cond] = verify_timed(a.feerie, a.tables, m, failures, cond, a.threads, record)
            results = {r[0] for r in verify_runs.values()}
            verified = "ok" if results == {"ok"} else "FAILED"
        side = max(("wtm", "btm"), key=lambda x: longest(ours[x]))
        example = ours[side]["longest_mate_fen"] if longest(ours[side]) else ""
        pv = ""
        if example:
            probe = json.loads(run([a.feerie, "probe", "--json", "--condition", c, "--tables", a.tables, example]))
            pv = numbered_line(example, probe["pv_san"])
        rows.append(dict(material=m, ours=ours, orth=orth, made=made, verified=verified,
                         verify_runs=verify_runs, example=example, pv=pv, side=side,
                         zug=zugzwangs(a, c, m), zug_orth=zugzwangs(a, "orthodox", m),
                         zug_example=example_zugzwang(a, c, m)))
        sys.stderr.write(f"[{i + 1}/{len(materials)}] {m} done\n")

    command = "scripts/pawn_results.py " + c + (" --only " + " ".join(a.only) if a.only else "") + (
        f" --verify {a.verify}" if a.verify else "")
    lines = [
        f"# {c}: 5-man endgames with pawns",
        "",
        f"Regenerated by `{command}` on {datetime.date.today().isoformat()}",
        f"({cpu_model()}, {a.threads} threads). Shares are of the legal positions (raw counts, every",
        "symmetry image, pawns on every rank as SPEC 1 allows) as win / draw / loss in percent for",
        "the side to move; the orthodox figures are beside them. Longest mates in moves.",
        "",
        "A table holds both sides to move, so the names of issue 23 with the colours exchanged are",
        "the rows of their stored tables: " + ", ".join(f"{alias} is {m}" for m, alias in ALIASES.items()) + ".",
        "",
    ] + ([f"This version covers {len(materials)} of the {len(MATERIALS)} materials of the full page "
          f"({', '.join(materials)}); `scripts/pawn_results.py {c}` makes the whole page.", ""]
         if a.only else [])
    lines += value_table_lines(rows, c)
    lines += verdict_change_lines(rows, c)

    lines += ["", "## Reciprocal zugzwangs", "",
              "Placements (pawns on ranks 2-7, no en-passant right) legal with either side to move where the",
              "side to move does worse than the other would (docs/study.md, \"Reciprocal zugzwangs\"):",
              "`feerie mine --zugzwang full|half --usual-pawn-ranks --count`. Full point: whoever moves",
              "loses; half point: one side draws instead of winning, the other loses instead of drawing.",
              "The orthodox counts equal the published ones where they are published (docs/study.md).", "",
              f"| table | full point ({c}) | half point ({c}) | full point (orthodox) | half point (orthodox) | example ({c}) |",
              "|---|---|---|---|---|---|"]
    for r in rows:
        ex = r["zug_example"]
        shown = (f"`{ex[0]}`: White to move {value_words(ex[1])}, Black to move "
                 f"{value_words(ex[2])}") if ex else ""
        lines.append(f"| {r['material']} | {r['zug'][0]} | {r['zug'][1]} | {r['zug_orth'][0]} | {r['zug_orth'][1]} | "
                     f"{shown} |")

    lines += longest_mates_section(a.feerie, out, rows, c)

    lines += ["", "## Generation time and peak memory", "",
              f"Seconds for the table itself (its sub-tables ready), `feerie gen --threads {a.threads}`, and the",
              "peak memory of that gen process (maximum resident set, MiB), each table in a process of its",
              "own; for a table already on disk the time and peak its generation logged (`--log`,",
              "`--gen-log`), or `reused` and `-` when no log says. Verify: seconds of",
              f"`feerie verify --threads {a.threads}` of the {c} table and of the orthodox one (both must",
              "pass for `ok` above) and the day it ran; a table verified before and unchanged since",
              "(same size and modification time, recorded in `TABLES/verify-record.json`) is not",
              "verified again.", "",
              f"| table | legal positions, White to move ({c}) | gen ({c}) | peak ({c}) | gen (orthodox) | peak (orthodox) | verify ({c}) | verify (orthodox) |",
              "|---|---|---|---|---|---|---|---|"]

    def secs(x):
        return "reused" if x is None else f"{x:.1f}"

    def verify_cell(r, cond):
        run_ = r["verify_runs"].get(cond)
        return "not run" if run_ is None else f"{run_[0]}, {run_[1]:.1f} ({run_[2]})"
    for r in rows:
        (s1, p1), (s2, p2) = r["made"][c], r["made"]["orthodox"]
        lines.append(f"| {r['material']} | {r['ours']['wtm']['positions']} | {secs(s1)} | {mib(p1)} | "
                     f"{secs(s2)} | {mib(p2)} | {verify_cell(r, c)} | {verify_cell(r, 'orthodox')} |")
    lines += failure_lines(failures)
    write_page(out, lines)
    print(f"wrote {out} ({len(rows)} tables, {len(failures)} verification failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
