"""The flat Discrete action layout of Construction & Corruption (fixed for every player count).

Seats in actions are relative to the acting player (offset 0 = me, k = the k-th seat after me), so a
policy reads the same action the same way from any seat. Blocks, in order:

| actions   | meaning                                                          | phase            |
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

from .tables import CARD_NAMES, GIFT_AMOUNTS, MAX_PLAYERS, NUM_CONTRACTS

C = NUM_CONTRACTS
OPP = MAX_PLAYERS - 1  # opponent offsets 1..6

PLACE = 0
PASS = PLACE + C
GIFT = PASS + 1
VOTE = GIFT + len(GIFT_AMOUNTS) * OPP
OUTSIDER = VOTE + MAX_PLAYERS
CITY = OUTSIDER + 1
FESTIVAL = CITY + C
BIG_PAPA = FESTIVAL + C
CUT_AND_PASTE = BIG_PAPA + 1
DEEP_MERDE = CUT_AND_PASTE + OPP
LA_GREVE = DEEP_MERDE + OPP
RED_ALERT = LA_GREVE + 1
# unordered pairs of opponent offsets, e.g. (1, 2), (1, 3), ... (5, 6)
PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(1, MAX_PLAYERS), 2))
REVENUE_QUEBEC = RED_ALERT + OPP
SPIC_N_SPAN = REVENUE_QUEBEC + len(PAIRS)
SNITCH = SPIC_N_SPAN + C
PAY_FIXED = SNITCH + len(PAIRS)
PAY_PERCENT = PAY_FIXED + 1
NUM_ACTIONS = PAY_PERCENT + 1

# kinds returned by decode()
K_PLACE, K_PASS, K_GIFT, K_VOTE, K_OUTSIDER, K_CITY, K_FESTIVAL, K_BIG_PAPA = range(8)
K_CUT, K_MERDE, K_GREVE, K_RED, K_REVENUE, K_SPIC, K_SNITCH, K_PAY_FIXED, K_PAY_PERCENT = range(8, 17)


def gift(amount_index: int, offset: int) -> int:
    return GIFT + amount_index * OPP + offset - 1


def pair_index(a: int, b: int) -> int:
    return PAIRS.index((min(a, b), max(a, b)))


def _build() -> tuple[tuple[int, int, int], ...]:
    """Per action: (kind, a, b) where a/b are a contract, an offset, an amount index or a pair."""
    table: list[tuple[int, int, int]] = []
    table += [(K_PLACE, c, 0) for c in range(C)]
    table.append((K_PASS, 0, 0))
    table += [(K_GIFT, i, k) for i in range(len(GIFT_AMOUNTS)) for k in range(1, OPP + 1)]
    table += [(K_VOTE, k, 0) for k in range(MAX_PLAYERS)]
    table.append((K_OUTSIDER, 0, 0))
    table += [(K_CITY, c, 0) for c in range(C)]
    table += [(K_FESTIVAL, c, 0) for c in range(C)]
    table.append((K_BIG_PAPA, 0, 0))
    table += [(K_CUT, k, 0) for k in range(1, OPP + 1)]
    table += [(K_MERDE, k, 0) for k in range(1, OPP + 1)]
    table.append((K_GREVE, 0, 0))
    table += [(K_RED, k, 0) for k in range(1, OPP + 1)]
    table += [(K_REVENUE, a, b) for a, b in PAIRS]
    table += [(K_SPIC, c, 0) for c in range(C)]
    table += [(K_SNITCH, a, b) for a, b in PAIRS]
    table.append((K_PAY_FIXED, 0, 0))
    table.append((K_PAY_PERCENT, 0, 0))
    assert len(table) == NUM_ACTIONS
    return tuple(table)


DECODE = _build()


def decode(action: int) -> tuple[int, int, int]:
    """(kind, a, b) of an action index."""
    return DECODE[action]


# kind -> readable name: {c} a contract, {p} / {q} the seats at relative offsets a / b, {amount} a gift in $k
NAME_TEMPLATES: dict[int, str] = {
    K_PLACE: "place a worker on contract {c}",
    K_PASS: "pass",
    K_GIFT: "give ${amount}k to {q}",
    K_VOTE: "vote for {p}",
    K_OUTSIDER: "vote for the Outsider mayor",
    K_CITY: "put a city worker on contract {c}",
    K_FESTIVAL: "put a festival on contract {c}",
    K_BIG_PAPA: f"play {CARD_NAMES[0]} (one more festival, two more city workers)",
    K_CUT: f"play {CARD_NAMES[1]} against {{p}}",
    K_MERDE: f"play {CARD_NAMES[2]} against {{p}}",
    K_GREVE: f"play {CARD_NAMES[3]} (does nothing)",
    K_RED: f"play {CARD_NAMES[4]} against {{p}}",
    K_REVENUE: f"play {CARD_NAMES[5]} against {{p}} and {{q}}",
    K_SPIC: f"play {CARD_NAMES[6]} on contract {{c}}",
    K_SNITCH: f"play {CARD_NAMES[7]} against {{p}} and {{q}}",
    K_PAY_FIXED: "pay the year's amount per logo",
    K_PAY_PERCENT: "pay 10% of my cash per logo (reveals my cash)",
}


def action_name(action: int, seat_name=None) -> str:
    """Readable name; `seat_name(offset)` names the seat at a relative offset (default 'seat +k')."""
    name = seat_name or (lambda k: "myself" if k == 0 else f"seat +{k}")
    kind, a, b = DECODE[action]
    template = NAME_TEMPLATES[kind]
    return template.format(
        c=a,
        amount=GIFT_AMOUNTS[a] * 10 if kind == K_GIFT else 0,
        p=name(a) if "{p}" in template else "",
        q=name(b) if "{q}" in template else "",
    )
