"""The expert: search over the hidden cards (determinised Monte Carlo with Spades scoring).

For each decision it samples deals consistent with everything its seat knows (see
``spades.bots.sampling``), keeps them in proportion to how well they fit the bids made (a bid
of 4 from a hand worth 1 is unlikely; a Nil from a hand with the ace of spades more so), and
scores each candidate on every deal by playing the hand out (``spades.bots.expert_play``: a
bid-aware rollout, or an exact search for the last tricks). The score is the hand's points
for its side minus the opponents' (contract made or set, Nil, bags, the game's end), so it
plays for points rather than tricks. Bids are chosen the same way: the distribution of
tricks over sampled deals gives the expected score of every legal bid, Nil included.

It reads only observations, and with a seed it is deterministic: every decision draws from
a random source seeded by the seed and the position, whatever happened before.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from spades.actions import Action, Bid, Draw, Look, PassCard, Play
from spades.bots import inference
from spades.bots.base import Bot, Decision
from spades.bots.exchange import (
    ExchangeChoice,
    complete_by_rule,
    danger_first,
    low_first,
    rule_pass,
    search_exchange,
)
from spades.bots.expert_exact import ExactEndgame, warm
from spades.bots.expert_play import (
    BAG_WEIGHT,
    Scorer,
    Table,
    distinct_moves,
    hand_strength,
    nil_risk,
    rollout,
    trick_winner,
)
from spades.bots.heuristic import evaluate, nil_danger, nil_survival
from spades.bots.knowledge import is_blind, is_nil, tables_of
from spades.bots.nil_duty import nil_duty
from spades.bots.partnership import partner_duty
from spades.bots.sampling import Knowledge, resample, sample_deal
from spades.bots.settings import Setting
from spades.cards import card_text
from spades.errors import N_, SpadesError, Text
from spades.legal import STANDARD, Deck, deck_of, may_lead_spades
from spades.observation import BidView, Observation, bid_value
from spades.search import generic

BID_SIGMA = 1.1
"""Spread (tricks) of the bid model: how far a hand's worth may stray from its bid."""
BID_OFFSET = 0.4
"""Players bid about this much over ``hand_strength`` (measured: the heuristic bids +0.40,
sd 0.43, and takes +0.6 tricks, over 1,067 bids)."""


BID_SHADE = 0.0
"""Share of sampled deals a bid is valued on with one trick fewer for the bidder (the
rollouts see every card, so they are optimistic)."""
BID_SHADE_TWO = 0.6
"""The same share in two-player games. There half the deck stays out of play and unseen, and
a two-card trick turns on the lead, so a rollout that sees the opponent's sampled hand
overstates the bidder's tricks far more than at four: with no shade the expert was set in 21-23%
of its bids and fell 11 points a hand behind the heuristic in single hands; 0.6, paired deal by
deal over 300 fresh deals (600 hands) a seed, gave +6.9 (95% CI +2.1 .. +11.7) and +4.2
(+0.3 .. +7.9), and won 55% of 100 whole games against the expert without it."""


BID_TRUST = 0.6
"""Share of a deal's weight that follows an opponent's bid (the rest: the plain deal). The
bid model is the heuristic's way of bidding; a search that underbids and takes every trick
(ISMCTS) or a hunter of Nils breaks it. Against 1 (full trust), paired on the same 300
duplicate deals against the heuristic (seeds 204, 205, Blind Nil off): +8.1 points a hand
(95% CI +2.0 .. +14.7), mostly from breaking more of its Nils (73 of 141 against 57); against
OpenSpiel's ISMCTS (seed 402, 150 deals) +2.5 (-2.4 .. +7.6), set 14.7% against 22.3%.
0.3 against 0.6 on the same deals: -0.7 (-6.8 .. +5.5), no different."""


DRAW_RATIO = (0.6 / 0.365) / (0.4 / 0.635)
"""Two-player draw: a player who keeps a "good" card (spade 8 or better, any jack or better)
when shown one and else takes the next ends with 60% good cards against 36.5% for a random
13; this is the likelihood ratio of one more good card in his hand."""
GOOD_MASK = sum(1 << c for c in range(52) if (c < 13 and c % 13 >= 6) or c % 13 >= 9)


PassKey = tuple[int, int, int, tuple[int, ...], tuple[object, ...]]


def _good_cards(hand: int) -> int:
    return (hand & GOOD_MASK).bit_count()


