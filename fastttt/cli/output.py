"""Machine output: every ``--json`` object of every subcommand, one schema.

Each object starts with ``"schema"`` (:data:`SCHEMA_VERSION`, raised when a field changes
meaning or goes away; new optional fields keep it) and ``"command"`` (the subcommand), then the
command's fields, as ``fastttt/data/output.schema.json`` (a JSON Schema document, draft
2020-12) describes them. Moves in JSON are people's text, as the play screen writes them
(:mod:`fastttt.games.movetext`). ``solve --stdin --json`` writes JSON Lines: one object per input
line.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import click

SCHEMA_VERSION = 1
SCHEMA_FILE = "output.schema.json"


def document(command: str, fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` behind the schema version and the command name."""
    return {"schema": SCHEMA_VERSION, "command": command, **fields}


def emit(command: str, fields: dict[str, Any], *, indent: int | None = None) -> None:
    """Print ``fields`` as one JSON object of ``command`` (one line unless ``indent``)."""
    click.echo(json.dumps(document(command, fields), indent=indent))


def load_schema() -> dict[str, Any]:
    """The JSON Schema document of every subcommand's ``--json`` output."""
    text = resources.files("fastttt").joinpath(f"data/{SCHEMA_FILE}").read_text("utf-8")
    return json.loads(text)
