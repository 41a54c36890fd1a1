"""The layered solver on a Dask cluster: one task per chunk, layers shared through the store.

Each task opens the store folder, reads the neighbouring layer it needs (once per worker
process and layer), computes its chunk with the serial kernels and writes it; the driver
(:func:`fastttt.tables.layered.solve_layered`) waits for a layer's tasks, then marks the layer
complete in the manifest. Every worker must see the store at the same path: a local folder for
a ``LocalCluster``, a shared file system (NFS, Lustre, ...) for a real cluster. An object store
would plug in at :class:`fastttt.tables.layer_store.LayerStore`, which keeps each chunk as one zarr
key: a zarr ``FsspecStore`` on ``s3://bucket/table`` holds the same keys (the manifest then needs
a conditional put for its atomic update).

Dask is optional: ``pip install 'fastttt[distributed]'``.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path

from fastttt.errors import InvalidArgumentError, MissingDependencyError
from fastttt.games.mnk.spec import mnk
from fastttt.tables.index import LayerIndex

_WORK: dict[tuple, object] = {}  # per worker process: (store path, game, symmetry) -> ChunkWork


def require_distributed():
    """The ``distributed`` module, or MissingDependencyError naming the extra to install."""
    try:
        import distributed
    except ImportError:
        raise MissingDependencyError(
            "--workers and --scheduler need Dask: pip install 'fastttt[distributed]'"
        ) from None
    return distributed


def _work_for(path: str, game: tuple, symmetry: bool, solve_id: str):
    """This process's ChunkWork for one solve (built once): it holds the neighbour chunks a task
    reads and, of those read before, the last used up to ``SPARE_BYTES``."""
    from fastttt.tables.layer_store import LayerStore
    from fastttt.tables.layered import SPARE_BYTES, ChunkWork

    key = (path, game, symmetry, solve_id)
    if key not in _WORK:
        _WORK.clear()  # one solve at a time per worker: free the last one's layers
        index = LayerIndex(mnk(*game), symmetry)
        _WORK[key] = ChunkWork(
            LayerStore.open(path, "r+"),
            index,
            parallel=False,
            whole_layers=False,
            spare_bytes=SPARE_BYTES,  # bounded RAM: a worker meets chunks from all of a layer
        )
    return _WORK[key]


def chunk_task(
    path: str, game: tuple, symmetry: bool, solve_id: str, phase: str, n: int, chunk: int
):
    """One chunk of layer ``n`` (``phase`` "reach" or "value") of the solve ``solve_id``,
    run on a worker."""
    work = _work_for(path, game, symmetry, solve_id)
    if phase == "reach":
        return work.forward(n, chunk)
    return work.backward(n, chunk)


class DaskRunner:
    """Runs the chunks of each layer as Dask tasks on ``client``'s cluster."""

    def __init__(self, work, client):
        if work.store.path is None:
            raise InvalidArgumentError(
                "a Dask solve needs a store folder every worker can read (--out)"
            )
        self.client = client
        spec = work.index.spec
        # workers may run elsewhere: an absolute path, and an id so that no worker reuses
        # the state (manifest, open arrays) of an earlier solve in the same folder
        self.args = (
            str(Path(work.store.path).absolute()),
            (spec.rows, spec.cols, spec.k, spec.gravity),
            work.index.symmetry != "none",
            uuid.uuid4().hex,
        )

    def run(self, phase: str, n: int, chunks: list[int], done: Callable[[int], None]) -> list:
        distributed = require_distributed()
        futures = [
            self.client.submit(
                chunk_task,
                *self.args,
                phase,
                n,
                c,
                pure=False,
                key=f"fastttt-{phase}-{n}-{c}-{self.args[3]}",
            )
            for c in chunks
        ]
        position = {f.key: i for i, f in enumerate(futures)}
        results: list = [None] * len(chunks)
        try:
            for future in distributed.as_completed(futures):
                i = position[future.key]
                results[i] = future.result()  # re-raises a task's error here
                future.release()  # never computed again: done() may delete what it read
                done(chunks[i])
        except BaseException:
            self.client.cancel(futures)
            self._wait_for_running_tasks()
            raise
        return results

    def _wait_for_running_tasks(self, timeout: float = 60.0) -> None:
        """Wait until no task of this solve still runs on a worker: a cancelled task that has
        started goes on to write its chunk, which must not happen once the solve has stopped
        (its driver no longer checks what is written, and a drain deletes by what it saw)."""
        tag = self.args[3]

        def ours_running(dask_worker):
            return [
                str(ts.key)
                for ts in dask_worker.state.tasks.values()
                if tag in str(ts.key)
                and ts.state in ("executing", "cancelled", "long-running", "resumed")
            ]

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                running = self.client.run(ours_running)
            except Exception:  # an older Dask without worker.state: give tasks a moment
                time.sleep(2.0)
                return
            if not any(running.values()):
                return
            time.sleep(0.05)


def local_cluster(workers: int):
    """A LocalCluster of ``workers`` single-threaded processes and its client."""
    distributed = require_distributed()
    cluster = distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        # the scheduler's HTTP routes on a free port: two clusters on one machine do not clash
        scheduler_kwargs={"dashboard_address": ":0"},
    )
    return cluster, distributed.Client(cluster)


def check_scheduler(address: str) -> str:
    """``address`` when it reads as a Dask scheduler's address (``tcp://host:8786``,
    ``host:8786``), read as Dask reads it but without connecting (nor looking the host up);
    else InvalidArgumentError (``--scheduler 'x': what is wrong``)."""
    require_distributed()
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    if not isinstance(address, str):
        raise InvalidArgumentError(f"--scheduler must be a string, got {address!r}")
    if not address.strip():
        raise InvalidArgumentError("--scheduler: the address is empty")
    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            port = parse_host_port(location)[1]
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not in 1..65535")
    except ValueError as err:
        raise InvalidArgumentError(
            f"--scheduler {address!r}: {err} (a scheduler's address is tcp://HOST:PORT)"
        ) from None
    return address


def connect(address: str):
    """A client of the running scheduler at ``address`` (``tcp://host:8786``), which
    :func:`check_scheduler` reads first."""
    distributed = require_distributed()
    return distributed.Client(check_scheduler(address), timeout="10s")
