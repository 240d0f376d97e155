"""``spades replay FILE``: check and score a record; ``--json`` prints record.md's summary,
``--seat`` tells the game as one seat saw it."""

from __future__ import annotations

import json

import click

from spades import record
from spades.report import describe
from spades.state import seat_name


def seat_of(text: str, players: int) -> int:
    """A seat by number (0 = the first seat) or by name (``south``, ``North``...)."""
    names = [seat_name(s, players) for s in range(players)]
    if text.isdigit() and int(text) < players:
        return int(text)
    for s, name in enumerate(names):
        if text.lower() == name.lower():
            return s
    raise click.BadParameter(
        f"{text!r} is not a seat of this {players}-player game ({', '.join(names)} or 0-{players - 1})",
        param_hint="--seat",
    )


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the documented JSON summary.")
@click.option(
    "--seat",
    metavar="SEAT",
    help="Tell the game as this seat (number or name, e.g. south) saw it: the other player's "
    "draw and others' Blind Nil passes without their cards.",
)
def command(file: str, as_json: bool, seat: str | None) -> None:
    """Check a game record, replay it and print the score after each hand."""
    if file == "-":
        text = click.get_text_stream("stdin").read()  # type: ignore[operator,unused-ignore]
        rep = record.loads(text)
    else:
        rep = record.load(file)
    if as_json:
        click.echo(json.dumps(record.summary(rep.game)))
    else:
        view = None if seat is None else seat_of(seat, rep.game.n)
        click.echo(describe(rep.game, rep.players, view))
