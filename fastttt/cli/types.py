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


class SchedulerAddress(click.ParamType):
    """A Dask scheduler's address, read as :func:`fastttt.tables.distributed.check_scheduler`
    reads it when the command line is parsed: a bad or empty one is refused before any work
    (``Error: --scheduler 'x': ...``), whichever command takes it."""

    name = "address"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        from fastttt.errors import FastTTTError
        from fastttt.tables.distributed import check_scheduler

        try:
            return check_scheduler(value)
        except FastTTTError as err:
            raise click.UsageError(str(err), ctx) from None
