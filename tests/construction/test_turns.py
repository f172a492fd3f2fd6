"""Setup, the seven turns, the Construction phase and the Corruption phase (seed 002, the rulings)."""
import re

import numpy as np
import pytest

from corruption_envs.construction import codec
from corruption_envs.construction.invariants import check_invariants
from corruption_envs.construction.state import INCOME, OVER, PLACE, VOTE
from corruption_envs.construction.tables import CITY_WORKERS, PLAYER_WORKERS, YEARS

from .helpers import act, contracts_of, finish_turn, fresh, legal, pass_placing


def test_setup_roll_gives_the_first_player_card_to_the_highest_two_dice():
    for seed in range(30):
        rules, s = fresh(5, seed, record_events=True)
        rolls = [t for a, t in s.events if t.startswith("setup roll")]
        last = {int(p): int(v) for p, v in re.findall(r"player_(\d) (\d+)", rolls[-1])}
        assert all(2 <= v <= 12 for v in last.values())
        assert last[s.first] == max(last.values())
        assert list(last.values()).count(max(last.values())) == 1
        if len(rolls) > 1:  # a tie for the highest roll is rolled again by the tied players only
            first = {int(p): int(v) for p, v in re.findall(r"player_(\d) (\d+)", rolls[0])}
            assert set(last) == {p for p, v in first.items() if v == max(first.values())}


def test_seven_turns_1994_to_2017_then_the_final_pay():
    rules, s = fresh(4, 1, record_events=True)
    while s.phase != OVER:
        finish_turn(rules, s)
    years = [int(y) for a, t in s.events for y in re.findall(r"--- (\d{4}): Construction", t)]
    assert years == list(YEARS)
    texts = [t for a, t in s.events]
    final = texts.index("--- Fin: the final pay ---")
    # the final Construction pays the contracts still held and deals none
    assert all("takes contract" not in t for t in texts[final:])
    held = {p: len(contracts_of(s, p)) for p in range(4)}
    for p, k in held.items():
        if k:
            assert f"player_{p} is paid ${k * 100}k for {k} contract(s)" in texts[final:]
    assert rules.current_player(s) == -1


def test_construction_deals_one_contract_each_from_the_first_player_clockwise():
    rules, s = fresh(5, 2, record_events=True)
    dealt = [int(p) for a, t in s.events for p in re.findall(r"player_(\d) takes contract", t)]
    assert dealt == [(s.first + k) % 5 for k in range(5)]
    for p in range(5):
        (c,) = contracts_of(s, p)
        assert s.workers[c][p] == 1  # a pylon and a worker mark it
        assert s.corruption[c] == 1


def test_example_pay_100k_per_contract_and_one_more_corruption_on_each():
    """Seed example: three contracts are paid $300,000, two $200,000; 2 Corruption becomes 3."""
    rules, s = fresh(3, 3)
    finish_turn(rules, s)  # 1998 deal: everybody now holds 2 contracts
    a, b = s.first, (s.first + 1) % 3
    # give player a a third contract with 2 Corruption from the stack
    c = s.stack.pop(0)
    s.stack_hidden = max(0, s.stack_hidden - 1)
    s.owner[c] = a
    s.corruption[c] = 2
    s.workers[c][a] = 1
    s.to_place[a] = max(0, s.to_place[a] - 1)
    before = s.corruption[:]
    finish_turn(rules, s)  # everybody passes, votes Outsider; nothing is completed
    # 2001 construction: a holds 3 old + 1 new contract ($400k), b 2 old + 1 new ($300k)
    incomes = s.ledger[-3:]
    assert (INCOME, a, 40, 0) in incomes and (INCOME, b, 30, 0) in incomes
    for k in range(18):
        if before[k] and s.owner[k] >= 0:
            assert s.corruption[k] == before[k] + 1


def test_a_player_holds_at_most_five_contracts():
    rules, s = fresh(3, 4)
    p = s.first
    for c in s.stack[:4]:
        s.owner[c] = p
        s.workers[c][p] = 1
    s.stack = s.stack[4:]
    s.stack_hidden = len(s.stack)
    finish_turn(rules, s)
    assert len(contracts_of(s, p)) == 5
    assert all(len(contracts_of(s, q)) == 2 for q in range(3) if q != p)
    check_invariants(rules, s)


def test_a_short_stack_deals_from_the_first_player_as_far_as_it_goes():
    rules, s = fresh(4, 5)
    first = s.first
    # leave two contracts in the stack
    spare = s.stack[2:]
    s.stack = s.stack[:2]
    s.stack_hidden = 2
    for i, c in enumerate(spare):  # park the rest with the seat before the first player, 5 at most
        q = (first + 3) % 4 if i < 4 else (first + 2) % 4
        s.owner[c] = q
        s.workers[c][q] = 1
    held = [len(contracts_of(s, q)) for q in range(4)]
    finish_turn(rules, s)
    gained = [len(contracts_of(s, q)) - held[q] for q in range(4)]
    assert gained[first] == 1 and gained[(first + 1) % 4] == 1
    assert gained[(first + 2) % 4] == 0 and gained[(first + 3) % 4] == 0


