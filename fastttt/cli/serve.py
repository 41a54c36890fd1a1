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
    sock = _listen(host, port)
    bound = sock.getsockname()[1]  # the free port the system chose when port is 0
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"fastttt explorer on http://{shown}:{bound}/  (Ctrl-C to stop)", err=True)
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
    server.run(sockets=[sock])


def _listen(host: str, port: int):
    """A socket bound to ``host:port`` (IPv6 where the host is an IPv6 address), or a one-line
    error that names the address and why it cannot be used."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {error.strerror or error}"
        ) from None
    return sock
