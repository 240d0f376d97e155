"""``spades solve [FILE]``: double-dummy solve positions given as JSON lines (stdin if no FILE).

Each output line is the input object with ``ns_tricks`` (North/South's tricks still to come
with best play), ``card_values`` (each card the seat to move may play, mapped to
North/South's tricks if it is played) and ``ms`` (time on that position) set.
"""

from __future__ import annotations

import json
import statistics
import sys
from typing import TextIO

import click

from spades.cards import CardSet, card_text
from spades.errors import SpadesError
from spades.i18n import N_, _
from spades.search.dd import Solver
from spades.search.positions import InvalidPosition, position_from_line


def _lines(file: str | None) -> TextIO:
    if file is None or file == "-":
        return sys.stdin
    try:
        return open(file, encoding="utf-8")
    except OSError as e:
        raise SpadesError(N_("cannot read {path}: {why}"), path=file, why=str(e.strerror)) from None


@click.command("solve", help=N_("Double-dummy solve each position of FILE (JSON lines; stdin if none)."))
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--stats", is_flag=True, help=N_("Print median and p90 ms per position on stderr at the end."))
def command(file: str | None, stats: bool) -> None:
    solver = Solver()
    solver.solve([1, 2, 4, 8], 0)  # load the compiled kernel before timing anything
    times: list[float] = []
    stream = _lines(file)
    try:
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            try:
                pos = position_from_line(line)
            except InvalidPosition as e:
                raise SpadesError(N_("line {line}: {error}"), line=number, error=e.text) from None
            sol = solver.solve(pos.hands, pos.leader, pos.trick, pos.spades_broken)
            out = json.loads(line)
            out["ns_tricks"] = sol.ns_tricks
            hand = CardSet(pos.hands[pos.to_move])
            out["card_values"] = {card_text(c): sol.card_values[c] for c in hand if c in sol.card_values}
            out["ms"] = round(sol.ms, 3)
            times.append(sol.ms)
            click.echo(json.dumps(out))
    finally:
        if stream is not sys.stdin:
            stream.close()
    if stats and times:
        p90 = sorted(times)[min(len(times) - 1, int(0.9 * len(times)))]
        click.echo(
            _("{n} positions: median {median} ms, p90 {p90} ms").format(
                n=len(times), median=f"{statistics.median(times):.2f}", p90=f"{p90:.2f}"
            ),
            err=True,
        )
