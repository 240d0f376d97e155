"""``spades play``: a game in the terminal against three computer players (Textual)."""

from __future__ import annotations

import sys

import click

from spades.bots import check_spec
from spades.errors import SpadesError
from spades.i18n import LANGUAGES, _, choose_language, set_language
from spades.protocol.options import bot_options
from spades.tui.config import make_config


def require_terminal() -> None:
    """The game takes the whole screen and reads keys: without a terminal on both ends it would
    wait forever for keys that never come (``spades play < file``, or in a pipe), so refuse."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        if not sys.stdin.isatty():
            raise SpadesError(
                _(
                    "play needs a terminal (its input is not one): run it in a terminal window; "
                    "for games without one, see 'spades match' or 'spades serve'"
                )
            )
        raise SpadesError(
            _(
                "play needs a terminal (its output is not one): run it in a terminal window; "
                "for games without one, see 'spades match' or 'spades serve'"
            )
        )


@click.command("play")
@click.option("--rules", "rules", metavar="PRESET|JSON", help="A preset name or a JSON object of overrides.")
@click.option("--target", type=int, help="Points that end the game (overrides the rules).")
@click.option("--seed", type=int, help="Seed for the deal and the bots (random if not given).")
@click.option("--seat", metavar="SEAT", help="Your seat: south (default), west, north, east or 0..3.")
@click.option(
    "--bots",
    metavar="SPEC[,SPEC,SPEC]",
    help="Computer players: one spec for all, or one per seat clockwise from your left: "
    "a level (beginner, club, expert; '--bots list' says what each is like) or a bot "
    "(random, heuristic, expert; settings as expert:samples=40).",
)
@click.option(
    "--delay-ms",
    type=click.IntRange(min=0),
    default=400,
    show_default=True,
    help="Pause before each computer move, so you can follow the play.",
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False),
    help="Where to save the game record (default: in your user data folder).",
)
@click.option("--name", default="You", show_default=True, help="Your name in the record.")
@click.option(
    "--resume",
    "--load",
    "resume_path",
    type=click.Path(dir_okay=False),
    help="Continue a game saved on quitting (its record file) where it stopped.",
)
@click.option(
    "--lang",
    metavar="|".join(LANGUAGES),
    help="Language of the game (default: $SPADES_LANG, else the system's, else English).",
)
@bot_options
def command(
    rules: str | None,
    target: int | None,
    seed: int | None,
    seat: str | None,
    bots: str | None,
    delay_ms: int,
    record_path: str | None,
    name: str,
    resume_path: str | None,
    lang: str | None,
) -> None:
    """Play Spades in the terminal: you and three computer players."""
    set_language(choose_language(lang))  # first: a bad --lang is one line, before anything else
    if bots is not None and bots.strip().lower() == "list":
        from spades.tui.config import level_menu

        click.echo("\n".join(level_menu()))
        return
    game = None
    if resume_path is not None:
        given = [
            opt
            for opt, v in (("--rules", rules), ("--target", target), ("--seed", seed), ("--seat", seat))
            if v is not None
        ]
        if given:
            raise SpadesError(
                _("--resume: {options} come from the saved game; leave them out").format(
                    options=", ".join(given)
                )
            )
        from spades.tui.session import resume

        config, game = resume(resume_path, delay_ms=delay_ms, record_path=record_path, bots=bots)
    else:
        config = make_config(
            rules=rules,
            target=target,
            seed=seed,
            seat=seat,
            bots=bots,
            delay_ms=delay_ms,
            record=record_path,
            name=name,
        )
    for spec in sorted(set(config.bots.values())):
        check_spec(spec)  # a bad bot setting is one line now, not an error inside the game screen
    require_terminal()
    from spades.tui.app import SpadesApp  # Textual loads only when the game starts
    from spades.tui.session import Session

    # The bots are built once the table is on screen, in a thread (the expert loads its
    # compiled search: a second after `spades warm`, minutes without it); the screen says
    # "Preparing the computer players…" meanwhile and answers every key.
    app = SpadesApp(config, Session(config, game=game, later=True))
    try:
        app.run()
    finally:
        path = app.session.save()  # again, in case the app stopped on an error
    if path is not None:
        click.echo(_("Game record saved to {path}").format(path=path))
        click.echo(_("Replay it with: spades replay {path}").format(path=path))
        if app.session.observation().winner is None:
            click.echo(_("Continue it with: spades play --resume {path}").format(path=path))
    elif app.session.save_error:
        click.echo(f"spades: {app.session.save_error}", err=True)
