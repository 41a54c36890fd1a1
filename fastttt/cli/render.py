"""``fastttt render``: a picture of a position, optionally with every move's value, as SVG or
PNG (PNG needs the ``png`` extra: CairoSVG)."""

from __future__ import annotations

import click

from fastttt.cli.progress import Progress
from fastttt.cli.types import FiniteFloat, NonEmptyPath
from fastttt.errors import FastTTTError, OutputFileError
from fastttt.files import check_picture_target, write_atomic

PNG_EXTRA = "PNG output needs the png extra: pip install 'fastttt[png]' (CairoSVG)"


def to_png(svg_text: str, scale: float = 2.0) -> bytes:
    """``svg_text`` as PNG bytes (``scale`` pixels per SVG unit); ClickException without
    CairoSVG."""
    try:
        import cairosvg
    except (ImportError, OSError):  # OSError: CairoSVG present but the cairo library is not
        raise click.ClickException(PNG_EXTRA) from None
    return cairosvg.svg2png(bytestring=svg_text.encode(), scale=scale)


@click.command()
@click.argument("game")
@click.option(
    "--moves",
    help="Moves from the empty board as the play screen types them, "
    'separated by spaces: "2,2 1,1" (row,col from 1), gravity columns from 1 '
    '(4455), ultimate board,cell ("5,5 5,1").',
)
@click.option("--position", help="The position's text form instead (e.g. X.O/.X./..O).")
@click.option(
    "--values",
    is_flag=True,
    help="Colour every legal move by its value: solved "
    "table, exact search within --seconds, or the Ultimate engine's estimates.",
)
@click.option(
    "--seconds",
    type=FiniteFloat(0.01, 3600),
    default=5.0,
    show_default=True,
    help="With --values: search budget where no table is used.",
)
@click.option("--no-coordinates", is_flag=True, help="Leave out the row and column numbers.")
@click.option(
    "--cell", type=click.IntRange(8, 400), default=40, show_default=True, help="Pixels per cell."
)
@click.option(
    "-o", "--output", required=True, type=NonEmptyPath(dir_okay=False), help="FILE.svg or FILE.png."
)
@click.pass_context
def render(ctx, game, moves, position, values, seconds, no_coordinates, cell, output) -> None:
    """Draw a position of GAME as an SVG or PNG picture."""
    from fastttt.cli.moves import query_state
    from fastttt.games.registry import load_game
    from fastttt.play.move_values import move_values
    from fastttt.views import svg

    given = ctx.get_parameter_source("seconds") == click.core.ParameterSource.COMMANDLINE
    if given and not values:
        raise click.UsageError("--seconds is the budget of --values: drop it, or add --values")

    try:
        target = check_picture_target(output, (".svg", ".png"), OutputFileError)
    except OutputFileError as err:
        raise click.BadParameter(str(err), param_hint="-o") from None
    if moves is not None and position is not None:
        raise click.UsageError("give --moves or --position, not both")
    try:
        spec = load_game(game)
    except FastTTTError as err:
        raise click.BadParameter(str(err), param_hint="GAME") from None
    state, played = query_state(spec, position, moves)
    last = played[-1] if played else None
    try:
        found = None
        if values:
            with Progress("move values") as shown:
                found = move_values(state, seconds, lambda text: shown.update(note=text))
    except FastTTTError as err:  # a board no table or exact search takes
        raise click.UsageError(f"--values: {err}") from None
    text = svg.render(
        state, values=found, coordinates=not no_coordinates, last_move=last, cell=cell
    )
    data = to_png(text) if target.suffix.lower() == ".png" else (text + "\n").encode()
    try:
        write_atomic(target, lambda f: f.write(data), OutputFileError)
    except OutputFileError as err:
        raise click.ClickException(str(err)) from None
    if found is not None and not found.complete:
        note = "estimates" if found.source == "engine" else "unknown (budget ran out)"
        click.echo(f"some move values are {note}", err=True)
