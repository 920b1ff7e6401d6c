#!/usr/bin/env python3
"""Generates the helpmate tables (h#) of the 3- and 4-man materials under orthodox chess,
Madrasi RI and Annan, verifies them, and writes docs/results/helpmates.md: per material
and side to move the share of positions with an h#N for each N and how many of them have a
unique solution, the longest helpmates, and examples with a unique solution drawn as
diagrams with their solutions (issue 25).

Usage: scripts/helpmate_results.py [--feerie build/tools/feerie] [--tables tables]
       [--out docs/results/helpmates.md] [--conditions orthodox madrasi-ri annan]
       [--only KQvK ...] [--no-verify]
Exit status 1 when a table fails to verify.
"""
import argparse
import csv
import datetime
import json
import os
import sys

from results_common import ROOT, cpu_model, diagram_folder, diagram_table, failure_lines, run, verify, write_page

CONDITIONS = ["orthodox", "madrasi-ri", "annan"]
EXAMPLES = 4  # diagrams per condition


def default_materials():
    ref = os.path.join(ROOT, "docs", "results", "published", "orthodox_3_4_man.csv")
    with open(ref) as f:
        return [r["table"] for r in csv.DictReader(f)]


def problem(plies):
    """h#N (Black first, 2N plies) or h#N.5 (White first, 2N + 1 plies)."""
    return f"h#{plies // 2}" + (".5" if plies % 2 else "")


def percent(part, whole):
    return f"{100.0 * part / whole:.1f}%" if whole else "—"


def lengths(side):
    """{plies: (positions, unique)} of one side's `stat --json` entry."""
    return {l["plies"]: (l["positions"], l["unique"]) for l in side["lengths"]}


