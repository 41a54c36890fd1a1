"""Per-layer CPU rates of the layered solver, measured again on a finished solve, and the
Connect Four 7x6 projection made from them (issue 22).

For a sample of chunks of every layer of a finished table folder (``fastttt solve ... --out
DIR``), both sweeps run again on one thread, exactly as the solve ran them (``ChunkWork``,
windowed neighbour chunks), and their output is compared with the folder:

- the reach sweep of a chunk of layer n reads the reach bytes of layer n - 1, and the
  backward sweep reads the values of layer n + 1. The reach layers are deleted once a solve is
  done, so they are made again from the values: a slot is reachable when its value is not 0,
  and open unless the last mover has a line or the board is full;
- the recomputed reach bytes must equal those made from the chunk's own values, and the
  recomputed values the stored ones, byte for byte. So the run is also a spot check of the
  table (each layer against its neighbours' values).

The CPU time of each sweep (``time.process_time``, the neighbour chunks read beforehand) gives
nanoseconds a slot per layer. A fit over the sampled chunks, ``a + b * r`` for the forward
sweep (it visits every slot) and ``c * r`` for the backward one (it works on open positions
only), r the chunk's reachable positions a slot, carries them to another board's layers:
``--project GAME`` takes its slots per layer from its index and its positions per ply from the
known counts file (Connect Four 7x6: Tromp's counts; with the mirror a slot holds about half a
ply's positions).

A live folder (``solve --live``) has no forward sweep: its one sweep is timed and checked the
same way. It visits the live slots (no line: solved) and, of the others, only the first of
each run of colourings that keep a line (:func:`fastttt.kernels.layered.skip_dead_run`); the rest
of a run costs nothing. So it costs ``ns = d * (dead + live) + c * live`` (visits a slot;
d timed on the loop alone, :func:`fastttt.kernels.layered.live_visits`, c fitted), and the
projection counts both kinds of visit on sampled ranges of each layer of the other board.

    python benchmarks/layer_rates.py DIR [--chunks 3] [--project connect4] [--seed 22]

Say the machine's load (printed before and after) with the figures; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import time

import numpy as np
from numba import njit

from fastttt.games.facts import known_counts
from fastttt.games.mnk.spec import as_spec
from fastttt.kernels import layered as kern
from fastttt.kernels.dense import NONTERMINAL
from fastttt.kernels.layered import has_line
from fastttt.tables.index import LayerIndex
from fastttt.tables.layer_store import unpack_wdl
from fastttt.tables.layered import ChunkWork, sampled_visits
from fastttt.tables.probe import open_layered


@njit(cache=True)
def _open_slots(line_shift, line_start, k, lasts, out):
    """``out[i] = 1`` when the last mover has no line in ``lasts[i]``."""
    for i in range(lasts.shape[0]):
        out[i] = 0 if has_line(line_shift, line_start, k, lasts[i]) else 1


class ReachFromValues:
    """A finished store whose reach layers are made again from its values (see the module);
    what the sweeps write is kept in ``written`` instead of the folder."""

    def __init__(self, store, index: LayerIndex):
        self.store, self.index = store, index
        self.written: dict[tuple[str, int, int], np.ndarray] = {}
        self._reach: dict[tuple[int, int], np.ndarray] = {}

    def __getattr__(self, name):
        return getattr(self.store, name)

    def values(self, n: int, chunk: int) -> np.ndarray:
        """The chunk's value bytes, v (0: not reachable) of each slot when packed."""
        data = self.store.read_chunk("value", n, chunk)
        if not self.store.is_packed("value"):
            return data
        start, stop = self.store.chunk_bounds(n, chunk)
        return unpack_wdl(data, stop - start)

    def reach(self, n: int, chunk: int) -> np.ndarray:
        if (n, chunk) in self._reach:
            return self._reach[(n, chunk)]
        values = self.values(n, chunk)
        if self.store.is_packed("value"):
            out = values.copy()  # terminal: its value, depth 0
            start, _ = self.store.chunk_bounds(n, chunk)
            seen = np.flatnonzero(values)
            if n < self.index.spec.cells and seen.size:
                firsts, seconds = self.index.unrank_many(n, seen + start)
                lasts = firsts if n % 2 == 1 else seconds
                geo = self.index.geometry
                is_open = np.empty(seen.size, dtype=np.uint8)
                _open_slots(geo.line_shift, geo.line_start, geo.k, lasts, is_open)
                out[seen[is_open == 1]] = NONTERMINAL
        else:
            out = np.where(values >> 2 == 0, values, NONTERMINAL).astype(np.uint8)
        if len(self._reach) > 64:
            self._reach.clear()
        self._reach[(n, chunk)] = out
        return out

    def read_chunk(self, kind: str, n: int, chunk: int) -> np.ndarray:
        return self.reach(n, chunk) if kind == "reach" else self.store.read_chunk(kind, n, chunk)

    def array_size(self, kind: str, n: int) -> int:
        return (
            self.store.manifest["layer_sizes"][n]
            if kind == "reach"
            else self.store.array_size(kind, n)
        )

    def array_chunk(self, kind: str) -> int:
        return self.store.manifest["chunk"] if kind == "reach" else self.store.array_chunk(kind)

    def byte_bounds(self, kind: str, n: int, chunk: int) -> tuple[int, int]:
        if kind == "reach":
            return self.store.chunk_bounds(n, chunk)
        return self.store.byte_bounds(kind, n, chunk)

    def is_packed(self, kind: str) -> bool:
        return kind != "reach" and self.store.is_packed(kind)

    def write_chunk(self, kind: str, n: int, chunk: int, data: np.ndarray) -> None:
        self.written[(kind, n, chunk)] = data


