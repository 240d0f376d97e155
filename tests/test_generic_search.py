"""The generic search (``spades.search.generic``) and the expert's scorer hold to the one
definition of each rule: legal play and trick winners from ``spades.legal``, points from
``scoring.score_hand``, on every deck (jokers, jjdd, three players)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.bots.expert_play import Scorer, Table
from spades.legal import Deck, deck_of, play_mask, trick_winner
from spades.rules import PRESETS, Rules
from spades.scoring import SeatBid, score_hand
from spades.search import generic
from test_bots_common import VARIANTS

SCORING_VARIANTS: list[tuple[str, dict[str, Any]]] = [
    *VARIANTS,
    ("standard", {"big_bid": 11, "set_penalty": "zero"}),
    ("hoyle", {"nil_tricks": "partner", "bags": "reset"}),
    ("bicycle", {"big_bid": 10, "bags": "off"}),
]


def _rules(variant: tuple[str, dict[str, Any]]) -> Rules:
    return PRESETS[variant[0]].replace(**variant[1])


def _deal(deck: Deck, rng: random.Random) -> list[int]:
    cards = list(deck.cards)
    rng.shuffle(cards)
    size = deck.hand_size
    return [sum(1 << c for c in cards[s * size : (s + 1) * size]) for s in range(deck.players)]


def _random_split(total: int, parts: int, rng: random.Random) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


# ---------------------------------------------------------------------- each rule once: points
@settings(max_examples=150, deadline=None)
@given(variant=st.sampled_from(SCORING_VARIANTS), seed=st.integers(0, 2**32))
def test_expert_points_are_score_hands(variant: tuple[str, dict[str, Any]], seed: int) -> None:
    """The expert's points of a hand are ``score_hand``'s, in every rule set: a change of the
    Nil rule (or big_bid, nil_tricks, bags) in scoring.py reaches the expert, and a scorer
    written again beside it would fail here."""
    rules = _rules(variant)
    rng = random.Random(seed)
    n = rules.players
    deck = deck_of(rules)
    bids = [rng.choice([0, 0, *range(1, deck.hand_size + 1)]) for _ in range(n)]
    blind = [b == 0 and rules.blind_nil and rng.random() < 0.3 for b in bids]
    won = _random_split(deck.hand_size, n, rng)
    totals = [rng.randint(-150, 450) for _ in range(rules.sides)]
    bags = [rng.randint(0, rules.bag_limit - 1) for _ in range(rules.sides)]
    me = rng.randrange(n)
    scorer = Scorer(rules, me, bids, blind, totals, bags, bag_weight=0.0)
    real, adj = scorer.side_points(won)
    hs = score_hand(rules, 0, [SeatBid(b, f) for b, f in zip(bids, blind, strict=True)], won, totals, bags)
    assert real == list(hs.points)
    # Without the bag charge, the decision worth is the points before any bag penalty.
    assert adj == [p + k * rules.bag_penalty for p, k in zip(hs.points, hs.penalties, strict=True)]
    side = rules.side_of(me)
    others = [p for s, p in enumerate(adj) if s != side]
    value = scorer.value(won)
    plain = adj[side] - sum(others) / len(others)
    # ... and the hand's value is that difference, give or take the game's end (GAME_BONUS).
    assert min(abs(value - plain - bonus) for bonus in (0.0, 300.0, -300.0)) < 1e-9


# ---------------------------------------------------------------------- the playouts
GENERIC_VARIANTS = [v for v in VARIANTS if not deck_of(_rules(v)).standard]


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(GENERIC_VARIANTS), seed=st.integers(0, 2**32))
def test_playouts_play_legal_cards_and_every_trick(variant: tuple[str, dict[str, Any]], seed: int) -> None:
    """A generic playout plays a legal card at every step (``legal.play_mask``), the winner
    of each trick is ``legal.trick_winner``'s, and the hand ends with every trick taken."""
    rules = _rules(variant)
    deck = deck_of(rules)
    board = generic.Board.of(deck)
    rng = random.Random(seed)
    hands = _deal(deck, rng)
    n = rules.players
    bids = [rng.randint(0, 5) for _ in range(n)]
    table = Table(rules, bids)
    won = [0] * n
    taken = [0] * table.sides
    leader = rng.randrange(n)
    broken = rules.spades_lead == "any"
    for left in range(deck.hand_size, 0, -1):
        trick: list[int] = []
        for i in range(n):
            seat = (leader + i) % n
            c = generic.choose(board, table, seat, hands, trick, leader, broken, won, taken, left)
            lead = deck.suit_of[trick[0]] if trick else -1
            assert play_mask(deck, hands[seat], lead, broken) >> c & 1
            hands[seat] ^= 1 << c
            broken = broken or deck.suit_of[c] == 0
            trick.append(c)
        w = trick_winner(deck, trick, leader)
        assert board.winner(trick, leader) == w
        won[w] += 1
        leader = w
    assert sum(won) == deck.hand_size and not any(hands)
    again = generic.rollout(board, table, _deal(deck, random.Random(seed)), [], 0, False, [0] * n)
    assert sum(again) == deck.hand_size


