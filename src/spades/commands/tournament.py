"""``spades tournament A B C …``: a duplicate round robin between bots, resumable, parallel."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from spades.errors import SpadesError
from spades.i18n import N_, _, choose_language, ngettext, set_language
from spades.protocol.options import bot_options
from spades.rulestext import parse_rules_text


def _ci(lo: float, hi: float) -> str:
    return f"[{_pm(lo)}, {_pm(hi)}]"


def _pm(x: float) -> str:
    """A signed difference to a tenth; one that rounds to zero is ``0.0``, never ``-0.0``."""
    text = f"{x:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text


def _cell(pair: Any) -> str:
    return f"{_pm(pair.points_per_hand)} {_ci(*pair.points_per_hand_ci95)}"


def report_text(rep: Any) -> str:
    """The cross table and the ratings, as a person reads them."""
    from spades.tournament import Report

    assert isinstance(rep, Report)
    bots = rep.bots
    n_games = rep.games
    lines = [
        _("Tournament: bots {n}, games {games}, rules {rules}, seed {seed}").format(
            n=len(bots), games=n_games, rules=json.dumps(rep.rules.to_spec()), seed=rep.seed
        ),
        "",
        _("Points per hand, row minus column, with 95% intervals:"),
    ]
    label = [f"{i + 1} {b}" for i, b in enumerate(bots)]
    cells = [
        [
            "·"
            if a == b
            else f"{_pm(rep.pair(a, b).points_per_hand)} {_ci(*rep.pair(a, b).points_per_hand_ci95)}"
            for b in bots
        ]
        for a in bots
    ]
    left = max(len(x) for x in label) + 2
    width = max(len(c) for row in cells for c in row) + 2
    lines.append(" " * left + "".join(f"{i + 1:>{width}}" for i in range(len(bots))))
    for name, row in zip(label, cells, strict=True):
        lines.append(f"{name:<{left}}" + "".join(f"{c:>{width}}" for c in row))
    unfinished = sum(p.unfinished for p in rep.pairs)
    if unfinished:
        lines.append(
            ngettext(
                "{n} game was cut at the hand limit and went to the side ahead",
                "{n} games were cut at the hand limit and went to the side ahead",
                unfinished,
            ).format(n=unfinished)
        )
    for spec, n in rep.faults:
        if n:
            lines.append(
                ngettext(
                    "{bot}: {n} decision was made by the fallback bot (the bot failed)",
                    "{bot}: {n} decisions were made by the fallback bot (the bot failed)",
                    n,
                ).format(bot=spec, n=n)
            )
    lines += ["", _("Ratings (OpenSkill; rating = 40 x (mu - 3 sigma)):")]
    heads = ["#", _("bot"), _("rating"), "mu", "sigma", _("games"), _("points per hand")]
    rows = [
        [
            str(k + 1),
            spec,
            str(r.display),
            f"{r.mu:.2f}",
            f"{r.sigma:.2f}",
            str(r.games),
            _pm(rep.mean_points_per_hand(spec)),
        ]
        for k, (spec, r) in enumerate(rep.ratings)
    ]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(heads)]
    for row in [heads, *rows]:
        cols = [row[0].rjust(widths[0]), row[1].ljust(widths[1])] + [
            c.rjust(w) for c, w in zip(row[2:], widths[2:], strict=True)
        ]
        lines.append("  ".join(cols).rstrip())
    if rep.stats:
        lines += ["", _("Play of each bot, over all its seats:")]
        lines += _table(
            [
                _("bot"),
                _("hands"),
                _("bid accuracy"),
                _("mean bid error"),
                _("set rate"),
                _("bags per hand"),
                _("Nil made"),
                _("Blind Nil made"),
            ],
            [
                [
                    spec,
                    str(st.hands),
                    _pct(st.bid_accuracy),
                    _num(st.mean_bid_error),
                    _pct(st.set_rate),
                    _num(st.bags_per_hand),
                    f"{st.nil_made}/{st.nil_bids}",
                    f"{st.blind_nil_made}/{st.blind_nil_bids}",
                ]
                for spec, st in rep.stats
            ],
        )
    return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x * 100:.0f}%"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _table(heads: list[str], rows: list[list[str]]) -> list[str]:
    """Columns: the first left-aligned, the others right-aligned."""
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(heads)]
    out = []
    for row in [heads, *rows]:
        cols = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        out.append("  ".join(cols).rstrip())
    return out


HELP = N_(
    "Play a duplicate round robin between bots; print a cross table and their ratings.\n\n"
    "Each BOT is a spec: random, heuristic, expert, with settings as heuristic:aggression=0.8, "
    "or cmd:PROGRAM for an outside bot. Every record is saved under --out; stopped and run "
    "again, the tournament plays only the games still missing."
)


@click.command("tournament", help=HELP)
@click.argument("bots", nargs=-1, required=True, metavar="BOT BOT [BOT…]")
@click.option("--games", type=int, help=N_("Whole games per pair of bots (default 20)."))
@click.option("--hands", type=int, help=N_("Single hands per pair instead of games (each played twice)."))
@click.option("--seed", type=int, default=0, show_default=True, help=N_("Seed of the deals and the bots."))
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="spades-tournament",
    show_default=True,
    help=N_("Folder of the records; run the same command again to resume."),
)
@click.option("--jobs", "-j", type=int, help=N_("Processes on this machine (default: every core)."))
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="local",
    metavar="[ADDRESS]",
    help=N_(
        "Play on Ray: local (or --ray alone, after the bots) on this machine; "
        "or a cluster's address (auto, HOST:6379, ray://HOST:10001)."
    ),
)
@click.option(
    "--rules", "rules_text", metavar="PRESET|JSON", help=N_("A preset name or a JSON object of overrides.")
)
@click.option("--target", type=int, help=N_("Points that end a game (overrides the rules)."))
@click.option(
    "--max-hands", type=int, default=300, show_default=True, help=N_("Cut a game after this many hands.")
)
@click.option("--stats", "with_stats", is_flag=True, help=N_("Also each bot's bidding and play statistics."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the report as one line of JSON."))
@click.option(
    "--progress/--no-progress", default=None, help=N_("Show a progress bar (default: on a terminal).")
)
@click.option("--lang", metavar="LANG", help=N_("Language of the report: en, it, sl or fr."))
@click.option(
    "--rate-into",
    "rate_url",
    metavar="URL",
    help=N_(
        "Also rate every game in a server's database (its --db URL, or 'default'), so its "
        "leaderboard's bots count these games; a game already rated there is skipped."
    ),
)
@bot_options
def command(
    bots: tuple[str, ...],
    games: int | None,
    hands: int | None,
    seed: int,
    out: str,
    jobs: int | None,
    ray_address: str | None,
    rules_text: str | None,
    target: int | None,
    max_hands: int,
    with_stats: bool,
    as_json: bool,
    progress: bool | None,
    lang: str | None,
    rate_url: str | None,
) -> None:
    """The command's help is ``HELP`` (``spades.cli`` shows it translated)."""
    set_language(choose_language(lang))
    from spades.tournament import Progress, local_runner, ray_runner, run_tournament

    rules = parse_rules_text(rules_text)
    if target is not None:
        rules = rules.replace(target=target)
    if rate_url is not None and rate_url != "default":
        from spades.server.dburl import check_db_url

        try:  # a bad URL is refused before the games, not after
            check_db_url(rate_url)
        except SpadesError as e:
            raise SpadesError(f"--rate-into: {e}") from None
    if jobs is not None and jobs < 1:
        raise SpadesError(_("{option} {value}: must be at least 1").format(option="--jobs", value=jobs))
    if ray_address is not None and ray_address not in ("local", "auto") and ":" not in ray_address:
        raise SpadesError(
            _(
                "--ray {address}: not a Ray address (auto, HOST:PORT, ray://HOST:PORT); "
                "write --ray after the bots, or --ray local"
            ).format(address=ray_address)
        )
    if jobs is not None and ray_address is not None:
        raise SpadesError(_("give --jobs or --ray, not both"))
    runner = (
        local_runner(jobs)
        if ray_address is None
        else ray_runner(None if ray_address == "local" else ray_address)
    )
    show = sys.stderr.isatty() if progress is None else progress
    bar: Any = None
    tid: Any = None

    def started(p: Progress) -> None:
        nonlocal bar, tid
        if p.earlier:
            click.echo(
                ngettext(
                    "Resuming: {done} of {total} games were played by an earlier run",
                    "Resuming: {done} of {total} games were played by an earlier run",
                    p.earlier,
                ).format(done=p.earlier, total=p.total),
                err=True,
            )
        if show and p.total > p.earlier:
            from spades.commands._progress import progress_bar

            bar = progress_bar(auto_refresh=False)  # no refresh thread while workers fork
            bar.start()
            tid = bar.add_task(_("tournament"), total=p.total, completed=p.earlier)

    def tick(_path: str) -> None:
        if bar is not None:
            bar.advance(tid)
            bar.refresh()

    on_game: Callable[[str], None] = tick
    try:
        rep = run_tournament(
            list(bots),
            rules,
            out=out,
            games=games,
            hands=hands,
            seed=seed,
            max_hands=max_hands,
            runner=runner,
            on_start=started,
            on_game=on_game,
            stats=with_stats,
        )
    finally:
        if bar is not None:
            bar.stop()
    click.echo(json.dumps(rep.to_dict()) if as_json else report_text(rep))
    click.echo(_("Records in {out}").format(out=out), err=True)
    if rate_url is not None:
        from spades.server.ratefeed import rate_into, tournament_results

        results = tournament_results(
            list(bots), rules, out=out, games=games, hands=hands, seed=seed, max_hands=max_hands
        )
        new = rate_into(rate_url, results)
        click.echo(
            _("Rated {new} games into the server's database ({old} were rated there before)").format(
                new=new, old=len(results) - new
            ),
            err=True,
        )
