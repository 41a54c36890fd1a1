"""The ``fastttt`` command: one console script, subcommands loaded only when used.

Each subcommand lives in its own module so that ``fastttt solve`` does not import the play
loop or the Ultimate engine (start-up time is part of what users feel).

Ctrl-C anywhere ends the command with one line on stderr, ``Interrupted.``, and exit code 130
(kernels stop within a fraction of a second: :mod:`fastttt.interrupt`; files being written
are removed, never left half-written).
"""

from __future__ import annotations

import difflib
import importlib
import sys

import click

from fastttt import interrupt
from fastttt.errors import FastTTTError

# name -> ("module:attribute" of a click command, one-line help shown by ``fastttt --help``)
COMMANDS = {
    "solve": ("fastttt.cli.solve:solve", "Solve a board: value and depth of every position."),
    "play": ("fastttt.cli.play:play", "Play a game in the terminal, against people or engines."),
    "match": ("fastttt.cli.play:match", "Engine against engine over many games."),
    "count": (
        "fastttt.cli.count:count",
        "Positions after each ply: the forward pass alone, in bounded memory.",
    ),
    "bench": ("fastttt.cli.bench:bench", "Deterministic search bench: node count and time."),
    "verify": ("fastttt.cli.verify:verify", "Check the solver against the known facts file."),
    "book": ("fastttt.cli.book:book", "Opening books: build, and probe exact scores."),
    "proof": ("fastttt.cli.proof:proof", "Proof files: prove a value, check it on plain rules."),
    "render": (
        "fastttt.cli.render:render",
        "Draw a position as SVG or PNG, optionally with move values.",
    ),
    "serve": (
        "fastttt.cli.serve:serve",
        "Local web explorer: click to play, moves coloured by value.",
    ),
    "prove": (
        "fastttt.cli.prove:prove",
        "Ultimate tic-tac-toe by proof-number search: values and checkable proofs.",
    ),
}


INTERRUPTED_EXIT = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C


class _Interrupted(Exception):
    """Ctrl-C carried past click, which would print a blank line and ``Aborted.``."""


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module_name, attr = COMMANDS[cmd_name][0].split(":")
        return getattr(importlib.import_module(module_name), attr)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """Like click's, but an unknown command names the closest one and lists them all."""
        name = args[0]
        if name in COMMANDS or name.startswith("-"):
            return super().resolve_command(ctx, args)
        close = difflib.get_close_matches(name.lower(), sorted(COMMANDS), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        ctx.fail(f"no such command {name!r}{hint}; commands: {', '.join(sorted(COMMANDS))}")

    def invoke(self, ctx: click.Context):
        sigints = interrupt.sigint_count()
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as err:
            raise _Interrupted from err
        except click.ClickException:
            raise
        except FastTTTError as err:  # a refusal from anywhere below: one line, exit 1
            if interrupt.sigint_count() > sigints:
                raise _Interrupted from err
            raise click.ClickException(str(err)) from None
        except Exception as err:
            # Ctrl-C inside a library's own callback (Numba compiling a kernel on the first
            # run) surfaces as that library's error, not as KeyboardInterrupt
            if interrupt.sigint_count() > sigints:
                raise _Interrupted from err
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # From the static table: listing commands must not import them all.
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][1]) for name in sorted(COMMANDS)])

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Like click's, but a usage error is one line (``Error: ...``), exit code 2, and Ctrl-C
        or SIGTERM one line (``Interrupted.``), exit code 130."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        interrupt.watch()
        interrupt.stop_on_terminate()
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as err:
            click.echo(err.format_message(), err=True)
            sys.exit(err.exit_code)
        except click.ClickException as err:
            click.echo(f"Error: {err.format_message()}", err=True)
            sys.exit(err.exit_code)
        except _Interrupted:
            if sys.stderr.isatty():
                click.echo(err=True)  # end the line where the terminal echoed ^C
            click.echo("Interrupted.", err=True)
            sys.exit(INTERRUPTED_EXIT)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(INTERRUPTED_EXIT)
        sys.exit(result if isinstance(result, int) else 0)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fastttt")
def main() -> None:
    """Solve and play tic-tac-toe, m,n,k-games, Connect-k and Ultimate tic-tac-toe."""
