"""Observation encoding: the acting player's information set as named slices of one float32 vector.

Seats are relative to the observer (0 = me, then the opponents clockwise), padded to 7. An
opponent's card is encoded by identity only once it is public (played face-up, or revealed in
Phase III); until then only its owner and place are counted. Every feature lies in [0, 1].
"""
from __future__ import annotations

import numpy as np

from .state import ASSIGNED, CONTRACT, HAND, OVER, SWISS, TABLE, CorruptionState
from .tables import (
    CARD_KIND, CARDS_PER_ROUND, CONTRACT_VALUE, MAX_CONTRACT_VALUE, MAX_PLAYERS, NUM_BODIES,
    NUM_BRIBES, NUM_CONTRACTS, NUM_KINDS, NUM_ROUNDS, REPORTER, TOTAL_CONTRACT_VALUE,
)
from ..core import Layout

P, C = MAX_PLAYERS, NUM_CONTRACTS
# Weight of a card in the per-kind counts: the two Reporters count 1/2 each, so a piece is <= 1.
CARD_WEIGHT = np.where(CARD_KIND == REPORTER, 0.5, 1.0).astype(np.float32)
# Character id -> column of chars_gone (DA, Reporters, Hit Man)
CHAR_COLUMN = np.array([0, 0, 0, 0, 0, 0, 0, 1, 1, 2], np.int64)
# contract_where columns: 0 deck (unseen), 1..3 on the table under a body, 4 won, 5 lost
WHERE_BASE = np.array([0, 1, 4, 5], np.int64)


def build_layout() -> Layout:
    lay = Layout()
    lay.add("my_hand", 10)  # my card ids in hand (0..5 bribes $1k..$10k, 6 DA, 7-8 Reporters, 9 Hit Man)
    lay.add("seats", P)  # 1 for each seat in the game
    lay.add("round", NUM_ROUNDS)  # one-hot; all zero once the game is over
    lay.add("phase", 4)  # Phase II, then Phase III's steps: assign Swiss, Hit Men, Reporters
    lay.add("leader", P)  # first player of this round
    lay.add("to_act", P)  # whose decision it is
    lay.add("placed", P)  # cards placed this round / 6
    lay.add("on_contracts", P)  # of which on contracts / 6 (round r: the first r are face-up)
    lay.add("score", P)  # total value won / total value of all contracts
    lay.add("contracts_won", P)  # number won / 24
    lay.add("chars_gone", (P, 3))  # public: DA, Reporters (1/2 each), Hit Man out of hand
    lay.add("contract_where", (C, 6))  # deck, City Hall, County Seat, Capitol, won, lost
    lay.add("contract_value", C)  # value / 1200
    lay.add("contract_winner", (C, P))
    lay.add("contract_outcome", (C, 3))  # last Phase III: cancelled by a DA, no award, awarded
    lay.add("contract_new", C)  # dealt this round (else deferred)
    lay.add("cards", (C, P, NUM_KINDS))  # known vertical cards (mine all; others when public)
    lay.add("facedown", (C, P))  # face-down vertical cards / 6
    lay.add("assigned", (C, P, NUM_BRIBES))  # Swiss bribes assigned there in Phase III (half value)
    lay.add("swiss", (NUM_BODIES, P, NUM_BRIBES))  # known bribes on each Swiss account
    lay.add("swiss_facedown", (NUM_BODIES, P))  # face-down cards on each Swiss account / 6
    lay.add("decision_kind", NUM_KINDS)  # Phase III: the kind of card whose owner decides now
    lay.add("decision_contract", C)  # the contract of that Hit Man / Reporter
    lay.add("decision_body", NUM_BODIES)  # the body of that Swiss bribe
    return lay


