"""The numba double-dummy kernel: null-window searches on North/South trick counts.

``_search(..., target)`` answers "can North/South take at least ``target`` of the remaining
tricks?" fail-soft (the answer is also a bound), and ``_solve`` drives it MTD(f)-style for
the value and for every legal card. What makes it fast (docs/search.md has the details):

* a partition-search table probed at every trick start: bounds proven for a shape (suit
  lengths per hand, leader, spades flag) and the holders of the cards the proof relied on,
  compared by relative rank, so one entry answers many positions and stays valid across deals;
* rank equivalence: one move per run of equivalent cards, and cards below the lowest rank a
  searched card's result relied on are skipped;
* the card that last refuted a similar node is tried before the other moves are generated;
* sure-trick bounds (either side's top spades) before the table walk.

Masks are int64; buffers are preallocated per depth, so the search allocates nothing.
Move generation and ordering, the remembered cards and the stack's bookkeeping are shared
with score mode (``_kernel_common``); this module holds what is the trick solver's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spades.search._jit import HIGH13, POP13, borrow, borrow_all, njit, popcount
from spades.search._jit import field as _field
from spades.search._kernel_common import (
    ENTER,
    EXIT,
    FINISH,
    K_BROKEN,
    K_CARD,
    K_I,
    K_KEY,
    K_LAZY,
    K_LEADER,
    K_N,
    K_OWN,
    K_TN,
    NEXT,
    _greedy,
    _hash,
    _last_trick,
    _moves,
    _play,
    _pop,
    _push,
    _remember_cut,
    _rest_of_moves,
    _root_moves,
    _share_run_values,
    _side_top_trumps,
    _start,
    _winner_floor,
)

IntArray = np.ndarray[Any, np.dtype[np.int64]]
Bufs = tuple[IntArray, ...]
"""The search's work arrays, passed down as one argument (built by ``_solve``):
``(tkey, epat, tuse, kill, fr, ftc, ffl, mvs, scs, rel, tmp, stats)``."""


# ---------------------------------------------------------------------- transposition table
# Partition search, as in DDS: an entry holds bounds proven for every position with the same
# suit lengths in each hand, the same leader and spades flag, and the same holders of the top
# cards of each suit down to the lowest rank the proof relied on ("relevant" cards); the
# smaller cards' identities did not matter, so they may differ.
#
# Layout: an open-addressed table of "shapes" (``tkey[i]``: the length key, then where the
# shape's entries start in the pool, how many there are and how many fit there) and a pool
# of entries (``epat[e]``: North's, East's and South's relevant cards by relative rank, the
# mask of relevant relative ranks, and lower bound, upper bound and best lead packed in one
# word). One shape gathers many patterns in a 13-card deal and a lookup reads them all when
# none matches, so a shape's entries sit side by side (the walk reads memory in order); a
# full block moves to a block twice its size, a free one of that size if a growth left one
# behind, else at the end of the pool. When the pool or the shape table fills up, the entries
# of the positions with the fewest cards left go, the rest are packed and the shapes rehashed
# (``_make_room``; ``tuse``: pool rows and shapes in use, then the free blocks by size).
T_KEY = 0
T_START = 1
T_COUNT = 2
T_CAP = 3
E_MASK = 3
E_BOUNDS = 4


@njit
def _bounds_word(lower: int, upper: int, mv: int) -> int:
    return lower | (upper << 8) | ((mv + 1) << 16)


@njit
def _lower(w: int) -> int:
    return w & 0xFF


@njit
def _upper(w: int) -> int:
    return (w >> 8) & 0xFF


@njit
def _best_lead(w: int) -> int:
    return (w >> 16) - 1


@njit
def _lenkey(hands: IntArray, leader: int, broken: bool) -> int:
    """Suit lengths of every hand (West's spades follow from the others), leader, spades flag."""
    k = 0
    for p in range(4):
        h = hands[p]
        for s in range(4):
            if p == 3 and s == 3:
                continue
            k = (k << 4) | POP13[_field(h, s)]
    return (k << 3) | (leader << 1) | (1 if broken else 0)


def _compress_tables() -> tuple[IntArray, IntArray]:
    lo = np.zeros(1 << 14, dtype=np.int64)
    hi = np.zeros(1 << 12, dtype=np.int64)
    for bits, table in ((7, lo), (6, hi)):
        for m in range(1 << bits):
            for x in range(1 << bits):
                out = 0
                k = 0
                for i in range(bits):
                    if (m >> i) & 1:
                        if (x >> i) & 1:
                            out |= 1 << k
                        k += 1
                table[(m << bits) | x] = out
    return lo, hi


COMP7, COMP6 = _compress_tables()
"""Bit compression (the cards of a hand renumbered among a suit's live cards), by halves."""


@njit
def _compress(x: int, m: int) -> int:
    lo = COMP7[((m & 0x7F) << 7) | (x & 0x7F)]
    hi = COMP6[((m >> 7) << 6) | (x >> 7)]
    out: int = lo | (hi << POP13[m & 0x7F])
    return out


@njit
def _relative(hands: IntArray, rel: IntArray) -> None:
    """North's, East's and South's hands by relative rank: each suit's live cards renumbered
    so that its highest is rank 12, the next 11, and so on (West holds the rest)."""
    u = hands[0] | hands[1] | hands[2] | hands[3]
    r0 = 0
    r1 = 0
    r2 = 0
    for s in range(4):
        us = _field(u, s)
        sh = 13 * s + 13 - POP13[us]
        r0 |= _compress(_field(hands[0], s), us) << sh
        r1 |= _compress(_field(hands[1], s), us) << sh
        r2 |= _compress(_field(hands[2], s), us) << sh
    rel[0] = r0
    rel[1] = r1
    rel[2] = r2


@njit
def _matches(epat: IntArray, e: int, rel: IntArray) -> bool:
    m = epat[e, E_MASK]
    ok: bool = (rel[0] & m) == epat[e, 0] and (rel[1] & m) == epat[e, 1] and (rel[2] & m) == epat[e, 2]
    return ok


@njit
def _floors_of_entry(hands: IntArray, epat: IntArray, e: int, floor: IntArray) -> None:
    """The entry's relevant cards as floors in this position (its m-th highest card per suit)."""
    u = hands[0] | hands[1] | hands[2] | hands[3]
    for s in range(4):
        m = POP13[_field(epat[e, E_MASK], s)]
        f = _field(u, s)
        fl = 13
        for _ in range(m):
            fl = HIGH13[f]
            f ^= 1 << fl
        floor[s] = fl


T_TW = 4
"""Score mode's shape table has one more column, the tricks' class, which its shapes hash with."""
FREE0 = 2
"""``tuse[FREE0 + k]``: the first of the free blocks of 2**k to 2**(k+1) - 1 rows (-1: none;
each free block's first row holds the next one's place)."""
TUSE_LEN = FREE0 + 32


@njit
def _clear_table(tkey: IntArray, tuse: IntArray) -> None:
    tkey[:, T_KEY] = -1
    tuse[0] = 0
    tuse[1] = 0
    for k in range(FREE0, tuse.shape[0]):
        tuse[k] = -1


@njit
def _log2(x: int) -> int:
    k = 0
    while x > 1:
        x >>= 1
        k += 1
    return k


@njit
def _slot_of(tkey: IntArray, lk: int, tw: int) -> int:
    """The slot of shape ``lk`` (with tricks' class ``tw`` in score mode's wider table; 0 in
    the trick solver's), or the empty slot where it would go."""
    mask = tkey.shape[0] - 1
    wide = tkey.shape[1] > T_TW
    i: int = _hash(lk ^ (tw * 0x9E3779B1)) & mask
    while tkey[i, T_KEY] != -1 and (tkey[i, T_KEY] != lk or (wide and tkey[i, T_TW] != tw)):
        i = (i + 1) & mask
    return i


@njit
def _make_room(tkey: IntArray, epat: IntArray, tuse: IntArray, need: int) -> None:
    """The pool has no room for ``need`` more rows, or the shape table is three quarters full:
    the entries of the positions with the fewest cards left (the least work saved) are dropped
    until at most three quarters of the pool and three eighths of the shape table are kept,
    the survivors' blocks are packed to the front of the pool, each at its count, and the
    shape table is rebuilt.
    Everything is forgotten only if that leaves no room. Shared by both kernels (``epat``'s and
    ``tkey``'s widths are theirs; a shape's key starts with North's suit lengths)."""
    used = np.nonzero(tkey[:, T_KEY] != -1)[0]
    rows = np.zeros(14, dtype=np.int64)
    shapes = np.zeros(14, dtype=np.int64)
    cards = np.empty(used.shape[0], dtype=np.int64)
    starts = np.empty(used.shape[0], dtype=np.int64)
    total = 0
    for k in range(used.shape[0]):
        lk = tkey[used[k], T_KEY]
        c = 0
        for i in range(4):
            c += (lk >> (3 + 4 * (14 - i))) & 15
        cards[k] = c
        starts[k] = tkey[used[k], T_START]
        rows[c] += tkey[used[k], T_COUNT]
        shapes[c] += 1
        total += tkey[used[k], T_COUNT]
    n_shapes = used.shape[0]
    limit = 3 * tkey.shape[0] // 8
    drop = 0  # entries of positions with this many cards or fewer go
    while drop < 13 and (4 * total > 3 * epat.shape[0] or n_shapes > limit):
        drop += 1
        total -= rows[drop]
        n_shapes -= shapes[drop]
    order = np.argsort(starts)
    keep = np.empty((used.shape[0], tkey.shape[1]), dtype=np.int64)
    m = 0
    w = 0
    for k in range(order.shape[0]):
        slot = used[order[k]]
        n = tkey[slot, T_COUNT]
        if cards[order[k]] <= drop or n == 0:
            continue
        st = tkey[slot, T_START]
        if st != w:
            # Blocks in order of place, each moved down: a copy from the front is safe.
            for i in range(n):
                for j in range(epat.shape[1]):
                    epat[w + i, j] = epat[st + i, j]
        for j in range(tkey.shape[1]):
            keep[m, j] = tkey[slot, j]
        keep[m, T_START] = w
        keep[m, T_CAP] = n
        m += 1
        w += n
    _clear_table(tkey, tuse)
    if w + need > epat.shape[0]:
        return
    for k in range(m):
        tw = keep[k, T_TW] if tkey.shape[1] > T_TW else 0
        slot = _slot_of(tkey, keep[k, T_KEY], tw)
        for j in range(tkey.shape[1]):
            tkey[slot, j] = keep[k, j]
    tuse[0] = w
    tuse[1] = m


@njit
def _room_for_entry(tkey: IntArray, epat: IntArray, tuse: IntArray, slot: int, lk: int, tw: int) -> int:
    """The slot of shape ``lk`` (``tw``: see ``_slot_of``; ``slot``: what ``_slot_of`` gave)
    with room for one more entry: a new shape when it has none, a full block moved to a block
    twice its size (a free one of that size if any: a block left behind by a growth is reused,
    not lost until the pool fills), room made when the pool or the shape table is full (the
    shapes are rehashed: the slot is looked up again). Shared by both kernels."""
    while True:
        if tkey[slot, T_KEY] != lk:
            if 4 * tuse[1] >= 3 * tkey.shape[0]:
                _make_room(tkey, epat, tuse, 0)
                slot = _slot_of(tkey, lk, tw)
                continue
            tkey[slot, T_KEY] = lk
            if tkey.shape[1] > T_TW:
                tkey[slot, T_TW] = tw
            tkey[slot, T_START] = 0
            tkey[slot, T_COUNT] = 0
            tkey[slot, T_CAP] = 0
            tuse[1] += 1
        n = tkey[slot, T_COUNT]
        if n < tkey[slot, T_CAP]:
            return slot
        cap = 4 if n < 4 else 1 << (_log2(n) + 1)
        k = _log2(cap)
        start = tuse[FREE0 + k]
        if start >= 0:
            tuse[FREE0 + k] = epat[start, 0]
        elif tuse[0] + cap <= epat.shape[0]:
            start = tuse[0]
            tuse[0] += cap
        else:
            _make_room(tkey, epat, tuse, cap)
            slot = _slot_of(tkey, lk, tw)
            continue
        old = tkey[slot, T_START]
        for i in range(n):
            for j in range(epat.shape[1]):
                epat[start + i, j] = epat[old + i, j]
        old_cap = tkey[slot, T_CAP]
        if old_cap >= 4:
            kk = _log2(old_cap)
            epat[old, 0] = tuse[FREE0 + kk]
            tuse[FREE0 + kk] = old
        tkey[slot, T_START] = start
        tkey[slot, T_CAP] = cap
        return slot


@njit
def _store(
    hands: IntArray,
    lk: int,
    lower: int,
    upper: int,
    floor: IntArray,
    tkey: IntArray,
    epat: IntArray,
    tuse: IntArray,
    bm: int,
    rel: IntArray,
) -> None:
    """Record bounds with the floors they relied on (and the lead that proved them, as suit
    and place from the top, or -1): an entry with the same relevant cards is tightened, else
    a new entry goes to the front of the shape's chain."""
    _relative(hands, rel)
    u = hands[0] | hands[1] | hands[2] | hands[3]
    for s in range(4):
        # Moves were merged by runs of equivalent cards: a run reaching below the floor is a
        # run only where its lower cards sit in the same hand too, so they become relevant.
        fl = floor[s]
        if fl < 13:
            f = _field(u, s)
            holder = 0
            for q in range(4):
                if (_field(hands[q], s) >> fl) & 1:
                    holder = q
            hf = _field(hands[holder], s)
            while True:
                below = f & ((1 << fl) - 1)
                if below == 0:
                    break
                nr = HIGH13[below]
                if not (hf >> nr) & 1:
                    break
                fl = nr
            floor[s] = fl
    mk = 0
    for s in range(4):
        if floor[s] < 13:
            m = POP13[_field(u, s) >> floor[s]]
            mk |= ((0x1FFF >> (13 - m)) << (13 - m)) << (13 * s)
    p0 = rel[0] & mk
    p1 = rel[1] & mk
    p2 = rel[2] & mk
    slot = _slot_of(tkey, lk, 0)
    if tkey[slot, T_KEY] == lk:
        start = tkey[slot, T_START]
        e = start
        while e < start + tkey[slot, T_COUNT]:
            em = epat[e, E_MASK]
            if em == mk and epat[e, 0] == p0 and epat[e, 1] == p1 and epat[e, 2] == p2:
                w = epat[e, E_BOUNDS]
                lo = max(lower, _lower(w))
                up = min(upper, _upper(w))
                epat[e, E_BOUNDS] = _bounds_word(lo, up, bm if bm >= 0 else _best_lead(w))
                return
            w = epat[e, E_BOUNDS]
            if (
                (em & mk) == mk
                and (epat[e, 0] & mk) == p0
                and (epat[e, 1] & mk) == p1
                and (epat[e, 2] & mk) == p2
                and _lower(w) <= lower
                and _upper(w) >= upper
            ):
                # Every position this entry covers, the new one covers with bounds at least as
                # tight: drop it (the shape's last entry takes its place).
                last = start + tkey[slot, T_COUNT] - 1
                for j in range(5):
                    epat[e, j] = epat[last, j]
                tkey[slot, T_COUNT] -= 1
                continue
            e += 1
    slot = _room_for_entry(tkey, epat, tuse, slot, lk, 0)
    n = tkey[slot, T_COUNT]
    e = tkey[slot, T_START] + n
    tkey[slot, T_COUNT] = n + 1
    epat[e, 0] = p0
    epat[e, 1] = p1
    epat[e, 2] = p2
    epat[e, E_MASK] = mk
    epat[e, E_BOUNDS] = _bounds_word(lower, upper, bm)


# Frame fields of the explicit search stack (one row per depth, depth <= 52): the common
# ones (``_kernel_common.K_*``), then the target, the shape key and the value so far.
F_TARGET = K_OWN
F_LK = K_OWN + 1
F_VAL = K_OWN + 2
NF = K_OWN + 3


@njit
def _search(
    hands: IntArray,
    tc0: IntArray,
    tn0: int,
    leader0: int,
    broken0: bool,
    target0: int,
    bufs: Bufs,
) -> int:
    """A null-window search on "can North/South take ``target0`` or more of the tricks still to
    be won (the current one included)?" ``tc0[:tn0]`` are the cards on the table, led by
    ``leader0``. Fail-soft: a result >= ``target0`` is a lower bound on North/South's tricks,
    a smaller one an upper bound (so the caller's next probe can jump).

    Alpha-beta with an explicit stack (numba cannot cache recursive code).
    ``ffl[d]`` holds, per suit, the lowest rank the result at depth ``d`` relied on."""
    # Borrowed: no reference counts in the loop (``_jit.borrow``).
    tkey, epat, tuse, kill, fr, ftc, ffl, mvs, scs, rel, tmp, stats = borrow_all(bufs)
    hands = borrow(hands)
    d = 0
    _start(fr, ftc, tc0, tn0, leader0, broken0)
    fr[0, F_TARGET] = target0
    mode = ENTER
    val = 0
    while True:
        if mode == ENTER:
            stats[0] += 1
            tn = fr[d, K_TN]
            leader = fr[d, K_LEADER]
            broken = fr[d, K_BROKEN] != 0
            target = fr[d, F_TARGET]
            for s in range(4):
                ffl[d, s] = 13
                ffl[d, 4 + s] = 0
            fr[d, F_LK] = -1
            pref = -1
            mode = NEXT
            if tn == 0:
                r = popcount(hands[leader])
                if target <= 0:
                    val = 0
                    mode = EXIT
                elif target > r:
                    val = r
                    mode = EXIT
                elif r == 1:
                    w, ws, wfl = _last_trick(hands, leader)
                    if wfl < 13:
                        ffl[d, ws] = wfl
                    val = 1 if (w & 1) == 0 else 0
                    mode = EXIT
                else:
                    if mode != EXIT:
                        k, fl = _side_top_trumps(hands, leader ^ 1)
                        if (leader & 1) == 0 and r - k < target:
                            val = r - k
                            mode = EXIT
                        elif (leader & 1) == 1 and k >= target:
                            val = k
                            mode = EXIT
                        if mode == EXIT:
                            ffl[d, 0] = fl
                    if mode != EXIT:
                        k, fl = _side_top_trumps(hands, leader)
                        if (leader & 1) == 0 and k >= target:
                            val = k
                            mode = EXIT
                        elif (leader & 1) == 1 and r - k < target:
                            val = r - k
                            mode = EXIT
                        if mode == EXIT:
                            ffl[d, 0] = fl
                    if mode != EXIT:
                        lk = _lenkey(hands, leader, broken)
                        fr[d, F_LK] = lk
                        slot = _slot_of(tkey, lk, 0)
                        if tkey[slot, T_KEY] == lk:
                            _relative(hands, rel)
                            start = tkey[slot, T_START]
                            newest = start + tkey[slot, T_COUNT] - 1
                            # Newest first: a hit moves one place towards the front of the walk.
                            for e in range(newest, start - 1, -1):
                                if not _matches(epat, e, rel):
                                    continue
                                w = epat[e, E_BOUNDS]
                                mvk = _best_lead(w)
                                if pref < 0 and mvk >= 0:
                                    ps = mvk >> 4
                                    f = _field(hands[0] | hands[1] | hands[2] | hands[3], ps)
                                    for _ in range(mvk & 15):
                                        f ^= 1 << HIGH13[f]
                                    if f:
                                        pref = 13 * ps + HIGH13[f]
                                if _lower(w) >= target:
                                    val = _lower(w)
                                    mode = EXIT
                                elif _upper(w) < target:
                                    val = _upper(w)
                                    mode = EXIT
                                if mode == EXIT:
                                    _floors_of_entry(hands, epat, e, tmp)
                                    for s in range(4):
                                        ffl[d, s] = tmp[s]
                                    if e < newest:
                                        for j in range(5):
                                            x = epat[e, j]
                                            epat[e, j] = epat[newest, j]
                                            epat[newest, j] = x
                                    break
            if mode == NEXT:
                p = (leader + tn) & 3
                # Cut-off cards are remembered per target, too.
                _moves(
                    hands,
                    fr,
                    ftc,
                    mvs,
                    scs,
                    kill,
                    d,
                    pref,
                    (target << 56) ^ (p << 60),
                    0,
                    ((target & 15) << 58) ^ (1 << 57),
                )
                fr[d, F_VAL] = -1 if (p & 1) == 0 else 99
        if mode == NEXT:
            i = fr[d, K_I]
            n = fr[d, K_N]
            if i >= n and fr[d, K_LAZY] > 0:
                n = _rest_of_moves(hands, fr, ftc, mvs, scs, d)
                i = 1
            # Cards below the lowest relevant rank of a tried card's suit are equivalent to it.
            while i < n and mvs[d, i] % 13 < ffl[d, 4 + mvs[d, i] // 13]:
                i += 1
            fr[d, K_I] = i
            if i >= n:
                val = fr[d, F_VAL]
                mode = FINISH
            else:
                fr[d, K_I] = i + 1
                w = _push(hands, fr, ftc, d, mvs[d, i])
                e = d + 1
                fr[e, F_TARGET] = fr[d, F_TARGET] - (1 if w >= 0 and (w & 1) == 0 else 0)
                d = e
                mode = ENTER
                continue
        if mode == FINISH:
            lk = fr[d, F_LK]
            if lk >= 0:
                bm = -1
                t = fr[d, F_TARGET]
                result = val >= t
                if result == ((fr[d, K_LEADER] & 1) == 0):
                    c = fr[d, K_CARD]
                    cs = c // 13
                    above = _field(hands[0] | hands[1] | hands[2] | hands[3], cs) >> (c - 13 * cs + 1)
                    bm = cs * 16 + POP13[above]
                _store(
                    hands,
                    lk,
                    val if result else 0,
                    popcount(hands[0]) if result else val,
                    ffl[d],
                    tkey,
                    epat,
                    tuse,
                    bm,
                    rel,
                )
            mode = EXIT
        if mode == EXIT:
            if d == 0:
                return val
            d -= 1
            tn, p, c = _pop(hands, fr, d)
            ws = 0
            wfl = 13
            if tn == 3:
                # Back in the parent's units: the trick just completed joins the count.
                off, ws, wfl = _winner_floor(ftc[d, 0], ftc[d, 1], ftc[d, 2], c)
                if ((fr[d, K_LEADER] + off) & 1) == 0:
                    val += 1
            if (p & 1) == 0:
                cut = val >= fr[d, F_TARGET]
                if val > fr[d, F_VAL]:
                    fr[d, F_VAL] = val
            else:
                cut = val < fr[d, F_TARGET]
                if val < fr[d, F_VAL]:
                    fr[d, F_VAL] = val
            cs = c // 13
            # The child's relevant cards, plus the trick's winning rank if it beat a card of
            # its own suit, join this node's (a cut needs only the child that made it).
            bf = ffl[d + 1, cs]
            for s in range(4):
                fl = ffl[d + 1, s]
                if cut or fl < ffl[d, s]:
                    ffl[d, s] = fl
            if wfl < ffl[d, ws]:
                ffl[d, ws] = wfl
            if ws == cs and wfl < bf:
                bf = wfl
            if not cut and c - 13 * cs < bf and bf > ffl[d, 4 + cs]:
                # The result did not depend on this card's rank: the hand's lower cards of the
                # suit would do the same.
                ffl[d, 4 + cs] = bf
            if cut:
                _remember_cut(kill, fr[d, K_KEY], c)
                mode = FINISH
            else:
                mode = NEXT


@njit
def _probe(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    card: int,
    target: int,
    bufs: Bufs,
) -> int:
    """``_search`` from the position (``card`` < 0) or after the seat to move plays ``card``
    (fail-soft, in this position's units)."""
    if card < 0:
        return _search(hands, tc, tn, leader, broken, target, bufs)
    child, ctn, cl, nb, w = _play(hands, tc, tn, leader, broken, card)
    won = 1 if w >= 0 and (w & 1) == 0 else 0
    res: int = won + _search(hands, child, ctn, cl, nb, target - won, bufs)
    hands[(leader + tn) & 3] ^= 1 << card
    return res


@njit
def _mtd(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    card: int,
    lo: int,
    hi: int,
    g: int,
    bufs: Bufs,
) -> tuple[int, int]:
    """MTD(f) within [lo, hi] from the guess ``g``: null-window probes, each fail-soft answer a
    bound the next probe starts from. Returns the figure (of the position, or after ``card``)
    and the lowest rank of ``card``'s suit the probes relied on (13: none, or no card)."""
    ffl = bufs[6]
    floor = 13
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = _probe(hands, tc, tn, leader, broken, card, beta, bufs)
        if card >= 0 and ffl[0, card // 13] < floor:
            floor = ffl[0, card // 13]
        if g < beta:
            hi = g
        else:
            lo = g
    return lo, floor


@njit
def _solve(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    want_values: bool,
    values: IntArray,
    tkey: IntArray,
    epat: IntArray,
    tuse: IntArray,
    kill: IntArray,
    fr: IntArray,
    ftc: IntArray,
    ffl: IntArray,
    mvs: IntArray,
    scs: IntArray,
    rel: IntArray,
    tmp: IntArray,
    stats: IntArray,
) -> int:
    """North/South's remaining tricks with best play; with ``want_values``, ``values[c]`` is
    that figure after the seat to move plays ``c`` (every legal card; -1 elsewhere)."""
    p = (leader + tn) & 3
    r = popcount(hands[p])
    # The first probe at a greedy playout's figure.
    tw = np.zeros(4, dtype=np.int64)
    _greedy(hands, tc, tn, leader, broken, tw)
    bufs = (tkey, epat, tuse, kill, fr, ftc, ffl, mvs, scs, rel, tmp, stats)
    v, _ = _mtd(hands, tc, tn, leader, broken, -1, 0, r, min(max(tw[0] + tw[2], 0), r), bufs)
    if not want_values:
        return v
    for c in range(52):
        values[c] = -1
    mv, n = _root_moves(hands, tc, tn, leader, broken)
    ns = (p & 1) == 0
    skip_floor = np.zeros(4, dtype=np.int64)
    skip_value = np.zeros(4, dtype=np.int64)
    for i in range(n):
        c = mv[i]
        cs = c // 13
        if c - 13 * cs < skip_floor[cs]:
            values[c] = skip_value[cs]
            continue
        # The rank of c's suit the proofs relied on (the trick's winner counts if this card
        # completes the trick and the winner beat a card of its own suit).
        bf = 13
        if tn == 3:
            _, ws, wfl = _winner_floor(tc[0], tc[1], tc[2], c)
            if ws == cs:
                bf = wfl
        # The best card makes v, so a card's figure is at most v (North/South to move) or at
        # least v (East/West).
        lo, fl = _mtd(hands, tc, tn, leader, broken, c, 0 if ns else v, v if ns else r, v, bufs)
        bf = min(bf, fl)
        values[c] = lo
        if c - 13 * cs < bf and bf > skip_floor[cs]:
            # Neither proof depended on this card's rank: the hand's lower cards of the suit
            # (below the lowest relevant rank) take the same figure.
            skip_floor[cs] = bf
            skip_value[cs] = lo
    _share_run_values(hands, tc, tn, p, mv, n, values)
    return v
