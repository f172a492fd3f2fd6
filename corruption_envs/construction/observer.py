"""The observation: one seat's information set as a flat float32 vector in [0, 1].

Seats are relative to the observer (row 0 = me, row k = the k-th seat after me), padded to 7. The
vector holds my cash and cards, everything public, and the public history a player remembers (the
ballots of the last election, the dice effects, what I know for sure of other hands). An opponent's
cash appears only as what the table knows of it (money.view_of), never its true value; a vote cast
in the running election appears only as "has voted".
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core import Layout
from .money import view_of
from .state import PAY, VOTE, State
from .tables import CARD_COUNTS, MAX_PLAYERS, NUM_CONTRACTS, NUM_TURNS

if TYPE_CHECKING:
    from .rules import ConstructionRules

MONEY_SCALE = 500.0  # $5,000,000: cash above it reads as 1
P = MAX_PLAYERS
C = NUM_CONTRACTS
SEAT_FEATURES = (
    "present", "contracts", "corruption", "to_place", "passed", "has_voted", "keys", "hand_size",
    "deep_merde", "red_alert", "logos", "paid_percent", "gifts_left", "cash_known",
    "unseen_gifts_in", "unseen_gifts_out", "last_votes_received", "last_mayor", "payment_pending",
)
CONTRACT_FEATURES = 12  # on board, owner (7 relative seats), corruption, city workers, festival, workers
_CARD_SCALE = np.array(CARD_COUNTS, np.float32)


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


def observe(rules: "ConstructionRules", s: State, me: int) -> np.ndarray:
    lay = rules.observation_layout
    sl = lay.slices
    o = np.zeros(lay.size, np.float32)
    n = s.n
    o[sl["phase"].start + s.phase] = 1
    o[sl["year"].start + s.turn] = 1
    o[sl["num_players"].start + n - 3] = 1
    o[sl["first_player"].start + (s.first - me) % n] = 1
    if s.actor >= 0:
        o[sl["to_act"].start + (s.actor - me) % n] = 1
    if s.mayor >= 0:
        o[sl["mayor"].start + (s.mayor - me) % n] = 1
    o[sl["mayor_supply"]] = (min(s.city_left / 8, 1.0), min(s.fest_left / 4, 1.0))
    o[sl["my_cash"].start] = min(s.cash[me] / MONEY_SCALE, 1.0)
    o[sl["my_hand"]] = np.array(s.hand[me], np.float32) / _CARD_SCALE
    if s.phase == VOTE and s.votes[me] >= 0:
        v = s.votes[me]
        o[sl["my_vote"].start + (P if v == n else (v - me) % n)] = 1
    order = [(me + k) % n for k in range(n)]
    known = np.array([s.known[me][q] for q in order[1:]], np.float32) / _CARD_SCALE
    lay.view(o, "known_cards")[: n - 1] = known

    owner = s.owner
    contracts = [0] * n
    corruption = [0] * n
    for c in range(C):
        if owner[c] >= 0:
            contracts[owner[c]] += 1
            corruption[owner[c]] += s.corruption[c]
    rows: list[float] = []
    voting = s.phase == VOTE
    paying = s.payments_left if s.phase == PAY else ()
    for q in order:
        cash, unseen_in, unseen_out = view_of(s, me, q)
        rows += (
            1.0, contracts[q] / 5, min(corruption[q] / 30, 1.0), s.to_place[q] / 5,
            float(s.passed[q]), float(voting and s.votes[q] >= 0), min(s.keys[q] / 7, 1.0),
            min(sum(s.hand[q]) / 10, 1.0), float(s.merde[q]), float(s.red[q]),
            min(s.logos[q] / 20, 1.0), float(s.paid_percent[q]), s.gifts_left[q] / 3,
            min(max(cash, 0) / MONEY_SCALE, 1.0), min(unseen_in / 5, 1.0), min(unseen_out / 5, 1.0),
            s.last_votes[q] / n, float(s.last_mayor == q), float(q in paying),
        )
    seats = sl["seats"]
    o[seats.start: seats.start + len(rows)] = rows

    own = np.array(owner)
    on = np.flatnonzero(own >= 0)
    cb = lay.view(o, "contracts")
    cb[on, 0] = 1
    cb[on, 1 + (own[on] - me) % n] = 1
    cb[:, 8] = np.minimum(np.array(s.corruption, np.float32) / 20, 1)
    cb[:, 9] = np.minimum(np.array(s.city, np.float32) / 8, 1)
    cb[:, 10] = s.festival
    workers = np.array(s.workers, np.float32)
    cb[:, 11] = np.minimum(workers.sum(axis=1) / 6, 1)
    lay.view(o, "contract_workers")[:, :n] = workers[:, order] / 5

    if s.last_mayor >= 0 or any(v >= 0 for v in s.last_ballots):
        ballots = lay.view(o, "last_ballots")
        for k, q in enumerate(order):
            v = s.last_ballots[q]
            if v >= 0:
                ballots[k, P if v == n else (v - me) % n] = 1
    t = sl["table"].start
    o[t: t + 4] = (len(s.stack) / C, min(len(s.deck) / 45, 1.0), float(s.cut_used), float(s.investigated))
    o[sl["discard"]] = np.array(s.discard, np.float32) / _CARD_SCALE
    return o
