"""check_invariants holds through random play and names what broke when something does."""
import numpy as np
import pytest

from corruption_envs.construction.invariants import check_invariants
from corruption_envs.construction.state import OVER

from .helpers import contracts_of, fresh


@pytest.mark.parametrize("n", range(3, 8))
def test_invariants_hold_through_seeded_random_games(n):
    for seed in range(4):
        rules, s = fresh(n, seed, max_gifts=2)
        rng = np.random.default_rng(seed)
        while s.phase != OVER:
            check_invariants(rules, s)
            rules.apply(s, int(rng.choice(np.flatnonzero(rules.legal_mask(s)))))
        check_invariants(rules, s)


def broken(change):
    rules, s = fresh(4, 0)
    change(s)
    with pytest.raises(AssertionError) as err:
        check_invariants(rules, s)
    return str(err.value)


def test_a_lost_investigation_card_is_caught():
    assert "copies instead of" in broken(lambda s: s.deck.pop())


def test_a_contract_in_two_places_is_caught():
    assert "contract" in broken(lambda s: s.stack.append(contracts_of(s, 0)[0]))


def test_a_vanished_worker_is_caught():
    def lose(s):
        s.to_place[1] -= 1
    assert "workers not conserved" in broken(lose)


def test_negative_cash_is_caught():
    def overdraw(s):
        s.cash[2] = -1
    assert "negative cash" in broken(overdraw)


def test_money_from_nowhere_is_caught():
    def forge(s):
        s.cash[0] += 5
    assert "money not conserved" in broken(forge)


def test_corruption_on_a_stacked_contract_is_caught():
    def taint(s):
        s.corruption[s.stack[0]] = 2
    assert "carries tokens" in broken(taint)
