"""Observation encoding: the acting player's information set as named slices of one float32 vector.

Seats are relative to the observer (0 = me, then the opponents clockwise), padded to 7. An
opponent's card is encoded by identity only once it is public (played face-up, or revealed in
Phase III); until then only its owner and place are counted. Every feature lies in [0, 1].
"""
from __future__ import annotations

import numpy as np

from ..core import Layout
from .state import ASSIGNED, CONTRACT, HAND, OVER, SWISS, TABLE, CorruptionState
from .tables import (
    CARD_KIND,
    CARDS_PER_ROUND,
    CONTRACT_VALUE,
    KIND_CARDS,
    MAX_CONTRACT_VALUE,
    MAX_PLAYERS,
    NUM_BODIES,
    NUM_BRIBES,
    NUM_CONTRACTS,
    NUM_KINDS,
    NUM_ROUNDS,
    REPORTER,
    TOTAL_CONTRACT_VALUE,
)
from .visibility import known_cards

P, C = MAX_PLAYERS, NUM_CONTRACTS
# Weight of a card in the per-kind counts: the two Reporters count 1/2 each, so a piece is <= 1.
CARD_WEIGHT = np.where(CARD_KIND == REPORTER, 0.5, 1.0).astype(np.float32)
KIND_T = tuple(int(k) for k in CARD_KIND)
WEIGHT_T = tuple(float(w) for w in CARD_WEIGHT)
# weights of cards 6..9 into chars_gone's three columns
GONE_MATRIX = np.array([[1, 0, 0], [0, 0.5, 0], [0, 0.5, 0], [0, 0, 1]], np.float32)
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
        self.contract_ids = np.arange(C, dtype=np.int64)
        self.seats = np.arange(n)
        # ROT[p, r]: the absolute seat at relative position r from p
        self.rot = (self.seats[:, None] + self.seats[None, :]) % n
        # rel_index[q][p]: p's row start plus q's relative position from p, into the flat obs array
        size = self.layout.size
        self.rel_index = [self.seats * size + (q - self.seats) % n for q in range(n)]
        # idx[stride][q]: for each seat p, p's row start + q's relative position from p * stride
        self.idx = {stride: [[p * size + ((q - p) % n) * stride for p in range(n)] for q in range(n)]
                    for stride in (1, 3, NUM_BRIBES, NUM_KINDS)}

    def full(self, s: CorruptionState, p: int) -> np.ndarray:
        """`p`'s observation computed from scratch (the reference the incremental one must equal)."""
        o = self.off
        obs = self.template.copy()
        rel = self.rel[p]
        loc, where, public = s.loc, s.where.astype(np.int64), s.public
        known = known_cards(s, p)

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

        if 0 < s.phase < OVER and s.qpos < len(s.queue):
            q, card = s.queue[s.qpos]
            obs[o["decision_kind"] + CARD_KIND[card]] = 1
            if s.phase == 1:
                obs[o["decision_body"] + where[q, card]] = 1
            else:
                obs[o["decision_contract"] + where[q, card]] = 1
        return obs

    # --- incremental upkeep of state.obs (one row per seat), called by the rules after each change ---
    def rebuild(self, s: CorruptionState) -> None:
        """Every seat's row from scratch (after bulk changes: a new round, a resample)."""
        if s.obs is None:
            s.obs = np.empty((self.n, self.layout.size), np.float32)
        for p in range(self.n):
            s.obs[p] = self.full(s, p)

    def rebuild_empty_table(self, s: CorruptionState) -> None:
        """Every seat's row when no card is on the table (a new round, the end): a few array ops."""
        o, n, rot, seats = self.off, self.n, self.rot, self.seats
        if s.obs is None:
            s.obs = np.empty((n, self.layout.size), np.float32)
            s.flat = memoryview(s.obs.reshape(-1))
        obs = s.obs
        obs[:] = self.template
        obs[:, o["my_hand"]: o["my_hand"] + 10] = s.loc == HAND
        if s.phase != OVER:
            obs[:, o["round"] + s.round] = 1
            obs[:, o["phase"] + s.phase] = 1
            obs[seats, o["to_act"] + (s.to_act - seats) % n] = 1
        obs[seats, o["leader"] + (s.leader - seats) % n] = 1
        obs[:, o["placed"]: o["placed"] + n] = (s.placed * (1 / CARDS_PER_ROUND))[rot]
        obs[:, o["on_contracts"]: o["on_contracts"] + n] = (s.on_contracts * (1 / CARDS_PER_ROUND))[rot]
        obs[:, o["score"]: o["score"] + n] = (s.won_value * (1 / TOTAL_CONTRACT_VALUE))[rot]
        obs[:, o["contracts_won"]: o["contracts_won"] + n] = (s.won_count * (1 / C))[rot]
        gone = (s.public[:, 6:] & (s.loc[:, 6:] != HAND)) @ GONE_MATRIX
        obs[:, o["chars_gone"]: o["chars_gone"] + 3 * n] = gone[rot].reshape(n, 3 * n)
        cloc = s.cloc.astype(np.int64)
        code = WHERE_BASE[cloc] + np.where(cloc == TABLE, s.cbody, 0)
        obs[:, o["contract_where"] + self.contract_ids * 6 + code] = 1
        won = np.flatnonzero(s.cowner >= 0)
        owners = s.cowner[won].astype(np.int64)
        obs[np.repeat(seats, won.size),
            (o["contract_winner"] + won * P + (owners[None, :] - seats[:, None]) % n).ravel()] = 1
        done = np.flatnonzero(s.outcome)
        obs[:, o["contract_outcome"] + done * 3 + s.outcome[done] - 1] = 1
        obs[:, o["contract_new"]: o["contract_new"] + C] = (s.dealt_round == s.round) & (cloc == TABLE)

    def reveal(self, s: CorruptionState) -> None:
        """Phase III's reveal: every seat's view of the table becomes the whole table."""
        o, n = self.off, self.n
        obs = s.obs
        where = s.where.astype(np.int64)
        cards = np.zeros((C, n, NUM_KINDS), np.float32)
        qs, cs = np.nonzero(s.loc == CONTRACT)
        np.add.at(cards, (where[qs, cs], qs, CARD_KIND[cs]), CARD_WEIGHT[cs])
        swiss = np.zeros((NUM_BODIES, n, NUM_BRIBES), np.float32)
        qs, cs = np.nonzero(s.loc == SWISS)
        swiss[where[qs, cs], qs, cs] = 1
        for p in range(n):
            obs[p, self.layout["cards"]].reshape(C, P, NUM_KINDS)[:, :n] = cards[:, self.rot[p]]
            obs[p, self.layout["swiss"]].reshape(NUM_BODIES, P, NUM_BRIBES)[:, :n] = swiss[:, self.rot[p]]
        obs[:, self.layout["facedown"]] = 0
        obs[:, self.layout["swiss_facedown"]] = 0
        gone = (s.public[:, 6:] & (s.loc[:, 6:] != HAND)) @ GONE_MATRIX
        obs[:, o["chars_gone"]: o["chars_gone"] + 3 * n] = gone[self.rot].reshape(n, 3 * n)

    def card_place(self, s: CorruptionState, q: int, card: int, loc: int, place: int) -> None:
        """Refresh what every seat sees of seat q's cards of `card`'s kind at (loc, place)."""
        q, card, loc, place = int(q), int(card), int(loc), int(place)
        o = self.off
        flat = s.flat
        if loc == CONTRACT:
            known_all = known_own = 0.0
            for k in KIND_CARDS[KIND_T[card]]:
                if s.loc[q, k] == CONTRACT and s.where[q, k] == place:
                    if s.public[q, k]:
                        known_all += WEIGHT_T[k]
                    else:
                        known_own += WEIGHT_T[k]
            base = o["cards"] + place * (P * NUM_KINDS) + KIND_T[card]
            for i in self.idx[NUM_KINDS][q]:
                flat[i + base] = known_all
            flat[q * self.layout.size + base] = known_all + known_own
            base = o["facedown"] + place * P
            fd = s.hidden[q][place] / CARDS_PER_ROUND
            for i in self.idx[1][q]:
                flat[i + base] = fd
        elif loc == SWISS:
            here = s.loc[q, card] == SWISS and s.where[q, card] == place
            shown = 1.0 if here and s.public[q, card] else 0.0
            base = o["swiss"] + place * (P * NUM_BRIBES) + card
            for i in self.idx[NUM_BRIBES][q]:
                flat[i + base] = shown
            flat[q * self.layout.size + base] = 1.0 if here else 0.0
            base = o["swiss_facedown"] + place * P
            fd = s.hidden[q][C + place] / CARDS_PER_ROUND
            for i in self.idx[1][q]:
                flat[i + base] = fd
        else:  # ASSIGNED (always public)
            here = 1.0 if s.loc[q, card] == ASSIGNED and s.where[q, card] == place else 0.0
            base = o["assigned"] + place * (P * NUM_BRIBES) + card
            for i in self.idx[NUM_BRIBES][q]:
                flat[i + base] = here

    def outcome(self, s: CorruptionState, c: int) -> None:
        """Refresh contract c's last Phase III outcome for every seat."""
        start = self.off["contract_outcome"] + int(c) * 3
        s.obs[:, start: start + 3] = 0
        if s.outcome[c]:
            s.obs[:, start + int(s.outcome[c]) - 1] = 1

    def hand(self, s: CorruptionState, q: int, card: int) -> None:
        """Refresh whether q's `card` is in q's hand (q's own row)."""
        s.obs[q, self.off["my_hand"] + card] = s.loc[q, card] == HAND

    def seat(self, s: CorruptionState, q: int, card: int) -> None:
        """Refresh seat q's counters and hand after q's `card` moved."""
        q, card = int(q), int(card)
        o = self.off
        flat = s.flat
        flat[q * self.layout.size + o["my_hand"] + card] = s.loc[q, card] == HAND
        placed = s.placed[q] / CARDS_PER_ROUND
        on_contracts = s.on_contracts[q] / CARDS_PER_ROUND
        base_placed, base_on = o["placed"], o["on_contracts"]
        for i in self.idx[1][q]:
            flat[i + base_placed] = placed
            flat[i + base_on] = on_contracts
        if card >= NUM_BRIBES:
            column = CHAR_COLUMN[card]
            gone = 0.0
            for k in range(NUM_BRIBES, 10):
                if CHAR_COLUMN[k] == column and s.public[q, k] and s.loc[q, k] != HAND:
                    gone += WEIGHT_T[k]
            base = o["chars_gone"] + column
            for i in self.idx[3][q]:
                flat[i + base] = gone

    def turn(self, s: CorruptionState, old_phase: int, old_to_act: int) -> None:
        """Refresh the phase, the seat to act and the Phase III decision after a move."""
        o = self.off
        obs = s.obs
        if old_phase != s.phase:
            obs[:, o["phase"]: o["phase"] + 4] = 0
            if s.phase != OVER:
                obs[:, o["phase"] + s.phase] = 1
        flat = s.flat
        base = o["to_act"]
        if old_to_act >= 0:
            for i in self.idx[1][old_to_act]:
                flat[i + base] = 0
        if s.phase != OVER:
            for i in self.idx[1][s.to_act]:
                flat[i + base] = 1
        if old_phase != 0 or s.phase != 0:
            obs[:, o["decision_kind"]: o["decision_body"] + NUM_BODIES] = 0
            if 0 < s.phase < OVER:
                q, card = s.queue[s.qpos]
                obs[:, o["decision_kind"] + CARD_KIND[card]] = 1
                piece = "decision_body" if s.phase == 1 else "decision_contract"
                obs[:, o[piece] + int(s.where[q, card])] = 1
