"""Click's own sentences in the reader's language (issue 13): bad options, missing arguments,
values of the wrong kind, unknown commands and the help pages say nothing in English under
``--lang it|sl|fr``, while the exit code (1) and the one-line form stay as they were; and the
ids we translate are still the installed click's."""

from __future__ import annotations

import gettext
import os
import re
from pathlib import Path

import click
import pytest

from spades.cli import main
from spades.clickwords import MESSAGES, plural_messages
from spades.i18n import translations

BAD = [
    ["play", "--nosuch"],
    ["match"],
    ["serve", "--port", "abc"],
    ["serve", "--workers", "0"],
    ["bogus"],
    ["match", "--jobs"],
    ["replay", "a.json", "b.json"],
    ["analyse", "/"],
    ["play", "--seed", "1.5"],
]
"""The English lines as they were before click's words were translated: unchanged."""
ENGLISH = {
    ("play", "--nosuch"): "spades: --nosuch: no such option of 'spades play' (see 'spades play --help')",
    ("match",): "spades: missing argument A (usage: spades match [OPTIONS] A B)",
    ("serve", "--port", "abc"): "spades: --port: 'abc' is not a valid integer",
    ("serve", "--workers", "0"): "spades: --workers: 0 is not in the range 1<=x<=64",
    ("bogus",): "spades: no such command 'bogus' (see 'spades --help')",
    ("match", "--jobs"): "spades: option '--jobs' requires an argument (see 'spades --help')",
    (
        "replay",
        "a.json",
        "b.json",
    ): "spades: got unexpected extra argument (b.json) (see 'spades replay --help')",
    ("analyse", "/"): "spades: FILE: file '/' is a directory",
    ("play", "--seed", "1.5"): "spades: --seed: '1.5' is not a valid integer",
}
SAME = {"fr": {"[OPTIONS]", ", version "}}
"""Words a language writes as English does."""
CLICK_ENGLISH = (
    "Usage:",
    "Options:",
    "Commands:",
    "Show this message",
    "Show the version",
    "Try '",
    "for help",
    "Error:",
    "No such",
    "no such",
    "Invalid value",
    "Missing",
    "missing",
    "is not a valid",
    "integer",
    "not in the range",
    "requires an argument",
    "unexpected extra",
    "is a directory",
    "[OPTIONS]",
    "COMMAND [ARGS]",
    "[default:",
    ", version ",
)


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("lang", ["it", "sl", "fr"])
def test_bad_invocations_say_click_s_sentences_in_the_language(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for args in BAD:
        code, out, err = _run(["--lang", lang, *args], capsys)
        assert code == 1 and out == "", (args, out)
        assert err.endswith("\n") and err.count("\n") == 1 and err.startswith("spades"), (args, err)
        left = [w for w in CLICK_ENGLISH if w in err and w not in SAME.get(lang, ())]
        assert not left, f"{lang} {args}: English {left} in {err!r}"
        assert err != ENGLISH[tuple(args)] + "\n"


@pytest.mark.parametrize("lang", ["it", "sl", "fr"])
def test_help_pages_and_version_have_no_english_of_click(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for args in (["--help"], ["match", "--help"], ["serve", "-h"], ["--version"]):
        code, out, err = _run(["--lang", lang, *args], capsys)
        assert code == 0 and err == "", (args, err)
        left = [w for w in CLICK_ENGLISH if w in out and w not in SAME.get(lang, ())]
        assert not left, f"{lang} {args}: English {left} in the help"
        metavars = re.findall(r"(?<![\w-])(INTEGER|FLOAT|TEXT|BOOLEAN|FILENAME|DIRECTORY|PATH)(?![\w-])", out)
        assert not metavars, f"{lang} {args}: click's English metavars {metavars} in the help"


def test_english_lines_are_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    for args in BAD:
        code, _out, err = _run(["--lang", "en", *args], capsys)
        assert (code, err) == (1, ENGLISH[tuple(args)] + "\n")
    code, out, _err = _run(["--help"], capsys)
    assert code == 0 and out.startswith("Usage: spades [OPTIONS] COMMAND [ARGS]...")
    assert "Show this message and exit." in out and "Options:" in out
    _code, serve, _err = _run(["serve", "--help"], capsys)
    assert "--port INTEGER" in serve and "--host TEXT" in serve
    assert _run(["--version"], capsys)[1].startswith("spades, version ")


def test_click_s_own_functions_are_back_after_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    _run(["--lang", "it", "serve", "--port", "abc"], capsys)
    import click.core
    import click.types

    assert click.types._ is gettext.gettext and click.core.ngettext is gettext.ngettext


def _click_ids() -> set[str]:
    from babel.messages.extract import extract_from_file

    ids: set[str] = set()
    root = Path(click.__file__).parent
    for f in sorted(os.listdir(root)):
        if f.endswith(".py"):
            for _line, msg, _c, _ctx in extract_from_file(
                "python", str(root / f), keywords={"_": None, "ngettext": (1, 2)}
            ):
                ids.add(msg if isinstance(msg, str) else msg[0])
    return ids


def test_our_ids_are_the_installed_click_s_and_translated() -> None:
    theirs = _click_ids()
    ours = [*MESSAGES, *plural_messages(1)]
    assert not [m for m in ours if m not in theirs], "click reworded these messages"
    for lang in ("it", "sl", "fr"):
        t = translations(lang)
        for m in MESSAGES:
            assert t.gettext(m) != m or m in ("Options", "file", "%(prog)s, version %(version)s"), (lang, m)
