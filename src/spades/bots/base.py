"""The bot interface: a computer player sees its seat's ``Observation`` and nothing else.

Bots never receive the ``Game``; the driver (``spades.driver``), the server, the terminal UI
and the protocol bridge hand them observations and the list of legal actions, so a bot cannot
cheat and we can say so to the people it plays with.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from spades.actions import Action
from spades.bots.settings import Setting
from spades.observation import Observation


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    why: str = ""
    """One line a hint can show: why this action."""


class Bot(ABC):
    """A computer player. ``decide`` must return one of ``legal`` (in the exchange, ``legal``
    lists single ``PassCard`` steps, and a whole ``PassCards`` of those cards is accepted)."""

    name: str = "bot"

    SETTINGS: ClassVar[tuple[Setting, ...]] = ()
    """The ``key=value`` settings the constructor takes by keyword, as data: ``make_bot``
    checks a spec against them (one-line errors) before building the bot."""

    wants_events: bool = False
    """Whether game loops call ``notify`` after every action (``spades.driver.notify_others``).
    Building an observation for every seat after every action costs time the built-in bots
    would throw away (they read everything from ``decide``), so only bots that use events,
    like an outside program speaking the protocol's ``event``, set this and get them."""

    @abstractmethod
    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision: ...

    def act(self, obs: Observation, legal: Sequence[Action]) -> Action:
        return self.decide(obs, legal).action

    def notify(self, obs: Observation) -> None:
        """Told of a change when it need not act; most bots read everything from ``decide``."""

    def close(self) -> None:
        """Free resources (a subprocess, a pool); called once the game is over."""
