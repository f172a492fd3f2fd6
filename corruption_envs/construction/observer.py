"""The observation: one seat's information set as a flat float32 vector in [0, 1].

Seats are relative to the observer (row 0 = me, row k = the k-th seat after me), padded to 7. The
vector holds my cash and cards, everything public, and the public history a player remembers (the
ballots of the last election, the dice effects, what I know for sure of other hands). An opponent's
cash appears only as what the table knows of it (visibility.cash_view), never its true value; a vote cast
in the running election appears only as "has voted".
"""
from __future__ import annotations

import struct
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..core import Layout
from .state import PAY, VOTE, State
from .tables import CARD_COUNTS, MAX_PLAYERS, NUM_CONTRACTS, NUM_TURNS
from .visibility import cash_view

if TYPE_CHECKING:
    from .rules import ConstructionPlay

MONEY_SCALE = 500.0  # $5,000,000: cash above it reads as 1
P = MAX_PLAYERS
C = NUM_CONTRACTS
SEAT_FEATURES = (
    "present", "contracts", "corruption", "to_place", "passed", "has_voted", "keys", "hand_size",
    "deep_merde", "red_alert", "logos", "paid_percent", "gifts_left", "cash_known",
    "unseen_gifts_in", "unseen_gifts_out", "last_votes_received", "last_mayor", "payment_pending",
)
CONTRACT_FEATURES = 12  # on board, owner (7 relative seats), corruption, city workers, festival, workers


def build_layout() -> Layout:
    lay = Layout()
    lay.add("phase", 6)  # Corruption, Election, Mayor, Investigation, Investigation payment, Fin
    lay.add("year", NUM_TURNS + 1)  # 1994 .. 2017, Fin
    lay.add("num_players", P - 2)  # 3 .. 7
    lay.add("first_player", P)
    lay.add("to_act", P)
    lay.add("mayor", P)  # this turn's mayor
    lay.add("mayor_supply", 2)  # city workers / 8, festivals / 4 the mayor still has
    lay.add("my_cash", 1)
    lay.add("my_hand", 8)  # per card type, / its count in the deck
    lay.add("my_vote", P + 1)  # my secret vote in the running election: a relative seat or the Outsider
    lay.add("known_cards", (P - 1, 8))  # cards I know for sure are in each opponent's hand
    lay.add("seats", (P, len(SEAT_FEATURES)))
    lay.add("contracts", (C, CONTRACT_FEATURES))
    lay.add("contract_workers", (C, P))  # each seat's workers on each contract / 5
    lay.add("last_ballots", (P, P + 1))  # last election: voter -> candidate or the Outsider
    lay.add("table", 4)  # contract stack / 18, investigation deck / 45, Cut & Paste used, investigation
    lay.add("discard", 8)  # played investigation cards per type
    return lay


