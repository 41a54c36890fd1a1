"""The ``fastttt`` command: one console script, subcommands loaded only when used.

Each subcommand lives in its own module so that ``fastttt solve`` does not import the play
loop or the Ultimate engine (start-up time is part of what users feel).
"""

from __future__ import annotations

import importlib

import click

# name -> "module:attribute" of a click command
COMMANDS = {
    "solve": "fastttt.cli.solve:solve",
    "play": "fastttt.cli.play:play",
    "match": "fastttt.cli.play:match",
    "bench": "fastttt.cli.bench:bench",
    "verify": "fastttt.cli.verify:verify",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fastttt")
def main() -> None:
    """Solve and play tic-tac-toe, m,n,k-games, Connect-k and Ultimate tic-tac-toe."""
