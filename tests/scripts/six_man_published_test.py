#!/usr/bin/env python3
"""scripts/six_man_published.py against a stand-in for `feerie stat --json` that answers with
the published KRRvKRR row, once unchanged (the check says `same`, exit 0) and once with one
count changed (it says `DIFFERS` and names it, exit 1)."""

import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "six_man_published.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import six_man_published  # noqa: E402


def stat_json(row):
    return {side: {"classes": dict(row[side])} for side in ("wtm", "btm")}


class SixManPublished(unittest.TestCase):
    def setUp(self):
        self.row = six_man_published.published_rows()["KRRvKRR"]
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def fake_feerie(self, answer):
        path = os.path.join(self.dir.name, "feerie")
        with open(path, "w") as f:
            f.write(f"#!{sys.executable}\nprint({json.dumps(json.dumps(answer))})\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
        return path

    def check(self, answer):
        return subprocess.run([sys.executable, SCRIPT, "--feerie", self.fake_feerie(answer), "--tables",
                               self.dir.name, "KRRvKRR"], capture_output=True, text=True)

    def test_the_published_row_reads_as_recorded(self):
        self.assertEqual(self.row["wtm"], {"win": 1817470830, "draw": 1769688566, "loss": 233772446})

    def test_equal_counts_are_the_same(self):
        res = self.check(stat_json(self.row))
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("KRRvKRR: same", res.stdout)

    def test_one_count_off_differs(self):
        answer = stat_json(self.row)
        answer["btm"]["classes"]["draw"] += 1
        res = self.check(answer)
        self.assertEqual(res.returncode, 1, res.stderr)
        self.assertIn("DIFFERS: Black to move draw: ours 1,769,688,567, published 1,769,688,566", res.stdout)

    def test_a_material_without_a_row_is_refused(self):
        res = subprocess.run([sys.executable, SCRIPT, "--feerie", self.fake_feerie({}), "--tables", self.dir.name,
                              "KQvK"], capture_output=True, text=True)
        self.assertEqual(res.returncode, 2)
        self.assertIn("KQvK: no row", res.stderr)


if __name__ == "__main__":
    unittest.main()
