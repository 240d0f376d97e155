"""``spades solve``: oracle lines in, the same figures out; bad lines are one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades.cli import main

ORACLE = Path(__file__).parent / "data" / "dd_oracle.jsonl"  # DDS's figures (endplay)


def _small_oracle_lines(n: int) -> list[str]:
    lines = [
        line for line in ORACLE.read_text().splitlines() if len(json.loads(line)["hands"][0].split()) <= 6
    ]
    return lines[:n]


def test_solve_reproduces_the_oracle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _small_oracle_lines(40)
    stripped = []
    for line in lines:
        d = json.loads(line)
        del d["ns_tricks"], d["card_values"]
        stripped.append(json.dumps(d))
    f = tmp_path / "positions.jsonl"
    f.write_text("\n".join(stripped) + "\n")
    assert main(["solve", str(f), "--stats"]) == 0
    out, err = capsys.readouterr()
    got = [json.loads(x) for x in out.splitlines()]
    assert len(got) == len(lines)
    for want, have in zip(map(json.loads, lines), got, strict=True):
        assert have["ns_tricks"] == want["ns_tricks"]
        assert have["card_values"] == want["card_values"]
        assert have["ms"] >= 0
    assert "median" in err and "p90" in err


def test_solve_mid_trick_and_unbroken_spades(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # West led the 2 of hearts; North must follow; South's spades cannot be led later unless broken.
    pos = {
        "hands": ["AH 3C", "KH 2C", "AS KS", "QS 4H"],
        "leader": 3,
        "trick": ["2H"],
        "spades_broken": False,
    }
    pos["hands"][3] = "QS"
    f = tmp_path / "p.jsonl"
    f.write_text(json.dumps(pos) + "\n")
    assert main(["solve", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["card_values"] == {"AH": 2}  # only the heart is legal; NS then win both tricks
    assert out["ns_tricks"] == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "line 2: unreadable JSON"),
        ('{"hands": ["AS", "KS", "QS"], "leader": 0}', "line 2: hands must be a list of 4 hands"),
        ('{"hands": ["AS", "KS", "QS", "AS"], "leader": 0}', "line 2: card AS is in two places"),
        ('{"hands": ["AS KS", "QS", "JS", "TS"], "leader": 0}', "line 2: hands must hold"),
        ('{"hands": ["AS", "KS", "QS", "JS"], "leader": 7}', "line 2: leader 7 is not a seat"),
        ('{"hands": ["AS", "KS", "QS", "ZZ"], "leader": 0}', "line 2: hand 3: unknown card"),
    ],
)
def test_bad_line_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text('{"hands": ["AS", "KS", "QS", "JS"], "leader": 0}\n' + text + "\n")
    assert main(["solve", str(f)]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
