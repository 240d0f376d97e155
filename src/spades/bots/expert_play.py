"""The expert's inner loop: score a finished hand, play a sampled deal out, solve endgames.

Everything works on one fully known (sampled) deal of the 52-card deck (the expert sends
other decks to ``spades.search.generic``): hands are 52-bit masks, cards ints. Who may play
what and who wins a trick are ``spades.legal``'s (``play_mask``, ``trick_keys``), points are
``scoring.score_hand``'s; the rest here is policy. The rollout policy is a compact,
bid-aware greedy player (make the contract, duck bags, keep a Nil safe, cover partner's Nil,
set an opponent's Nil) that sees the whole sampled deal, so a rollout is a cheap double-dummy
estimate. ``solve`` is an exact alpha-beta search for the last
few tricks. Both end in ``Scorer.value``: the hand's Spades score for the deciding seat's side
minus the opponents', so the expert maximises points, not tricks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from spades.cards import SPADE_MASK, SUIT_MASKS
from spades.legal import STANDARD, play_mask
from spades.legal import trick_winner as legal_trick_winner
from spades.rules import Rules
from spades.scoring import SeatBid, game_winner, score_hand

NON_SPADE: Final = ((1 << 52) - 1) ^ SPADE_MASK
ABOVE: Final = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
"""Cards of the same suit ranked above ``c``."""
BEAT: Final = tuple(ABOVE[c] | (SPADE_MASK if c >= 13 else 0) for c in range(52))
"""Cards that beat ``c`` when ``c`` is winning a trick (it is then a spade or of the suit led)."""
GAME_BONUS: Final = 300.0
"""Worth of winning (or cost of losing) the game at the end of this hand, in points."""
BAG_WEIGHT: Final = 0.8
"""Share of the amortised bag penalty (``bag_penalty / bag_limit`` per bag) charged at once."""


def high_card(m: int) -> int:
    """Card of the highest rank in ``m`` (spades win rank ties), -1 if empty."""
    best, best_r = -1, -1
    for u in (1, 2, 3, 0):
        f = (m >> (13 * u)) & 0x1FFF
        if f:
            r = f.bit_length() - 1
            if r >= best_r:
                best, best_r = 13 * u + r, r
    return best


def low_card(m: int) -> int:
    """Card of the lowest rank in ``m`` (non-spades win rank ties), -1 if empty."""
    best, best_r = -1, 99
    for u in (1, 2, 3, 0):
        f = (m >> (13 * u)) & 0x1FFF
        if f:
            r = (f & -f).bit_length() - 1
            if r < best_r:
                best, best_r = 13 * u + r, r
    return best


def low_bit(m: int) -> int:
    return (m & -m).bit_length() - 1


_NO_PENALTY: dict[Rules, Rules] = {}


def _without_penalties(rules: Rules) -> Rules:
    """``rules`` with bag penalties off (cached: a bid decision builds thousands of scorers)."""
    out = _NO_PENALTY.get(rules)
    if out is None:
        out = _NO_PENALTY[rules] = rules if rules.bags == "off" else rules.replace(bags="off")
    return out


class Scorer:
    """The worth of a hand's outcome (tricks per seat) to ``seat``'s side, in points.

    Points are ``scoring.score_hand``'s (Nil, Blind Nil, ``big_bid``, ``nil_tricks``, bags and
    sets are scored there and nowhere else). Bags cost a share of their amortised penalty at
    once (a bag now is a tenth of a penalty later), and a hand that ends the game adds
    ``GAME_BONUS`` for a win or takes it for a loss.
    Values are memoised: a decision scores the same few trick splits thousands of times.
    """

    def __init__(
        self,
        rules: Rules,
        seat: int,
        bids: Sequence[int],
        blind: Sequence[bool],
        totals: Sequence[int],
        bags: Sequence[int],
        bag_weight: float = BAG_WEIGHT,
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.n = rules.players
        self.bids = list(bids)
        self.blind = list(blind)
        self.totals = list(totals)
        self.bags = list(bags)
        self.sides = rules.sides
        self.side_of = [rules.side_of(s) for s in range(self.n)]
        self.my_side = self.side_of[seat]
        self.bag_cost = 0.0 if rules.bags == "off" else bag_weight * rules.bag_penalty / rules.bag_limit
        self.seat_bids = tuple(
            SeatBid(max(b, 0), bool(f)) for b, f in zip(self.bids, self.blind, strict=True)
        )
        self._no_penalty = rules if rules.bags == "off" else rules.replace(bags="off")
        self._zeros = (0,) * self.sides
        self._memo: dict[tuple[int, ...], float] = {}

    def side_points(self, won: Sequence[int]) -> tuple[list[int], list[float]]:
        """Real points per side, and the adjusted worth used for decisions.

        Both come from ``scoring.score_hand``, the one scorer: the real points with the bags
        carried in, and the worth from the same hand scored with no bags before and bag
        penalties off (the points before any penalty, and the bags this hand adds), less
        ``bag_cost`` per new bag."""
        real = score_hand(self.rules, 0, self.seat_bids, won, self.totals, self.bags)
        raw = score_hand(self._no_penalty, 0, self.seat_bids, won, self._zeros, self._zeros)
        adj = [raw.points[side] - self.bag_cost * raw.bags[side] for side in range(self.sides)]
        return list(real.points), adj

    def value(self, won: Sequence[int]) -> float:
        key = tuple(won)
        v = self._memo.get(key)
        if v is not None:
            return v
        real, adj = self.side_points(key)
        me = self.my_side
        v = adj[me] - adj[1 - me] if self.sides == 2 else adj[me] - (sum(adj) - adj[me]) / (self.sides - 1)
        totals = [t + p for t, p in zip(self.totals, real, strict=True)]
        winner = game_winner(self.rules, totals)
        if winner is not None:
            v += GAME_BONUS if winner == me else -GAME_BONUS
        self._memo[key] = v
        return v


class Table:
    """Per-decision facts the rollout policy reads for every seat: sides, bids, contracts."""

    def __init__(self, rules: Rules, bids: Sequence[int], greedy: bool = False, press: int = -1) -> None:
        n = rules.players
        self.greedy = greedy
        """Number bidders always play for tricks (to measure what each hand can take)."""
        self.press = press
        """A side whose contract the other sides contest until it is made, even with their own
        made (-1: none). The expert's card play puts its own side here: strong opponents take
        overtricks to set a contract, and a plan that counts on their ducking is a gamble."""
        self.n = n
        self.side = [rules.side_of(s) for s in range(n)]
        self.partner: list[int] = [(s + 2) % 4 if rules.teams else -1 for s in range(n)]
        self.bids = list(bids)
        self.nil = [b == 0 for b in bids]
        self.sides = rules.sides
        self.contract = [0] * self.sides
        for s in range(n):
            if bids[s] > 0:
                self.contract[self.side[s]] += bids[s]
        self.opps = [[t for t in range(n) if self.side[t] != self.side[s]] for s in range(n)]
        self.opp_nils = [[t for t in self.opps[s] if self.nil[t]] for s in range(n)]


def side_taken(table: Table, won: Sequence[int]) -> list[int]:
    out = [0] * table.sides
    for s in range(table.n):
        if not table.nil[s]:
            out[table.side[s]] += won[s]
    return out


def _can_beat_later(hands: list[int], later: Sequence[int], lead: int, best: int) -> bool:
    """Does any seat in ``later`` hold a legal card that beats ``best``?"""
    lead_mask = SUIT_MASKS[lead]
    beat = BEAT[best]
    for t in later:
        h = hands[t]
        f = h & lead_mask
        if (f or h) & beat:
            return True
    return False


def choose(
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
    """The rollout policy's card for ``seat`` (which sees the whole sampled deal)."""
    n = table.n
    h = hands[seat]
    if not trick:
        legal = play_mask(STANDARD, h, -1, broken)
        mode = play_mode(table, seat, won, taken, tricks_left)
        if mode == 3:
            return _lead_into_nil(table, seat, hands, legal, won)
        if mode == 1 or mode == 5:  # my nil, or duck bags
            return low_card(legal)
        if mode == 2:  # cover partner's nil: lead high
            return high_card(legal)
        return _lead_for_tricks(table, seat, hands, legal)
    lead = trick[0] // 13
    follow = h & SUIT_MASKS[lead]
    legal = play_mask(STANDARD, h, lead, broken)
    if not legal & (legal - 1):
        return low_bit(legal)
    # The card now winning and who played it.
    keys = STANDARD.trick_keys[lead]
    best_i = 0
    for i in range(1, len(trick)):
        if keys[trick[i]] > keys[trick[best_i]]:
            best_i = i
    best = trick[best_i]
    winner = (leader + best_i) % n
    later = [(seat + j) % n for j in range(1, n - len(trick))]
    beat = BEAT[best]
    mode = play_mode(table, seat, won, taken, tricks_left)
    if mode == 1:  # my nil: the highest card that loses; if none, hope someone overtakes
        safe = legal & ~beat
        if safe:
            return high_card(safe) if not follow else safe.bit_length() - 1
        return high_card(legal) if not later else low_card(legal)
    if mode == 2:
        p = table.partner[seat]
        if p in later:  # partner still to play: win it for him if I can
            winners = legal & beat
            if winners:
                return winners.bit_length() - 1 if follow else low_bit(winners)
            return low_card(legal & NON_SPADE or legal)
        if winner == p:  # partner is winning: overtake
            winners = legal & beat
            if winners:
                return low_bit(winners)
            return low_card(legal)
    if mode == 3:
        opp_nils = [t for t in table.opp_nils[seat] if won[t] == 0]
        if winner in opp_nils:  # the Nil bidder is winning: stay under him
            safe = legal & ~beat
            if safe:
                return high_card(safe & NON_SPADE or safe)
            return low_card(legal)
        if any(t in later for t in opp_nils):  # he is still to play: go low
            if follow:
                return low_bit(legal)
            # Void: shed a high side card and keep the low ones to lead at him later.
            return high_card(legal & NON_SPADE) if legal & NON_SPADE else low_bit(legal)
    want = mode != 5
    partner = table.partner[seat]
    opps_later = [t for t in later if table.side[t] != table.side[seat]]
    if want:
        if winner == partner and not _can_beat_later(hands, opps_later, lead, best):
            return low_card(legal & NON_SPADE or legal) if not follow else low_bit(legal)
        winners = legal & beat
        while winners:
            w = low_bit(winners) if follow else _lowest_spade_first(winners)
            if not _can_beat_later(hands, opps_later, lead, w):
                return w
            winners &= ~(1 << w)
        return low_card(legal & NON_SPADE or legal) if not follow else low_bit(legal)
    # Duck: the highest card that loses; if every card wins, win high when nobody can follow.
    safe = legal & ~beat
    if safe:
        return high_card(safe & NON_SPADE or safe) if not follow else safe.bit_length() - 1
    return high_card(legal) if not later else low_card(legal)


