"""Named bot levels: what a person picks from a menu ("Beginner", "Club player", "Expert").

A level is data, not a class: a name, the bot spec it plays (a built-in bot and its
settings) and the words a menu shows. ``make_bot("club")`` builds the spec, and settings
given after a colon (``beginner:mistakes=0.1``) override the level's. Ratings key a bot by
its spec as written (``bot:club``), so a level keeps one rating whatever it plays on, and a
menu, a record and a leaderboard all say the same short name.

Why levels rather than settings in the menu: people choose an opponent by how hard it is to
beat, not by ``aggression=0.8``; and the levels' order is measured (``docs/bots.md``: each
level beats the one below it in duplicate), so the names promise something true.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.errors import N_


@dataclass(frozen=True, slots=True)
class Level:
    """A named level. ``title`` and ``about`` are message ids (``spades.i18n``)."""

    name: str
    spec: str
    """The bot and settings it plays: ``heuristic:mistakes=0.3,blind_nil=false``."""
    title: str
    about: str

    @property
    def bot(self) -> str:
        """The built-in bot the level plays (the spec's name)."""
        return self.spec.partition(":")[0]


LEVELS: tuple[Level, ...] = (
    Level(
        "beginner",
        "heuristic:mistakes=0.3,nil=false,blind_nil=false",
        N_("Beginner"),
        N_("Knows the rules and the basics; often plays the wrong card and never bids Nil."),
    ),
    Level(
        "club",
        "heuristic",
        N_("Club player"),
        N_("Counts cards, covers a partner's Nil and bids like a careful club player."),
    ),
    Level(
        "expert",
        "expert",
        N_("Expert"),
        N_("Searches the hidden hands before every card; the strongest, and a little slower."),
    ),
)
"""Weakest first; each beats the one before it (measured in ``docs/bots.md``)."""

BY_NAME: dict[str, Level] = {level.name: level for level in LEVELS}


def level_of(name: str) -> Level | None:
    """The level called ``name`` (a bare name, no settings), or ``None``."""
    return BY_NAME.get(name.strip())


def offered(available: set[str] | frozenset[str]) -> list[str]:
    """The level names a menu offers when the built-in bots ``available`` exist in this build
    (the expert level only where the expert bot is), weakest first."""
    return [level.name for level in LEVELS if level.bot in available]


def levels_on(*bots: str) -> frozenset[str]:
    """Names of the levels that play one of ``bots`` (for lists like the server's fast bots)."""
    return frozenset(level.name for level in LEVELS if level.bot in bots)


__all__ = ["BY_NAME", "LEVELS", "Level", "level_of", "levels_on", "offered"]
