"""check_invariants: what must hold in every state of Construction & Corruption."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .state import INCOME, OVER, PAY, PAYMENT, VOTE, State
from .tables import (
    CARD_COUNTS, CITY_WORKER_PIECES, FESTIVAL_PIECES, MAX_CONTRACTS, NUM_CONTRACTS, NUM_TURNS, PLAYER_WORKERS,
)

if TYPE_CHECKING:
    from .rules import ConstructionPlay


def check_invariants(rules: "ConstructionPlay", s: State) -> None:
    n = s.n
    # 18 contracts, each in exactly one place: the stack or a player's zone
    assert len(s.stack) == len(set(s.stack)), f"a contract is twice in the stack {s.stack}"
    on_board = [c for c in range(NUM_CONTRACTS) if s.owner[c] >= 0]
    assert sorted(s.stack + on_board) == list(range(NUM_CONTRACTS)), "contracts not all in one place"
    assert 0 <= s.stack_hidden <= len(s.stack), "unseen part of the stack out of range"
    own = [0] * n
    for c in on_board:
        own[s.owner[c]] += 1
    assert max(own) <= MAX_CONTRACTS, f"a player holds more than {MAX_CONTRACTS} contracts: {own}"
    # Corruption tokens only on contracts in play, never negative
    assert min(s.corruption) >= 0, f"negative corruption {s.corruption}"
    for c in s.stack:
        assert s.corruption[c] == 0 and not any(s.workers[c]) and not s.city[c] \
            and not s.festival[c], f"contract {c} in the stack carries tokens or workers"
    # 45 investigation cards, each in exactly one place
    held = [sum(col) for col in zip(*s.hand)]
    for t in s.deck:
        held[t] += 1
    for t in range(8):
        total = held[t] + s.discard[t]
        assert total == CARD_COUNTS[t], f"card type {t}: {total} copies instead of {CARD_COUNTS[t]}"
    assert min(min(h) for h in s.hand) >= 0, "negative hand count"
    for o, row in enumerate(s.known):
        if any(map(any, row)):
            for q, known in enumerate(row):
                assert min(known) >= 0 and all(k <= h for k, h in zip(known, s.hand[q])), \
                    f"player_{o} 'knows' more cards in player_{q}'s hand than there are"
    # money: never negative, and exactly income minus payments (gifts only move it)
    assert min(s.cash) >= 0, f"negative cash {s.cash}"
    flow = sum([e[2] for e in s.ledger if e[0] == INCOME]) - sum([e[3] for e in s.ledger if e[0] == PAYMENT])
    assert sum(s.cash) == flow, f"money not conserved: cash {sum(s.cash)} vs ledger {flow}"
    # workers conserved: each player's workers of the year are on contracts or still to place
    if s.phase != OVER:
        for c in on_board:
            assert s.workers[c][s.owner[c]] >= 1, f"contract {c} lost its owner's worker"
        on_contracts = [sum(col) for col in zip(*s.workers)]
        for p in range(n):
            placed = on_contracts[p]
            assert placed + s.to_place[p] == max(PLAYER_WORKERS[s.turn], own[p]), \
                f"player_{p}'s workers not conserved: {placed} placed + {s.to_place[p]} left"
            assert s.to_place[p] >= 0
        assert sum(s.city) + s.city_left <= CITY_WORKER_PIECES, "more city workers than the box holds"
        assert sum(s.festival) + s.fest_left <= FESTIVAL_PIECES, "more festivals than the box holds"
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
