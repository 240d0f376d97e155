"""The numba double-dummy kernel: null-window searches on North/South trick counts.

``_win(..., target)`` answers "can North/South take at least ``target`` of the remaining
tricks?" by alpha-beta on a yes/no value, the way DDS does. What makes it fast:

* a transposition table probed at the start of each trick, keyed on the hands *normalised
  by rank equivalence* (each suit's remaining cards renumbered 0..k-1, so positions that
  differ only in which low cards were already played share one entry), holding a lower and an
  upper bound on North/South's tricks; the key is exact, so entries stay valid across deals;
* one move per run of equivalent cards (cards of one hand with no other live card between);
* move ordering by simple card-play rules (cash winners, second hand low, win cheaply);
* quick tricks: the side on lead's sure winners cut the search off before it starts.

Masks are int64; buffers are preallocated per depth so the recursion allocates nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spades.search._jit import HIGH13, LOW13, NON_SPADES, POP13, njit, popcount, trick_winner

IntArray = np.ndarray[Any, np.dtype[np.int64]]
ByteArray = np.ndarray[Any, np.dtype[np.int8]]


@njit
def _field(h: int, s: int) -> int:
    return (h >> (13 * s)) & 0x1FFF


@njit
def _beats(card: int, best: int) -> bool:
    s = card // 13
    bs = best // 13
    return (s == bs and card > best) or (s == 0 and bs != 0)


@njit
def _key(hands: IntArray, leader: int, broken: bool, out: IntArray) -> int:
    """Write the rank-normalised key of a trick-start position to ``out``; return its hash."""
    k0 = 0
    k1 = 0
    k2 = 0
    k3 = 0
    h0 = hands[0]
    h1 = hands[1]
    h2 = hands[2]
    for s in range(4):
        sh = 13 * s
        f0 = (h0 >> sh) & 0x1FFF
        f1 = (h1 >> sh) & 0x1FFF
        f2 = (h2 >> sh) & 0x1FFF
        u = f0 | f1 | f2 | ((hands[3] >> sh) & 0x1FFF)
        k = sh
        while u:
            b = u & -u
            u ^= b
            if f0 & b:
                k0 |= 1 << k
            elif f1 & b:
                k1 |= 1 << k
            elif f2 & b:
                k2 |= 1 << k
            else:
                k3 |= 1 << k
            k += 1
    k0 |= (leader | (4 if broken else 0)) << 52
    out[0] = k0
    out[1] = k1
    out[2] = k2
    out[3] = k3
    # Odd multipliers below 2**31 and a mask keep this int64 in numba and exact in Python.
    x = (int(k0) ^ (int(k1) * 1000003) ^ (int(k2) * 998244353) ^ (int(k3) * 1000000007)) & 0x3FFFFFFFFFFFFFFF
    x ^= x >> 23
    x = (x * 2654435761) & 0x3FFFFFFFFFFFFFFF
    x ^= x >> 29
    return x


@njit
def _quick_tricks(hands: IntArray, leader: int, broken: bool) -> int:
    """Tricks the leader's side surely takes by the leader cashing top cards, suit by suit.

    A side suit counts no more often than an opponent who could ruff can follow. A suit where
    partner might have to take over the lead (a higher card than the leader's lowest winner,
    or only spades to ruff with) gives one trick at most, cashed last."""
    h = hands[leader]
    o1 = hands[(leader + 1) & 3]
    o3 = hands[(leader + 3) & 3]
    pa = hands[leader ^ 2]
    trumps1 = (o1 & 0x1FFF) != 0
    trumps3 = (o3 & 0x1FFF) != 0
    partner_only_spades = (pa & NON_SPADES) == 0 and pa != 0
    q = 0
    risky = 0
    for s in range(4):
        f = _field(h, s)
        if f == 0:
            continue
        if s == 0 and not broken and (h & NON_SPADES) != 0:
            continue
        a = _field(o1, s)
        b = _field(o3, s)
        ho = HIGH13[a | b]
        wins = f >> (ho + 1)
        w = POP13[wins]
        if w == 0:
            continue
        if s != 0:
            if trumps1 and POP13[a] < w:
                w = POP13[a]
            if trumps3 and POP13[b] < w:
                w = POP13[b]
            if w == 0:
                continue
        pf = _field(pa, s)
        lowest_win = LOW13[wins] + ho + 1
        if (pf >> lowest_win) != 0 or (s != 0 and pf == 0 and partner_only_spades):
            risky = 1
        else:
            q += w
    return q + risky


@njit
def _gen(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    p: int,
    mv: IntArray,
    sc: IntArray,
    pref: int,
) -> int:
    """Write one card per run of equivalent legal cards of seat ``p`` to ``mv``, best first;
    the run holding ``pref`` (the table's best move, or -1) goes first."""
    h = hands[p]
    if tn > 0:
        lead_suit = tc[0] // 13
        legal = h & (0x1FFF << (13 * lead_suit))
        if legal == 0:
            legal = h
    else:
        lead_suit = -1
        legal = h
        if not broken:
            legal = h & NON_SPADES
            if legal == 0:
                legal = h
    allh = hands[0] | hands[1] | hands[2] | hands[3]
    tmask = 0
    for i in range(tn):
        tmask |= 1 << tc[i]
    others = (allh & ~h) | tmask
    partner = p ^ 2
    opp_next = (p + 1) & 3
    opp_prev = (p + 3) & 3
    best = -1
    partner_wins = False
    if tn > 0:
        best = tc[0]
        bi = 0
        for i in range(1, tn):
            if _beats(tc[i], best):
                best = tc[i]
                bi = i
        partner_wins = ((leader + bi) & 3) == partner
    n = 0
    for s in range(4):
        f = _field(legal, s)
        if f == 0:
            continue
        o = _field(others, s)
        opp_f = _field(hands[opp_next], s) | _field(hands[opp_prev], s)
        ho = HIGH13[opp_f]
        hp = HIGH13[_field(hands[partner], s)]
        rep = -1
        prev = -1
        top = -1
        while True:
            r = HIGH13[f] if f else -1
            if r >= 0 and prev >= 0 and ((o >> (r + 1)) & ((1 << (prev - r - 1)) - 1)) == 0:
                rep = r
                f ^= 1 << r
                prev = r
                continue
            if rep >= 0:
                c = 13 * s + rep
                # ---- score the run represented by c (rank rep) ----
                if tn == 0:
                    if rep > ho:
                        ruff = False
                        if s != 0:
                            if _field(hands[opp_next], s) == 0 and (hands[opp_next] & 0x1FFF) != 0:
                                ruff = True
                            if _field(hands[opp_prev], s) == 0 and (hands[opp_prev] & 0x1FFF) != 0:
                                ruff = True
                        score = 20 - rep if ruff else 90 + rep
                    elif hp > ho:
                        score = 70 - rep
                    else:
                        score = 40 - rep - (10 if s == 0 else 0)
                else:
                    wins = _beats(c, best)
                    if tn == 3:
                        if partner_wins or not wins:
                            score = 30 - rep - (20 if s == 0 and lead_suit != 0 else 0)
                        else:
                            score = 100 - rep
                    else:
                        nxt = hands[opp_next]
                        nf = _field(nxt, lead_suit)
                        if nf != 0:
                            threat = 13 * lead_suit + HIGH13[nf]
                        elif (nxt & 0x1FFF) != 0:
                            threat = HIGH13[nxt & 0x1FFF]
                        else:
                            threat = -1
                        safe_partner = partner_wins and (threat < 0 or _beats(best, threat))
                        if safe_partner:
                            score = 50 - rep - (20 if s == 0 and lead_suit != 0 else 0)
                        elif wins and (threat < 0 or _beats(c, threat)):
                            score = 90 - rep
                        elif wins:
                            score = 45 - rep
                        else:
                            score = 40 - rep - (20 if s == 0 and lead_suit != 0 else 0)
                if pref >= 13 * s + rep and pref <= 13 * s + top:
                    score = 1000
                # insertion, best first
                j = n
                while j > 0 and sc[j - 1] < score:
                    mv[j] = mv[j - 1]
                    sc[j] = sc[j - 1]
                    j -= 1
                mv[j] = c
                sc[j] = score
                n += 1
            if r < 0:
                break
            rep = r
            prev = r
            top = r
            f ^= 1 << r
    return n


@njit
def _top_trump_run(hands: IntArray) -> tuple[int, int]:
    """(seat, k): the seat holding the highest remaining spade holds the top ``k`` spades, so
    it wins at least ``k`` tricks whatever happens; (-1, 0) when no spade is left."""
    u = (hands[0] | hands[1] | hands[2] | hands[3]) & 0x1FFF
    if u == 0:
        return -1, 0
    r = HIGH13[u]
    seat = 0
    for s in range(4):
        if (hands[s] >> r) & 1:
            seat = s
    mine = hands[seat] & 0x1FFF
    k = 0
    while u and (mine >> HIGH13[u]) & 1:
        k += 1
        u ^= 1 << HIGH13[u]
    return seat, k


# Frame fields of the explicit search stack (one row per depth, depth <= 52).
F_TN = 0
F_LEADER = 1
F_BROKEN = 2
F_TARGET = 3
F_N = 4
F_I = 5
F_IDX = 6
F_LB = 7
F_UB = 8
F_CARD = 9
NF = 10

ENTER = 0
NEXT = 1
FINISH = 2
EXIT = 3


@njit
def _same_key(ttk: IntArray, idx: int, key: IntArray) -> bool:
    same: bool = (
        ttk[idx, 0] == key[0] and ttk[idx, 1] == key[1] and ttk[idx, 2] == key[2] and ttk[idx, 3] == key[3]
    )
    return same


@njit
def _search(
    hands: IntArray,
    tc0: IntArray,
    tn0: int,
    leader0: int,
    broken0: bool,
    target0: int,
    ttk: IntArray,
    ttlb: ByteArray,
    ttub: ByteArray,
    ttmv: ByteArray,
    fr: IntArray,
    ftc: IntArray,
    mvs: IntArray,
    scs: IntArray,
    key: IntArray,
    stats: IntArray,
) -> bool:
    """Can North/South take ``target0`` or more of the tricks still to be won (the current one
    included)? ``tc0[:tn0]`` are the cards on the table, led by ``leader0``.

    Alpha-beta on a yes/no value with an explicit stack (numba cannot cache recursive code)."""
    d = 0
    fr[0, F_TN] = tn0
    fr[0, F_LEADER] = leader0
    fr[0, F_BROKEN] = 1 if broken0 else 0
    fr[0, F_TARGET] = target0
    for j in range(4):
        ftc[0, j] = tc0[j]
    mode = ENTER
    result = False
    while True:
        if mode == ENTER:
            stats[0] += 1
            tn = fr[d, F_TN]
            leader = fr[d, F_LEADER]
            broken = fr[d, F_BROKEN] != 0
            target = fr[d, F_TARGET]
            fr[d, F_IDX] = -1
            pref = -1
            mode = NEXT
            if tn == 0:
                r = popcount(hands[leader])
                if target <= 0:
                    result = True
                    mode = EXIT
                elif target > r:
                    result = False
                    mode = EXIT
                elif r == 1:
                    w = (
                        leader
                        + trick_winner(
                            _low(hands[leader]),
                            _low(hands[(leader + 1) & 3]),
                            _low(hands[(leader + 2) & 3]),
                            _low(hands[(leader + 3) & 3]),
                        )
                    ) & 3
                    result = (w & 1) == 0
                    mode = EXIT
                else:
                    hsh = _key(hands, leader, broken, key)
                    idx = hsh & (ttk.shape[0] - 1)
                    if _same_key(ttk, idx, key):
                        lb = int(ttlb[idx])
                        ub = int(ttub[idx])
                        m = ttmv[idx]
                        if m >= 0:
                            s = m >> 4
                            u = _field(hands[0] | hands[1] | hands[2] | hands[3], s)
                            for _ in range(m & 15):
                                u &= u - 1
                            pref = 13 * s + _low(u)
                    else:
                        ttk[idx, 0] = key[0]
                        ttk[idx, 1] = key[1]
                        ttk[idx, 2] = key[2]
                        ttk[idx, 3] = key[3]
                        ttmv[idx] = -1
                        lb = 0
                        ub = r
                        q = _quick_tricks(hands, leader, broken)
                        seat, k = _top_trump_run(hands)
                        if (leader & 1) == 0:
                            lb = q
                            if seat >= 0 and (seat & 1) == 0 and k > lb:
                                lb = k
                            if seat >= 0 and (seat & 1) == 1:
                                ub = r - k
                        else:
                            ub = r - q
                            if seat >= 0 and (seat & 1) == 1 and r - k < ub:
                                ub = r - k
                            if seat >= 0 and (seat & 1) == 0:
                                lb = k
                        ttlb[idx] = lb
                        ttub[idx] = ub
                    fr[d, F_IDX] = idx
                    fr[d, F_LB] = lb
                    fr[d, F_UB] = ub
                    if lb >= target:
                        result = True
                        mode = EXIT
                    elif ub < target:
                        result = False
                        mode = EXIT
            if mode == NEXT:
                p = (leader + tn) & 3
                fr[d, F_N] = _gen(hands, ftc[d], tn, leader, broken, p, mvs[d], scs[d], pref)
                fr[d, F_I] = 0
        if mode == NEXT:
            i = fr[d, F_I]
            tn = fr[d, F_TN]
            leader = fr[d, F_LEADER]
            p = (leader + tn) & 3
            if i >= fr[d, F_N]:
                result = (p & 1) != 0
                mode = FINISH
            else:
                c = mvs[d, i]
                fr[d, F_I] = i + 1
                fr[d, F_CARD] = c
                hands[p] ^= 1 << c
                broken = fr[d, F_BROKEN] != 0 or (c < 13 and (tn == 0 or ftc[d, 0] >= 13))
                e = d + 1
                fr[e, F_BROKEN] = 1 if broken else 0
                if tn == 3:
                    w = (leader + trick_winner(ftc[d, 0], ftc[d, 1], ftc[d, 2], c)) & 3
                    fr[e, F_TN] = 0
                    fr[e, F_LEADER] = w
                    fr[e, F_TARGET] = fr[d, F_TARGET] - (1 if (w & 1) == 0 else 0)
                else:
                    for j in range(tn):
                        ftc[e, j] = ftc[d, j]
                    ftc[e, tn] = c
                    fr[e, F_TN] = tn + 1
                    fr[e, F_LEADER] = leader
                    fr[e, F_TARGET] = fr[d, F_TARGET]
                d = e
                mode = ENTER
                continue
        if mode == FINISH:
            idx = fr[d, F_IDX]
            if idx >= 0:
                leader = fr[d, F_LEADER]
                broken = fr[d, F_BROKEN] != 0
                target = fr[d, F_TARGET]
                cut = result == ((leader & 1) == 0)
                _key(hands, leader, broken, key)
                if not _same_key(ttk, idx, key):
                    ttk[idx, 0] = key[0]
                    ttk[idx, 1] = key[1]
                    ttk[idx, 2] = key[2]
                    ttk[idx, 3] = key[3]
                    ttlb[idx] = fr[d, F_LB]
                    ttub[idx] = fr[d, F_UB]
                    ttmv[idx] = -1
                if result:
                    if target > ttlb[idx]:
                        ttlb[idx] = target
                elif target - 1 < ttub[idx]:
                    ttub[idx] = target - 1
                if cut:
                    c = fr[d, F_CARD]
                    s = c // 13
                    u = _field(hands[0] | hands[1] | hands[2] | hands[3], s)
                    ttmv[idx] = s * 16 + POP13[u & ((1 << (c - 13 * s)) - 1)]
            mode = EXIT
        if mode == EXIT:
            if d == 0:
                return result
            d -= 1
            tn = fr[d, F_TN]
            p = (fr[d, F_LEADER] + tn) & 3
            hands[p] ^= 1 << fr[d, F_CARD]
            mode = FINISH if result == ((p & 1) == 0) else NEXT


@njit
def _low(h: int) -> int:
    """The lowest card of a mask (the only card, at the last trick)."""
    return popcount((h & -h) - 1)


@njit
def _win_after(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    card: int,
    target: int,
    ttk: IntArray,
    ttlb: ByteArray,
    ttub: ByteArray,
    ttmv: ByteArray,
    fr: IntArray,
    ftc: IntArray,
    mvs: IntArray,
    scs: IntArray,
    key: IntArray,
    stats: IntArray,
) -> bool:
    """``_search`` after the seat to move plays ``card``."""
    p = (leader + tn) & 3
    hands[p] ^= 1 << card
    child = np.full(4, -1, dtype=np.int64)
    for j in range(tn):
        child[j] = tc[j]
    child[tn] = card
    nb = broken or (card < 13 and (tn == 0 or tc[0] >= 13))
    if tn == 3:
        w = (leader + trick_winner(tc[0], tc[1], tc[2], card)) & 3
        res = _search(
            hands,
            child,
            0,
            w,
            nb,
            target - (1 if (w & 1) == 0 else 0),
            ttk,
            ttlb,
            ttub,
            ttmv,
            fr,
            ftc,
            mvs,
            scs,
            key,
            stats,
        )
    else:
        res = _search(
            hands, child, tn + 1, leader, nb, target, ttk, ttlb, ttub, ttmv, fr, ftc, mvs, scs, key, stats
        )
    hands[p] ^= 1 << card
    return res


@njit
def _solve(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    want_values: bool,
    values: IntArray,
    ttk: IntArray,
    ttlb: ByteArray,
    ttub: ByteArray,
    ttmv: ByteArray,
    fr: IntArray,
    ftc: IntArray,
    mvs: IntArray,
    scs: IntArray,
    key: IntArray,
    stats: IntArray,
) -> int:
    """North/South's remaining tricks with best play; with ``want_values``, ``values[c]`` is
    that figure after the seat to move plays ``c`` (every legal card; -1 elsewhere)."""
    p = (leader + tn) & 3
    r = popcount(hands[p])
    lo = 0
    hi = r
    while lo < hi:
        t = (lo + hi + 1) // 2
        if _search(hands, tc, tn, leader, broken, t, ttk, ttlb, ttub, ttmv, fr, ftc, mvs, scs, key, stats):
            lo = t
        else:
            hi = t - 1
    v = lo
    if not want_values:
        return v
    for c in range(52):
        values[c] = -1
    mv = np.zeros(16, dtype=np.int64)
    sc = np.zeros(16, dtype=np.int64)
    n = _gen(hands, tc, tn, leader, broken, p, mv, sc, -1)
    ns = (p & 1) == 0
    for i in range(n):
        c = mv[i]
        if ns:
            t = v
            while t > 0 and not _win_after(
                hands, tc, tn, leader, broken, c, t, ttk, ttlb, ttub, ttmv, fr, ftc, mvs, scs, key, stats
            ):
                t -= 1
            val = t
        else:
            t = v + 1
            while t <= r and _win_after(
                hands, tc, tn, leader, broken, c, t, ttk, ttlb, ttub, ttmv, fr, ftc, mvs, scs, key, stats
            ):
                t += 1
            val = t - 1
        values[c] = val
    # Equivalent cards (same run, no live card between) share their representative's value.
    h = hands[p]
    allh = hands[0] | hands[1] | hands[2] | hands[3]
    tmask = 0
    for i in range(tn):
        tmask |= 1 << tc[i]
    others = (allh & ~h) | tmask
    for i in range(n):
        c = mv[i]
        top = 13 * (c // 13) + 13
        up = c + 1
        while up < top and not ((others >> up) & 1):
            if (h >> up) & 1:
                values[up] = values[c]
            up += 1
    return v