def measure(path: str, chunks: int, seed: int) -> tuple[list[dict], list[tuple], bool]:
    """One row a layer (slots, sampled slots, reachable fraction, ns a slot of each sweep)
    and one point a sampled chunk: (slots, reachable fraction, forward ns, backward ns)."""
    solution = open_layered(path)
    index, store = solution.index, solution.store
    live = store.manifest["positions"] == "live"
    proxy = ReachFromValues(store, index)
    work = ChunkWork(proxy, index, parallel=False, whole_layers=False, spare_bytes=256 << 20)
    rng = np.random.default_rng(seed)
    sizes = store.manifest["layer_sizes"]
    rows, points = [], []
    for n in range(1, index.spec.cells):
        count = store.chunk_count(n)
        picked = np.sort(rng.choice(count, min(chunks, count), replace=False))
        timed = []  # a chunk: slots, reachable positions, forward and backward CPU seconds
        for c in map(int, picked):
            start, stop = store.chunk_bounds(n, c)
            forward = 0.0
            if live:  # no forward sweep: r is the chunk's live positions
                own = proxy.values(n, c)
            else:
                own = proxy.reach(n, c)
                work._neighbour("reach", n - 1, n, start, stop)
                t = time.process_time()
                work.forward(n, c)
                forward = time.process_time() - t
                if not np.array_equal(proxy.written[("reach", n, c)], own):
                    raise SystemExit(f"layer {n} chunk {c}: the reach sweep differs from the table")
            work._neighbour("value", n + 1, n, start, stop)
            t = time.process_time()
            work.backward(n, c)
            backward = time.process_time() - t
            if not np.array_equal(proxy.written[("value", n, c)], store.read_chunk("value", n, c)):
                raise SystemExit(f"layer {n} chunk {c}: the value sweep differs from the table")
            proxy.written.clear()
            dead, walk = 0, 0.0
            if live:
                t = time.process_time()
                dead = kern.live_visits(index.geometry, index.layer(n), start, stop)[0]
                walk = time.process_time() - t
            timed.append((stop - start, int(np.count_nonzero(own)), forward, backward, dead, walk))
        points += [
            (z, seen / z, f / z * 1e9, b / z * 1e9, d / z, w / z * 1e9)
            for z, seen, f, b, d, w in timed
        ]
        slots, seen, forward, backward, *_ = (sum(column) for column in zip(*timed, strict=True))
        rows.append(
            {
                "n": n,
                "slots": sizes[n],
                "sampled": slots,
                "reachable": seen / slots,
                "forward_ns": forward / slots * 1e9,
                "backward_ns": backward / slots * 1e9,
            }
        )
        print(
            f"{n:3d} {sizes[n]:16,d} {slots:11,d} {seen / slots:9.3f} "
            f"{rows[-1]['forward_ns']:8.1f} {rows[-1]['backward_ns']:8.1f}",
            flush=True,
        )
    return rows, points, live


FIT_MIN_SLOTS = 1 << 16  # smaller chunks (the first layers) time the calls, not the slots


def fit(points: list[tuple]) -> tuple[float, float, float]:
    """Least squares over the sampled chunks: forward ``ns = a + b * r``, backward
    ``ns = c * r`` (it works on open positions only, so no constant), r the chunk's
    reachable positions a slot; returns (a, b, c)."""
    big = np.array([p for p in points if p[0] >= FIT_MIN_SLOTS])
    r, forward, backward = big[:, 1], big[:, 2], big[:, 3]
    with_constant = np.stack([np.ones_like(r), r], axis=1)
    (a, b), *_ = np.linalg.lstsq(with_constant, forward, rcond=None)
    (c,), *_ = np.linalg.lstsq(r[:, None], backward, rcond=None)
    return float(a), float(b), float(c)


