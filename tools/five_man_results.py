#!/usr/bin/env python3
"""The 5-man study page of a condition: generates the pawnless tables with two white pieces
against a black queen or rook (KQQvKQ ... KNNvKR, 20 tables) under the condition and under
orthodox chess, verifies some of them, and writes docs/results/<condition>-5.md: win / draw
/ loss per side to move beside orthodox, which endgames change their verdict and by how
much, the longest mates with an example, its principal variation and a diagram, and the
time each table took to generate and to verify.

Usage: tools/five_man_results.py [CONDITION] [--verify N] [--threads T] [--feerie build/tools/feerie]
       [--tables tables] [--out docs/results/CONDITION-5.md] [--only KQRvKQ ...]
CONDITION defaults to madrasi-ri. --verify N verifies the first N tables of the page under
the condition (default: all; 0 for none) and projects the time of the rest from their
sizes. Exit status 1 when a table fails to verify.
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import time

from results_common import add_common_arguments, longest_mate_diagrams, run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PIECES = "QRBN"


def default_materials():
    pairs = [a + b for i, a in enumerate(PIECES) for b in PIECES[i:]]
    return [f"K{p}vK{d}" for p in pairs for d in "QR"]


def generate(a, condition, material):
    """Generates one table (and what it needs); returns the seconds feerie reports for the
    table itself, or None when it was already on disk."""
    out = run([a.feerie, "gen", "--condition", condition, "--tables", a.tables, "--threads", str(a.threads), material])
    sys.stderr.write(out)
    for line in out.splitlines():
        found = re.match(r"(\S+): generated \S+ in ([0-9.]+) s", line)
        if found and found.group(1) == material:
            return float(found.group(2))
    return None


def stat(a, condition, material):
    return json.loads(run([a.feerie, "stat", "--json", "--condition", condition, "--tables", a.tables, material]))


def share(s, key):
    total = s["win"] + s["draw"] + s["loss"]
    return 100.0 * s[key] / total if total else 0.0


def verdict(s):
    """The most frequent result for the side to move."""
    return max(("win", "draw", "loss"), key=lambda k: s[k])


def longest(s):
    return s["longest_mate_moves"] if s["longest_mate_plies"] is not None else 0


def cells(s):
    return f"{share(s, 'win'):.1f} / {share(s, 'draw'):.1f} / {share(s, 'loss'):.1f}"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("condition", nargs="?", default="madrasi-ri")
    add_common_arguments(p, None)
    p.add_argument("--verify", type=int, default=None, metavar="N")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    a = p.parse_args()
    out = a.out or os.path.join(ROOT, "docs", "results", a.condition + "-5.md")
    materials = a.only or default_materials()
    to_verify = 0 if a.no_verify else len(materials) if a.verify is None else min(a.verify, len(materials))

    rows, failures = [], []
    for i, m in enumerate(materials):
        seconds = {c: generate(a, c, m) for c in (a.condition, "orthodox")}
        ours, orth = stat(a, a.condition, m), stat(a, "orthodox", m)
        verified, verify_seconds = "not run", None
        if i < to_verify:
            started = time.time()
            result = subprocess.run([a.feerie, "verify", "--condition", a.condition, "--tables", a.tables,
                                     "--threads", str(a.threads), m], capture_output=True, text=True)
            verify_seconds = time.time() - started
            verified = "ok" if result.returncode == 0 else "FAILED"
            if result.returncode != 0:
                failures.append(f"{m}: {result.stdout.strip()} {result.stderr.strip()}")
        side = max(("wtm", "btm"), key=lambda x: longest(ours[x]))
        example = ours[side]["longest_mate_fen"] if longest(ours[side]) else ""
        pv = ""
        if example:
            probe = json.loads(run([a.feerie, "probe", "--json", "--condition", a.condition, "--tables", a.tables,
                                    example]))
            pv = " ".join(probe["pv"])
        rows.append(dict(material=m, ours=ours, orth=orth, seconds=seconds, verified=verified,
                         verify_seconds=verify_seconds, example=example, pv=pv, side=side))
        sys.stderr.write(f"[{i + 1}/{len(materials)}] {m} done\n")

    c = a.condition
    command = "tools/five_man_results.py " + c + (" --only " + " ".join(a.only) if a.only else "") + (
        f" --verify {a.verify}" if a.verify is not None else "") + (" --no-verify" if a.no_verify else "")
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    lines = [
        f"# {c}: 5-man pawnless endgames, two pieces against a queen or a rook",
        "",
        f"Regenerated by `{command}` on {datetime.date.today().isoformat()}",
        f"({model}, {a.threads} threads). Shares are of the legal positions (raw counts, every",
        "symmetry image; SPEC 1) as win / draw / loss in percent for the side to move; the",
        "orthodox figures are beside them. Longest mates in moves.",
        "",
        f"| table | wtm ({c}) | wtm (orthodox) | btm ({c}) | btm (orthodox) | longest mate wtm / btm | orthodox | verify |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        o, t = r["ours"], r["orth"]
        lines.append(f"| {r['material']} | {cells(o['wtm'])} | {cells(t['wtm'])} | {cells(o['btm'])} | "
                     f"{cells(t['btm'])} | {longest(o['wtm'])} / {longest(o['btm'])} | "
                     f"{longest(t['wtm'])} / {longest(t['btm'])} | {r['verified']} |")

    lines += ["", "## Verdicts that change against orthodox chess", "",
              "The verdict of a side to move is its most frequent result. The change is the white",
              "side's share of wins (White to move / Black to move: Black's losses) in percentage points.", ""]
    changed = []
    for r in rows:
        o, t = r["ours"], r["orth"]
        for side, who in (("wtm", "White"), ("btm", "Black")):
            if verdict(o[side]) != verdict(t[side]):
                key = "win" if side == "wtm" else "loss"
                changed.append(f"- **{r['material']}**, {who} to move: {verdict(t[side])} in orthodox chess, "
                               f"{verdict(o[side])} under {c} (White wins {share(t[side], key):.1f}% → "
                               f"{share(o[side], key):.1f}%, {share(o[side], key) - share(t[side], key):+.1f} points)")
    lines += changed or ["No verdict changes."]
    lines += ["", "White's winning chances, largest changes first (White to move):", "",
              "| table | orthodox | " + c + " | change |", "|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: -abs(share(r["ours"]["wtm"], "win") - share(r["orth"]["wtm"], "win"))):
        before, after = share(r["orth"]["wtm"], "win"), share(r["ours"]["wtm"], "win")
        lines.append(f"| {r['material']} | {before:.1f}% | {after:.1f}% | {after - before:+.1f} |")

    lines += ["", "## Longest mates with an example and its principal variation", ""]
    lines += longest_mate_diagrams(a.feerie, out, [(longest(r["ours"][r["side"]]), r["material"], r["example"])
                                                   for r in rows if r["example"]], condition=c)
    for r in rows:
        if r["example"]:
            lines.append(f"- **{r['material']}** ({'White' if r['side'] == 'wtm' else 'Black'} to move mates in "
                         f"{longest(r['ours'][r['side']])}): `{r['example']}` — {r['pv']}")

    lines += ["", "## Generation and verification times", "",
              f"Seconds for the table itself (sub-tables ready), `feerie gen --threads {a.threads}` and",
              f"`feerie verify --threads {a.threads}`; `reused` when the table was on disk already.", "",
              f"| table | legal positions, White to move | gen ({c}) | gen (orthodox) | verify ({c}) |", "|---|---|---|---|---|"]

    def shown(x):
        return "reused" if x is None else f"{x:.1f}"
    for r in rows:
        entries = r["ours"]["wtm"]["positions"]
        lines.append(f"| {r['material']} | {entries} | {shown(r['seconds'][c])} | {shown(r['seconds']['orthodox'])} | "
                     + ("not run" if r["verify_seconds"] is None else f"{r['verify_seconds']:.1f}") + " |")
    timed = [r for r in rows if r["verify_seconds"] is not None]
    rest = [r for r in rows if r["verify_seconds"] is None]
    if timed:
        per_position = sum(r["verify_seconds"] for r in timed) / sum(r["ours"]["wtm"]["positions"] for r in timed)
        lines += ["", f"Verified {len(timed)} of {len(rows)} tables in {sum(r['verify_seconds'] for r in timed):.0f} s"
                  + (f"; at the same speed per legal position the other {len(rest)} would take about "
                     f"{per_position * sum(r['ours']['wtm']['positions'] for r in rest):.0f} s." if rest else ".")]
    if failures:
        lines += ["", "## Verification failures", ""] + [f"- {f}" for f in failures]
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {out} ({len(rows)} tables, {len(timed)} verified, {len(failures)} verification failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
