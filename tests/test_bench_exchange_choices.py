"""``bench/exchange_choices.py``: every exchange counted once for each partner, against the rule."""

from __future__ import annotations

from bench_modules import load_bench
from spades.rules import PRESETS


def test_each_exchange_has_both_passes_and_departures_never_exceed_them() -> None:
    bench = load_bench("exchange_choices")
    counts = bench.run(PRESETS["standard"], 3, 5)
    give, back = counts["partner's pass"], counts["bidder's pass back"]
    assert give == back >= 1  # the experts bid Blind Nil at 0-0 under `standard`
    for role, total in (("partner's pass", give), ("bidder's pass back", back)):
        assert counts[f"{role}: not the rule's"] <= total
        for key, n in counts.items():
            if key.startswith(f"{role}: "):
                assert n <= total, key
