"""SVG pictures of positions: free and gravity boards of any size, Ultimate tic-tac-toe, and
move-value heat maps with their legend.

``render(state)`` returns an SVG document (text) for a state of any game, which draws it through
its :meth:`~fastttt.games.registry.Game.render_svg` (the drawers of both families are here: a
:class:`~fastttt.games.mnk.board.Position`, an :class:`~fastttt.ultimate.UltimateState`); the output
is deterministic (same input, same bytes).
Pieces: X is drawn as a cross, O as a ring; on gravity boards as red (X) and yellow (O) discs.
The cells of a completed line are highlighted (``class="cell win"``); on Ultimate boards the
claimed boards carry a large X or O, the forced board a yellow border, and a won game its
frame line. ``coordinates=True`` labels rows and columns from 1, as :mod:`fastttt.views.text` and
:mod:`fastttt.views.ultimate_text` do (Ultimate: rows and columns of the 9x9 grid, ``rRcC``).

``values`` (from :func:`fastttt.play.move_values.move_values`) colours each legal move's cell (the
landing cell with gravity) by its value from the mover's side: green wins, slate grey draws,
purple losses, darker when the end is sooner; hatched cells are engine estimates (in the same
colours: green the mover is ahead, slate even, purple behind), pale grey ones were not valued
within the budget. A legend below the board says so (none when no move has a value: a finished
game). One legend for all pictures: the value colours are none of the stones' (X red, O blue;
on gravity boards red and yellow discs), so no stone looks like a value (:func:`palette` names
them all, for a page's legend).
Every legal move's cell carries ``data-move`` (its move in API form) for the web explorer.
"""

from __future__ import annotations

from math import isfinite
from numbers import Integral, Real
from typing import Any
from xml.sax.saxutils import escape

from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import FIRST, Position, completed_lines, line_masks
from fastttt.games.registry import State, game_of, register_picture

CELL = 40  # pixels per cell

# Value colours (green-purple, as colour-blind-safe diverging maps pair them): never a stone's
WIN_DARK, WIN_LIGHT = (0x17, 0x6B, 0x32), (0xB4, 0xE3, 0xBE)
LOSS_DARK, LOSS_LIGHT = (0x5B, 0x21, 0x8A), (0xE2, 0xCF, 0xF0)
DRAW_COLOR = "#9FB0C2"  # slate: neither the yellow disc nor the blue ring
UNKNOWN_COLOR = "#E9E9E9"
HIGHLIGHT = "#FFE680"  # cells of a completed line
FORCED = "#F2B600"  # border of the board the side to move must play in
INK = ("#C62828", "#1565C0")  # X, O on free boards
DISCS = ("#D32F2F", "#FBC02D")  # X, O on gravity boards
ESTIMATE_SCALE = 400  # engine points at which an estimate takes its darkest shade


def render(
    state: Any,
    *,
    values: Any = None,
    coordinates: bool = False,
    last_move: int | None = None,
    cell: int = CELL,
    legend: bool = True,
) -> str:
    """An SVG picture of ``state`` (a state of any game: :class:`fastttt.games.registry.State`); see
    the module docstring. Each game draws its own (its ``render_svg``: :func:`board_svg` for
    m,n,k boards, :func:`ultimate_svg` for Ultimate).

    ``values``: a :class:`~fastttt.play.move_values.MoveValues` (or a plain ``{move: MoveValue}``)
    to draw as a heat map, with a legend unless ``legend`` is False; ``last_move`` (API form)
    gets a dot; ``cell``: pixels per cell, a finite number above 0. A ``values``, ``cell`` or
    ``last_move`` of another kind (an off-board move) raises InvalidArgumentError.
    """
    if not isinstance(state, State):
        raise InvalidArgumentError(
            f"cannot draw {type(state).__name__}: "
            "expected a game state (fastttt.games.registry.State)"
        )
    if isinstance(cell, bool) or not isinstance(cell, Real) or not (isfinite(cell) and cell > 0):
        raise InvalidArgumentError(
            f"cell (pixels per cell) must be a finite number above 0, got {cell!r}"
        )
    game = game_of(state)
    if last_move is not None:
        try:
            game.format_move(state, last_move)  # refuses what is not one of the game's moves
        except InvalidArgumentError as error:
            raise InvalidArgumentError(f"last_move: {error}") from None
    source = getattr(values, "source", None)
    table = _value_table(values)
    return game.render_svg(
        state,
        values=table,
        source=source,
        coordinates=coordinates,
        last_move=last_move,
        cell=cell,
        legend=legend,
    )


