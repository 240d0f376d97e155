"""The bot protocol end to end: built-in bots through a real pipe, and each fault kind.

Outside programs are real subprocesses (``sys.executable``), so these tests exercise exactly
what ``cmd:`` does in a match; the fault scripts are a few lines each, written per test.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from spades import record
from spades.actions import Action
from spades.bots import make_bot
from spades.bots.base import Bot, Decision
from spades.driver import play_game
from spades.observation import Observation
from spades.protocol.client import ProgramBot, configure
from spades.rules import PRESETS
from spades.state import Game

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "random_bot.py"


class Recorder(Bot):
    """Wraps a bot and keeps every decision it made, reasons included."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.decisions: list[Decision] = []

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        d = self.inner.decide(obs, legal)
        self.decisions.append(d)
        return d

    def close(self) -> None:
        self.inner.close()


def bot_cmd(spec: str, seed: int) -> str:
    return f"cmd:{PY} -m spades bot {spec} --seed {seed}"


def play(
    specs: Sequence[str], *, seed: int, preset: str = "standard", max_hands: int | None = None
) -> tuple[Game, list[Recorder]]:
    bots = [Recorder(make_bot(s, seed=10 + i)) for i, s in enumerate(specs)]
    try:
        game = play_game(Game(PRESETS[preset], seed=seed), bots, max_hands=max_hands)
    finally:
        for b in bots:
            b.close()
    return game, bots


def faults(bot: Recorder) -> int:
    n: int = getattr(bot.inner, "faults", 0)
    return n


# ---------------------------------------------------------------------- round trips
@pytest.mark.parametrize(
    ("spec", "preset", "hands"),
    [("heuristic", "standard", None), ("random", "standard", 3), ("random", "two_player", 2)],
)
def test_program_bot_decides_as_the_in_process_bot(spec: str, preset: str, hands: int | None) -> None:
    """Seats 0 and (with four players) 2 run as subprocesses; same seeds, same game, same
    reasons. The random bot bids Blind Nil now and then, so the exchange crosses the pipe."""
    n = PRESETS[preset].players
    local = [spec] * n
    remote = [bot_cmd(spec, 10 + i) if i % 2 == 0 else spec for i in range(n)]
    g1, b1 = play(local, seed=11, preset=preset, max_hands=hands)
    g2, b2 = play(remote, seed=11, preset=preset, max_hands=hands)
    assert record.dumps(g1) == record.dumps(g2)
    for seat in range(n):
        assert [d.action for d in b1[seat].decisions] == [d.action for d in b2[seat].decisions]
        assert [d.why for d in b1[seat].decisions] == [d.why for d in b2[seat].decisions]
    for seat in range(0, n, 2):
        assert isinstance(b2[seat].inner, ProgramBot)
        assert faults(b2[seat]) == 0
        assert b2[seat].inner.name == spec  # the name comes from the program's hello
    if hands is None:
        assert g2.is_over


def test_exchange_crosses_the_pipe() -> None:
    """A Blind Nil at a program seat: both passes of its team are made through the pipe."""
    local = ["random"] * 4
    remote = [bot_cmd("random", 10), "random", bot_cmd("random", 12), "random"]
    for seed in range(20):
        game, _ = play(local, seed=seed, max_hands=1)
        if any(ex.giver in (0, 2) for ex in game.logs[0].exchanges):
            break
    else:
        pytest.fail("no exchange at a program seat in 20 seeded hands")
    again, bots = play(remote, seed=seed, max_hands=1)
    assert again.logs[0].exchanges == game.logs[0].exchanges
    assert all(faults(b) == 0 for b in bots)


def test_example_bot_plays_a_whole_game() -> None:
    game, bots = play([f"cmd:{PY} {EXAMPLE} 1", "heuristic", f"cmd:{PY} {EXAMPLE} 2", "heuristic"], seed=4)
    assert game.is_over
    assert [faults(b) for b in bots] == [0, 0, 0, 0]
    assert bots[0].inner.name == "random-example"
    again = record.loads(record.dumps(game)).game
    assert again.totals == game.totals


