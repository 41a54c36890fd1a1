"""Proofs that anyone can check: a position's value proven by df-pn, written as strategies.

A :class:`Proof` holds the game, the root position (its text,
:class:`fastttt.games.mnk.board.Position`), the value for the side to move (1 win, 0 draw, -1 loss)
and the claims that make it: a win is "the mover wins", a loss "the opponent wins", a draw "the
first player does not win" and "the second player does not win". Each :class:`Claim` carries a
strategy for its prover (the attacker when it wins, else the attacker's opponent): one move for
every position, reachable from the root with the prover playing the strategy, where the prover is to
move, but those where the checker picks the move itself (a win at once, or the only block:
:func:`fastttt.reference.proofcheck.forced_move`; not stored since format 3), and only one
position of each set of images under the board's symmetries (since format 4: the checker maps
an image's move back, :func:`fastttt.reference.proofcheck.symmetries`). Strategies are
read off df-pn (:class:`fastttt.search.dfpn.ProofSearch`): at the prover's positions, a move
that wins in two (:func:`_wins_in_two`: the game ends on the prover's next move), else the
move whose child df-pn's table already settles the same claim of with the least work (df-pn's
own proof), else the first whose child df-pn proves it of.

:func:`check` replays every claim with :mod:`fastttt.reference.proofcheck`, which knows only the
plain rules. A proof file (:func:`save`, :func:`load`) is JSON with a SHA-256 of its content.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastttt.errors import (
    InvalidPositionError,
    SearchBudgetError,
    TableFileError,
    require_int,
    require_type,
)
from fastttt.files import check_target, file_head, write_atomic
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec
from fastttt.reference.proofcheck import (
    CheckReport,
    ProofCheckError,
    Rules,
    attacker_is_blocked,
    canonical_text,
    check_claim,
    forced_move,
    lines_through,
    read_position,
    symmetries,
)
from fastttt.search.dfpn import CERTIFICATE_PAIRING_NODES, ProofSearch

FORMAT = "fastttt-proof"
VERSION = 4  # 2: pairing certificates; 3: boards inside (withdrawn); 4: positions named by an image
READS = (1, 2, 3, 4)
DEFAULT_MAX_POSITIONS = 1_000_000  # positions of one strategy at most
PROGRESS_EVERY = 1000  # strategy moves between progress calls
# df-pn's order weight for proofs with strategies: plain df-pn (0) finds smaller proofs, and
# filling the strategies re-asks many of them. 7x7 k=5's draw (2**22 table, load 2,
# 2026-11-29): 6,329 positions in 53 CPU-s plain, 10,599 in 104 s with the default weight 4.
STRATEGY_ORDER_WEIGHT = 0


@dataclass(frozen=True)
class Claim:
    """``attacker`` (0 first player, 1 second) wins (``attacker_wins``) or does not win;
    ``strategy``: position text -> move (a cell, or a 0-based column with gravity) for the
    prover, the attacker when it wins, else its opponent. ``pairings`` (a claim that the
    attacker does not win, free boards): position text -> pairs of empty cells, disjoint,
    every line open to the attacker holding one; the prover answers a move in a pair with the
    other cell, so the strategy stops there. Both hold one position of each set of images
    under the board's symmetries (:func:`fastttt.reference.proofcheck.symmetries`)."""

    attacker: int
    attacker_wins: bool
    strategy: dict[str, int]
    pairings: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)

    @property
    def prover(self) -> int:
        return self.attacker if self.attacker_wins else 1 - self.attacker


@dataclass(frozen=True)
class Proof:
    """The value (1 win, 0 draw, -1 loss for the side to move of ``root``) and its claims."""

    spec: GameSpec
    root: str
    value: int
    claims: tuple[Claim, ...]

    @property
    def positions(self) -> int:
        """Moves held by the strategies, all claims together."""
        return sum(len(c.strategy) for c in self.claims)

    @property
    def pairings(self) -> int:
        """Positions closed by a pairing certificate, all claims together."""
        return sum(len(c.pairings) for c in self.claims)


