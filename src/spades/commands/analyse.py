"""``spades analyse RECORD``: the double-dummy value of every card played, and of the best card."""

from __future__ import annotations

import json
import sys

import click

from spades import record
from spades.cards import card_text
from spades.i18n import N_, _, ngettext
from spades.search.analysis import HandAnalysis, analyse_game
from spades.state import seat_name


def describe(hands: list[HandAnalysis], players: tuple[str, ...]) -> str:
    lines: list[str] = []
    for hand in hands:
        points = hand.unit == "points"
        lines.append((_("Hand {n} (by the hand's score)") if points else _("Hand {n}")).format(n=hand.number))
        mistakes = [0, 0, 0, 0]
        for p in hand.plays:
            seat = _(seat_name(p.seat))
            who = f"{seat} ({players[p.seat]})" if players[p.seat] != seat_name(p.seat) else seat
            figure = (
                _("side nets {value}").format(value=f"{p.value:+5d}")
                if points
                else _("side takes {value}").format(value=f"{p.value:2d}")
            )
            note = ""
            if p.loss > 0:
                mistakes[p.seat] += p.loss
                best = " ".join(card_text(c) for c in p.best_cards)
                if points:
                    cost = ngettext(
                        "  <- costs {n} point; best {best} ({value})",
                        "  <- costs {n} points; best {best} ({value})",
                        p.loss,
                    )
                else:
                    cost = ngettext(
                        "  <- costs {n} trick; best {best} ({value})",
                        "  <- costs {n} tricks; best {best} ({value})",
                        p.loss,
                    )
                note = cost.format(n=p.loss, best=best, value=f"{p.best:+d}" if points else f"{p.best}")
            trick = _("trick {n}").format(n=f"{p.trick:2d}")
            lines.append(f"  {trick}  {who:<18} {card_text(p.card)}  {figure}{note}")
        cost = ", ".join(f"{_(seat_name(s))} {mistakes[s]}" for s in range(4))
        thrown = (
            _("points thrown away (double dummy): {cost}")
            if points
            else _("tricks thrown away (double dummy): {cost}")
        )
        lines.append("  " + thrown.format(cost=cost))
    return "\n".join(lines)


@click.command(
    "analyse",
    help=N_(
        "Show, for every card played in a record, its double-dummy value and the best card's.\n\n"
        "A card's value is the number of tricks the player's side ends the hand with if everyone "
        "plays perfectly (all hands open) after it; with --score, the side's hand points minus the "
        "opponents' for the bids made and the score before the hand."
    ),
)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the analysis as JSON."))
@click.option(
    "--score",
    is_flag=True,
    help=N_("Value cards by the hand's Spades score (bids, Nil, bags) rather than by tricks."),
)
@click.option(
    "--progress/--no-progress", default=None, help=N_("Show a progress bar (default: on a terminal).")
)
def command(file: str, as_json: bool, score: bool, progress: bool | None) -> None:
    rep = record.loads(sys.stdin.read()) if file == "-" else record.load(file)
    show = sys.stderr.isatty() if progress is None else progress
    if show:
        from spades.commands._progress import progress_bar

        total = sum(len(log.plays) for log in rep.game.logs)
        with progress_bar() as bar:
            tid = bar.add_task(_("analysing"), total=total)
            result = analyse_game(rep.game, score=score, on_play=lambda: bar.advance(tid), jobs=None)
    else:
        result = analyse_game(rep.game, score=score, jobs=None)
    if as_json:
        click.echo(json.dumps({"hands": [h.to_json() for h in result]}))
    else:
        click.echo(describe(result, rep.players))
