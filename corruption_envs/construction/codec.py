"""The flat Discrete action layout of Construction & Corruption (fixed for every player count).

Seats in actions are relative to the acting player (offset 0 = me, k = the k-th seat after me), so a
policy reads the same action the same way from any seat. Blocks (`ACTIONS`), in order:

| actions   | block: meaning                                                   | phase            |
|-----------|------------------------------------------------------------------|------------------|
| 0..17     | place one of my workers on contract c                            | Corruption       |
| 18        | pass (stop placing / mayor done / play no card)                  | several          |
| 19..36    | give $10k/$50k/$100k (amount-major) to the seat at offset 1..6    | Corruption, Election (*) |
| 37..43    | vote for the seat at offset 0..6 (0 = myself)                    | Election         |
| 44        | vote for the Outsider mayor                                      | Election         |
| 45..62    | (mayor) put a city worker on contract c                          | Mayor            |
| 63..80    | (mayor) put a festival arch on contract c                        | Mayor            |
| 81        | (mayor) play Big Papa                                            | Mayor            |
| 82..87    | Cut & Paste against offset 1..6                                  | Investigation    |
| 88..93    | Deep Merde against offset 1..6                                   | Investigation    |
| 94        | La Greve                                                         | Investigation    |
| 95..100   | Red Alert against offset 1..6                                    | Investigation    |
| 101..115  | Revenue Quebec against an offset pair (a<b) from PAIRS           | Investigation    |
| 116..133  | Spic 'n Span on contract c                                       | Investigation    |
| 134..148  | Stooleur/Snitch against an offset pair (a<b) from PAIRS          | Investigation    |
| 149       | pay the year's amount per logo                                   | Investigation pay|
| 150       | pay 10% of my cash per logo (reveals my cash)                    | Investigation pay|

(*) and in the Investigation card round with config investigation_gifts=True.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ..core.actions import ActionLayout
from .tables import CARD_NAMES, GIFT_AMOUNTS, MAX_PLAYERS, NUM_CONTRACTS

C = NUM_CONTRACTS
OFFSETS = range(1, MAX_PLAYERS)  # opponent offsets 1..6
# unordered pairs of opponent offsets, e.g. (1, 2), (1, 3), ... (5, 6)
PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(OFFSETS, 2))


def seat_name(offset: int, state: Any) -> str:
    """'myself', 'player_k' in a live game (offsets beyond the table stay 'seat +k'), else 'seat +k'."""
    if offset == 0:
        return "myself"
    if state is not None and state.actor >= 0 and offset < state.n:
        return f"player_{(state.actor + offset) % state.n}"
    return f"seat +{offset}"


def _against(card: int):
    """The label of a card played against one seat."""
    return lambda state, seat: f"play {CARD_NAMES[card]} against {seat_name(seat, state)}"


def _against_pair(card: int):
    """The label of a card played against two seats."""
    return lambda state, pair: (f"play {CARD_NAMES[card]} against {seat_name(pair[0], state)} and "
                                f"{seat_name(pair[1], state)}")


ACTIONS = ActionLayout()
PLACE = ACTIONS.add("place", lambda state, contract: f"place a worker on contract {contract}", contract=C).start
PASS = ACTIONS.add("pass", "pass").start
GIFT = ACTIONS.add(
    "gift", lambda state, amount, seat: f"give ${GIFT_AMOUNTS[amount] * 10}k to {seat_name(seat, state)}",
    amount=len(GIFT_AMOUNTS), seat=OFFSETS,
).start
VOTE = ACTIONS.add("vote", lambda state, seat: f"vote for {seat_name(seat, state)}", seat=MAX_PLAYERS).start
OUTSIDER = ACTIONS.add("outsider", "vote for the Outsider mayor").start
CITY = ACTIONS.add("city", lambda state, contract: f"put a city worker on contract {contract}", contract=C).start
FESTIVAL = ACTIONS.add("festival", lambda state, contract: f"put a festival on contract {contract}", contract=C).start
BIG_PAPA = ACTIONS.add("big_papa", f"play {CARD_NAMES[0]} (one more festival, two more city workers)").start
CUT_AND_PASTE = ACTIONS.add("cut_and_paste", _against(1), seat=OFFSETS).start
DEEP_MERDE = ACTIONS.add("deep_merde", _against(2), seat=OFFSETS).start
LA_GREVE = ACTIONS.add("la_greve", f"play {CARD_NAMES[3]} (does nothing)").start
RED_ALERT = ACTIONS.add("red_alert", _against(4), seat=OFFSETS).start
REVENUE_QUEBEC = ACTIONS.add("revenue_quebec", _against_pair(5), pair=PAIRS).start
SPIC_N_SPAN = ACTIONS.add(
    "spic_n_span", lambda state, contract: f"play {CARD_NAMES[6]} on contract {contract}", contract=C,
).start
SNITCH = ACTIONS.add("snitch", _against_pair(7), pair=PAIRS).start
PAY_FIXED = ACTIONS.add("pay_fixed", "pay the year's amount per logo").start
PAY_PERCENT = ACTIONS.add("pay_percent", "pay 10% of my cash per logo (reveals my cash)").start
NUM_ACTIONS = ACTIONS.size


def pair_index(a: int, b: int) -> int:
    """The position of the offsets {a, b} in PAIRS (the pair blocks' order)."""
    return PAIRS.index((min(a, b), max(a, b)))