def _lowest_spade_first(m: int) -> int:
    """Cheapest winner when trumping in: lowest spade, else the lowest card."""
    sp = m & SPADE_MASK
    return low_bit(sp) if sp else low_bit(m)


def play_mode(table: Table, seat: int, won: list[int], taken: list[int], tricks_left: int) -> int:
    """1 keep my Nil, 2 cover partner's Nil, 3 set an opponent's Nil, 4 take tricks, 5 duck."""
    if table.nil[seat]:
        return 1 if won[seat] == 0 else 5
    p = table.partner[seat]
    if p >= 0 and table.nil[p] and won[p] == 0:
        return 2
    for t in table.opp_nils[seat]:
        if won[t] == 0:
            return 3
    side = table.side[seat]
    need = table.contract[side] - taken[side]
    if need > 0 or table.greedy:
        return 4
    press = table.press
    if press >= 0 and press != side and 0 < table.contract[press] - taken[press] <= tricks_left:
        return 4
    if table.sides == 2:
        opp_need = table.contract[1 - side] - taken[1 - side]
        if opp_need > 0 and opp_need + 1 >= tricks_left:
            return 4
    return 5


def _lead_into_nil(table: Table, seat: int, hands: list[int], legal: int, won: list[int]) -> int:
    """Lead low in the suit where the Nil bidder's lowest card stands highest above mine, so
    he may be forced to win; avoid suits he is void in (he would just discard)."""
    best, best_gap = -1, -99
    for t in table.opp_nils[seat]:
        if won[t]:
            continue
        h = hands[t]
        for u in range(4):
            mine = legal & SUIT_MASKS[u]
            his = h & SUIT_MASKS[u]
            if not mine or not his:
                continue
            c = low_bit(mine)
            gap = low_bit(his) - c
            if gap > best_gap:
                best, best_gap = c, gap
    return best if best >= 0 else low_card(legal)


