"""``spades verify RECORD_OR_URL``: check a game's fair-shuffle proofs, hand by hand."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import click

from spades.errors import InvalidRecord, SpadesError


def _read(source: str) -> str:
    if source.startswith(("http://", "https://")):
        try:
            with urllib.request.urlopen(source, timeout=30) as resp:
                data: bytes = resp.read(5_000_001)
        except (urllib.error.URLError, OSError) as e:
            raise SpadesError(f"cannot fetch {source}: {getattr(e, 'reason', e)}") from None
        return data.decode("utf-8", "replace")
    if source == "-":
        import sys

        return sys.stdin.read()
    try:
        with open(source, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidRecord(f"cannot read {source}: {getattr(e, 'strerror', None) or e}") from None


@click.command("verify")
@click.argument("source", metavar="RECORD_OR_URL")
def command(source: str) -> None:
    """Check a record's shuffle proofs: each deck hashes to the commitment published at its
    deal, and dealing it gives the recorded hands. SOURCE is a file, - or a record URL
    (e.g. http://127.0.0.1:8000/api/tables/ID/record)."""
    from spades.server.fairness import verify_record

    text = _read(source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidRecord(f"unreadable JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    _, checks = verify_record(data)
    bad = [c for c in checks if not c.ok]
    for c in checks:
        click.echo(("ok    " if c.ok else "FAIL  ") + c.why)
    if bad:
        raise SpadesError(f"{len(bad)} of {len(checks)} hands fail the shuffle proof; first: {bad[0].why}")
    click.echo(f"all {len(checks)} hands verified: every deal was fixed before the bidding")
