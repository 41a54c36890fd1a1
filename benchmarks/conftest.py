"""Shared fixtures of the benchmarks: where the Connect Four sets live (never in the repo)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the plain references the tests check kernels with
CONNECT4_DATA = REPO.parent / "shared" / "data" / "connect4"


@pytest.fixture(scope="session")
def connect4_data() -> Path:
    """``<repo>/../shared/data/connect4`` (skips the benchmark when it is missing)."""
    if not (CONNECT4_DATA / "Test_L3_R1").exists():
        pytest.skip(f"Connect Four benchmark sets not found in {CONNECT4_DATA}")
    return CONNECT4_DATA
