"""``GET /howto``: the rules as a player reads them, in his language.

One source per language, ``static/howto/<lang>.md`` (``docs/howto/<lang>.md`` are links to
them, so the docs and the page never differ), rendered to HTML once per language with
markdown-it (already installed with rich). The language is ``?lang=`` if it names one of ours,
else the browser's ``Accept-Language``, else English; the page links to the other three.
"""

from __future__ import annotations

import html
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from spades.i18n import DEFAULT, LANGUAGE_NAMES, LANGUAGES

HOWTO = Path(__file__).with_name("static") / "howto"
router = APIRouter()


def source(lang: str) -> Path:
    return HOWTO / f"{lang}.md"


def pick(query: str | None, accept: str | None) -> str:
    """``?lang=`` first, then ``Accept-Language`` by its q weights (``sl-SI,sl;q=0.9,en;q=0.8``)."""
    if query and query.strip().lower() in LANGUAGES:
        return query.strip().lower()
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _eq, value = p.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        code = tag.strip().lower().split("-")[0]
        if code in LANGUAGES and q > 0:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else DEFAULT


@cache
def page(lang: str) -> str:
    """The whole HTML page of one language (the site's stylesheet, no script)."""
    from markdown_it import MarkdownIt

    text = source(lang).read_text(encoding="utf-8")
    body = MarkdownIt("commonmark").enable("table").render(text)
    title = html.escape(text.splitlines()[0].lstrip("# ").strip())
    names = {code: html.escape(LANGUAGE_NAMES[code]) for code in LANGUAGES}
    others = " · ".join(
        f'<a href="/howto?lang={code}" hreflang="{code}" lang="{code}">{names[code]}</a>'
        if code != lang
        else f'<strong lang="{code}">{names[code]}</strong>'
        for code in LANGUAGES
    )
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n"
        '<link rel="stylesheet" href="/static/app.css">\n'
        '<link rel="stylesheet" href="/static/howto/howto.css">\n'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n</head>\n<body>\n'
        '<header class="topbar"><a class="brand" href="/">&#9824; Spades</a>'
        f'<nav class="tools howto-langs" aria-label="Language">{others}</nav></header>\n'
        f'<main class="page howto">\n<article class="panel">\n{body}</article>\n</main>\n</body>\n</html>\n'
    )


@router.get("/howto", include_in_schema=False)
async def howto(request: Request, lang: str | None = None) -> HTMLResponse:
    chosen = pick(lang, request.headers.get("accept-language"))
    return HTMLResponse(page(chosen), headers={"Content-Language": chosen, "Vary": "Accept-Language"})
