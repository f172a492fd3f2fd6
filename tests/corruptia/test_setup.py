"""Game Setup and the round structure (seed: Game Setup 1-10, Turn Sequence, Start/End of the Round)."""
import numpy as np
import pytest

from corruption_envs.corruptia.state import OVER
from corruption_envs.corruptia.tables import BUDGET, BUDGETS, DEPT, INCOME, NUM_CARDS

from .helpers import game, legal


@pytest.mark.parametrize("n, removed", [(3, 30), (4, 16), (5, 2)])
def test_setup_removes_cards_by_player_count(n, removed):
    _, s = game(n, seed=n)
    assert len(s.box) == removed


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_counts_hands_discard_zone_cronies_and_officials(n):
    rules, s = game(n, seed=1)
    # three in hand plus the two the President deals at the start of round 1
    assert [len(h) for h in s.hands] == [5] * n
    assert len(s.discard) == n + 3  # N face up at setup, three revealed at round 1
    assert s.reserve == [3] * n
    assert [s.officials[c] for c in rules.grid.triangle] == [6, 6, 6]
    assert s.tokens == [0] * n


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_deals_a_blackmail_card_of_every_opponents_party(n):
    _, s = game(n, seed=2)
    for p in range(n):
        assert [q for q in range(n) if s.held[p][q]] == [q for q in range(n) if q != p]


@pytest.mark.parametrize("seed", range(60))
def test_starting_triangle_has_different_departments_and_income_expectations(seed):
    rules, s = game(3, seed=seed)
    tri = [s.cell_card[c] for c in rules.grid.triangle]
    assert len({DEPT[c] for c in tri}) == 3 and len({INCOME[c] for c in tri}) == 3
    assert [rules.grid.coords[c] for c in rules.grid.triangle] == [(0, 0), (1, -1), (1, 1)]


def test_triangle_replaced_cards_go_back_into_the_pile_not_the_box():
    replaced = 0
    for seed in range(30):
        _, s = game(3, seed=seed)
        replaced += len(s.returned)
        assert not s.returned & set(s.box)
    assert replaced > 0  # the replacement rule really fired


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_pile_is_used_up_exactly_and_hands_end_with_eight_cards(n):
    rules, s = game(n, seed=3)
    rng = np.random.default_rng(3)
    while s.phase != OVER:
        moves = legal(rules, s)
        rules.apply(s, moves[rng.integers(len(moves))])
    assert s.deck == [] and all(len(h) == 8 for h in s.hands)


def test_five_rounds_one_turn_each_from_the_president_clockwise_and_the_token_passes_left():
    rules, s = game(4, seed=4)
    rng = np.random.default_rng(4)
    first = s.president
    turns = {}
    while s.phase != OVER:
        turns.setdefault((s.round, s.turn), (s.president, s.proposer))
        moves = legal(rules, s)
        rules.apply(s, moves[rng.integers(len(moves))])
    assert sorted(turns) == [(r, t) for r in range(5) for t in range(4)]
    for (r, t), (president, proposer) in turns.items():
        assert president == (first + r) % 4
        assert proposer == (president + t) % 4


def test_each_round_deals_two_bills_to_everyone_and_reveals_three_to_the_discard_zone():
    rules, s = game(4, seed=5)
    rng = np.random.default_rng(5)
    while s.round == 0:
        moves = legal(rules, s)
        rules.apply(s, moves[rng.integers(len(moves))])
    before_hands = [5 - s.played[p] for p in range(4)]
    assert [len(h) for h in s.hands] == [b + 2 for b in before_hands]
    # 74 cards: triangle 3, hands 4 x 3, discard zone 4, then per round 4 x 2 dealt and 3 revealed
    assert len(s.deck) == 74 - 3 - 12 - 4 - 2 * (8 + 3)


def test_the_die_has_five_departments_and_a_revolution_each_one_sixth():
    faces = np.zeros(6)
    for seed in range(600):
        _, s = game(3, seed=seed)
        faces[s.die] += 1
    assert (faces > 60).all()  # each face about 100 times out of 600


def test_the_bill_deck_follows_the_rulings_card_list():
    assert NUM_CARDS == 90
    for c in range(NUM_CARDS):
        d, k = divmod(c, 18)
        assert DEPT[c] == d and INCOME[c] == 1 + k % 3 and BUDGET[c] == BUDGETS[(k // 3 + d) % 6]
