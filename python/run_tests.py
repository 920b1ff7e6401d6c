"""Runs the pytest suite of the Python module (the ctest test `python`).

Usage: python3 python/run_tests.py [PYTEST ARGUMENTS...], with the built module on
PYTHONPATH (build/python). Without arguments it runs python/tests.

The interpreter is the one the module was built for, which may not be the system's
(pyenv's python3 here). When that interpreter has no pytest of its own, Debian's
python3-pytest is used: it is pure Python, and Debian's python3 is of the same minor
version. A run that collects no test fails, as a failing test does.
"""

import os
import sys

DEBIAN_PACKAGES = "/usr/lib/python3/dist-packages"


def import_pytest():
    try:
        import pytest
    except ImportError:
        # Appended, not prepended: the interpreter's own packages keep precedence.
        sys.path.append(DEBIAN_PACKAGES)
        import pytest
    return pytest


def main():
    pytest = import_pytest()
    args = sys.argv[1:] or [os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests")]
    status = pytest.main(args)  # options in python/pytest.ini
    if status == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("run_tests.py: no test was collected, which counts as a failure", file=sys.stderr)
        return 1
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