def observe(rules: "ConstructionPlay", s: State, me: int) -> np.ndarray:
    # Hot path: scalar writes through a memoryview (several times cheaper than numpy item writes).
    lay = rules.observation_layout
    off = _offsets(lay)
    out = np.zeros(lay.size, np.float32)
    o = memoryview(out)
    n = s.n
    o[off["phase"] + s.phase] = 1.0
    o[off["year"] + s.turn] = 1.0
    o[off["num_players"] + n - 3] = 1.0
    o[off["first_player"] + (s.first - me) % n] = 1.0
    if s.actor >= 0:
        o[off["to_act"] + (s.actor - me) % n] = 1.0
    if s.mayor >= 0:
        o[off["mayor"] + (s.mayor - me) % n] = 1.0
    k = off["mayor_supply"]
    o[k] = min(s.city_left / 8, 1.0)
    o[k + 1] = min(s.fest_left / 4, 1.0)
    o[off["my_cash"]] = min(s.cash[me] / MONEY_SCALE, 1.0)
    k = off["my_hand"]
    for t, count in enumerate(s.hand[me]):
        if count:
            o[k + t] = count / CARD_COUNTS[t]
    if s.phase == VOTE and s.votes[me] >= 0:
        v = s.votes[me]
        o[off["my_vote"] + (P if v == n else (v - me) % n)] = 1.0
    order, rel = _rotation(n, me)
    k = off["known_cards"]
    known = s.known[me]
    for i in range(1, n):
        kn = known[order[i]]
        if any(kn):
            for t, count in enumerate(kn):
                if count:
                    o[k + 8 * (i - 1) + t] = count / CARD_COUNTS[t]

    owner = s.owner
    contracts = [0] * n
    corruption = [0] * n
    kc = off["contracts"]
    kw = off["contract_workers"]
    corr, city, festival, workers_of = s.corruption, s.city, s.festival, s.workers
    for c in range(C):
        q = owner[c]
        if q < 0:
            continue
        cor = corr[c]
        contracts[q] += 1
        corruption[q] += cor
        base = kc + CONTRACT_FEATURES * c
        o[base] = 1.0
        o[base + 1 + rel[q]] = 1.0
        o[base + 8] = cor / 20 if cor < 20 else 1.0
        if city[c]:
            o[base + 9] = city[c] / 8 if city[c] < 8 else 1.0
        if festival[c]:
            o[base + 10] = 1.0
        workers = workers_of[c]
        crew = sum(workers)
        o[base + 11] = crew / 6 if crew < 6 else 1.0
        wbase = kw + P * c
        for p2, count in enumerate(workers):
            if count:
                o[wbase + rel[p2]] = _FIFTHS[count]
    voting = s.phase == VOTE
    paying = s.payments_left if s.phase == PAY else ()
    k = off["seats"]
    pack = _ROW.pack
    to_place, passed, votes, keys, hand = s.to_place, s.passed, s.votes, s.keys, s.hand
    merde, red, logos_of, paid, gifts_left = s.merde, s.red, s.logos, s.paid_percent, s.gifts_left
    last_votes, last_mayor = s.last_votes, s.last_mayor
    for q in order:
        cash, unseen_in, unseen_out = cash_view(s, me, q)
        cor = corruption[q]
        cards = sum(hand[q])
        logos = logos_of[q]
        o[k: k + _F] = memoryview(pack(
            1.0, contracts[q] / 5, cor / 30 if cor < 30 else 1.0, to_place[q] / 5,
            1.0 if passed[q] else 0.0, 1.0 if voting and votes[q] >= 0 else 0.0, keys[q] / 7,
            cards / 10 if cards < 10 else 1.0, 1.0 if merde[q] else 0.0, 1.0 if red[q] else 0.0,
            logos / 20 if logos < 20 else 1.0, 1.0 if paid[q] else 0.0, gifts_left[q] / 3,
            0.0 if cash <= 0 else (cash / MONEY_SCALE if cash < MONEY_SCALE else 1.0),
            unseen_in / 5 if unseen_in < 5 else 1.0, unseen_out / 5 if unseen_out < 5 else 1.0,
            last_votes[q] / n, 1.0 if last_mayor == q else 0.0, 1.0 if q in paying else 0.0,
        )).cast("f")
        k += _F
    k = off["last_ballots"]
    for i, q in enumerate(order):
        v = s.last_ballots[q]
        if v >= 0:
            o[k + (P + 1) * i + (P if v == n else rel[v])] = 1.0
    k = off["table"]
    o[k] = len(s.stack) / C
    o[k + 1] = min(len(s.deck) / 45, 1.0)
    o[k + 2] = float(s.cut_used)
    o[k + 3] = float(s.investigated)
    k = off["discard"]
    for t, count in enumerate(s.discard):
        if count:
            o[k + t] = count / CARD_COUNTS[t]
    return out


_F = len(SEAT_FEATURES)
_FIFTHS = tuple(k / 5 for k in range(6))  # a seat's workers on one contract (at most 5) / 5
_ROW = struct.Struct(f"{_F}f")


@lru_cache(maxsize=None)
def _rotation(n: int, me: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Seats in the observer's order (me first) and each seat's relative index."""
    order = tuple((me + i) % n for i in range(n))
    return order, tuple((q - me) % n for q in range(n))


def _offsets(lay: Layout) -> dict[str, int]:
    off = getattr(lay, "_construction_offsets", None)
    if off is None:
        off = {name: lay[name].start for name in lay}
        lay._construction_offsets = off
    return off
