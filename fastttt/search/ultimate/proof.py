"""Proofs for Ultimate tic-tac-toe: proof-number search, proof trees that can be saved, and a
replay checker.

:func:`prove` answers "does ``attacker`` win from ``state``?" by df-pn
(:mod:`fastttt.kernels.ultimate_dfpn`) within a node budget: ``"proven"`` (it wins),
``"disproven"`` (it does not: the other side wins or the game is drawn) or ``"unknown"`` (the
budget ran out; the root's proof and disproof numbers say how far it got). :func:`solve` runs it
for both sides and gives the game value. :func:`proof_tree` turns a result into a
:class:`ProofTree`, a strategy for the side the result favours that :func:`verify` replays
against the rules, and that :meth:`ProofTree.save` / :func:`load` keep in a checksummed file.

Strategy encoding (``ProofTree.strategy``, format 2): one move for each position where the
strategy's side moves and that the strategy reaches from the root (the other side playing every
legal move), keyed by the position's text (:meth:`UltimateState.__str__`: the grid row by row,
the boards' claims, the board the mover must play in, 0-based, or ``*`` where any open board
will do or the game is over, and ``open`` for that variant). A position reached along several
move orders is one entry, so a strategy's size is the number of distinct positions it meets,
not of its tree's branches. Moves are 0..80 (``board * 9 + cell``). ``"proven"`` strategies
are the attacker's (every game they allow ends in an attacker win); ``"disproven"`` ones the
defender's (none does). Format 1 files held the tree in preorder, every transposition written
again; :func:`load` reads them into format 2.
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fastttt.errors import (
    FastTTTError,
    InvalidArgumentError,
    TableFileError,
    require_int,
    require_type,
)
from fastttt.games.ultimate.state import UltimateState
from fastttt.interrupt import new_stop, run
from fastttt.kernels import ultimate as K
from fastttt.kernels import ultimate_dfpn as D
from fastttt.memory import require_memory

FORMAT = "fastttt-ultimate-proof"
FORMAT_VERSION = 2  # 1: a tree in preorder; 2: one move per position (a DAG)
READS = (1, 2)
DEFAULT_NODES = 2_000_000
MAX_NODES = 10**12
ZOBRIST = K.zobrist_keys()


@dataclass(frozen=True)
class ProofResult:
    """The answer to "does ``attacker`` win from ``state``?" and what it cost."""

    state: UltimateState
    attacker: int
    status: str  # "proven", "disproven" or "unknown"
    pn: int  # the root's proof number (0 when proven)
    dn: int  # the root's disproof number (0 when disproven)
    nodes: int
    seconds: float


@dataclass(frozen=True)
class GameValue:
    """Value of a position: ``winner`` 0 (X) or 1 (O), None for a draw or when ``proved`` is
    False (the budget ran out: ``results`` say how far each question got)."""

    winner: int | None
    proved: bool
    results: tuple[ProofResult, ...]

    @property
    def verdict(self) -> str:
        if not self.proved:
            return "unknown within budget"
        return "draw" if self.winner is None else f"{'XO'[self.winner]} wins"

    @property
    def nodes(self) -> int:
        return sum(r.nodes for r in self.results)


class Prover:
    """df-pn with a transposition table of ``2**tt_bits`` entries (25 bytes each), kept
    between questions for the same attacker (a proof tree re-reads it), cleared when the
    attacker changes. ``estimate``: new positions start from each side's distance to three
    boards in a row, and a position where the attacker can no longer make one is disproven
    at once (:mod:`fastttt.kernels.ultimate_dfpn`); False gives plain df-pn's (1, 1).
    ``confine``: the attacker plays only moves that win the game or a board, or that send the
    defender to an open board where it has the most stones
    (:func:`fastttt.kernels.ultimate_dfpn.confine`); a win found is a win of the real game, a
    failure is "unknown"."""

    def __init__(self, tt_bits: int = 22, estimate: bool = True, confine: bool = False):
        self.estimate = require_type(estimate, bool, "estimate")
        self.confine = require_type(confine, bool, "confine")
        size = 1 << require_int(tt_bits, "tt_bits", 4, 32)
        require_memory(25 * size, f"a proof table of 2**{tt_bits} entries (25 bytes each)")
        self.tt_keys = np.zeros(size, dtype=np.uint64)
        self.tt_pn = np.zeros(size, dtype=np.int64)
        self.tt_dn = np.zeros(size, dtype=np.int64)
        self.tt_ply = np.zeros(size, dtype=np.uint8)
        self.ctl = np.zeros(D.NCTL, dtype=np.int64)
        self.stop = new_stop()
        self.attacker = -1  # whose question the table's numbers answer

    def prove(
        self, state: UltimateState, attacker: int | None = None, max_nodes: int = DEFAULT_NODES
    ) -> ProofResult:
        """Does ``attacker`` (default: the side to move) win from ``state``? Within
        ``max_nodes`` nodes; Ctrl-C raises KeyboardInterrupt within milliseconds."""
        if not isinstance(state, UltimateState):
            raise InvalidArgumentError(f"expected an UltimateState, got {state!r}")
        attacker = state.to_move if attacker is None else require_int(attacker, "attacker", 0, 1)
        max_nodes = require_int(max_nodes, "max_nodes", 1, MAX_NODES)
        t0 = time.perf_counter()
        if state.is_over():
            won = state.winner() == attacker
            return ProofResult(
                state,
                attacker,
                "proven" if won else "disproven",
                0 if won else int(D.INF),
                int(D.INF) if won else 0,
                0,
                0.0,
            )
        if attacker != self.attacker:  # the table's numbers answer one side's question
            self.tt_keys[:] = 0
            self.attacker = attacker
        self.ctl[:] = 0
        self.ctl[D.D_LIMIT] = max_nodes
        self.ctl[D.D_ATTACKER] = attacker
        self.ctl[D.D_ESTIMATE] = self.estimate
        self.ctl[D.D_CONFINE] = self.confine
        pn, dn = run(
            D.dfpn_root,
            state.array(),
            self.tt_keys,
            self.tt_pn,
            self.tt_dn,
            self.tt_ply,
            ZOBRIST,
            self.ctl,
            self.stop,
            stop=self.stop,
        )
        status = "proven" if pn == 0 else "disproven" if dn == 0 else "unknown"
        if self.confine and status == "disproven":
            status = "unknown"  # no win within the confined moves, maybe one outside them
        return ProofResult(
            state,
            attacker,
            status,
            int(pn),
            int(dn),
            int(self.ctl[D.D_NODES]),
            time.perf_counter() - t0,
        )

    def stored(self, state: UltimateState) -> tuple[int, int] | None:
        """(pn, dn) of ``state`` in the table, for the attacker of the last question."""
        pn, dn, found = D.tt_lookup(
            self.tt_keys, self.tt_pn, self.tt_dn, K.state_hash(state.array(), ZOBRIST)
        )
        return (int(pn), int(dn)) if found else None


def prove(
    state: UltimateState,
    attacker: int | None = None,
    max_nodes: int = DEFAULT_NODES,
    tt_bits: int = 22,
) -> ProofResult:
    """Does ``attacker`` (default: the side to move) win from ``state``? See :class:`Prover`."""
    return Prover(tt_bits).prove(state, attacker, max_nodes)


def solve(
    state: UltimateState, max_nodes: int = DEFAULT_NODES, tt_bits: int = 22, estimate: bool = True
) -> GameValue:
    """The value of ``state`` by df-pn: first "does the side to move win?", then, when it does
    not, "does the other side win?" (no: a draw); each question gets ``max_nodes``.
    ``estimate``: see :class:`Prover`."""
    prover = Prover(tt_bits, estimate)
    mover = prover.prove(state, None, max_nodes)
    if mover.status == "proven":
        return GameValue(state.to_move, True, (mover,))
    other = prover.prove(state, 1 - state.to_move, max_nodes)
    if other.status == "proven":
        return GameValue(other.attacker, True, (mover, other))
    proved = mover.status == "disproven" and other.status == "disproven"
    return GameValue(None, proved, (mover, other))


# --- proof trees ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ProofTree:
    """A strategy that settles "does ``attacker`` win from ``position``?" (see the module
    docstring for the encoding); ``claim`` is ``"proven"`` or ``"disproven"``."""

    position: str  # UltimateState text
    attacker: int
    claim: str
    strategy: dict[str, int]  # position text -> the strategy's move there

    @property
    def chooser(self) -> int:
        """The side whose moves the strategy gives (:func:`strategy_side`)."""
        return strategy_side(self.attacker, self.claim)

    @property
    def size(self) -> int:
        """Positions where the strategy's side chooses (each one once)."""
        return len(self.strategy)

    def to_json(self) -> dict[str, Any]:
        body = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": "ultimate",
            "position": self.position,
            "attacker": "XO"[self.attacker],
            "claim": self.claim,
            "strategy": self.strategy,
        }
        body["crc32"] = _crc(body)
        return body

    def save(self, path: str | Path, *, force: bool = False) -> Path:
        """Write the strategy as JSON with a CRC-32, atomically (complete or absent); an
        existing file that is not a proof is replaced only with ``force``."""
        from fastttt.files import check_target, write_atomic

        target = check_target(
            path,
            is_proof_file,
            "a fastttt Ultimate proof",
            TableFileError,
            force=force,
            force_hint=" (force=True overwrites)",
        )
        data = json.dumps(self.to_json()).encode() + b"\n"
        return write_atomic(target, lambda f: f.write(data), TableFileError)


