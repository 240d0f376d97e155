"""The web app that ``spades serve`` starts: lobby, tables, replay viewer, REST and websockets.

Modules, one job each: ``schema`` (client messages, validated), ``store`` (the event log in
SQLite or PostgreSQL, written from one thread), ``fairness`` (secure decks and their published
commitments), ``tables`` (one actor per table, the engine the only judge), ``manager`` (a
worker's tables), ``cluster`` and ``bus`` (many workers: leases, takeover, Redis fan-out and
forwarding), ``compute`` (expert bots, hints and replays in worker processes), ``replayview``
(the replay page's layout), ``limits`` (per client address), ``httpguard`` (header and body
timeouts, connections per address), ``dburl`` (database URLs checked), ``app`` (routes).
"""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str) -> object:
    # Lazy, so ``import spades.server.fairness`` (used by ``spades verify``) needs no web extra.
    if name == "create_app":
        from spades.server.app import create_app

        return create_app
    raise AttributeError(name)
