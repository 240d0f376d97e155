"""``spades replay FILE``: check and score a record; ``--json`` prints record.md's summary."""

from __future__ import annotations

import json

import click

from spades import record
from spades.report import describe


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the documented JSON summary.")
def command(file: str, as_json: bool) -> None:
    """Check a game record, replay it and print the score after each hand."""
    if file == "-":
        text = click.get_text_stream("stdin").read()  # type: ignore[operator,unused-ignore]
        rep = record.loads(text)
    else:
        rep = record.load(file)
    if as_json:
        click.echo(json.dumps(record.summary(rep.game)))
    else:
        click.echo(describe(rep.game, rep.players))