def strategy_side(attacker: int, claim: str) -> int:
    """The side whose moves a strategy gives: the attacker for a proof, else the defender."""
    return attacker if claim == "proven" else 1 - attacker


def _crc(body: dict[str, Any]) -> int:
    return zlib.crc32(json.dumps(body, sort_keys=True).encode())


def is_proof_file(path: Path) -> bool:
    """Whether ``path`` starts like a file :meth:`ProofTree.save` wrote."""
    from fastttt.files import file_head

    return FORMAT.encode() in file_head(path, 200)


def load(path: str | Path) -> ProofTree:
    """Read a strategy written by :meth:`ProofTree.save` (format 1's trees are read into
    format 2); TableFileError when it is not one or is damaged. Loading does not check the
    proof: :func:`verify` does."""
    try:
        body = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise TableFileError(f"{path}: not a proof file ({err})") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise TableFileError(f"{path}: not a fastttt Ultimate proof")
    version = body.get("version")
    if type(version) is not int or version not in READS:
        raise TableFileError(f"{path}: proof format {version!r}, this fastttt reads {READS}")
    crc = body.pop("crc32", None)
    if crc != _crc(body):
        raise TableFileError(f"{path}: checksum mismatch (the proof was changed or damaged)")
    position, attacker, claim = body.get("position"), body.get("attacker"), body.get("claim")
    if not isinstance(position, str) or attacker not in ("X", "O"):
        raise TableFileError(f"{path}: malformed proof (position or attacker)")
    if claim not in ("proven", "disproven"):
        raise TableFileError(f"{path}: malformed proof (claim {claim!r})")
    if version == 1:
        moves = body.get("moves")
        if not isinstance(moves, list) or not all(_is_move(m) for m in moves):
            raise TableFileError(f"{path}: malformed proof (moves)")
        try:
            first_moves = _from_preorder(position, "XO".index(attacker), claim, moves)
        except FastTTTError as err:
            raise TableFileError(f"{path}: malformed proof ({err})") from None
        return reached(ProofTree(position, "XO".index(attacker), claim, first_moves))
    strategy = body.get("strategy")
    if not isinstance(strategy, dict) or not all(_is_move(m) for m in strategy.values()):
        raise TableFileError(f"{path}: malformed proof (strategy)")
    return ProofTree(position, "XO".index(attacker), claim, strategy)


