"""What the two search kernels share: the stack loop's modes and common frame columns, move
generation and ordering, the one-move and remembered-card shortcuts, playing a card into the
child frame and taking it back, and the root's moves and first guess.

The trick solver (``_dd_kernel``) and the score-mode solver (``_score_kernel``) walk the same
tree the same way and differ in what a node's value is (tricks against a target, or a payoff
in an alpha-beta window) and in their tables. Everything here is the same for both, written
once; a helper the search calls at every node is compiled inline into both loops
(``njit_inline``) where a plain call measured slower (docs/search.md, "What the kernels share").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spades.search._jit import (
    HIGH13,
    LOW13,
    NON_SPADES,
    POP13,
    lowest_bit,
    njit,
    njit_inline,
    popcount,
    trick_winner,
)
from spades.search._jit import beats as _beats
from spades.search._jit import field as _field
from spades.search.playout import _run

IntArray = np.ndarray[Any, np.dtype[np.int64]]

# ---------------------------------------------------------------------- the explicit stack
# Both searches are alpha-beta loops over an explicit stack (numba caches recursive code only
# with an explicit signature): ``fr[d]`` is the frame at depth ``d``, ``ftc[d]`` the cards on
# the table there, ``mvs[d]``/``scs[d]`` its moves and their ordering scores.

ENTER = 0
NEXT = 1
FINISH = 2
EXIT = 3

K_TN = 0
"""Frame columns both kernels use: cards on the table (0..3),"""
K_LEADER = 1
"""the trick's leader,"""
K_BROKEN = 2
"""spades broken (1) or not (0),"""
K_N = 3
"""moves generated,"""
K_I = 4
"""the next move to try,"""
K_CARD = 5
"""the card being searched,"""
K_KEY = 6
"""the cut-off card cache key (-1: one move only, no key),"""
K_LAZY = 7
"""the remembered card + 1 while only it has been generated (0: all moves are),"""
K_OWN = 8
"""and the first column of a kernel's own fields."""


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
        best, bi = _trick_best(tc, tn)
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


@njit_inline
def _single_run(hands: IntArray, ftc: IntArray, d: int, tn: int, p: int) -> int:
    """When seat ``p`` follows suit with a single card or run of equivalent cards (no live or
    played card between them), its lowest card, the one move worth searching; else -1.

    The trick is row ``d`` of ``ftc``, read in place: most nodes take this path, and making
    the row a view (``ftc[d]``) costs a reference count up and down each time."""
    ls = ftc[d, 0] // 13
    f = _field(hands[p], ls)
    if f == 0:
        return -1
    lo_r = LOW13[f]
    o = _field(hands[0] | hands[1] | hands[2] | hands[3], ls) & ~f
    for j in range(tn):
        if ftc[d, j] // 13 == ls:
            o |= 1 << (ftc[d, j] - 13 * ls)
    if (o >> lo_r) & ((1 << (HIGH13[f] - lo_r)) - 1) != 0:
        return -1
    card: int = 13 * ls + lo_r
    return card


@njit
def _hint_is_legal(hands: IntArray, lead: int, tn: int, broken: bool, p: int, card: int) -> bool:
    """Whether a remembered card (a hint from a similar node) may be played here (``lead``:
    the card led, when ``tn`` > 0)."""
    if card < 0 or not (hands[p] >> card) & 1:
        return False
    if tn == 0:
        return broken or card >= 13 or (hands[p] & NON_SPADES) == 0
    return card // 13 == lead // 13 or _field(hands[p], lead // 13) == 0


@njit
def _hash(k: int) -> int:
    x = (k ^ (k >> 29)) & 0x3FFFFFFFFFFFFFFF
    x = (x * 2654435761) & 0x3FFFFFFFFFFFFFFF
    return x ^ (x >> 31)


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


@njit_inline
def _trick_best(tc: IntArray, tn: int) -> tuple[int, int]:
    """The card winning the trick so far (``tn`` >= 1 cards on the table) and its place."""
    best = tc[0]
    bi = 0
    for i in range(1, tn):
        if _beats(tc[i], best):
            best = tc[i]
            bi = i
    return best, bi


