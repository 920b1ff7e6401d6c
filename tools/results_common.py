"""What the results scripts (orthodox_results.py, condition_results.py, magic_results.py,
combination_results.py) share: their common options, running feerie and verifying a table."""
import os
import subprocess

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
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def verify(feerie, tables, material, failures, condition=None, skip=False, label=None):
    """Runs `feerie verify` on one table: "ok", "FAILED" (the reason appended to
    `failures`, prefixed by `label` or the material) or "not run" when `skip`."""
    if skip:
        return "not run"
    cmd = [feerie, "verify"] + (["--condition", condition] if condition else []) + ["--tables", tables, material]
    try:
        run(cmd)
        return "ok"
    except subprocess.CalledProcessError as e:
        failures.append(f"{label or material}: {e.stdout.strip()} {e.stderr.strip()}")
        return "FAILED"


def longest_mate_diagrams(feerie, page, examples, condition=None, count=4):
    """The page's longest mates as board diagrams: draws the `count` longest of `examples`
    ((moves, label, fen) tuples, or (moves, label, fen, condition) when the page has several
    conditions) with `feerie diagram` into diagrams/<page name>/ beside the page (replacing
    what an earlier run drew there) and returns the page's Markdown lines."""
    import glob
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