def _is_move(m: Any) -> bool:
    return type(m) is int and 0 <= m < 81


def _from_preorder(position: str, attacker: int, claim: str, moves: list[int]) -> dict[str, int]:
    """Format 1's preorder tree as a strategy: a position met twice keeps its first move
    (a tree may hold two; :func:`load` drops what that choice no longer reaches)."""
    chooser = strategy_side(attacker, claim)
    strategy: dict[str, int] = {}
    pending: Iterator[int] = iter(moves)
    stack = [UltimateState.from_text(position)]
    while stack:
        state = stack.pop()
        if state.is_over():
            continue
        if state.to_move == chooser:
            move = next(pending, None)
            if move is None or move not in state.legal_moves():
                raise InvalidArgumentError(f"move {move} does not fit {state}")
            strategy.setdefault(str(state), move)
            stack.append(state.play(move))
        else:
            stack.extend(state.play(m) for m in reversed(state.legal_moves()))
    if next(pending, None) is not None:
        raise InvalidArgumentError("the tree has moves left over after its last leaf")
    return strategy


def proof_tree(
    result: ProofResult, prover: Prover | None = None, max_nodes: int = DEFAULT_NODES
) -> ProofTree:
    """The strategy behind a settled ``result``: read from ``prover``'s table (the one that
    answered; None: a fresh one), sub-positions the table lost proven again within
    ``max_nodes`` each. Each position the strategy reaches is visited once, and a move into
    a position the strategy already holds is preferred, so transpositions are shared."""
    if result.status == "unknown":
        raise InvalidArgumentError("the question was not settled: there is no proof tree")
    prover = prover if prover is not None else Prover()
    want_win = result.status == "proven"
    attacker = result.attacker

    def known(state: UltimateState) -> bool:
        """Whether ``state`` goes the strategy's way by the rules or the table's answer."""
        if state.is_over():
            return (state.winner() == attacker) == want_win
        if not want_win and D.distance(state.array(), attacker) >= D.FAR:
            return True  # the attacker can no longer complete a line of boards
        got = prover.stored(state)
        return got is not None and got[0 if want_win else 1] == 0

    def settled(state: UltimateState) -> bool:
        """:func:`known`, or else proven again."""
        if known(state):
            return True
        again = prover.prove(state, attacker, max_nodes)
        return again.status == ("proven" if want_win else "disproven")

    chooser = strategy_side(attacker, result.status)
    strategy: dict[str, int] = {}
    held: set[UltimateState] = {result.state}  # settled, and part of the strategy
    stack: list[UltimateState] = [result.state]
    while stack:
        state = stack.pop()
        if state.is_over():
            continue
        if state.to_move == chooser:  # a move into the strategy, else one the table settles,
            children = {m: state.play(m) for m in state.legal_moves()}  # else proven again
            move = next((m for m, c in children.items() if c in held), None)
            if move is None:
                move = next((m for m, c in children.items() if known(c)), None)
            if move is None:
                move = next((m for m, c in children.items() if settled(c)), None)
            if move is None:
                raise RuntimeError(f"no settled move in {state}: the search's answer was wrong")
            strategy[str(state)] = move
            news = [children[move]]
        else:
            news = [state.play(m) for m in state.legal_moves()]
            for child in news:
                if child not in held and not settled(child):
                    raise RuntimeError(f"{child} is not settled: the search's answer was wrong")
        news = [c for c in news if c not in held]
        held.update(news)
        stack.extend(reversed(news))
    return ProofTree(str(result.state), attacker, result.status, strategy)


