"""The Extraction phase and the end of the game."""

from corruption_envs.construction.state import OVER
from corruption_envs.construction.tables import NUM_CARDS, keys_value

from .helpers import contracts_of, finish_turn, fresh


def load(s, c, crew):
    """Put `crew` = {seat: workers} on contract c, taking them from those seats' workers to place."""
    for p, k in crew.items():
        s.workers[c][p] += k
        s.to_place[p] -= k


def extract(rules, s):
    rules._extraction(s)


def test_three_workers_of_any_colour_complete_a_contract():
    rules, s = fresh(4, 0)
    a, b = 0, 1
    c = contracts_of(s, a)[0]
    load(s, c, {b: 1, 2: 1})  # owner's own worker + 2 more = 3
    extract(rules, s)
    assert s.owner[c] == -1 and c in s.stack


def test_two_workers_do_not_complete():
    rules, s = fresh(4, 1)
    c = contracts_of(s, 0)[0]
    load(s, c, {1: 1})
    extract(rules, s)
    assert s.owner[c] == 0


def test_misprinted_more_than_three_option_needs_four_workers():
    rules, s = fresh(4, 2, completion="more_than_three")
    c, d = contracts_of(s, 0)[0], contracts_of(s, 1)[0]
    load(s, c, {1: 1, 2: 1})  # 3 workers
    load(s, d, {2: 1, 3: 2})  # 4 workers
    extract(rules, s)
    assert s.owner[c] == 0 and s.owner[d] == -1


def test_city_workers_count_towards_completion():
    rules, s = fresh(4, 3)
    c = contracts_of(s, 2)[0]
    load(s, c, {1: 1})
    s.city[c] = 1
    extract(rules, s)
    assert s.owner[c] == -1


def test_a_festival_keeps_a_contract_from_completion_whatever_the_workers():
    rules, s = fresh(4, 4)
    c = contracts_of(s, 3)[0]
    load(s, c, {0: 2, 1: 2, 2: 2})
    s.festival[c] = 1
    extract(rules, s)
    assert s.owner[c] == 3


def test_completed_contracts_go_to_the_stack_bottom_without_corruption_and_owner_draws_a_card():
    rules, s = fresh(4, 5)
    c = contracts_of(s, 1)[0]
    s.corruption[c] = 4
    load(s, c, {0: 2})
    top = s.stack[:]
    extract(rules, s)
    # 1998 dealt four contracts from the top; c went under the stack
    assert s.stack[-1] == c and s.corruption[c] == 0 and s.owner[c] == -1
    assert s.stack[: len(top) - 4] == top[4:]
    assert sum(s.hand[1]) == 1 and len(s.deck) == NUM_CARDS - 1


def test_a_completed_contract_is_not_paid_at_the_next_construction():
    rules, s = fresh(3, 6)
    c = contracts_of(s, 0)[0]
    load(s, c, {1: 1, 2: 1})
    pay_before = len(s.ledger)
    extract(rules, s)
    incomes = [e for e in s.ledger[pay_before:] if e[0] == 0]
    assert (0, 0, 10, 0) in incomes  # only the new 1998 contract
    assert (0, 1, 20, 0) in incomes and (0, 2, 20, 0) in incomes


def test_workers_come_home_but_one_per_remaining_own_contract():
    rules, s = fresh(4, 7)
    c = contracts_of(s, 0)[0]
    d = contracts_of(s, 1)[0]
    load(s, c, {1: 1, 2: 1})  # completed
    load(s, d, {0: 1})  # not completed
    extract(rules, s)
    assert s.owner[c] == -1 and sum(s.workers[c]) == 0
    assert s.workers[d] == [0, 1, 0, 0]
    assert sum(s.city) == 0 and sum(s.festival) == 0  # city workers and festivals leave
    for p in range(4):
        for k in contracts_of(s, p):
            assert s.workers[k][p] == 1 and sum(s.workers[k]) == 1


def test_an_empty_investigation_deck_is_refilled_from_the_discard_pile():
    rules, s = fresh(4, 8)
    for t in range(8):
        s.discard[t] = s.deck.count(t)
    s.deck = []
    c = contracts_of(s, 2)[0]
    load(s, c, {0: 1, 1: 1})
    extract(rules, s)
    assert sum(s.hand[2]) == 1 and len(s.deck) == NUM_CARDS - 1 and sum(s.discard) == 0


def test_example_keys_to_the_city_three_keys_are_worth_600k():
    assert [keys_value(k) for k in range(5)] == [0, 10, 30, 60, 100]


def test_the_richest_wins_with_cash_plus_keys():
    rules, s = fresh(3, 9)
    while s.phase != OVER:
        finish_turn(rules, s)
    s.cash = [50, 41, 20]
    s.keys = [0, 1, 3]
    assert rules.scores(s) == [50, 51, 80]
    assert rules.final_keys(s) == [(50,), (51,), (80,)]


def test_final_pay_after_2017_pays_the_contracts_still_held():
    rules, s = fresh(3, 10)
    for _ in range(6):
        finish_turn(rules, s)
    assert s.turn == 6
    while s.phase != OVER:
        finish_turn(rules, s)
    finals = s.ledger[-sum(1 for k in range(3) if contracts_of(s, k)):]
    held_after = [len(contracts_of(s, p)) for p in range(3)]
    assert finals == [(0, p, 10 * held_after[p], 0) for p in range(3) if held_after[p]]
