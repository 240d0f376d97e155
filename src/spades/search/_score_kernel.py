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
  probe is cut before its moves are generated. Sure tricks narrow the range: either side's
  top spades (``q`` for that side), and a seat holding the top spades outright wins one
  trick with each (its own count, Nil included).
* A partition-search table at trick starts, as the trick solver's: bounds for a shape, the
  class of the tricks per seat (counts whose every ending pays the same are one class) and
  the holders of the cards the proof relied on, kept across probes and calls (bounds of one
  payoff table: the solver empties it when the table changes).
* The root's bounds from the trick solver (``score.py`` passes its figures in).
* A cut-off card ("killer") cache: the card that last refuted a similar node is tried before
  the other moves are generated; one move per run of equivalent cards (exact: keys are exact).

Those last two, the move ordering and the stack's bookkeeping are the trick solver's too, in
``_kernel_common``; this module holds what is score mode's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spades.search._dd_kernel import (
    E_BOUNDS,
    E_MASK,
    T_COUNT,
    T_KEY,
    T_START,
    _floors_of_entry,
    _lenkey,
    _matches,
    _relative,
    _room_for_entry,
    _slot_of,
)
from spades.search._jit import HIGH13, POP13, borrow, borrow_all, njit, njit_inline, popcount
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
"""The search's work arrays, passed down as one argument (built by ``_score_solve``):
``(lo, hi, tkey, epat, tuse, kill, fr, ftc, ffl, mvs, scs, rel, tmp, stats)``."""

INF = 1 << 40

# Frame fields of the explicit search stack (one row per depth, depth <= 52): the common
# ones (``_kernel_common.K_*``), then the window, the window on entry, the best value so far,
# the shape key (-1: no table entry) and the tricks won so far (4 bits per seat).
S_ALPHA = K_OWN
S_BETA = K_OWN + 1
S_A0 = K_OWN + 2
S_B0 = K_OWN + 3
S_BEST = K_OWN + 4
S_LK = K_OWN + 5
S_TW = K_OWN + 6
NS_FIELDS = K_OWN + 7

# ---------------------------------------------------------------------- payoff ranges


CLS = 14
"""Column of ``lo`` holding the class of ``tw`` (below)."""
LO_COLS = 15


@njit
def _nil_seats(payoff: IntArray) -> int:
    """The seats (bits) that bid Nil, as the payoff shows it: one trick moved from partner to
    the seat, with the seat on none, costs its side at least 50 points. The analysis sends
    such hands to its workers first (a live Nil is what makes a hand slow to analyse)."""
    out = 0
    for q in range(4):
        a = np.zeros(4, dtype=np.int64)
        a[q ^ 2] = 7
        a[(q + 1) & 3] = 3
        a[(q + 3) & 3] = 3
        made = payoff[a[0], a[1], a[2], a[3]]
        a[q ^ 2] = 6
        a[q] = 1
        set_ = payoff[a[0], a[1], a[2], a[3]]
        loss = made - set_ if (q & 1) == 0 else set_ - made
        if loss >= 50:
            out |= 1 << q
    return out


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
# tricks. (The leader's cashable winners, "quick tricks", were dropped as in the trick
# solver: with partition search their relevant cards make stored bounds narrower, and the
# bench's Nil deals searched 20% fewer nodes without them.)


@njit
def _forced_spades(hands: IntArray) -> tuple[int, int, int]:
    """(seat, m, floor): the seat holding the top ``m`` live spades outright wins a trick with
    each, whatever anyone does (it plays them in different tricks and nothing beats them);
    ``floor`` is the rank of the lowest of them."""
    u = (hands[0] | hands[1] | hands[2] | hands[3]) & 0x1FFF
    if u == 0:
        return -1, 0, 13
    top = HIGH13[u]
    x = 0
    for q in range(4):
        if (hands[q] >> top) & 1:
            x = q
    hx = hands[x] & 0x1FFF
    m = 0
    floor = 13
    while u:
        r = HIGH13[u]
        if not (hx >> r) & 1:
            break
        m += 1
        floor = r
        u ^= 1 << r
    return x, m, floor


