"""Playouts: finish a hand from any position, fast, on bit masks.

A playout plays every remaining card of a hand, from any point (mid-trick included), with a
simple policy, and returns the tricks each seat ends with. Bots estimate a move by many of
them on sampled deals, so they run in numba, many per call; ``reference_playout`` is the same
contract in plain Python, written independently, and the tests hold the two (and the engine's
own legality) together card for card.

Randomness is a 32-bit xorshift stream seeded per playout from ``(seed, index)``, identical in
both implementations, so a batch is reproducible and its rows independent of each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from spades.search._jit import HIGH13, lowest_bit, njit, nth_bit, popcount, trick_winner
from spades.search._jit import beats as _beats
from spades.search.positions import InvalidPosition

POLICY_RANDOM: Final = 0
"""Each seat plays a legal card uniformly at random."""
POLICY_GREEDY: Final = 1
"""Win the trick as cheaply as possible when an opponent is winning it, otherwise play low;
lead the top card of a side suit when holding it, else the lowest card."""
POLICIES: Final = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY}

_MASK32: Final = 0xFFFFFFFF

IntArray = np.ndarray[Any, np.dtype[np.int64]]


@njit
def _seed_state(seed: int, index: int) -> int:
    """A non-zero 32-bit start state that differs for every (seed, index)."""
    x = (seed * 0x9E3779B1 + index * 0x85EBCA77 + 0x165667B1) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x2C1B3C6D) & 0xFFFFFFFF
    x ^= x >> 12
    x = (x * 0x297A2D39) & 0xFFFFFFFF
    x ^= x >> 15
    return x if x != 0 else 0x6A09E667


@njit
def _next(x: int) -> int:
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x


@njit
def _low_key(c: int) -> int:
    """Order for "play low": by rank, a side suit before a spade, then by suit."""
    return (c % 13) * 8 + (4 if c < 13 else 0) + c // 13


@njit
def _lowest(legal: int) -> int:
    """The legal card of lowest rank, preferring a side suit to a spade at equal rank."""
    best = -1
    best_key = 1 << 30
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        key = _low_key(c)
        if key < best_key:
            best_key = key
            best = c
    return best


@njit
def _greedy(legal: int, hands: IntArray, seat: int, trick: IntArray, tn: int, leader: int) -> int:
    if tn == 0:
        rest = hands[0] | hands[1] | hands[2] | hands[3]
        for s in range(1, 4):
            f = (legal >> (13 * s)) & 0x1FFF
            if f:
                top: int = HIGH13[f]
                if top == HIGH13[(rest >> (13 * s)) & 0x1FFF]:
                    return 13 * s + top
        return _lowest(legal)
    best = trick[0]
    bi = 0
    for i in range(1, tn):
        if _beats(trick[i], best):
            best = trick[i]
            bi = i
    winner = (leader + bi) & 3
    if winner == (seat ^ 2):
        return _lowest(legal)
    cheapest = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if _beats(c, best) and (cheapest < 0 or _low_key(c) < _low_key(cheapest)):
            cheapest = c
    if cheapest >= 0:
        return cheapest
    return _lowest(legal)


@njit
def _run(
    hands: IntArray,
    trick: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    tricks: IntArray,
    policy: int,
    state: int,
    log: IntArray,
) -> int:
    """Play the hand out in place (``hands``, ``tricks``); cards go to ``log`` (-1 ends it).

    Returns the number of cards played."""
    seat = (leader + tn) & 3
    n = 0
    while True:
        h = hands[seat]
        if h == 0:
            break
        if tn > 0:
            f = h & (0x1FFF << (13 * (trick[0] // 13)))
            legal = f if f else h
        elif broken:
            legal = h
        else:
            legal = h & ~0x1FFF
            if legal == 0:
                legal = h
        if policy == 0:
            state = _next(state)
            # The same draw as ``state % n``, in 32-bit unsigned arithmetic: a 64-bit signed
            # modulo (with Python's sign rule) cost 7% of the playout.
            card = nth_bit(legal, int(np.uint32(state) % np.uint32(popcount(legal))))
        else:
            card = _greedy(legal, hands, seat, trick, tn, leader)
        if card < 13 and (tn == 0 or trick[0] >= 13):
            broken = True
        hands[seat] = h ^ (1 << card)
        trick[tn] = card
        tn += 1
        if n < log.shape[0]:
            log[n] = card
        n += 1
        if tn == 4:
            leader = (leader + trick_winner(trick[0], trick[1], trick[2], trick[3])) & 3
            tricks[leader] += 1
            tn = 0
            seat = leader
        else:
            seat = (seat + 1) & 3
    if n < log.shape[0]:
        log[n] = -1
    return n


@njit
def _batch(
    hands: IntArray,
    trick: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    tricks: IntArray,
    policy: int,
    seed: int,
    out: IntArray,
) -> None:
    log = np.empty(0, dtype=np.int64)
    h = np.empty(4, dtype=np.int64)
    t = np.empty(4, dtype=np.int64)
    tw = np.empty(4, dtype=np.int64)
    for i in range(hands.shape[0]):
        for s in range(4):
            h[s] = hands[i, s]
            t[s] = trick[s]
            tw[s] = tricks[s]
        _run(h, t, tn, leader, broken, tw, policy, _seed_state(seed, i), log)
        for s in range(4):
            out[i, s] = tw[s]


# ---------------------------------------------------------------------- public API
def _check(
    hands: Sequence[int] | IntArray,
    to_move: int,
    trick: Sequence[int],
    leader: int,
    tricks_won: Sequence[int],
) -> None:
    if len(trick) > 3:
        raise InvalidPosition(f"a trick in progress holds at most 3 cards, not {len(trick)}")
    if (leader + len(trick)) % 4 != to_move:
        raise InvalidPosition(f"seat {to_move} is not to move after {len(trick)} cards led by seat {leader}")
    if len(tricks_won) != 4:
        raise InvalidPosition("tricks_won needs one count per seat")
    if len(hands) != 4:
        raise InvalidPosition("hands needs one mask per seat")


def _policy_code(policy: str) -> int:
    try:
        return POLICIES[policy]
    except KeyError:
        raise InvalidPosition(f"unknown playout policy {policy!r} (known: {', '.join(POLICIES)})") from None


def playout_batch(
    hands: IntArray | Sequence[Sequence[int]],
    to_move: int,
    trick: Sequence[int] = (),
    leader: int | None = None,
    spades_broken: bool = False,
    tricks_won: Sequence[int] = (0, 0, 0, 0),
    *,
    policy: str = "random",
    seed: int = 0,
) -> IntArray:
    """Play out many deals that share the table state; return final tricks, shape ``(n, 4)``.

    ``hands`` is ``(n, 4)``: row ``i`` holds each seat's remaining cards as 52-bit masks (one
    sampled deal per row; repeat a row to play one deal many times). ``trick`` lists the cards
    already on the table in play order, led by ``leader`` (default: ``to_move`` when the trick
    is empty); those cards are no longer in ``hands``. ``tricks_won`` is each seat's count so
    far, and the result includes it. The same arguments and ``seed`` give the same result.
    """
    arr = np.ascontiguousarray(np.asarray(hands, dtype=np.int64))
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise InvalidPosition(f"hands must have shape (n, 4), not {arr.shape}")
    if leader is None:
        leader = (to_move - len(trick)) % 4
    _check(arr[0] if len(arr) else [0, 0, 0, 0], to_move, trick, leader, tricks_won)
    t = np.full(4, -1, dtype=np.int64)
    t[: len(trick)] = list(trick)
    out = np.empty((arr.shape[0], 4), dtype=np.int64)
    _batch(
        arr,
        t,
        len(trick),
        leader,
        bool(spades_broken),
        np.asarray(tricks_won, dtype=np.int64),
        _policy_code(policy),
        seed & 0xFFFFFFFF,
        out,
    )
    return out


def playout(
    hands: Sequence[int],
    to_move: int,
    trick: Sequence[int] = (),
    leader: int | None = None,
    spades_broken: bool = False,
    tricks_won: Sequence[int] = (0, 0, 0, 0),
    *,
    policy: str = "random",
    seed: int = 0,
) -> tuple[int, int, int, int]:
    """Play one deal out (see ``playout_batch``); return each seat's final trick count."""
    row = playout_batch(
        [list(hands)], to_move, trick, leader, spades_broken, tricks_won, policy=policy, seed=seed
    )[0]
    return int(row[0]), int(row[1]), int(row[2]), int(row[3])