def _minimax(
    deck: Deck,
    scorer: Scorer,
    maxer: list[bool],
    hands: list[int],
    trick: tuple[int, ...],
    leader: int,
    broken: bool,
    won: list[int],
) -> float:
    """Plain minimax over every legal card (no pruning, no merged equal cards): the reference."""
    n = deck.players
    if len(trick) == n:
        w = trick_winner(deck, trick, leader)
        won2 = list(won)
        won2[w] += 1
        return _minimax(deck, scorer, maxer, hands, (), w, broken, won2)
    seat = (leader + len(trick)) % n
    if not hands[seat]:
        return scorer.value(won)
    lead = deck.suit_of[trick[0]] if trick else -1
    legal = play_mask(deck, hands[seat], lead, broken)
    values = []
    m = legal
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        h2 = list(hands)
        h2[seat] ^= 1 << c
        values.append(
            _minimax(deck, scorer, maxer, h2, (*trick, c), leader, broken or deck.suit_of[c] == 0, won)
        )
    return max(values) if maxer[seat] else min(values)


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(GENERIC_VARIANTS), seed=st.integers(0, 2**32), tricks=st.integers(1, 2))
def test_exact_endgame_equals_plain_minimax(
    variant: tuple[str, dict[str, Any]], seed: int, tricks: int
) -> None:
    """The generic Solver (alpha-beta, equal cards merged) finds the value a plain minimax
    over ``legal``'s moves finds, on the last tricks of random jokers and three-player deals."""
    rules = _rules(variant)
    deck = deck_of(rules)
    rng = random.Random(seed)
    n = rules.players
    cards = list(deck.cards)
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[s * tricks : (s + 1) * tricks]) for s in range(n)]
    done = deck.hand_size - tricks
    won = _random_split(done, n, rng)
    bids = [rng.choice([0, 1, 2, 3, 4, 5]) for _ in range(n)]
    me = rng.randrange(n)
    table = Table(rules, bids)
    scorer = Scorer(rules, me, bids, [False] * n, [0] * rules.sides, [0] * rules.sides)
    leader = rng.randrange(n)
    broken = rng.random() < 0.5
    solver = generic.Solver(generic.Board.of(deck), table, scorer, me)
    got = solver.value(list(hands), [], leader, broken, list(won))
    maxer = [(rules.side_of(s) == rules.side_of(me)) if rules.sides == 2 else s == me for s in range(n)]
    want = _minimax(deck, scorer, maxer, list(hands), (), leader, broken, list(won))
    assert abs(got - want) < 1e-9


