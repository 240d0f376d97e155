"""``spades replay FILE``: check and score a record; ``--json`` prints record.md's summary,
``--seat`` tells the game as one seat saw it."""

from __future__ import annotations

import json

import click

from spades import record
from spades.i18n import N_, _
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
        _("{seat} is not a seat of this {players}-player game ({names} or 0-{top})").format(
            seat=repr(text), players=players, names=", ".join(_(n) for n in names), top=players - 1
        ),
        param_hint="--seat",
    )


@click.command("replay", help=N_("Check a game record, replay it and print the score after each hand."))
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the documented JSON summary."))
@click.option(
    "--seat",
    metavar="SEAT",
    help=N_(
        "Tell the game as this seat (number or name, e.g. south) saw it: the other player's "
        "draw and others' Blind Nil passes without their cards."
    ),
)
def command(file: str, as_json: bool, seat: str | None) -> None:
    if file == "-":
        text = click.get_text_stream("stdin").read()  # type: ignore[operator,unused-ignore]
        rep = record.loads(text)
    else:
        rep = record.load(file)
    if as_json:
        click.echo(json.dumps(record.summary(rep.game)))
    else:
        view = None if seat is None else seat_of(seat, rep.game.n)
        # Players a record leaves unnamed are called by their seats: in the reader's words.
        names = [_(p) if p == seat_name(i, rep.game.n) else p for i, p in enumerate(rep.players)]
        click.echo(describe(rep.game, names, view))
