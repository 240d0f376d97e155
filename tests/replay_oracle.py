"""The replay page's view as it was first written: the record replayed again up to each hand
(quadratic). Kept verbatim as the oracle the one-pass ``replay_view`` must equal
(``test_server_replayview.py``) and as the reference ``bench/replay_speed.py`` times it
against; one copy for both."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spades.cards import CardSet, card_text
from spades.errors import SpadesError
from spades.observation import bid_value
from spades.record import replay
from spades.server.fairness import verify_record


def old_replay_view(data: Any) -> dict[str, Any]:
    """The view ``replay_view`` replaced: the record is replayed again up to each hand."""
    try:
        rep = replay(data)
    except SpadesError as e:
        return {"error": str(e)}
    assert isinstance(data, Mapping)
    game = rep.game
    hands_in = data.get("hands", [])
    hands: list[dict[str, Any]] = []
    for i, log in enumerate(game.logs):
        upto = replay({**data, "hands": hands_in[: i + 1]}).game
        score = game.scores[i] if i < len(game.scores) else None
        hands.append(
            {
                "number": i + 1,
                "dealer": log.dealer,
                "deal": [CardSet(m).texts() for m in log.dealt],
                "bids": [bid_value(b) for b in log.bids],
                "exchange": [
                    {"from": ex.giver, "to": ex.receiver, "cards": ex.cards.texts()} for ex in log.exchanges
                ],
                "tricks": [
                    {"leader": t.leader, "cards": [card_text(c) for c in t.cards], "winner": t.winner}
                    for t in upto.tricks
                ],
                "current": {"leader": upto.trick_leader, "cards": [card_text(c) for c in upto.trick]},
                "score": None
                if score is None
                else {
                    "tricks": list(score.tricks),
                    "points": list(score.points),
                    "bags": list(score.bags),
                    "totals": list(score.totals),
                },
            }
        )
    proofs: list[dict[str, Any]] = []
    proof_error = None
    if data.get("proofs"):
        try:
            _, checks = verify_record(data)
            proofs = [{"hand": c.hand, "ok": c.ok, "why": c.why, "commit": c.commit} for c in checks]
        except SpadesError as e:
            proof_error = str(e)
    return {
        "error": None,
        "players": list(rep.players),
        "n": game.n,
        "teams": game.rules.teams,
        "rules": game.rules.to_spec(),
        "hands": hands,
        "totals": list(game.totals),
        "winner": game.winner,
        "proofs": proofs,
        "proof_error": proof_error,
    }
