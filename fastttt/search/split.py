"""The root split of a proof: one df-pn question a root move, on worker processes or Dask tasks,
each with a table of its own, so that a proof uses every core.

"Does ``attacker`` win from ``pos``?" with the mover M to move: when the attacker is M, it wins
when it wins after one of M's moves (the first move proven ends the split); when it is M's
opponent, it wins when it wins after every move of M (the first move disproven ends it). Moves
that a symmetry of ``pos`` maps onto each other are asked once (:func:`root_moves`); a move
that completes M's line wins for M at once, one that fills the board is a draw. The children
are searched apart, so transpositions between them are searched twice: the split pays when
the root's moves are many and their proofs long. One proof can first answer many moves: that
M's opponent reaches its goal if M passed, read with its relevance zone (``pass_nodes``;
:meth:`fastttt.search.dfpn.ProofSearch.pass_zone`): a move of M off the zone fails to the same
proof.

Answers go to a checkpoint file (JSON, written atomically) as they come, both questions' in one
file: a split given the same file again asks only the moves it lacks (same game and position,
else :class:`~fastttt.errors.TableFileError`).
"""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import as_completed, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from fastttt.errors import InvalidArgumentError, TableFileError, require_int, require_type
from fastttt.files import write_atomic
from fastttt.games.mnk.board import Position, symmetry_maps
from fastttt.games.mnk.spec import GameSpec, game_fields
from fastttt.memory import require_memory
from fastttt.processes import SPAWN, process_pool

_QUESTION_KEYS = ("game", "position", "narrowing")  # a checkpoint's answers are to these
Answer = bool | None  # proven (the attacker wins), disproven, unknown within the budget
SAVE_SECONDS = 300.0  # Ctrl-C waits this long for the running tasks to stop and save
_stop_asked = None  # in a worker process: the split's stop event (_start_worker)


@dataclass(frozen=True)
class SplitAnswer:
    """``proven``: the attacker wins (True), does not (False), unknown (None); ``answers``:
    each root move asked (one per symmetry class) with "the attacker wins after it";
    ``nodes``: df-pn positions expanded by every task of this call (and by the pass's proof);
    ``seconds``: wall time; ``pass_zone``: the zone of the proof after the mover's pass,
    when one was asked and read (the moves off it answered without a task)."""

    proven: Answer
    answers: dict[int, Answer]
    nodes: int
    seconds: float
    pass_zone: frozenset[int] | None = None


def root_moves(pos: Position) -> list[int]:
    """The legal moves of ``pos``, one for each class of moves that a symmetry of ``pos``
    (one that maps its stones onto themselves) maps onto each other: the smallest of each."""
    spec = pos.spec
    maps = symmetry_maps(spec.rows, spec.cols, spec.gravity)
    fixing = [m for m in maps if _image(pos.first, m) == pos.first]
    fixing = [m for m in fixing if _image(pos.second, m) == pos.second]
    moves, seen = [], set()
    for move in pos.legal_moves():
        if move in seen:
            continue
        moves.append(move)
        cell = pos.move_cell(move)
        for m in fixing:
            seen.add(_move_of(pos, m[cell]))
    return moves


def _image(stones: int, cell_map: list[int]) -> int:
    out = 0
    for cell, image in enumerate(cell_map):
        if stones >> cell & 1:
            out |= 1 << image
    return out


def _move_of(pos: Position, cell: int) -> int:
    return cell % pos.spec.cols if pos.spec.gravity else cell


