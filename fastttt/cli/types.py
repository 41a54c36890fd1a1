"""Click parameter types the commands share: every float option refuses NaN and infinities,
every path option refuses the empty path."""

from __future__ import annotations

import math
from typing import Any

import click


class FiniteFloat(click.FloatRange):
    """A :class:`click.FloatRange` that also refuses NaN and the infinities (NaN passes every
    range comparison)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


class NonEmptyPath(click.Path):
    """A :class:`click.Path` that refuses ``''`` (which would name the current folder, or
    nothing)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        if isinstance(value, str) and not value.strip():
            self.fail("the path is empty", param, ctx)
        return super().convert(value, param, ctx)
