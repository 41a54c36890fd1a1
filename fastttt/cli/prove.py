"""``fastttt prove``: Ultimate tic-tac-toe values by proof-number search, with proof trees that
are saved and checked again (:mod:`fastttt.search.ultimate.proof`); ``--split`` asks each question
of the positions a few plies down, one task each, here or on a Dask cluster
(:mod:`fastttt.search.ultimate.split`)."""

from __future__ import annotations

import sys
from contextlib import contextmanager

import click

from fastttt.cli.moves import format_line, parse_moves
from fastttt.cli.output import emit
from fastttt.cli.progress import Progress
from fastttt.cli.types import NonEmptyPath, SchedulerAddress
from fastttt.errors import FastTTTError

GAMES = ("ultimate", "ultimate-open")


def _state(game: str, moves: str):
    """``(game, start, state, moves)``: the position after ``--moves`` (people's text)."""
    from fastttt.games.registry import load_game

    spec = load_game(game)
    state, played = parse_moves(spec, moves)
    return spec, spec.initial(), state, played


def _result_fields(result) -> dict:
    """A question's fields: a ProofResult's, or a SplitResult's with its tasks by status."""
    fields = {
        "attacker": "XO"[result.attacker],
        "status": result.status,
        "pn": result.pn,
        "dn": result.dn,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
    }
    if hasattr(result, "counts"):
        fields["tasks"] = result.counts
    return fields