def ask_split(
    pos: Position,
    attacker: int,
    *,
    workers: int = 2,
    scheduler: str | None = None,
    seconds: float | None = None,
    max_nodes: int | None = None,
    checkpoint: str | Path | None = None,
    tt_bits: int | None = None,
    zone_nodes: int = 0,
    threat_nodes: int = 0,
    attacker_reach: int = 0,
    dependent_threats: bool = False,
    threat_offence: int = 0,
    sibling_zone_work: int = 0,
    threat_probe_search: str | None = None,
    zone_probe_search: str | None = None,
    only: list[int] | None = None,
    pass_nodes: int = 0,
    snapshots: str | Path | None = None,
    progress: Callable[[int, Answer, int], None] | None = None,
) -> SplitAnswer:
    """Does ``attacker`` (0 first player, 1 second) win from the live ``pos``? One df-pn
    question a root move (:func:`root_moves`), on ``workers`` processes or as tasks on the Dask
    ``scheduler``, each within ``seconds`` of wall time and ``max_nodes`` positions (None: no
    limit); ``checkpoint``: a
    JSON file of the answers so far (read, then rewritten after each answer); ``tt_bits``: each
    task's df-pn table (default :data:`fastttt.search.dfpn.DEFAULT_TT_BITS`);
    ``zone_nodes``, ``threat_nodes``, ``dependent_threats``, ``threat_offence``,
    ``sibling_zone_work``, ``threat_probe_search``, ``zone_probe_search`` (None: the
    default), ``attacker_reach``: df-pn's narrowing, as in
    :class:`~fastttt.search.dfpn.ProofSearch` and its ``prove`` (with a reach a task's
    disproof is unknown; free boards only); ``only``: ask these root moves
    alone (``answers`` holds them; the root's answer counts the checkpoint's answers for the
    others too);
    ``pass_nodes`` (free boards; 0: off): first, in this process, prove within that many
    nodes the goal of the mover's opponent if the mover passed (the attacker wins, or when
    the attacker moves, it does not), and answer the moves off that proof's zone
    (:meth:`~fastttt.search.dfpn.ProofSearch.pass_zone`: they fail to the same proof)
    without a task; ``snapshots``: an existing folder (one every worker sees) where a task
    left unknown saves its searcher (:mod:`fastttt.search.dfpn_snapshot`) as
    ``attackerA-moveM.dfpn``, and where the task of the same question in a later split goes on
    from it instead of starting again (a settled task removes its file, and a task stopped by
    Ctrl-C saves one: on worker processes Ctrl-C is the caller's, which halts the running tasks
    and waits up to :data:`SAVE_SECONDS` for them to save; ``nodes`` count each call's own);
    ``progress(move, answer, nodes)`` after each answer."""
    if pos.is_over():
        raise InvalidArgumentError(f"the game is already over in {pos}")
    attacker = require_int(attacker, "attacker", 0, 1)
    workers = require_int(workers, "workers", 1, 1024)
    t0 = time.perf_counter()
    zone_nodes = require_int(zone_nodes, "zone_nodes", 0, 1 << 30)
    narrowing: dict[str, int | str] = {
        "zone_nodes": zone_nodes,
        "threat_nodes": require_int(threat_nodes, "threat_nodes", 0, 1 << 30),
        "attacker_reach": require_int(attacker_reach, "attacker_reach", 0, 64),
    }
    if require_type(dependent_threats, bool, "dependent_threats"):
        narrowing["dependent_threats"] = 1  # absent when off: earlier checkpoints still match
    from fastttt.search.dfpn import DEFAULT_PROBE_SEARCH, THREAT_OFFENCE_MAX, probe_search_code

    if require_int(threat_offence, "threat_offence", 0, THREAT_OFFENCE_MAX):
        narrowing["threat_offence"] = threat_offence  # likewise
    if require_int(sibling_zone_work, "sibling_zone_work", 0, 1 << 40):
        narrowing["sibling_zone_work"] = sibling_zone_work  # likewise
    for name, kind in (
        ("threat_probe_search", threat_probe_search),
        ("zone_probe_search", zone_probe_search),
    ):
        if kind is None:
            kind = DEFAULT_PROBE_SEARCH
        probe_search_code(kind, name)
        if kind != DEFAULT_PROBE_SEARCH:
            narrowing[name] = kind  # likewise
    if pos.spec.gravity and any(narrowing.values()):
        raise InvalidArgumentError(
            "zones, threat probes (however they search), their threat order and a reach are for"
            " free boards"
        )
    question = {"game": game_fields(pos.spec), "position": str(pos)}
    if any(narrowing.values()):  # answers of another search: a checkpoint of its own
        question["narrowing"] = narrowing
    saved = _read_checkpoint(checkpoint, question)
    answers = saved.setdefault(str(attacker), {})
    every = root_moves(pos)
    moves = every
    if only is not None:
        wanted = set(only)
        if not wanted <= set(every):
            raise InvalidArgumentError(
                f"not root moves of the position (legal, one a symmetry class): "
                f"{sorted(wanted - set(every))}"
            )
        moves = [m for m in every if m in wanted]
    any_move = attacker == pos.to_move  # an OR over the moves, else an AND
    pass_nodes = require_int(pass_nodes, "pass_nodes", 0, 1 << 62)
    if pass_nodes and pos.spec.gravity:
        raise InvalidArgumentError("a pass zone needs a free board")
    nodes = 0
    todo = []
    for move in moves:
        if move in answers:
            continue
        child = pos.play(move)
        if child.winner() is not None:
            answers[move] = any_move  # the mover completed a line
        elif child.is_full():
            answers[move] = False  # a draw: nobody wins
        else:
            todo.append(move)
    if todo and scheduler is None and _decided(answers, every, any_move) is None:
        _require_task_memory(pos.spec.cells, tt_bits, zone_nodes, workers, len(todo))
    if snapshots is not None:
        snapshots = _snapshot_folder(snapshots, pos.spec.cells, tt_bits, zone_nodes, workers)
    zone = None
    if pass_nodes and todo:
        zone, spent = _pass_zone(pos, attacker, pass_nodes, tt_bits, narrowing, seconds)
        nodes += spent
        off_zone = [] if zone is None else [m for m in todo if pos.move_cell(m) not in zone]
        for move in off_zone:
            answers[move] = not any_move  # the mover's move fails
            if progress is not None:
                progress(move, answers[move], 0)
        todo = [m for m in todo if m not in answers]
    _write_checkpoint(checkpoint, question, saved)
    if _decided(answers, every, any_move) is None and todo:
        game = game_fields(pos.spec)
        tasks = [
            (game, str(pos), m, attacker, seconds, max_nodes, tt_bits, narrowing, snapshots)
            for m in todo
        ]
        for move, answer, spent in _run(tasks, workers, scheduler):
            answers[move] = answer
            nodes += spent
            if answer is not None:
                _write_checkpoint(checkpoint, question, saved)
            if progress is not None:
                progress(move, answer, spent)
            if answer is any_move:  # one move decides: the others need no answer
                break
    decided = _decided(answers, every, any_move)
    ordered = {m: answers.get(m) for m in moves}
    return SplitAnswer(decided, ordered, nodes, time.perf_counter() - t0, zone)


