"""``spades analyse RECORD``: the double-dummy value of every card played, and of the best card."""

from __future__ import annotations

import json
import sys

import click

from spades import record
from spades.cards import card_text
from spades.search.analysis import HandAnalysis, analyse_game
from spades.state import seat_name


def describe(hands: list[HandAnalysis], players: tuple[str, ...]) -> str:
    lines: list[str] = []
    for hand in hands:
        points = hand.unit == "points"
        lines.append(f"Hand {hand.number}" + (" (by the hand's score)" if points else ""))
        mistakes = [0, 0, 0, 0]
        for p in hand.plays:
            who = (
                f"{seat_name(p.seat)} ({players[p.seat]})"
                if players[p.seat] != seat_name(p.seat)
                else (seat_name(p.seat))
            )
            figure = f"side nets {p.value:+5d}" if points else f"side takes {p.value:2d}"
            note = ""
            if p.loss > 0:
                mistakes[p.seat] += p.loss
                best = " ".join(card_text(c) for c in p.best_cards)
                unit = ("point" if points else "trick") + ("s" if p.loss > 1 else "")
                best_figure = f"{p.best:+d}" if points else f"{p.best}"
                note = f"  <- costs {p.loss} {unit}; best {best} ({best_figure})"
            lines.append(f"  trick {p.trick:2d}  {who:<18} {card_text(p.card)}  {figure}{note}")
        cost = ", ".join(f"{seat_name(s)} {mistakes[s]}" for s in range(4))
        lines.append(f"  {'points' if points else 'tricks'} thrown away (double dummy): {cost}")
    return "\n".join(lines)


@click.command("analyse")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option(
    "--score",
    is_flag=True,
    help="Value cards by the hand's Spades score (bids, Nil, bags) rather than by tricks.",
)
@click.option("--progress/--no-progress", default=None, help="Show a progress bar (default: on a terminal).")
def command(file: str, as_json: bool, score: bool, progress: bool | None) -> None:
    """Show, for every card played in a record, its double-dummy value and the best card's.

    A card's value is the number of tricks the player's side ends the hand with if everyone
    plays perfectly (all hands open) after it; with --score, the side's hand points minus the
    opponents' for the bids made and the score before the hand."""
    rep = record.loads(sys.stdin.read()) if file == "-" else record.load(file)
    show = sys.stderr.isatty() if progress is None else progress
    if show:
        from spades.commands._progress import progress_bar

        total = sum(len(log.plays) for log in rep.game.logs)
        with progress_bar() as bar:
            tid = bar.add_task("analysing", total=total)
            result = analyse_game(rep.game, score=score, on_play=lambda: bar.advance(tid))
    else:
        result = analyse_game(rep.game, score=score)
    if as_json:
        click.echo(json.dumps({"hands": [h.to_json() for h in result]}))
    else:
        click.echo(describe(result, rep.players))