def test_worker_totals_per_year_are_3_3_4_4_5_5_5_and_the_city_1_1_2_2_3_3_3():
    assert PLAYER_WORKERS == (3, 3, 4, 4, 5, 5, 5)
    assert CITY_WORKERS == (1, 1, 2, 2, 3, 3, 3)
    rules, s = fresh(3, 6)
    for y in range(7):
        for p in range(3):
            k = len(contracts_of(s, p))
            assert s.to_place[p] == max(0, PLAYER_WORKERS[y] - k)
        finish_turn(rules, s)


def test_example_1994_three_workers_two_to_place_then_one_with_two_contracts_in_1998():
    rules, s = fresh(4, 7)
    assert s.to_place == [2, 2, 2, 2]
    finish_turn(rules, s)
    assert s.to_place == [1, 1, 1, 1]


def test_one_own_worker_stays_on_each_own_contract_and_cannot_be_moved():
    rules, s = fresh(4, 8)
    rng = np.random.default_rng(8)
    while s.phase != OVER:
        for c in range(18):
            if s.owner[c] >= 0:
                assert s.workers[c][s.owner[c]] >= 1, f"contract {c} lost its owner's worker"
        rules.apply(s, int(rng.choice(np.flatnonzero(rules.legal_mask(s)))))


def test_workers_go_on_any_contract_own_or_others():
    rules, s = fresh(4, 9)
    on_board = [c for c in range(18) if s.owner[c] >= 0]
    assert {a for a in legal(rules, s) if a < 18} == set(on_board)
    other = next(c for c in on_board if s.owner[c] != s.actor)
    p = s.actor
    act(rules, s, codec.PLACE + other)
    assert s.workers[other][p] == 1 and s.to_place[p] == 1


def test_placing_goes_round_one_worker_at_a_time_from_the_first_player_and_pass_ends_it():
    rules, s = fresh(3, 10)
    order = []
    c = next(c for c in range(18) if s.owner[c] >= 0)
    while s.phase == PLACE:
        order.append(s.actor)
        if s.actor == s.first:
            act(rules, s, codec.PASS)
        elif s.to_place[s.actor]:
            act(rules, s, codec.PLACE + c)
        else:
            act(rules, s, codec.PASS)
    f = s.first
    assert order[:3] == [f, (f + 1) % 3, (f + 2) % 3]
    assert order.count(f) == 1  # passing ended the first player's placing


def test_vacation_pay_is_20k_per_unplaced_worker():
    rules, s = fresh(4, 11)
    cash = s.cash[:]
    p = s.actor
    act(rules, s, codec.PLACE + contracts_of(s, p)[0])
    pass_placing(rules, s)
    assert s.phase == VOTE
    for q in range(4):
        unplaced = 1 if q == p else 2
        assert s.cash[q] == cash[q] - 2 * unplaced


def test_vacation_pay_takes_only_what_there_is_and_shows_the_cash_is_zero():
    rules, s = fresh(4, 12)
    p = s.actor
    s.cash[p] = 1  # $10k, less than the $40k due
    s.pub_cash[p] = 1
    s.ledger[-4:] = [e if e[1] != p else (0, p, 1, 0) for e in s.ledger[-4:]]
    pass_placing(rules, s)
    assert s.cash[p] == 0
    assert (1, p, 4, 1) in s.ledger
    assert s.pub_cash[p] == 0 and s.revealed[p] == 0


def test_gifts_of_10k_50k_100k_move_money_and_bind_nobody():
    rules, s = fresh(4, 13, record_events=True)
    p = s.actor
    s.cash[p] = 12
    gifts = {a for a in legal(rules, s) if codec.ACTIONS.decode(a)[0] == "gift"}
    assert len(gifts) == 3 * 3  # three amounts to each of three opponents
    q = (p + 2) % 4
    before = s.cash[q]
    act(rules, s, codec.ACTIONS.encode("gift", amount=2, seat=2))  # $100k to the seat two after me
    assert s.cash[p] == 2 and s.cash[q] == before + 10
    assert s.gifts_left[p] == 0
    pass_placing(rules, s)
    # the receiver votes as it likes: a gift does not bind
    while s.actor != q:
        act(rules, s, codec.OUTSIDER)
    votes = {codec.VOTE + k for k in range(4)} | {codec.OUTSIDER}
    assert votes <= legal(rules, s)


def test_gifts_are_limited_by_cash_and_by_max_gifts():
    rules, s = fresh(4, 14, max_gifts=2)
    p = s.actor
    s.cash[p] = 5
    gifts = {codec.ACTIONS.decode(a)[1]["amount"] for a in legal(rules, s) if codec.ACTIONS.decode(a)[0] == "gift"}
    assert gifts == {0, 1}  # $10k and $50k, not $100k
    s.cash[p] = 10
    rules0, s0 = fresh(4, 14, max_gifts=0)
    assert not any(codec.ACTIONS.decode(a)[0] == "gift" for a in legal(rules0, s0))


def test_first_player_card_stays_by_default_and_passes_left_with_the_option():
    rules, s = fresh(4, 15)
    first = s.first
    finish_turn(rules, s)
    assert s.first == first
    rules, s = fresh(4, 15, first_player_passes=True)
    first = s.first
    finish_turn(rules, s)
    assert s.first == (first + 1) % 4


@pytest.mark.parametrize("n", [3, 7])
def test_money_is_whole_units_of_10k(n):
    rules, s = fresh(n, 16)
    rng = np.random.default_rng(0)
    while s.phase != OVER:
        rules.apply(s, int(rng.choice(np.flatnonzero(rules.legal_mask(s)))))
        assert all(isinstance(c, int) for c in s.cash)
