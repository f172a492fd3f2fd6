"""Phase 2, proposing a bill: interlocking, budgets, officials from adjacent bills, Cronies as wild cards,
and masks that are exact for every sub-decision (a choice is legal iff the proposal can be completed)."""
import itertools

import numpy as np
import pytest

from corruption_envs.corruptia.codec import CELL0, CRONY_WORKER, WORKER0
from corruption_envs.corruptia.state import BILL, CELL, DISCARD, NEGOTIATE, NO, OVER, WORKER
from corruption_envs.corruptia.tables import INCOME, NEED

from .helpers import (card, cell, cell_action, game, give, legal, pass_all, set_triangle, vote,
                      worker_from)

CULTURE_3 = card("culture", 3, (1, 1, 2))
ECONOMY_1 = card("economy", 1, (1, 1, 2))
DEFENSE_2 = card("defense", 2, (1, 1, 2))
NEW_CULTURE = card("culture", 1, (1, 3, 3))  # the seed's example: two $3 jobs and one $1 job


def culture_example(n=4, seed=0):
    """The seed's example table: culture $3 on top, economy $1 and defense $2 below; the proposer holds a
    culture bill needing two $3 officials and one $1."""
    rules, s = game(n, seed=seed)
    set_triangle(rules, s, [CULTURE_3, ECONOMY_1, DEFENSE_2])
    give(rules, s, s.proposer, [NEW_CULTURE])
    return rules, s


def test_seed_example_officials_from_the_adjacent_culture_and_economy_bills_staff_the_culture_bill():
    rules, s = culture_example()
    p = s.proposer
    rules.apply(s, NEW_CULTURE)
    rules.apply(s, cell_action(rules, 0, -2))  # next to the culture (0, 0) and economy (1, -1) bills
    two_three = worker_from(rules, s, 0, 0)
    one = worker_from(rules, s, 1, -1)
    assert {two_three, one, WORKER0 + CRONY_WORKER} <= set(legal(rules, s))
    for w in (two_three, two_three, one):
        rules.apply(s, w)
    assert s.phase == NEGOTIATE
    # the officials wait in the interview zones of the bills they come from
    assert s.pending == {cell(rules, 0, 0): 2, cell(rules, 1, -1): 1}
    assert s.officials[cell(rules, 0, 0)] == 6
    pass_all(rules, s)
    vote(rules, s, {})
    new = cell(rules, 0, -2)
    assert s.cell_card[new] == NEW_CULTURE
    assert (s.officials[cell(rules, 0, 0)], s.officials[cell(rules, 1, -1)], s.officials[new]) == (4, 5, 3)
    assert s.reserve[p] == 3


def test_seed_example_a_crony_replaces_the_economy_official_and_is_fixed_once_approved():
    rules, s = culture_example()
    p = s.proposer
    rules.apply(s, NEW_CULTURE)
    rules.apply(s, cell_action(rules, 0, -2))
    for w in (worker_from(rules, s, 0, 0), worker_from(rules, s, 0, 0),
              WORKER0 + CRONY_WORKER):
        rules.apply(s, w)
    assert s.reserve[p] == 2 and s.pending_cronies == 1
    pass_all(rules, s)
    vote(rules, s, {})
    new = cell(rules, 0, -2)
    assert (s.officials[new], s.cronies[new], s.reserve[p]) == (2, 1, 2)
    # later proposals can move the two officials of the new bill but never its Crony
    assert s.officials[new] + s.cronies[new] == 3


def test_seed_example_no_majority_returns_the_officials_and_discards_the_bill():
    rules, s = culture_example()
    rules.apply(s, NEW_CULTURE)
    rules.apply(s, cell_action(rules, 0, -2))
    for w in (worker_from(rules, s, 0, 0), worker_from(rules, s, 0, 0), worker_from(rules, s, 1, -1)):
        rules.apply(s, w)
    pass_all(rules, s)
    vote(rules, s, {q: NO for q in range(4)})
    assert s.cell_card[cell(rules, 0, -2)] == -1 and NEW_CULTURE in s.discard
    assert [s.officials[c] for c in rules.grid.triangle] == [6, 6, 6]