def _value_table(values: Any) -> dict | None:
    """``render``'s ``values`` as a ``{move: MoveValue}`` dict (None: none), checked: an exact
    win or loss counts its plies."""
    from fastttt.play.move_values import MoveValue, MoveValues

    table = values.values if isinstance(values, MoveValues) else values
    if table is not None and not isinstance(table, dict):
        raise InvalidArgumentError(
            "values must be a MoveValues (fastttt.play.move_values.move_values) or a dict "
            f"{{move: MoveValue}}, got {type(table).__name__}"
        )
    for move, value in (table or {}).items():
        if isinstance(move, bool) or not isinstance(move, Integral):
            raise InvalidArgumentError(f"values: a move is an integer, got {move!r}")
        if not isinstance(value, MoveValue):
            raise InvalidArgumentError(
                f"values: move {move} has {type(value).__name__} {value!r}, not a MoveValue"
            )
        plies = value.plies
        counted = isinstance(plies, Integral) and not isinstance(plies, bool) and plies > 0
        if value.result and not value.estimate and not counted:
            raise InvalidArgumentError(
                f"values: move {move} is an exact win or loss: its plies must be an integer "
                f"above 0, got {plies!r}"
            )
    return table


def board_svg(
    pos: Position,
    *,
    values: dict | None,
    source: str | None,
    coordinates: bool,
    last_move: int | None,
    cell: int,
    legend: bool,
) -> str:
    """The picture of an m,n,k position (:meth:`fastttt.families.mnk.MnkGame.render_svg`);
    ``values`` ``{move: MoveValue}`` and ``source`` its
    :class:`~fastttt.play.move_values.MoveValues`' source."""
    return _Board(pos, values, source, coordinates, last_move, cell, legend).svg()


def ultimate_svg(
    state: Any,
    *,
    values: dict | None,
    source: str | None,
    coordinates: bool,
    last_move: int | None,
    cell: int,
    legend: bool,
) -> str:
    """The picture of an Ultimate position (:meth:`fastttt.families.ultimate.UltimateGame.
    render_svg`); the arguments as :func:`board_svg`'s."""
    return _Ultimate(state, values, source, coordinates, last_move, cell, legend).svg()


def repr_svg(state: Any) -> str:
    """The picture Jupyter shows inline (``_repr_svg_``): coordinates on, no values.

    >>> from fastttt.games.mnk.board import Position
    >>> picture = repr_svg(Position.from_text("tictactoe", "X.O/.X./..O"))
    >>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    True
    >>> picture.count('class="stone ')
    4
    """
    return render(state, coordinates=True)


register_picture(repr_svg)  # positions' _repr_svg_ (fastttt.games.registry.notebook_picture)


# --- colours -----------------------------------------------------------------------------


def _mix(dark: tuple[int, ...], light: tuple[int, ...], t: float) -> str:
    t = min(max(t, 0.0), 1.0)
    channels = (round(d + (lt - d) * t) for d, lt in zip(dark, light, strict=True))
    return "#" + "".join(f"{c:02X}" for c in channels)


def value_color(value: Any, horizon: int) -> str:
    """Fill colour of a move value: wins green and losses purple, darkest when the game ends on
    the move itself and lightest ``horizon`` plies away; draws slate; unknown pale grey;
    estimates shaded by the engine's score (darkest at ``ESTIMATE_SCALE`` points)."""
    if value.result is None:
        return UNKNOWN_COLOR
    if value.result == 0:
        return DRAW_COLOR
    dark, light = (WIN_DARK, WIN_LIGHT) if value.result > 0 else (LOSS_DARK, LOSS_LIGHT)
    if value.estimate:
        return _mix(dark, light, 1 - min(abs(value.score), ESTIMATE_SCALE) / ESTIMATE_SCALE)
    return _mix(dark, light, (value.plies - 1) / max(horizon - 1, 1))


