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
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spades.search._jit import HIGH13, LOW13, NON_SPADES, POP13, njit, popcount, trick_winner
from spades.search._jit import beats as _beats
from spades.search._jit import field as _field
from spades.search.playout import _run

IntArray = np.ndarray[Any, np.dtype[np.int64]]
ByteArray = np.ndarray[Any, np.dtype[np.int8]]


# Lead weights by case, for a lead that loses the trick (row 0) or wins it (row 1), after
# DDS's; each adds the card's relative rank (term 1), minus its rank (term 2) or nothing (0).
LEAD_AT_SINGLETON_TOP = 0  # an opponent's top card is a singleton
LEAD_WITH_SECOND_OPPOSITE = 1  # we hold the top, partner the second
LEAD_THE_TOP = 2  # the top card itself
LEAD_UNDER_OWN_TOP = 3  # a lower card of a suit we top
LEAD_TO_TOP_WITH_SECOND = 4  # partner holds the top, we the second
LEAD_TO_PARTNERS_TOP = 5
LEAD_SECOND_FROM_SEQUENCE = 6  # the second-best card, from a run
LEAD_FROM_SEQUENCE = 7
LEAD_OTHER = 8
LEAD_WEIGHT = np.array(
    [[2, 33, 38, -14, 34, 34, 35, 15, 15], [35, 48, 31, -3, 42, 28, 40, 22, 11]], dtype=np.int64
)
LEAD_TERM = np.array([[1, 1, 0, 1, 1, 1, 0, 2, 2], [1, 1, 0, 1, 1, 1, 0, 1, 1]], dtype=np.int64)


@njit
def _holder(hands: IntArray, s: int, r: int) -> int:
    for q in range(4):
        if (_field(hands[q], s) >> r) & 1:
            return q
    return -1


@njit
def _lead_score(hands: IntArray, p: int, s: int, lo: int, hi: int, allh: int) -> int:
    """How promising leading the run ``lo..hi`` of suit ``s`` looks for seat ``p``: winners first
    (cashing the suit's top, or partner's, where nobody can ruff), and among the other leads
    those giving the opponents few cards to choose from, leading through a tenace rather than
    into one."""
    pa = p ^ 2
    lh = (p + 1) & 3
    rh = (p + 3) & 3
    u = _field(allh, s)
    f_l = _field(hands[lh], s)
    f_r = _field(hands[rh], s)
    f_p = _field(hands[pa], s)
    n_l = POP13[f_l]
    n_r = POP13[f_r]
    n_p = POP13[f_p]
    sp_l = hands[lh] & 0x1FFF
    sp_r = hands[rh] & 0x1FFF
    sp_p = hands[pa] & 0x1FFF
    left = popcount(hands[p])
    c_l = n_l if n_l else left + 1
    c_r = n_r if n_r else left + 1
    delta = -((c_l + c_r) * 128) // 13
    t1 = HIGH13[u]
    h1 = _holder(hands, s, t1)
    u2 = u ^ (1 << t1)
    t2 = HIGH13[u2] if u2 else -1
    h2 = _holder(hands, s, t2) if t2 >= 0 else -1
    u3 = u2 ^ (1 << t2) if t2 >= 0 else 0
    h3 = _holder(hands, s, HIGH13[u3]) if u3 else -1
    ruff_l = s != 0 and n_l == 0 and sp_l != 0
    ruff_r = s != 0 and n_r == 0 and sp_r != 0
    if ruff_l or ruff_r:
        delta -= 12
    if s != 0 and n_p == 0 and sp_p != 0 and n_r > 0:
        delta += 17
    if h1 == rh or h2 == rh:
        if n_r != 1:
            delta -= 12
    elif h1 == lh and h2 == pa and n_p != 1:
        delta += 27
    if s != 0 and POP13[_field(hands[p], s)] == 1 and (hands[p] & 0x1FFF) != 0 and n_p > 1 and h1 == pa:
        delta += 19
    rr: int = POP13[u & ((1 << lo) - 1)] + 13 - POP13[u]
    seq = hi > lo
    has_top = hi == t1
    win = False
    if has_top:
        if s == 0:
            win = True
        elif n_p != 0 or sp_p == 0:
            win = not ruff_l and not ruff_r
        else:
            win = (n_l != 0 or sp_p > sp_l) and (n_r != 0 or sp_p > sp_r)
    elif f_p != 0 and HIGH13[f_p] > HIGH13[f_l | f_r]:
        win = s == 0 or (not ruff_l and not ruff_r)
    elif s != 0 and n_p == 0 and sp_p != 0:
        if ruff_l and ruff_r:
            win = sp_p > (sp_l | sp_r)
        elif ruff_l:
            win = sp_p > sp_l
        elif ruff_r:
            win = sp_p > sp_r
        else:
            win = True
    if not win:
        # Leads that lose the trick but set up the suit for our side.
        if h2 == pa and h3 == pa:
            delta += 20
        elif ((h2 == p and h3 == pa) or (h2 == pa and h3 == p)) and n_p > 1:
            delta += 13
    if (n_l == 1 and h1 == lh) or (n_r == 1 and h1 == rh):
        case = LEAD_AT_SINGLETON_TOP
    elif h1 == p:
        case = LEAD_WITH_SECOND_OPPOSITE if h2 == pa else (LEAD_THE_TOP if has_top else LEAD_UNDER_OWN_TOP)
    elif h1 == pa:
        case = LEAD_TO_TOP_WITH_SECOND if h2 == p else LEAD_TO_PARTNERS_TOP
    elif seq and hi == t2:
        case = LEAD_SECOND_FROM_SEQUENCE
    else:
        case = LEAD_FROM_SEQUENCE if seq else LEAD_OTHER
    w = 1 if win else 0
    term = LEAD_TERM[w, case]
    weight: int = delta + LEAD_WEIGHT[w, case] + (rr if term == 1 else (-lo if term == 2 else 0))
    return weight


