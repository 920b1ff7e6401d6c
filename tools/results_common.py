"""What the results scripts (orthodox_results.py, condition_results.py, magic_results.py,
combination_results.py, five_man_results.py) share: their common options, running feerie,
verifying a table, the figures they all show, drawing the longest mates and writing the page."""
import glob
import os
import subprocess
import sys

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
    return (f"tools/{script}" + (" --only " + " ".join(args.only) if args.only else "")
            + (" --no-verify" if args.no_verify else ""))


def run(cmd):
    """The output of `cmd`; on failure, says which command failed and what it printed, then raises."""
    try:
        return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    except subprocess.CalledProcessError as e:
        sys.stderr.write(f"failed (exit {e.returncode}): {' '.join(cmd)}\n{e.stdout}{e.stderr}")
        raise


def verify(feerie, tables, material, failures, condition=None, skip=False, label=None, threads=None):
    """Runs `feerie verify` on one table: "ok", "FAILED" (the reason appended to
    `failures`, prefixed by `label` or the material) or "not run" when `skip`."""
    if skip:
        return "not run"
    cmd = ([feerie, "verify"] + (["--condition", condition] if condition else []) + ["--tables", tables]
           + (["--threads", str(threads)] if threads else []) + [material])
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode == 0:
        return "ok"
    failures.append(f"{label or material}: {result.stdout.strip()} {result.stderr.strip()}")
    return "FAILED"


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


def longest_mate_diagrams(feerie, page, examples, condition=None, count=4):
    """The page's longest mates as board diagrams: draws the `count` longest of `examples`
    ((moves, label, fen) tuples, or (moves, label, fen, condition) when the page has several
    conditions) with `feerie diagram` into diagrams/<page name>/ beside the page (replacing
    what an earlier run drew there) and returns the page's Markdown lines."""
    chosen = sorted(examples, key=lambda e: (-e[0], e[1]))[:count]
    if not chosen:
        return []
    name = os.path.splitext(os.path.basename(page))[0]
    folder = os.path.join(os.path.dirname(os.path.abspath(page)), "diagrams", name)
    os.makedirs(folder, exist_ok=True)
    for old in glob.glob(os.path.join(folder, "*.svg")):
        os.remove(old)
    header, images, captions = [], [], []
    for moves, label, fen, *own_condition in chosen:
        file = "".join(c if c.isalnum() or c in "-_" else "_" for c in label) + ".svg"
        drawn_under = own_condition[0] if own_condition else condition
        run([feerie, "diagram", "--size", "240", "-o", os.path.join(folder, file)]
            + (["--condition", drawn_under] if drawn_under else []) + [fen])
        header.append(label)
        images.append(f"![{label}: {fen}](diagrams/{name}/{file})")
        captions.append(f"{'White' if fen.split()[1] == 'w' else 'Black'} to move mates in {moves}")
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            "| " + " | ".join(images) + " |", "| " + " | ".join(captions) + " |", ""]
