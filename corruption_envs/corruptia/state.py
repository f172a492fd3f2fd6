"""The mutable state of one Corruptia game: its declared fields (copied by the core)."""
from __future__ import annotations

from ..core.state import ARRAY, DICT, LIST, NESTED, SHARED, DeclaredState

# Phases: who decides what next.
BILL, CELL, WORKER, NEGOTIATE, VOTE, SWAP_GIVE, SWAP_TAKE, DISCARD, OVER = range(9)
PHASE_NAMES = (
    "choose a bill", "choose a cell", "choose a worker", "negotiate", "vote",
    "absent: give a card", "absent: take a card", "no proposal: discard", "game over",
)
NUM_PHASES = len(PHASE_NAMES)

# Where a card is (state.loc): seats 0..4 are hands, then these.
IN_DECK, IN_BOX, IN_DISCARD, ON_TABLE, PROPOSED = 5, 6, 7, 8, 9

# Votes (-1 = not cast yet).
YES, NO, ABSENT = 0, 1, 2
VOTE_NAMES = ("YES", "NO", "ABSENT")
# Offer items.
CRONY, TOKEN = 0, 1
ITEM_NAMES = ("Crony", "Citizen Support Token")


class CorruptiaState(DeclaredState):
    """Everything about one game. Lists of ints for speed; `loc` (where each card is), `known_at` (the
    seat everyone saw take a card from the discard zone, else -1) and `slots` (the bills on the table,
    as observed: observer.py) mirror the lists as numpy arrays for observe()."""

    FIELDS = {
        "n": SHARED,
        "returned": SHARED,  # frozenset: the cards shuffled back at setup
        "returned_vec": SHARED,  # read-only array of `returned`, for observe()
        "candidates": SHARED,  # tuple of tuples, rebuilt not mutated
        **dict.fromkeys(("president", "round", "turn", "phase", "actor", "die", "bill", "cell",
                         "pending_cronies", "workers", "passes", "last_result", "given"), SHARED),
        **dict.fromkeys(("deck", "box", "discard", "cell_card", "officials", "cronies", "placed", "values",
                         "tokens", "reserve", "need", "blackmail", "offers", "votes", "last_votes",
                         "absent_queue", "played"), LIST),
        **dict.fromkeys(("hands", "held", "offered"), NESTED),
        **dict.fromkeys(("loc", "known_at", "slots"), ARRAY),
        "pending": DICT,
    }
    __slots__ = tuple(FIELDS)

    @property
    def proposer(self) -> int:
        return (self.president + self.turn) % self.n
