"""The words a person reads, in his language: gettext catalogs (Babel) under ``spades/locale``.

Code speaks in message ids (English sentences with ``{named}`` values) and calls ``_()`` or
``ngettext()`` when the text is shown, never at import: the language is chosen once at start
(``--lang``, then ``SPADES_LANG``, then the system locale, else English) and may be changed
by :func:`set_language`. English needs no catalog: the ids are the English text.

The ``.po`` files are the source. A compiled ``.mo`` beside one is used when it is at least as
new; otherwise the ``.po`` is compiled in memory (Babel is a dependency), so a fresh clone, an
editable install and a wheel all work without a build step.
"""

from __future__ import annotations

import gettext as _gettext
import io
import json
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from spades.errors import N_, SpadesError, Text, english

DOMAIN = "spades"
LANGUAGES: tuple[str, ...] = ("en", "it", "sl", "fr")
"""Languages with a catalog, English (the message ids) first."""
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "it": "Italiano", "sl": "Slovenščina", "fr": "Français"}
"""Each language in its own words, for pickers."""
DEFAULT = "en"
LOCALE_DIR = Path(__file__).with_name("locale")


def catalog_path(lang: str, ext: str = "po") -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.{ext}"


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalog of ``lang`` (English: the ids themselves), compiled from its ``.po`` when
    no up-to-date ``.mo`` sits beside it."""
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    if lang not in LANGUAGES:
        raise unknown_language(lang)
    po, mo = catalog_path(lang), catalog_path(lang, "mo")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return _gettext.GNUTranslations(f)
    return _gettext.GNUTranslations(io.BytesIO(compile_po(po)))


def compile_po(po: Path) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file; fuzzy entries are left out, as ``pybabel compile``
    does, so a doubtful translation shows the English text instead."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=po.parent.parent.name, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


@cache
def catalog_json(lang: str) -> str:
    """A catalog for a browser, from the same ``.po`` as the terminal's (the web page's words
    belong in it too): ``{"lang", "nplurals", "plural", "messages"}``. ``plural`` is the C
    expression of the ``Plural-Forms`` header (``n%100==1 ? 0 : ...``), which JavaScript reads
    as is; ``messages`` maps each id to its text, or to its list of plural forms under the
    singular id; an id with a context is keyed ``context + "\x04" + id``, as gettext does.
    Empty and fuzzy entries are left out (the page then shows the English id)."""
    if lang not in LANGUAGES:
        raise unknown_language(lang)
    from babel.messages.pofile import read_po

    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    messages: dict[str, str | list[str]] = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        key = m.id[0] if isinstance(m.id, tuple | list) else m.id
        if m.context:
            key = f"{m.context}\x04{key}"
        if isinstance(m.string, tuple | list):
            if all(m.string):
                messages[key] = list(m.string)
        elif m.string:
            messages[key] = m.string
    body = {
        "lang": lang,
        "nplurals": catalog.num_plurals,
        "plural": catalog.plural_expr,
        "messages": messages,
    }
    return json.dumps(body, ensure_ascii=False, sort_keys=True)


@cache
def message_ids() -> frozenset[str]:
    """Every message id of the catalogs (the template's, as the English catalog holds them)."""
    from babel.messages.pofile import read_po

    with catalog_path(DEFAULT).open("rb") as f:
        catalog = read_po(f, locale=DEFAULT, domain=DOMAIN)
    return frozenset(m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id)


def is_message_id(text: str) -> bool:
    """Whether ``text`` is a message id of ours (an error raised with ready-made English is not)."""
    return text in message_ids()


def unknown_language(lang: str, where: str = "") -> SpadesError:
    """The one-line refusal of a language without a catalog (``where``: the option or variable)."""
    if where:
        return SpadesError(
            N_("{where}: unknown language {lang}: use one of {languages}"),
            where=where,
            lang=repr(lang),
            languages=", ".join(LANGUAGES),
        )
    return SpadesError(
        N_("unknown language {lang}: use one of {languages}"), lang=repr(lang), languages=", ".join(LANGUAGES)
    )


def _from_locale(value: str) -> str | None:
    """``it_IT.UTF-8`` -> ``it``; ``C``, ``POSIX`` and languages without a catalog -> ``None``."""
    code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def choose_language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``--lang`` first, then ``SPADES_LANG`` (both must name a catalog,
    or this is a one-line error), then the system locale (``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``: the first one set decides; one we have no catalog for means English)."""
    env = os.environ if environ is None else environ
    for where, given in (("--lang", option), ("SPADES_LANG", env.get("SPADES_LANG"))):
        if given:
            lang = given.strip().lower().replace("-", "_")
            if lang not in LANGUAGES:
                raise unknown_language(given, where)
            return lang
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return _from_locale(value) or DEFAULT
    return DEFAULT


_current: list[str] = [DEFAULT]
"""The language in use (a one-item list: changed in place by ``set_language``)."""


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on (a ``SpadesError`` naming the choices if there is no catalog)."""
    translations(lang)  # fails first, leaving the language as it was
    _current[0] = lang


def language() -> str:
    return _current[0]


def _(message: str) -> str:
    """``message`` in the current language (the id itself when the catalog lacks it)."""
    return translations(_current[0]).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` of a message with plurals (Slovenian has four: 1, 2, 3-4, 5+)."""
    return translations(_current[0]).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` where the same English says two things: ``pgettext("seat", "bid {bid}")`` is
    the noun beside a seat's name, ``_("bid {bid}")`` the action (Slovenian: napoved / napovej)."""
    return translations(_current[0]).pgettext(context, message)


def localized(value: BaseException | str) -> str:
    """An engine error, or a ``Text`` (a bot's reason), in the current language: its message id
    translated, then its values put in (a value that is a ``Text``, such as a seat's name, is
    translated the same way). Plain text and other exceptions come back as they are; a
    translation that does not fit its values falls back to the English."""
    if isinstance(value, SpadesError):
        value = value.text
    elif isinstance(value, BaseException):
        return str(value)
    if not isinstance(value, Text):
        return value
    fields = {k: localized(v) if isinstance(v, Text) else v for k, v in value.fields.items()}
    if not value.msgid:
        return ""
    text = _(value.msgid)
    if not fields:
        return text
    try:
        return text.format(**fields)
    except (KeyError, IndexError, ValueError):
        return english(value.msgid, fields)


__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "N_",
    "_",
    "catalog_json",
    "choose_language",
    "compile_po",
    "is_message_id",
    "language",
    "localized",
    "ngettext",
    "pgettext",
    "set_language",
    "translations",
]