# ---------------------------------------------------------------------- spades_lead on the kernels
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), lead=st.sampled_from(["broken", "any"]))
def test_compiled_endgame_offers_the_leads_legal_allows(seed: int, lead: str) -> None:
    """The compiled solver knows only "spades broken or not"; the expert hands it
    ``legal.may_lead_spades``, so with ``spades_lead: any`` it offers every card of the leader
    before spades are broken, exactly as ``legal.play_mask`` does."""
    from spades.bots.expert_exact import ExactEndgame
    from spades.legal import STANDARD, may_lead_spades

    rules = Rules.from_spec({"spades_lead": lead})
    rng = random.Random(seed)
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[s * 4 : (s + 1) * 4]) for s in range(4)]
    leader = rng.randrange(4)
    hands[leader] |= 1 << 12  # the leader holds the ace of spades ...
    for s in range(4):
        if s != leader:
            hands[s] &= ~(1 << 12)
    while hands[leader].bit_count() > 4:
        hands[leader] &= ~(1 << (hands[leader] & ~(1 << 12)).bit_length() - 1)  # ... and 3 others
    spare = [c for c in cards if not any(h >> c & 1 for h in hands) and c != 12]
    for s in range(4):
        while hands[s].bit_count() < 4:
            hands[s] |= 1 << spare.pop()
    scorer = Scorer(rules, leader, [3, 3, 3, 3], [False] * 4, [0, 0], [0, 0])
    may = may_lead_spades(rules, False)
    worth = ExactEndgame(scorer).card_values(hands, [], leader, may, [3, 2, 2, 2])
    assert set(worth) == {c for c in range(52) if play_mask(STANDARD, hands[leader], -1, may) >> c & 1}


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), jokers=st.sampled_from(["big_little", "jjdd"]), tricks=st.integers(1, 3))
def test_jokers_endgames_renamed_into_the_52_cards_solve_the_same(
    seed: int, jokers: str, tricks: int
) -> None:
    """A jokers endgame renamed into the standard deck (``Board.standard_map``) and solved by
    the compiled solver gives every card the value the generic search gives it."""
    from spades.bots.expert_exact import ExactEndgame

    rules = Rules.from_spec({"jokers": jokers})
    deck = deck_of(rules)
    board = generic.Board.of(deck)
    rng = random.Random(seed)
    cards = list(deck.cards)
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[s * tricks : (s + 1) * tricks]) for s in range(4)]
    won = _random_split(13 - tricks, 4, rng)
    bids = [rng.choice([0, 2, 3, 4]) for _ in range(4)]
    leader = rng.randrange(4)
    broken = rng.random() < 0.5
    scorer = Scorer(rules, leader, bids, [False] * 4, [0, 0], [0, 0])
    names = board.standard_map(sum(hands))
    assert names is not None
    worth = ExactEndgame(scorer).card_values(
        [generic.remap(h, names) for h in hands], [], leader, broken, won
    )
    solver = generic.Solver(board, Table(rules, bids), scorer, leader)
    legal = play_mask(deck, hands[leader], -1, broken)
    for c in (x for x in deck.cards if legal >> x & 1):
        after = list(hands)
        after[leader] ^= 1 << c
        value = solver.value(after, [c], leader, broken or deck.suit_of[c] == 0, list(won))
        assert abs(worth[names[c]] - value) < 0.01, (c, worth[names[c]], value)


def test_seeded_expert_is_deterministic_on_generic_decks() -> None:
    """With ``time_ms=0`` the generic search has no time cap either: same seed, same game."""
    from spades import record
    from spades.bots import make_bot
    from spades.driver import play_game
    from spades.state import Game

    def run(preset: str) -> str:
        game = Game(PRESETS[preset], seed=3)
        bots = [make_bot("expert:samples=4,bid_samples=4,time_ms=0", seed=s) for s in range(game.n)]
        play_game(game, bots, max_hands=1)
        return record.dumps(game)

    for preset in ("cutthroat3", "jokers"):
        assert run(preset) == run(preset)