def test_one_program_bot_serves_several_games_with_a_program_each() -> None:
    """Same seat and rules, a new single-hand game: seen as a new game (the play went back)."""
    bot = ProgramBot(f"{PY} -m spades bot random --seed 1")
    pipes = []
    try:
        for seed, seat in ((1, 0), (2, 0), (3, 1)):
            bots = [make_bot("random", seed=i) for i in range(4)]
            bots[seat] = bot
            play_game(Game(seed=seed), bots, max_hands=1)
            pipes.append(bot._pipe)
        assert all(p is not None for p in pipes) and len({id(p) for p in pipes}) == 3
        assert [p.alive for p in pipes if p is not None] == [False, False, True]
        assert bot.faults == 0
    finally:
        bot.close()
    assert bot._pipe is None


def test_close_says_bye_and_the_program_exits(tmp_path: Path) -> None:
    marker = tmp_path / "said-bye"
    script = write(
        tmp_path,
        "byebot.py",
        f"""
        import json, sys
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "hello": print(json.dumps({{"name": "b"}}), flush=True)
            if m["type"] == "act": print(json.dumps({{"action": m["legal"][0]}}), flush=True)
            if m["type"] == "bye": open({str(marker)!r}, "w").write("bye"); sys.exit(0)
        """,
    )
    bot = ProgramBot(f"{PY} {script}")
    game = Game(seed=3)
    play_game(game, [bot, *(make_bot("random", seed=i) for i in range(3))], max_hands=1)
    pipe = bot._pipe
    assert pipe is not None
    bot.close()
    assert marker.read_text() == "bye"
    assert pipe.proc.returncode == 0


# ---------------------------------------------------------------------- faults
def write(tmp_path: Path, name: str, body: str) -> Path:
    import textwrap

    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


HEAD = """
import json, sys, time
def say(x): print(json.dumps(x), flush=True)
n = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello": say({"name": "faulty"}); continue
    if m["type"] != "act": continue
    n += 1
"""

FAULTY = {
    "illegal": HEAD + '    say({"action": "play ZZ" if n % 2 else "bid 14"})\n',
    "bad_json": HEAD + '    print("{not json" if n % 2 else "[1, 2]", flush=True)\n',
    "exit": HEAD + "    if n == 3: sys.exit(3)\n    say({'action': m['legal'][-1]})\n",
    "timeout": HEAD + "    if n == 2: time.sleep(60)\n    say({'action': m['legal'][0]})\n",
}