class Observer:
    """Precomputed offsets and the static part of the vector for one player count."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.layout = lay = build_layout()
        off = {name: lay[name].start for name in lay}
        self.off = off
        self.template = np.zeros(lay.size, np.float32)
        self.template[off["seats"]: off["seats"] + n] = 1
        self.template[lay["contract_value"]] = CONTRACT_VALUE / MAX_CONTRACT_VALUE
        # rel[p][q]: seat q as seen from p
        self.rel = [np.array([(q - p) % n for q in range(n)], np.int64) for p in range(n)]
        self.me = [np.arange(n)[:, None] == p for p in range(n)]
        self.contract_ids = np.arange(C, dtype=np.int64)

    def observe(self, s: CorruptionState, p: int) -> np.ndarray:
        o = self.off
        obs = self.template.copy()
        rel = self.rel[p]
        loc, where, public = s.loc, s.where.astype(np.int64), s.public
        known = public | self.me[p]

        obs[o["my_hand"]: o["my_hand"] + 10] = loc[p] == HAND
        if s.phase != OVER:
            obs[o["round"] + s.round] = 1
            obs[o["phase"] + s.phase] = 1
            obs[o["to_act"] + rel[s.to_act]] = 1
        obs[o["leader"] + rel[s.leader]] = 1
        obs[o["placed"] + rel] = s.placed * (1 / CARDS_PER_ROUND)
        obs[o["on_contracts"] + rel] = s.on_contracts * (1 / CARDS_PER_ROUND)
        obs[o["score"] + rel] = s.won_value * (1 / TOTAL_CONTRACT_VALUE)
        obs[o["contracts_won"] + rel] = s.won_count * (1 / C)

        on_contract = loc == CONTRACT
        qs, cs = np.nonzero(on_contract & known)
        np.add.at(obs, o["cards"] + where[qs, cs] * (P * NUM_KINDS) + rel[qs] * NUM_KINDS
                  + CARD_KIND[cs], CARD_WEIGHT[cs])
        qs, cs = np.nonzero(on_contract & ~public)
        np.add.at(obs, o["facedown"] + where[qs, cs] * P + rel[qs], 1 / CARDS_PER_ROUND)
        qs, cs = np.nonzero(loc == ASSIGNED)
        obs[o["assigned"] + where[qs, cs] * (P * NUM_BRIBES) + rel[qs] * NUM_BRIBES + cs] = 1
        on_swiss = loc == SWISS
        qs, cs = np.nonzero(on_swiss & known)
        obs[o["swiss"] + where[qs, cs] * (P * NUM_BRIBES) + rel[qs] * NUM_BRIBES + cs] = 1
        qs, cs = np.nonzero(on_swiss & ~public)
        np.add.at(obs, o["swiss_facedown"] + where[qs, cs] * P + rel[qs], 1 / CARDS_PER_ROUND)
        qs, cs = np.nonzero(public[:, 6:] & (loc[:, 6:] != HAND))
        np.add.at(obs, o["chars_gone"] + rel[qs] * 3 + CHAR_COLUMN[cs + 6], CARD_WEIGHT[cs + 6])

        cloc = s.cloc.astype(np.int64)
        code = WHERE_BASE[cloc] + np.where(cloc == TABLE, s.cbody, 0)
        obs[o["contract_where"] + self.contract_ids * 6 + code] = 1
        won = np.flatnonzero(s.cowner >= 0)
        obs[o["contract_winner"] + won * P + rel[s.cowner[won]]] = 1
        done = np.flatnonzero(s.outcome)
        obs[o["contract_outcome"] + done * 3 + s.outcome[done] - 1] = 1
        obs[o["contract_new"]: o["contract_new"] + C] = (s.dealt_round == s.round) & (cloc == TABLE)

        if 0 < s.phase < OVER:
            q, card = s.queue[s.qpos]
            obs[o["decision_kind"] + CARD_KIND[card]] = 1
            if s.phase == 1:
                obs[o["decision_body"] + where[q, card]] = 1
            else:
                obs[o["decision_contract"] + where[q, card]] = 1
        return obs