def _lead_for_tricks(table: Table, seat: int, hands: list[int], legal: int) -> int:
    """Lead a sure winner (a card no one can beat and opponents cannot ruff), else low from
    the shortest side suit (to ruff it later) or the lowest card."""
    others = 0
    opp_spades = 0
    for t in range(table.n):
        if t != seat:
            others |= hands[t]
            if table.side[t] != table.side[seat]:
                opp_spades |= hands[t] & SPADE_MASK
    for u in (1, 2, 3, 0):
        f = legal & SUIT_MASKS[u]
        if not f:
            continue
        top = f.bit_length() - 1
        if others & ABOVE[top]:
            continue
        if u != 0 and opp_spades:
            # Opponents void in the suit could ruff it.
            ruff = False
            for t in table.opps[seat]:
                if not hands[t] & SUIT_MASKS[u] and hands[t] & SPADE_MASK:
                    ruff = True
                    break
            if ruff:
                continue
        if u == 0 or others & SUIT_MASKS[u] or not opp_spades:
            return top
    side_legal = legal & NON_SPADE
    if side_legal and hands[seat] & SPADE_MASK:
        best_u, best_len = -1, 99
        for u in (1, 2, 3):
            f = side_legal & SUIT_MASKS[u]
            if f:
                k = f.bit_count()
                if k < best_len:
                    best_u, best_len = u, k
        return low_bit(side_legal & SUIT_MASKS[best_u])
    return low_card(legal)


