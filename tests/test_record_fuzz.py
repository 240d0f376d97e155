"""The record loader under any input: a ``Replay`` or an ``InvalidRecord`` with one line,
never another exception. Arbitrary JSON, and valid records with one value changed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades import record
from spades.errors import InvalidRecord

GOLDEN = Path(__file__).parent / "golden"
BASES = [
    json.loads(p.read_text()) for p in sorted(GOLDEN.glob("*.json")) if not p.name.endswith(".expected.json")
]

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.integers(-3, 60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(
        [
            *("nil", "blind_nil", "AS", "10h", "2C", "standard", "two_player", "ZZ", "", "carry"),
            *("BJ", "LJ", "2D", "mirror", "jjdd", "big_little", "cutthroat3", "suicide", "partner", "any"),
        ]
    ),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(
            st.text(max_size=8)
            | st.sampled_from(
                [
                    "rules",
                    "hands",
                    "deal",
                    "bids",
                    "play",
                    "exchange",
                    "stock",
                    "first_dealer",
                    "players",
                    "format",
                    "jokers",
                    "bidding",
                    "big_bid",
                    "team_min_bid",
                ]
            ),
            inner,
            max_size=5,
        ),
    ),
    max_leaves=20,
)


def check(data: Any) -> None:
    try:
        rep = record.replay(data)
    except InvalidRecord as e:
        assert str(e) and "\n" not in str(e)
        return
    summary = record.summary(rep.game)
    json.dumps(summary)  # the summary of anything accepted is printable


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value(data: Any) -> None:
    check(data)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40) | st.binary(max_size=40).map(lambda b: b.decode("latin-1")))
def test_any_text(text: str) -> None:
    try:
        record.loads(text)
    except InvalidRecord as e:
        assert "\n" not in str(e)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*prefix, i))
    return out


@st.composite
def mutated_records(draw: st.DrawFn) -> Any:
    """A golden record with one value replaced, deleted or an element appended."""
    data = copy.deepcopy(draw(st.sampled_from(BASES)))
    data["hands"] = data["hands"][:2]  # keep replays short
    where = draw(st.sampled_from(paths(data)[1:]))
    parent = data
    for key in where[:-1]:
        parent = parent[key]
    how = draw(st.sampled_from(["replace", "delete", "append"]))
    if how == "delete":
        del parent[where[-1]]
    elif how == "append" and isinstance(parent[where[-1]], list):
        parent[where[-1]].append(draw(json_values))
    else:
        parent[where[-1]] = draw(json_values)
    return data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_valid_records_with_one_change(data: Any) -> None:
    check(data)
