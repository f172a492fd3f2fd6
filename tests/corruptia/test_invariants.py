"""The invariant check the fuzz runs after every step catches a wrong bill slot, however small the error."""
from __future__ import annotations

import numpy as np
import pytest

from corruption_envs.corruptia.invariants import check_invariants
from corruption_envs.corruptia.slots import S_NEIGHBOURS, S_OFFICIALS, S_ROW

from .helpers import game


def mid_game(seed: int = 4):
    rules, s = game(4, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(120):
        rules.apply(s, int(rng.choice(np.flatnonzero(rules.legal_mask(s)))))
    check_invariants(rules, s)
    return rules, s


@pytest.mark.parametrize("column,change", [
    (S_OFFICIALS, 1e-6),  # a rounding-sized error: the exact compare sees it (np.allclose would not)
    (S_ROW, 0.5),
    (S_NEIGHBOURS, 1.0),
])
def test_a_slot_that_differs_from_the_table_fails_the_check(column, change):
    rules, s = mid_game()
    slot = len(s.placed) // 2
    s.slots[slot, column] = abs(s.slots[slot, column] - change)
    with pytest.raises(AssertionError, match=f"slot {slot} does not show the bill"):
        check_invariants(rules, s)


def test_a_bill_moved_off_every_neighbour_fails_the_check():
    rules, s = mid_game()
    lonely = max(range(len(rules.grid.coords)), key=lambda c: rules.grid.distance[c])  # the far corner
    s.cell_card[lonely], s.cell_card[s.placed[-1]] = s.cell_card[s.placed[-1]], -1
    s.placed[-1] = lonely
    with pytest.raises(AssertionError):
        check_invariants(rules, s)