def playout_cards(
    hands: Sequence[int],
    to_move: int,
    trick: Sequence[int] = (),
    leader: int | None = None,
    spades_broken: bool = False,
    tricks_won: Sequence[int] = (0, 0, 0, 0),
    *,
    policy: str = "random",
    seed: int = 0,
    index: int = 0,
) -> tuple[list[int], tuple[int, int, int, int]]:
    """Row ``index`` of ``playout_batch`` with the cards it played, in order (for checks)."""
    if leader is None:
        leader = (to_move - len(trick)) % 4
    _check(hands, to_move, trick, leader, tricks_won)
    h = np.asarray(list(hands), dtype=np.int64)
    t = np.full(4, -1, dtype=np.int64)
    t[: len(trick)] = list(trick)
    tw = np.asarray(tricks_won, dtype=np.int64)
    log = np.empty(53, dtype=np.int64)
    n = _run(
        h,
        t,
        len(trick),
        leader,
        bool(spades_broken),
        tw,
        _policy_code(policy),
        _seed_state(seed & 0xFFFFFFFF, index),
        log,
    )
    return [int(c) for c in log[:n]], (int(tw[0]), int(tw[1]), int(tw[2]), int(tw[3]))


# ---------------------------------------------------------------------- plain-Python reference
def reference_playout(
    hands: Sequence[int],
    to_move: int,
    trick: Sequence[int] = (),
    leader: int | None = None,
    spades_broken: bool = False,
    tricks_won: Sequence[int] = (0, 0, 0, 0),
    *,
    policy: str = "random",
    seed: int = 0,
    index: int = 0,
) -> tuple[list[int], tuple[int, int, int, int]]:
    """The contract of ``playout_cards`` written plainly over lists of cards (for the tests)."""
    if leader is None:
        leader = (to_move - len(trick)) % 4
    _check(hands, to_move, trick, leader, tricks_won)
    code = _policy_code(policy)
    held = [sorted(c for c in range(52) if h >> c & 1) for h in hands]
    table = list(trick)
    won = list(tricks_won)
    broken = spades_broken
    state = _seed_state.py_func(seed & 0xFFFFFFFF, index)  # type: ignore[attr-defined]
    seat = to_move
    played: list[int] = []
    while held[seat]:
        mine = held[seat]
        if table:
            follow = [c for c in mine if c // 13 == table[0] // 13]
            legal = follow or mine
        else:
            legal = mine if broken else ([c for c in mine if c >= 13] or mine)
        if code == POLICY_RANDOM:
            state = _ref_next(state)
            card = legal[state % len(legal)]
        else:
            card = _ref_greedy(legal, held, seat, table, leader)
        if card < 13 and (not table or table[0] >= 13):
            broken = True
        mine.remove(card)
        table.append(card)
        played.append(card)
        if len(table) == 4:
            leader = (leader + _ref_winner(table)) % 4
            won[leader] += 1
            table = []
            seat = leader
        else:
            seat = (seat + 1) % 4
    return played, (won[0], won[1], won[2], won[3])


def _ref_next(x: int) -> int:
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    x ^= (x << 5) & _MASK32
    return x


def _ref_wins_over(card: int, best: int) -> bool:
    if card // 13 == best // 13:
        return card > best
    return card // 13 == 0


def _ref_winner(table: list[int]) -> int:
    best = 0
    for i in range(1, len(table)):
        if _ref_wins_over(table[i], table[best]):
            best = i
    return best


def _ref_low_key(c: int) -> tuple[int, int, int]:
    return (c % 13, 1 if c < 13 else 0, c // 13)


def _ref_greedy(legal: list[int], held: list[list[int]], seat: int, table: list[int], leader: int) -> int:
    if not table:
        for suit in (1, 2, 3):
            mine = [c for c in legal if c // 13 == suit]
            if mine:
                every = [c for h in held for c in h if c // 13 == suit]
                if max(mine) == max(every):
                    return max(mine)
        return min(legal, key=_ref_low_key)
    win_i = _ref_winner(table)
    if (leader + win_i) % 4 == (seat + 2) % 4:
        return min(legal, key=_ref_low_key)
    winners = [c for c in legal if _ref_wins_over(c, table[win_i])]
    return min(winners or legal, key=_ref_low_key)