# ---------------------------------------------------------------------- transposition table
# Partition search, as the trick solver's (``_dd_kernel``): an entry holds payoff bounds proven
# for every position with the same shape (suit lengths per hand, leader, spades flag), the same
# class of tricks won per seat, and the same holders of each suit's cards down to the lowest
# rank the proof relied on (by relative rank). Who wins each trick depends on those cards
# alone, and the payoff only on who wins each trick, so the bounds hold for all of them.
#
# Layout as the trick solver's: a table of shapes (``tkey[i]``: length key, then where the
# shape's entries start in the pool, how many there are, how many fit, and the tricks' class)
# and a pool of entries (``epat[e]``: North's, East's and South's relevant cards by relative
# rank, the mask of relevant relative ranks, and the lower bound, upper bound and best lead
# packed in one word: five columns where seven held them, so 40% more entries in the same
# memory, which is what the hardest deals lack).
SE_COLS = 5
PAYOFF_LIMIT = (1 << 25) - 1
"""Payoffs lie strictly within +-PAYOFF_LIMIT (``score.py`` checks its tables): a bound
outside is stored as unbounded (the expert's tables, points times 1,000, stay below 3M)."""
_CODE_TOP = (1 << 26) - 1


@njit_inline
def _sword(lower: int, upper: int, lead: int) -> int:
    """One word for a lower and an upper payoff bound (26 bits each) and a lead (-1: none)."""
    a = 0 if lower <= -PAYOFF_LIMIT else lower + PAYOFF_LIMIT
    b = _CODE_TOP if upper >= PAYOFF_LIMIT else upper + PAYOFF_LIMIT
    return a | (b << 26) | ((lead + 1) << 52)


@njit_inline
def _slower(w: int) -> int:
    a = w & _CODE_TOP
    return -INF if a == 0 else a - PAYOFF_LIMIT


@njit_inline
def _supper(w: int) -> int:
    b = (w >> 26) & _CODE_TOP
    return INF if b == _CODE_TOP else b - PAYOFF_LIMIT


@njit_inline
def _slead(w: int) -> int:
    return (w >> 52) - 1


@njit
def _sstore(
    hands: IntArray,
    lk: int,
    twc: int,
    lower: int,
    upper: int,
    floor: IntArray,
    tkey: IntArray,
    epat: IntArray,
    tuse: IntArray,
    bm: int,
    rel: IntArray,
) -> None:
    """Record payoff bounds with the floors they relied on (and the lead that proved them, as
    suit and place from the top, or -1): an entry with the same relevant cards is tightened,
    entries the new one makes redundant are dropped, else a new entry joins the shape's block.
    As the trick solver's ``_store``, but with 64-bit bounds."""
    _relative(hands, rel)
    u = hands[0] | hands[1] | hands[2] | hands[3]
    for s in range(4):
        # A run of equivalent cards reaching below the floor is a run only where its lower
        # cards sit in the same hand too, so they become relevant.
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
    slot = _slot_of(tkey, lk, twc)
    if tkey[slot, T_KEY] == lk:
        start = tkey[slot, T_START]
        e = start
        while e < start + tkey[slot, T_COUNT]:
            em = epat[e, E_MASK]
            w = epat[e, E_BOUNDS]
            if em == mk and epat[e, 0] == p0 and epat[e, 1] == p1 and epat[e, 2] == p2:
                epat[e, E_BOUNDS] = _sword(
                    max(lower, _slower(w)), min(upper, _supper(w)), bm if bm >= 0 else _slead(w)
                )
                return
            if (
                (em & mk) == mk
                and (epat[e, 0] & mk) == p0
                and (epat[e, 1] & mk) == p1
                and (epat[e, 2] & mk) == p2
                and _slower(w) <= lower
                and _supper(w) >= upper
            ):
                # Every position this entry covers, the new one covers with bounds at least as
                # tight: drop it (the shape's last entry takes its place).
                last = start + tkey[slot, T_COUNT] - 1
                for j in range(SE_COLS):
                    epat[e, j] = epat[last, j]
                tkey[slot, T_COUNT] -= 1
                continue
            e += 1
    slot = _room_for_entry(tkey, epat, tuse, slot, lk, twc)
    n = tkey[slot, T_COUNT]
    e = tkey[slot, T_START] + n
    tkey[slot, T_COUNT] = n + 1
    epat[e, 0] = p0
    epat[e, 1] = p1
    epat[e, 2] = p2
    epat[e, E_MASK] = mk
    epat[e, E_BOUNDS] = _sword(lower, upper, bm)


