"""What a new user meets first: a bad bot setting or a bad option is one line on stderr naming
it and what it takes, with exit 1 (never a traceback, a usage block or exit 2); ``spades play``
without a terminal refuses instead of hanging; a duplicate match says why the games double and
its records tell the two partners apart."""

from __future__ import annotations

import importlib
import inspect
import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import record
from spades.bots import BOTS, REGISTRY, bot_settings, check_spec, make_bot
from spades.bots.settings import Setting
from spades.cli import main
from spades.errors import SpadesError

MATCH = ["--hands", "1", "-j", "1", "--no-progress"]


def one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``spades argv``; it must fail with exit 1 and exactly one line on stderr."""
    assert main(argv) == 1
    out = capsys.readouterr()
    lines = out.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("spades: "), out.err
    assert "Traceback" not in out.err and "Usage:" not in out.err + out.out
    return lines[0]


# ---------------------------------------------------------------------- bot settings
BAD_SETTINGS = [
    ("heuristic:aggression=abc", ["heuristic", "aggression", "'abc'", "a number from -3 to 3"]),
    ("heuristic:nil_limit=abc", ["heuristic", "nil_limit", "a number from 0 to 10"]),
    ("expert:blind_margin=abc", ["expert", "blind_margin", "a number from -1000 to 1000"]),
    ("heuristic:blind_nil=maybe", ["heuristic", "blind_nil", "'maybe'", "true or false"]),
    ("heuristic:aggression=9", ["heuristic", "aggression", "'9'", "from -3 to 3"]),
    ("heuristic:nil=2", ["heuristic", "nil", "true or false"]),
    ("expert:samples=0", ["expert", "samples", "a whole number from 1 to 10000"]),
    ("expert:samples=2.5", ["expert", "samples", "a whole number"]),
    (
        "heuristic:nosuch=1",
        ["heuristic", "unknown setting 'nosuch'", "nil, blind_nil, aggression, nil_limit"],
    ),
    ("random:level=3", ["random", "unknown setting 'level'", "random takes no settings"]),
]


@pytest.mark.parametrize(("spec", "words"), BAD_SETTINGS)
def test_a_bad_setting_in_match_is_one_line(
    spec: str, words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    line = one_line_error(["match", spec, "random", *MATCH], capsys)
    assert all(w in line for w in words), line
    assert "__init__" not in line and "keyword" not in line


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--bots", "heuristic:aggression=abc"],  # refused before the game screen opens
        ["bot", "heuristic", "aggression=abc"],
        ["match", "random", "heuristic:aggression=abc", *MATCH],
    ],
)
def test_every_command_that_seats_a_bot_checks_its_settings(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))  # `bot` reads .buffer
    line = one_line_error(argv, capsys)
    assert "aggression='abc' must be a number from -3 to 3" in line, line


def _in_range(s: Setting) -> st.SearchStrategy[object]:
    if s.kind is bool:
        return st.sampled_from(["true", "false", "yes", "no", "on", "off", "1", "0"])
    assert s.low is not None and s.high is not None
    if s.kind is int:
        return st.integers(int(s.low), int(s.high)).map(str)
    return st.floats(s.low, s.high, allow_nan=False).map(repr)


def _out_of_range(s: Setting) -> st.SearchStrategy[object]:
    junk = st.sampled_from(["abc", "maybe", "", "nan", "inf", "-inf", "1e999", "x" * 200])
    if s.kind is bool:
        return junk | st.integers(2, 10**6).map(str)
    assert s.low is not None and s.high is not None
    if s.kind is int:
        beyond = st.integers(int(s.high) + 1, 10**12) | st.integers(-(10**12), int(s.low) - 1)
        return junk | beyond.map(str) | st.just("1.5")
    floats = st.floats(s.high, 1e12, exclude_min=True) | st.floats(-1e12, s.low, exclude_max=True)
    return junk | floats.map(repr)


SETTINGS = [(bot, s) for bot in BOTS for s in bot_settings(bot)]  # levels take their bot's


@pytest.mark.parametrize(("bot", "setting"), SETTINGS, ids=[f"{b}:{s.name}" for b, s in SETTINGS])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_settings_in_range_pass_and_others_fail_naming_what_they_take(
    bot: str, setting: Setting, data: st.DataObject
) -> None:
    good = data.draw(_in_range(setting))
    name, checked = check_spec(f"{bot}:{setting.name}={good}")
    assert name == bot and isinstance(checked[setting.name], setting.kind)
    bad = data.draw(_out_of_range(setting))
    with pytest.raises(SpadesError) as e:
        check_spec(f"{bot}:{setting.name}={bad}")
    message = str(e.value)
    assert "\n" not in message and len(message) < 200
    assert f"bot {bot}: setting {setting.name}=" in message and setting.allowed() in message


@pytest.mark.parametrize("bot", list(BOTS))
def test_declared_settings_are_the_constructor_keywords_with_its_defaults(bot: str) -> None:
    module, name = REGISTRY[bot]
    cls = getattr(importlib.import_module(module), name)
    params = {
        p.name: p.default
        for p in inspect.signature(cls.__init__).parameters.values()
        if p.kind is p.KEYWORD_ONLY
    }
    declared = {s.name: s.default for s in bot_settings(bot)}
    assert declared == params
    for s in bot_settings(bot):
        assert isinstance(s.default, s.kind) and s.help and "\n" not in s.help
        if s.kind is not bool:
            assert s.low is not None and s.high is not None and s.low <= s.default <= s.high


def test_good_settings_reach_the_bot() -> None:
    bot = make_bot("heuristic:nil=false,blind_nil=no,aggression=-1.5,nil_limit=2")
    assert vars(bot)["allow_nil"] is False and vars(bot)["allow_blind_nil"] is False
    assert vars(bot)["aggression"] == -1.5 and vars(bot)["nil_limit"] == 2.0


# ---------------------------------------------------------------------- options
BAD_OPTIONS = [
    (["serve", "--port", "abc"], "spades: --port: 'abc' is not a valid integer"),
    (["play", "--seat", "up"], "spades: --seat: 'up' is not a seat"),
    (["play", "--delay-ms", "-5"], "spades: --delay-ms: -5 is not in the range"),
    (["match", "heuristic", "random", "-j", "many"], "spades: --jobs: 'many' is not a valid integer"),
    (["match", "heuristic", "random", "--hands", "ten"], "spades: --hands: 'ten' is not a valid integer"),
    (["match", "heuristic"], "spades: missing argument B (usage: spades match [OPTIONS] A B)"),
    (
        ["serve", "--prot", "3"],
        "spades: --prot: no such option of 'spades serve'; did you mean --host or --port?",
    ),
    (["nosuch"], "spades: no such command 'nosuch'"),
    (["replay", "a", "b", "c"], "spades: got unexpected extra arguments (b c)"),
    (["serve", "--port"], "spades: option '--port' requires an argument"),
]


@pytest.mark.parametrize(("argv", "start"), BAD_OPTIONS)
def test_a_bad_option_is_one_line_and_exit_1(
    argv: list[str], start: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # `play` must never open its screen here
    assert one_line_error(argv, capsys).startswith(start)


def test_the_installed_command_exits_1_with_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spades", "serve", "--port", "abc"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and done.stderr == "spades: --port: 'abc' is not a valid integer\n"
    assert done.stdout == ""


def test_bare_spades_shows_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "Usage: spades" in out and "match" in out and "play" in out


# ---------------------------------------------------------------------- play needs a terminal
class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("stdin", "which"), [(io.StringIO(""), "input"), (_Tty(""), "output")])
def test_play_without_a_terminal_refuses_instead_of_hanging(
    stdin: io.StringIO, which: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", stdin)  # stdout is pytest's capture: never a terminal
    line = one_line_error(["play", "--seed", "1"], capsys)
    assert f"play needs a terminal (its {which} is not one)" in line


# ---------------------------------------------------------------------- match output
def test_a_duplicate_match_says_why_the_games_double_and_names_seats_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "match",
                "heuristic",
                "random",
                "--hands",
                "2",
                "-j",
                "1",
                "--no-progress",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "games 4, hands 4 (duplicate: 2 deals, each played twice with the sides swapped)" in out
    for path in tmp_path.glob("*.json"):
        players = record.load(path).players
        assert len(set(players)) == len(players), players
        assert {p.split(" (")[1] for p in players} == {"North)", "East)", "South)", "West)"}


@pytest.mark.parametrize(("bot", "setting"), SETTINGS, ids=[f"{b}:{s.name}" for b, s in SETTINGS])
def test_docs_list_every_setting_as_declared(bot: str, setting: Setting) -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text()
    section = doc.split(f"### `{bot}`", 1)[1].split("###", 1)[0]
    assert f"| `{setting.name}` | {setting.allowed()} | " in section and f" | {setting.help} |" in section