def _require_task_memory(cells: int, tt_bits, zone_nodes: int, workers: int, tasks: int) -> None:
    """Refuse with the estimate when the tables of the tasks that may run at once, each in a
    process of its own (one in this process with a single worker), do not fit in memory
    (counted before a pass zone may answer some moves without a task)."""
    from fastttt.search.dfpn import DEFAULT_TT_BITS, memory_advice, memory_needed, memory_words

    bits = DEFAULT_TT_BITS if tt_bits is None else require_int(tt_bits, "tt_bits", 4, 32)
    tables = min(workers, tasks)
    words = memory_words(bits, tables, tables if zone_nodes else 0)
    require_memory(
        tables * memory_needed(cells, bits, zone_nodes), words, memory_advice(tables > 1)
    )


def _searcher(spec: GameSpec, tt_bits, narrowing: dict, zones: bool):
    """A fresh :class:`~fastttt.search.dfpn.ProofSearch` with a split's ``narrowing`` (its
    relevance zones only with ``zones``; the reach is ``prove``'s)."""
    from fastttt.search.dfpn import DEFAULT_PROBE_SEARCH, ProofSearch

    return ProofSearch(
        spec,
        tt_bits=tt_bits,
        zone_nodes=narrowing["zone_nodes"] if zones else 0,
        threat_nodes=narrowing["threat_nodes"],
        dependent_threats="dependent_threats" in narrowing,
        threat_offence=narrowing.get("threat_offence", 0),
        sibling_zone_work=narrowing.get("sibling_zone_work", 0) if zones else 0,
        threat_probe_search=narrowing.get("threat_probe_search", DEFAULT_PROBE_SEARCH),
        zone_probe_search=narrowing.get("zone_probe_search", DEFAULT_PROBE_SEARCH),
    )


