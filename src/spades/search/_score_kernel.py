"""The numba score-mode solver: alpha-beta on a payoff of the final tricks of each seat.

North/South maximise ``payoff[n, e, s, w]`` (their hand score minus East/West's, for given
bids), East/West minimise it. Nil bids make the payoff depend on each seat's tricks, not just a
side's, so the tricks won so far are part of every position; the table is keyed on the
rank-normalised hands as in the trick solver, plus those counts, and holds value bounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spades.search._dd_kernel import _gen, _low
from spades.search._jit import njit, popcount, trick_winner

IntArray = np.ndarray[Any, np.dtype[np.int64]]

INF = 1 << 40

S_TN = 0
S_LEADER = 1
S_BROKEN = 2
S_ALPHA = 3
S_BETA = 4
S_A0 = 5
S_B0 = 6
S_BEST = 7
S_N = 8
S_I = 9
S_CARD = 10
S_IDX = 11
S_TW = 12
NS_FIELDS = 13


@njit
def _skey(hands: IntArray, leader: int, broken: bool, tw: int, out: IntArray) -> int:
    """Exact rank-normalised key of a trick-start position with its trick counts; the hash."""
    k0 = 0
    k1 = 0
    k2 = 0
    k3 = 0
    for s in range(4):
        sh = 13 * s
        f0 = (hands[0] >> sh) & 0x1FFF
        f1 = (hands[1] >> sh) & 0x1FFF
        f2 = (hands[2] >> sh) & 0x1FFF
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
    k1 |= (tw & 0xFF) << 52
    k2 |= ((tw >> 8) & 0xFF) << 52
    out[0] = k0
    out[1] = k1
    out[2] = k2
    out[3] = k3
    x = (k0 ^ (k1 * 1000003) ^ (k2 * 998244353) ^ (k3 * 1000000007)) & 0x3FFFFFFFFFFFFFFF
    x ^= x >> 23
    x = (x * 2654435761) & 0x3FFFFFFFFFFFFFFF
    return x ^ (x >> 29)


@njit
def _payoff_of(payoff: IntArray, tw: int) -> int:
    return int(payoff[tw & 15, (tw >> 4) & 15, (tw >> 8) & 15, (tw >> 12) & 15])


@njit
def _score_search(
    hands: IntArray,
    tc0: IntArray,
    tn0: int,
    leader0: int,
    broken0: bool,
    tw0: int,
    alpha0: int,
    beta0: int,
    payoff: IntArray,
    ttk: IntArray,
    ttv: IntArray,
    fr: IntArray,
    ftc: IntArray,
    mvs: IntArray,
    scs: IntArray,
    key: IntArray,
    stats: IntArray,
) -> int:
    """The payoff with best play from a position (``tw0``: tricks so far, 4 bits per seat),
    exact inside (alpha0, beta0), a bound outside it (fail-soft)."""
    d = 0
    fr[0, S_TN] = tn0
    fr[0, S_LEADER] = leader0
    fr[0, S_BROKEN] = 1 if broken0 else 0
    fr[0, S_ALPHA] = alpha0
    fr[0, S_BETA] = beta0
    fr[0, S_TW] = tw0
    for j in range(4):
        ftc[0, j] = tc0[j]
    mode = 0
    value = 0
    while True:
        if mode == 0:  # enter
            stats[0] += 1
            tn = fr[d, S_TN]
            leader = fr[d, S_LEADER]
            broken = fr[d, S_BROKEN] != 0
            alpha = fr[d, S_ALPHA]
            beta = fr[d, S_BETA]
            tw = fr[d, S_TW]
            fr[d, S_A0] = alpha
            fr[d, S_B0] = beta
            fr[d, S_IDX] = -1
            mode = 1
            if tn == 0:
                r = popcount(hands[leader])
                if r == 0:
                    value = _payoff_of(payoff, tw)
                    mode = 3
                elif r == 1:
                    c0 = _low(hands[leader])
                    c1 = _low(hands[(leader + 1) & 3])
                    c2 = _low(hands[(leader + 2) & 3])
                    c3 = _low(hands[(leader + 3) & 3])
                    w = (leader + trick_winner(c0, c1, c2, c3)) & 3
                    value = _payoff_of(payoff, tw + (1 << (4 * w)))
                    mode = 3
                else:
                    hsh = _skey(hands, leader, broken, tw, key)
                    idx = hsh & (ttk.shape[0] - 1)
                    fr[d, S_IDX] = idx
                    if (
                        ttk[idx, 0] == key[0]
                        and ttk[idx, 1] == key[1]
                        and ttk[idx, 2] == key[2]
                        and (ttk[idx, 3] == key[3])
                    ):
                        lb = ttv[idx, 0]
                        ub = ttv[idx, 1]
                        if lb >= beta:
                            value = lb
                            mode = 3
                        elif ub <= alpha:
                            value = ub
                            mode = 3
                        elif lb == ub:
                            value = lb
                            mode = 3
                        else:
                            if lb > alpha:
                                alpha = lb
                            if ub < beta:
                                beta = ub
                            fr[d, S_ALPHA] = alpha
                            fr[d, S_BETA] = beta
            if mode == 1:
                p = (leader + tn) & 3
                fr[d, S_N] = _gen(hands, ftc[d], tn, leader, broken, p, mvs[d], scs[d], -1, True)
                fr[d, S_I] = 0
                fr[d, S_BEST] = -INF if (p & 1) == 0 else INF
        if mode == 1:  # next move
            i = fr[d, S_I]
            tn = fr[d, S_TN]
            leader = fr[d, S_LEADER]
            p = (leader + tn) & 3
            if i >= fr[d, S_N]:
                value = fr[d, S_BEST]
                mode = 2
            else:
                c = mvs[d, i]
                fr[d, S_I] = i + 1
                fr[d, S_CARD] = c
                hands[p] ^= 1 << c
                broken = fr[d, S_BROKEN] != 0 or (c < 13 and (tn == 0 or ftc[d, 0] >= 13))
                e = d + 1
                fr[e, S_BROKEN] = 1 if broken else 0
                fr[e, S_ALPHA] = fr[d, S_ALPHA]
                fr[e, S_BETA] = fr[d, S_BETA]
                if tn == 3:
                    w = (leader + trick_winner(ftc[d, 0], ftc[d, 1], ftc[d, 2], c)) & 3
                    fr[e, S_TN] = 0
                    fr[e, S_LEADER] = w
                    fr[e, S_TW] = fr[d, S_TW] + (1 << (4 * w))
                else:
                    for j in range(tn):
                        ftc[e, j] = ftc[d, j]
                    ftc[e, tn] = c
                    fr[e, S_TN] = tn + 1
                    fr[e, S_LEADER] = leader
                    fr[e, S_TW] = fr[d, S_TW]
                d = e
                mode = 0
                continue
        if mode == 2:  # finish: store bounds
            idx = fr[d, S_IDX]
            if idx >= 0:
                tw = fr[d, S_TW]
                _skey(hands, fr[d, S_LEADER], fr[d, S_BROKEN] != 0, tw, key)
                if not (
                    ttk[idx, 0] == key[0]
                    and ttk[idx, 1] == key[1]
                    and ttk[idx, 2] == key[2]
                    and ttk[idx, 3] == key[3]
                ):
                    for j in range(4):
                        ttk[idx, j] = key[j]
                    ttv[idx, 0] = -INF
                    ttv[idx, 1] = INF
                if value <= fr[d, S_A0]:
                    if value < ttv[idx, 1]:
                        ttv[idx, 1] = value
                elif value >= fr[d, S_B0]:
                    if value > ttv[idx, 0]:
                        ttv[idx, 0] = value
                else:
                    ttv[idx, 0] = value
                    ttv[idx, 1] = value
            mode = 3
        if mode == 3:  # exit: hand the value to the parent
            if d == 0:
                return value
            d -= 1
            tn = fr[d, S_TN]
            p = (fr[d, S_LEADER] + tn) & 3
            hands[p] ^= 1 << fr[d, S_CARD]
            if (p & 1) == 0:
                if value > fr[d, S_BEST]:
                    fr[d, S_BEST] = value
                if value > fr[d, S_ALPHA]:
                    fr[d, S_ALPHA] = value
            else:
                if value < fr[d, S_BEST]:
                    fr[d, S_BEST] = value
                if value < fr[d, S_BETA]:
                    fr[d, S_BETA] = value
            if fr[d, S_ALPHA] >= fr[d, S_BETA]:
                value = fr[d, S_BEST]
                mode = 2
            else:
                mode = 1


@njit
def _score_solve(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    tw: int,
    payoff: IntArray,
    values: IntArray,
    ttk: IntArray,
    ttv: IntArray,
    fr: IntArray,
    ftc: IntArray,
    mvs: IntArray,
    scs: IntArray,
    key: IntArray,
    stats: IntArray,
) -> int:
    """Exact payoff with best play, and ``values[c]`` for each legal card (-1 - INF elsewhere)."""
    p = (leader + tn) & 3
    for c in range(52):
        values[c] = -INF - 1
    mv = np.zeros(16, dtype=np.int64)
    sc = np.zeros(16, dtype=np.int64)
    n = _gen(hands, tc, tn, leader, broken, p, mv, sc, -1, True)
    ns = (p & 1) == 0
    best = -INF if ns else INF
    child = np.full(4, -1, dtype=np.int64)
    for i in range(n):
        c = mv[i]
        hands[p] ^= 1 << c
        for j in range(tn):
            child[j] = tc[j]
        child[tn] = c
        nb = broken or (c < 13 and (tn == 0 or tc[0] >= 13))
        if tn == 3:
            w = (leader + trick_winner(tc[0], tc[1], tc[2], c)) & 3
            v = _score_search(
                hands,
                child,
                0,
                w,
                nb,
                tw + (1 << (4 * w)),
                -INF,
                INF,
                payoff,
                ttk,
                ttv,
                fr,
                ftc,
                mvs,
                scs,
                key,
                stats,
            )
        else:
            v = _score_search(
                hands,
                child,
                tn + 1,
                leader,
                nb,
                tw,
                -INF,
                INF,
                payoff,
                ttk,
                ttv,
                fr,
                ftc,
                mvs,
                scs,
                key,
                stats,
            )
        hands[p] ^= 1 << c
        values[c] = v
        if (ns and v > best) or (not ns and v < best):
            best = v
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
    return best