def fit_live(points: list[tuple]) -> tuple[float, float]:
    """The costs of a live folder's sweep: ``d`` ns a visit, timed on
    :func:`~fastttt.kernels.layered.live_visits` (the loop and its skips alone), and ``c`` ns more a
    live visit (its children), fitted over the sampled chunks as ``ns = d * (dead + live) + c *
    live`` with d fixed (a free fit of both is unstable: dead and live visits rise and fall
    together); returns (d, c)."""
    big = np.array([p for p in points if p[0] >= FIT_MIN_SLOTS])
    live, dead, sweep, walk = big[:, 1], big[:, 4], big[:, 3], big[:, 5]
    d = float(walk.sum() / (dead + live).sum())
    (c,), *_ = np.linalg.lstsq(live[:, None], sweep - d * (dead + live), rcond=None)
    return d, float(c)


def project_live(game: str, points: list[tuple]) -> None:
    """CPU of the live sweep of ``game`` over the heights index with the mirror: the fit, and
    the dead and live visits of each layer counted over sampled ranges
    (:func:`fastttt.tables.layered.sampled_visits`)."""
    spec = as_spec(game)
    index = LayerIndex(spec, symmetry=True)
    d, c = fit_live(points)
    print(f"fit over {len(points)} chunks: live sweep {d:.1f} ns a visit, {c:.1f} more a live one")
    visits = np.array([sampled_visits(index, n) for n in range(len(index.layer_sizes))])
    dead_total, live_total = visits.sum(axis=0)
    hours = (d * (dead_total + live_total) + c * live_total) * 1e-9 / 3600
    print(
        f"{spec.name}: {sum(index.layer_sizes):,} slots; visits: {dead_total:.3e} dead, "
        f"{live_total:.3e} live; the live sweep about {hours:,.0f} core-hours "
        f"({d * dead_total * 1e-9 / 3600:,.0f} of them the dead visits)"
    )


def project(game: str, points: list[tuple]) -> None:
    """CPU of both sweeps of ``game`` over the heights index with the mirror, from the fit."""
    spec = as_spec(game)
    counts = {as_spec(k.game): k.by_ply for k in known_counts()}
    if spec not in counts:
        raise SystemExit(f"{game}: no positions per ply in the known counts file")
    by_ply = counts[spec]
    sizes = LayerIndex(spec, symmetry=True).layer_sizes
    fa, fb, bb = fit(points)
    print(
        f"fit over {len(points)} chunks: forward {fa:.1f} + {fb:.1f} r ns a slot, "
        f"backward {bb:.1f} r"
    )
    total = forward_empty = 0.0
    for n, size in enumerate(sizes):
        if size == 0:
            continue
        r = min(1.0, by_ply[n] / 2 / size) if n < len(by_ply) else 0.0
        total += size * (fa + fb * r + bb * r) * 1e-9
        forward_empty += size * fa * 1e-9
    print(
        f"{spec.name}: {sum(sizes):,} slots, largest layer {max(sizes):,}; both sweeps about "
        f"{total / 3600:,.0f} core-hours, {forward_empty / 3600:,.0f} of them the forward "
        "sweep's constant"
    )


def own_total(rows: list[dict]) -> float:
    """CPU-s of both sweeps over the measured board's layers at the measured rates."""
    return sum(r["slots"] * (r["forward_ns"] + r["backward_ns"]) * 1e-9 for r in rows)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="a finished layered table folder")
    parser.add_argument("--chunks", type=int, default=3, help="chunks sampled a layer")
    parser.add_argument("--project", default="", help="a board to project, e.g. connect4")
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()
    if open_layered(args.path).keep_every > 1:
        raise SystemExit(
            f"{args.path} drops layers (--keep-every): give a folder keeping every one"
        )
    print(uptime(), flush=True)
    print(f"{'n':>3} {'slots':>16} {'sampled':>11} {'reach/slot':>9} {'fwd ns':>8} {'bwd ns':>8}")
    rows, points, live = measure(args.path, args.chunks, args.seed)
    print(f"both sweeps over every slot at these rates: {own_total(rows):,.0f} CPU-s", flush=True)
    if args.project:
        (project_live if live else project)(args.project, points)
    print(uptime(), flush=True)


if __name__ == "__main__":
    main()
