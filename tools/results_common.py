"""What the results scripts (orthodox_results.py, condition_results.py, magic_results.py)
share: running feerie and verifying a table."""
import subprocess


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
