"""The words of the web pages' HTML, for ``pybabel extract`` (babel.cfg's ``[html: ...]``).

The pages mark what a person reads: ``<h2 data-i18n>New table</h2>`` (the element's text is
the message id) and ``data-i18n-attrs="title placeholder"`` (those attributes' values are
ids); ``common.js`` shows them translated. Babel has no HTML extractor, so this small one
yields them the way Babel's own extractors do."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

Found = tuple[int, str, str, list[str]]
"""(line, keyword, message id, comments): one message, as Babel's extractors give it."""


class _Words(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Found] = []
        self._open: list[tuple[str, int, list[str]]] = []  # elements marked data-i18n, their text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        line = self.getpos()[0]
        for name in (a.get("data-i18n-attrs") or "").split():
            value = a.get(name)
            if value:
                self.found.append((line, "_", value, []))
        if "data-i18n" in a:
            if a["data-i18n"]:
                self.found.append((line, "_", a["data-i18n"], []))
            else:
                self._open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _tag, line, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, "_", text, []))


def words(text: str) -> list[Found]:
    """Every marked message of an HTML page, in the order of the page."""
    parser = _Words()
    parser.feed(text)
    parser.close()
    return parser.found


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any] | Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    """Babel's extractor interface (``babel.messages.extract``)."""
    encoding = str(options.get("encoding", "utf-8"))
    yield from words(fileobj.read().decode(encoding))
