"""The flat Discrete action layout of Corruptia: one layout (2,154 actions) for 3, 4 and 5 players.

    card       [0, 90)        card c: the bill to propose / to discard / to give up / to take, by phase
    cell       [90, 90 + C)   cell i of the 5-player grid (C = 2,028) at every count: where the proposed bill goes
    worker     next 7         worker: a Public Official from the neighbour in direction 0..5, or a Crony
    pass       next 1         pass (negotiation)
    blackmail  next 8         blackmail the player `offset` seats to my left (1..4) demanding YES / NO
    offer      next 16        offer the player `offset` seats to my left a Crony / a Token if they vote YES / NO
    vote       next 3         vote YES / NO / ABSENT
    keep       next 1         keep my hand (an absent player declines the swap)

Seats in actions are relative to the actor, like the observation, so a policy can sit in any seat; at n
players the offsets n..4 reach nobody and are named so.
The board is the 5-player grid at every count, so one policy serves every count: with fewer players no
bill ever gets beyond radius(n) of the triangle (geometry.py), so the outer cells are simply never legal.
"""
from __future__ import annotations

from typing import Any

from ..core.actions import ActionLayout
from .geometry import DIRECTION_NAMES, grid_for
from .state import BILL, DISCARD, ITEM_NAMES, OVER, SWAP_GIVE, SWAP_TAKE, VOTE_NAMES
from .tables import NUM_CARDS, card_label

MAX_PLAYERS = 5
MAX_OFFSET = MAX_PLAYERS - 1
NUM_WORKER_ACTIONS = 7
CRONY_WORKER = 6
BOARD = grid_for(MAX_PLAYERS)  # the cells of the action layout and of the rules' board, at every count

# What a card action does in each phase.
CARD_VERBS = {BILL: "propose", SWAP_GIVE: "give up", SWAP_TAKE: "take from the discard zone",
              DISCARD: "discard (no bill can be staffed)"}


def _live(state: Any) -> bool:
    return state is not None and state.phase != OVER


def _card_name(state: Any, card: int) -> str:
    if _live(state) and state.phase in CARD_VERBS:
        return f"{CARD_VERBS[state.phase]} {card_label(card)}"
    return f"card: {card_label(card)}"


def _cell_name(state: Any, cell: int) -> str:
    r, c = BOARD.coords[cell]
    return f"cell ({r}, {c})"


def _worker_name(state: Any, worker: int) -> str:
    if worker == CRONY_WORKER:
        return "worker: a Crony from my reserve"
    name = f"worker: a Public Official from the {DIRECTION_NAMES[worker]} bill"
    if _live(state) and state.cell >= 0:
        j = BOARD.neighbours[state.cell][worker]
        if j >= 0 and state.cell_card[j] >= 0:
            name += f" ({card_label(state.cell_card[j])})"
    return name


def _target(state: Any, offset: int) -> str:
    """Who the player `offset` seats to the actor's left is, in a live game."""
    if not _live(state):
        return ""
    n = state.n
    return f" (player_{(state.actor + offset) % n})" if offset < n else f" (nobody at {n} players)"


ACTIONS = ActionLayout()
ACTIONS.add("card", _card_name, card=NUM_CARDS)
ACTIONS.add("cell", _cell_name, cell=BOARD.size)
ACTIONS.add("worker", _worker_name, worker=NUM_WORKER_ACTIONS)
ACTIONS.add("pass", "pass (end my negotiating)")
ACTIONS.add(
    "blackmail",
    lambda state, offset, demand: (f"blackmail the player {offset} seat(s) to my left: vote {VOTE_NAMES[demand]}"
                                   + _target(state, offset)),
    offset=range(1, MAX_OFFSET + 1), demand=2,
)
ACTIONS.add(
    "offer",
    lambda state, offset, item, vote: (f"offer the player {offset} seat(s) to my left a {ITEM_NAMES[item]} "
                                       f"to vote {VOTE_NAMES[vote]}" + _target(state, offset)),
    offset=range(1, MAX_OFFSET + 1), item=2, vote=2,
)
ACTIONS.add("vote", lambda state, vote: f"vote {VOTE_NAMES[vote]}", vote=len(VOTE_NAMES))
ACTIONS.add("keep", "keep my hand (no swap)")
# first index of the blocks the rules and the heuristic do arithmetic on
CELL0, WORKER0, PASS_ACTION, VOTE0, KEEP_HAND = (ACTIONS[b].start for b in ("cell", "worker", "pass", "vote", "keep"))
# (offset, demand) -> action and (offset, item, vote) -> action, for the negotiation mask
BLACKMAIL, OFFER = ACTIONS["blackmail"].indices, ACTIONS["offer"].indices
