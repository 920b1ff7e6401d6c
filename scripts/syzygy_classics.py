#!/usr/bin/env python3
"""Probes the classic positions of scripts/classics_results.py in Syzygy tables (issue 23:
"the classic positions' orthodox values equal Syzygy's or Nalimov's, the probe results
recorded in the page").

Builds syzygy1/tb's generators (scripts/syzygy_common.sh), generates the Syzygy tables of
KPvK, KPvKP, KRPvKR and KBPvKB with everything a capture or a promotion leads to, builds
Fathom's command-line probe (jdart1/Fathom, src/apps/fathom.c), probes every position and
writes what Fathom says (WDL, DTZ, the winning, drawing and losing moves) to a JSON file,
with the commits of both sources. classics_results.py reads that file and puts Syzygy's
verdict beside ours on the page; it stops if one differs.

Usage:
  scripts/syzygy_classics.py --tb TB_SOURCE --fathom FATHOM_SOURCE \
      [--out docs/results/published/syzygy-classics.json]

TB_SOURCE, FATHOM_SOURCE: a source directory or a bare git directory of each repository
(as the `fetch` tool gives them). Needs gcc and libzstd-dev; takes a few minutes on 2 cores
(the 5-man pawnless tables KQRvKR, KRRvKR, ... come first). Exit status 0 when the file was
written, 2 when a build, a generation or a probe fails.
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys

from classics_results import POSITIONS

HERE = os.path.dirname(os.path.abspath(__file__))
MATERIALS = ["KPvK", "KPvKP", "KRPvKR", "KBPvKB"]


def run(cmd, **kw):
    res = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if res.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {res.returncode}: "
                           f"{(res.stderr or res.stdout).strip()[-2000:]}")
    return res.stdout


def commit_of(src):
    """The commit a source directory or bare git directory is at."""
    try:
        return run(["git", "-C", src, "rev-parse", "HEAD"]).strip()
    except RuntimeError:
        return "unknown"


def build_fathom(src, work):
    out = os.path.join(work, "fathom", "fathom")
    if os.path.exists(out):
        return out
    tree = os.path.join(work, "fathom", "src")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if os.path.exists(os.path.join(src, "src", "tbprobe.c")):
        run(["cp", "-r", src, tree])
    else:
        run(["git", "clone", "-q", src, tree])
    apps = os.path.join(tree, "src", "apps")
    run(["gcc", "-std=gnu99", "-O2", "-DTB_NO_THREADS", "-I..", "fathom.c", "../tbprobe.c",
         "-o", out], cwd=apps)
    return out


TAG = re.compile(r'^\[(\w+) "(.*)"\]$')


def fathom_probe(fathom, tables, fen):
    """Fathom's PGN tags for one position (it prints a PV and debug lines after them)."""
    tags = {}
    for line in run([fathom, f"--path={tables}", fen]).splitlines():
        m = TAG.match(line.strip())
        if m:
            tags[m.group(1)] = m.group(2)
    moves = lambda k: [x.strip() for x in tags.get(k, "").split(",") if x.strip()]
    return dict(fen=fen, wdl=tags["WDL"], dtz=int(tags["DTZ"]), winning=moves("WinningMoves"),
                drawing=moves("DrawingMoves"), losing=moves("LosingMoves"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tb", required=True, help="syzygy1/tb sources (directory or bare git)")
    ap.add_argument("--fathom", required=True, help="jdart1/Fathom sources (directory or bare git)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "docs", "results",
                                                  "published", "syzygy-classics.json"))
    args = ap.parse_args()
    work = os.environ.get("SYZYGY_WORK", "/tmp/syzygy-tb")
    common = os.path.join(HERE, "syzygy_common.sh")
    try:
        run(["bash", "-c", f'set -e; source "{common}"; syzygy_build "$1"; syzygy_generate "${{@:2}}"',
             "bash", args.tb] + MATERIALS, env=dict(os.environ, SYZYGY_WORK=work))
        fathom = build_fathom(args.fathom, work)
        tables = os.path.join(work, "tables")
        probes = [fathom_probe(fathom, tables, p["fen"]) for p in POSITIONS]
    except (RuntimeError, KeyError, ValueError) as e:
        print(f"syzygy_classics.py: {e}", file=sys.stderr)
        return 2
    doc = dict(
        about="Syzygy WDL/DTZ tables of KPvK, KPvKP, KRPvKR, KBPvKB (and their sub-tables) "
              "generated with syzygy1/tb (rtbgen, rtbgenp), probed with Fathom's "
              "src/apps/fathom.c; written by scripts/syzygy_classics.py. WDL and the move "
              "lists are for the side to move and follow the 50-move rule: CursedWin / "
              "BlessedLoss are wins / losses that the rule turns into draws, and Fathom "
              "lists cursed-win and blessed-loss moves among the drawing moves.",
        syzygy1_tb_commit=commit_of(args.tb), fathom_commit=commit_of(args.fathom),
        date=datetime.date.today().isoformat(), positions=probes)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"syzygy_classics.py: wrote {args.out} ({len(probes)} positions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