def palette() -> dict[str, list[tuple[str, str]]]:
    """Every colour the pictures use, named: ``stones`` (X and O on free boards, the discs of
    gravity boards) and ``values`` (the heat map, :func:`value_color`), for one legend of a
    whole page (the web explorer's). No colour is in both."""
    return {
        "stones": [
            ("X", INK[0]),
            ("O", INK[1]),
            ("X disc", DISCS[0]),
            ("O disc", DISCS[1]),
        ],
        "values": [
            ("win", _mix(WIN_DARK, WIN_LIGHT, 0.0)),
            ("later win", _mix(WIN_DARK, WIN_LIGHT, 1.0)),
            ("draw", DRAW_COLOR),
            ("later loss", _mix(LOSS_DARK, LOSS_LIGHT, 1.0)),
            ("loss", _mix(LOSS_DARK, LOSS_LIGHT, 0.0)),
            ("not valued", UNKNOWN_COLOR),
        ],
    }


def value_label(value: Any) -> str:
    """Short text in a cell: ``W3`` the move wins and the game ends 3 plies from now, the move
    itself included (``L4`` loses in 4), ``D`` draw, ``?`` unknown, ``~+35`` an estimate
    (``~0`` even): the Ultimate engine's score after the move for the mover, in evaluation
    points (:data:`fastttt.play.move_values.ESTIMATE_UNIT`)."""
    if value.result is None:
        return "?"
    if value.estimate:
        return f"~{value.score:+d}" if value.score else "~0"
    if value.result == 0:
        return "D"
    return f"{'W' if value.result > 0 else 'L'}{value.plies}"


def value_horizon(state: Any) -> int:
    """The ``horizon`` of :func:`value_color` for the moves of ``state``: the plies the game
    may last at most (empty cells), at least 1."""
    return max(state.spec.cells - state.ply, 1)


