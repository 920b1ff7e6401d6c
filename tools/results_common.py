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
