"""The ``spades`` command in every language: ``spades --lang``, ``SPADES_LANG``, the help and
the one-line errors; the language is put back after each command."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from spades.cli import cli, main
from spades.i18n import language

BAD_PLAY = {
    "format": "spades-record/1",
    "rules": "standard",
    "first_dealer": 0,
    "hands": [
        {
            "deal": [
                "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
                "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
                "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
                "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
            ],
            "bids": [3, 3, 3, 3],
            "play": ["AS"],
        }
    ],
}
"""East leads the first trick with North's ace of spades."""


@pytest.fixture
def bad_record(tmp_path: Path) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD_PLAY))
    return path


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "spades: hand 1, trick 1: East played AS but does not hold it"),
        ("it", "spades: mano 1, presa 1: Est ha giocato AS ma non ce l'ha"),
        ("sl", "spades: deljenje 1, vzetek 1: Vzhod je odigral AS, a te karte nima"),
        ("fr", "spades: donne 1, pli 1 : Est a joué AS mais ne l'a pas"),
    ],
)
def test_spades_replay_of_a_bad_record_says_why_in_the_chosen_language(
    lang: str,
    line: str,
    bad_record: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SPADES_LANG", lang)
    assert main(["replay", str(bad_record)]) == 1
    err = capsys.readouterr().err
    assert err == line + "\n"
    assert language() == "en"  # the caller's language again once the command is over


def test_the_global_lang_option_beats_the_variable(
    bad_record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "it", "replay", str(bad_record)]) == 1
    assert "Est ha giocato AS" in capsys.readouterr().err
    assert main(["replay", str(bad_record)]) == 1  # SPADES_LANG=en (conftest) again
    assert "East played AS" in capsys.readouterr().err


def test_a_bad_language_is_one_line_naming_the_choices(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "de", "replay", "x.json"]) == 1
    assert capsys.readouterr().err == "spades: --lang: unknown language 'de': use one of en, it, sl, fr\n"
    monkeypatch.setenv("SPADES_LANG", "xx")
    assert main(["--help"]) == 1
    assert (
        capsys.readouterr().err == "spades: SPADES_LANG: unknown language 'xx': use one of en, it, sl, fr\n"
    )


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("it", ["Uso: spades replay", "Controlla la registrazione", "Stampa il riassunto JSON"]),
        ("sl", ["Uporaba: spades replay", "Preveri zapis igre", "Izpiši dokumentirani povzetek"]),
        ("fr", ["Utilisation : spades replay", "Vérifie l'enregistrement", "Affiche le résumé JSON"]),
    ],
)
def test_help_is_in_the_chosen_language(
    lang: str, words: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SPADES_LANG", lang)
    assert main(["replay", "--help"]) == 0
    out = capsys.readouterr().out
    for w in words:
        assert w in out, (w, out)
    assert "Show this message and exit." not in out
    monkeypatch.setenv("SPADES_LANG", "en")
    assert main(["replay", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Usage: spades replay" in out and "Show this message and exit." in out


def test_usage_errors_and_the_readable_replay_are_translated(
    bad_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "sl", "replay"]) == 1
    assert (
        capsys.readouterr().err == "spades: manjka argument FILE (uporaba: spades replay [MOŽNOSTI] FILE)\n"
    )
    hand = dict(BAD_PLAY["hands"][0])  # type: ignore[index]
    good = dict(BAD_PLAY, hands=[dict(hand, play=["AH"])])
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good))
    assert main(["--lang", "fr", "replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Donne 1 (donneur Nord)" in out and "Pli  1 (en cours) : Est AH" in out


def test_click_runner_does_not_leak_the_language() -> None:
    result = CliRunner().invoke(cli, ["--lang", "it", "replay", "--nope"])
    assert result.exit_code != 0
    assert language() == "en"
    assert os.environ.get("SPADES_LANG") == "en"
