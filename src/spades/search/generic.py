"""Search for any deck: playouts and an exact endgame over ``spades.legal``'s tables.

The numba kernels (``_dd_kernel``, ``_score_kernel``) and the expert's fast rollout policy
(``spades.bots.expert_play``) are written for the 52-card deck at four or two seats. This
module is the same machinery for every deck ``spades.legal.deck_of`` builds (54 cards with
jokers, where a joker and the ``jjdd`` 2D are spades; 51 cards and 17 tricks for three
players), in plain Python: who may play what is ``legal.play_mask``'s rule, who wins a trick
is ``deck.trick_keys``, and outcomes are scored by the expert's ``Scorer``, which is
``scoring.score_hand``. It is slower than the standard paths (a playout of a 17-trick hand
costs about a millisecond), so the expert uses it only where those do not apply.

Hands are masks of the deck's cards; a position is (hands, trick, leader, broken, won) as in
``expert_play``. ``broken`` is whether a spade may be led (``legal.may_lead_spades``: with
``spades_lead: any`` it is true from the first trick).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spades.bots.expert_play import Scorer, Table, play_mode, side_taken
from spades.bots.knowledge import CardTables, tables_of
from spades.cards import bits
from spades.legal import Deck, play_mask


@dataclass(frozen=True, slots=True)
class Board:
    """A deck's tables as the search reads them.

    ``beat[lead][c]``: the deck's cards that beat ``c`` when it is winning a trick led in
    ``lead`` (stronger cards of its suit, and every trump if it is not one)."""

    deck: Deck
    t: CardTables
    beat: tuple[tuple[int, ...], ...]

    @staticmethod
    def of(deck: Deck) -> Board:
        hit = _BOARDS.get(id(deck))
        if hit is not None and hit.deck is deck:
            return hit
        beat = tuple(
            tuple(
                sum(1 << d for d in deck.cards if keys[d] > keys[c]) if deck.suit_of[c] >= 0 else 0
                for c in range(len(deck.suit_of))
            )
            for keys in deck.trick_keys
        )
        board = _BOARDS[id(deck)] = Board(deck, tables_of(deck), beat)
        return board

    # ------------------------------------------------------------------ cards
    def low_card(self, m: int) -> int:
        """The lowest card of ``m`` on the A..2 scale of its suit (side suits win ties)."""
        level, spade = self.t.level, self.t.spade
        return min(bits(m), key=lambda c: (level[c], spade[c]))

    def high_card(self, m: int) -> int:
        """The highest card of ``m`` on the A..2 scale of its suit (spades win ties)."""
        level, spade = self.t.level, self.t.spade
        return max(bits(m), key=lambda c: (level[c], spade[c]))

    def weakest(self, m: int) -> int:
        """The weakest card of ``m`` within its suit (for cards of one suit)."""
        return min(bits(m), key=self.t.power.__getitem__)

    def strongest(self, m: int) -> int:
        return max(bits(m), key=self.t.power.__getitem__)

    def winner(self, trick: Sequence[int], leader: int) -> int:
        """The seat that wins the finished ``trick`` (``legal.trick_winner``'s rule)."""
        keys = self.deck.trick_keys[self.deck.suit_of[trick[0]]]
        best = 0
        for i in range(1, len(trick)):
            if keys[trick[i]] > keys[trick[best]]:
                best = i
        return (leader + best) % len(trick)

    def distinct_moves(self, legal: int, remaining: int) -> list[int]:
        """One card per group of equals: cards of ``legal`` of one suit with no card of
        ``remaining`` (the cards not yet in a finished trick) between them."""
        above, below = self.t.above, self.t.below
        out: list[int] = []
        for c in sorted(bits(legal), key=lambda x: (self.deck.suit_of[x], self.t.power[x])):
            if out:
                prev = out[-1]
                if below[c] >> prev & 1 and not above[prev] & below[c] & remaining:
                    out[-1] = c  # equal in value: keep the higher
                    continue
            out.append(c)
        return out

    def standard_map(self, remaining: int) -> list[int] | None:
        """A renaming of the ``remaining`` cards into the 52-card deck that keeps every rule:
        each card keeps its suit in play and its order within it (only the order of the
        cards still out matters to the rest of a hand). With it a four-seat endgame of any
        deck can go to the compiled solvers. ``None`` when a suit has more than 13 cards out
        (the 15 spades of a jokers deck, early in a hand).

        Returns the standard card per card of this deck (-1 for cards not out)."""
        to_std = [-1] * len(self.deck.suit_of)
        for u in range(4):
            out = sorted(bits(remaining & self.deck.suit_masks[u]), key=self.t.power.__getitem__)
            if len(out) > 13:
                return None
            for i, c in enumerate(out):
                to_std[c] = 13 * u + 13 - len(out) + i
        return to_std


def remap(mask: int, to: Sequence[int]) -> int:
    """``mask`` with every card renamed by ``to``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << to[low.bit_length() - 1]
        mask ^= low
    return out


_BOARDS: dict[int, Board] = {}


# ---------------------------------------------------------------------- the playout policy
def choose(
    b: Board,
    table: Table,
    seat: int,
    hands: list[int],
    trick: list[int],
    leader: int,
    broken: bool,
    won: list[int],
    taken: list[int],
    tricks_left: int,
) -> int:
    """A bid-aware greedy card for ``seat``, which sees the whole sampled deal: the same modes
    as ``expert_play.choose`` (keep my Nil, cover partner's, set theirs, take tricks, duck)
    written over the deck's tables."""
    deck = b.deck
    h = hands[seat]
    n = table.n
    if not trick:
        legal = play_mask(deck, h, -1, broken)
        mode = play_mode(table, seat, won, taken, tricks_left)
        if mode == 3:
            return _lead_into_nil(b, table, seat, hands, legal, won)
        if mode in (1, 5):  # my nil, or duck bags: lead low
            return b.low_card(legal)
        if mode == 2:  # cover partner's nil: lead high
            return b.high_card(legal)
        return _lead_for_tricks(b, table, seat, hands, legal)
    lead = deck.suit_of[trick[0]]
    legal = play_mask(deck, h, lead, broken)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    follow = bool(h & deck.suit_masks[lead])
    keys = deck.trick_keys[lead]
    best_i = 0
    for i in range(1, len(trick)):
        if keys[trick[i]] > keys[trick[best_i]]:
            best_i = i
    best = trick[best_i]
    winner = (leader + best_i) % n
    later = [(seat + j) % n for j in range(1, n - len(trick))]
    beat = b.beat[lead]
    winners = legal & beat[best]
    safe = legal & ~winners
    mode = play_mode(table, seat, won, taken, tricks_left)
    non_spade = deck.non_spades
    if mode == 1 or mode == 5 or (mode == 3 and winner in table.opp_nils[seat]):
        # Duck: the highest card that loses; if every card wins, high when no one follows.
        if safe:
            return b.strongest(safe) if follow else b.high_card(safe & non_spade or safe)
        return b.low_card(legal) if later else b.high_card(legal)
    if mode == 3 and any(t in later and not won[t] for t in table.opp_nils[seat]):
        # The Nil bidder is still to play: keep the bar low so he may have to win it; when
        # void, shed a high side card and keep the low ones to lead at him later.
        if follow:
            return b.weakest(legal)
        side = legal & non_spade
        return b.high_card(side) if side else b.low_card(legal)
    partner = table.partner[seat]
    if mode == 2 and winner == partner and winners:
        return b.weakest(winners) if follow else b.low_card(winners)
    opps_later = [t for t in later if table.side[t] != table.side[seat]]
    if winner == partner and not _can_beat(b, hands, opps_later, lead, best):
        return b.weakest(legal) if follow else b.low_card(legal & non_spade or legal)
    for w in sorted(bits(winners), key=lambda c: (deck.suit_of[c] == 0, b.t.power[c])):
        if not _can_beat(b, hands, opps_later, lead, w):
            return w
    if mode == 2 and partner in later and winners:
        return b.strongest(winners)
    return b.weakest(legal) if follow else b.low_card(legal & non_spade or legal)


def _can_beat(b: Board, hands: list[int], later: Sequence[int], lead: int, best: int) -> bool:
    """Does a seat in ``later`` hold a legal card that beats ``best``?"""
    lead_mask = b.deck.suit_masks[lead]
    beat = b.beat[lead][best]
    for t in later:
        h = hands[t]
        if (h & lead_mask or h) & beat:
            return True
    return False


def _lead_into_nil(b: Board, table: Table, seat: int, hands: list[int], legal: int, won: list[int]) -> int:
    """Lead low in the suit where the Nil bidder's lowest card stands highest above mine, so he
    may be forced to win; avoid suits he is void in (he would just discard)."""
    masks, power = b.deck.suit_masks, b.t.power
    best, best_gap = -1, -99
    for t in table.opp_nils[seat]:
        if won[t]:
            continue
        for u in range(4):
            mine = legal & masks[u]
            his = hands[t] & masks[u]
            if mine and his:
                c = b.weakest(mine)
                gap = power[b.weakest(his)] - power[c]
                if gap > best_gap:
                    best, best_gap = c, gap
    return best if best >= 0 else b.low_card(legal)


def _lead_for_tricks(b: Board, table: Table, seat: int, hands: list[int], legal: int) -> int:
    """Lead a sure winner (nothing of its suit above it outside my hand, and no opponent able
    to trump it), else low from my shortest side suit (to ruff it later), else low."""
    deck = b.deck
    others = 0
    opp_spades = 0
    for t in range(table.n):
        if t != seat:
            others |= hands[t]
            if table.side[t] != table.side[seat]:
                opp_spades |= hands[t] & deck.suit_masks[0]
    for u in (1, 2, 3, 0):
        f = legal & deck.suit_masks[u]
        if not f:
            continue
        top = b.strongest(f)
        if others & b.t.above[top]:
            continue
        if (
            u != 0
            and opp_spades
            and any(
                not hands[t] & deck.suit_masks[u] and hands[t] & deck.suit_masks[0] for t in table.opps[seat]
            )
        ):
            continue
        return top
    side = legal & deck.non_spades
    if side and hands[seat] & deck.suit_masks[0]:
        u = min(
            (u for u in (1, 2, 3) if side & deck.suit_masks[u]),
            key=lambda u: (side & deck.suit_masks[u]).bit_count(),
        )
        return b.weakest(side & deck.suit_masks[u])
    return b.low_card(legal)


def rollout(
    b: Board,
    table: Table,
    hands: list[int],
    trick: list[int],
    leader: int,
    broken: bool,
    won: list[int],
) -> list[int]:
    """Play the sampled deal to the end with ``choose``; returns tricks per seat.

    ``hands``, ``trick`` and ``won`` are consumed (the caller passes copies)."""
    n = table.n
    spades = b.deck.suit_masks[0]
    taken = side_taken(table, won)
    tricks_left = sum(h.bit_count() for h in hands) // n + (1 if trick else 0)
    seat = (leader + len(trick)) % n
    while True:
        if hands[seat] == 0 and not trick:
            return won
        c = choose(b, table, seat, hands, trick, leader, broken, won, taken, tricks_left)
        hands[seat] ^= 1 << c
        if spades >> c & 1:
            broken = True
        trick.append(c)
        if len(trick) == n:
            w = b.winner(trick, leader)
            won[w] += 1
            if not table.nil[w]:
                taken[table.side[w]] += 1
            trick = []
            leader = seat = w
            tricks_left -= 1
        else:
            seat = (seat + 1) % n


class Solver:
    """Exact minimax over a fully known end position, with alpha-beta, for any deck (the
    expert's plain-Python endgame on every deck, the 52 cards included).

    Partnerships: the deciding seat's side maximises ``Scorer.value`` and the other side
    minimises it; solo games are searched "paranoid" (everyone else against the seat)."""

    def __init__(self, b: Board, table: Table, scorer: Scorer, me: int) -> None:
        self.b = b
        self.table = table
        self.scorer = scorer
        self.maxer = [
            (table.side[s] == table.side[me]) if table.sides == 2 else s == me for s in range(table.n)
        ]
        self.nodes = 0

    def value(self, hands: list[int], trick: list[int], leader: int, broken: bool, won: list[int]) -> float:
        return self._search(hands, tuple(trick), leader, broken, won, -1e18, 1e18)

    def _search(
        self,
        hands: list[int],
        trick: tuple[int, ...],
        leader: int,
        broken: bool,
        won: list[int],
        alpha: float,
        beta: float,
    ) -> float:
        b = self.b
        n = self.table.n
        self.nodes += 1
        if len(trick) == n:
            w = b.winner(trick, leader)
            won[w] += 1
            try:
                return self._search(hands, (), w, broken, won, alpha, beta)
            finally:
                won[w] -= 1
        seat = (leader + len(trick)) % n
        h = hands[seat]
        if not h:
            return self.scorer.value(won)
        lead = b.deck.suit_of[trick[0]] if trick else -1
        legal = play_mask(b.deck, h, lead, broken)
        remaining = 0
        for x in hands:
            remaining |= x
        for c in trick:
            remaining |= 1 << c
        moves = b.distinct_moves(legal, remaining)
        spades = b.deck.suit_masks[0]
        maxing = self.maxer[seat]
        best = -1e18 if maxing else 1e18
        for c in reversed(moves):
            hands[seat] = h ^ (1 << c)
            v = self._search(hands, (*trick, c), leader, broken or bool(spades >> c & 1), won, alpha, beta)
            hands[seat] = h
            if maxing:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best


__all__ = ["Board", "Solver", "choose", "remap", "rollout"]
