"""Click's own sentences ("Usage:", "No such command 'x'.", "'abc' is not a valid integer.")
in the reader's language, from our one catalog.

Why this way: click wraps its messages in the standard library's ``gettext.gettext`` and
``ngettext`` (imported by name into each of its modules), which look up the process-wide
``messages`` domain in compiled ``.mo`` files on disk. Binding that domain would mean a second
set of catalogs outside Babel's extract/update cycle, ``.mo`` files built at run time, and a
global change every other library in the process would see. Instead click's message ids are
listed here (``N_``/``ngettext``, so ``pybabel extract`` puts them in ``spades.pot`` beside
ours and translators see them with everything else), and while a ``spades`` command runs,
:func:`click_speaks` points the ``_``/``ngettext`` names of click's modules at our catalog
(``spades.i18n``), then puts click's own functions back. Nothing in site-packages changes.

A few words click puts into its sentences untranslated (a number type's name: "integer",
"float") are translated through the ``click type`` context, a type's metavar in a help page
(``--port INTEGER``) through ``click metavar`` (:func:`metavar_words`); ``[OPTIONS]`` and
``COMMAND [ARGS]...`` in a usage line are translated by ``spades.cli``'s help formatter.
``tests/test_cli_click_words.py`` checks that every id listed here is still one of the
installed click's, so a click release that rewords a message is noticed.
"""

from __future__ import annotations

import gettext
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from spades.errors import N_
from spades.i18n import _, ngettext, pgettext

MESSAGES: tuple[str, ...] = (
    # core.py: help headings, parameters, the command line's shape
    N_("Aborted!"),
    N_("Options"),
    N_("Commands"),
    N_("Positional arguments"),
    N_("Missing command."),
    N_("env var: {var}"),
    N_("default: {default}"),
    N_("(dynamic)"),
    N_("deprecated"),
    N_("Value must be an iterable."),
    # exceptions.py: how an error is told
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Missing {param_type}"),
    N_("Missing parameter: {param_name}"),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("unknown error"),
    N_("Could not open file {filename!r}: {message}"),
    # types.py: a value of the wrong kind
    N_("Choose from:\n\t{choices}"),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("{value!r} is not a valid UUID."),
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."),
    N_("{name} {filename!r} is not executable."),
    # parser.py: options and arguments on the command line
    N_("Argument {name!r} takes {nargs} values."),
    N_("Option {name!r} does not take a value."),
    # decorators.py, formatting.py: the help and version options, the usage line
    N_("Show the version and exit."),
    N_("Show this message and exit."),
    N_("%(prog)s, version %(version)s"),
    N_("Usage:"),
    # termui.py: prompts
    N_("Repeat for confirmation"),
    N_("Error: The two entered values do not match."),
    N_("Error: invalid input"),
)
"""Click's singular message ids that a ``spades`` command can show."""


def plural_messages(n: int) -> list[str]:
    """Click's messages with plural forms, in the form for ``n`` (listed as calls so that
    ``pybabel extract`` sees each as a plural message)."""
    return [
        ngettext("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", n),
        ngettext("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given.", n),
        ngettext("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", n),
        ngettext("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", n),
        ngettext("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.", n),
        ngettext(
            "{len_type} values are required, but {len_value} was given.",
            "{len_type} values are required, but {len_value} were given.",
            n,
        ),
    ]


def type_word(name: str) -> str:
    """A click type's name ("integer"), which click puts into a sentence as it is."""
    words = {
        "integer": pgettext("click type", "integer"),
        "float": pgettext("click type", "float"),
        "integer range": pgettext("click type", "integer range"),
        "float range": pgettext("click type", "float range"),
        "boolean": pgettext("click type", "boolean"),
        "text": pgettext("click type", "text"),
    }
    return words.get(name, name)


_AT_IMPORT = frozenset({"file", "directory", "path"})
"""Words click asks for when a command is defined (``click.Path``'s name), which a process
keeps: they stay English there and are translated where a sentence puts them in."""


_METAVAR = re.compile(
    r"(?<![\w-])(INTEGER RANGE|FLOAT RANGE|INTEGER|FLOAT|TEXT|BOOLEAN|FILENAME|DIRECTORY|PATH)(?![\w-])"
)


def metavar_words(term: str) -> str:
    """An option's line in a help page (``--port INTEGER``) with click's type metavar in the
    reader's language: click writes the type's English name in capitals, as no message."""

    def word(m: re.Match[str]) -> str:
        return {
            "INTEGER": pgettext("click metavar", "INTEGER"),
            "INTEGER RANGE": pgettext("click metavar", "INTEGER"),
            "FLOAT": pgettext("click metavar", "FLOAT"),
            "FLOAT RANGE": pgettext("click metavar", "FLOAT"),
            "TEXT": pgettext("click metavar", "TEXT"),
            "BOOLEAN": pgettext("click metavar", "BOOLEAN"),
            "FILENAME": pgettext("click metavar", "FILENAME"),
            "DIRECTORY": pgettext("click metavar", "DIRECTORY"),
            "PATH": pgettext("click metavar", "PATH"),
        }[m[1]]

    return _METAVAR.sub(word, term)


class _Template(str):
    """A translated click sentence; its ``format`` also translates the words click puts in
    untranslated (a number type's name, a path's kind)."""

    __slots__ = ()

    def format(self, *args: Any, **kwargs: Any) -> str:
        if isinstance(kwargs.get("number_type"), str):
            kwargs["number_type"] = type_word(kwargs["number_type"])
        name = kwargs.get("name")
        if isinstance(name, str) and name.lower() in _AT_IMPORT and "filename" in kwargs:
            kwargs["name"] = _(name.lower())
        return str.format(self, *args, **kwargs)


def click_gettext(message: str) -> str:
    """Click's ``_``: its message in the current language (the id itself if we lack it)."""
    if message in _AT_IMPORT:
        return message
    return _Template(_(message))


def click_ngettext(singular: str, plural: str, n: int) -> str:
    """Click's ``ngettext``, through our catalog's plural forms (Slovenian has four)."""
    return _Template(ngettext(singular, plural, n))


_KEPT = frozenset({"click.decorators"})
"""Click's decorators ask for the help and version options' texts when a command is built,
once per process: those stay English ids, which ``spades.cli``'s formatter translates each
time a help page is shown."""


def _click_modules() -> list[Any]:
    return [
        m
        for name, m in list(sys.modules.items())
        if m is not None and (name == "click" or name.startswith("click.")) and name not in _KEPT
    ]


@contextmanager
def click_speaks() -> Iterator[None]:
    """While the block runs, click's modules translate through our catalog; then click's own
    ``gettext`` functions are back (a program that imports us and uses click is not changed)."""
    swapped: list[tuple[Any, str, Any]] = []
    for module in _click_modules():
        for attr, ours, std in (
            ("_", click_gettext, gettext.gettext),
            ("ngettext", click_ngettext, gettext.ngettext),
        ):
            if getattr(module, attr, None) is std:
                swapped.append((module, attr, std))
                setattr(module, attr, ours)
    try:
        yield
    finally:
        for module, attr, std in swapped:
            setattr(module, attr, std)


__all__ = [
    "MESSAGES",
    "click_gettext",
    "click_ngettext",
    "click_speaks",
    "metavar_words",
    "plural_messages",
    "type_word",
]
