"""The mutable state of one Corruptia game, with a fast hand-written copy."""
from __future__ import annotations

import numpy as np

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


class CorruptiaState:
    """Everything about one game. Lists of ints for speed; `loc` (where each card is), `known_at` (the
    seat everyone saw take a card from the discard zone, else -1) and `slots` (the bills on the table,
    as observed: observer.py) mirror the lists as numpy arrays for observe()."""

    __slots__ = (
        "rng", "events", "n", "deck", "box", "discard", "hands", "loc", "known_at", "returned",
        "returned_vec",
        "cell_card", "officials", "cronies", "placed", "slots", "values",
        "tokens", "reserve", "held", "president", "round", "turn", "phase", "actor", "die",
        "bill", "cell", "need", "pending", "pending_cronies", "workers", "candidates",
        "passes", "blackmail", "offers", "offered", "votes", "last_votes", "last_result",
        "absent_queue", "given", "played",
    )

    def copy(self) -> "CorruptiaState":
        new = object.__new__(CorruptiaState)
        rng = np.random.default_rng()
        rng.bit_generator.state = self.rng.bit_generator.state
        new.rng = rng
        new.events = None if self.events is None else self.events.copy()
        new.n = self.n
        new.deck = self.deck[:]
        new.box = self.box[:]
        new.discard = self.discard[:]
        new.hands = [h[:] for h in self.hands]
        new.loc = self.loc.copy()
        new.known_at = self.known_at.copy()
        new.returned = self.returned  # fixed at setup, never mutated
        new.returned_vec = self.returned_vec
        new.cell_card = self.cell_card[:]
        new.officials = self.officials[:]
        new.cronies = self.cronies[:]
        new.placed = self.placed[:]
        new.slots = self.slots.copy()
        new.values = self.values[:]
        new.tokens = self.tokens[:]
        new.reserve = self.reserve[:]
        new.held = [h[:] for h in self.held]
        new.president = self.president
        new.round = self.round
        new.turn = self.turn
        new.phase = self.phase
        new.actor = self.actor
        new.die = self.die
        new.bill = self.bill
        new.cell = self.cell
        new.need = self.need[:]
        new.pending = dict(self.pending)
        new.pending_cronies = self.pending_cronies
        new.workers = self.workers
        new.candidates = self.candidates  # immutable tuple, rebuilt not mutated
        new.passes = self.passes
        new.blackmail = self.blackmail[:]
        new.offers = self.offers[:]
        new.offered = [o[:] for o in self.offered]
        new.votes = self.votes[:]
        new.last_votes = self.last_votes[:]
        new.last_result = self.last_result
        new.absent_queue = self.absent_queue[:]
        new.given = self.given
        new.played = self.played[:]
        return new

    @property
    def proposer(self) -> int:
        return (self.president + self.turn) % self.n
