"""What the results scripts (orthodox_results.py, condition_results.py, magic_results.py,
combination_results.py, five_man_results.py, pawn_results.py, classics_results.py) share: their common options, running feerie,
verifying a table, the figures they all show, drawing the longest mates and writing the page."""
import datetime
import glob
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def add_common_arguments(parser, out):
    """--feerie, --tables, --out (default `out`), --only MATERIAL..., --no-verify."""
    parser.add_argument("--feerie", default=os.path.join(ROOT, "build", "tools", "feerie"))
    parser.add_argument("--tables", default=os.path.join(ROOT, "tables"))
    parser.add_argument("--out", default=out)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--no-verify", action="store_true")


def regenerate_command(script, args):
    """The command line a page names for regenerating it: `script` with the options in
    `args` (from add_common_arguments) that changed what it covers."""
    return (f"scripts/{script}" + (" --only " + " ".join(args.only) if args.only else "")
            + (" --no-verify" if args.no_verify else ""))


def run(cmd):
    """The output of `cmd`; on failure, says which command failed and what it printed, then raises."""
    try:
        return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    except subprocess.CalledProcessError as e:
        sys.stderr.write(f"failed (exit {e.returncode}): {' '.join(cmd)}\n{e.stdout}{e.stderr}")
        raise


def verify(feerie, tables, material, failures, condition=None, skip=False, label=None, threads=None,
           stipulation=None):
    """Runs `feerie verify` on one table (with `stipulation`, its h# or s# tables): "ok",
    "FAILED" (the reason appended to `failures`, prefixed by `label` or the material) or
    "not run" when `skip`."""
    if skip:
        return "not run"
    cmd = ([feerie, "verify"] + (["--condition", condition] if condition else [])
           + (["--stipulation", stipulation] if stipulation else []) + ["--tables", tables]
           + (["--threads", str(threads)] if threads else []) + [material])
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode == 0:
        return "ok"
    failures.append(f"{label or material}: {result.stdout.strip()} {result.stderr.strip()}")
    return "FAILED"


def verify_timed(feerie, tables, material, failures, condition, threads, record):
    """verify() of the table <tables>/<condition>/<material>.ftb, timed: returns (result,
    seconds, date). `record`, a JSON file (or None), keeps every verification that passed
    with the table file's size and modification time; a table unchanged since is not
    verified again, its recorded seconds and date come back (a 5-man pawn set takes hours
    to verify, and a page is regenerated more often than its tables)."""
    path = os.path.join(tables, condition, material + ".ftb")
    key = f"{condition}/{material}"
    try:
        st = os.stat(path)
        stamp = {"size": st.st_size, "mtime_ns": st.st_mtime_ns}
    except OSError:
        stamp = None
    seen = {}
    if record and os.path.exists(record):
        with open(record, encoding="utf-8") as f:
            seen = json.load(f)
    old = seen.get(key)
    if stamp and old and all(old.get(k) == v for k, v in stamp.items()):
        return "ok", old["seconds"], old["date"]
    started = time.time()
    result = verify(feerie, tables, material, failures, condition=condition, threads=threads)
    seconds = time.time() - started
    today = datetime.date.today().isoformat()
    if record and stamp and result == "ok":
        seen[key] = dict(stamp, seconds=round(seconds, 1), date=today, threads=threads)
        with open(record + ".tmp", "w", encoding="utf-8") as f:
            json.dump(seen, f, indent=1, sort_keys=True)
        os.replace(record + ".tmp", record)
    return result, seconds, today


def longest(s):
    """The longest mate in moves of one side's statistics (`feerie stat --json`), 0 if none."""
    return s["longest_mate_moves"] if s["longest_mate_plies"] is not None else 0


def cpu_model():
    """The processor as /proc/cpuinfo names it, and the number of logical CPUs."""
    try:
        with open("/proc/cpuinfo") as f:
            models = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
    except OSError:
        return "unknown CPU"
    return f"{models[0]} ({len(models)} logical CPUs)" if models else "unknown CPU"


def write_page(out, lines):
    """Writes the page's lines to `out` (directories made as needed), one newline at the end."""
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(lines).rstrip("\n") + "\n")


def diagram_folder(page, clear=False):
    """The folder of a page's diagrams, diagrams/<page name>/ beside it (made as needed;
    with `clear`, emptied of what an earlier run drew there)."""
    name = os.path.splitext(os.path.basename(page))[0]
    folder = os.path.join(os.path.dirname(os.path.abspath(page)), "diagrams", name)
    os.makedirs(folder, exist_ok=True)
    if clear:
        for old in glob.glob(os.path.join(folder, "*.svg")):
            os.remove(old)
    return folder


def diagram_table(feerie, page, items):
    """Draws `items` ((label, fen, condition or None, caption, stipulation or None) tuples)
    with `feerie diagram` into the page's diagram folder and returns the Markdown lines of a
    table of them: labels, images, captions."""
    if not items:
        return []
    folder = diagram_folder(page)
    name = os.path.basename(folder)
    header, images, captions = [], [], []
    for label, fen, condition, caption, stipulation in items:
        file = "".join(c if c.isalnum() or c in "-_" else "_" for c in label) + ".svg"
        run([feerie, "diagram", "--size", "240", "-o", os.path.join(folder, file)]
            + (["--condition", condition] if condition else [])
            + (["--stipulation", stipulation] if stipulation else []) + [fen])
        header.append(label)
        images.append(f"![{label}: {fen}](diagrams/{name}/{file})")
        captions.append(caption)
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            "| " + " | ".join(images) + " |", "| " + " | ".join(captions) + " |", ""]


