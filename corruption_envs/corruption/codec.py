"""The flat Discrete action layout of Corruption (fixed; documented in docs/rules/corruption.md).

Seats in actions are relative to the actor (0 = me, 1 = the next seat clockwise, ...), like the
observation, so a policy reads and names opponents the same way.

    [  0, 216)  play     play a card of kind k (0..5 bribes, 6 DA, 7 Reporter, 8 Hit Man) on contract c
    [216, 234)  swiss    play bribe b (0..5) face-down on body g's Swiss account
    [234, 258)  assign   Phase III step 1: assign the Swiss bribe on turn to contract c
    [258, 286)  kill     step 2: the Hit Man on turn kills the card of relative seat o in slot s
                         (0 DA, 1 their earlier Reporter on that contract, 2 their later one, 3 Hit Man)
    [286, 328)  remove   step 4: the Reporter on turn removes relative seat o's vertical bribe b
    328         decline  step 4: the Reporter on turn removes nothing (config reporter_may_decline)

Relative seats run to 6 at every count; at n players seats n..6 exist in no game and are named so.
"""
from __future__ import annotations

from typing import Any

from ..core.actions import ActionLayout
from .state import OVER
from .tables import (
    BODIES,
    CONTRACT_NAMES,
    KIND_NAMES,
    MAX_PLAYERS,
    NUM_BODIES,
    NUM_BRIBES,
    NUM_CONTRACTS,
    NUM_KINDS,
)

KILL_SLOTS = 4
KILL_SLOT_NAMES = ("DA", "earlier Reporter", "later Reporter", "Hit Man")


def _live(state: Any) -> bool:
    return state is not None and state.phase != OVER


def seat_name(rel: int, state: Any) -> str:
    """'player_k' in a live game (seats beyond the table named as such), else 'me' / 'seat +rel'."""
    if _live(state):
        n = state.n
        return f"player_{(state.to_act + rel) % n}" if rel < n else f"seat +{rel} (none at {n} players)"
    return "me" if rel == 0 else f"seat +{rel}"


def _play_name(state: Any, kind: int, contract: int) -> str:
    name = f"place {KIND_NAMES[kind]} on {CONTRACT_NAMES[contract]}"
    if _live(state):
        up = state.on_contracts[state.to_act] < state.round + 1
        name += " (face-up)" if up else " (face-down)"
    return name


ACTIONS = ActionLayout()
PLAY = ACTIONS.add("play", _play_name, kind=NUM_KINDS, contract=NUM_CONTRACTS).start
SWISS = ACTIONS.add(
    "swiss", lambda state, bribe, body: f"place {KIND_NAMES[bribe]} face-down on {BODIES[body]}'s Swiss account",
    bribe=NUM_BRIBES, body=NUM_BODIES,
).start
ASSIGN = ACTIONS.add(
    "assign", lambda state, contract: f"assign Swiss bribe to {CONTRACT_NAMES[contract]}", contract=NUM_CONTRACTS,
).start
KILL = ACTIONS.add(
    "kill", lambda state, seat, slot: f"Hit Man kills {seat_name(seat, state)}'s {KILL_SLOT_NAMES[slot]}",
    seat=MAX_PLAYERS, slot=KILL_SLOTS,
).start
REMOVE = ACTIONS.add(
    "remove", lambda state, seat, bribe: f"Reporter removes {seat_name(seat, state)}'s {KIND_NAMES[bribe]}",
    seat=MAX_PLAYERS, bribe=NUM_BRIBES,
).start
DECLINE = ACTIONS.add("decline", "Reporter removes nothing").start
NUM_ACTIONS = ACTIONS.size
