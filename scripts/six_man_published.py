#!/usr/bin/env python3
"""Checks orthodox 6-man tables against Syzygy's published statistics (issue 28: "check the
orthodox 6-man ones against published figures").

For each material named (or every one of docs/results/published/syzygy_6_man_pawnless_3v3.csv
whose table is in TABLES/orthodox), reads `feerie stat --json` and compares its `classes`
(symmetry classes, the convention of the published figures: docs/results/published/README.md)
win, draw and loss counts of both sides to move with the file's row. Prints one line per
material, `same` or what differs.

Usage:
  scripts/six_man_published.py [--feerie BINARY] [--tables TABLES] [MATERIAL...]

Exit status 0 when every table checked equals its row, 1 when one differs, 2 when a material
has no row, no table, or `feerie stat` fails.
"""

import argparse
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUBLISHED = os.path.join(ROOT, "docs", "results", "published", "syzygy_6_man_pawnless_3v3.csv")
SIDES = (("wtm", "White to move"), ("btm", "Black to move"))
RESULTS = ("win", "draw", "loss")


def published_rows(path=PUBLISHED):
    """{material: {"wtm": {"win": n, ...}, "btm": {...}}} from the published file."""
    with open(path, newline="") as f:
        return {row["table"]: {side: {r: int(row[f"{side}_{r}"]) for r in RESULTS} for side, _ in SIDES}
                for row in csv.DictReader(f)}


def differences(published, stat):
    """What differs between a material's published row and its `feerie stat --json` output
    (a dict), as readable strings; empty when they agree."""
    out = []
    for side, name in SIDES:
        ours = stat[side]["classes"]
        for r in RESULTS:
            if ours[r] != published[side][r]:
                out.append(f"{name} {r}: ours {ours[r]:,}, published {published[side][r]:,}")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--feerie", default=os.path.join(ROOT, "build", "tools", "feerie"))
    parser.add_argument("--tables", default=os.path.join(ROOT, "tables"))
    parser.add_argument("materials", nargs="*")
    args = parser.parse_args()
    rows = published_rows()
    materials = args.materials or sorted(
        m for m in rows if os.path.exists(os.path.join(args.tables, "orthodox", m + ".ftb")))
    if not materials:
        print(f"no table of {os.path.basename(PUBLISHED)} in {args.tables}/orthodox", file=sys.stderr)
        return 2
    status = 0
    for m in materials:
        if m not in rows:
            print(f"{m}: no row in {os.path.basename(PUBLISHED)}", file=sys.stderr)
            return 2
        res = subprocess.run([args.feerie, "stat", "--json", "--condition", "orthodox", "--tables", args.tables, m],
                             capture_output=True, text=True)
        if res.returncode != 0:
            print(f"{m}: feerie stat failed (exit {res.returncode}): {res.stderr.strip()}", file=sys.stderr)
            return 2
        diff = differences(rows[m], json.loads(res.stdout))
        counts = ", ".join(f"{name}: {rows[m][side]['win']:,} / {rows[m][side]['draw']:,} / {rows[m][side]['loss']:,}"
                           for side, name in SIDES)
        print(f"{m}: " + ("same (win / draw / loss classes, " + counts + ")" if not diff else "DIFFERS: " + "; ".join(diff)))
        status = status or (1 if diff else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
