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
    bills (28, 21)          (slots.py) one slot per bill on the table, in the order they were placed (the triangle
                            first), then the bill being proposed once it has a cell: present, proposed,
                            row and column on the 5-player grid scaled to [0, 1], department (5),
                            income (3), officials / 18, Cronies / 3, officials in its interview zone / 3,
                            a bill on the table in each of the 6 directions (geometry.DIRECTIONS)

Why 28 slots: a bill joins the table only by an approved proposal, one per turn, and a game has
NUM_ROUNDS * n turns, so at most 3 + 5 * n - 1 bills lie on the table while one is proposed (the last
turn's proposal) and 3 + 5 * n after it: 28 at 5 players. The size is the same for every player count,
so one policy serves them all; the action layout (cells) still depends on the count.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core import Layout
from .codec import MAX_PLAYERS
from .slots import (  # all but the first two only for the engine (engine.py), which reads them here
    MAX_SLOTS, SLOT_FEATURES, OPPOSITE, S_COL, S_CRONIES, S_DEPT, S_INCOME, S_INTERVIEW, S_NEIGHBOURS,  # noqa: F401
    S_OFFICIALS, S_PRESENT, S_PROPOSED, S_ROW, scaled_coords,  # noqa: F401
)
from .state import IN_DISCARD, NUM_PHASES, OVER, VOTE
from .tables import DEPT, FINAL_HAND, INCOME, NEED, NUM_CARDS, NUM_DEPTS, NUM_ROUNDS
from .visibility import seen_taken

if TYPE_CHECKING:
    from .rules import CorruptiaPlay
    from .state import CorruptiaState

P = MAX_PLAYERS
MAX_HAND = FINAL_HAND + NUM_ROUNDS  # 13: the largest hand, before the last proposal
TOKENS_SCALE = 30.0
VALUE_SCALE = 200.0
PLAYER_FEATURES = 6

class Observer:
    def __init__(self, rules: "CorruptiaPlay") -> None:
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
        lay.add("bills", (MAX_SLOTS, SLOT_FEATURES))
        self.s = {name: lay[name].start for name in lay}
        self.bills_slice = lay["bills"]
        self.known_slice = lay["known_hands"]
        self.by_dept_range = range(self.s["my_hand_by_dept"], self.s["my_hand_by_dept"] + NUM_DEPTS)
        # per observer, the seats 1..n-1 places after them, as a column for one broadcast compare
        self.others = [np.array([(me + k) % self.n for k in range(1, self.n)], np.int8)[:, None]
                       for me in range(self.n)]
        self.rel = [[(q - me) % self.n for q in range(self.n)] for me in range(self.n)]
        self.order = [[(me + k) % self.n for k in range(self.n)] for me in range(self.n)]
        self.players_slice = lay["players"]
        self.values_range = range(self.s["department_values"], self.s["department_values"] + NUM_DEPTS)
        self.hand_slice = lay["my_hand"]
        self.discard_slice = lay["discard_zone"]
        self.returned_slice = lay["returned_at_setup"]

    def observe(self, s: "CorruptiaState", me: int) -> np.ndarray:
        # Ones and (index, value) pairs are gathered in Python lists and written with a few numpy calls:
        # scalar numpy writes would dominate the cost.
        o = self.s
        n = self.n
        rel = self.rel[me]  # rel[q]: q's seat relative to me
        phase = s.phase
        live = phase != OVER
        ones = [o["phase"] + phase, o["president"] + rel[s.president], o["last_result"] + s.last_result]
        if live:
            ones += (o["round"] + s.round, o["turn"] + s.turn, o["die"] + s.die,
                     o["actor"] + rel[s.actor], o["proposer"] + rel[s.proposer])
        # players: in play, tokens, reserve, hand size, blackmail cards held, has voted
        voting = phase == VOTE
        players = [0.0] * (P * PLAYER_FEATURES)
        held_base = o["blackmail_held"]
        last = o["last_votes"]
        i = 0
        for k, q in enumerate(self.order[me]):
            held = s.held[q]
            v = s.last_votes[q]
            players[i:i + 6] = (1.0, min(s.tokens[q] / TOKENS_SCALE, 1.0), s.reserve[q] / 15.0,
                                len(s.hands[q]) / MAX_HAND, sum(held) / (P - 1),
                                1.0 if voting and s.votes[q] >= 0 else 0.0)
            i += PLAYER_FEATURES
            row = held_base + k * P
            ones += [row + rel[j] for j in range(n) if held[j]]
            ones.append(last + k * 4 + (3 if v < 0 else v))
        at: list[int] = list(self.by_dept_range)
        counts = [0] * NUM_DEPTS
        for c in s.hands[me]:
            counts[DEPT[c]] += 1
        val = [x / MAX_HAND for x in counts]
        if live:
            base = o["blackmail_now"]
            for t, bm in enumerate(s.blackmail):
                if bm is not None:
                    ones.append(base + (rel[bm[0]] * P + rel[t]) * 2 + bm[1])
            base = o["offers_now"]
            for f, t, item, vote in s.offers:
                ones.append(base + ((rel[f] * P + rel[t]) * 2 + item) * 2 + vote)
            if s.bill >= 0:
                c = s.bill
                base = o["proposal"]
                ones += (base + DEPT[c], base + 4 + INCOME[c])
                need0, need = NEED[c], s.need
                at += range(base + 8, base + 16)
                val += (need0[1] / 3.0, need0[2] / 3.0, need0[3] / 3.0,
                        need[1] / 3.0, need[2] / 3.0, need[3] / 3.0,
                        s.pending_cronies / 3.0, s.workers / 3.0)
        at += self.values_range
        val += [min(v / VALUE_SCALE, 1.0) for v in s.values]
        obs = np.zeros(self.layout.size, np.float32)
        loc = s.loc
        obs[self.hand_slice] = loc == me
        obs[self.discard_slice] = loc == IN_DISCARD
        if s.returned:
            obs[self.returned_slice] = s.returned_vec
        # row k - 1: cards known to be in the hand of the player k seats after me
        obs[self.known_slice].reshape(P - 1, NUM_CARDS)[: n - 1] = seen_taken(s, self.others[me])
        obs[self.players_slice] = players
        obs[self.bills_slice] = s.slots.ravel()
        obs[ones] = 1.0
        obs[at] = val
        return obs
