"""The example session of docs/probing.md ("Python") runs as written."""

import doctest
import pathlib
import re

PROBING_MD = pathlib.Path(__file__).resolve().parents[2] / "docs" / "probing.md"


def python_section_example():
    text = PROBING_MD.read_text()
    section = text[text.index("## Python"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_documented_session_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the session generates into ./tables
    example = python_section_example()
    test = doctest.DocTestParser().get_doctest(example, {}, "docs/probing.md", str(PROBING_MD), 0)
    assert len(test.examples) > 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test)
    assert result.failed == 0, "docs/probing.md, section Python: see the report above"
