"""``spades bot NAME [KEY=VALUE ...] [--seed N]``: a built-in bot as a protocol program."""

from __future__ import annotations

import logging
import sys

import click

from spades.i18n import N_
from spades.protocol.server import serve


@click.command(
    "bot",
    help=N_(
        "Run bot NAME on stdin/stdout, speaking the bot protocol (docs/bot-protocol.md).\n\n"
        "Settings are KEY=VALUE words (or NAME:KEY=VALUE,...), as elsewhere: `spades bot expert "
        "samples=40 --seed 3`. Seat it anywhere a bot is accepted with `cmd:spades bot NAME`."
    ),
)
@click.argument("name")
@click.argument("settings", nargs=-1)
@click.option("--seed", type=int, default=None, help=N_("Seed of the bot's random choices."))
def command(name: str, settings: tuple[str, ...], seed: int | None) -> None:
    spec = name
    if settings:
        spec += ("," if ":" in name else ":") + ",".join(settings)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="spades bot: %(message)s")
    serve(spec, seed=seed, stdin=sys.stdin.buffer, stdout=sys.stdout.buffer)