def _question(search: ProofSearch, pos: Position, attacker: int, budget: list[int]) -> bool:
    """Does ``attacker`` win from ``pos`` (live)? df-pn within what is left of ``budget``."""
    result = search.prove(pos, attacker, max_nodes=budget[0], line=False)
    budget[0] -= result.nodes
    if result.proven is None:
        raise SearchBudgetError(f"the node budget ran out while proving {pos}")
    return result.proven


def _holds(search: ProofSearch, pos: Position, claim: Claim, budget: list[int]) -> bool:
    """Does ``claim`` hold in ``pos`` (finished or live)?"""
    if pos.is_over():
        return (pos.winner() == claim.attacker) == claim.attacker_wins
    return _question(search, pos, claim.attacker, budget) == claim.attacker_wins


def _fill_strategy(
    search: ProofSearch,
    root: Position,
    claim: Claim,
    budget: list[int],
    max_positions: int,
    progress: Callable[[int], None] | None,
) -> None:
    """Give ``claim.strategy`` a move at the prover's positions reachable from ``root``
    (where the claim holds) with the prover following it: one position of each set of images,
    none where the checker picks the move itself, none past positions where the attacker's
    every line is blocked, or a pairing blocks them (``claim.pairings``), when it is claimed
    not to win."""
    rules = _rules(root.spec)
    lines = rules.lines()
    through = lines_through(rules)
    cell_maps = symmetries(rules)
    stack = [root]
    texts: set[str] = set()
    seen: set[str] = set()  # canonical texts
    while stack:
        pos = stack.pop()
        text = str(pos)
        if text in texts or pos.is_over():
            continue
        texts.add(text)
        board, _ = read_position(rules, text)
        key = canonical_text(rules, board, cell_maps)
        if key in seen:  # an image of it is answered: the checker maps that answer back
            continue
        seen.add(key)
        if not claim.attacker_wins:
            if attacker_is_blocked(board, lines, claim.attacker):
                continue
            pairs = search.blocking_pairs(pos, claim.attacker, CERTIFICATE_PAIRING_NODES)
            if pairs is not None:
                claim.pairings[text] = pairs
                continue
        if pos.to_move != claim.prover:
            stack.extend(pos.play(m) for m in pos.legal_moves())
            continue
        picked = forced_move(rules, board, 1 + pos.to_move, through)
        if picked is not None:  # the checker plays it itself: not stored
            stack.append(pos.play(picked))
            continue
        if len(claim.strategy) >= max_positions:
            raise SearchBudgetError(f"the strategy needs more than {max_positions:,} positions")
        children = [(m, pos.play(m)) for m in pos.legal_moves()]
        children.sort(key=lambda mc: _try_order(search, mc[1], claim, lines))
        for move, child in children:
            if _holds(search, child, claim, budget):
                claim.strategy[text] = move
                stack.append(child)
                break
        else:
            raise SearchBudgetError(f"no move of {text} keeps the claim (a search disagreed)")
        if progress is not None and len(claim.strategy) % PROGRESS_EVERY == 0:
            progress(len(claim.strategy))


def _try_order(
    search: ProofSearch, child: Position, claim: Claim, lines: list[tuple[int, ...]]
) -> tuple[bool, bool, int, int, int]:
    """Sort key of the prover's moves, by their ``child``: games that end now first, then
    those the prover wins on its next move whatever the reply (:func:`_wins_in_two`), then
    those whose claim df-pn's table already settles (:func:`_table_rank`), then, for a win,
    the most threats to win next, or for a draw the fewest lines left open to the attacker
    (smaller trees)."""
    threats = _threat_cells(child, claim.prover, lines)
    if claim.attacker_wins:
        heuristic = -len(threats)
    else:
        heuristic = _open_lines(child, claim.prover, lines)
    if child.is_over():
        return (False, False, 0, 0, heuristic)
    wins_in_two = _wins_in_two(child, claim.prover, lines, threats)
    return (True, not wins_in_two, *_table_rank(search, child, claim), heuristic)


def _table_rank(search: ProofSearch, child: Position, claim: Claim) -> tuple[int, int]:
    """(0, work) when df-pn's table already settles ``claim`` of the live ``child``, the least
    work first (df-pn's own proof: the smallest strategy); (1, 0) when it does not."""
    work = search.table_work(child, claim.attacker, claim.attacker_wins)
    return (1, 0) if work is None else (0, work)


