"""``fastttt serve``: the local web explorer (:mod:`fastttt.views.web`), on 127.0.0.1 by default."""

from __future__ import annotations

import click

WEB_EXTRA = "fastttt serve needs the web extra: pip install 'fastttt[web]' (Starlette, uvicorn)"


@click.command()
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="TCP port (0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to listen on; anything but localhost exposes the explorer to your network.",
)
def serve(port: int, host: str) -> None:
    """Explore games in the browser: click to play, every move coloured by its value."""
    try:
        import uvicorn

        from fastttt.views.web.app import create_app
    except ImportError:
        raise click.ClickException(WEB_EXTRA) from None
    click.echo(f"fastttt explorer on http://{host}:{port}/  (Ctrl-C to stop)", err=True)
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
