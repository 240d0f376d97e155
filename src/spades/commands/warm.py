"""``spades warm``: compile the search kernels now, so no game waits for it (docs/expert.md)."""

from __future__ import annotations

import click

from spades.i18n import N_


@click.command(
    "warm",
    help=N_(
        "Compile the expert's search kernels into numba's cache (once per install; a minute or two "
        "the first time, about a second after)."
    ),
)
@click.option("-q", "--quiet", is_flag=True, help=N_("Print nothing on success."))
def command(quiet: bool) -> None:
    from spades.search.warm import main

    if main(["--quiet"] if quiet else []) != 0:
        raise click.exceptions.Exit(1)  # main said why, on stderr
