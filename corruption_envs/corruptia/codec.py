"""The flat Discrete action layout of Corruptia: one layout (2,154 actions) for 3, 4 and 5 players.

    [0, 90)                 card c: the bill to propose / to discard / to give up / to take, by phase
    [90, 90 + C)            cell i of the 5-player grid (C = 2,028) at every count: where the proposed bill goes
    next 7                  worker: a Public Official from the neighbour in direction 0..5, or a Crony
    next 1                  pass (negotiation)
    next 8                  blackmail the player `k` seats to my left (k = 1..4) demanding YES / NO
    next 16                 offer the player k seats to my left a Crony / a Token if they vote YES / NO
    next 3                  vote YES / NO / ABSENT
    next 1                  keep my hand (an absent player declines the swap)

Seats in actions are relative to the actor, like the observation, so a policy can sit in any seat.
The board is the 5-player grid at every count, so one policy serves every count: with fewer players no
bill ever gets beyond radius(n) of the triangle (geometry.py), so the outer cells are simply never legal.
"""
from __future__ import annotations

from .geometry import DIRECTION_NAMES, Grid, grid_for
from .state import ITEM_NAMES, VOTE_NAMES
from .tables import NUM_CARDS, card_label

MAX_PLAYERS = 5
MAX_OFFSET = MAX_PLAYERS - 1
NUM_WORKER_ACTIONS = 7
CRONY_WORKER = 6
BOARD = grid_for(MAX_PLAYERS)  # the cells of the action layout and of the rules' board, at every count


class Codec:
    """Action index <-> meaning for the cells of `grid`."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.card0 = 0
        self.cell0 = NUM_CARDS
        self.worker0 = self.cell0 + grid.size
        self.pass_action = self.worker0 + NUM_WORKER_ACTIONS
        self.blackmail0 = self.pass_action + 1
        self.offer0 = self.blackmail0 + MAX_OFFSET * 2
        self.vote0 = self.offer0 + MAX_OFFSET * 4
        self.keep_hand = self.vote0 + 3
        self.num_actions = self.keep_hand + 1

    # --- encode ---------------------------------------------------------------------------------
    def blackmail(self, offset: int, demand: int) -> int:
        return self.blackmail0 + (offset - 1) * 2 + demand

    def offer(self, offset: int, item: int, vote: int) -> int:
        return self.offer0 + ((offset - 1) * 2 + item) * 2 + vote

    # --- decode ---------------------------------------------------------------------------------
    def decode(self, a: int) -> tuple:
        """(kind, *args): ('card', c) ('cell', i) ('worker', w) ('pass',) ('blackmail', offset, demand)
        ('offer', offset, item, vote) ('vote', v) ('keep',)."""
        if a < self.cell0:
            return ("card", a)
        if a < self.worker0:
            return ("cell", a - self.cell0)
        if a < self.pass_action:
            return ("worker", a - self.worker0)
        if a == self.pass_action:
            return ("pass",)
        if a < self.offer0:
            k, demand = divmod(a - self.blackmail0, 2)
            return ("blackmail", k + 1, demand)
        if a < self.vote0:
            x = a - self.offer0
            return ("offer", x // 4 + 1, (x // 2) % 2, x % 2)
        if a < self.keep_hand:
            return ("vote", a - self.vote0)
        if a == self.keep_hand:
            return ("keep",)
        raise ValueError(f"action {a} is out of range [0, {self.num_actions})")

    def name(self, a: int) -> str:
        """The name of an action without a state (seats relative to the actor)."""
        kind, *args = self.decode(a)
        if kind == "card":
            return f"card: {card_label(args[0])}"
        if kind == "cell":
            r, c = self.grid.coords[args[0]]
            return f"cell ({r}, {c})"
        if kind == "worker":
            w = args[0]
            return "worker: a Crony from my reserve" if w == CRONY_WORKER else (
                f"worker: a Public Official from the {DIRECTION_NAMES[w]} bill")
        if kind == "pass":
            return "pass (end my negotiating)"
        if kind == "blackmail":
            return f"blackmail the player {args[0]} seat(s) to my left: vote {VOTE_NAMES[args[1]]}"
        if kind == "offer":
            k, item, vote = args
            return f"offer the player {k} seat(s) to my left a {ITEM_NAMES[item]} to vote {VOTE_NAMES[vote]}"
        if kind == "vote":
            return f"vote {VOTE_NAMES[args[0]]}"
        return "keep my hand (no swap)"
