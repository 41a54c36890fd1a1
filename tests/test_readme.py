"""The README's Python examples run as doctests; its quick-start commands match .ci/run."""

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted > 0 and result.failed == 0


def test_readme_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text()
    ci_command = (ROOT / ".ci/run").read_text().strip().splitlines()[-1]
    assert ci_command.replace(" -q", "") in readme.replace(" -q", "")
