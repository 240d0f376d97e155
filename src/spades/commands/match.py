"""``spades match A B``: pit two bots against each other in duplicate, in parallel."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from spades.errors import SpadesError
from spades.i18n import N_, _
from spades.protocol.options import bot_options
from spades.rulestext import parse_rules_text as parse_rules


def _fmt_ci(ci: list[float], pct: bool = False) -> str:
    if pct:
        return f"[{ci[0] * 100:.1f}%, {ci[1] * 100:.1f}%]"
    return f"[{ci[0]:+.1f}, {ci[1]:+.1f}]"


def _duplicate_note(rep: dict[str, Any]) -> str:
    """Why there are twice the games asked for: in duplicate each deal is played twice."""
    if not rep["duplicate"] or "deals" not in rep:
        return ""
    single = rep["games"] == rep["hands"]
    if rep.get("players") == 3:
        if single:
            return _(" (duplicate: {n} deals, each played three times, A's seat rotating)").format(
                n=rep["deals"]
            )
        return _(" (duplicate: {n} deal sequences, each played three times, A's seat rotating)").format(
            n=rep["deals"]
        )
    if single:
        return _(" (duplicate: {n} deals, each played twice with the sides swapped)").format(n=rep["deals"])
    return _(" (duplicate: {n} deal sequences, each played twice with the sides swapped)").format(
        n=rep["deals"]
    )


def report_text(rep: dict[str, Any]) -> str:
    """The readable report."""
    a, b = rep["a"], rep["b"]
    sides = rep["sides"]
    head = _("A = {a}   B = {b}   rules {rules}   seed {seed}").format(
        a=a, b=b, rules=json.dumps(rep["rules"]), seed=rep["seed"]
    )
    played = _("games {games}, hands {hands}").format(
        games=rep["games"], hands=rep["hands"]
    ) + _duplicate_note(rep)
    if rep["unfinished"]:
        played += _(", {n} cut at the hand limit").format(n=rep["unfinished"])
    win = _("A win rate")
    pph = _("points per hand A-B")
    first = max(len(win), len(pph)) + 1
    lines = [
        head + (_("   duplicate") if rep["duplicate"] else ""),
        played,
        f"{win:{first}}{rep['a_win_rate'] * 100:.1f}%  95% {_fmt_ci(rep['a_win_rate_ci95'], True)}",
        f"{pph:{first}}{rep['points_per_hand']:+.1f}  95% {_fmt_ci(rep['points_per_hand_ci95'])}",
        "",
    ]
    rows = [
        (N_("points per hand"), "points_per_hand", "{:+.1f}"),
        (N_("bid accuracy |t-bid|"), "bid_accuracy", "{:.2f}"),
        (N_("set rate"), "set_rate", "{:.1%}"),
        (N_("bags per hand"), "bags_per_hand", "{:.2f}"),
        (N_("nil bids"), "nil_bids", "{}"),
        (N_("nil made"), "nil_made", "{}"),
        (N_("  of which blind: bid"), "blind_nil_bids", "{}"),
        (N_("  of which blind: made"), "blind_nil_made", "{}"),
        (N_("opponents' nils broken"), "opp_nils_broken", "{}"),
        (N_("faults"), "faults", "{}"),
        (N_("decisions"), "decisions", "{}"),
    ]
    ms = rep["ms_per_decision"]
    median, p99 = _("ms/decision median"), _("ms/decision p99")
    width = max(24, len(median) + 1, len(p99) + 1, *(len(_(label)) + 1 for label, _k, _f in rows))
    lines.append(f"{'':{width}}{'A':>12}{'B':>12}")
    for label, key, fmt in rows:
        lines.append(f"{_(label):{width}}{fmt.format(sides['a'][key]):>12}{fmt.format(sides['b'][key]):>12}")
    lines.append(f"{median:{width}}{ms['a']['median']:>12.2f}{ms['b']['median']:>12.2f}")
    lines.append(f"{p99:{width}}{ms['a']['p99']:>12.2f}{ms['b']['p99']:>12.2f}")
    return "\n".join(lines)


@click.command(
    "match",
    help=N_(
        "Play bot A's side (seats 0 and 2) against bot B's (seats 1 and 3) and report who is stronger.\n\n"
        "With three players A holds one seat against two B's, and in duplicate each deal is played "
        "three times with A's seat rotating.\n\n"
        "A and B are bot specs: random, heuristic, expert, with settings as expert:samples=20, or "
        "cmd:PROGRAM for an outside bot."
    ),
)
@click.argument("a")
@click.argument("b")
@click.option("--games", type=int, help=N_("Whole games to play (default 20)."))
@click.option(
    "--hands", type=int, help=N_("Deals to play as single hands from 0-0 (each twice in duplicate).")
)
@click.option(
    "--duplicate/--no-duplicate",
    default=True,
    show_default=True,
    help=N_("Replay each deal sequence with the sides swapped."),
)
@click.option("--seed", type=int, default=0, show_default=True, help=N_("Seed of the deals and the bots."))
@click.option("--jobs", "-j", type=int, help=N_("Processes to use (default: every core)."))
@click.option(
    "--rules", "rules_text", metavar="PRESET|JSON", help=N_("A preset name or a JSON object of overrides.")
)
@click.option("--target", type=int, help=N_("Points that end a game (overrides the rules)."))
@click.option(
    "--out", type=click.Path(file_okay=False), help=N_("Save every game as a record in this folder.")
)
@click.option(
    "--max-hands", type=int, default=300, show_default=True, help=N_("Cut a game after this many hands.")
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the report as one line of JSON."))
@click.option(
    "--progress/--no-progress", default=None, help=N_("Show a progress bar (default: on a terminal).")
)
@bot_options
def command(
    a: str,
    b: str,
    games: int | None,
    hands: int | None,
    duplicate: bool,
    seed: int,
    jobs: int | None,
    rules_text: str | None,
    target: int | None,
    out: str | None,
    max_hands: int,
    as_json: bool,
    progress: bool | None,
) -> None:
    from spades.match import run_match, tasks_for

    rules = parse_rules(rules_text)
    if target is not None:
        rules = rules.replace(target=target)
    if games is not None and hands is not None:
        raise SpadesError(N_("give --games or --hands, not both"))
    if games is None and hands is None:
        games = 20
    if jobs is not None and jobs < 1:
        raise SpadesError(N_("{option} {value}: must be at least 1"), option="--jobs", value=jobs)
    if max_hands < 1:
        raise SpadesError(N_("{option} {value}: must be at least 1"), option="--max-hands", value=max_hands)
    total = len(tasks_for(a, b, rules, games=games, hands=hands, duplicate=duplicate, seed=seed))
    show = sys.stderr.isatty() if progress is None else progress

    def run(on_done: Callable[[object], None] | None) -> dict[str, Any]:
        return run_match(
            a,
            b,
            rules,
            games=games,
            hands=hands,
            duplicate=duplicate,
            seed=seed,
            jobs=jobs,
            out=out,
            max_hands=max_hands,
            on_done=on_done,
        )

    if show:
        from spades.commands._progress import progress_bar

        with progress_bar(auto_refresh=False) as bar:  # no refresh thread while workers fork
            tid = bar.add_task(_("{a} vs {b}").format(a=a, b=b), total=total)

            def tick(_result: object) -> None:
                bar.advance(tid)
                bar.refresh()

            rep = run(tick)
    else:
        rep = run(None)
    click.echo(json.dumps(rep) if as_json else report_text(rep))
