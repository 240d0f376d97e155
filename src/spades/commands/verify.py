"""``spades verify RECORD_OR_URL``: check a game's fair-shuffle proofs, hand by hand."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import click

from spades.errors import InvalidRecord, SpadesError, Text
from spades.i18n import N_, _, localized


def _read(source: str) -> str:
    if source.startswith(("http://", "https://")):
        try:
            with urllib.request.urlopen(source, timeout=30) as resp:
                data: bytes = resp.read(5_000_001)
        except (urllib.error.URLError, OSError) as e:
            raise SpadesError(
                N_("cannot fetch {url}: {why}"), url=source, why=str(getattr(e, "reason", e))
            ) from None
        return data.decode("utf-8", "replace")
    if source == "-":
        import sys

        return sys.stdin.read()
    try:
        with open(source, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidRecord(
            N_("cannot read {path}: {why}"), path=source, why=str(getattr(e, "strerror", None) or e)
        ) from None


@click.command(
    "verify",
    help=N_(
        "Check a record's shuffle proofs: each deck hashes to the commitment published at its "
        "deal, and dealing it gives the recorded hands. RECORD_OR_URL is a file, - or a record URL "
        "(e.g. http://127.0.0.1:8000/api/tables/ID/record)."
    ),
)
@click.argument("source", metavar="RECORD_OR_URL")
def command(source: str) -> None:
    from spades.server.fairness import verify_record

    text = _read(source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidRecord(
            N_("unreadable JSON at line {line}, column {column}: {why}"),
            line=e.lineno,
            column=e.colno,
            why=e.msg,
        ) from None
    _record, checks = verify_record(data)
    bad = [c for c in checks if not c.ok]
    for c in checks:
        click.echo((_("ok    ") if c.ok else _("FAIL  ")) + localized(c.why))
    if bad:
        raise SpadesError(
            N_("{bad} of {total} hands fail the shuffle proof; first: {why}"),
            bad=len(bad),
            total=len(checks),
            why=bad[0].why if isinstance(bad[0].why, Text) else str(bad[0].why),
        )
    click.echo(_("all {n} hands verified: every deal was fixed before the bidding").format(n=len(checks)))
