"""Values from the literature (the ``by=search`` lines of fastttt/data/known_boards.txt) against
the portfolio prover (Ultimate: the confined df-pn, which proves wins): every value the code can
reach, within the budget its line allows; the slow ones behind ``-m slow``; the ones beyond reach
are listed, skipped, never dropped."""

from __future__ import annotations

import pytest

from fastttt.errors import MemoryBudgetError
from fastttt.families.mnk import MnkGame
from fastttt.families.ultimate import UltimateGame
from fastttt.games.facts import known_boards, known_values, sources
from fastttt.games.mnk.board import Position
from fastttt.search.portfolio import METHODS, prove
from fastttt.search.ultimate.proof import Prover

WORDS = {1: "first", 0: "draw", -1: "second"}  # the empty board: the first player moves


def _params():
    for known in known_values():
        marks = [pytest.mark.slow] if known.slow else []
        if known.budget:  # the search's own budget, then its line: past the suite's timeout
            marks.append(pytest.mark.timeout(max(900, known.budget + 300)))
        if not known.reach:
            marks.append(
                pytest.mark.skip(reason=f"{known.game}: beyond reach here ({known.source})")
            )
        yield pytest.param(known, id=known.game, marks=marks)


ULTIMATE_NODES = 20_000_000  # a confined question: 1.5 M nodes for the open variant


@pytest.mark.parametrize("known", list(_params()))
def test_literature_value(known):
    if isinstance(known.spec, UltimateGame):  # a win of either side, with confined moves
        prover = Prover(tt_bits=22, confine=True)
        start = known.spec.initial()
        winner = next(
            (w for w in (0, 1) if prover.prove(start, w, ULTIMATE_NODES).status == "proven"), None
        )
        assert winner is not None, f"{known.game}: no confined win ({known.source})"
        assert ("first", "second")[winner] == known.value, known
        return
    try:
        result = prove(
            Position.empty(known.spec),
            budget_seconds=known.budget,
            proof_size=False,
            methods=known.methods,
            dfpn_tt_bits=known.tt_bits,
        )
    except MemoryBudgetError as err:  # a line's own table, too big for this machine
        if known.tt_bits is None:
            raise
        pytest.skip(f"{known.game}: {err}")
    assert result.value is not None, (
        f"{known.game}: {result.verdict()} after {result.seconds:.0f} s ({known.source})"
    )
    assert WORDS[result.value] == known.value, (known, result.method)


def test_every_value_names_a_defined_source():
    defined = sources()
    values = known_values()
    assert {"allis1994", "hsu2020", "charatsidis2017", "tromp"} <= set(defined)
    for known in values:
        assert known.source in defined, known
        assert known.value in ("first", "draw", "second"), known
        assert known.methods is None or set(known.methods) <= set(METHODS), known
        assert known.tt_bits is None or 16 <= known.tt_bits <= 32, known
        assert isinstance(known.spec, (MnkGame, UltimateGame))  # the game loads
    assert any(not v.reach for v in values) and any(v.slow for v in values)


def test_table_facts_are_unchanged_by_the_search_lines():
    games = {board.game for board in known_boards()}
    assert "tictactoe" in games and "7x7k5" not in games
    for board in known_boards():
        assert "by" not in board.facts and "source" not in board.facts