class Rules:
    """What :func:`verify` needs of the rules; :class:`UltimateState` by default, any other
    implementation (the tests' plain reference) to check independently. ``text(state)`` is
    the position's text as the strategy's keys spell it (see the module docstring)."""

    def __init__(
        self,
        initial: Callable[[str], Any],
        legal: Callable[[Any], list[int]],
        play: Callable[[Any, int], Any],
        winner: Callable[[Any], int | None],
        to_move: Callable[[Any], int],
        text: Callable[[Any], str],
    ):
        self.initial, self.legal, self.play, self.winner, self.to_move, self.text = (
            initial,
            legal,
            play,
            winner,
            to_move,
            text,
        )


STATE_RULES = Rules(
    UltimateState.from_text,
    lambda s: s.legal_moves(),
    lambda s, m: s.play(m),
    lambda s: s.winner(),
    lambda s: s.to_move,
    str,
)


@dataclass(frozen=True)
class Replay:
    """What :func:`replay` met: distinct positions, finished games among them, and the
    strategy's positions it used."""

    positions: int
    finished: int
    used: frozenset[str]


REPLAY_PROGRESS_EVERY = 10_000  # positions between progress calls


def replay(
    tree: ProofTree,
    rules: Rules = STATE_RULES,
    progress: Callable[[int], None] | None = None,
    *,
    strict: bool = True,
) -> Replay:
    """Play ``tree``'s strategy against every reply by ``rules``, each position once; raises
    InvalidArgumentError saying where it fails (no move, an illegal one, a game ending the
    other way), or with ``strict`` False ends the branch there and checks nothing. Entries
    it never reaches are not checked (:func:`verify` refuses them). ``progress(positions)``
    every :data:`REPLAY_PROGRESS_EVERY` positions met."""
    want_win = tree.claim == "proven"
    seen: set[str] = set()
    used: set[str] = set()
    finished = 0
    stack = [rules.initial(tree.position)]
    while stack:
        state = stack.pop()
        text = rules.text(state)
        if text in seen:
            continue
        seen.add(text)
        if progress is not None and len(seen) % REPLAY_PROGRESS_EVERY == 0:
            progress(len(seen))
        legal = rules.legal(state)
        if not legal:
            if strict and (rules.winner(state) == tree.attacker) != want_win:
                raise InvalidArgumentError(f"a game the strategy allows ends the other way: {text}")
            finished += 1
        elif rules.to_move(state) == tree.chooser:
            move = tree.strategy.get(text)
            if move is None or move not in legal:
                if not strict:
                    continue
                if move is None:
                    raise InvalidArgumentError(f"the strategy has no move for {text}")
                raise InvalidArgumentError(f"move {move} is not legal in {text}")
            used.add(text)
            stack.append(rules.play(state, move))
        else:
            stack.extend(rules.play(state, m) for m in reversed(legal))
    return Replay(len(seen), finished, frozenset(used))


