"""``fastttt prove``: Ultimate tic-tac-toe values by proof-number search, with proof trees that
are saved and checked again (:mod:`fastttt.ultimate.proof`)."""

from __future__ import annotations

import sys

import click

from fastttt.cli.moves import format_line, parse_moves
from fastttt.cli.output import emit
from fastttt.errors import FastTTTError

GAMES = ("ultimate", "ultimate-open")


def _state(game: str, moves: str):
    """``(game, start, state, moves)``: the position after ``--moves`` (people's text)."""
    from fastttt.registry import load_game

    spec = load_game(game)
    state, played = parse_moves(spec, moves)
    return spec, spec.initial(), state, played


def _result_fields(result) -> dict:
    return {
        "attacker": "XO"[result.attacker],
        "status": result.status,
        "pn": result.pn,
        "dn": result.dn,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
    }


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
    help="Transposition table of 2**BITS entries (24 bytes each).",
)
@click.option(
    "--proof",
    "proof_path",
    type=click.Path(dir_okay=False),
    help="Save the proof tree of the answer here (JSON with a checksum).",
)
@click.option("--force", is_flag=True, help="With --proof: replace a file that is not a proof.")
@click.option(
    "--check",
    "check_path",
    type=click.Path(dir_okay=False, exists=True),
    help="Replay a saved proof tree against the rules instead of searching.",
)
@click.option(
    "--suite",
    is_flag=True,
    help="The fixed suite: positions of random games at "
    "plies 60 to 20, each solved within --max-nodes; prints Bench: NODES.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def prove(game, moves, max_nodes, tt_bits, proof_path, force, check_path, suite, as_json):
    """Prove the value of an Ultimate position by df-pn search (default: the empty board)."""
    from fastttt.ultimate import proof as P

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
    prover = P.Prover(tt_bits)
    mover = prover.prove(state, None, max_nodes)
    results = [mover]
    if mover.status != "proven":
        results.append(prover.prove(state, 1 - state.to_move, max_nodes))
    settled = next((r for r in reversed(results) if r.status == "proven"), None)
    if settled is None and all(r.status == "disproven" for r in results) and len(results) == 2:
        settled = results[-1]  # a draw: the tree shows the other side cannot win either
    if settled is None:
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
        "questions": [_result_fields(r) for r in results],
        "nodes": sum(r.nodes for r in results),
        "seconds": round(sum(r.seconds for r in results), 4),
    }
    if proof_path and settled is not None:
        tree = P.proof_tree(settled, prover, max_nodes)
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
    click.echo(f"{game}: {verdict} ({out['nodes']:,} nodes, {out['seconds']:.2f} s, df-pn)")
    for r in results:
        click.echo(
            f"  does {'XO'[r.attacker]} win? {r.status}: pn {r.pn:,}, dn {r.dn:,}, "
            f"{r.nodes:,} nodes"
        )
    if "proof" in out:
        p = out["proof"]
        click.echo(
            f"proof tree ({p['claim']} for {p['attacker']}, {p['size']:,} chosen moves) "
            f"saved to {proof_path}"
        )
    elif proof_path:
        click.echo("no proof tree: the question was not settled within the budget", err=True)
        sys.exit(1)


def _check(P, path, as_json):
    try:
        tree = P.load(path)
        leaves = P.verify(tree)
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
        f"({tree.size:,} chosen moves, {leaves:,} finished games)"
    )


def _suite(P, game, max_nodes, tt_bits, as_json):
    err = sys.stderr

    def progress(i, value):
        if err.isatty():
            err.write(f"\r{i + 1} positions solved\x1b[K")
            err.flush()

    result = P.run_suite(max_nodes, game == "ultimate-open", tt_bits, progress)
    if err.isatty():
        err.write("\r\x1b[K")
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
