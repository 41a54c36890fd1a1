"""What the README and the documentation pages print runs: their Python examples as doctests,
every command of their ``sh`` blocks in a shell, and the README's test command is what CI runs.

Commands run in one scratch folder shared by every page (``../shared`` beside it is the
project's shared data, as beside a clone), block by block, each block one ``bash -e`` script,
so a block may set a variable (``M="..."``) or write a file that its later lines read. A command
that an earlier page ran in a block that passed is not run again (set-up lines, ``NAME=...``,
always are). A command is not run when it matches a pattern of ``NOT_RUN``, each with its
reason: commands that take minutes, wait for a person, install packages, or need a cluster.
Every pattern must match a printed command, so the list cannot outlive the docs.
"""

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SHELLS = ("sh", "bash", "shell", "console")
# The project's shared data beside the clone (CI), or beside the folder of worktrees
SHARED = next(
    (p for p in (ROOT.parent / "shared", ROOT.parents[1] / "shared") if (p / "data").is_dir()),
    None,
)
BLOCK_TIMEOUT = 300  # seconds; the slowest block that runs takes about 30 s on a loaded machine

NOT_RUN = {
    r"^python3 -m venv ": "sets up a virtual environment: CI runs the test command (.ci/run), "
    "and test_readme_test_command_is_what_ci_runs checks it is the README's",
    r"\bpip install\b": "installs packages (the test extra has them all)",
    r"^(NUMBA_DISABLE_JIT=1 )?\.venv/bin/": "the test suite and the linters: what CI runs",
    r"^mkdocs build\b": "tests/test_docs.py builds the site",
    r"--x human|^fastttt play$": "waits for a person at the keyboard",
    r"^fastttt verify$": "re-solves every board of the known-facts file (57 s at load 6); "
    "tests/test_known_boards.py checks the same facts",
    r"5x6k4g --out c4-5x6": "Connect Four 5x6 out of core: 13 minutes, 465 MiB of disk",
    r"--load c4-5x6": "reads the 5x6 table of the line above",
    r"5x6k4g --wdl --live --out c4-5x6-live": "Connect Four 5x6 live: 140 s at load 2, the "
    "suite's longest step; tests/test_cli_layered.py solves live tables on smaller boards",
    r"6x6k4g --engine layered --wdl --out c4-6x6-wdl": "Connect Four 6x6: 9-11 CPU-hours",
    r"5x4k4 --out t --workers 2": "5x4 k=4 on two Dask workers: 48 s of both cores",
    r"--scheduler tcp://host:8786": "needs a running Dask cluster",
    r"^fastttt solve (7x7k5|4x9k4) --search": "33 to 49 s of search",
    r"^fastttt prove --suite$": "the proof suite: 90 s at load 5",
    r"^find \"\$NUMBA_CACHE_DIR\" -name": "clears a Numba cache kept elsewhere",
}


def _fenced_blocks(text: str, languages: tuple[str, ...]) -> list[str]:
    """The bodies of the fenced code blocks whose info string is one of ``languages``."""
    pattern = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
    return [m.group(2) for m in pattern.finditer(text) if m.group(1) in languages]


def shell_commands(block: str) -> list[str]:
    """The command lines of a shell block: a trailing backslash joins the next line."""
    lines, current = [], ""
    for line in block.splitlines():
        current += line
        if current.endswith("\\"):
            current = current[:-1]
            continue
        if current.strip():
            lines.append(current.strip())
        current = ""
    return lines


def _command_part(line: str) -> str:
    """The line without its trailing comment (the docs put none inside quotes)."""
    return re.split(r"\s+#", line, maxsplit=1)[0].strip()


def not_run_reason(line: str) -> str | None:
    command = _command_part(line)
    for pattern, reason in NOT_RUN.items():
        if re.search(pattern, command):
            return reason
    if "../shared/" in command and SHARED is None and not os.environ.get("CI"):
        return "the shared data is not beside this checkout"  # CI has it: there it must run
    return None


def _page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """The scratch folder the commands run in, with ``../shared`` beside it."""
    base = tmp_path_factory.mktemp("commands")
    if SHARED is not None:
        (base / "shared").symlink_to(SHARED)
    work = base / "work"
    work.mkdir()
    return work


_ALREADY_RUN: set[str] = set()


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_python_examples(page):
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if "```python" in page.read_text():
        assert result.attempted > 0, "a python block with no >>> example"


def run_block(lines: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run command lines as one bash script in ``cwd``, stopping at the first that fails."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    # each line on its own, so that a failure inside `a && b` stops the block too
    checked = [f"{{ {line}\n}} || exit $?" for line in lines]
    script = "set -o pipefail\nexport PS4='+ command: '\nset -x\n" + "\n".join(checked)
    return subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT,
    )


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_commands(page, workdir):
    for block in _fenced_blocks(page.read_text(), SHELLS):
        lines = [
            line
            for line in shell_commands(block)
            if not_run_reason(line) is None
            and (re.match(r"^\w+=\S", line) or _command_part(line) not in _ALREADY_RUN)
        ]
        if not lines:
            continue
        done = run_block(lines, workdir)
        assert done.returncode == 0, f"{_page_id(page)}: a command failed\n{done.stderr[-3000:]}"
        _ALREADY_RUN.update(_command_part(line) for line in lines)


def test_a_failing_command_fails_its_block(tmp_path):
    done = run_block(
        ['M="a b"  # set-up', 'test "$M" = "a b"', "false && true", "touch after"], tmp_path
    )
    assert done.returncode != 0 and not (tmp_path / "after").exists()
    assert run_block(["fastttt solve --moves 55 # comment"], tmp_path).returncode != 0


def test_every_not_run_pattern_matches_a_printed_command():
    commands = [
        _command_part(line)
        for page in PAGES
        for block in _fenced_blocks(page.read_text(), SHELLS)
        for line in shell_commands(block)
    ]
    stale = [p for p in NOT_RUN if not any(re.search(p, c) for c in commands)]
    assert stale == []


def test_shell_blocks_are_marked():
    """A block of commands without a language would not be run: each says ``sh``."""
    for page in PAGES:
        for block in _fenced_blocks(page.read_text(), ("",)):
            assert not block.lstrip().startswith("fastttt "), (_page_id(page), block[:80])


def test_readme_links_resolve():
    readme = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", readme)
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert targets and missing == []


def test_readme_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text()
    ci_command = (ROOT / ".ci/run").read_text().strip().splitlines()[-1]
    assert ci_command.replace(" -q", "") in readme.replace(" -q", "")