@click.command()
@click.argument("game", type=click.Choice(GAMES), default="ultimate")
@click.option(
    "--moves",
    default="",
    help="The position: moves from the empty board as the "
    'play screen types them, board,cell from 1, separated by spaces ("5,5 5,1"; a '
    "lone cell plays in the forced board).",
)
@click.option(
    "--max-nodes",
    type=click.IntRange(1, 10**12),
    default=2_000_000,
    show_default=True,
    help="Node budget of each question (does X win? does O win?).",
)
@click.option(
    "--tt-bits",
    type=click.IntRange(10, 32),
    default=22,
    show_default=True,
    help="Transposition table of 2**BITS entries (25 bytes each).",
)
@click.option(
    "--proof",
    "proof_path",
    type=NonEmptyPath(dir_okay=False),
    help="Save the strategy that settles the answer here (JSON with a checksum).",
)
@click.option("--force", is_flag=True, help="With --proof: replace a file that is not a proof.")
@click.option(
    "--check",
    "check_path",
    type=NonEmptyPath(dir_okay=False, exists=True),
    help="Replay a saved strategy against the rules instead of searching.",
)
@click.option(
    "--suite",
    is_flag=True,
    help="The fixed suite: positions of random games at "
    "plies 60 to 20, each solved within --max-nodes; prints Bench: NODES.",
)
@click.option(
    "--split",
    "split_depth",
    type=click.IntRange(0, 6),
    default=None,
    help="Split each question into one task per position DEPTH plies below (each proved "
    "within --max-nodes, with a 2**--tt-bits table) and combine the answers up the tree; "
    "tasks run here one after another unless --workers or --scheduler.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 4096),
    default=None,
    help="With --split: run the tasks on a local Dask cluster of N processes.",
)
@click.option(
    "--scheduler",
    type=SchedulerAddress(),
    metavar="ADDRESS",
    default=None,
    help="With --split: run the tasks on the Dask cluster at ADDRESS (tcp://host:8786).",
)
@click.option(
    "--confine",
    is_flag=True,
    help="Each side's win is searched with its moves confined to those that win the game "
    "or a board or send the other side to the open board where it has the most stones: a "
    "win found is a win, a failure is unknown (the open variant's empty board: X wins).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def prove(
    game,
    moves,
    max_nodes,
    tt_bits,
    proof_path,
    force,
    check_path,
    suite,
    split_depth,
    workers,
    scheduler,
    confine,
    as_json,
):
    """Prove the value of an Ultimate position by df-pn search (default: the empty board)."""
    from fastttt.search.ultimate import proof as P

    if confine and (check_path or suite or split_depth is not None):
        raise click.UsageError(
            "--confine goes with a plain search: not with --check, --suite or --split"
        )
    if split_depth is not None and (check_path or suite):
        raise click.UsageError("--split goes with a search, not with --check or --suite")
    if (workers or scheduler) and split_depth is None:
        raise click.UsageError("--workers and --scheduler run the tasks of --split: give --split")
    if workers and scheduler:
        raise click.UsageError("give --workers (a local cluster) or --scheduler, not both")
    if sum(bool(x) for x in (check_path, suite, moves or proof_path)) > 1:
        raise click.UsageError("--check, --suite and a search (--moves/--proof) go alone")
    if check_path:
        return _check(P, check_path, as_json)
    if suite:
        return _suite(P, game, max_nodes, tt_bits, as_json)
    spec, start, state, played = _state(game, moves)
    if proof_path:
        from fastttt.errors import TableFileError
        from fastttt.files import check_target

        try:
            check_target(
                proof_path,
                P.is_proof_file,
                "a fastttt Ultimate proof",
                TableFileError,
                force=force,
                force_hint=" (--force overwrites)",
            )
        except FastTTTError as err:
            raise click.BadParameter(str(err), param_hint="--proof") from None
    with _client(workers, scheduler) as client:
        ask, make_tree = _askers(P, state, split_depth, max_nodes, tt_bits, client, confine)
        mover = ask(None)
        results = [mover]
        if mover.status != "proven":
            results.append(ask(1 - state.to_move))
        settled = next((r for r in reversed(results) if r.status == "proven"), None)
        if settled is None and all(r.status == "disproven" for r in results) and len(results) == 2:
            settled = results[-1]  # a draw: the tree shows the other side cannot win either
        if settled is None and confine and all(r.dn == 0 for r in results):
            verdict = "unknown: no win keeps to the confined moves"
        elif settled is None:
            verdict = "unknown within budget"
        elif settled.status == "proven":
            verdict = f"{'XO'[settled.attacker]} wins"
        else:
            verdict = "draw"
        out = {
            "game": spec.name,
            "moves": format_line(spec, start, played),
            "position": str(state),
            "verdict": verdict,
            "method": "df-pn",
            "confined": confine,
            "questions": [_result_fields(r) for r in results],
            "nodes": sum(r.nodes for r in results),
            "seconds": round(sum(r.seconds for r in results), 4),
        }
        if split_depth is not None:
            out["split"] = split_depth
            out["frontier"] = mover.frontier_size
            out["tasks"] = {
                status: sum(r.counts[status] for r in results) for status in mover.counts
            }
        if proof_path and settled is not None:
            tree = make_tree(settled)
            tree.save(proof_path, force=force)
            out["proof"] = {
                "path": proof_path,
                "claim": tree.claim,
                "size": tree.size,
                "attacker": "XO"[tree.attacker],
            }
    if as_json:
        emit("prove", out)
        return
    how = "df-pn, confined" if confine else "df-pn"
    if split_depth is not None:
        how = f"df-pn split at depth {split_depth}: {out['frontier']:,} tasks a question"
    click.echo(f"{game}: {verdict} ({out['nodes']:,} nodes, {out['seconds']:.2f} s, {how})")
    for r, fields in zip(results, out["questions"], strict=True):
        tasks = ""
        if "tasks" in fields:
            tasks = "; tasks " + ", ".join(f"{n:,} {s}" for s, n in fields["tasks"].items())
        click.echo(
            f"  does {'XO'[r.attacker]} win? {r.status}: pn {_number(r.pn)}, "
            f"dn {_number(r.dn)}, {r.nodes:,} nodes{tasks}"
        )
    if "proof" in out:
        p = out["proof"]
        click.echo(
            f"proof ({p['claim']} for {p['attacker']}: a move for each of {p['size']:,} "
            f"positions) saved to {proof_path}"
        )
    elif proof_path:
        click.echo("no proof tree: the question was not settled within the budget", err=True)
        sys.exit(1)