def longest_mate_diagrams(feerie, page, examples, condition=None, count=4):
    """The page's longest mates as board diagrams: draws the `count` longest of `examples`
    ((moves, label, fen) tuples, or (moves, label, fen, condition) when the page has several
    conditions) with `feerie diagram` into diagrams/<page name>/ beside the page (replacing
    what an earlier run drew there) and returns the page's Markdown lines."""
    chosen = sorted(examples, key=lambda e: (-e[0], e[1]))[:count]
    if not chosen:
        return []
    diagram_folder(page, clear=True)
    items = []
    for moves, label, fen, *own_condition in chosen:
        side = "White" if fen.split()[1] == "w" else "Black"
        items.append((label, fen, own_condition[0] if own_condition else condition,
                      f"{side} to move mates in {moves}", None))
    return diagram_table(feerie, page, items)


def longest_mates_section(feerie, page, rows, condition):
    """The section "Longest mates" of a page whose rows each hold a material, its values
    ("ours", per side "wtm"/"btm"), the side of its longest mate ("side"), an example of it
    ("example", may be empty) and that example's principal variation ("pv"): the diagrams of
    the longest (longest_mate_diagrams) and a line per example."""
    lines = ["", "## Longest mates with an example and its principal variation", ""]
    lines += longest_mate_diagrams(feerie, page, [(longest(r["ours"][r["side"]]), r["material"], r["example"])
                                                  for r in rows if r["example"]], condition=condition)
    for r in rows:
        if r["example"]:
            lines.append(f"- **{r['material']}** ({'White' if r['side'] == 'wtm' else 'Black'} to move mates in "
                         f"{longest(r['ours'][r['side']])}): `{r['example']}` — {r['pv']}")
    return lines


def failure_lines(failures):
    """The page's section on the tables that failed to verify; nothing when none did."""
    if not failures:
        return []
    return ["", "## Verification failures", ""] + [f"- {f}" for f in failures]


def generated_seconds(gen_output, material):
    """The seconds `feerie gen` reports for `material` itself ("KRPvKR: generated ... in 179.05
    s"), or None when its output says it was not generated (reused)."""
    for line in gen_output.splitlines():
        found = re.match(r"(\S+): generated \S+ in ([0-9.]+) s", line)
        if found and found.group(1) == material:
            return float(found.group(2))
    return None


def stat(a, condition, material):
    """`feerie stat --json` of a table (`a`: the options of add_common_arguments)."""
    return json.loads(run([a.feerie, "stat", "--json", "--condition", condition, "--tables", a.tables, material]))


def share(s, key):
    """A result's share of one side's legal positions, in percent."""
    total = s["win"] + s["draw"] + s["loss"]
    return 100.0 * s[key] / total if total else 0.0


def verdict(s):
    """The most frequent result for the side to move."""
    return max(("win", "draw", "loss"), key=lambda k: s[k])


def cells(s):
    return f"{share(s, 'win'):.1f} / {share(s, 'draw'):.1f} / {share(s, 'loss'):.1f}"


def value_table_lines(rows, condition):
    """The table of win / draw / loss per side beside orthodox chess: `rows` hold `material`,
    `ours` and `orth` (`feerie stat --json`) and `verified`."""
    c = condition
    lines = [f"| table | wtm ({c}) | wtm (orthodox) | btm ({c}) | btm (orthodox) | longest mate wtm / btm | orthodox | verify |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        o, t = r["ours"], r["orth"]
        lines.append(f"| {r['material']} | {cells(o['wtm'])} | {cells(t['wtm'])} | {cells(o['btm'])} | "
                     f"{cells(t['btm'])} | {longest(o['wtm'])} / {longest(o['btm'])} | "
                     f"{longest(t['wtm'])} / {longest(t['btm'])} | {r['verified']} |")
    return lines


def verdict_change_lines(rows, condition):
    """The section on the verdicts that change against orthodox chess (rows as above)."""
    lines = ["", "## Verdicts that change against orthodox chess", "",
             "The verdict of a side to move is its most frequent result. The change is the white",
             "side's share of wins (White to move / Black to move: Black's losses) in percentage points.", ""]
    changed = []
    for r in rows:
        o, t = r["ours"], r["orth"]
        for side, who in (("wtm", "White"), ("btm", "Black")):
            if verdict(o[side]) != verdict(t[side]):
                key = "win" if side == "wtm" else "loss"
                changed.append(f"- **{r['material']}**, {who} to move: {verdict(t[side])} in orthodox chess, "
                               f"{verdict(o[side])} under {condition} (White wins {share(t[side], key):.1f}% → "
                               f"{share(o[side], key):.1f}%, {share(o[side], key) - share(t[side], key):+.1f} points)")
    return lines + (changed or ["No verdict changes."])


def numbered_line(fen, moves, limit=None):
    """SAN moves as a numbered line from `fen` (its full-move number): "1.e7 d2 2.e8=Q ...",
    "1...Kb8 2.Qb7#"; with `limit`, the first `limit` moves and the length of the rest."""
    fields = fen.split()
    white = fields[1] == "w"
    number = int(fields[5]) if len(fields) > 5 else 1
    out = []
    for i, m in enumerate(moves[:limit] if limit else moves):
        if white:
            out.append(f"{number}.{m}")
        else:
            out.append(m if i else f"{number}...{m}")
            number += 1
        white = not white
    text = " ".join(out)
    if limit and len(moves) > limit:
        text += f" … ({len(moves)} plies)"
    return text
