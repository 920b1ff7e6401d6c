"""Shared fixtures: one directory of small orthodox tables, generated once per session.

The module under test is the built one (build/python/feerie*.so), found through PYTHONPATH:
the ctest test `python` sets it; by hand, PYTHONPATH=build/python python3 python/run_tests.py.
"""

import pytest

try:
    import feerie
except ImportError as e:  # a clearer message than a collection error in every file
    raise ImportError(
        "the module feerie is not importable: build it (cmake --build build) and put its "
        "directory on PYTHONPATH (PYTHONPATH=build/python)"
    ) from e


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tables")
    for material in ("KQvK", "KRvK"):
        feerie.generate(directory, material, threads=2)
    return directory


@pytest.fixture
def tb(tables_dir):
    with feerie.open_tablebase(tables_dir) as tablebase:
        yield tablebase