def trick_winner(trick: Sequence[int], leader: int, n: int) -> int:
    """The winner of a finished trick of the 52-card deck: ``legal.trick_winner``."""
    return legal_trick_winner(STANDARD, trick, leader)


def rollout(
    table: Table,
    hands: list[int],
    trick: list[int],
    leader: int,
    broken: bool,
    won: list[int],
) -> list[int]:
    """Play the sampled deal to the end with the policy; returns tricks per seat.

    ``hands``, ``trick`` and ``won`` are consumed (the caller passes copies)."""
    n = table.n
    taken = side_taken(table, won)
    tricks_left = sum(h.bit_count() for h in hands) // n + (1 if trick else 0)
    seat = (leader + len(trick)) % n
    while True:
        if hands[seat] == 0 and not trick:
            return won
        c = choose(table, seat, hands, trick, leader, broken, won, taken, tricks_left)
        hands[seat] ^= 1 << c
        if c < 13:
            broken = True
        trick.append(c)
        if len(trick) == n:
            w = trick_winner(trick, leader, n)
            won[w] += 1
            if not table.nil[w]:
                taken[table.side[w]] += 1
            trick = []
            leader = seat = w
            tricks_left -= 1
        else:
            seat = (seat + 1) % n


def distinct_moves(legal: int, remaining: int) -> list[int]:
    """One card per group of equals: cards of one suit in ``legal`` with no card of
    ``remaining`` (every card not yet in a finished trick: the hands and the current trick)
    ranked between them."""
    out: list[int] = []
    prev = -1
    m = legal
    while m:
        c = low_bit(m)
        m &= m - 1
        if prev >= 0 and prev // 13 == c // 13:
            between = ((1 << c) - 1) & ~((2 << prev) - 1)
            if not remaining & between:
                prev = c
                out[-1] = c  # keep the highest of the group (same value)
                continue
        out.append(c)
        prev = c
    return out


def hand_strength(hand: int) -> float:
    """Tricks a 13-card hand should take: honours, spade length and ruffs (a bid model)."""
    sp = hand & SPADE_MASK
    ns = sp.bit_count()
    t = 0.0
    if sp >> 12 & 1:
        t += 1.0
    if sp >> 11 & 1:
        t += 0.9 if ns >= 2 else 0.3
    if sp >> 10 & 1:
        t += 0.75 if ns >= 3 else 0.2
    if sp >> 9 & 1 and ns >= 4:
        t += 0.4
    t += max(0, ns - 3) * 0.85
    spare = max(0, ns - 2)
    for u in (1, 2, 3):
        f = (hand >> (13 * u)) & 0x1FFF
        k = f.bit_count()
        if f >> 12 & 1:
            t += 0.95 if k <= 5 else 0.7
        if f >> 11 & 1:
            t += (0.75 if k <= 5 else 0.4) if k >= 2 else 0.25
        if f >> 10 & 1 and k >= 3:
            t += 0.35 if f & (0b11 << 11) else 0.2
        if spare and k <= 1:
            ruff = 0.8 if k == 0 else 0.45
            t += ruff
            spare -= 1
    return t


def nil_risk(hand: int) -> float:
    """Likelihood factor (0..1) that a Nil bidder holds ``hand``: high cards make it unlikely."""
    w = 1.0
    sp = hand & SPADE_MASK
    for r, f in ((12, 0.08), (11, 0.2), (10, 0.45), (9, 0.7)):
        if sp >> r & 1:
            w *= f
    w *= 0.6 ** max(0, sp.bit_count() - 3)
    for u in (1, 2, 3):
        f = (hand >> (13 * u)) & 0x1FFF
        if f >> 12 & 1:
            w *= 0.3
        if f >> 11 & 1:
            w *= 0.55 if f.bit_count() > 2 else 0.4
    return w


__all__ = [
    "Scorer",
    "Table",
    "choose",
    "distinct_moves",
    "hand_strength",
    "nil_risk",
    "play_mode",
    "rollout",
    "side_taken",
]
