"""Consistency checks of a Corruption state, run after every step by the fuzz tests.

Written as one pass over plain lists: it runs after every step of thousands of games.
"""
from __future__ import annotations

from .rules import CorruptionPlay
from .state import (
    ASSIGNED,
    CONTRACT,
    CORRUPTION,
    DECK,
    HAND,
    LOST,
    OVER,
    SWISS,
    SWISS_STEP,
    TABLE,
    USED,
    WON,
    CorruptionState,
)
from .tables import (
    CARDS_PER_ROUND,
    CONTRACT_VALUE,
    IS_BRIBE,
    NUM_BODIES,
    NUM_CONTRACTS,
    NUM_ROUNDS,
    TOTAL_CONTRACT_VALUE,
)

BRIBE_T = tuple(bool(b) for b in IS_BRIBE)
VALUE_T = tuple(int(v) for v in CONTRACT_VALUE)


def check_invariants(rules: CorruptionPlay, s: CorruptionState) -> None:
    """Raise AssertionError naming the first broken invariant."""
    n = rules.num_players
    phase = s.phase
    running = phase != OVER
    cloc, cbody, cowner = s.cloc.tolist(), s.cbody.tolist(), s.cowner.tolist()

    # each contract is in exactly one place: deck, table (under one body), won by one player, or lost
    won_value, won_count = [0] * n, [0] * n
    per_body = [0] * NUM_BODIES
    placed_value = 0
    for c in range(NUM_CONTRACTS):
        where_c = cloc[c]
        assert DECK <= where_c <= LOST, f"contract {c} has no valid place"
        placed_value += VALUE_T[c]
        assert (cowner[c] >= 0) == (where_c == WON), f"contract {c}: won without a winner or vice versa"
        assert (cbody[c] >= 0) == (where_c != DECK), f"contract {c}: dealt without a body"
        if where_c == WON:
            won_value[cowner[c]] += VALUE_T[c]
            won_count[cowner[c]] += 1
        elif where_c == TABLE:
            per_body[cbody[c]] += 1
    assert placed_value == TOTAL_CONTRACT_VALUE, "contract values are not conserved"
    deck = s.deck
    assert len(set(deck)) == len(deck), "a contract is twice in the deck"
    assert sorted(deck) == [c for c in range(NUM_CONTRACTS) if cloc[c] == DECK], "deck disagrees"
    assert won_value == s.won_value.tolist(), "a player's total value disagrees with contracts won"
    assert won_count == s.won_count.tolist(), "a player's contract count disagrees with contracts won"
    if running:
        assert 0 <= s.round < NUM_ROUNDS, "round out of range"
        assert len(deck) == NUM_CONTRACTS - 6 * (s.round + 1), "six contracts are not dealt a round"
        assert min(per_body) >= 2, "a body has fewer than two contracts"
    else:
        assert per_body == [0] * NUM_BODIES and not deck, "contracts left on the table at the end"

    # every card of every player is in exactly one place, and a legal one
    between_rounds = phase == OVER or (phase == CORRUPTION and s.turn == 0)
    total_placed = 0
    for q in range(n):
        loc, where, public = s.loc[q].tolist(), s.where[q].tolist(), s.public[q].tolist()
        hidden = [0] * (NUM_CONTRACTS + NUM_BODIES)
        on_table = on_contracts = faceup = 0
        for card in range(10):
            place, at = loc[card], where[card]
            if place == HAND or place == USED:  # (most cards: the cheap checks only)
                assert at < 0, f"player_{q}'s card {card} is off the table but has a place index"
                assert place == HAND or not BRIBE_T[card], "a bribe left the game (they always come back)"
                continue
            assert CONTRACT <= place <= ASSIGNED, f"player_{q}'s card {card} has no valid place"
            assert at >= 0, f"player_{q}'s card {card} is on the table without a place index"
            assert not between_rounds, f"player_{q}'s card {card} stayed on the table between rounds"
            if place == SWISS:
                assert BRIBE_T[card], "a character is on a Swiss account"
                assert at < NUM_BODIES, "a Swiss card is on no body"
                assert phase in (CORRUPTION, SWISS_STEP), "a Swiss bribe is unassigned after step 1"
                on_table += 1
                if public[card]:
                    assert phase != CORRUPTION, "a Swiss card is face-up in Phase II"
                else:
                    assert phase == CORRUPTION, "a card stayed hidden in Phase III"
                    hidden[NUM_CONTRACTS + at] += 1
            else:
                assert cloc[at] == TABLE, f"player_{q}'s card {card} is on a contract off the table"
                if place == ASSIGNED:
                    assert BRIBE_T[card], "a character is on a Swiss account"
                    assert phase not in (CORRUPTION, OVER), "a Swiss bribe is assigned outside Phase III"
                else:
                    on_table += 1
                    on_contracts += 1
                    if public[card]:
                        faceup += 1
                    else:
                        assert phase == CORRUPTION, "a card stayed hidden in Phase III"
                        hidden[at] += 1
        # Reporters are played lowest id first, so id 7 is never in hand while id 8 is out
        assert not (loc[7] == HAND and loc[8] != HAND), "Reporter 8 played before Reporter 7"
        if phase == CORRUPTION:
            assert on_table == s.placed[q], f"player_{q}'s placed count disagrees with the table"
            assert on_contracts == s.on_contracts[q], f"player_{q}'s on-contract count is wrong"
            assert on_table <= CARDS_PER_ROUND, f"player_{q} placed more than six cards"
            assert faceup == min(on_contracts, s.round + 1), \
                f"player_{q}'s face-up cards are not their first r on contracts"
            assert hidden == s.hidden[q], f"player_{q}'s face-down counter disagrees with the table"
            total_placed += on_table
    if phase == CORRUPTION:
        assert total_placed == s.turn, "turn counter disagrees with the cards placed"
        assert s.to_act == (s.leader + s.turn) % n, "Phase II is not clockwise from the leader"
    elif running:
        assert s.to_act == s.queue[s.qpos][0], "the Phase III decision is not its card's owner's"
    if running:
        assert rules.legal_mask(s).any(), "the mask is all zero while the game runs"