def text_color(fill: str) -> str:
    """White or near-black, whichever reads on ``fill`` (``#RRGGBB``)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#FFFFFF" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else "#222222"


# --- shared drawing ----------------------------------------------------------------------

_DEFS = (
    '<defs><pattern id="estimate-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="2" height="6" fill="#FFFFFF" '
    'fill-opacity="0.55"/></pattern></defs>'
)
_FONT = 'font-family="DejaVu Sans,Verdana,sans-serif"'


class _Canvas:
    """What both boards share: the element list, the heat cells, the legend, the document."""

    def __init__(self, values, source, coordinates, last_move, cell, legend):
        self.values = values
        self.source = source
        self.coordinates = coordinates
        self.last_move = last_move
        self.s = cell
        self.show_legend = legend and bool(values)
        self.out: list[str] = []
        self.margin = round(cell * 0.6) if coordinates else round(cell * 0.2)
        self.right = 0.0  # rightmost x the legend reaches

    def add(self, element: str) -> None:
        self.out.append(element)

    def heat(self, move: int, x: float, y: float, size: float, horizon: int) -> None:
        value = self.values.get(move) if self.values is not None else None
        if value is None:
            return
        fill = value_color(value, horizon)
        kind = (
            "unknown"
            if value.result is None
            else ("estimate" if value.estimate else ("win", "draw", "loss")[1 - value.result])
        )
        self.add(
            f'<rect class="heat {kind}" data-move="{move}" data-result="{_attr(value.result)}" '
            f'data-plies="{_attr(value.plies)}" x="{x:g}" y="{y:g}" width="{size:g}" '
            f'height="{size:g}" fill="{fill}"><title>{escape(str(value))}</title></rect>'
        )
        if value.estimate:
            self.add(
                f'<rect x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" '
                'fill="url(#estimate-hatch)" pointer-events="none"/>'
            )
        label = value_label(value)
        fs = max(size * (0.26 if len(label) > 3 else 0.34), 7)
        self.add(
            f'<text class="label" x="{x + size / 2:g}" y="{y + size / 2 + fs * 0.36:g}" '
            f'font-size="{fs:.1f}" text-anchor="middle" fill="{text_color(fill)}" '
            f'pointer-events="none" {_FONT}>{escape(label)}</text>'
        )

    def legend_height(self, estimates: bool) -> int:
        rows = 2 if estimates else 1
        return round(self.s * (1.5 + 0.6 * (rows - 1))) if self.show_legend else 0

    def legend(self, top: float, estimates: bool) -> None:
        if not self.show_legend:
            return
        sw = self.s * 0.36
        fs = max(self.s * 0.28, 8)
        rows = [
            [
                (_mix(WIN_DARK, WIN_LIGHT, 0.0), "win", False),
                (_mix(WIN_DARK, WIN_LIGHT, 1.0), "later win", False),
                (DRAW_COLOR, "draw", False),
                (_mix(LOSS_DARK, LOSS_LIGHT, 1.0), "later loss", False),
                (_mix(LOSS_DARK, LOSS_LIGHT, 0.0), "loss", False),
            ]
        ]
        if estimates:  # the colours value_color gives estimates half way to the darkest
            rows.append(
                [
                    (_mix(WIN_DARK, WIN_LIGHT, 0.5), "estimate: mover ahead", True),
                    (DRAW_COLOR, "even", True),
                    (_mix(LOSS_DARK, LOSS_LIGHT, 0.5), "behind", True),
                ]
            )
        if any(v.result is None for v in self.values.values()):
            rows[-1].append((UNKNOWN_COLOR, "not valued", False))
        self.add('<g class="legend">')
        y = top + self.s * 0.25 - self.s * 0.6
        right = 0.0
        for entries in rows:
            x, y = self.margin, y + self.s * 0.6
            for fill, name, hatched in entries:
                cls = "swatch estimate" if hatched else "swatch"
                self.add(
                    f'<rect class="{cls}" x="{x:g}" y="{y:g}" width="{sw:g}" '
                    f'height="{sw:g}" fill="{fill}" stroke="#555555" stroke-width="0.5"/>'
                )
                if hatched:
                    self.add(
                        f'<rect x="{x:g}" y="{y:g}" width="{sw:g}" height="{sw:g}" '
                        'fill="url(#estimate-hatch)"/>'
                    )
                self.add(
                    f'<text x="{x + sw + 3:g}" y="{y + sw * 0.85:g}" font-size="{fs:.1f}" '
                    f'fill="#222222" {_FONT}>{name}</text>'
                )
                x += sw + 8 + fs * 0.6 * len(name)
            right = max(right, x)
        x = right
        note = {
            "table": "solved table: value for the mover, W/L = plies to the end",
            "book": "opening book: value for the mover, W/L = plies to the end",
            "search": "exact search in a time budget; ? = not reached",
            "engine": "engine: W/L/D proven; hatched ~+n: estimate in points",
        }.get(self.source or "", "value of each move for the side to move")
        self.add(
            f'<text x="{self.margin:g}" y="{y + sw + fs * 1.4:g}" font-size="{fs:.1f}" '
            f'fill="#444444" {_FONT}>{escape(note)}</text>'
        )
        self.add("</g>")
        self.right = max(x, self.margin + fs * 0.56 * len(note)) + self.s * 0.2

    def document(self, width: float, height: float, title: str) -> str:
        width = max(width, round(self.right))
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="fastttt" width="{width:g}" '
            f'height="{height:g}" viewBox="0 0 {width:g} {height:g}">'
        )
        return "\n".join([head, f"<title>{escape(title)}</title>", _DEFS, *self.out, "</svg>"])

    def labels(self, count: int, x0: float, y0: float, step: float, axis: str, gap=None) -> None:
        fs = self.s * 0.32
        for i in range(count):
            offset = i * step + (gap(i) if gap else 0) + step / 2
            if axis == "x":
                x, y = x0 + offset, y0 - self.s * 0.18
            else:
                x, y = x0 - self.s * 0.3, y0 + offset + fs * 0.36
            self.add(
                f'<text class="coord" x="{x:g}" y="{y:g}" font-size="{fs:.1f}" '
                f'text-anchor="middle" fill="#666666" {_FONT}>{i + 1}</text>'
            )

    def cross(
        self,
        cx: float,
        cy: float,
        r: float,
        color: str,
        width: float,
        cls: str,
        opacity: float = 1.0,
    ) -> None:
        self.add(
            f'<path class="{cls}" d="M{cx - r:g},{cy - r:g}L{cx + r:g},{cy + r:g}'
            f'M{cx + r:g},{cy - r:g}L{cx - r:g},{cy + r:g}" stroke="{color}" '
            f'stroke-width="{width:g}" stroke-linecap="round" fill="none"{_opacity(opacity)}/>'
        )

    def ring(
        self,
        cx: float,
        cy: float,
        r: float,
        color: str,
        width: float,
        cls: str,
        opacity: float = 1.0,
    ) -> None:
        self.add(
            f'<circle class="{cls}" cx="{cx:g}" cy="{cy:g}" r="{r:g}" stroke="{color}" '
            f'stroke-width="{width:g}" fill="none"{_opacity(opacity)}/>'
        )


def _opacity(opacity: float) -> str:
    return "" if opacity == 1.0 else f' stroke-opacity="{opacity:g}"'


def _attr(v: int | None) -> str:
    return "" if v is None else str(v)


# --- m,n,k boards ------------------------------------------------------------------------


class _Board(_Canvas):
    def __init__(self, pos: Position, values, source, coordinates, last_move, cell, legend):
        super().__init__(values, source, coordinates, last_move, cell, legend)
        self.pos = pos
        self.last_cell = self._last_cell()  # where the last-move dot goes

    def svg(self) -> str:
        pos, s, m = self.pos, self.s, self.margin
        spec = pos.spec
        x0, y0 = m, m
        width = m + spec.cols * s + round(s * 0.2)
        board_h = spec.rows * s
        height = y0 + board_h + round(s * 0.2) + self.legend_height(False)
        if self.coordinates:
            self.labels(spec.cols, x0, y0, s, "x")
            self.labels(spec.rows, x0, y0, s, "y")
        fill = "#1E4FA3" if spec.gravity else "#FAF7EF"
        self.add(
            f'<rect class="board" x="{x0}" y="{y0}" width="{spec.cols * s}" '
            f'height="{board_h}" fill="{fill}" stroke="#333333" stroke-width="1.5"/>'
        )
        winning = self._winning_cells()
        landing = self._landing_cells()
        horizon = value_horizon(pos)
        for c in range(spec.cells):
            r, col = divmod(c, spec.cols)
            x, y = x0 + col * s, y0 + r * s
            cls = "cell win" if c in winning else "cell"
            move = landing.get(c)
            data = f' data-cell="{c}"' + (f' data-move="{move}"' if move is not None else "")
            if spec.gravity:
                hole = "#FFE680" if c in winning else "#FFFFFF"
                self.add(
                    f'<rect class="{cls}"{data} x="{x}" y="{y}" width="{s}" height="{s}" '
                    'fill="#1E4FA3"/>'
                )
                if move is not None and self.values is not None and move in self.values:
                    self.heat(move, x + s * 0.1, y + s * 0.1, s * 0.8, horizon)
                else:
                    self.add(
                        f'<circle cx="{x + s / 2:g}" cy="{y + s / 2:g}" r="{s * 0.4:g}" '
                        f'fill="{hole}" pointer-events="none"/>'
                    )
            else:
                bg = HIGHLIGHT if c in winning else "none"
                self.add(
                    f'<rect class="{cls}"{data} x="{x}" y="{y}" width="{s}" height="{s}" '
                    f'fill="{bg}" stroke="#555555" stroke-width="1"/>'
                )
                if move is not None:
                    self.heat(move, x + 1, y + 1, s - 2, horizon)
            self._stone(c, x + s / 2, y + s / 2, c in winning)
        if spec.gravity:  # a whole column is one click target
            for col in sorted(set(landing.values())):
                self.add(
                    f'<rect class="move" data-move="{col}" x="{x0 + col * s}" y="{y0}" '
                    f'width="{s}" height="{board_h}" fill="#FFFFFF" fill-opacity="0"/>'
                )
        self._win_line(winning, x0, y0)
        self.legend(y0 + board_h + round(s * 0.2), False)
        return self.document(width, height, f"{spec.name}: {pos}")

    def _landing_cells(self) -> dict[int, int]:
        """cell -> move, for the cells legal moves land on."""
        spec, mask = self.pos.spec, self.pos.playable_mask()
        cells = [c for c in range(spec.cells) if mask >> c & 1]
        return {c: (c % spec.cols if spec.gravity else c) for c in cells}

    def _winning_cells(self) -> set[int]:
        pos = self.pos
        winner = pos.winner()
        if winner is None:
            return set()
        stones = pos.first if winner == FIRST else pos.second
        cells: set[int] = set()
        for mask in completed_lines(line_masks(pos.spec), stones):
            cells.update(c for c in range(pos.spec.cells) if mask >> c & 1)
        return cells

    def _win_line(self, winning: set[int], x0: float, y0: float) -> None:
        if not winning:
            return
        spec, s = self.pos.spec, self.s
        winner = self.pos.winner()
        stones = self.pos.first if winner == FIRST else self.pos.second
        for mask in line_masks(spec):
            mask = int(mask)
            if stones & mask != mask:
                continue
            ends = [c for c in range(spec.cells) if mask >> c & 1]
            (r1, c1), (r2, c2) = divmod(ends[0], spec.cols), divmod(ends[-1], spec.cols)
            self.add(
                f'<line class="win-line" x1="{x0 + c1 * s + s / 2:g}" y1="{y0 + r1 * s + s / 2:g}" '
                f'x2="{x0 + c2 * s + s / 2:g}" y2="{y0 + r2 * s + s / 2:g}" stroke="#2E7D32" '
                f'stroke-width="{s * 0.12:g}" stroke-linecap="round" stroke-opacity="0.75"/>'
            )

    def _stone(self, c: int, cx: float, cy: float, winning: bool) -> None:
        pos, s = self.pos, self.s
        who = 0 if pos.first >> c & 1 else 1 if pos.second >> c & 1 else None
        if who is None:
            return
        cls = f"stone {'xo'[who]}"
        if pos.spec.gravity:
            edge = "#2E7D32" if winning else "#000000"
            self.add(
                f'<circle class="{cls}" cx="{cx:g}" cy="{cy:g}" r="{s * 0.4:g}" '
                f'fill="{DISCS[who]}" stroke="{edge}" stroke-width="{s * 0.05:g}"'
                f"{'' if winning else _opacity(0.25)}/>"
            )
        elif who == 0:
            self.cross(cx, cy, s * 0.28, INK[0], s * 0.11, cls)
        else:
            self.ring(cx, cy, s * 0.3, INK[1], s * 0.1, cls)
        if c == self.last_cell:
            self.add(
                f'<circle class="last" cx="{cx + s * 0.36:g}" cy="{cy - s * 0.36:g}" '
                f'r="{s * 0.06:g}" fill="#333333"/>'
            )

    def _last_cell(self) -> int | None:
        if self.last_move is None:
            return None
        spec = self.pos.spec
        if not spec.gravity:
            return self.last_move
        occupied = self.pos.occupied  # the top stone of the column
        for row in range(spec.rows):
            cell = row * spec.cols + self.last_move
            if occupied >> cell & 1:
                return cell
        return None


# --- Ultimate tic-tac-toe ----------------------------------------------------------------


class _Ultimate(_Canvas):
    def __init__(self, state, values, source, coordinates, last_move, cell, legend):
        super().__init__(values, source, coordinates, last_move, cell, legend)
        self.state = state
        self.gap = round(cell * 0.25)

    def _xy(self, move: int) -> tuple[float, float]:
        b, c = divmod(move, 9)
        col = b % 3 * 3 + c % 3
        row = b // 3 * 3 + c // 3
        return (
            self.margin + col * self.s + col // 3 * self.gap,
            self.margin + row * self.s + row // 3 * self.gap,
        )

    def svg(self) -> str:
        st, s, m, gap = self.state, self.s, self.margin, self.gap
        side = 9 * s + 2 * gap
        width = m + side + round(s * 0.2)
        estimates = self.values is not None and (
            self.source == "engine" or any(v.estimate for v in self.values.values())
        )
        height = m + side + round(s * 0.2) + self.legend_height(estimates)
        if self.coordinates:
            self.labels(9, m, m, s, "x", gap=lambda i: i // 3 * gap)
            self.labels(9, m, m, s, "y", gap=lambda i: i // 3 * gap)
        claims, closed, forced = st.claims(), st.closed_mask(), st.forced_board
        legal = set(st.legal_moves())
        won_boards = self._won_frame_line()
        horizon = value_horizon(st)
        for b in range(9):
            bx, by = self._xy(b * 9)
            size = 3 * s
            cls = "board"
            fill = "#FAF7EF"
            if b in won_boards:
                cls, fill = "board win", HIGHLIGHT
            elif closed >> b & 1 and claims[b] is None:
                cls, fill = "board full", "#E6E6E6"
            self.add(
                f'<rect class="{cls}" data-board="{b}" x="{bx:g}" y="{by:g}" width="{size}" '
                f'height="{size}" fill="{fill}" stroke="#333333" stroke-width="1.5"/>'
            )
            for c in range(9):
                move = b * 9 + c
                x, y = self._xy(move)
                data = f' data-move="{move}"' if move in legal else ""
                cell_cls = "cell legal" if move in legal else "cell"
                cell_fill = "#FFF3C4" if move in legal and self.values is None else "none"
                self.add(
                    f'<rect class="{cell_cls}"{data} x="{x:g}" y="{y:g}" width="{s}" '
                    f'height="{s}" fill="{cell_fill}" stroke="#999999" stroke-width="0.5"/>'
                )
                if move in legal:
                    self.heat(move, x + 1, y + 1, s - 2, horizon)
                who = st.cell(move)
                if who is not None:
                    cx, cy = x + s / 2, y + s / 2
                    fade = 0.45 if closed >> b & 1 else 1.0
                    if who == 0:
                        self.cross(cx, cy, s * 0.27, INK[0], s * 0.1, "stone x", fade)
                    else:
                        self.ring(cx, cy, s * 0.29, INK[1], s * 0.09, "stone o", fade)
                    if move == self.last_move:
                        self.add(
                            f'<circle class="last" cx="{cx + s * 0.36:g}" '
                            f'cy="{cy - s * 0.36:g}" r="{s * 0.06:g}" fill="#333333"/>'
                        )
            if claims[b] is not None:
                cx, cy = bx + size / 2, by + size / 2
                mark = self.cross if claims[b] == 0 else self.ring
                mark(
                    cx, cy, size * 0.34, INK[claims[b]], size * 0.1, f"claim {'xo'[claims[b]]}", 0.7
                )
            if forced == b:
                self.add(
                    f'<rect class="forced" x="{bx - 2:g}" y="{by - 2:g}" '
                    f'width="{size + 4}" height="{size + 4}" fill="none" stroke="{FORCED}" '
                    f'stroke-width="{s * 0.12:g}"/>'
                )
        if won_boards:
            ends = sorted(won_boards)
            (x1, y1), (x2, y2) = self._xy(ends[0] * 9 + 4), self._xy(ends[-1] * 9 + 4)
            self.add(
                f'<line class="win-line" x1="{x1 + s / 2:g}" y1="{y1 + s / 2:g}" '
                f'x2="{x2 + s / 2:g}" y2="{y2 + s / 2:g}" stroke="#2E7D32" '
                f'stroke-width="{s * 0.25:g}" stroke-linecap="round" stroke-opacity="0.6"/>'
            )
        self.legend(m + side, estimates)
        return self.document(width, height, f"ultimate: {st}")

    def _won_frame_line(self) -> set[int]:
        from fastttt.kernels import ultimate as K

        st = self.state
        w = st.winner()
        if w is None:
            return set()
        line = next(completed_lines(K.LINES, st.frame_mask(w)), 0)
        return {b for b in range(9) if line >> b & 1}
