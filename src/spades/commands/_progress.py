"""The progress bar long commands show on stderr (stdout stays clean for their output)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


def progress_bar(*, auto_refresh: bool = True) -> Progress:
    """A transient bar: description, bar, done/total, time left. ``auto_refresh=False`` when
    worker processes are forked (no refresh thread); the caller refreshes after each step."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        auto_refresh=auto_refresh,
    )
