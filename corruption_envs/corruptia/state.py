"""The mutable state of one Corruptia game: its declared fields (copied by the core)."""
from __future__ import annotations

import numpy as np

from ..core.events import EventLog
from ..core.state import ARRAY, DICT, LIST, NESTED, SHARED, DeclaredState
from .tables import NUM_CARDS

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

# Results of the last vote, for the public record.
NO_RESULT, APPROVED, REJECTED, APPROVED_BY_COIN, REJECTED_BY_COIN = range(5)


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

    def __init__(self, rng: np.random.Generator, n: int, cells: int, slots: tuple[int, int],
                 events: EventLog | None) -> None:
        """An empty table for n players on a board of `cells` cells: the rules then set it up."""
        self.rng = rng
        self.events = events
        self.n = n
        self.deck: list[int] = []  # the pile; its top is the end of the list
        self.box: list[int] = []  # removed unseen at setup
        self.discard: list[int] = []  # the face-up discard zone
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.loc = np.full(NUM_CARDS, IN_DECK, np.int8)  # per card: a seat (in its hand) or IN_*
        self.known_at = np.full(NUM_CARDS, -1, np.int8)
        self.returned: frozenset[int] = frozenset()
        self.returned_vec = np.zeros(NUM_CARDS, np.float32)
        self.cell_card = [-1] * cells
        self.officials = [0] * cells
        self.cronies = [0] * cells
        self.placed: list[int] = []  # cells with a bill, in the order placed
        self.slots = np.zeros(slots, np.float32)
        self.values: list[int] = []  # department values of the table
        self.tokens = [0] * n  # rulings: tokens start at 0
        self.reserve = [0] * n
        self.held = [[False] * n for _ in range(n)]  # held[p][q]: p holds q's party's blackmail card
        self.president = 0
        self.round = 0
        self.turn = 0
        self.phase = BILL
        self.actor = 0
        self.die = 0
        # this turn's proposal and negotiation (reset by the rules at every turn)
        self.bill = self.cell = -1
        self.need = [0, 0, 0, 0]
        self.pending: dict[int, int] = {}  # cell -> officials proposed from it
        self.pending_cronies = 0
        self.workers = 0
        self.candidates: tuple = ()
        self.passes = 0
        self.blackmail: list[tuple[int, int] | None] = [None] * n
        self.offers: list[tuple[int, int, int, int]] = []
        self.offered = [[False] * n for _ in range(n)]
        self.votes = [-1] * n
        self.last_votes = [-1] * n
        self.last_result = NO_RESULT
        self.absent_queue: list[int] = []
        self.given = -1
        self.played = [0] * n

    @property
    def proposer(self) -> int:
        return (self.president + self.turn) % self.n
