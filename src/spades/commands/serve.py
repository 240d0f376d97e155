"""``spades serve``: the web app (lobby, tables, replay viewer) on uvicorn."""

from __future__ import annotations

import click

from spades.errors import SpadesError


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--db",
    "db_url",
    default=None,
    metavar="URL",
    help="Database URL: sqlite:///PATH or postgresql://USER@HOST/DB "
    "(default: an SQLite file in your user data directory).",
)
@click.option("--log-level", default="warning", show_default=True, help="uvicorn log level.")
@click.option(
    "--idle",
    "idle_s",
    default=60.0,
    show_default=True,
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help="A finished table nobody uses leaves memory after this long (it stays in the store).",
)
def command(host: str, port: int, db_url: str | None, log_level: str, idle_s: float) -> None:
    """Serve Spades in the browser: create tables, play with people and bots, replay games."""
    try:
        import uvicorn

        from spades.server.app import create_app
        from spades.server.store import Store
    except ImportError as e:
        raise SpadesError(f"the web extra is not installed ({e.name}): pip install 'spades[web]'") from None
    store = Store(db_url)
    store.migrate()
    app = create_app(store=store, idle_s=idle_s)
    click.echo(f"spades: serving on http://{host}:{port}/ (store: {store.safe_url})", err=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws="websockets-sansio",
        ws_max_size=65536,
        ws_ping_interval=20,
        # State messages are a few kB; compressing each for every seat cost more CPU than it
        # saved, and CPU is what limits how many tables one process serves.
        ws_per_message_deflate=False,
    )