@njit_inline
def _tighten(tmp: IntArray, which: int, s0: int, f0: int) -> None:
    """A sure-trick count tightened one bound (``which``: 0 lower, 4 upper): its floors are
    those of that count alone (``s0``/``f0``: one suit's floor; ``s0`` < 0: ``tmp[8:12]``)."""
    for s in range(4):
        tmp[which + s] = 13
    if s0 >= 0:
        tmp[which + s0] = f0
    else:
        for s in range(4):
            tmp[which + s] = tmp[8 + s]


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
    bufs: Bufs,
) -> int:
    """The payoff with best play from a position (``tw0``: tricks so far, 4 bits per seat),
    exact inside (alpha0, beta0), a bound outside it (fail-soft). Alpha-beta with an explicit
    stack (numba cannot cache recursive code). ``ffl[d]`` holds, per suit, the lowest rank the
    result at depth ``d`` relied on, and the rank below which the hand's cards of a tried suit
    would do the same (as in the trick solver)."""
    # Borrowed: no reference counts in the loop (``_jit.borrow``).
    lo, hi, tkey, epat, tuse, kill, fr, ftc, ffl, mvs, scs, rel, tmp, stats = borrow_all(bufs)
    hands = borrow(hands)
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
            fr[d, S_LK] = -1
            for s in range(4):
                ffl[d, s] = 13
                ffl[d, 4 + s] = 0
            p = (leader + tn) & 3
            r = popcount(hands[p])
            pref = -1
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
                    w, ws, wfl = _last_trick(hands, leader)
                    if wfl < 13:
                        ffl[d, ws] = wfl
                    value = lo[tw + (1 << (4 * w)), 0]
                    mode = EXIT
                else:
                    # tmp[0:4]: the floors the lower bound relies on, tmp[4:8] the upper's.
                    for j in range(8):
                        tmp[j] = 13
                    twc = lo[tw, CLS]
                    lk = _lenkey(hands, leader, broken)
                    fr[d, S_LK] = lk
                    slot = _slot_of(tkey, lk, twc)
                    if tkey[slot, T_KEY] == lk:
                        _relative(hands, rel)
                        start = tkey[slot, T_START]
                        newest = start + tkey[slot, T_COUNT] - 1
                        for e in range(newest, start - 1, -1):
                            if not _matches(epat, e, rel):
                                continue
                            ew = epat[e, E_BOUNDS]
                            mvk = _slead(ew)
                            if pref < 0 and mvk >= 0:
                                ps = mvk >> 4
                                f = _field(hands[0] | hands[1] | hands[2] | hands[3], ps)
                                for _ in range(mvk & 15):
                                    f ^= 1 << HIGH13[f]
                                if f:
                                    pref = 13 * ps + HIGH13[f]
                            hit = False
                            if _slower(ew) > lb:
                                lb = _slower(ew)
                                _floors_of_entry(hands, epat, e, tmp[8:12])
                                _tighten(tmp, 0, -1, 0)
                                hit = True
                            if _supper(ew) < ub:
                                ub = _supper(ew)
                                _floors_of_entry(hands, epat, e, tmp[8:12])
                                _tighten(tmp, 4, -1, 0)
                                hit = True
                            if hit and (lb >= beta or ub <= alpha or lb == ub):
                                if e < newest:
                                    for j in range(SE_COLS):
                                        x = epat[e, j]
                                        epat[e, j] = epat[newest, j]
                                        epat[newest, j] = x
                                break
                    if lb < beta and ub > alpha and lb != ub:
                        # Sure tricks narrow the reachable payoffs.
                        x, m, fm = _forced_spades(hands)
                        if m > 0:
                            tx = tw + (m << (4 * x))
                            if lo[tx, 0] > lb:
                                lb = lo[tx, 0]
                                _tighten(tmp, 0, 0, fm)
                            if hi[tx, r - m] < ub:
                                ub = hi[tx, r - m]
                                _tighten(tmp, 4, 0, fm)
                    if lb < beta and ub > alpha and lb != ub:
                        k, fk = _side_top_trumps(hands, 0)
                        if lo[tw, k] > lb:
                            lb = lo[tw, k]
                            _tighten(tmp, 0, 0, fk)
                        k, fk = _side_top_trumps(hands, 1)
                        if hi[tw, r - k] < ub:
                            ub = hi[tw, r - k]
                            _tighten(tmp, 4, 0, fk)
                    if lb >= beta:
                        value = lb
                        for s in range(4):
                            ffl[d, s] = tmp[s]
                        mode = EXIT
                    elif ub <= alpha:
                        value = ub
                        for s in range(4):
                            ffl[d, s] = tmp[4 + s]
                        mode = EXIT
                    elif lb == ub:
                        value = lb
                        for s in range(4):
                            ffl[d, s] = min(tmp[s], tmp[4 + s])
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
                    pref,
                    (mine << 55) ^ (p << 62),
                    mine << 23,
                    (1 << 61) ^ ((mine & 15) << 58),
                )
                fr[d, S_BEST] = -INF if (p & 1) == 0 else INF
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
            lk = fr[d, S_LK]
            if lk >= 0:
                a0 = fr[d, S_A0]
                b0 = fr[d, S_B0]
                lower = -INF
                upper = INF
                if value <= a0:
                    upper = value
                elif value >= b0:
                    lower = value
                else:
                    lower = value
                    upper = value
                bm = -1
                ns_leads = (fr[d, K_LEADER] & 1) == 0
                if (ns_leads and value >= b0) or (not ns_leads and value <= a0):
                    c = fr[d, K_CARD]
                    cs = c // 13
                    above = _field(hands[0] | hands[1] | hands[2] | hands[3], cs) >> (c - 13 * cs + 1)
                    bm = cs * 16 + POP13[above]
                _sstore(hands, lk, lo[fr[d, S_TW], CLS], lower, upper, ffl[d], tkey, epat, tuse, bm, rel)
            mode = EXIT
        if mode == EXIT:  # hand the value to the parent
            if d == 0:
                return value
            d -= 1
            tn, p, c = _pop(hands, fr, d)
            ws = 0
            wfl = 13
            if tn == 3:
                _, ws, wfl = _winner_floor(ftc[d, 0], ftc[d, 1], ftc[d, 2], c)
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
            cut = fr[d, S_ALPHA] >= fr[d, S_BETA]
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
    bufs: Bufs,
) -> int:
    """ "Is the payoff at least ``t``?" from the position (``card`` < 0) or after the seat to
    move plays ``card``: a fail-soft answer, >= t a lower bound, < t an upper bound."""
    if card < 0:
        return _search(hands, tc, tn, leader, broken, tw, t - 1, t, bufs)
    child, ctn, cl, nb, w = _play(hands, tc, tn, leader, broken, card)
    ctw = tw + ((1 << (4 * w)) if w >= 0 else 0)
    res = _search(hands, child, ctn, cl, nb, ctw, t - 1, t, bufs)
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
    bufs: Bufs,
) -> tuple[int, int]:
    """The exact payoff (of the position, or after ``card``), known to be one of the sorted
    values ``vs`` and within [vlo, vhi]: null-window probes at the value next to the last
    answer twice (from ``guess``), then bisection by payoff of the values still possible.
    Returns it and the lowest rank
    of ``card``'s suit the probes relied on (13: none, or no card)."""
    ffl = bufs[8]
    stats = bufs[13]
    nv = vs.shape[0]
    g = guess
    probes = 0
    floor = 13
    while True:
        i0 = 0
        while i0 < nv and vs[i0] <= vlo:
            i0 += 1
        i1 = nv - 1
        while i1 >= 0 and vs[i1] > vhi:
            i1 -= 1
        if i0 > i1:
            return vlo, floor
        if probes < 2:
            j = i0
            while j < i1 and vs[j] < g:
                j += 1
        else:
            # Bisection by payoff, not by place: the probe lands at the edge of the widest
            # gap (Nil made or set, a contract made or set) rather than among payoffs a bag
            # apart, where each probe settles one point.
            mid = (vs[i0] + vs[i1] + 1) // 2
            j = i0
            while j < i1 and vs[j] < mid:
                j += 1
        t = vs[j]
        g = _probe(hands, tc, tn, leader, broken, tw, card, t, bufs)
        probes += 1
        stats[1] += 1
        if card >= 0 and ffl[0, card // 13] < floor:
            floor = ffl[0, card // 13]
        if g >= t:
            vlo = g
        else:
            vhi = g


NOT_BEST = -INF - 2
"""``_score_solve``'s figure, with ``only``, for a card worse than the best."""


@njit
def _as_good(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    tw: int,
    card: int,
    v: int,
    ns: bool,
    dd: int,
    bufs: Bufs,
) -> int:
    """``v`` if ``card`` reaches the position's payoff ``v`` (no card does better), else
    ``NOT_BEST``: North/South to move, "is its payoff at least v?"; East/West, "is it at
    least v + 1?" (then it is worse). The trick solver's figure after the card (``dd``, -1:
    unknown) often answers without a search."""
    lo = bufs[0]
    hi = bufs[1]
    stats = bufs[13]
    t = v if ns else v + 1
    if dd >= 0:
        if lo[tw, dd] >= t:
            return v if ns else NOT_BEST
        if hi[tw, dd] < t:
            return NOT_BEST if ns else v
    g = _probe(hands, tc, tn, leader, broken, tw, card, t, bufs)
    stats[1] += 1
    if (g >= t) == ns:
        return v
    return NOT_BEST


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
    only: int,
    hint: int,
    values: IntArray,
    lo: IntArray,
    hi: IntArray,
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
    """Exact payoff with best play; with ``want_values``, ``values[c]`` for each legal card
    (-1 - INF elsewhere). ``dd_tricks``: North/South's remaining tricks with best play for
    tricks, ``dd_values[c]`` the same after card ``c`` (-1: unknown). North/South can take that
    many and East/West can hold them to it, so the payoff lies between ``lo`` and ``hi`` at
    that count: with a payoff that grows with North/South's tricks alone, that is the answer.

    ``only`` >= 0 (a legal card): only that card's payoff is wanted exactly, and of the others
    whether they are best: a best card gets the payoff ``v``, any other ``NOT_BEST`` (one
    null-window probe at ``v`` each instead of a search for its exact payoff, which is what
    an analysis of played cards needs: the card played, the best payoff, the best cards).
    ``hint``: the first payoff to probe, when within the bounds (an earlier call's figure for
    this position: the next decision of an analysis starts where the card played left it)."""
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
    bufs = (lo, hi, tkey, epat, tuse, kill, fr, ftc, ffl, mvs, scs, rel, tmp, stats)
    if vlo <= hint <= vhi:
        guess = hint
    v, _ = _mtd(hands, tc, tn, leader, broken, tw, -1, vlo, vhi, guess, vs, bufs)
    if not want_values:
        return v
    for c in range(52):
        values[c] = -INF - 1
    mv, n = _root_moves(hands, tc, tn, leader, broken)
    ns = (p & 1) == 0
    skip_floor = np.zeros(4, dtype=np.int64)
    skip_value = np.zeros(4, dtype=np.int64)
    skip_dd = np.full(4, -2, dtype=np.int64)
    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[p]
    for j in range(tn):
        others |= 1 << tc[j]
    for i in range(n):
        c = mv[i]
        cs = c // 13
        if only >= 0 and not (
            only // 13 == cs and only >= c and (others >> c) & ((1 << (only - c)) - 1) == 0
        ):
            # Not the run of the card wanted: is it as good as the best card?
            values[c] = _as_good(hands, tc, tn, leader, broken, tw, c, v, ns, dd_values[c], bufs)
            continue
        if c - 13 * cs < skip_floor[cs] and dd_values[c] == skip_dd[cs]:
            # A lower card of a suit whose searched card's proofs did not rely on its rank,
            # with the same bounds to start from (the trick solver's figure): the same payoff.
            values[c] = skip_value[cs]
            continue
        bf = 13
        if tn == 3:
            _, ws, wfl = _winner_floor(tc[0], tc[1], tc[2], c)
            if ws == cs:
                bf = wfl
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
        x, fl = _mtd(hands, tc, tn, leader, broken, tw, c, clo, chi, min(max(v, clo), chi), vs, bufs)
        values[c] = x
        bf = min(bf, fl)
        if c - 13 * cs < bf and bf > skip_floor[cs]:
            skip_floor[cs] = bf
            skip_value[cs] = x
            skip_dd[cs] = dd_values[c]
    _share_run_values(hands, tc, tn, p, mv, n, values)
    return v
