"""Observation encoding: the acting player's information set, seats relative to the observer.

Pieces (P = 5 seats, "me" first then opponents in seat order after me; every value in [0, 1]):
    phase (9)               what is being decided now (one-hot)
    round (5), turn (5)     round 1..5 and the turn within it
    die (6)                 the People's Die this turn: 5 departments, R
    president, proposer, actor (5 each)   relative seats
    my_hand (90)            my bills, by card id; my_hand_by_dept (5): counts / 13
    discard_zone (90)       the face-up discard zone
    known_hands (4, 90)     opponents' cards everyone saw them take from the discard zone
    returned_at_setup (90)  cards revealed while forming the triangle and shuffled back into the pile
    players (5, 6)          seat in play, tokens / 30 (capped), Cronies in reserve / 15, hand size / 13,
                            blackmail cards held / 4, has voted in the current vote (never *how*)
    blackmail_held (5, 5)   [i, j]: seat i still holds the card of seat j's party. Each player starts
                            with one card per opponent and every use is public, so this is public record
    blackmail_now (5, 5, 2) [i, j, demand]: this turn seat i blackmailed seat j to vote YES / NO
    offers_now (5, 5, 2, 2) [i, j, item, vote]: this turn seat i offered seat j a Crony / Token for YES / NO
    last_votes (5, 4)       the last resolved vote: YES / NO / ABSENT / none; last_result (5)
    proposal (16)           bill department (5), income (3), budget counts / 3 (3), jobs still open / 3 (3),
                            Cronies proposed / 3, workers chosen / 3
    department_values (5)   current value of each department / 200 (capped)
    board (C, 12)           per grid cell: department (5), income (3), officials / 18, Cronies / 15,
                            officials in this bill's interview zone / 3, proposed bill here
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core import Layout
from .codec import MAX_PLAYERS
from .state import NUM_PHASES, OVER, VOTE
from .tables import DEPT, FINAL_HAND, INCOME, NEED, NUM_CARDS, NUM_DEPTS, NUM_ROUNDS

if TYPE_CHECKING:
    from .rules import CorruptiaRules
    from .state import CorruptiaState

P = MAX_PLAYERS
MAX_HAND = FINAL_HAND + NUM_ROUNDS  # 13: the largest hand, before the last proposal
TOKENS_SCALE = 30.0
VALUE_SCALE = 200.0
PLAYER_FEATURES = 6


class Observer:
    def __init__(self, rules: "CorruptiaRules") -> None:
        self.rules = rules
        self.n = rules.num_players
        lay = self.layout = Layout()
        lay.add("phase", NUM_PHASES)
        lay.add("round", NUM_ROUNDS)
        lay.add("turn", P)
        lay.add("die", NUM_DEPTS + 1)
        lay.add("president", P)
        lay.add("proposer", P)
        lay.add("actor", P)
        lay.add("my_hand", NUM_CARDS)
        lay.add("my_hand_by_dept", NUM_DEPTS)
        lay.add("discard_zone", NUM_CARDS)
        lay.add("known_hands", (P - 1, NUM_CARDS))
        lay.add("returned_at_setup", NUM_CARDS)
        lay.add("players", (P, PLAYER_FEATURES))
        lay.add("blackmail_held", (P, P))
        lay.add("blackmail_now", (P, P, 2))
        lay.add("offers_now", (P, P, 2, 2))
        lay.add("last_votes", (P, 4))
        lay.add("last_result", 5)
        lay.add("proposal", 16)
        lay.add("department_values", NUM_DEPTS)
        self.board_channels = 12
        lay.add("board", (rules.grid.size, self.board_channels))
        self.s = {name: lay[name].start for name in lay}

    def observe(self, s: "CorruptiaState", me: int) -> np.ndarray:
        o = self.s
        obs = np.zeros(self.layout.size, np.float32)
        n = self.n
        obs[o["phase"] + s.phase] = 1
        if s.phase != OVER:
            obs[o["round"] + s.round] = 1
            obs[o["turn"] + s.turn] = 1
            obs[o["die"] + s.die] = 1
            obs[o["actor"] + (s.actor - me) % n] = 1
            obs[o["proposer"] + (s.proposer - me) % n] = 1
        obs[o["president"] + (s.president - me) % n] = 1
        hand = s.hands[me]
        base = o["my_hand"]
        by_dept = o["my_hand_by_dept"]
        for c in hand:
            obs[base + c] = 1
            obs[by_dept + DEPT[c]] += 1.0 / MAX_HAND
        base = o["discard_zone"]
        for c in s.discard:
            obs[base + c] = 1
        base = o["known_hands"]
        for k in range(1, n):
            for c in s.known[(me + k) % n]:
                obs[base + (k - 1) * NUM_CARDS + c] = 1
        base = o["returned_at_setup"]
        for c in s.returned:
            obs[base + c] = 1
        voting = s.phase == VOTE
        players = o["players"]
        held_base = o["blackmail_held"]
        bm_base = o["blackmail_now"]
        last = o["last_votes"]
        for k in range(n):
            q = (me + k) % n
            row = players + k * PLAYER_FEATURES
            obs[row] = 1
            obs[row + 1] = min(s.tokens[q] / TOKENS_SCALE, 1.0)
            obs[row + 2] = s.reserve[q] / 15.0
            obs[row + 3] = len(s.hands[q]) / MAX_HAND
            held = s.held[q]
            obs[row + 4] = sum(held) / (P - 1)
            if voting and s.votes[q] >= 0:
                obs[row + 5] = 1
            for j in range(n):
                if held[(me + j) % n]:
                    obs[held_base + k * P + j] = 1
            bm = s.blackmail[q] if s.phase != OVER else None
            if bm is not None:
                i = (bm[0] - me) % n
                obs[bm_base + (i * P + k) * 2 + bm[1]] = 1
            v = s.last_votes[q]
            obs[last + k * 4 + (3 if v < 0 else v)] = 1
        if s.phase != OVER:
            off = o["offers_now"]
            for f, t, item, vote in s.offers:
                obs[off + (((f - me) % n * P + (t - me) % n) * 2 + item) * 2 + vote] = 1
        obs[o["last_result"] + s.last_result] = 1
        if s.phase != OVER and s.bill >= 0:
            c = s.bill
            base = o["proposal"]
            obs[base + DEPT[c]] = 1
            obs[base + 5 + INCOME[c] - 1] = 1
            need0 = NEED[c]
            for i in (1, 2, 3):
                obs[base + 7 + i] = need0[i] / 3.0
                obs[base + 10 + i] = s.need[i] / 3.0
            obs[base + 14] = s.pending_cronies / 3.0
            obs[base + 15] = s.workers / 3.0
        base = o["department_values"]
        for d in range(NUM_DEPTS):
            obs[base + d] = min(s.values[d] / VALUE_SCALE, 1.0)
        board = self.layout["board"]
        obs[board] = s.board.ravel()
        return obs