@pytest.mark.parametrize("kind", sorted(FAULTY))
def test_each_fault_kind_forfeits_decisions_not_the_game(
    kind: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    script = write(tmp_path, f"{kind}.py", FAULTY[kind])
    bot = ProgramBot(f"{PY} {script}", timeout=0.5, restarts=1, seed=2)
    others = [make_bot("heuristic", seed=i) for i in range(3)]
    with caplog.at_level(logging.WARNING, logger="spades.protocol"):
        game = play_game(Game(seed=8), [bot, *others], max_hands=1)
    bot.close()
    assert len(game.scores) == 1  # the hand was played out
    assert bot.faults >= 1
    assert set(bot.fault_kinds) == {kind}
    assert any("faulty" in r.getMessage() and kind in r.getMessage() for r in caplog.records)
    again = record.loads(record.dumps(game)).game  # every action, forfeited or not, was legal
    assert again.totals == game.totals


def test_a_program_that_exits_is_restarted_then_stays_faulted(tmp_path: Path) -> None:
    script = write(tmp_path, "exit.py", FAULTY["exit"])  # exits at its third act
    bot = ProgramBot(f"{PY} {script}", restarts=2)
    rec = Recorder(bot)
    play_game(Game(seed=8), [rec, *(make_bot("heuristic", seed=i) for i in range(3))], max_hands=1)
    bot.close()
    # three programs, each answered two acts and died at its third; the fallback did the rest
    assert bot._starts == 3
    assert bot.fault_kinds["exit"] == len(rec.decisions) - 6
    assert sum(d.why.startswith("(fallback heuristic)") for d in rec.decisions) == bot.faults


def test_a_program_that_cannot_start_is_a_fault(caplog: pytest.LogCaptureFixture) -> None:
    bot = ProgramBot("/nonexistent/bot --flag", restarts=0)
    with caplog.at_level(logging.WARNING, logger="spades.protocol"):
        game = play_game(Game(seed=2), [bot, *(make_bot("random", seed=i) for i in range(3))], max_hands=1)
    assert len(game.scores) == 1
    assert bot.faults == bot.fault_kinds["exit"] >= 13
    assert sum("cannot start" in r.getMessage() for r in caplog.records) == 1  # said once


def test_missing_action_and_stray_output(tmp_path: Path) -> None:
    script = write(
        tmp_path,
        "chatty.py",
        HEAD
        + '    say({"why": "forgot"} if n == 1 else {"action": m["legal"][0]})\n'
        + '    if n == 2: print("debug")\n',
    )
    bot = ProgramBot(f"{PY} {script}", timeout=2)
    play_game(Game(seed=3), [bot, *(make_bot("random", seed=i) for i in range(3))], max_hands=1)
    bot.close()
    # one answer without an action; the stray line after the second answer is skipped, or,
    # if it arrives late, read as one bad answer after which the stream is back in step
    assert set(bot.fault_kinds) == {"bad_json"}
    assert bot.faults <= 2


def test_configuration_is_checked() -> None:
    from spades.errors import SpadesError

    with pytest.raises(SpadesError, match="positive"):
        configure(timeout=0)
    with pytest.raises(SpadesError, match="built-in"):
        ProgramBot("prog", fallback="cmd:other")
    with pytest.raises(SpadesError, match="bad bot command"):
        ProgramBot("prog 'unclosed")
    with pytest.raises(SpadesError, match="unknown bot"):
        ProgramBot("prog", fallback="nosuch")


def test_configure_sets_defaults_for_later_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPADES_BOT_TIMEOUT", "")  # restored after the test, like configure's
    monkeypatch.setenv("SPADES_BOT_FALLBACK", "")
    assert ProgramBot("prog").timeout == 10.0
    configure(timeout=2.5, fallback="random")
    bot = ProgramBot("prog")
    assert bot.timeout == 2.5
    assert bot.fallback.name == "random"


def test_the_docs_show_the_example_bot_as_it_is() -> None:
    doc = (ROOT / "docs" / "bot-protocol.md").read_text()
    assert EXAMPLE.read_text() in doc
    assert len(EXAMPLE.read_text().splitlines()) <= 50  # "about 40 lines"


def test_bot_options_configure_program_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    import click
    from click.testing import CliRunner

    from spades.protocol.options import bot_options

    monkeypatch.setenv("SPADES_BOT_TIMEOUT", "")
    monkeypatch.setenv("SPADES_BOT_FALLBACK", "")

    @click.command()
    @bot_options
    def cmd() -> None:
        bot = ProgramBot("prog")
        click.echo(f"{bot.timeout} {bot.fallback.name}")

    runner = CliRunner()
    assert runner.invoke(cmd, ["--bot-timeout", "3", "--bot-fallback", "random"]).output == "3.0 random\n"
    bad = runner.invoke(cmd, ["--bot-timeout", "-1"])
    assert bad.exit_code == 2 and "positive" in bad.output
    bad = runner.invoke(cmd, ["--bot-fallback", "nosuch"])
    assert bad.exit_code == 2 and "unknown bot" in bad.output


def test_a_program_bot_pickles_as_its_settings() -> None:
    import pickle

    bot = ProgramBot(f"{PY} {EXAMPLE} 1", timeout=3, fallback="random", restarts=1, seed=4)
    play_game(Game(seed=1), [bot, *(make_bot("random", seed=i) for i in range(3))], max_hands=1)
    copy = pickle.loads(pickle.dumps(bot))
    bot.close()
    assert (copy.command, copy.timeout, copy.fallback.name, copy.restarts) == (bot.command, 3.0, "random", 1)
    assert copy._pipe is None and copy.faults == 0


def test_the_example_bot_plays_a_match_and_faults_reach_the_report(tmp_path: Path) -> None:
    from spades.match import run_match
    from spades.rules import Rules

    rep = run_match(f"cmd:{PY} {EXAMPLE} 7", "heuristic", Rules(target=200), games=2, jobs=1, out=tmp_path)
    assert rep["games"] == 2
    assert rep["sides"]["a"]["faults"] == 0
    assert rep["sides"]["a"]["decisions"] > 50
    assert len(list(tmp_path.glob("*.json"))) == 2
    script = write(tmp_path, "illegal.py", FAULTY["illegal"])
    rep = run_match(f"cmd:{PY} {script}", "random", hands=1, jobs=1)
    assert rep["sides"]["a"]["faults"] == rep["sides"]["a"]["decisions"] > 0  # every answer was illegal
    assert rep["sides"]["b"]["faults"] == 0
