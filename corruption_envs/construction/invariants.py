"""check_invariants: what must hold in every state of Construction & Corruption."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .state import CARDS, INCOME, OVER, PAY, PAYMENT, PLACE, VOTE, State
from .tables import CARD_COUNTS, MAX_CONTRACTS, NUM_CONTRACTS, NUM_TURNS, PLAYER_WORKERS

if TYPE_CHECKING:
    from .rules import ConstructionRules


def check_invariants(rules: "ConstructionRules", s: State) -> None:
    n = s.n
    # 18 contracts, each in exactly one place: the stack or a player's zone
    assert len(s.stack) == len(set(s.stack)), f"a contract is twice in the stack {s.stack}"
    on_board = [c for c in range(NUM_CONTRACTS) if s.owner[c] >= 0]
    assert sorted(s.stack + on_board) == list(range(NUM_CONTRACTS)), "contracts not all in one place"
    assert 0 <= s.stack_hidden <= len(s.stack), "unseen part of the stack out of range"
    for p in range(n):
        assert s.contracts_of(p) <= MAX_CONTRACTS, f"player_{p} holds more than {MAX_CONTRACTS} contracts"
    # Corruption tokens only on contracts in play, never negative
    for c in range(NUM_CONTRACTS):
        assert s.corruption[c] >= 0, f"contract {c} has negative corruption"
        if s.owner[c] < 0:
            assert s.corruption[c] == 0 and sum(s.workers[c]) == 0 and not s.city[c] \
                and not s.festival[c], f"contract {c} in the stack carries tokens or workers"
    # 45 investigation cards, each in exactly one place
    for t in range(8):
        held = sum(s.hand[p][t] for p in range(n))
        assert held >= 0 and min(s.hand[p][t] for p in range(n)) >= 0, "negative hand count"
        total = held + s.deck.count(t) + s.discard[t]
        assert total == CARD_COUNTS[t], f"card type {t}: {total} copies instead of {CARD_COUNTS[t]}"
        for o in range(n):
            for q in range(n):
                assert 0 <= s.known[o][q][t] <= s.hand[q][t], \
                    f"player_{o} 'knows' more of card {t} in player_{q}'s hand than there is"
    # money: never negative, and exactly income minus payments (gifts only move it)
    assert min(s.cash) >= 0, f"negative cash {s.cash}"
    flow = 0
    for kind, a, b, c in s.ledger:
        if kind == INCOME:
            flow += b
        elif kind == PAYMENT:
            flow -= c
    assert sum(s.cash) == flow, f"money not conserved: cash {sum(s.cash)} vs ledger {flow}"
    # workers conserved: each player's workers of the year are on contracts or still to place
    if s.phase in (PLACE, VOTE, CARDS, PAY) or s.phase == 2:
        for p in range(n):
            placed = sum(s.workers[c][p] for c in range(NUM_CONTRACTS))
            own = s.contracts_of(p)
            assert placed >= own, f"player_{p} left one of their own contracts without a worker"
            assert placed + s.to_place[p] == max(PLAYER_WORKERS[s.turn], own), \
                f"player_{p}'s workers not conserved: {placed} placed + {s.to_place[p]} left"
            assert s.to_place[p] >= 0
        assert sum(s.city) <= 3 + 2 * 3, "more city workers than the city and Big Papa give"
    # whose turn
    if s.phase == OVER:
        assert s.actor == -1 and s.turn == NUM_TURNS
    else:
        assert 0 <= s.actor < n and s.turn < NUM_TURNS, "no player to act in a running game"
    if s.phase == VOTE:
        assert s.votes[s.actor] == -1, "a player votes twice"
    if s.phase == PAY:
        assert s.payments_left and s.payments_left[0] == s.actor and s.logos[s.actor] > 0
    assert all(k >= 0 for k in s.keys) and sum(s.keys) <= s.turn + 1, "more Keys than elections"