def test_seed_example_no_majority_returns_the_crony_to_whoever_offered_it():
    rules, s = culture_example()
    p = s.proposer
    rules.apply(s, NEW_CULTURE)
    rules.apply(s, cell_action(rules, 0, -2))
    for w in (worker_from(rules, s, 0, 0), WORKER0 + CRONY_WORKER,
              WORKER0 + CRONY_WORKER):
        rules.apply(s, w)
    assert s.reserve[p] == 1
    pass_all(rules, s)
    vote(rules, s, {q: NO for q in range(4)})
    assert s.reserve[p] == 3 and sum(s.cronies) == 0


def test_officials_must_match_a_job_of_their_income_expectation():
    rules, s = culture_example()
    rules.apply(s, NEW_CULTURE)
    rules.apply(s, cell_action(rules, 0, -2))
    rules.apply(s, worker_from(rules, s, 1, -1))  # the only $1 job is now taken
    assert worker_from(rules, s, 1, -1) not in legal(rules, s)
    assert worker_from(rules, s, 0, 0) in legal(rules, s)


def test_a_cell_served_only_by_officials_of_the_wrong_income_needs_three_cronies():
    rules, s = culture_example()
    p = s.proposer
    # (2, 2) touches only the defense $2 bill; the culture bill has no $2 job
    rules.apply(s, NEW_CULTURE)
    assert cell_action(rules, 2, 2) in legal(rules, s)
    rules2, s2 = culture_example()
    s2.reserve[p] = 2
    rules2.apply(s2, NEW_CULTURE)
    assert cell_action(rules2, 2, 2) not in legal(rules2, s2)
    assert cell_action(rules2, 0, -2) in legal(rules2, s2)


def test_a_bill_must_be_interlocked_next_to_a_bill_on_the_table():
    rules, s = culture_example()
    rules.apply(s, NEW_CULTURE)
    cells = {rules.grid.coords[a - CELL0] for a in legal(rules, s)}
    touching = {rules.grid.coords[j] for i in rules.grid.triangle for j in rules.neighbours[i]
                if s.cell_card[j] < 0}
    assert cells == touching  # three Cronies in reserve staff anything
    assert (0, 4) not in cells and (2, 0) in cells


def test_no_legal_proposal_discards_a_hand_card_and_skips_the_vote():
    rules, s = game(4, seed=7)
    p = s.proposer
    s.reserve[p] = 0
    for c in rules.grid.triangle:
        s.officials[c] = 0
    rules._start_turn(s)
    assert s.phase == DISCARD and set(legal(rules, s)) == set(s.hands[p])
    c = s.hands[p][0]
    rules.apply(s, c)
    assert c in s.discard and s.proposer == (p + 1) % 4 and s.last_votes == [-1] * 4


# --- mask exactness against a brute force --------------------------------------------------------
def completable(rules, s, c, x, need, reserve, pending) -> bool:
    """Brute force: some choice of officials from the bills next to x and Cronies fills `need`."""
    sources = []
    for j in rules.neighbours[x]:
        if j >= 0 and s.cell_card[j] >= 0:
            sources.append((INCOME[s.cell_card[j]], s.officials[j] - pending.get(j, 0)))
    total = need[1] + need[2] + need[3]
    for take in itertools.product(*[range(min(free, total) + 1) for _, free in sources]):
        per = [0, 0, 0, 0]
        for (inc, _), k in zip(sources, take):
            per[inc] += k
        if all(per[i] <= need[i] for i in (1, 2, 3)) and 0 <= total - sum(take) <= reserve:
            return True
    return False


def states_at(phases, games=6, every=1):
    for g in range(games):
        rules, s = game(3 + g % 3, seed=100 + g)
        rng = np.random.default_rng(g)
        while s.phase != OVER:
            if s.phase in phases:
                yield rules, s
            moves = legal(rules, s)
            rules.apply(s, moves[rng.integers(len(moves))])