def _threat_cells(pos: Position, player: int, lines: list[tuple[int, ...]]) -> set[int]:
    """The empty cells where ``player`` would complete a line (a move away)."""
    own, other = (pos.second, pos.first) if player == 1 else (pos.first, pos.second)
    cells = set()
    for line in lines:
        if any(other >> c & 1 for c in line):
            continue
        empty = [c for c in line if not own >> c & 1]
        if len(empty) == 1:
            cells.add(empty[0])
    return cells


def _wins_in_two(
    pos: Position, player: int, lines: list[tuple[int, ...]], threats: set[int] | None = None
) -> bool:
    """Whether ``player``, having just moved to ``pos``, wins on its next move whatever the
    reply: it could complete a line on two playable cells and its opponent on none (one
    stone blocks one cell; with gravity a playable cell stays playable until taken).
    ``threats``: ``player``'s :func:`_threat_cells` when already known."""
    playable = pos.playable_mask()
    if threats is None:
        threats = _threat_cells(pos, player, lines)
    mine = [c for c in threats if playable >> c & 1]
    theirs = [c for c in _threat_cells(pos, 1 - player, lines) if playable >> c & 1]
    return len(mine) >= 2 and not theirs


def _open_lines(pos: Position, prover: int, lines: list[tuple[int, ...]]) -> int:
    """The lines of ``pos`` that hold no stone of ``prover``."""
    stones = pos.second if prover == 1 else pos.first
    return sum(all(not stones >> c & 1 for c in line) for line in lines)


def prove_with_strategies(
    pos: Position,
    *,
    max_nodes: int | None = None,
    tt_bits: int | None = None,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    progress: Callable[[int], None] | None = None,
) -> Proof:
    """The value of ``pos`` (live, an m,n,k board) for the side to move, proven by df-pn, with
    the strategies that make it checkable. ``max_nodes``: df-pn nodes for everything (None:
    no limit); ``max_positions``: the most moves one strategy may hold; ``progress(moves)``
    is called every :data:`PROGRESS_EVERY` strategy moves (all claims together). Raises
    :class:`SearchBudgetError` when a budget runs out."""
    require_type(pos, Position, "pos")
    if pos.is_over():
        raise InvalidPositionError(f"the game is already over in {pos!r}")
    limit = 1 << 62 if max_nodes is None else require_int(max_nodes, "max_nodes", 1, 1 << 62)
    max_positions = require_int(max_positions, "max_positions", 1, 1 << 40)
    budget = [limit]
    search = ProofSearch(pos.spec, tt_bits=tt_bits, order_weight=STRATEGY_ORDER_WEIGHT)
    mover = pos.to_move
    if _question(search, pos, mover, budget):
        value, claims = 1, [Claim(mover, True, {})]
    elif _question(search, pos, 1 - mover, budget):
        value, claims = -1, [Claim(1 - mover, True, {})]
    else:
        value, claims = 0, [Claim(0, False, {}), Claim(1, False, {})]
    done = 0  # the earlier claims' moves: progress counts all claims together
    for claim in claims:
        shown = None if progress is None else lambda moves, done=done: progress(done + moves)
        _fill_strategy(search, pos, claim, budget, max_positions, shown)
        done += len(claim.strategy)
    return Proof(pos.spec, str(pos), value, tuple(claims))


def _rules(spec: GameSpec) -> Rules:
    return Rules(spec.rows, spec.cols, spec.k, spec.gravity)


def check(proof: Proof) -> list[CheckReport]:
    """Replay every claim of ``proof`` on the plain rules
    (:func:`fastttt.reference.proofcheck.check_claim`) and check that the claims make the value;
    raises :class:`~fastttt.reference.proofcheck.ProofCheckError` otherwise."""
    rules = _rules(proof.spec)
    stones = sum(ch != "." for ch in proof.root.replace("/", ""))
    mover = stones % 2
    wanted = {
        1: {(mover, True)},
        -1: {(1 - mover, True)},
        0: {(0, False), (1, False)},
    }.get(proof.value)
    if wanted is None or {(c.attacker, c.attacker_wins) for c in proof.claims} != wanted:
        raise ProofCheckError(f"the claims do not make the value {proof.value}")
    return [
        check_claim(rules, proof.root, c.attacker, c.attacker_wins, c.strategy, c.pairings)
        for c in proof.claims
    ]


