"""``--bot-timeout`` and ``--bot-fallback`` for any command that seats bots, in one decorator.

A command adds ``@bot_options`` and needs no new parameters: the options call
``configure``, which sets the defaults of every ``ProgramBot`` made afterwards, in this
process and in the worker processes it starts (``spades match`` runs games in parallel).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from spades.errors import SpadesError
from spades.protocol.client import DEFAULT_FALLBACK, DEFAULT_TIMEOUT, configure

F = TypeVar("F", bound=Callable[..., Any])


def _timeout(ctx: click.Context, param: click.Parameter, value: float | None) -> None:
    if value is not None:
        try:
            configure(timeout=value)
        except SpadesError as e:
            raise click.BadParameter(str(e), ctx=ctx, param=param) from None


def _fallback(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None:
        return
    from spades.bots import make_bot

    try:
        make_bot(value).close()  # an unknown bot fails now, not at the first fault
        configure(fallback=value)
    except SpadesError as e:
        raise click.BadParameter(str(e), ctx=ctx, param=param) from None


def bot_options(f: F) -> F:
    """Add ``--bot-timeout SECONDS`` and ``--bot-fallback SPEC`` (for ``cmd:`` bots)."""
    f = click.option(
        "--bot-fallback",
        metavar="SPEC",
        expose_value=False,
        callback=_fallback,
        help=f"Built-in bot that decides for a cmd: bot at fault (default {DEFAULT_FALLBACK}).",
    )(f)
    f = click.option(
        "--bot-timeout",
        type=float,
        metavar="SECONDS",
        expose_value=False,
        callback=_timeout,
        help=f"Time limit of a cmd: bot per decision (default {DEFAULT_TIMEOUT:g}).",
    )(f)
    return f


__all__ = ["bot_options"]