def test_a_bill_is_legal_iff_some_cell_can_be_staffed():
    for rules, s in states_at((BILL, DISCARD)):
        p = s.proposer
        empty = {j for i in s.placed for j in rules.neighbours[i] if j >= 0 and s.cell_card[j] < 0}
        mask = rules.legal_mask(s)
        for c in s.hands[p]:
            ok = any(completable(rules, s, c, x, NEED[c], s.reserve[p], {}) for x in empty)
            assert bool(mask[c]) == (ok and s.phase == BILL)
        if s.phase == DISCARD:
            assert not any(completable(rules, s, c, x, NEED[c], s.reserve[p], {})
                           for c in s.hands[p] for x in empty)


def test_a_cell_is_legal_iff_the_bill_can_be_staffed_there():
    for rules, s in states_at((CELL,)):
        mask = rules.legal_mask(s)
        for x in range(rules.grid.size):
            touching = any(j >= 0 and s.cell_card[j] >= 0 for j in rules.neighbours[x])
            ok = s.cell_card[x] < 0 and touching and completable(
                rules, s, s.bill, x, NEED[s.bill], s.reserve[s.proposer], {})
            assert bool(mask[CELL0 + x]) == ok


def test_a_worker_is_legal_iff_the_proposal_can_still_be_completed_after_it():
    checked = 0
    for rules, s in states_at((WORKER,)):
        mask = rules.legal_mask(s)
        p = s.proposer
        for w in range(7):
            if w == CRONY_WORKER:
                ok = s.reserve[p] > 0 and any(
                    completable(rules, s, s.bill, s.cell, need, s.reserve[p] - 1, s.pending)
                    for need in ([0] + [s.need[i] - (i == k) for i in (1, 2, 3)]
                                 for k in (1, 2, 3) if s.need[k] > 0))
            else:
                j = rules.neighbours[s.cell][w]
                ok = j >= 0 and s.cell_card[j] >= 0 and s.officials[j] > s.pending.get(j, 0) \
                    and s.need[INCOME[s.cell_card[j]]] > 0
                if ok:
                    need = s.need[:]
                    need[INCOME[s.cell_card[j]]] -= 1
                    pend = dict(s.pending)
                    pend[j] = pend.get(j, 0) + 1
                    ok = completable(rules, s, s.bill, s.cell, need, s.reserve[p], pend)
            assert bool(mask[WORKER0 + w]) == ok
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("n", [3, 4, 5])
def test_no_bill_ever_leaves_the_grid_whose_radius_is_five_turns_a_player(n):
    rules, _ = game(n)
    assert rules.reach == 5 * n and rules.grid.radius == 25  # the 5-player board at every count
    # every cell within the radius of the triangle is on the board, neighbours included
    far = [x for x in range(rules.grid.size) if rules.grid.distance[x] < rules.reach]
    assert all(j >= 0 for x in far for j in rules.neighbours[x])
    for rules, s in states_at((BILL,), games=3):
        turns_so_far = s.round * s.n + s.turn
        assert all(rules.grid.distance[x] <= turns_so_far for x in s.placed)


def test_one_action_layout_for_every_player_count():
    layouts = [game(n)[0] for n in (3, 4, 5)]
    assert {r.num_actions for r in layouts} == {2154}
    names = [[r.action_name(a) for a in range(r.num_actions)] for r in layouts]
    assert names[0] == names[1] == names[2]  # an index means the same play at every count


def test_officials_on_an_approved_bill_take_its_income_and_can_be_moved_again():
    rules, s = culture_example()
    rules.apply(s, NEW_CULTURE)  # income $1
    rules.apply(s, cell_action(rules, 0, -2))
    for w in (worker_from(rules, s, 0, 0), worker_from(rules, s, 0, 0), worker_from(rules, s, 1, -1)):
        rules.apply(s, w)
    pass_all(rules, s)
    vote(rules, s, {})
    nxt = s.proposer
    wanted = card("environment", 2, (1, 1, 2))
    give(rules, s, nxt, [wanted])
    s.reserve[nxt] = 1
    rules._start_turn(s)
    rules.apply(s, wanted)
    # (-1, -3) touches only the new bill: its three officials now count as $1 officials
    rules.apply(s, cell_action(rules, -1, -3))
    w = worker_from(rules, s, 0, -2)
    rules.apply(s, w)
    rules.apply(s, w)
    assert w not in legal(rules, s)  # both $1 jobs are filled; the $2 job needs the Crony
    assert legal(rules, s) == [WORKER0 + CRONY_WORKER]