@njit
def _forcing_card(f_me: int, f_4th: int, live: int, best_r: int, second_wins: bool) -> int:
    """The rank third hand plays to force out fourth hand's top card as cheaply as possible:
    the lowest card above fourth hand's second group (cards fourth hand holds with no other
    card between them are one group), or above second hand's winning card; -1 if none."""
    top4 = HIGH13[f_4th]
    rest = f_4th ^ (1 << top4)
    second = -1
    prev = top4
    while rest:
        r = HIGH13[rest]
        if (live >> (r + 1)) & ((1 << (prev - r - 1)) - 1) & ~f_4th:
            second = r
            break
        rest ^= 1 << r
        prev = r
    if second > best_r:
        above = f_me >> (second + 1)
        return LOW13[above] + second + 1 if above else -1
    if second_wins:
        above = f_me >> (best_r + 1)
        return LOW13[above] + best_r + 1 if above else -1
    return -1


@njit
def _third_hand_score(
    hands: IntArray, tc: IntArray, tn: int, leader: int, p: int, s: int, lo: int, hi: int, best: int, bi: int
) -> int:
    """How promising it looks for third hand ``p`` (partner led, fourth hand plays last) to play
    the run ``lo..hi`` of suit ``s``: low when partner's card already holds the trick or ours
    are too small to matter, the cheapest sure winner when we can win, a card that forces out
    fourth hand's top otherwise; discards from long suits; never ruff partner's sure winner."""
    ls = tc[0] // 13
    lr = tc[0] - 13 * ls
    rank = hi + 2
    allh = hands[0] | hands[1] | hands[2] | hands[3]
    my_len: int = POP13[_field(hands[p], s)]
    partner_wins = bi == 0
    best_r = best - 13 * (best // 13)
    ruffed = ls != 0 and best < 13
    f4 = _field(hands[(p + 1) & 3], ls)
    sp4 = hands[(p + 1) & 3] & 0x1FFF
    max4: int = HIGH13[f4]
    if s == ls:
        f_me = _field(hands[p], ls)
        max_me = HIGH13[f_me]
        beats = hi > best_r and not ruffed
        if ruffed or (partner_wins and lr > max4 and (ls == 0 or max4 >= 0 or sp4 == 0)):
            return -rank
        if partner_wins and ls != 0 and max4 < 0:
            return -rank
        if ls != 0 and not partner_wins and max4 < 0:
            return 20 - rank if beats else -rank
        if max_me < LOW13[f4] or max_me < best_r:
            return -rank
        if max_me > max4:
            return 58 - rank if beats and hi > max4 else -rank
        w = 60 - rank if beats and hi > max4 else -rank
        live = _field(allh, ls) | (1 << lr)
        for i in range(1, tn):
            if tc[i] // 13 == ls:
                live |= 1 << (tc[i] - 13 * ls)
        force = _forcing_card(f_me, f4, live, best_r, not partner_wins)
        if lo <= force <= hi:
            w += 20
        return w
    if ls == 0 or s != 0:
        return -rank + (my_len * 64) // 40
    # Ruffing.
    if partner_wins and lr > max4 and (max4 >= 0 or sp4 == 0):
        return -rank - 50
    add = (my_len * 64) // 50
    if ruffed and hi < best_r:
        u = _field(allh, s)
        rr: int = 14 - POP13[u >> (hi + 1)]
        return -32 + rr + (my_len * 64) // 40
    if partner_wins and max4 >= 0:
        lead_top = HIGH13[_field(allh, ls) | (1 << lr)]
        second = HIGH13[(_field(allh, ls) | (1 << lr)) ^ (1 << lead_top)]
        if second >= 0 and (_field(hands[leader], ls) >> second) & 1:
            return 36 - rank + add
        return 48 - rank + add
    if not partner_wins and max4 >= 0:
        return 72 - rank + add
    if (1 << hi) > sp4:
        return 48 - rank + add
    return (-12 if partner_wins else 36) - rank + add


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
    """Write the legal cards of seat ``p`` to ``mv``, one per run of equivalent cards (no live
    card between them; the run's lowest), best first; the run holding ``pref`` (the table's
    best move or the remembered card, or -1) goes first. A bound proven with merged runs holds
    only where those runs are runs too: ``_store`` counts their lower cards as relevant."""
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
    best = -1
    bi = 0
    if tn > 0:
        best = tc[0]
        for i in range(1, tn):
            if _beats(tc[i], best):
                best = tc[i]
                bi = i
    n = 0
    for s in range(4):
        f = _field(legal, s)
        if f == 0:
            continue
        o = _field(others, s)
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
                    score = _lead_score(hands, p, s, rep, top, allh)
                else:
                    wins = _beats(c, best)
                    if tn == 3:
                        if bi == 1 or not wins:  # partner (second to play) holds the trick
                            score = 30 - rep - (20 if s == 0 and lead_suit != 0 else 0)
                        else:
                            score = 100 - rep
                    elif tn == 2:
                        score = _third_hand_score(hands, tc, tn, leader, p, s, rep, top, best, bi)
                    else:
                        # Second hand: win only where third hand cannot beat the card.
                        nxt = hands[(p + 1) & 3]
                        nf = _field(nxt, lead_suit)
                        if nf != 0:
                            threat = 13 * lead_suit + HIGH13[nf]
                        elif (nxt & 0x1FFF) != 0:
                            threat = HIGH13[nxt & 0x1FFF]
                        else:
                            threat = -1
                        if wins and (threat < 0 or _beats(c, threat)):
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
def _side_top_trumps(hands: IntArray, side: int) -> tuple[int, int]:
    """(k, floor): the top spades held by ``side``'s two hands, down to the first one an
    opponent holds, are sure tricks for that side, as many as its longer spade holding
    (whoever leads, each of those spades wins the trick it is played to, and partners can
    always keep them apart up to that count); ``floor`` is the lowest rank the count uses."""
    a = hands[side] & 0x1FFF
    b = hands[side ^ 2] & 0x1FFF
    u = (hands[0] | hands[1] | hands[2] | hands[3]) & 0x1FFF
    cap = max(POP13[a], POP13[b])
    k = 0
    floor = 13
    mine = a | b
    while u and k < cap:
        r = HIGH13[u]
        if not (mine >> r) & 1:
            break
        k += 1
        floor = r
        u ^= 1 << r
    return k, floor


@njit
def _single_run(hands: IntArray, tc: IntArray, tn: int, p: int) -> int:
    """When seat ``p`` follows suit with a single card or run of equivalent cards (no live or
    played card between them), its lowest card, the one move worth searching; else -1."""
    ls = tc[0] // 13
    f = _field(hands[p], ls)
    if f == 0:
        return -1
    lo_r = LOW13[f]
    o = _field(hands[0] | hands[1] | hands[2] | hands[3], ls) & ~f
    for j in range(tn):
        if tc[j] // 13 == ls:
            o |= 1 << (tc[j] - 13 * ls)
    if (o >> lo_r) & ((1 << (HIGH13[f] - lo_r)) - 1) != 0:
        return -1
    card: int = 13 * ls + lo_r
    return card


@njit
def _hint_is_legal(hands: IntArray, tc: IntArray, tn: int, broken: bool, p: int, card: int) -> bool:
    """Whether a remembered card (a hint from a similar node) may be played here."""
    if card < 0 or not (hands[p] >> card) & 1:
        return False
    if tn == 0:
        return broken or card >= 13 or (hands[p] & NON_SPADES) == 0
    return card // 13 == tc[0] // 13 or _field(hands[p], tc[0] // 13) == 0


@njit
def _low(h: int) -> int:
    """The lowest card of a mask (the only card, at the last trick)."""
    return popcount((h & -h) - 1)


# ---------------------------------------------------------------------- cut-off cards
# The card that last refuted a similar node is tried first (a hint only: it is used when
# legal, so a clash of keys costs time, never correctness). Similar means: on lead, the same
# hand, target and partner's suit-length parities; following suit, the same cards left in the
# suit, the same card winning the trick and the same leader; otherwise the same hand, card
# winning the trick and target.


@njit
def _killer_key(hands: IntArray, tc: IntArray, tn: int, leader: int, p: int, target: int) -> int:
    if tn == 0:
        ph = hands[p ^ 2]
        par = 0
        for s in range(4):
            par |= (POP13[_field(ph, s)] & 1) << s
        lead_key: int = hands[p] ^ (par << 52) ^ (target << 56) ^ (p << 60)
        return lead_key
    best = tc[0]
    for i in range(1, tn):
        if _beats(tc[i], best):
            best = tc[i]
    ls = tc[0] // 13
    if _field(hands[p], ls) != 0:
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for i in range(tn):
            live |= 1 << tc[i]
        suit_left = (live >> (13 * ls)) & 0x1FFF
        follow_key: int = suit_left ^ (best << 13) ^ (leader << 19) ^ (ls << 21) ^ (1 << 62)
        return follow_key
    other_key: int = hands[p] ^ (best << 52) ^ ((target & 15) << 58) ^ (1 << 62) ^ (1 << 57)
    return other_key


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
# full block moves to a block twice its size at the end of the pool. When the pool or the
# shape table fills up, everything is forgotten at once (``tuse``: pool rows and shapes in
# use), which is sound, only slower.
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
def _hash(k: int) -> int:
    x = (k ^ (k >> 29)) & 0x3FFFFFFFFFFFFFFF
    x = (x * 2654435761) & 0x3FFFFFFFFFFFFFFF
    return x ^ (x >> 31)


@njit
def _shape_slot(tkey: IntArray, lk: int) -> int:
    """The slot of shape ``lk`` in the shape table, or of the empty slot where it would go."""
    mask = tkey.shape[0] - 1
    i: int = _hash(lk) & mask
    while tkey[i, T_KEY] != lk and tkey[i, T_KEY] != -1:
        i = (i + 1) & mask
    return i


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


@njit
def _clear_table(tkey: IntArray, tuse: IntArray) -> None:
    tkey[:, T_KEY] = -1
    tuse[0] = 0
    tuse[1] = 0


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
    slot = _shape_slot(tkey, lk)
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
    if 4 * tuse[1] >= 3 * tkey.shape[0]:
        _clear_table(tkey, tuse)
        slot = _shape_slot(tkey, lk)
    if tkey[slot, T_KEY] != lk:
        tkey[slot, T_KEY] = lk
        tkey[slot, T_START] = 0
        tkey[slot, T_COUNT] = 0
        tkey[slot, T_CAP] = 0
        tuse[1] += 1
    n = tkey[slot, T_COUNT]
    if n == tkey[slot, T_CAP]:
        cap = 4 if n == 0 else 2 * n
        if tuse[0] + cap > epat.shape[0]:
            _clear_table(tkey, tuse)
            slot = _shape_slot(tkey, lk)
            tkey[slot, T_KEY] = lk
            tuse[1] = 1
            n = 0
            cap = 4
        start = tuse[0]
        tuse[0] += cap
        old = tkey[slot, T_START]
        for i in range(n):
            for j in range(5):
                epat[start + i, j] = epat[old + i, j]
        tkey[slot, T_START] = start
        tkey[slot, T_COUNT] = n
        tkey[slot, T_CAP] = cap
    e = tkey[slot, T_START] + n
    tkey[slot, T_COUNT] = n + 1
    epat[e, 0] = p0
    epat[e, 1] = p1
    epat[e, 2] = p2
    epat[e, E_MASK] = mk
    epat[e, E_BOUNDS] = _bounds_word(lower, upper, bm)


# Frame fields of the explicit search stack (one row per depth, depth <= 52).
F_TN = 0
F_LEADER = 1
F_BROKEN = 2
F_TARGET = 3
F_N = 4
F_I = 5
F_LK = 6
F_CARD = 7
F_KEY = 8
F_VAL = 9
F_LAZY = 10
NF = 11

ENTER = 0
NEXT = 1
FINISH = 2
EXIT = 3


@njit
def _search(
    hands: IntArray,
    tc0: IntArray,
    tn0: int,
    leader0: int,
    broken0: bool,
    target0: int,
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
    """A null-window search on "can North/South take ``target0`` or more of the tricks still to
    be won (the current one included)?" ``tc0[:tn0]`` are the cards on the table, led by
    ``leader0``. Fail-soft: a result >= ``target0`` is a lower bound on North/South's tricks,
    a smaller one an upper bound (so the caller's next probe can jump).

    Alpha-beta with an explicit stack (numba cannot cache recursive code).
    ``ffl[d]`` holds, per suit, the lowest rank the result at depth ``d`` relied on."""
    d = 0
    fr[0, F_TN] = tn0
    fr[0, F_LEADER] = leader0
    fr[0, F_BROKEN] = 1 if broken0 else 0
    fr[0, F_TARGET] = target0
    for j in range(4):
        ftc[0, j] = tc0[j]
    mode = ENTER
    val = 0
    while True:
        if mode == ENTER:
            stats[0] += 1
            tn = fr[d, F_TN]
            leader = fr[d, F_LEADER]
            broken = fr[d, F_BROKEN] != 0
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
                    c0 = _low(hands[leader])
                    c1 = _low(hands[(leader + 1) & 3])
                    c2 = _low(hands[(leader + 2) & 3])
                    c3 = _low(hands[(leader + 3) & 3])
                    off = trick_winner(c0, c1, c2, c3)
                    w = (leader + off) & 3
                    wc = c0 if off == 0 else (c1 if off == 1 else (c2 if off == 2 else c3))
                    ws = wc // 13
                    n_same = (c0 // 13 == ws) + (c1 // 13 == ws) + (c2 // 13 == ws) + (c3 // 13 == ws)
                    if n_same > 1:
                        ffl[d, ws] = wc - 13 * ws
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
                        slot = _shape_slot(tkey, lk)
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
                one = -1
                if tn > 0:
                    # Following suit with a single card or run of equivalent cards: one move,
                    # no ordering needed (``_single_run`` inline: the call cost 5% of the search).
                    ls = ftc[d, 0] // 13
                    f = _field(hands[p], ls)
                    if f != 0:
                        lo_r = LOW13[f]
                        o = _field(hands[0] | hands[1] | hands[2] | hands[3], ls) & ~f
                        for j in range(tn):
                            if ftc[d, j] // 13 == ls:
                                o |= 1 << (ftc[d, j] - 13 * ls)
                        if (o >> lo_r) & ((1 << (HIGH13[f] - lo_r)) - 1) == 0:
                            one = 13 * ls + lo_r
                if one >= 0:
                    mvs[d, 0] = one
                    fr[d, F_N] = 1
                    fr[d, F_KEY] = -1
                    fr[d, F_LAZY] = 0
                else:
                    kk = _killer_key(hands, ftc[d], tn, leader, p, target)
                    fr[d, F_KEY] = kk
                    if pref < 0:
                        ks = _hash(kk) & (kill.shape[0] - 1)
                        if kill[ks, 0] == kk:
                            pref = kill[ks, 1]
                    if _hint_is_legal(hands, ftc[d], tn, broken, p, pref):
                        # Try the remembered card before generating the rest: when it cuts, the
                        # ordering of the others is never needed.
                        mvs[d, 0] = pref
                        fr[d, F_N] = 1
                        fr[d, F_LAZY] = pref + 1
                    else:
                        fr[d, F_N] = _gen(hands, ftc[d], tn, leader, broken, p, mvs[d], scs[d], pref)
                        fr[d, F_LAZY] = 0
                fr[d, F_I] = 0
                fr[d, F_VAL] = -1 if (p & 1) == 0 else 99
        if mode == NEXT:
            i = fr[d, F_I]
            n = fr[d, F_N]
            if i >= n and fr[d, F_LAZY] > 0:
                # The remembered card did not cut: now the others, its run (first) skipped.
                tn = fr[d, F_TN]
                leader = fr[d, F_LEADER]
                n = _gen(
                    hands,
                    ftc[d],
                    tn,
                    leader,
                    fr[d, F_BROKEN] != 0,
                    (leader + tn) & 3,
                    mvs[d],
                    scs[d],
                    fr[d, F_LAZY] - 1,
                )
                fr[d, F_N] = n
                fr[d, F_LAZY] = 0
                i = 1
            # Cards below the lowest relevant rank of a tried card's suit are equivalent to it.
            while i < n and mvs[d, i] % 13 < ffl[d, 4 + mvs[d, i] // 13]:
                i += 1
            fr[d, F_I] = i
            tn = fr[d, F_TN]
            leader = fr[d, F_LEADER]
            p = (leader + tn) & 3
            if i >= fr[d, F_N]:
                val = fr[d, F_VAL]
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
            lk = fr[d, F_LK]
            if lk >= 0:
                bm = -1
                t = fr[d, F_TARGET]
                result = val >= t
                if result == ((fr[d, F_LEADER] & 1) == 0):
                    c = fr[d, F_CARD]
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
            tn = fr[d, F_TN]
            p = (fr[d, F_LEADER] + tn) & 3
            c = fr[d, F_CARD]
            hands[p] ^= 1 << c
            if tn == 3:
                # Back in the parent's units: the trick just completed joins the count.
                w = (fr[d, F_LEADER] + trick_winner(ftc[d, 0], ftc[d, 1], ftc[d, 2], c)) & 3
                if (w & 1) == 0:
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
            if tn == 3:
                c0 = ftc[d, 0]
                c1 = ftc[d, 1]
                c2 = ftc[d, 2]
                off = trick_winner(c0, c1, c2, c)
                wc = c0 if off == 0 else (c1 if off == 1 else (c2 if off == 2 else c))
                ws = wc // 13
                n_same = (c0 // 13 == ws) + (c1 // 13 == ws) + (c2 // 13 == ws) + (c // 13 == ws)
                if n_same > 1 and wc - 13 * ws < ffl[d, ws]:
                    ffl[d, ws] = wc - 13 * ws
                if n_same > 1 and ws == cs and wc - 13 * ws < bf:
                    bf = wc - 13 * ws
            if not cut and c - 13 * cs < bf and bf > ffl[d, 4 + cs]:
                # The result did not depend on this card's rank: the hand's lower cards of the
                # suit would do the same.
                ffl[d, 4 + cs] = bf
            if cut:
                kk = fr[d, F_KEY]
                if kk != -1:
                    ks = _hash(kk) & (kill.shape[0] - 1)
                    kill[ks, 0] = kk
                    kill[ks, 1] = c
                mode = FINISH
            else:
                mode = NEXT


@njit
def _share_run_values(
    hands: IntArray, tc: IntArray, tn: int, p: int, mv: IntArray, n: int, values: IntArray
) -> None:
    """Give each card of seat ``p`` the value of the move ``mv[i]`` whose run it belongs to (the
    cards above it with no live or played card between): the root searched one card per run."""
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


@njit
def _probe(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    broken: bool,
    card: int,
    target: int,
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
    """``_search`` from the position (``card`` < 0) or after the seat to move plays ``card``
    (fail-soft, in this position's units)."""
    if card < 0:
        return _search(
            hands,
            tc,
            tn,
            leader,
            broken,
            target,
            tkey,
            epat,
            tuse,
            kill,
            fr,
            ftc,
            ffl,
            mvs,
            scs,
            rel,
            tmp,
            stats,
        )
    p = (leader + tn) & 3
    hands[p] ^= 1 << card
    child = np.full(4, -1, dtype=np.int64)
    for j in range(tn):
        child[j] = tc[j]
    child[tn] = card
    nb = broken or (card < 13 and (tn == 0 or tc[0] >= 13))
    won = 0
    ctn = tn + 1
    cl = leader
    if tn == 3:
        # The card completes the trick: the child is the next trick's start.
        cl = (leader + trick_winner(tc[0], tc[1], tc[2], card)) & 3
        won = 1 if (cl & 1) == 0 else 0
        ctn = 0
    res: int = won + _search(
        hands,
        child,
        ctn,
        cl,
        nb,
        target - won,
        tkey,
        epat,
        tuse,
        kill,
        fr,
        ftc,
        ffl,
        mvs,
        scs,
        rel,
        tmp,
        stats,
    )
    hands[p] ^= 1 << card
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
) -> tuple[int, int]:
    """MTD(f) within [lo, hi] from the guess ``g``: null-window probes, each fail-soft answer a
    bound the next probe starts from. Returns the figure (of the position, or after ``card``)
    and the lowest rank of ``card``'s suit the probes relied on (13: none, or no card)."""
    floor = 13
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = _probe(
            hands,
            tc,
            tn,
            leader,
            broken,
            card,
            beta,
            tkey,
            epat,
            tuse,
            kill,
            fr,
            ftc,
            ffl,
            mvs,
            scs,
            rel,
            tmp,
            stats,
        )
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
    sim = hands.copy()
    stc = tc.copy()
    tw = np.zeros(4, dtype=np.int64)
    _run(sim, stc, tn, leader, broken, tw, 1, 1, np.empty(0, dtype=np.int64))
    bufs = (tkey, epat, tuse, kill, fr, ftc, ffl, mvs, scs, rel, tmp, stats)
    v, _ = _mtd(hands, tc, tn, leader, broken, -1, 0, r, min(max(tw[0] + tw[2], 0), r), *bufs)
    if not want_values:
        return v
    for c in range(52):
        values[c] = -1
    mv = np.zeros(16, dtype=np.int64)
    sc = np.zeros(16, dtype=np.int64)
    n = _gen(hands, tc, tn, leader, broken, p, mv, sc, -1)
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
            off = trick_winner(tc[0], tc[1], tc[2], c)
            wc = tc[0] if off == 0 else (tc[1] if off == 1 else (tc[2] if off == 2 else c))
            ws = wc // 13
            n_same = (tc[0] // 13 == ws) + (tc[1] // 13 == ws) + (tc[2] // 13 == ws) + (c // 13 == ws)
            if n_same > 1 and ws == cs:
                bf = wc - 13 * ws
        # The best card makes v, so a card's figure is at most v (North/South to move) or at
        # least v (East/West).
        lo, fl = _mtd(hands, tc, tn, leader, broken, c, 0 if ns else v, v if ns else r, v, *bufs)
        bf = min(bf, fl)
        values[c] = lo
        if c - 13 * cs < bf and bf > skip_floor[cs]:
            # Neither proof depended on this card's rank: the hand's lower cards of the suit
            # (below the lowest relevant rank) take the same figure.
            skip_floor[cs] = bf
            skip_value[cs] = lo
    _share_run_values(hands, tc, tn, p, mv, n, values)
    return v