def bid_guess(hand: int, players: int) -> float:
    """The number bid a hand is expected to make. ``hand_strength`` is a four-seat measure;
    with two players each trick has two cards and a hand takes about twice as many (measured
    on 600 heuristic bids: bid = 0.87 strength + 2.1, sd 0.44)."""
    h = hand_strength(hand)
    return h + BID_OFFSET if players == 4 else 0.87 * h + 2.1


def _bid_parts(view: BidView) -> tuple[int, bool]:
    """(tricks, blind) of a bid view; -1 tricks for a bid not made yet."""
    if view is None:
        return -1, False
    return view.tricks, view.blind


def _cards(mask: int) -> list[int]:
    return [c for c in range(54) if mask >> c & 1]


PLAIN_DD_TRICKS = 4
"""Cap on ``dd_tricks`` where the plain-Python endgame search decides (two-player and solo
games): from 5 cards its tree is too big for a decision."""
GENERIC_DD_TRICKS = 3
"""The same cap for the generic search (jokers, three players): its moves are slower."""
GENERIC_BID_SAMPLES = 48
"""Cap on ``bid_samples`` for the generic search."""
GENERIC_TIME_MS = 900
"""Cap per decision of the generic search (it is plain Python over the deck's tables)."""


def generic_guess(deck: Deck, players: int) -> Callable[[int], float]:
    """The number bid a hand of ``deck`` is expected to make: the heuristic's count, which
    reads the deck (the expert's ``hand_strength`` is a 52-card measure)."""

    def guess(hand: int) -> float:
        return evaluate(hand, players, deck)[0] + 0.2

    return guess


def generic_nil_like(deck: Deck) -> Callable[[int], float]:
    """Likelihood factor that a Nil bidder holds ``hand``, from the heuristic's Nil danger."""

    def like(hand: int) -> float:
        return nil_survival(nil_danger(hand, deck) - 1.5)

    return like