def _askers(P, state, split_depth, max_nodes, tt_bits, client, confine=False):
    """``ask(attacker)`` (None: the side to move) answering "does it win from ``state``?" and
    ``make_tree(settled)`` giving the proof tree of a settled answer: by one df-pn (its nodes
    as progress), or split into tasks (:mod:`fastttt.search.ultimate.split`, progress by task) when
    ``split_depth`` is given; ``confine``: :class:`~fastttt.search.ultimate.proof.Prover`'s."""

    def question(attacker):
        return f"does {'XO'[state.to_move if attacker is None else attacker]} win?"

    if split_depth is None:
        from fastttt.kernels.ultimate_dfpn import D_NODES

        prover = P.Prover(tt_bits, confine=confine)

        def nodes() -> str:
            return f"{int(prover.ctl[D_NODES]):,} of {max_nodes:,} nodes"

        def prove_one(attacker):
            with Progress(question(attacker), poll=nodes):
                return prover.prove(state, attacker, max_nodes)

        def tree_one(settled):
            with Progress("proof tree"):
                return P.proof_tree(settled, prover, max_nodes)

        return prove_one, tree_one
    from fastttt.search.ultimate import split as S

    def ask(attacker):
        with Progress(question(attacker), unit="tasks") as shown:
            return S.prove_split(
                state,
                attacker,
                depth=split_depth,
                max_nodes=max_nodes,
                tt_bits=tt_bits,
                client=client,
                progress=shown.update,
            )

    def make_tree(settled):
        with Progress("proof tree", unit="tasks") as shown:
            return S.assemble_tree(settled, client=client, progress=shown.update)

    return ask, make_tree


@contextmanager
def _client(workers, scheduler):
    """A Dask client for --workers (a local cluster, closed after) or --scheduler; else None."""
    if not (workers or scheduler):
        yield None
        return
    from fastttt.errors import MissingDependencyError
    from fastttt.tables import distributed

    cluster = None
    try:
        if workers:
            cluster, client = distributed.local_cluster(workers)
        else:
            client = distributed.connect(scheduler)
    except MissingDependencyError as err:
        raise click.ClickException(str(err)) from None
    except OSError as err:  # no scheduler there (a timeout is an OSError too)
        raise click.ClickException(f"--scheduler {scheduler}: {err}") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _check(P, path, as_json):
    try:
        tree = P.load(path)  # its errors name the file
    except FastTTTError as err:
        raise click.ClickException(str(err)) from None
    try:
        with Progress("check", unit="positions") as shown:
            leaves = P.verify(tree, progress=shown.update)
    except FastTTTError as err:
        raise click.ClickException(f"{path}: {err}") from None
    if as_json:
        emit(
            "prove",
            {
                "check": {
                    "path": path,
                    "valid": True,
                    "claim": tree.claim,
                    "attacker": "XO"[tree.attacker],
                    "size": tree.size,
                    "leaves": leaves,
                    "position": tree.position,
                }
            },
        )
        return
    what = "wins" if tree.claim == "proven" else "does not win"
    click.echo(
        f"{path}: valid: {'XO'[tree.attacker]} {what} from {tree.position} "
        f"(a move for each of {tree.size:,} positions, {leaves:,} distinct finished games)"
    )


def _suite(P, game, max_nodes, tt_bits, as_json):
    count = len(P.SUITE_PLIES) * P.SUITE_PER_PLY
    with Progress("suite", total=count, unit="positions") as shown:

        def progress(i, value):
            shown.update(i + 1, note=f"{value.verdict} ({value.nodes:,} nodes)")

        result = P.run_suite(max_nodes, game == "ultimate-open", tt_bits, progress)
    if as_json:
        emit("prove", {"game": game, "suite": result})
        return
    for row in result["positions"]:
        click.echo(
            f"ply {row['ply']:>2}  {row['verdict']:<22} {row['nodes']:>12,} nodes  "
            f"{row['seconds']:.2f} s"
        )
    click.echo(
        f"{result['proved']} of {len(result['positions'])} proved within "
        f"{max_nodes:,} nodes a question"
    )
    click.echo(f"Bench: {result['nodes']}")


def _number(n: int) -> str:
    """A proof or disproof number for people: ``inf`` for df-pn's infinity."""
    from fastttt.kernels.ultimate_dfpn import INF

    return "inf" if n >= INF else f"{n:,}"
