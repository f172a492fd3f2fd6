"""The mutable state of one game of Corruption: its declared fields (copied by the core)."""
from __future__ import annotations

import numpy as np

from ..core.events import EventLog
from ..core.state import ARRAY, DERIVED, LIST, NESTED, SHARED, DeclaredState

# Where a player's card is (state.loc); `state.where` then names the contract or body.
HAND = 0  # in its owner's hand (bribes come back here every round)
CONTRACT = 1  # played vertically on contract `where`
SWISS = 2  # played horizontally on body `where`'s Swiss bank account
ASSIGNED = 3  # a Swiss bribe assigned to contract `where` in Phase III (still horizontal)
USED = 4  # a character gone for good (played, killed, or discarded after acting)

# Where a contract is (state.cloc); `state.cbody` is the body it was dealt under.
DECK = 0
TABLE = 1
WON = 2
LOST = 3

# Phases (state.phase): Phase II, then Phase III's decision steps, then the end.
CORRUPTION = 0
SWISS_STEP = 1  # step 1: owners assign Swiss bribes
HIT_STEP = 2  # step 2: Hit Men pick their victim
REPORTER_STEP = 3  # step 4: Reporters remove a bribe
OVER = 4

# Last Phase III outcome of a contract (state.outcome)
NO_OUTCOME = 0
CANCELLED = 1  # a surviving DA cancelled it: deferred
NO_AWARD = 2  # tie (no bribes counts as a tie at 0): deferred
AWARDED = 3


class CorruptionState(DeclaredState):
    """One game. Per player: arrays (n, 10) over the card ids of tables.CARD_KIND."""

    FIELDS = {
        "n": SHARED, "round": SHARED, "phase": SHARED, "to_act": SHARED, "leader": SHARED,
        "turn": SHARED, "qpos": SHARED,
        "loc": ARRAY, "where": ARRAY, "seq": ARRAY, "public": ARRAY, "placed": ARRAY,
        "on_contracts": ARRAY, "cloc": ARRAY, "cbody": ARRAY, "cowner": ARRAY, "outcome": ARRAY,
        "dealt_round": ARRAY, "won_value": ARRAY, "won_count": ARRAY,
        "deck": LIST, "queue": LIST,
        "obs": ARRAY, "flat": DERIVED, "pmask": ARRAY, "hidden": NESTED,
    }
    __slots__ = tuple(FIELDS)

    def __init__(self, rng: np.random.Generator, n: int) -> None:
        self.rng = rng
        self.events: EventLog | None = None
        self.n = n
        self.round = 0  # 0-based round index (round r+1 of the rulebook)
        self.phase = CORRUPTION
        self.to_act = 0
        self.leader = 0  # first player of this round's Phase II
        self.turn = 0  # plays made this round (Phase II)
        self.loc = np.zeros((n, 10), np.int8)
        self.where = np.full((n, 10), -1, np.int8)
        self.seq = np.full((n, 10), -1, np.int16)  # play order this round; -1 when not played
        self.public = np.zeros((n, 10), bool)  # identity seen by everyone
        self.placed = np.zeros(n, np.int8)  # cards placed this round
        self.on_contracts = np.zeros(n, np.int8)  # of which on contracts (the face-up count)
        self.deck: list[int] = []  # undealt contracts, top = end
        self.cloc = np.zeros(24, np.int8)
        self.cbody = np.full(24, -1, np.int8)
        self.cowner = np.full(24, -1, np.int8)
        self.outcome = np.zeros(24, np.int8)
        self.dealt_round = np.full(24, -1, np.int8)
        self.won_value = np.zeros(n, np.int64)
        self.won_count = np.zeros(n, np.int64)
        # Phase III: the cards (player, card id) of the current step in play order, and the one on turn
        self.queue: list[tuple[int, int]] = []
        self.qpos = 0
        # kept up to date by the rules (the hot path): each seat's observation, and each seat's
        # Phase II mask (which kinds it still holds x the contracts on the table)
        self.obs: np.ndarray | None = None
        self.flat: memoryview | None = None  # obs as one flat float32 buffer: fast scalar writes
        self.pmask: np.ndarray | None = None
        # face-down cards per seat on each contract (0..23) and Swiss account (24..26)
        self.hidden: list[list[int]] = [[0] * 27 for _ in range(n)]

    def derive(self) -> None:
        self.flat = None if self.obs is None else memoryview(self.obs.reshape(-1))