def _pass_zone(
    pos: Position, attacker: int, max_nodes: int, tt_bits, narrowing: dict, seconds
) -> tuple[frozenset[int] | None, int]:
    """The zone of the proof after the mover's pass (None: none read), and the nodes spent;
    the reach narrows only a proof of the attacker's win."""
    search = _searcher(pos.spec, tt_bits, narrowing, zones=False)
    r = search.pass_zone(
        pos,
        attacker,
        max_nodes=max_nodes,
        seconds=seconds,
        attacker_reach=narrowing["attacker_reach"] if pos.to_move != attacker else 0,
    )
    return r.zone, r.nodes


def _decided(answers: dict[int, Answer], moves: list[int], any_move: bool) -> Answer:
    """The root's answer from its moves' answers: an OR when ``any_move``, else an AND."""
    found = [answers.get(m) for m in moves]
    if any_move:
        return True if True in found else (False if all(a is False for a in found) else None)
    return False if False in found else (True if all(a is True for a in found) else None)


def _snapshot_folder(folder: str | Path, cells: int, tt_bits, zone_nodes: int, workers: int):
    """``folder`` as a Path, after refusing one that is not a folder, or a disk without room
    for the snapshots that ``workers`` tasks may write at once."""
    from fastttt.search.dfpn import DEFAULT_TT_BITS, memory_needed
    from fastttt.search.dfpn_snapshot import require_room

    folder = Path(folder)
    if not folder.is_dir():
        raise InvalidArgumentError(f"snapshots: {folder} is not a folder")
    bits = DEFAULT_TT_BITS if tt_bits is None else tt_bits
    require_room(folder, memory_needed(cells, bits, zone_nodes), workers)
    return folder


def _ask(
    game: dict,
    text: str,
    move: int,
    attacker: int,
    seconds,
    max_nodes,
    tt_bits,
    narrowing,
    snapshots: Path | None = None,
) -> tuple:
    """One task: does ``attacker`` win after ``move`` in the position ``text``? (Going on from
    its snapshot in ``snapshots``, and leaving one there when unknown.)"""
    if _stop_asked is not None and _stop_asked.is_set():
        return move, None, 0  # queued before Ctrl-C: not started
    spec = GameSpec(**game)
    child = Position.from_text(spec, text).play(move)
    search = _searcher(spec, tt_bits, narrowing, zones=True)
    task = {
        "position": text,
        "move": move,
        "attacker": attacker,
        "reach": narrowing["attacker_reach"],
    }
    snapshot = None if snapshots is None else snapshots / f"attacker{attacker}-move{move}.dfpn"
    if snapshot is not None and snapshot.exists():
        from fastttt.search.dfpn_snapshot import load_snapshot, read_snapshot_header

        info = read_snapshot_header(snapshot)["info"]
        if info != task:
            raise TableFileError(f"{snapshot}: a snapshot of the task {info}, this one is {task}")
        load_snapshot(search, snapshot)
    try:
        with _halted_when_asked(search):
            r = search.prove(
                child,
                attacker,
                seconds=seconds,
                max_nodes=max_nodes,
                line=False,
                attacker_reach=narrowing["attacker_reach"],
            )
    except KeyboardInterrupt:  # the table stays valid when Ctrl-C stops the kernel
        if snapshot is not None:
            _save_task(search, snapshot, task)
        raise
    if snapshot is not None:
        if r.proven is None:
            _save_task(search, snapshot, task)
        else:
            snapshot.unlink(missing_ok=True)
    return move, r.proven, r.nodes