class ExpertBot(Bot):
    """Search-based player. ``samples`` deals per card played, ``bid_samples`` per bid, ``time_ms`` a
    cap per decision (0: none; reaching it ends sampling early, which is the only thing that
    can make a seeded bot vary), ``dd_tricks`` the tricks left at which rollouts give way to
    exact search (in four-player partnership games the numba score-mode solver,
    ``expert_exact``: 7 against 4 won +27.7 points a hand, 95% [+6.3, +48.6], over 400
    duplicate hands; elsewhere a plain-Python search, from ``PLAIN_DD_TRICKS`` at most),
    ``overdraw`` deals drawn per deal kept (for bid weighting), ``nil_margin`` points a Nil
    must beat the best number bid by, ``nil_floor`` the share of sampled deals a Nil must come
    through clean in (Nils are bid on expected score; over 80 duplicate deals with Blind Nil
    off, floors of 0.8, 0.7, 0.6 and 0.5 gave +0.5, +1.8, +4.5 and +4.6 points a hand, all
    with about 80% of Nils made), ``blind_margin`` points a Blind Nil must beat looking by,
    ``bag_weight`` the share of a bag's amortised penalty charged when it is taken."""

    name = "expert"

    SETTINGS = (
        Setting("samples", int, 96, "deals sampled per card played", 1, 10_000),
        Setting("bid_samples", int, 128, "deals sampled per bid", 1, 10_000),
        Setting("time_ms", int, 2500, "cap per decision in ms, 0 for none", 0, 600_000),
        Setting("dd_tricks", int, 7, "tricks left at which exact search takes over", 0, 17),
        Setting("overdraw", int, 3, "deals drawn per deal kept, for bid weighting", 1, 100),
        Setting("nil_margin", float, 0.0, "points a Nil must beat the best number bid by", -1000.0, 1000.0),
        Setting("nil_floor", float, 0.6, "share of sampled deals a Nil must survive", 0.0, 1.0),
        Setting(
            "blind_margin", float, 40.0, "points a Blind Nil must beat looking by (1000: never)", -1e3, 1e3
        ),
        Setting("bag_weight", float, BAG_WEIGHT, "share of a bag's amortised penalty charged", 0.0, 10.0),
        Setting(
            "infer", bool, True, "weight sampled deals by what the plays say (fourth hand wins, cheaply)"
        ),
        Setting(
            "read_low",
            bool,
            False,
            "read a losing card or a throw of a player who needs tricks as his lowest of the suit",
        ),
        Setting("contest", bool, True, "rollouts assume the opponents contest our contract until it is made"),
        Setting("exchange", bool, True, "search the Blind Nil exchange (false: the fixed rule)"),
        Setting("bid_shade", float, BID_SHADE, "share of deals scored a trick short when bidding", 0.0, 1.0),
        Setting("bid_shade_two", float, BID_SHADE_TWO, "the same share in two-player games", 0.0, 1.0),
        Setting(
            "duties",
            bool,
            True,
            "duties first: my Nil ducks high, cover partner's Nil, keep off his sure trick",
        ),
        Setting(
            "bid_trust", float, BID_TRUST, "share of an opponent's deal weight that follows his bid", 0.0, 1.0
        ),
        Setting("nil_trust", float, BID_TRUST, "the same for an opponent's Nil bid", 0.0, 1.0),
    )

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int = 96,
        bid_samples: int = 128,
        time_ms: int = 2500,
        dd_tricks: int = 7,
        overdraw: int = 3,
        nil_margin: float = 0.0,
        nil_floor: float = 0.6,
        blind_margin: float = 40.0,
        bag_weight: float = BAG_WEIGHT,
        infer: bool = True,
        contest: bool = True,
        bid_shade: float = BID_SHADE,
        bid_shade_two: float = BID_SHADE_TWO,
        duties: bool = True,
        bid_trust: float = BID_TRUST,
        nil_trust: float = BID_TRUST,
        exchange: bool = True,
        read_low: bool = False,
    ) -> None:
        for name, value, low in (
            ("samples", samples, 1),
            ("bid_samples", bid_samples, 1),
            ("time_ms", time_ms, 0),
            ("dd_tricks", dd_tricks, 0),
            ("overdraw", overdraw, 1),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise SpadesError(f"expert setting {name}={value!r} must be a whole number >= {low}")
        self.seed = seed
        self.samples = samples
        self.bid_samples = bid_samples
        self.time_ms = time_ms
        self.dd_tricks = dd_tricks
        self.overdraw = overdraw
        self.nil_margin = float(nil_margin)
        self.nil_floor = float(nil_floor)
        self.blind_margin = float(blind_margin)
        self.bag_weight = float(bag_weight)
        self.contest = bool(contest)
        self.infer = bool(infer)
        self.read_low = bool(read_low)
        self.bid_shade = float(bid_shade)
        self.bid_shade_two = float(bid_shade_two)
        self.duties = bool(duties)
        self.bid_trust = float(bid_trust)
        self.nil_trust = float(nil_trust)
        self.exchange = bool(exchange)
        self._exchange_memo: dict[PassKey, tuple[int, ExchangeChoice | None]] = {}
        """The pass planned at its first card, by seat, hand, cards, totals and bids (a bot
        may serve several tables, so the first card of a pass never reads it)."""
        self._free_rng = random.Random(seed)
        warm()  # the exact endgame's compiled solver loads now, not during a decision

    # ------------------------------------------------------------------ entry point
    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        if not legal:
            raise SpadesError(f"expert at seat {obs.seat}: no legal action to choose from")
        rng = self._rng_for(obs)
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self._play(obs, plays, rng)
        if any(isinstance(a, Look) for a in legal):
            return self._before_looking(obs, legal, rng)
        bids = [a for a in legal if isinstance(a, Bid) and not a.blind]
        if bids:
            return self._bid(obs, bids, rng)
        passes = [a for a in legal if isinstance(a, PassCard)]
        if passes:
            return self._pass(obs, passes, rng)
        draws = [a for a in legal if isinstance(a, Draw)]
        if draws:
            return self._draw(obs, draws)
        return Decision(legal[0], Text(N_("the only kind of action open")))

    def _rng_for(self, obs: Observation) -> random.Random:
        if self.seed is None:
            return self._free_rng
        played = sum(len(t.cards) for t in obs.tricks) + len(obs.trick)
        bids = tuple(map(bid_value, obs.bids))  # as the key has always spelled them
        key = f"{self.seed}|{obs.seat}|{obs.hand_number}|{obs.phase}|{played}|{obs.totals}|{bids}"
        return random.Random(key)

    # ------------------------------------------------------------------ sampling
    def _hand_player(self, obs: Observation) -> Callable[[Table, list[int]], list[int]]:
        """Plays a whole sampled hand out from the opening lead with the rollout policy (the
        compiled one on the 52-card deck, ``generic``'s on the others): tricks per seat. The
        bid, the Blind Nil simulation and the exchange search all start from there."""
        n = obs.players
        leader = (obs.dealer + 1) % n
        lead_any = may_lead_spades(obs.rules, False)
        deck = deck_of(obs.rules)
        board = None if deck.standard else generic.Board.of(deck)

        def play_out(table: Table, hands: list[int]) -> list[int]:
            if board is None:
                return rollout(table, hands, [], leader, lead_any, [0] * n)
            return generic.rollout(board, table, hands, [], leader, lead_any, [0] * n)

        return play_out

    def _bid_views(self, obs: Observation) -> tuple[list[int], list[bool]]:
        bids, blind = [], []
        for v in obs.bids:
            t, b = _bid_parts(v)
            bids.append(t)
            blind.append(b)
        return bids, blind

    def _weighted_deals(
        self, obs: Observation, k: Knowledge, count: int, rng: random.Random
    ) -> list[list[int]]:
        """``count`` deals, drawn ``overdraw`` times over and kept in proportion to the bids."""
        bids, blind = self._bid_views(obs)
        exchanged = self._exchanged(obs, blind)
        watch = [
            s
            for s in range(obs.players)
            if s != obs.seat and bids[s] >= 0 and (not blind[s] or s in exchanged)
        ]
        # An opponent who passed cards to his Blind Nil partner bid on a hand we cannot rebuild.
        watch = [s for s in watch if not (obs.rules.partner_of(s) in exchanged and s != self._partner(obs))]
        drew = obs.players == 2 and obs.phase != "draw"
        found = inference.clues(obs, low=self.read_low) if self.infer else []
        if (not watch and not drew and not found) or self.overdraw == 1:
            return [sample_deal(k, rng) for _ in range(count)]
        pool = [sample_deal(k, rng) for _ in range(count * self.overdraw * (2 if drew else 1))]
        back = self._returned_to_partner(obs)
        deck = deck_of(obs.rules)
        guess: Callable[[int], float]
        nil_like: Callable[[int], float]
        if deck.standard:
            players = obs.players
            guess, nil_like = (lambda hand: bid_guess(hand, players)), nil_risk
        else:
            guess, nil_like = generic_guess(deck, obs.players), generic_nil_like(deck)
        # An opponent may bid by another method than the one ``bid_guess`` models (a search
        # that underbids and takes every trick it can): his bid is trusted for ``bid_trust``
        # (a Nil for ``nil_trust``) of the weight, the rest is the plain deal. A partner bids
        # as we expect.
        partner = self._partner(obs)
        trust = {
            s: 1.0 if s == partner else self.nil_trust if bids[s] == 0 else self.bid_trust for s in watch
        }
        weights = []
        for deal in pool:
            w = inference.weight(found, deal) if found else 1.0
            if drew:
                # The opponent kept good cards as he drew: each is ~2.6 times likelier in his hand.
                w *= DRAW_RATIO ** _good_cards(deal[1 - obs.seat] | k.played_by[1 - obs.seat])
            for s in watch:
                at_bid = deal[s] | k.played_by[s]
                if back is not None and s == back[0]:
                    at_bid = (at_bid & ~back[1]) | back[2]
                if bids[s] == 0:
                    # A Blind Nil bidder who exchanged has passed back his dangerous cards.
                    fit = nil_like(at_bid)
                else:
                    d = guess(at_bid) - bids[s]
                    fit = math.exp(-d * d / (2 * BID_SIGMA * BID_SIGMA))
                w *= trust[s] * fit + (1.0 - trust[s])
            weights.append(w)
        return [pool[i] for i in resample(weights, count, rng)]

    @staticmethod
    def _partner(obs: Observation) -> int | None:
        return obs.rules.partner_of(obs.seat) if obs.rules.teams else None

    @staticmethod
    def _exchanged(obs: Observation, blind: Sequence[bool]) -> set[int]:
        """Blind Nil bidders who have been through an exchange (so their hand is no longer a
        blind draw: they kept low cards and passed back high ones)."""
        r = obs.rules
        if not r.teams or r.blind_nil_exchange == 0 or obs.phase != "play":
            return set()
        return {s for s in range(4) if blind[s] and not blind[(s + 2) % 4]}

    def _returned_to_partner(self, obs: Observation) -> tuple[int, int, int] | None:
        """When this seat bid Blind Nil and exchanged, its partner bid on a hand without the
        cards passed back to him (``given``) and with those he passed (``received``)."""
        if obs.received is None or obs.players != 4 or not is_blind(obs.bids[obs.seat]):
            return None
        given = obs.given.mask if obs.given is not None else 0  # none yet while I pass back
        return (obs.seat + 2) % 4, given, obs.received.mask

    # ------------------------------------------------------------------ play
    def _play(self, obs: Observation, plays: Sequence[Play], rng: random.Random) -> Decision:
        if len(plays) == 1:
            return Decision(
                plays[0], Text(N_("play {card}: the only legal card"), card=card_text(plays[0].card))
            )
        start = time.perf_counter()
        k = Knowledge.of(obs)
        n = obs.players
        me = obs.seat
        deck = deck_of(obs.rules)
        board = None if deck.standard else generic.Board.of(deck)
        bids, blind = self._bid_views(obs)
        bids = [max(b, 0) for b in bids]
        press = obs.rules.side_of(me) if self.contest and obs.rules.teams else -1
        table = Table(obs.rules, bids, press=press)
        scorer = Scorer(obs.rules, me, bids, blind, obs.totals, obs.bags, self.bag_weight)
        legal_mask = 0
        for p in plays:
            legal_mask |= 1 << p.card
        # Duties first (my Nil ducks high; cover partner's Nil, keep off his sure trick): the
        # search's sampled deals, played with every hand in view, misjudge exactly these.
        duty = ""
        if self.duties:
            legal_mask, duty = nil_duty(obs, legal_mask)
            if not duty:
                legal_mask, duty = partner_duty(obs, legal_mask)
        played_all = 0
        for m in k.played_by:
            played_all |= m
        on_table = 0
        for c in obs.trick:
            on_table |= 1 << c
        remaining = (deck.mask & ~played_all) | on_table
        if board is None:
            cands = distinct_moves(legal_mask, remaining)
        else:
            cands = board.distinct_moves(legal_mask, remaining)
        if len(cands) == 1:
            if duty:
                return Decision(
                    Play(cands[0]), Text(N_("play {card}: {why}"), card=card_text(cands[0]), why=Text(duty))
                )
            return Decision(
                Play(cands[0]), Text(N_("play {card}: every legal card is equal"), card=card_text(cands[0]))
            )
        deals = self._weighted_deals(obs, k, self.samples, rng)
        trick = list(obs.trick)
        leader = obs.trick_leader
        # ``broken`` below means "a spade may be led", which ``spades_lead: any`` makes true
        # from the start: every search here (and the compiled solver) then allows it.
        broken = may_lead_spades(obs.rules, obs.spades_broken)
        spades = deck.suit_masks[0]
        won0 = list(obs.tricks_won)
        cards_left = obs.hand.mask.bit_count() if obs.hand is not None else 0
        # Four-seat partnerships go to the compiled solver at the end, on any deck: a jokers
        # deck's cards still out are renamed into the 52-card deck, order within suits kept.
        names = None if board is None else board.standard_map(remaining)
        fast = n == 4 and obs.rules.teams and (board is None or names is not None)
        cap = (
            self.dd_tricks
            if fast
            else min(self.dd_tricks, PLAIN_DD_TRICKS if board is None else GENERIC_DD_TRICKS)
        )
        exact = cards_left <= cap
        endgame = ExactEndgame(scorer) if exact and fast else None
        solver: generic.Solver | None = None
        if exact and not fast:
            solver = generic.Solver(board or generic.Board.of(STANDARD), table, scorer, me)
        # The generic search is capped lower (plain Python); time_ms=0 still means no cap.
        time_ms = self.time_ms if board is None or not self.time_ms else min(self.time_ms, GENERIC_TIME_MS)
        my_side = table.side[me]
        sums = [0.0] * len(cands)
        ours = [0.0] * len(cands)
        done = 0
        for deal in deals:
            hands0 = deal[:n]
            if endgame is not None and names is not None:
                to_std = names
                std_hands = [generic.remap(h, to_std) for h in hands0]
                worth = endgame.card_values(std_hands, [to_std[c] for c in trick], leader, broken, won0)
                for i, c in enumerate(cands):
                    sums[i] += worth[to_std[c]]
            elif endgame is not None:
                # Every card's exact worth in one call.
                worth = endgame.card_values(hands0, trick, leader, broken, won0)
                for i, c in enumerate(cands):
                    sums[i] += worth[c]
            else:
                for i, c in enumerate(cands):
                    hands = list(hands0)
                    hands[me] ^= 1 << c
                    t = [*trick, c]
                    won = list(won0)
                    lead_by, br = leader, broken or bool(spades >> c & 1)
                    if len(t) == n:
                        w = trick_winner(t, leader, n) if board is None else board.winner(t, leader)
                        won[w] += 1
                        t, lead_by = [], w
                    if solver is not None:
                        sums[i] += solver.value(hands, t, lead_by, br, won)
                    else:
                        if board is None:
                            final = rollout(table, hands, t, lead_by, br, won)
                        else:
                            final = generic.rollout(board, table, hands, t, lead_by, br, won)
                        sums[i] += scorer.value(final)
                        ours[i] += sum(final[s] for s in range(n) if table.side[s] == my_side)
            done += 1
            if time_ms and (time.perf_counter() - start) * 1000 > time_ms and done >= 4:
                break
        power = generic.Board.of(deck).t.power
        order = sorted(range(len(cands)), key=lambda i: (-sums[i], power[cands[i]], cands[i]))
        best = order[0]
        card = cands[best]
        avg = sums[best] / done
        why = Text(
            N_("play {card}: {points} points on average over {n} deals"),
            card=card_text(card),
            points=f"{avg:+.1f}",
            n=done,
        )
        if len(order) > 1:
            nxt = order[1]
            why = Text(
                N_("{reason} ({card} {points})"),
                reason=why,
                card=card_text(cands[nxt]),
                points=f"{sums[nxt] / done:+.1f}",
            )
        if not exact:
            why = Text(N_("{reason}; we take {tricks} tricks"), reason=why, tricks=f"{ours[best] / done:.1f}")
        else:
            why = Text(N_("{reason} (exact search of the last tricks)"), reason=why)
        note = self._play_note(obs, table) or duty
        if note:
            why = Text(N_("{reason}; {note}"), reason=why, note=Text(note))
        return Decision(Play(card), why)

    def _play_note(self, obs: Observation, table: Table) -> str:
        me = obs.seat
        won = obs.tricks_won
        if table.nil[me] and won[me] == 0:
            return N_("keeps my nil")
        p = table.partner[me]
        if p >= 0 and table.nil[p] and won[p] == 0:
            return N_("keeps partner's nil covered")
        if any(won[t] == 0 for t in table.opp_nils[me]):
            return N_("presses the opponent's nil")
        return ""

    # ------------------------------------------------------------------ bidding
    def _bid(self, obs: Observation, legal: Sequence[Bid], rng: random.Random) -> Decision:
        k = Knowledge.of(obs)
        n = obs.players
        me = obs.seat
        rules = obs.rules
        bids, blind = self._bid_views(obs)
        deck = deck_of(rules)
        top = deck.hand_size
        guess: Callable[[int], float]
        if deck.standard:
            guess, count = (lambda hand: bid_guess(hand, n)), self.bid_samples
        else:
            # The generic playouts cost more: fewer deals keep a bid near a second.
            guess, count = generic_guess(deck, n), min(self.bid_samples, GENERIC_BID_SAMPLES)
        play_out = self._hand_player(obs)
        deals = self._weighted_deals(obs, k, count, rng)
        numbers = sorted({b.tricks for b in legal if b.tricks > 0})
        nil_ok = any(b.tricks == 0 for b in legal)
        mine = max(1, min(top, round(guess(k.hand))))
        partner = rules.partner_of(me) if rules.teams else None
        number_values = [0.0] * len(numbers)
        made = [0] * len(numbers)
        nil_value = 0.0
        nil_clean = 0
        my_tricks = 0.0
        team_tricks = 0.0
        # The rollouts see every card (double dummy): real play takes fewer tricks, so a share
        # of each deal is scored with one of my tricks lost to my left.
        shade = self.bid_shade_two if n == 2 else self.bid_shade
        for deal in deals:
            est = list(bids)
            for s in range(n):
                if s != me and est[s] < 0:
                    est[s] = max(1, min(top, round(guess(deal[s]))))
            est[me] = mine
            table = Table(rules, est, greedy=True)
            won_a = play_out(table, list(deal[:n]))
            my_tricks += won_a[me]
            team = won_a[me] + (won_a[partner] if partner is not None and est[partner] > 0 else 0)
            team_tricks += team
            short = list(won_a)
            if shade and short[me] > 0:
                short[me] -= 1
                short[(me + 1) % n] += 1
            for i, b in enumerate(numbers):
                est[me] = b
                scorer = Scorer(rules, me, est, blind, obs.totals, obs.bags, self.bag_weight)
                number_values[i] += (1 - shade) * scorer.value(won_a) + (
                    shade * scorer.value(short) if shade else 0.0
                )
                contract = b + (est[partner] if partner is not None and est[partner] > 0 else 0)
                made[i] += team >= contract
            if nil_ok:
                est[me] = 0
                table = Table(rules, est)
                won_b = play_out(table, list(deal[:n]))
                nil_value += Scorer(rules, me, est, blind, obs.totals, obs.bags, self.bag_weight).value(won_b)
                nil_clean += won_b[me] == 0
        m = len(deals)
        best_i = max(range(len(numbers)), key=lambda i: (number_values[i], -numbers[i])) if numbers else -1
        nil_good = nil_ok and nil_clean >= self.nil_floor * m
        if nil_ok and (
            best_i < 0 or (nil_good and nil_value / m - self.nil_margin > number_values[best_i] / m)
        ):
            return Decision(
                Bid(0),
                Text(
                    N_(
                        "bid nil: no trick taken in {share} of {n} deals; worth {points} points"
                        " against {best} for the best number"
                    ),
                    share=f"{nil_clean / m:.0%}",
                    n=m,
                    points=f"{nil_value / m:+.1f}",
                    best=f"{number_values[best_i] / m:+.1f}",
                )
                if best_i >= 0
                else Text(
                    N_("bid nil: no trick taken in {share} of {n} deals"), share=f"{nil_clean / m:.0%}", n=m
                ),
            )
        b = numbers[best_i]
        figures = {
            "bid": b,
            "tricks": f"{my_tricks / m:.1f}",
            "n": m,
            "share": f"{made[best_i] / m:.0%}",
            "points": f"{number_values[best_i] / m:+.1f}",
        }
        why = (
            Text(
                N_(
                    "bid {bid}: I take {tricks} tricks on average over {n} deals (we {team});"
                    " made in {share}, worth {points} points"
                ),
                team=f"{team_tricks / m:.1f}",
                **figures,
            )
            if partner is not None
            else Text(
                N_(
                    "bid {bid}: I take {tricks} tricks on average over {n} deals;"
                    " made in {share}, worth {points} points"
                ),
                **figures,
            )
        )
        if partner is not None and bids[partner] == 0:
            cover = (
                N_("{reason}; partner bid Blind Nil, so I will cover")
                if blind[partner]
                else N_("{reason}; partner bid nil, so I will cover")
            )
            why = Text(cover, reason=why)
        return Decision(Bid(b), why)

    def _before_looking(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Decision:
        """Blind Nil or look: both are simulated over random deals (the bot has seen nothing),
        Blind Nil with the exchange made as this bot would make it."""
        blind_bid = next((a for a in legal if isinstance(a, Bid) and a.blind), None)
        p = self._partner(obs)
        if blind_bid is None or (p is not None and is_nil(obs.bids[p])):
            return Decision(Look(), Text(N_("look at my cards before bidding")))
        blind_v, look_v, clean, m = self._simulate_blind(obs, rng)
        if blind_v - self.blind_margin > look_v:
            return Decision(
                blind_bid,
                Text(
                    N_(
                        "bid blind nil: worth {points} points against {look} for a normal bid"
                        " over {n} deals (clean in {share})"
                    ),
                    points=f"{blind_v:+.1f}",
                    look=f"{look_v:+.1f}",
                    n=m,
                    share=f"{clean:.0%}",
                ),
            )
        return Decision(
            Look(),
            Text(
                N_("look: blind nil is worth {points} points, a normal bid {look}"),
                points=f"{blind_v:+.1f}",
                look=f"{look_v:+.1f}",
            ),
        )

    def _simulate_blind(self, obs: Observation, rng: random.Random) -> tuple[float, float, float, int]:
        rules = obs.rules
        n = obs.players
        me = obs.seat
        p = self._partner(obs)
        k = rules.blind_nil_exchange if p is not None and not is_blind(obs.bids[p]) else 0
        bids, blind = self._bid_views(obs)
        blind_sum = look_sum = 0.0
        clean = 0
        the_deck = deck_of(rules)
        tables = tables_of(the_deck)
        size = the_deck.hand_size
        guess: Callable[[int], float]
        if the_deck.standard:
            guess, m = (lambda hand: bid_guess(hand, n)), max(8, self.bid_samples // 2)
        else:
            guess, m = generic_guess(the_deck, n), max(8, min(self.bid_samples, GENERIC_BID_SAMPLES) // 2)

        play_out = self._hand_player(obs)
        deck = list(the_deck.cards)
        for _ in range(m):
            rng.shuffle(deck)
            hands = [sum(1 << c for c in deck[size * s : size * s + size]) for s in range(n)]
            est = list(bids)
            for s in range(n):
                if est[s] < 0:
                    est[s] = max(1, min(size, round(guess(hands[s]))))
            won = play_out(Table(rules, est), list(hands))
            look_sum += Scorer(rules, me, est, blind, obs.totals, obs.bags, self.bag_weight).value(won)
            est[me] = 0
            flags = list(blind)
            flags[me] = True
            if k and p is not None:
                give = rule_pass(hands[p], k, True, tables)
                mine = hands[me] | give
                back = rule_pass(mine, k, False, tables)
                hands[p] = (hands[p] & ~give) | back
                hands[me] = mine & ~back
            won = play_out(Table(rules, est), hands)
            blind_sum += Scorer(rules, me, est, flags, obs.totals, obs.bags, self.bag_weight).value(won)
            clean += won[me] == 0
        return blind_sum / m, look_sum / m, clean / m, m

    # ------------------------------------------------------------------ exchange and draw
    def _pass(self, obs: Observation, legal: Sequence[PassCard], rng: random.Random) -> Decision:
        """The Blind Nil exchange, one card at a time: the whole pass is chosen at its first
        card (``spades.bots.exchange``: each candidate valued over sampled deals; or by the
        fixed rule, lowest cards to the bidder and his most dangerous back) and remembered
        for the next ones, so the three cards are one plan."""
        k = obs.rules.blind_nil_exchange
        chosen = obs.pass_chosen.mask if obs.pass_chosen is not None else 0
        legal_mask = 0
        for a in legal:
            legal_mask |= 1 << a.card
        hand = legal_mask | chosen
        giving = not is_blind(obs.bids[obs.seat])
        key = (obs.seat, obs.hand_number, hand, obs.totals, tuple(map(bid_value, obs.bids)))
        plan = self._exchange_memo.get(key) if chosen else None  # a first card is planned afresh
        if plan is None or plan[0] & chosen != chosen:
            plan = self._choose_pass(obs, hand, k, chosen, giving, rng)
            self._exchange_memo = {key: plan}
        whole, found = plan
        t = tables_of(deck_of(obs.rules))
        left = whole & legal_mask or rule_pass(legal_mask, 1, giving, t)
        cards = _cards(left)
        card = min(cards, key=low_first(t)) if giving else min(cards, key=danger_first(t))
        if found is None:
            if giving:
                role = N_("pass {card}: give my partner low cards for his blind nil")
            else:
                role = N_("pass {card}: give back my most dangerous cards")
            return Decision(PassCard(card), Text(role, card=card_text(card)))
        if giving:
            role = N_(
                "pass {card}: the pass worth most to partner's blind nil, {points} points"
                " against {rule} for my lowest cards over {n} deals"
            )
        else:
            role = N_(
                "pass {card}: the pass back worth most to my blind nil, {points} points"
                " against {rule} for my most dangerous cards over {n} deals"
            )
        return Decision(
            PassCard(card),
            Text(
                role,
                card=card_text(card),
                points=f"{found.value:+.1f}",
                rule=f"{found.rule_value:+.1f}",
                n=found.deals,
            ),
        )

    def _choose_pass(
        self, obs: Observation, hand: int, k: int, chosen: int, giving: bool, rng: random.Random
    ) -> tuple[int, ExchangeChoice | None]:
        """The ``k`` cards this seat passes, searched in four-seat partnerships (the compiled
        rollouts on the 52-card deck, the generic ones on a jokers deck, with fewer deals and
        the generic search's time cap), else by the fixed rule (no figures)."""
        deck = deck_of(obs.rules)
        t = tables_of(deck)
        if not self.exchange or obs.players != 4 or not obs.rules.teams:
            return complete_by_rule(hand, k, chosen, giving, t), None
        start = time.perf_counter()
        me = obs.seat
        bids, blind = self._bid_views(obs)
        bids = [max(b, 0) for b in bids]
        press = obs.rules.side_of(me) if self.contest else -1
        table = Table(obs.rules, bids, press=press)
        play = self._hand_player(obs)
        samples, time_ms = self.samples, self.time_ms
        if not deck.standard:
            samples = min(samples, GENERIC_BID_SAMPLES)
            time_ms = min(time_ms, GENERIC_TIME_MS) if time_ms else 0
        found = search_exchange(
            seat=me,
            bidder=(me + 2) % 4 if giving else me,
            hand=hand,
            k=k,
            chosen=chosen,
            deals=self._weighted_deals(obs, Knowledge.of(obs), samples, rng),
            play_out=lambda hands: play(table, hands),
            scorer=Scorer(obs.rules, me, bids, blind, obs.totals, obs.bags, self.bag_weight),
            tables=t,
            deadline=start + time_ms / 1000.0 if time_ms else 0.0,
        )
        return found.cards, found if found.deals else None

    def _draw(self, obs: Observation, legal: Sequence[Draw]) -> Decision:
        top = obs.stock_top
        keep = top is not None and ((top < 13 and top % 13 >= 6) or top % 13 >= 9)
        choice = next((d for d in legal if d.keep == keep), legal[0])
        what = card_text(top) if top is not None else Text(N_("the card"))
        if choice.keep:
            return Decision(choice, Text(N_("keep {card}: a likely trick"), card=what))
        return Decision(
            choice, Text(N_("discard {card}: the unseen next card is worth more on average"), card=what)
        )


__all__ = ["ExpertBot"]