def reached(tree: ProofTree) -> ProofTree:
    """``tree`` with only the entries its strategy reaches from the root against every reply
    (by :class:`UltimateState`'s rules; a missing or illegal move ends its branch). Checks
    nothing: :func:`verify` does."""
    used = replay(tree, strict=False).used
    kept = {text: move for text, move in tree.strategy.items() if text in used}
    return ProofTree(tree.position, tree.attacker, tree.claim, kept)


def verify(
    tree: ProofTree,
    rules: Rules = STATE_RULES,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Check ``tree`` by :func:`replay` against ``rules`` (``progress`` as there); returns the
    number of distinct finished games the strategy allows, or raises InvalidArgumentError
    saying where it fails (also when it holds positions the strategy never reaches)."""
    met = replay(tree, rules, progress)
    unused = len(tree.strategy) - len(met.used)
    if unused:
        raise InvalidArgumentError(
            f"the strategy holds {unused:,} positions it never reaches (of {tree.size:,})"
        )
    return met.finished


# --- a fixed suite: how far from the end proofs reach --------------------------------------

SUITE_PLIES = (60, 50, 40, 30, 20)
SUITE_PER_PLY = 4
SUITE_SEED = 2020


def suite_positions(
    open_won_boards: bool = False,
    plies: tuple[int, ...] = SUITE_PLIES,
    per_ply: int = SUITE_PER_PLY,
    seed: int = SUITE_SEED,
) -> list[UltimateState]:
    """``per_ply`` live positions after each number of ``plies`` of random play, the same on
    every machine (``random.Random(f"{seed}/{ply}/{i}")``, redrawn when the game ended)."""
    import random

    out = []
    for ply in plies:
        made = tries = 0
        while made < per_ply:
            rng = random.Random(f"{seed}/{ply}/{tries}")
            tries += 1
            state = UltimateState(open_won_boards)
            while state.ply < ply and not state.is_over():
                state = state.play(rng.choice(state.legal_moves()))
            if not state.is_over():
                out.append(state)
                made += 1
    return out


def run_suite(
    max_nodes: int,
    open_won_boards: bool = False,
    tt_bits: int = 22,
    progress: Callable[[int, GameValue], None] | None = None,
) -> dict[str, Any]:
    """Solve every :func:`suite_positions` position within ``max_nodes`` a question; returns
    rows (ply, position, verdict, nodes, seconds) and the totals. The node total is the suite's
    signature: it changes only when the search does."""
    rows = []
    for i, state in enumerate(suite_positions(open_won_boards)):
        value = solve(state, max_nodes, tt_bits)
        rows.append(
            {
                "ply": state.ply,
                "position": str(state),
                "verdict": value.verdict,
                "nodes": value.nodes,
                "seconds": round(sum(r.seconds for r in value.results), 4),
            }
        )
        if progress is not None:
            progress(i, value)
    return {
        "max_nodes": max_nodes,
        "open_won_boards": open_won_boards,
        "positions": rows,
        "nodes": sum(r["nodes"] for r in rows),
        "proved": sum(r["verdict"] != "unknown within budget" for r in rows),
    }
