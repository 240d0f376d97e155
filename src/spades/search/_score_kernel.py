"""The numba score-mode solver: null-window searches on a payoff of the final tricks of each seat.

North/South maximise ``payoff[n, e, s, w]`` (their hand score minus East/West's, for given
bids), East/West minimise it. Nil bids make the payoff depend on each seat's tricks, not just a
side's, so the tricks won so far (``tw``: 4 bits per seat) are part of every position.

What makes it practical from 13 cards:

* MTD(f)-style null-window probes "is the payoff at least ``t``?" on the distinct payoffs the
  position can still reach (a few dozen), from a greedy playout's payoff, then by bisection;
  the searches are fail-soft, so each answer is a bound the next probe starts from.
* Payoff range cut-offs: ``lo[tw, q]`` is the least payoff over every final split of the
  remaining tricks in which North/South take at least ``q`` of them, ``hi[tw, k]`` the
  greatest where they take at most ``k``. Much of a score table is flat (a contract made or
  set whatever the overtricks), so a node whose whole reachable range lies on one side of the
  probe is cut before its moves are generated. Sure tricks narrow the range: the leader's side
  can cash its quick tricks and either side its top spades (``q`` for that side), and a seat
  holding the top spades outright wins one trick with each (its own count, Nil included).
* A transposition table at trick starts, exact keys (rank-normalised hands, leader, spades
  flag, and the class of the tricks per seat: counts whose every ending pays the same are
  one class) with lower and upper bounds, kept across probes and calls (bounds of one payoff
  table: the solver empties it when the table changes).
* The root's bounds from the trick solver (``score.py`` passes its figures in).
* A cut-off card ("killer") cache: the card that last refuted a similar node is tried before
  the other moves are generated; one move per run of equivalent cards (exact: keys are exact).

Those last two, the move ordering and the stack's bookkeeping are the trick solver's too, in
``_kernel_common``; this module holds what is score mode's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spades.search._jit import HIGH13, LOW13, NON_SPADES, POP13, njit, popcount
from spades.search._jit import field as _field
from spades.search._kernel_common import (
    ENTER,
    EXIT,
    FINISH,
    K_BROKEN,
    K_I,
    K_KEY,
    K_LAZY,
    K_LEADER,
    K_N,
    K_OWN,
    K_TN,
    NEXT,
    _greedy,
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
)

IntArray = np.ndarray[Any, np.dtype[np.int64]]

INF = 1 << 40

# Frame fields of the explicit search stack (one row per depth, depth <= 52): the common
# ones (``_kernel_common.K_*``), then the window, the window on entry, the best value so far,
# the table hash (-1: no table entry) and the tricks won so far (4 bits per seat).
S_ALPHA = K_OWN
S_BETA = K_OWN + 1
S_A0 = K_OWN + 2
S_B0 = K_OWN + 3
S_BEST = K_OWN + 4
S_IDX = K_OWN + 5
S_TW = K_OWN + 6
NS_FIELDS = K_OWN + 7

# ---------------------------------------------------------------------- payoff ranges


CLS = 14
"""Column of ``lo`` holding the class of ``tw`` (below)."""


@njit
def split_bounds(payoff: IntArray, lo: IntArray, hi: IntArray) -> None:
    """Fill ``lo[tw, q]`` (least payoff over final splits from ``tw`` with North/South taking
    at least ``q`` of the remaining tricks) and ``hi[tw, k]`` (greatest, at most ``k``), for
    every packed ``tw`` (4 bits per seat) of at most 13 tricks. Unreachable ``q``: +INF.

    ``lo[tw, CLS]`` is the first ``tw`` (same number of tricks) whose payoffs over every
    split of the remaining tricks are the same as ``tw``'s: the game from two positions that
    differ only in those counts is the same game, so the table keys on the class (with Nil
    bids out of the way, who of a side won a trick stops mattering)."""
    _tw_classes(payoff, lo)
    mn = np.zeros(14, dtype=np.int64)
    mx = np.zeros(14, dtype=np.int64)
    for n in range(14):
        for e in range(14 - n):
            for s in range(14 - n - e):
                for w in range(14 - n - e - s):
                    r = 13 - n - e - s - w
                    tw = n | (e << 4) | (s << 8) | (w << 12)
                    for j in range(r + 1):
                        a_min = INF
                        a_max = -INF
                        for a in range(j + 1):
                            c = j - a
                            for b in range(r - j + 1):
                                v = payoff[n + a, e + b, s + c, w + r - j - b]
                                if v < a_min:
                                    a_min = v
                                if v > a_max:
                                    a_max = v
                        mn[j] = a_min
                        mx[j] = a_max
                    cur = INF
                    for q in range(13, -1, -1):
                        if q <= r and mn[q] < cur:
                            cur = mn[q]
                        lo[tw, q] = cur
                    cur = -INF
                    for k in range(14):
                        if k <= r and mx[k] > cur:
                            cur = mx[k]
                        hi[tw, k] = cur


@njit
def _tw_classes(payoff: IntArray, lo: IntArray) -> None:
    """``lo[tw, CLS]``: see ``split_bounds``."""
    tws = np.zeros(560, dtype=np.int64)
    hs = np.zeros(560, dtype=np.int64)
    for used in range(14):
        r = 13 - used
        m = 0
        for n in range(used + 1):
            for e in range(used + 1 - n):
                for s in range(used + 1 - n - e):
                    w = used - n - e - s
                    tws[m] = n | (e << 4) | (s << 8) | (w << 12)
                    h = 0
                    for a in range(r + 1):
                        for b in range(r + 1 - a):
                            for c in range(r + 1 - a - b):
                                v = payoff[n + a, e + b, s + c, w + r - a - b - c]
                                h = ((h * 1000003) ^ (v & 0xFFFFFFFF)) & 0x3FFFFFFFFFFFFFFF
                    hs[m] = h
                    m += 1
        for i in range(m):
            ti = tws[i]
            lo[ti, CLS] = ti
            for j in range(i):
                if hs[j] != hs[i]:
                    continue
                tj = tws[j]
                same = True
                for a in range(r + 1):
                    for b in range(r + 1 - a):
                        for c in range(r + 1 - a - b):
                            d = r - a - b - c
                            x = payoff[
                                (ti & 15) + a, ((ti >> 4) & 15) + b, ((ti >> 8) & 15) + c, (ti >> 12) + d
                            ]
                            y = payoff[
                                (tj & 15) + a, ((tj >> 4) & 15) + b, ((tj >> 8) & 15) + c, (tj >> 12) + d
                            ]
                            if x != y:
                                same = False
                if same:
                    lo[ti, CLS] = lo[tj, CLS]
                    break


# ---------------------------------------------------------------------- sure tricks
# Each count is a strategy by which one side takes at least that many of the remaining
# tricks. (The trick solver does without the leader's cashable winners: there they cost more
# than they saved, its table answering those positions; here they save 9% of the nodes.)


@njit
def _quick_tricks(hands: IntArray, leader: int, broken: bool) -> int:
    """Tricks the leader's side surely takes by the leader cashing top cards, suit by suit.

    A side suit counts no more often than an opponent who could ruff can follow (unless the
    leader's spade winners draw every opponent's spade first). A suit where partner might
    have to take over the lead (a higher card than the leader's lowest winner, or only spades
    to ruff with) gives one trick at most, cashed last."""
    h = hands[leader]
    o1 = hands[(leader + 1) & 3]
    o3 = hands[(leader + 3) & 3]
    pa = hands[leader ^ 2]
    trumps1 = (o1 & 0x1FFF) != 0
    trumps3 = (o3 & 0x1FFF) != 0
    partner_only_spades = (pa & NON_SPADES) == 0 and pa != 0
    q = 0
    risky = False
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
            risky = True
        else:
            q += w
            if s == 0 and w >= POP13[a] and w >= POP13[b]:
                # Cashing these spades first draws the opponents' trumps: no side suit
                # can be ruffed afterwards.
                trumps1 = False
                trumps3 = False
    return q + 1 if risky else q


@njit
def _quick_with_entry(hands: IntArray, leader: int, broken: bool) -> int:
    """The better of the leader cashing his own top cards and, when he can reach partner with
    a lead partner wins for sure, partner cashing his."""
    q = _quick_tricks(hands, leader, broken)
    pa = leader ^ 2
    h = hands[leader]
    ph = hands[pa]
    o1 = hands[(leader + 1) & 3]
    o3 = hands[(leader + 3) & 3]
    for s in range(4):
        f = _field(h, s)
        pf = _field(ph, s)
        if f == 0 or pf == 0:
            continue
        if s == 0 and not broken and (h & NON_SPADES) != 0:
            continue
        a = _field(o1, s)
        b = _field(o3, s)
        top = HIGH13[pf]
        if top < HIGH13[a | b] or top < HIGH13[f]:
            continue
        if s != 0 and ((a == 0 and (o1 & 0x1FFF) != 0) or (b == 0 and (o3 & 0x1FFF) != 0)):
            continue
        q = max(q, _quick_tricks(hands, pa, broken), 1)
        break
    return q


@njit
def _forced_spades(hands: IntArray) -> tuple[int, int]:
    """(seat, m): the seat holding the top ``m`` live spades outright wins a trick with each,
    whatever anyone does (it plays them in different tricks and nothing beats them)."""
    u = (hands[0] | hands[1] | hands[2] | hands[3]) & 0x1FFF
    if u == 0:
        return -1, 0
    top = HIGH13[u]
    x = 0
    for q in range(4):
        if (hands[q] >> top) & 1:
            x = q
    hx = hands[x] & 0x1FFF
    m = 0
    while u:
        r = HIGH13[u]
        if not (hx >> r) & 1:
            break
        m += 1
        u ^= 1 << r
    return x, m


# ---------------------------------------------------------------------- keys


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


# ---------------------------------------------------------------------- transposition table
# Buckets of four entries: two keep the positions with the most cards left (the most work
# saved), two the newest (on the benchmark's Nil deals 7% fewer nodes than buckets of one of
# each); ``ttv[i]`` = lower bound, upper bound, cards.


@njit
def _tt_find(ttk: IntArray, key: IntArray, hsh: int) -> int:
    b = (hsh & (ttk.shape[0] - 1)) & ~3
    for i in range(b, b + 4):
        if ttk[i, 0] == key[0] and ttk[i, 1] == key[1] and ttk[i, 2] == key[2] and ttk[i, 3] == key[3]:
            return i
    return -1


@njit
def _tt_copy(ttk: IntArray, ttv: IntArray, src: int, dst: int) -> None:
    for j in range(4):
        ttk[dst, j] = ttk[src, j]
    for j in range(3):
        ttv[dst, j] = ttv[src, j]


@njit
def _tt_slot(ttk: IntArray, ttv: IntArray, key: IntArray, hsh: int, cards: int) -> int:
    """The entry of ``key``, made (with no bounds) if missing. A bucket's first two entries
    keep the positions with the most cards left (the most work saved), the other two the
    newest; an entry pushed out of the first two becomes the newest."""
    i = _tt_find(ttk, key, hsh)
    if i >= 0:
        return i
    b = (hsh & (ttk.shape[0] - 1)) & ~3
    d = b if ttk[b, 0] == -1 or (ttk[b + 1, 0] != -1 and ttv[b, 2] <= ttv[b + 1, 2]) else b + 1
    _tt_copy(ttk, ttv, b + 2, b + 3)
    if ttk[d, 0] == -1 or cards >= ttv[d, 2]:
        _tt_copy(ttk, ttv, d, b + 2)
        i = d
    else:
        i = b + 2
    for j in range(4):
        ttk[i, j] = key[j]
    ttv[i, 0] = -INF
    ttv[i, 1] = INF
    ttv[i, 2] = cards
    return int(i)


# ---------------------------------------------------------------------- the search


@njit
def _search(
    hands: IntArray,
    tc0: IntArray,
    tn0: int,
    leader0: int,
    broken0: bool,
    tw0: int,
    alpha0: int,
    beta0: int,
    lo: IntArray,
    hi: IntArray,
    ttk: IntArray,
    ttv: IntArray,
    kill: IntArray,
    fr: IntArray,
    ftc: IntArray,
    mvs: IntArray,
    scs: IntArray,
    key: IntArray,
    stats: IntArray,
) -> int:
    """The payoff with best play from a position (``tw0``: tricks so far, 4 bits per seat),
    exact inside (alpha0, beta0), a bound outside it (fail-soft). Alpha-beta with an explicit
    stack (numba cannot cache recursive code)."""
    d = 0
    _start(fr, ftc, tc0, tn0, leader0, broken0)
    fr[0, S_ALPHA] = alpha0
    fr[0, S_BETA] = beta0
    fr[0, S_TW] = tw0
    mode = ENTER
    value = 0
    while True:
        if mode == ENTER:
            stats[0] += 1
            tn = fr[d, K_TN]
            leader = fr[d, K_LEADER]
            broken = fr[d, K_BROKEN] != 0
            alpha = fr[d, S_ALPHA]
            beta = fr[d, S_BETA]
            tw = fr[d, S_TW]
            fr[d, S_A0] = alpha
            fr[d, S_B0] = beta
            fr[d, S_IDX] = -1
            p = (leader + tn) & 3
            r = popcount(hands[p])
            mode = NEXT
            # The payoffs still reachable: cut when they all lie on one side of the window.
            lb = lo[tw, 0]
            ub = hi[tw, r]
            if lb >= beta or lb == ub:
                value = lb
                mode = EXIT
            elif ub <= alpha:
                value = ub
                mode = EXIT
            elif tn == 0:
                if r == 1:
                    w, _, _ = _last_trick(hands, leader)
                    value = lo[tw + (1 << (4 * w)), 0]
                    mode = EXIT
                else:
                    hsh = _skey(hands, leader, broken, lo[tw, CLS], key)
                    idx = _tt_find(ttk, key, hsh)
                    fr[d, S_IDX] = hsh
                    if idx >= 0:
                        if ttv[idx, 0] > lb:
                            lb = ttv[idx, 0]
                        if ttv[idx, 1] < ub:
                            ub = ttv[idx, 1]
                    if lb < beta and ub > alpha and lb != ub:
                        # Sure tricks narrow the reachable payoffs.
                        x, m = _forced_spades(hands)
                        if m > 0:
                            tx = tw + (m << (4 * x))
                            if lo[tx, 0] > lb:
                                lb = lo[tx, 0]
                            if hi[tx, r - m] < ub:
                                ub = hi[tx, r - m]
                    if lb < beta and ub > alpha and lb != ub:
                        q = min(_quick_with_entry(hands, leader, broken), r)
                        if (leader & 1) == 0:
                            if lo[tw, q] > lb:
                                lb = lo[tw, q]
                        elif hi[tw, r - q] < ub:
                            ub = hi[tw, r - q]
                    if lb < beta and ub > alpha and lb != ub:
                        k, _ = _side_top_trumps(hands, 0)
                        if lo[tw, k] > lb:
                            lb = lo[tw, k]
                        k, _ = _side_top_trumps(hands, 1)
                        if hi[tw, r - k] < ub:
                            ub = hi[tw, r - k]
                    if lb >= beta or lb == ub:
                        value = lb
                        mode = EXIT
                    elif ub <= alpha:
                        value = ub
                        mode = EXIT
            if mode == NEXT:
                # Cut-off cards are remembered per trick counts of the mover's side, too.
                mine = ((tw >> (4 * p)) & 15) | (((tw >> (4 * (p ^ 2))) & 15) << 4)
                _moves(
                    hands,
                    fr,
                    ftc,
                    mvs,
                    scs,
                    kill,
                    d,
                    -1,
                    (mine << 55) ^ (p << 62),
                    mine << 23,
                    (1 << 61) ^ ((mine & 15) << 58),
                )
                fr[d, S_BEST] = -INF if (p & 1) == 0 else INF
        if mode == NEXT:
            i = fr[d, K_I]
            if i >= fr[d, K_N] and fr[d, K_LAZY] > 0:
                _rest_of_moves(hands, fr, ftc, mvs, scs, d)
                i = 1
            if i >= fr[d, K_N]:
                value = fr[d, S_BEST]
                mode = FINISH
            else:
                fr[d, K_I] = i + 1
                w = _push(hands, fr, ftc, d, mvs[d, i])
                e = d + 1
                fr[e, S_ALPHA] = fr[d, S_ALPHA]
                fr[e, S_BETA] = fr[d, S_BETA]
                fr[e, S_TW] = fr[d, S_TW] + ((1 << (4 * w)) if w >= 0 else 0)
                d = e
                mode = ENTER
                continue
        if mode == FINISH:  # store bounds
            hsh = fr[d, S_IDX]
            if hsh >= 0:
                _skey(hands, fr[d, K_LEADER], fr[d, K_BROKEN] != 0, lo[fr[d, S_TW], CLS], key)
                idx = _tt_slot(ttk, ttv, key, hsh, popcount(hands[0]))
                if value <= fr[d, S_A0]:
                    if value < ttv[idx, 1]:
                        ttv[idx, 1] = value
                elif value >= fr[d, S_B0]:
                    if value > ttv[idx, 0]:
                        ttv[idx, 0] = value
                else:
                    ttv[idx, 0] = value
                    ttv[idx, 1] = value
            mode = EXIT
        if mode == EXIT:  # hand the value to the parent
            if d == 0:
                return value
            d -= 1
            _, p, c = _pop(hands, fr, d)
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
                _remember_cut(kill, fr[d, K_KEY], c)
                value = fr[d, S_BEST]
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
    tw: int,
    card: int,
    t: int,
    lo: IntArray,
    hi: IntArray,
    ttk: IntArray,
    ttv: IntArray,
    kill: IntArray,
    fr: IntArray,
    ftc: IntArray,
    mvs: IntArray,
    scs: IntArray,
    key: IntArray,
    stats: IntArray,
) -> int:
    """ "Is the payoff at least ``t``?" from the position (``card`` < 0) or after the seat to
    move plays ``card``: a fail-soft answer, >= t a lower bound, < t an upper bound."""
    if card < 0:
        return _search(
            hands,
            tc,
            tn,
            leader,
            broken,
            tw,
            t - 1,
            t,
            lo,
            hi,
            ttk,
            ttv,
            kill,
            fr,
            ftc,
            mvs,
            scs,
            key,
            stats,
        )
    child, ctn, cl, nb, w = _play(hands, tc, tn, leader, broken, card)
    ctw = tw + ((1 << (4 * w)) if w >= 0 else 0)
    res = _search(
        hands, child, ctn, cl, nb, ctw, t - 1, t, lo, hi, ttk, ttv, kill, fr, ftc, mvs, scs, key, stats
    )
    hands[(leader + tn) & 3] ^= 1 << card
    return res


@njit
def _mtd(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    tw: int,
    card: int,
    vlo: int,
    vhi: int,
    guess: int,
    vs: IntArray,
    lo: IntArray,
    hi: IntArray,
    ttk: IntArray,
    ttv: IntArray,
    kill: IntArray,
    fr: IntArray,
    ftc: IntArray,
    mvs: IntArray,
    scs: IntArray,
    key: IntArray,
    stats: IntArray,
) -> int:
    """The exact payoff (of the position, or after ``card``), known to be one of the sorted
    values ``vs`` and within [vlo, vhi]: null-window probes at the value next to the last
    answer twice (from ``guess``), then bisection of the values still possible."""
    nv = vs.shape[0]
    g = guess
    probes = 0
    while True:
        i0 = 0
        while i0 < nv and vs[i0] <= vlo:
            i0 += 1
        i1 = nv - 1
        while i1 >= 0 and vs[i1] > vhi:
            i1 -= 1
        if i0 > i1:
            return vlo
        if probes < 2:
            j = i0
            while j < i1 and vs[j] < g:
                j += 1
        else:
            j = (i0 + i1 + 1) // 2
        t = vs[j]
        g = _probe(
            hands,
            tc,
            tn,
            leader,
            broken,
            tw,
            card,
            t,
            lo,
            hi,
            ttk,
            ttv,
            kill,
            fr,
            ftc,
            mvs,
            scs,
            key,
            stats,
        )
        probes += 1
        stats[1] += 1
        if g >= t:
            vlo = g
        else:
            vhi = g


@njit
def _score_solve(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    tw: int,
    payoff: IntArray,
    dd_tricks: int,
    dd_values: IntArray,
    want_values: bool,
    values: IntArray,
    lo: IntArray,
    hi: IntArray,
    ttk: IntArray,
    ttv: IntArray,
    kill: IntArray,
    fr: IntArray,
    ftc: IntArray,
    mvs: IntArray,
    scs: IntArray,
    key: IntArray,
    stats: IntArray,
) -> int:
    """Exact payoff with best play; with ``want_values``, ``values[c]`` for each legal card
    (-1 - INF elsewhere). ``dd_tricks``: North/South's remaining tricks with best play for
    tricks, ``dd_values[c]`` the same after card ``c`` (-1: unknown). North/South can take that
    many and East/West can hold them to it, so the payoff lies between ``lo`` and ``hi`` at
    that count: with a payoff that grows with North/South's tricks alone, that is the answer."""
    p = (leader + tn) & 3
    r = popcount(hands[p])
    # The payoffs the hand can still end with, sorted.
    n0 = tw & 15
    e0 = (tw >> 4) & 15
    s0 = (tw >> 8) & 15
    w0 = (tw >> 12) & 15
    buf = np.empty(560, dtype=np.int64)
    nb = 0
    for a in range(r + 1):
        for b in range(r + 1 - a):
            for c in range(r + 1 - a - b):
                buf[nb] = payoff[n0 + a, e0 + b, s0 + c, w0 + r - a - b - c]
                nb += 1
    vs = np.unique(buf[:nb])
    vmin = vs[0]
    vmax = vs[vs.shape[0] - 1]
    vlo = vmin
    vhi = vmax
    if dd_tricks >= 0:
        vlo = max(vlo, lo[tw, dd_tricks])
        vhi = min(vhi, hi[tw, dd_tricks])
    if dd_tricks >= 0:
        guess = vlo
        j = dd_tricks
        for a in range(j + 1):
            for b in range(r - j + 1):
                x = payoff[n0 + a, e0 + b, s0 + j - a, w0 + r - j - b]
                if x > guess and x <= vhi:
                    guess = x
    else:
        # A greedy playout's payoff.
        won = np.zeros(4, dtype=np.int64)
        won[0] = n0
        won[1] = e0
        won[2] = s0
        won[3] = w0
        _greedy(hands, tc, tn, leader, broken, won)
        guess = payoff[won[0], won[1], won[2], won[3]]
    bufs = (lo, hi, ttk, ttv, kill, fr, ftc, mvs, scs, key, stats)
    v = _mtd(hands, tc, tn, leader, broken, tw, -1, vlo, vhi, guess, vs, *bufs)
    if not want_values:
        return v
    for c in range(52):
        values[c] = -INF - 1
    mv, n = _root_moves(hands, tc, tn, leader, broken)
    ns = (p & 1) == 0
    for i in range(n):
        c = mv[i]
        # The best card makes v: any card's payoff is at most v (North/South to move) or at
        # least v (East/West).
        clo = vmin
        chi = vmax
        if ns:
            chi = v
        else:
            clo = v
        j = dd_values[c]
        if j >= 0:
            clo = max(clo, lo[tw, j])
            chi = min(chi, hi[tw, j])
        values[c] = _mtd(hands, tc, tn, leader, broken, tw, c, clo, chi, min(max(v, clo), chi), vs, *bufs)
    _share_run_values(hands, tc, tn, p, mv, n, values)
    return v
