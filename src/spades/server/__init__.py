"""The web app that ``spades serve`` starts: lobby, tables, replay viewer, REST and websockets.

Modules, one job each: ``schema`` (client messages, validated), ``store`` (the event log in
SQLite or PostgreSQL), ``fairness`` (secure decks and their published commitments),
``tables`` (one actor per table, the engine the only judge), ``app`` (routes).
"""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str) -> object:
    # Lazy, so ``import spades.server.fairness`` (used by ``spades verify``) needs no web extra.
    if name == "create_app":
        from spades.server.app import create_app

        return create_app
    raise AttributeError(name)