def _start_worker(stop) -> None:
    """A worker process's setup: Ctrl-C is its caller's alone, which asks the running tasks
    to stop through the event ``stop`` (so that each saves its snapshot first)."""
    global _stop_asked
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _stop_asked = stop


@contextmanager
def _halted_when_asked(search) -> Iterator[None]:
    """Halt ``search`` (its :meth:`~fastttt.search.dfpn.ProofSearch.prove` returns unknown)
    once the split's stop event is set, while in the block; nothing outside a worker."""
    stop = _stop_asked
    if stop is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.1):
            if stop.is_set():
                search.halt()  # again at each tick: a prove that starts later clears it

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


def _save_task(search, snapshot: Path, task: dict) -> None:
    from fastttt.search.dfpn_snapshot import save_snapshot

    save_snapshot(search, snapshot, info=task)


def _run(tasks: list[tuple], workers: int, scheduler: str | None) -> Iterator[tuple]:
    """The tasks' answers as they come; leaving early stops the tasks still running."""
    if scheduler is not None:
        from fastttt.tables.distributed import connect, require_distributed

        distributed = require_distributed()
        with connect(scheduler) as client:
            futures = [client.submit(_ask, *task, pure=False) for task in tasks]
            try:
                for future in distributed.as_completed(futures):
                    yield future.result()
            finally:
                client.cancel(futures)
        return
    if workers == 1:
        for task in tasks:
            yield _ask(*task)
        return
    stop = SPAWN.Event()
    with process_pool(min(workers, len(tasks)), _start_worker, (stop,)) as pool:
        pending = [pool.submit(_ask, *task) for task in tasks]
        try:
            for future in as_completed(pending):
                yield future.result()
        except KeyboardInterrupt:  # the running tasks stop, save, and return unknown
            stop.set()
            for future in pending:
                future.cancel()
            wait(pending, timeout=SAVE_SECONDS)
            raise


def _read_checkpoint(path: str | Path | None, question: dict) -> dict[str, dict[int, Answer]]:
    """Each attacker's answers so far (``{"0": {move: answer}, "1": ...}``) from ``path``."""
    if path is None or not Path(path).exists():
        return {}
    try:
        saved = json.loads(Path(path).read_text())
        if saved.get("format") != "fastttt-split":
            raise ValueError
        found = {k: saved.get(k) for k in _QUESTION_KEYS}
        answers: dict[str, dict[int, Answer]] = {
            side: {int(m): bool(a) for m, a in moves.items()}
            for side, moves in saved["answers"].items()
            if side in ("0", "1")
        }
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        raise TableFileError(f"{path}: not a split checkpoint (or a damaged one)") from None
    asked = {k: question.get(k) for k in _QUESTION_KEYS}
    if found != asked:
        narrowing = ""
        if found["narrowing"] != asked["narrowing"]:
            narrowing = (
                f", df-pn narrowed by {found['narrowing'] or 'nothing'}"
                f" where this one is by {asked['narrowing'] or 'nothing'}"
            )
        raise TableFileError(
            f"{path}: the checkpoint of another split "
            f"({found['game']}, {found['position']!r}{narrowing})"
        )
    return answers


def _write_checkpoint(path: str | Path | None, question: dict, saved: dict) -> None:
    if path is None:
        return
    known = {
        side: {str(m): a for m, a in moves.items() if a is not None}
        for side, moves in saved.items()
    }
    body = json.dumps(question | {"format": "fastttt-split", "answers": known}, indent=1)
    write_atomic(Path(path), lambda f: f.write(body.encode()), TableFileError)
