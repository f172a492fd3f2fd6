"""Scoring and End of the Game, with the seed's scoring example (Maggie, Diego and César)."""
import numpy as np
import pytest

from corruption_envs.core.rewards import terminal_rewards
from corruption_envs.corruptia.scoring import department_values, player_score
from corruption_envs.corruptia.state import OVER
from corruption_envs.corruptia.tables import CARDS_PER_DEPT, DEPARTMENTS, TOKEN_POINTS

from .helpers import game, legal


def d(name: str) -> int:
    return DEPARTMENTS.index(name)


# The example's table on our lattice: (row, col) -> (department, officials, Cronies).
EXAMPLE_TABLE = {
    (0, 0): ("environment", 2, 0), (0, 2): ("environment", 2, 0), (1, 1): ("environment", 1, 0),
    (0, 4): ("culture", 2, 0), (0, 6): ("culture", 1, 0),
    (1, 3): ("defense", 2, 0),
    (1, 7): ("economy", 1, 0),
    (1, 5): ("education", 4, 0), (2, 4): ("education", 3, 0),
    (2, 0): ("education", 0, 3),  # a separate education bill, away from the other two
}
# Final hands by department: culture, defense, economy, education, environment (the pad's rows).
EXAMPLE_HANDS = {
    "Maggie": {"economy": 2, "education": 3, "environment": 3},
    "Diego": {"defense": 2, "economy": 3, "education": 2, "environment": 1},
    "César": {"culture": 2, "defense": 2, "economy": 1, "education": 3},
}
# (Citizen Support, Cronies in reserve). The illustration's tokens are marked x1 and x3: Maggie's three
# tokens are x1 (3 support), Diego's three x3 + x1 + x1 (5), César's two x3 + x3 (6), so the pad prints
# Citizen Support 15 / 25 / 30. The env's `tokens` count support, a x3 token as three.
EXAMPLE_SUPPORT_CRONIES = {"Maggie": (3, 1), "Diego": (5, 2), "César": (6, 3)}


def example_layout():
    rules, s = game(3)
    size = rules.grid.size
    cell_card, officials, cronies, placed = [-1] * size, [0] * size, [0] * size, []
    used = {}
    for rc, (dept, off, cro) in EXAMPLE_TABLE.items():
        i = rules.grid.index[rc]
        k = used.get(dept, 0)
        used[dept] = k + 1
        cell_card[i] = d(dept) * CARDS_PER_DEPT + k
        officials[i], cronies[i] = off, cro
        placed.append(i)
    return rules, s, cell_card, officials, cronies, placed


def example_hand(name):
    hand = []
    for dept, count in EXAMPLE_HANDS[name].items():
        hand += [d(dept) * CARDS_PER_DEPT + 17 - i for i in range(count)]
    return hand


def test_scoring_example_department_values_are_6_2_1_17_15():
    rules, _, cell_card, officials, cronies, placed = example_layout()
    values = department_values(cell_card, officials, cronies, placed, rules.neighbours)
    assert sum(officials) == 18 and sum(cronies) == 3  # all workers of a 3-player game
    assert {name: values[d(name)] for name in DEPARTMENTS} == {
        "culture": 6, "defense": 2, "economy": 1, "education": 17, "environment": 15}


def test_scoring_example_final_scores_are_118_91_113_and_maggie_wins():
    rules, s, cell_card, officials, cronies, placed = example_layout()
    s.cell_card, s.officials, s.cronies, s.placed = cell_card, officials, cronies, placed
    s.values = department_values(cell_card, officials, cronies, placed, rules.neighbours)
    names = ["Maggie", "Diego", "César"]
    for p, name in enumerate(names):
        s.hands[p] = example_hand(name)
        s.tokens[p], s.reserve[p] = EXAMPLE_SUPPORT_CRONIES[name]
    assert [len(h) for h in s.hands] == [8, 8, 8]
    assert [TOKEN_POINTS * t for t in s.tokens] == [15, 25, 30]  # the pad's Citizen Support row
    # the pad: Maggie 2 + 51 + 45 = 98 from cards, Diego 4 + 3 + 34 + 15, César 12 + 4 + 1 + 51; then
    # Citizen Support, then 5 a Crony in reserve
    assert rules.scores(s) == [98 + 15 + 5, 56 + 25 + 10, 68 + 30 + 15] == [118, 91, 113]
    keys = rules.final_keys(s)
    assert max(range(3), key=lambda p: keys[p]) == 0


def test_cards_in_hand_times_department_value_plus_five_a_token_and_five_a_crony_in_reserve():
    values = [1, 2, 3, 4, 5]
    hand = [0, 18, 19, 90 - 1]  # environment, economy x2, education
    assert player_score(hand, values, tokens=2, reserve=1) == 1 + 2 + 2 + 5 + 10 + 5


def test_a_department_with_two_blocks_adds_the_value_of_each():
    rules, _, cell_card, officials, cronies, placed = example_layout()
    values = department_values(cell_card, officials, cronies, placed, rules.neighbours)
    assert values[d("education")] == 2 * 7 + 1 * 3


def test_tie_on_score_goes_to_most_citizen_support_then_is_shared():
    rules, s = game(3)
    s.hands = [[], [], []]
    s.values = [0] * 5
    s.tokens, s.reserve = [2, 1, 1], [0, 1, 1]  # all score 10
    assert rules.scores(s) == [10, 10, 10]
    keys = rules.final_keys(s)
    assert keys[0] > keys[1] == keys[2]
    assert terminal_rewards("win", keys, rules.scores(s))[0] == 1.0
    s.tokens, s.reserve = [1, 1, 1], [1, 1, 1]
    assert terminal_rewards("win", rules.final_keys(s), rules.scores(s)) == [pytest.approx(1 / 3)] * 3


def test_the_game_ends_after_round_five_with_scores():
    rules, s = game(5, seed=9)
    rng = np.random.default_rng(9)
    rounds = set()
    while s.phase != OVER:
        rounds.add(s.round)
        moves = legal(rules, s)
        rules.apply(s, moves[rng.integers(len(moves))])
    assert rounds == {0, 1, 2, 3, 4} and rules.current_player(s) == -1
    assert len(rules.scores(s)) == 5
