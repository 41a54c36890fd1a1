"""The documentation site builds with ``mkdocs build --strict``: a broken link between pages, an
anchor that is not there, a page left out of the nav, or an API reference to an object that does
not exist fails the build (2-10 s)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_docs_build_strict(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml")]
        + ["-d", str(site)],
        cwd=ROOT,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    # the API reference is generated from the docstrings, not left empty
    solver = (site / "api" / "solver" / "index.html").read_text()
    assert "estimate_memory" in solver and "Bytes a solve of" in solver
    # the docstrings' Sphinx roles are links (docs/griffe_roles.py), not ":func:" text
    assert 'href="#fastttt.tables.dense.estimate_memory"' in solver and ":func:" not in solver
    assert "open_table" in (site / "api" / "fastttt" / "index.html").read_text()


def test_every_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    pages = [str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")]
    assert [p for p in pages if f": {p}\n" not in nav] == []
