"""The mutable state of one game of Construction & Corruption: its declared fields (copied by the core)."""
from __future__ import annotations

import numpy as np

from ..core.events import EventLog
from ..core.state import DEEP, LIST, NESTED, SHARED, DeclaredState

# phases in which a player decides (OVER: the game has ended)
PLACE, VOTE, MAYOR, CARDS, PAY, OVER = range(6)
PHASE_NAMES = ("Corruption", "Election", "Mayor", "Investigation", "Investigation payment", "Fin")

# money ledger entries (kind, a, b, c): the public/private money history replayed by resample_hidden
INCOME, PAYMENT, GIFT, REVEAL = range(4)
# (INCOME, p, amount, 0), (PAYMENT, p, due, paid), (GIFT, giver, receiver, amount), (REVEAL, p, cash, 0)


class State(DeclaredState):
    """Everything on the table and in the players' hands; lists indexed by seat or contract id."""

    FIELDS = {
        **dict.fromkeys(("n", "turn", "phase", "actor", "first", "stack_hidden", "mayor", "city_left",
                         "fest_left", "cut_used", "passes", "investigated", "last_mayor"), SHARED),
        **dict.fromkeys(("stack", "owner", "corruption", "city", "festival", "cash", "keys", "to_place",
                         "passed", "gifts_left", "votes", "deck", "discard", "merde", "red", "logos",
                         "paid_percent", "last_votes", "last_ballots", "ledger", "revealed", "pub_cash",
                         "payments_left"), LIST),
        **dict.fromkeys(("workers", "hand", "gift_cnt", "gift_amt"), NESTED),
        "known": DEEP,
    }
    __slots__ = tuple(FIELDS)

    def __init__(self, rng: np.random.Generator, n: int) -> None:
        self.rng = rng
        self.events: EventLog | None = None
        self.n = n
        self.turn = 0  # index into YEARS; NUM_TURNS once the game is over
        self.phase = PLACE
        self.actor = 0
        self.first = 0  # holder of the First Player card
        self.stack: list[int] = []  # contract ids, top first
        self.stack_hidden = 0  # the top `stack_hidden` contracts are in their unseen shuffled order
        self.owner = [-1] * 18  # -1: in the stack
        self.corruption = [0] * 18
        self.workers = [[0] * n for _ in range(18)]  # workers[c][p]
        self.city = [0] * 18
        self.festival = [0] * 18
        self.cash = [0] * n
        self.keys = [0] * n
        self.to_place = [0] * n  # workers still to place this Corruption phase (unplaced once passed)
        self.passed = [False] * n
        self.gifts_left = [0] * n
        self.votes = [-1] * n  # -1 not yet voted, n the Outsider, else a seat
        self.mayor = -1
        self.city_left = 0
        self.fest_left = 0
        self.hand = [[0] * 8 for _ in range(n)]  # investigation cards per type
        self.deck: list[int] = []  # card types, top first
        self.discard = [0] * 8
        # known[o][q][t]: copies of card type t that seat o knows for sure are in q's hand
        self.known = [[[0] * 8 for _ in range(n)] for _ in range(n)]
        self.cut_used = False
        self.merde = [False] * n  # Deep Merde: black dice for the rest of the game
        self.red = [False] * n  # Red Alert: red dice for the rest of the game
        self.logos = [0] * n  # logos rolled in this turn's investigation
        self.paid_percent = [False] * n
        self.passes = 0  # investigation card passes in a row
        self.investigated = False  # an investigation happened this turn
        self.last_votes = [0] * (n + 1)  # votes per seat and the Outsider at the last election
        self.last_ballots = [-1] * n  # who each seat voted for at the last election (-1 none)
        self.last_mayor = -1
        self.ledger: list[tuple[int, int, int, int]] = []
        # what the table knows of each cash: the last revealed amount (-1 never revealed) and the
        # public cash `pub_cash` (revealed amount + public income - public payments since)
        self.revealed = [0] * n  # everyone starts at $0, which everyone knows
        self.pub_cash = [0] * n
        # secret gifts since q's last reveal: gift_cnt[q][o] / gift_amt[q][o] = gifts q received from o
        # (count, amount) and, at index n + o, gifts q gave to o
        self.gift_cnt = [[0] * (2 * n) for _ in range(n)]
        self.gift_amt = [[0] * (2 * n) for _ in range(n)]
        self.payments_left: list[int] = []  # seats still to choose how to pay, in order

    def contracts_of(self, p: int) -> int:
        return self.owner.count(p)
