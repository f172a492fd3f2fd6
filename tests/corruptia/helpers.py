"""Building and steering Corruptia states for the rule tests."""
from __future__ import annotations

import numpy as np

from corruption_envs.corruptia import CorruptiaRules
from corruption_envs.corruptia.slots import S_DEPT, S_INCOME, S_PROPOSED
from corruption_envs.corruptia.scoring import department_values
from corruption_envs.corruptia.state import BILL, CELL, NEGOTIATE, VOTE, WORKER
from corruption_envs.corruptia.tables import CARDS_PER_DEPT, DEPARTMENTS, DEPT, INCOME, NEED, NUM_DEPTS
from corruption_envs.corruptia.codec import CELL0, PASS_ACTION, VOTE0, WORKER0


def game(n: int = 4, seed: int = 0, **config):
    rules = CorruptiaRules(CorruptiaRules.make_config(num_players=n, **config))
    return rules, rules.new_game(np.random.default_rng(seed))


def legal(rules, s) -> list[int]:
    return np.flatnonzero(rules.legal_mask(s)).tolist()


def card(dept: str, income: int, budget: tuple[int, int, int]) -> int:
    """The card id of the bill of `dept` with that income and budget (rulings' card list)."""
    d = DEPARTMENTS.index(dept)
    for c in range(d * CARDS_PER_DEPT, (d + 1) * CARDS_PER_DEPT):
        if INCOME[c] == income and NEED[c] == (0, budget.count(1), budget.count(2), budget.count(3)):
            return c
    raise ValueError("no such card")


def show_card(slot: np.ndarray, card: int) -> None:
    """Rewrite a bill slot's department and income for another card."""
    slot[S_DEPT:S_DEPT + NUM_DEPTS + 3] = 0
    slot[S_DEPT + DEPT[card]] = 1
    slot[S_INCOME + INCOME[card] - 1] = 1


def swap_cards(rules, s, a: int, b: int) -> None:
    """Exchange the places of cards a and b everywhere (keeps every invariant)."""
    if a == b:
        return
    for lst in [s.deck, s.box, s.discard, *s.hands]:
        for i, c in enumerate(lst):
            if c == a:
                lst[i] = b
            elif c == b:
                lst[i] = a
    for i, c in enumerate(s.cell_card):
        if c in (a, b):
            s.cell_card[i] = b if c == a else a
            show_card(s.slots[s.placed.index(i)], s.cell_card[i])
    s.loc[[a, b]] = s.loc[[b, a]]
    s.known_at[[a, b]] = s.known_at[[b, a]]
    if s.bill in (a, b):
        s.bill = b if s.bill == a else a
        if s.slots[len(s.placed), S_PROPOSED]:
            show_card(s.slots[len(s.placed)], s.bill)
    s.values = department_values(s.cell_card, s.officials, s.cronies, s.placed, rules.neighbours)
    s.candidates = rules._candidates(s)


def give(rules, s, player: int, cards: list[int]) -> None:
    """Make `cards` the first cards of `player`'s hand."""
    for i, c in enumerate(cards):
        swap_cards(rules, s, c, s.hands[player][i])


def set_triangle(rules, s, cards: list[int]) -> None:
    for cell, c in zip(rules.grid.triangle, cards):
        swap_cards(rules, s, c, s.cell_card[cell])


def cell(rules, r: int, c: int) -> int:
    return rules.grid.index[(r, c)]


def cell_action(rules, r: int, c: int) -> int:
    return CELL0 + cell(rules, r, c)


def worker_from(rules, s, r: int, c: int) -> int:
    """The worker action taking an official from the bill at (r, c) for the proposed cell."""
    d = rules.neighbours[s.cell].index(cell(rules, r, c))
    return WORKER0 + d


def propose(rules, s, bill: int | None = None, at: tuple[int, int] | None = None, workers=None):
    """Make the proposer's proposal: given parts, the first legal choice for the rest."""
    assert s.phase == BILL
    rules.apply(s, bill if bill is not None else legal(rules, s)[0])
    assert s.phase == CELL
    rules.apply(s, cell_action(rules, *at) if at else legal(rules, s)[0])
    for w in workers or []:
        rules.apply(s, w)
    while s.phase == WORKER:
        rules.apply(s, legal(rules, s)[0])


def pass_all(rules, s) -> None:
    while s.phase == NEGOTIATE:
        rules.apply(s, PASS_ACTION)


def vote(rules, s, votes: dict[int, int]) -> None:
    """Cast votes by seat (default YES) until the vote resolves."""
    assert s.phase == VOTE
    while s.phase == VOTE:
        rules.apply(s, VOTE0 + votes.get(s.actor, 0))