# --- the file ----------------------------------------------------------------------------
def _content(proof: Proof) -> dict[str, Any]:
    spec = proof.spec
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": {"rows": spec.rows, "cols": spec.cols, "k": spec.k, "gravity": spec.gravity},
        "root": proof.root,
        "value": proof.value,
        "claims": [
            {
                "attacker": c.attacker,
                "attacker_wins": c.attacker_wins,
                "strategy": c.strategy,
                "pairings": {text: [list(p) for p in pairs] for text, pairs in c.pairings.items()},
            }
            for c in proof.claims
        ],
    }


def _digest(content: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def is_proof(path: Path) -> bool:
    """Whether ``path`` starts as a proof file does (one this module may replace)."""
    return file_head(path).startswith(b'{"format": "' + FORMAT.encode())


def save(proof: Proof, path: str | os.PathLike, *, force: bool = False) -> Path:
    """Write ``proof`` atomically as JSON with its SHA-256 (a file there that is not a proof
    is refused unless ``force``)."""
    require_type(proof, Proof, "proof")
    target = check_target(path, is_proof, "a fastttt proof", TableFileError, force=force)
    content = _content(proof)
    blob = json.dumps({**content, "sha256": _digest(content)}, sort_keys=False).encode()
    return write_atomic(target, lambda f: f.write(blob), TableFileError)


def load(path: str | os.PathLike) -> Proof:
    """Read a proof written by :func:`save`; refuses (TableFileError) a file that is not one,
    of another version, whose SHA-256 does not match, or that stands on a smaller board inside
    (an argument withdrawn: docs/search.md, "No smaller boards inside")."""
    path = Path(path)
    try:
        data = json.loads(path.read_bytes())
    except OSError as err:
        raise TableFileError(f"{path}: cannot read the proof ({err.strerror})") from None
    except ValueError:
        raise TableFileError(f"{path}: not a fastttt proof (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TableFileError(f"{path}: not a fastttt proof")
    if data.get("version") not in READS:
        raise TableFileError(
            f"{path}: proof format {data.get('version')!r}, this reads {', '.join(map(str, READS))}"
        )
    digest = data.pop("sha256", None)
    if digest != _digest(data):
        raise TableFileError(f"{path}: the proof is damaged (SHA-256 mismatch)")
    if "inside" in data:
        raise TableFileError(
            f"{path}: this proof stands on a smaller board inside the board, an argument "
            "withdrawn (the second player may complete a line outside the smaller board "
            "first): build the proof again"
        )
    try:
        return _from_fields(data)
    except (AttributeError, KeyError, TypeError, ValueError) as err:
        raise TableFileError(f"{path}: the proof's fields are damaged ({err})") from None


def _whole(value: Any, what: str, allowed: Iterable[int] | None = None) -> int:
    """A JSON integer field as written by :func:`save`: not a float, string or boolean."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is an integer, not {value!r}")
    if allowed is not None and value not in allowed:
        raise ValueError(f"{what} is one of {', '.join(map(str, allowed))}, not {value!r}")
    return value


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} is true or false, not {value!r}")
    return value


def _from_fields(data: dict[str, Any]) -> Proof:
    claims = tuple(
        Claim(
            _whole(c["attacker"], "a claim's attacker", (0, 1)),
            _flag(c["attacker_wins"], "a claim's attacker_wins"),
            {str(text): _whole(move, "a strategy's move") for text, move in c["strategy"].items()},
            {
                text: tuple(
                    (_whole(x, "a paired cell"), _whole(y, "a paired cell")) for x, y in pairs
                )
                for text, pairs in c.get("pairings", {}).items()
            },
        )
        for c in data["claims"]
    )
    value = _whole(data["value"], "the value", (1, 0, -1))
    return Proof(GameSpec(**data["game"]), str(data["root"]), value, claims)


__all__ = [
    "Claim",
    "Proof",
    "ProofCheckError",
    "check",
    "load",
    "prove_with_strategies",
    "save",
]
