"""``fastttt proof``: prove a position's value with strategies anyone can check, and check
them (:mod:`fastttt.search.prooftree`, :mod:`fastttt.reference.proofcheck`)."""

from __future__ import annotations

import time

import click

from fastttt.cli.output import emit
from fastttt.cli.progress import Progress
from fastttt.cli.types import NonEmptyPath
from fastttt.errors import FastTTTError, TableFileError

VALUE_NAMES = {1: "win", 0: "draw", -1: "loss"}


@click.group()
def proof() -> None:
    """Proof files: a value proven by df-pn, checked on the plain rules (m,n,k boards)."""


def _fields(made, path, reports, started: float, cpu: float) -> dict:
    """The JSON fields of a proof built or checked (schema: ``proof``)."""
    return {
        "game": made.spec.name,
        "proof": str(path),
        "position": made.root,
        "value": VALUE_NAMES[made.value],
        "claims": len(made.claims),
        "strategy_moves": made.positions,
        "pairing_certificates": made.pairings,
        "checked_positions": sum(r.positions for r in reports),
        "seconds": round(time.perf_counter() - started, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
    }


def _report(fields: dict, as_json: bool, line: str) -> None:
    if as_json:
        emit("proof", fields)
    else:
        click.echo(line)


@proof.command()
@click.argument("game", default="tictactoe")
@click.option("--moves", default=None, help="The position, as the play screen writes moves.")
@click.option("--position", default=None, help="The position as text ('X../.O./...').")
@click.option(
    "--out", "-o", "out_path", type=NonEmptyPath(dir_okay=False), help="The file (GAME.proof)."
)
@click.option(
    "--max-nodes", type=click.IntRange(1), default=None, help="df-pn nodes for everything."
)
@click.option(
    "--max-positions",
    type=click.IntRange(1),
    default=1_000_000,
    show_default=True,
    help="Moves one strategy may hold.",
)
@click.option("--force", is_flag=True, help="Replace a file that is not a proof.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def build(game, moves, position, out_path, max_nodes, max_positions, force, as_json) -> None:
    """Prove the value of GAME's position (default: the empty board) and write the
    strategies that make it to a proof file, checked before it is written."""
    from fastttt.cli.moves import query_state
    from fastttt.files import check_target
    from fastttt.games.mnk.spec import as_spec
    from fastttt.search.prooftree import check, is_proof, prove_with_strategies, save

    started, cpu = time.perf_counter(), time.process_time()
    try:
        spec = as_spec(game)
        pos, _ = query_state(spec, position, moves)
        path = out_path or f"{spec.short_name}.proof"
        check_target(path, is_proof, "a fastttt proof", TableFileError, force=force)
        with Progress(f"proof of {spec.short_name}", unit="strategy moves") as shown:
            made = prove_with_strategies(
                pos, max_nodes=max_nodes, max_positions=max_positions, progress=shown.update
            )
            reports = check(made)
        save(made, path, force=force)
    except FastTTTError as err:
        raise click.ClickException(str(err)) from None
    fields = _fields(made, path, reports, started, cpu)
    _report(
        fields,
        as_json,
        f"{path}: {fields['value']} for the side to move, "
        f"{made.positions:,} strategy moves, "
        f"{made.pairings:,} pairing certificates, checked over "
        f"{fields['checked_positions']:,} positions, {fields['seconds']:.1f} s",
    )


@proof.command(name="check")
@click.argument("path", type=NonEmptyPath(dir_okay=False, exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def check_command(path, as_json) -> None:
    """Replay a proof file on the plain rules: every reply of the other side, the strategy's
    move for the prover, to the end of every game. Exit 1 when it does not hold."""
    from fastttt.search.prooftree import check, load

    started, cpu = time.perf_counter(), time.process_time()
    try:
        made = load(path)
        with Progress(f"checking {path}"):
            reports = check(made)
    except FastTTTError as err:
        raise click.ClickException(str(err)) from None
    fields = _fields(made, path, reports, started, cpu)
    _report(
        fields,
        as_json,
        f"{path}: holds: {fields['value']} for the side to move of {made.root}, "
        f"{fields['checked_positions']:,} positions replayed, "
        f"{sum(r.pairings for r in reports):,} pairing certificates checked",
    )