def summary_lines(rows):
    lines = ["| table | positions, Black / White to move | with a helpmate | with a unique solution | "
             "longest, Black / White to move | verify |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        b, w = r["stat"]["btm"], r["stat"]["wtm"]
        longest = " / ".join(problem(s["longest_plies"]) if s["longest_plies"] is not None else "none"
                             for s in (b, w))
        lines.append(f"| {r['material']} | {b['positions']:,} / {w['positions']:,} | "
                     f"{percent(b['with_mate'], b['positions'])} / {percent(w['with_mate'], w['positions'])} | "
                     f"{percent(b['unique'], b['positions'])} / {percent(w['unique'], w['positions'])} | "
                     f"{longest} | {r['verified']} |")
    return lines


def distribution_lines(rows, side, odd):
    """One row per material: for each N the share of `side`'s positions with h#N (odd:
    h#N.5) and the number of them with a unique solution."""
    most = 0
    for r in rows:
        for p in lengths(r["stat"][side]):
            if p % 2 == odd and p > 0:
                most = max(most, p // 2)
    first = 0 if odd else 1
    columns = list(range(first, most + 1))
    head = [problem(2 * n + odd) for n in columns]
    lines = ["| table | " + " | ".join(head) + " |", "|---|" + "---|" * len(columns)]
    for r in rows:
        s = r["stat"][side]
        by = lengths(s)
        cells = []
        for n in columns:
            positions, unique = by.get(2 * n + odd, (0, 0))
            cells.append(f"{percent(positions, s['positions'])} · {unique:,}" if positions else "")
        lines.append(f"| {r['material']} | " + " | ".join(cells) + " |")
    return lines


def pick_examples(rows):
    """The longest h#N with Black to move and a unique solution, per material, longest first:
    (moves, material)."""
    found = []
    for r in rows:
        unique_even = [p for p, (_, u) in lengths(r["stat"]["btm"]).items() if p % 2 == 0 and p > 0 and u > 0]
        if unique_even:
            found.append((max(unique_even) // 2, r["material"]))
    found.sort(key=lambda e: (-e[0], e[1]))
    return found[:EXAMPLES]


def example_lines(a, condition, rows, page):
    chosen = pick_examples(rows)
    if not chosen:
        return ["No position with a unique solution."]
    items, solutions = [], []
    for moves, material in chosen:
        # A position a composer can print: pawns on ranks 2 to 7, a seeded draw.
        mined = run([a.feerie, "mine", "--stipulation", "h#", "--condition", condition, "--tables", a.tables,
                     "--unique", "--mate", str(moves), "--side", "black", "--usual-pawn-ranks", "--limit", "1",
                     "--seed", "1", "--json", material]).splitlines()
        if not mined:
            continue
        fen = json.loads(mined[0])["fen"]
        probe = json.loads(run([a.feerie, "probe", "--stipulation", "h#", "--condition", condition, "--tables",
                                a.tables, "--solutions", "2", "--json", fen]))
        assert probe["solutions"] == 1 and len(probe["solution_lines"]) == 1, probe
        label = f"{condition} {material}"
        items.append((label, fen, condition, f"h#{moves}, one solution", f"h#{moves}"))
        solutions.append(f"- **{label}** (h#{moves}), `{fen}`: {probe['solution_lines'][0]}")
    return diagram_table(a.feerie, page, items) + solutions


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--feerie", default=os.path.join(ROOT, "build", "tools", "feerie"))
    p.add_argument("--tables", default=os.path.join(ROOT, "tables"))
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "results", "helpmates.md"))
    p.add_argument("--conditions", nargs="*", default=CONDITIONS)
    p.add_argument("--only", nargs="*")
    p.add_argument("--no-verify", action="store_true")
    a = p.parse_args()
    materials = a.only or default_materials()

    diagram_folder(a.out, clear=True)  # the diagrams of an earlier run are replaced

    failures = []
    command = "scripts/helpmate_results.py" + (
        " --conditions " + " ".join(a.conditions) if a.conditions != CONDITIONS else "") + (
        " --only " + " ".join(a.only) if a.only else "") + (" --no-verify" if a.no_verify else "")
    lines = [
        "# Helpmates in 3- and 4-man endings: orthodox chess, Madrasi RI and Annan",
        "",
        f"Regenerated by `{command}` on {datetime.date.today().isoformat()} ({cpu_model()}); every table "
        "generated with `feerie gen --stipulation h#` and checked entry by entry with `feerie verify "
        "--stipulation h#` (column *verify*).",
        "",
        "Black is mated, as in problems (the tables hold White mated too: `--mated white`). An **h#N** has "
        "Black to move: Black moves first and White mates on its N-th move (2N plies); an **h#N.5** has White "
        "to move first (2N + 1 plies). A **solution** is a sequence of legal moves of the shortest length (two "
        "promotions of one pawn are two solutions); **unique** means exactly one. Counts are raw (SPEC 1: every "
        "legal position, every symmetry image; pawns on their first or last rank included). Conventions: "
        "[docs/stipulations.md](../stipulations.md). Helpmate lengths and solution counts of these tables agree "
        "with Popeye 4.104 on 1,048 recorded positions (tests/data/popeye_help).",
        "",
        "Each cell of the length tables is the share of that side's legal positions with that shortest "
        "helpmate, then how many of them have a unique solution. The summary's *with a helpmate* and *with a "
        "unique solution* count, as `feerie stat` does, the positions where Black is mated already (h#0, "
        "one empty solution), which the length tables leave out. A unit that moves with a borrowed walk under "
        "Annan is written as any move of its kind: `6...g7` in annan KBPvK is the pawn h7 stepping to g7 with "
        "the walk of the king behind it (Popeye writes `h7-g7`). Study a table further with "
        "`feerie stat --stipulation h# MATERIAL`, `feerie mine --stipulation h# --unique --mate N MATERIAL` "
        "(`--popeye` writes the matches as Popeye problems) and `feerie probe --stipulation h# --solutions 5 FEN`.",
    ]
    for condition in a.conditions:
        rows = []
        for m in materials:
            sys.stderr.write(run([a.feerie, "gen", "--stipulation", "h#", "--condition", condition, "--tables",
                                  a.tables, m]))
            verified = verify(a.feerie, a.tables, m, failures, condition=condition, skip=a.no_verify,
                              label=f"{condition} {m}", stipulation="h#")
            stat = json.loads(run([a.feerie, "stat", "--stipulation", "h#", "--json", "--condition", condition,
                                   "--tables", a.tables, m]))
            rows.append({"material": m, "stat": stat, "verified": verified})
        title = {"orthodox": "Orthodox chess", "madrasi-ri": "Madrasi RI (madrasi-ri)", "annan": "Annan (annan)"}
        lines += ["", f"## {title.get(condition, condition)}", "", "### Summary", ""]
        lines += summary_lines(rows)
        lines += ["", "### Black to move: h#N", ""] + distribution_lines(rows, "btm", 0)
        lines += ["", "### White to move: h#N.5", ""] + distribution_lines(rows, "wtm", 1)
        lines += ["", "### Longest helpmates with a unique solution, Black to move", ""]
        lines += example_lines(a, condition, rows, a.out)
    lines += failure_lines(failures)
    write_page(a.out, lines)
    print(f"wrote {a.out} ({len(a.conditions)} conditions, {len(materials)} materials, "
          f"{len(failures)} verification failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
