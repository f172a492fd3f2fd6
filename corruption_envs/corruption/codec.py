"""The flat Discrete action layout of Corruption (fixed; documented in docs/rules/corruption.md).

Seats in actions are relative to the actor (0 = me, 1 = the next seat clockwise, ...), like the
observation, so a policy reads and names opponents the same way.

    [  0, 216)  PLAY     play a card of kind k (0..5 bribes, 6 DA, 7 Reporter, 8 Hit Man) on contract c:
                         PLAY + k * 24 + c
    [216, 234)  SWISS    play bribe b (0..5) face-down on body g's Swiss account: SWISS + b * 3 + g
    [234, 258)  ASSIGN   Phase III step 1: assign the Swiss bribe on turn to contract c: ASSIGN + c
    [258, 286)  KILL     step 2: the Hit Man on turn kills the card of relative seat o in slot s
                         (0 DA, 1 their earlier Reporter on that contract, 2 their later one, 3 Hit Man):
                         KILL + o * 4 + s
    [286, 328)  REMOVE   step 4: the Reporter on turn removes relative seat o's vertical bribe b:
                         REMOVE + o * 6 + b
    328         DECLINE  step 4: the Reporter on turn removes nothing (config reporter_may_decline)
"""
from __future__ import annotations

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

PLAY = 0
SWISS = PLAY + NUM_KINDS * NUM_CONTRACTS
ASSIGN = SWISS + NUM_BRIBES * NUM_BODIES
KILL = ASSIGN + NUM_CONTRACTS
KILL_SLOTS = 4
KILL_SLOT_NAMES = ("DA", "earlier Reporter", "later Reporter", "Hit Man")
REMOVE = KILL + MAX_PLAYERS * KILL_SLOTS
DECLINE = REMOVE + MAX_PLAYERS * NUM_BRIBES
NUM_ACTIONS = DECLINE + 1


def encode_play(kind: int, contract: int) -> int:
    return PLAY + kind * NUM_CONTRACTS + contract


def encode_swiss(bribe: int, body: int) -> int:
    return SWISS + bribe * NUM_BODIES + body


def encode_assign(contract: int) -> int:
    return ASSIGN + contract


def encode_kill(rel_owner: int, slot: int) -> int:
    return KILL + rel_owner * KILL_SLOTS + slot


def encode_remove(rel_owner: int, bribe: int) -> int:
    return REMOVE + rel_owner * NUM_BRIBES + bribe


def decode(action: int) -> tuple[str, int, int]:
    """(group, a, b): ('play', kind, contract), ('swiss', bribe, body), ('assign', contract, 0),
    ('kill', rel_owner, slot), ('remove', rel_owner, bribe), ('decline', 0, 0)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is out of range [0, {NUM_ACTIONS})")
    if action < SWISS:
        return ("play", *divmod(action - PLAY, NUM_CONTRACTS))
    if action < ASSIGN:
        return ("swiss", *divmod(action - SWISS, NUM_BODIES))
    if action < KILL:
        return ("assign", action - ASSIGN, 0)
    if action < REMOVE:
        return ("kill", *divmod(action - KILL, KILL_SLOTS))
    if action < DECLINE:
        return ("remove", *divmod(action - REMOVE, NUM_BRIBES))
    return ("decline", 0, 0)


def seat_name(rel: int, actor: int | None, n: int | None) -> str:
    """'player_k' when the actor is known, else 'me' / 'seat +rel'."""
    if actor is not None and n is not None:
        return f"player_{(actor + rel) % n}"
    return "me" if rel == 0 else f"seat +{rel}"


def static_name(action: int, actor: int | None = None, n: int | None = None) -> str:
    """The name of `action` from the layout alone (seats named when `actor` and `n` are given)."""
    group, a, b = decode(action)
    if group == "play":
        return f"place {KIND_NAMES[a]} on {CONTRACT_NAMES[b]}"
    if group == "swiss":
        return f"place {KIND_NAMES[a]} face-down on {BODIES[b]}'s Swiss account"
    if group == "assign":
        return f"assign Swiss bribe to {CONTRACT_NAMES[a]}"
    if group == "kill":
        return f"Hit Man kills {seat_name(a, actor, n)}'s {KILL_SLOT_NAMES[b]}"
    if group == "remove":
        return f"Reporter removes {seat_name(a, actor, n)}'s {KIND_NAMES[b]}"
    return "Reporter removes nothing"