@njit
def _winner_floor(c0: int, c1: int, c2: int, c3: int) -> tuple[int, int, int]:
    """(offset of the winner from the leader, winning suit, floor) of a full trick: the floor
    is the winning card's rank when it beat a card of its own suit (the result then relies on
    that card being higher), else 13 (no floor)."""
    off = trick_winner(c0, c1, c2, c3)
    wc = c0 if off == 0 else (c1 if off == 1 else (c2 if off == 2 else c3))
    ws = wc // 13
    n_same = (c0 // 13 == ws) + (c1 // 13 == ws) + (c2 // 13 == ws) + (c3 // 13 == ws)
    return off, ws, (wc - 13 * ws if n_same > 1 else 13)


@njit_inline
def _last_trick(hands: IntArray, leader: int) -> tuple[int, int, int]:
    """The last trick, one card left in each hand: (winning seat, winning suit, floor)."""
    c0 = lowest_bit(hands[leader])
    c1 = lowest_bit(hands[(leader + 1) & 3])
    c2 = lowest_bit(hands[(leader + 2) & 3])
    c3 = lowest_bit(hands[(leader + 3) & 3])
    off, ws, fl = _winner_floor(c0, c1, c2, c3)
    return (leader + off) & 3, ws, fl


# ---------------------------------------------------------------------- cut-off cards
# The card that last refuted a similar node is tried first (a hint only: it is used when
# legal, so a clash of keys costs time, never correctness). Similar means: on lead, the same
# hand and partner's suit-length parities; following suit, the same cards left in the suit,
# the same card winning the trick and the same leader; otherwise the same hand and card
# winning the trick. Each kernel mixes in what else decides what a side wants (the trick
# target, or the trick counts of the mover's side) through the three ``mix`` words.


@njit
def _similar_key(
    hands: IntArray,
    tc: IntArray,
    tn: int,
    leader: int,
    p: int,
    lead_mix: int,
    follow_mix: int,
    other_mix: int,
) -> int:
    """The cut-off card cache key of a node where seat ``p`` is to move."""
    if tn == 0:
        ph = hands[p ^ 2]
        par = 0
        for s in range(4):
            par |= (POP13[_field(ph, s)] & 1) << s
        lead_key: int = hands[p] ^ (par << 52) ^ lead_mix
        return lead_key
    best, _ = _trick_best(tc, tn)
    ls = tc[0] // 13
    if _field(hands[p], ls) != 0:
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for i in range(tn):
            live |= 1 << tc[i]
        suit_left = (live >> (13 * ls)) & 0x1FFF
        follow_key: int = suit_left ^ (best << 13) ^ (leader << 19) ^ (ls << 21) ^ (1 << 62) ^ follow_mix
        return follow_key
    other_key: int = hands[p] ^ (best << 52) ^ (1 << 62) ^ other_mix
    return other_key


@njit
def _remember_cut(kill: IntArray, kk: int, c: int) -> None:
    """Card ``c`` cut off the node of key ``kk`` (-1: a node with one move, not cached)."""
    if kk != -1:
        ks = _hash(kk) & (kill.shape[0] - 1)
        kill[ks, 0] = kk
        kill[ks, 1] = c


# ---------------------------------------------------------------------- a node's moves


@njit_inline
def _moves(
    hands: IntArray,
    fr: IntArray,
    ftc: IntArray,
    mvs: IntArray,
    scs: IntArray,
    kill: IntArray,
    d: int,
    pref: int,
    lead_mix: int,
    follow_mix: int,
    other_mix: int,
) -> None:
    """Set up the moves of frame ``d`` (``pref``: a card to try first, or -1): the one move
    when following suit with a single run of equivalent cards; else the remembered card
    alone when legal (the rest are generated only if it does not cut, by ``_rest_of_moves``:
    when it cuts, their ordering is never needed), else every run, best first.

    Inline: as a call, the one-move check cost the trick solver 5% of its time."""
    tn = fr[d, K_TN]
    leader = fr[d, K_LEADER]
    broken = fr[d, K_BROKEN] != 0
    p = (leader + tn) & 3
    one = _single_run(hands, ftc, d, tn, p) if tn > 0 else -1
    if one >= 0:
        mvs[d, 0] = one
        fr[d, K_N] = 1
        fr[d, K_KEY] = -1
        fr[d, K_LAZY] = 0
    else:
        kk = _similar_key(hands, ftc[d], tn, leader, p, lead_mix, follow_mix, other_mix)
        fr[d, K_KEY] = kk
        if pref < 0:
            ks = _hash(kk) & (kill.shape[0] - 1)
            if kill[ks, 0] == kk:
                pref = kill[ks, 1]
        if _hint_is_legal(hands, ftc[d, 0], tn, broken, p, pref):
            mvs[d, 0] = pref
            fr[d, K_N] = 1
            fr[d, K_LAZY] = pref + 1
        else:
            fr[d, K_N] = _gen(hands, ftc[d], tn, leader, broken, p, mvs[d], scs[d], pref)
            fr[d, K_LAZY] = 0
    fr[d, K_I] = 0


@njit_inline
def _rest_of_moves(hands: IntArray, fr: IntArray, ftc: IntArray, mvs: IntArray, scs: IntArray, d: int) -> int:
    """The remembered card tried alone did not cut: generate the others (its run, the first
    move, skipped); returns the number of moves, the next to try being the second."""
    tn = fr[d, K_TN]
    leader = fr[d, K_LEADER]
    p = (leader + tn) & 3
    n = _gen(hands, ftc[d], tn, leader, fr[d, K_BROKEN] != 0, p, mvs[d], scs[d], fr[d, K_LAZY] - 1)
    fr[d, K_N] = n
    fr[d, K_LAZY] = 0
    return n


@njit
def _start(fr: IntArray, ftc: IntArray, tc0: IntArray, tn0: int, leader0: int, broken0: bool) -> None:
    """Frame 0 of a search: the position's trick (``tc0[:tn0]``), leader and spades flag."""
    fr[0, K_TN] = tn0
    fr[0, K_LEADER] = leader0
    fr[0, K_BROKEN] = 1 if broken0 else 0
    for j in range(4):
        ftc[0, j] = tc0[j]


# ---------------------------------------------------------------------- playing a card


@njit_inline
def _push(hands: IntArray, fr: IntArray, ftc: IntArray, d: int, c: int) -> int:
    """The seat to move at depth ``d`` plays ``c``: the card leaves its hand and frame
    ``d + 1`` gets the position after it (cards on the table, leader, spades flag). Returns
    the trick's winning seat when ``c`` completes it, else -1; the kernel sets its own
    fields (target, trick counts, window) from that."""
    tn = fr[d, K_TN]
    leader = fr[d, K_LEADER]
    fr[d, K_CARD] = c
    hands[(leader + tn) & 3] ^= 1 << c
    e = d + 1
    fr[e, K_BROKEN] = 1 if fr[d, K_BROKEN] != 0 or (c < 13 and (tn == 0 or ftc[d, 0] >= 13)) else 0
    if tn == 3:
        w: int = (leader + trick_winner(ftc[d, 0], ftc[d, 1], ftc[d, 2], c)) & 3
        fr[e, K_TN] = 0
        fr[e, K_LEADER] = w
        return w
    for j in range(tn):
        ftc[e, j] = ftc[d, j]
    ftc[e, tn] = c
    fr[e, K_TN] = tn + 1
    fr[e, K_LEADER] = leader
    return -1


@njit_inline
def _pop(hands: IntArray, fr: IntArray, d: int) -> tuple[int, int, int]:
    """Take back the card searched at depth ``d``: (cards on the table, seat, card)."""
    tn = fr[d, K_TN]
    p = (fr[d, K_LEADER] + tn) & 3
    c = fr[d, K_CARD]
    hands[p] ^= 1 << c
    return tn, p, c


@njit
def _play(
    hands: IntArray, tc: IntArray, tn: int, leader: int, broken: bool, card: int
) -> tuple[IntArray, int, int, bool, int]:
    """Outside the loop (a root card's probe): the seat to move plays ``card`` (taken out of
    its hand; the caller puts it back). Returns the child's trick, cards on the table, leader
    and spades flag, and the trick's winning seat if ``card`` completed it (else -1)."""
    hands[(leader + tn) & 3] ^= 1 << card
    child = np.full(4, -1, dtype=np.int64)
    for j in range(tn):
        child[j] = tc[j]
    child[tn] = card
    nb = broken or (card < 13 and (tn == 0 or tc[0] >= 13))
    if tn == 3:
        # The card completes the trick: the child is the next trick's start.
        w = (leader + trick_winner(tc[0], tc[1], tc[2], card)) & 3
        return child, 0, w, nb, w
    return child, tn + 1, leader, nb, -1


# ---------------------------------------------------------------------- the root


@njit
def _root_moves(hands: IntArray, tc: IntArray, tn: int, leader: int, broken: bool) -> tuple[IntArray, int]:
    """The root's moves, one per run of equivalent cards, best first, and their number."""
    mv = np.zeros(16, dtype=np.int64)
    sc = np.zeros(16, dtype=np.int64)
    n = _gen(hands, tc, tn, leader, broken, (leader + tn) & 3, mv, sc, -1)
    return mv, n


@njit
def _greedy(hands: IntArray, tc: IntArray, tn: int, leader: int, broken: bool, won: IntArray) -> None:
    """A greedy playout from the position, its tricks added to ``won`` (the first guess)."""
    sim = hands.copy()
    stc = tc.copy()
    _run(sim, stc, tn, leader, broken, won, 1, 1, np.empty(0, dtype=np.int64))
