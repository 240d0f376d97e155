"""``spades serve``: the web app (lobby, tables, replay viewer) on uvicorn.

One process with SQLite is the embedded default. ``--workers N --redis URL`` (or several
``spades serve --redis URL`` started anywhere on the same database) makes one service of many
processes: any of them answers any request for any table (``server/cluster.py``).
"""

from __future__ import annotations

import json
import os
from typing import Any

import click

from spades.errors import SpadesError, Text
from spades.i18n import N_, _

CONFIG_ENV = "SPADES_SERVE_CONFIG"


@click.command(
    "serve", help=N_("Serve Spades in the browser: create tables, play with people and bots, replay games.")
)
@click.option("--host", default="127.0.0.1", show_default=True, help=N_("Address to listen on."))
@click.option("--port", default=8000, show_default=True, type=int, help=N_("Port to listen on."))
@click.option(
    "--db",
    "db_url",
    default=None,
    metavar="URL",
    help=N_(
        "Database URL: sqlite:///PATH or postgresql://USER@HOST/DB "
        "(default: an SQLite file in your user data directory)."
    ),
)
@click.option(
    "--redis",
    "redis_url",
    default=None,
    metavar="URL",
    help=N_("Redis URL (redis://HOST:6379/0): share the database with other spades servers as one service."),
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help=N_("Server processes on this machine (more than one needs --redis)."),
)
@click.option("--log-level", default="warning", show_default=True, help=N_("uvicorn log level."))
@click.option(
    "--idle",
    "idle_s",
    default=60.0,
    show_default=True,
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help=N_("A finished table nobody uses leaves memory after this long (it stays in the store)."),
)
@click.option(
    "--waiting-ttl",
    default=3600.0,
    show_default=True,
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help=N_("A table still waiting for people this long after its creation expires (0: never)."),
)
@click.option(
    "--max-tables",
    default=5000,
    show_default=True,
    type=click.IntRange(min=1),
    help=N_("Live tables (waiting or playing) the whole service holds at most."),
)
@click.option(
    "--tables-per-address",
    default=30,
    show_default=True,
    type=click.IntRange(min=0),
    help=N_("Tables one client address may create per hour (0: no limit)."),
)
@click.option(
    "--sockets-per-address",
    default=64,
    show_default=True,
    type=click.IntRange(min=0),
    help=N_("Websockets one client address may hold open on each worker (0: no limit)."),
)
@click.option(
    "--trusted-proxy",
    "trusted_proxy",
    default=None,
    metavar="ADDRESSES",
    help=N_(
        "Comma-separated addresses of reverse proxies whose X-Forwarded-For names the client "
        "(the per-address limits then count real clients, not the proxy)."
    ),
)
@click.option(
    "--header-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help=N_("Close a connection whose request headers are not in after this long."),
)
@click.option(
    "--body-timeout",
    default=30.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help=N_("Close a connection whose request body is not in this long after its headers."),
)
@click.option(
    "--connections-per-address",
    default=256,
    show_default=True,
    type=click.IntRange(min=0),
    help=N_(
        "Connections (HTTP and websockets) one client address may hold open on each worker "
        "(0: no limit; trusted proxies are exempt)."
    ),
)
@click.option(
    "--bot-processes",
    default=1,
    show_default=True,
    type=click.IntRange(min=0),
    help=N_("Processes per worker for expert bots, hints and replays (0: threads, for tests)."),
)
def command(
    host: str,
    port: int,
    db_url: str | None,
    redis_url: str | None,
    workers: int,
    log_level: str,
    idle_s: float,
    waiting_ttl: float,
    max_tables: int,
    tables_per_address: int,
    sockets_per_address: int,
    trusted_proxy: str | None,
    header_timeout: float,
    body_timeout: float,
    connections_per_address: int,
    bot_processes: int,
) -> None:
    try:
        import uvicorn

        from spades.server.store import Store
    except ImportError as e:
        raise SpadesError(
            N_("the web extra is not installed ({module}): pip install 'spades[web]'"), module=str(e.name)
        ) from None
    if workers > 1 and redis_url is None:
        raise SpadesError(N_("--workers above 1 needs --redis: the workers share tables through Redis"))
    store = Store(db_url)
    try:
        store.migrate()
        _check_neighbours(store, clustered=redis_url is not None)
    finally:
        store.close()
    url = store.url
    config = {
        "db_url": url,
        "redis_url": redis_url,
        "idle_s": idle_s,
        "waiting_ttl": waiting_ttl or None,
        "max_tables": max_tables,
        "tables_per_address": tables_per_address,
        "sockets_per_address": sockets_per_address,
        "bot_processes": bot_processes,
    }
    os.environ[CONFIG_ENV] = json.dumps(config)
    mode = _("{n} workers, Redis {url}").format(n=workers, url=redis_url) if redis_url else _("one process")
    click.echo(
        _("spades: serving on {url} (store: {store}; {mode})").format(
            url=f"http://{host}:{port}/", store=Store.safe(url), mode=mode
        ),
        err=True,
    )
    extra: dict[str, Any] = {}
    if trusted_proxy:
        extra.update(proxy_headers=True, forwarded_allow_ips=trusted_proxy)
    else:
        extra.update(proxy_headers=False)
    from spades.server.httpguard import uvicorn_options

    extra.update(
        uvicorn_options(
            header_timeout=header_timeout,
            body_timeout=body_timeout,
            per_address=connections_per_address or None,
            exempt=trusted_proxy or (),
        )
    )
    uvicorn.run(
        "spades.commands.serve:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        ws="websockets-sansio",
        ws_max_size=65536,
        ws_ping_interval=20,
        # State messages are a few kB; compressing each for every seat cost more CPU than it
        # saved, and CPU is what limits how many tables one process serves.
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=5,
        **extra,
    )


def _check_neighbours(store: Any, *, clustered: bool) -> None:
    """Refuse, in one line, to start beside a server that does not share: a server without
    Redis owns every table of its database, so a second one would fight it over each write."""
    from spades.server.cluster import live_others
    from spades.server.manager import LEASE_TTL

    others = live_others(store.workers(), "", LEASE_TTL)
    blocking = others if not clustered else [w for w in others if w.mode == "solo"]
    if blocking:
        w = blocking[0]
        how = (
            N_("stop it first")
            if clustered
            else N_("stop it, or give every server --redis to share the database")
        )
        kind = N_("without --redis") if w.mode == "solo" else N_("with --redis")
        raise SpadesError(
            N_("another spades server ({kind}, on {host}, pid {pid}) is using this database: {how}"),
            kind=Text(kind),
            host=str(w.host),
            pid=w.pid,
            how=Text(how),
        )


def app_from_env() -> Any:
    """The app of one worker process, from the settings ``spades serve`` put in the environment
    (uvicorn starts each worker by importing this factory)."""
    from spades.server.app import create_app
    from spades.server.compute import make_pool
    from spades.server.limits import AddressLimits
    from spades.server.store import Store

    config = json.loads(os.environ[CONFIG_ENV])
    processes = int(config["bot_processes"])
    pool = make_pool(processes, warm=("expert",)) if processes > 0 else None
    limits = AddressLimits(
        create_per_window=int(config["tables_per_address"]), sockets=int(config["sockets_per_address"])
    )
    return create_app(
        store=Store(config["db_url"]),
        idle_s=float(config["idle_s"]),
        waiting_ttl=config["waiting_ttl"],
        redis_url=config["redis_url"],
        limits=limits,
        pool=pool,
        max_live=int(config.get("max_tables", 5000)),
    )
