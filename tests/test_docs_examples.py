"""Every ```python block of README.md and docs/*.md runs, so the examples users copy stay true.

The blocks of one document run in order in one namespace (a later block may use an earlier
one's names), in a fresh interpreter started in the repository (examples may set process-wide
defaults, start worker processes or name ``examples/random_bot.py``), with top-level ``await``
allowed. Some blocks are sketches of an API whose inputs the prose around them describes
(``hands``, ``obs``, ...): ``GIVEN`` holds, per document, the setup that makes those names
real values. A failure shows the traceback at the document's own line numbers.

Check one document by hand: ``python tests/test_docs_examples.py docs/search.md``.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)

_POSITION = """
import random

import numpy as np

from spades import Game, Phase, Rules
from spades.scoring import SeatBid

game = Game(seed=3)
rng = random.Random(3)
while game.phase is not Phase.PLAY:
    game.apply_code(rng.choice(game.legal_codes()))
for _ in range(32):  # five tricks left (search.md's first solve() call says trick=())
    game.play(rng.choice(game.legal_codes()))
hands, to_move, trick, leader = list(game.hands), game.turn, list(game.trick), game.trick_leader
spades_broken, tricks_won = game.spades_broken, list(game.tricks_won)
hands_2d = np.array([hands] * 8, dtype=np.int64)
rules, bids = Rules(), [SeatBid(3), SeatBid(4), SeatBid(3), SeatBid(0)]
"""

GIVEN: dict[str, str] = {
    "docs/bots.md": "from spades import Game\ngame = Game(seed=1)\nseat = game.to_move\n",
    "docs/compute.md": (
        "from spades import Game\n"
        "game = Game(seed=1)\n"
        "obs, legal = game.observation(game.to_move), game.legal_actions()\n"
        "body = open('tests/golden/hoyle_full.json', 'rb').read()\n"
    ),
    "docs/search.md": _POSITION,
}
"""Per document, the names its sketches take from the prose, made real."""


def documents() -> list[str]:
    """README.md and docs/*.md that hold a ```python block, relative to the repository."""
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return [str(p.relative_to(ROOT)) for p in paths if BLOCK.search(p.read_text())]


def blocks(document: str) -> list[tuple[int, str]]:
    """(line of the block's first code line, code) of each ```python block, in order."""
    text = (ROOT / document).read_text()
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in BLOCK.finditer(text)]


def run_document(document: str) -> None:
    """Run the document's setup and blocks; a block's traceback names ``document:line``."""
    namespace: dict[str, Any] = {"__name__": "__doc_example__"}
    sys.argv = [document]  # a program shown whole sees no arguments
    exec(compile(GIVEN.get(document, ""), f"GIVEN[{document!r}]", "exec"), namespace)
    loop = asyncio.new_event_loop()
    try:
        for line, code in blocks(document):
            source = "\n" * (line - 1) + code  # so that line numbers are the document's
            compiled = compile(source, document, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
            result = eval(compiled, namespace)
            if inspect.iscoroutine(result):
                loop.run_until_complete(result)
    finally:
        loop.close()


def test_the_documents_with_examples_are_found() -> None:
    found = documents()
    assert "README.md" in found and "docs/engine.md" in found
    assert set(GIVEN) <= set(found), "a GIVEN entry names a document without ```python blocks"


@pytest.mark.parametrize("document", documents())
def test_the_examples_run(document: str) -> None:
    proc = subprocess.run(
        [sys.executable, __file__, document], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, f"an example of {document} fails:\n{proc.stderr[-3000:]}"


if __name__ == "__main__":
    for name in sys.argv[1:]:
        run_document(name)
