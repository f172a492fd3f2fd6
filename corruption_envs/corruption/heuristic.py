"""A rule-based Corruption bot that reads only its observation, its mask and the static config.

Strategy guide, in the order it is applied:
  Phase II (placing cards)
  1. Hit Man: if an opponent's DA shows on a contract I lead, send my Hit Man there.
  2. Bid: for every contract, estimate the best opponent's total (face-up bribes, plus a guess for
     each face-down card) and pick the contract with the best value per dollar I must add to lead;
     add the smallest bribe that takes the lead. When my next contract card would be face-up and half
     the bribe still leads, hide it in that body's Swiss account instead.
  3. Reporter: on a valuable contract where I trail by no more than the leader's largest face-up bribe.
  4. DA: on a valuable contract an opponent leads by more than my largest bribe can answer.
  5. Otherwise dump my smallest card where it does the most good (where I lead, or a Swiss account).
  Phase III
  - Swiss bribe: the contract under that body it wins, the most valuable first; else the closest.
  - Hit Man: an opponent's DA, then an opponent's Reporter, then an opponent's Hit Man; own cards last.
  - Reporter: the removal that makes me the winner; else the leader's largest bribe; never my own
    (decline instead when allowed).
"""
from __future__ import annotations

import numpy as np

from ..core.agents import first_row, legal_counts, nth_legal
from . import codec
from .codec import ASSIGN, DECLINE, KILL, KILL_SLOTS, REMOVE, SWISS
from .tables import (
    BRIBE_VALUES,
    CARDS_PER_ROUND,
    DA,
    HIT_MAN,
    MAX_CONTRACT_VALUE,
    NUM_BODIES,
    NUM_BRIBES,
    REPORTER,
)

VALUES = np.array(BRIBE_VALUES, np.float64)
HIDDEN_GUESS = 4.0  # $k a face-down card of an opponent is guessed to be worth


class HeuristicAgent:
    """Plays any seat from (observation, action_mask) like a trained policy would."""

    def __init__(self, env, seed: int | None = None) -> None:
        env = env.unwrapped
        self.layout = env.observation_layout
        self.n = env.config["num_players"]
        self.rng = np.random.default_rng(seed)

    # --- reading the observation -------------------------------------------------------------------
    def _view(self, observations: np.ndarray, name: str) -> np.ndarray:
        """The piece `name` of every row, shaped (k, *its declared shape)."""
        return observations[:, self.layout[name]].reshape((len(observations), *self.layout.shapes[name]))

    def _read(self, observations: np.ndarray, action_masks: np.ndarray) -> dict:
        """What the rules read from each row, as arrays with a leading row axis."""
        v = lambda name: self._view(observations, name)
        n, k = self.n, len(observations)
        cards = v("cards")[:, :, :n]  # (k, 24, n, 9), reporters 1/2 each
        facedown = np.rint(v("facedown")[:, :, :n] * CARDS_PER_ROUND)
        assigned = v("assigned")[:, :, :n]  # (k, 24, n, 6)
        swiss_hidden = np.rint(v("swiss_facedown")[:, :, :n] * CARDS_PER_ROUND)  # (k, 3, n)
        where = v("contract_where")
        on_table = where[:, :, 1:4].sum(axis=2) > 0
        body = np.argmax(where[:, :, 1:4], axis=2)
        value = v("contract_value") * MAX_CONTRACT_VALUE
        vertical = cards[..., :NUM_BRIBES] @ VALUES  # (k, 24, n) $k
        swiss_value = assigned @ VALUES / 2
        known = vertical + swiss_value
        # a guess at each opponent's hidden money: face-down cards, and Swiss bribes spread over the body
        guess = facedown * HIDDEN_GUESS
        under = on_table[:, :, None] & (body[:, :, None] == np.arange(NUM_BODIES))  # (k, 24, 3)
        per_body = under.sum(axis=1).clip(min=1)  # (k, 3)
        for g in range(NUM_BODIES):
            spread = swiss_hidden[:, g] * HIDDEN_GUESS / 2 / per_body[:, g, None]  # (k, n)
            guess += np.where(under[:, :, g, None], spread[:, None, :], 0.0)
        guess[:, :, 0] = 0  # I know my own cards
        estimate = known + guess
        shown = cards[:, :, 1:]  # opponents' face-up cards
        legal = action_masks != 0
        first, last = np.argmax(legal, axis=1), legal.shape[1] - 1 - np.argmax(legal[:, ::-1], axis=1)
        return {
            "hand": v("my_hand") > 0, "cards": cards, "on_table": on_table, "body": body,
            "value": value, "vertical": vertical, "known": known, "estimate": estimate,
            "best_opp": estimate[:, :, 1:].max(axis=2), "da_shown": shown[..., DA].sum(axis=2) > 0,
            # the largest face-up bribe of an opponent on each contract ($k, 0 if none)
            "top_shown": np.where(shown[..., :NUM_BRIBES].max(axis=2) > 0, VALUES, 0.0).max(axis=2),
            "on_contracts": v("on_contracts")[:, 0] * CARDS_PER_ROUND,
            "round": np.argmax(v("round"), axis=1),
            "decision_contract": np.argmax(v("decision_contract"), axis=1),
            "decision_kind": np.argmax(v("decision_kind"), axis=1),
            "placing": (first < SWISS) | ((first < ASSIGN) & (last < ASSIGN)), "row": np.arange(k),
        }

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return first_row(self.act_batch(observation[None], np.asarray(action_mask)[None]))

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The rows are read (and the expert's plans made) for all rows at once; each row's rules then
        run in row order, so the few random draws are made in row order."""
        counts = legal_counts(action_masks, "HeuristicAgent")
        actions = nth_legal(action_masks, np.zeros(len(counts), np.int64))
        deciding = np.flatnonzero(counts > 1)
        if deciding.size:
            read = self._read(observations[deciding], action_masks[deciding])
            for r, info in zip(deciding, _rows(read)):
                actions[r] = self._decide(info, action_masks[r])
        return actions

    def _decide(self, info: dict, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        first = legal[0]
        if info["placing"]:
            action = self._place(info, action_mask)
        elif first < codec.KILL:
            action = self._assign(info, legal)
        elif first < REMOVE:
            action = self._kill(info, legal)
        else:
            action = self._report(info, legal)
        return int(action) if action is not None else int(legal[self.rng.integers(legal.size)])

    # --- Phase II ----------------------------------------------------------------------------------
    def _place(self, info: dict, mask: np.ndarray) -> int | None:
        hand, value, est = info["hand"], info["value"], info["estimate"]
        can = lambda kind, c: mask[codec.ACTIONS.encode("play", kind=kind, contract=c)] == 1
        table = np.flatnonzero(info["on_table"])
        mine = est[:, 0]
        best_opp = info["best_opp"]

        # 1. Hit Man against a visible opponent DA where I lead
        if hand[9]:
            for c in table[np.argsort(-value[table])]:
                if info["da_shown"][c] and mine[c] >= best_opp[c] and can(HIT_MAN, c):
                    return codec.ACTIONS.encode("play", kind=HIT_MAN, contract=c)

        bribes = [b for b in range(NUM_BRIBES) if hand[b]]
        faceup_next = info["on_contracts"] < info["round"] + 1
        # 2. Bid where a bribe in hand takes the lead at the best value per dollar
        best = None
        for c in table:
            need = best_opp[c] - mine[c] + 0.5
            for b in bribes:
                if VALUES[b] >= need and can(b, c):
                    score = value[c] / VALUES[b]
                    if best is None or score > best[0]:
                        best = (score, b, c, need)
                    break
        if best is not None and best[0] >= 40:
            _, b, c, need = best
            if faceup_next and VALUES[b] / 2 >= need and VALUES[b] >= 4:
                return codec.ACTIONS.encode("swiss", bribe=b, body=int(info["body"][c]))
            return codec.ACTIONS.encode("play", kind=b, contract=c)

        # 3. Reporter where I trail by no more than the leader's largest face-up bribe
        if hand[7] or hand[8]:
            for c in table[np.argsort(-value[table])]:
                gap = best_opp[c] - mine[c]
                if value[c] >= 500 and 0 < gap <= info["top_shown"][c] and mine[c] > 0 and can(REPORTER, c):
                    return codec.ACTIONS.encode("play", kind=REPORTER, contract=c)
        # 4. DA where an opponent leads beyond my reach
        if hand[6]:
            reach = max((VALUES[b] for b in bribes), default=0)
            for c in table[np.argsort(-value[table])]:
                if value[c] >= 700 and best_opp[c] - mine[c] > reach and can(DA, c):
                    return codec.ACTIONS.encode("play", kind=DA, contract=c)
        if best is not None:
            _, b, c, _ = best
            return codec.ACTIONS.encode("play", kind=b, contract=c)
        # 5. Dump the smallest bribe: on the best contract I lead, else on a Swiss account
        if bribes:
            b = bribes[0]
            leading = [c for c in table if mine[c] > 0 and mine[c] >= best_opp[c] and can(b, c)]
            if leading:
                return codec.ACTIONS.encode("play", kind=b, contract=max(leading, key=lambda c: value[c]))
            return codec.ACTIONS.encode("swiss", bribe=b, body=int(self.rng.integers(NUM_BODIES)))
        return None  # only characters left and none is useful: any legal card

    # --- Phase III ---------------------------------------------------------------------------------
    def _assign(self, info: dict, legal: np.ndarray) -> int:
        known, value = info["known"], info["value"]
        # the Swiss bribe's value is not in the observation's decision piece: the decision kind is it
        half = VALUES[info["decision_kind"]] / 2
        options = [a - ASSIGN for a in legal]
        wins = [c for c in options if known[c, 0] + half > known[c, 1:].max()]
        if wins:
            return ASSIGN + max(wins, key=lambda c: value[c])
        return ASSIGN + min(options, key=lambda c: (known[c, 1:].max() - known[c, 0], -value[c]))

    def _kill(self, info: dict, legal: np.ndarray) -> int:
        def priority(action: int) -> tuple:
            rel, slot = divmod(action - KILL, KILL_SLOTS)
            return (rel != 0, {0: 3, 1: 2, 2: 2, 3: 1}[slot])

        return max(legal, key=priority)

    def _report(self, info: dict, legal: np.ndarray) -> int:
        c = info["decision_contract"]
        totals = info["known"][c].copy()
        options = [a for a in legal if a != DECLINE]
        best, best_key = None, None
        for a in options:
            rel, b = divmod(a - REMOVE, NUM_BRIBES)
            after = totals.copy()
            after[rel] -= VALUES[b]
            top = after.max()
            i_win = after[0] == top and (after == top).sum() == 1
            key = (i_win, rel != 0, -top if rel != 0 else -1e9, VALUES[b] if rel != 0 else -VALUES[b])
            if best_key is None or key > best_key:
                best, best_key = a, key
        if DECLINE in legal and (best is None or (best - REMOVE) // NUM_BRIBES == 0):
            return DECLINE
        return best


def _rows(read: dict) -> list[dict]:
    """One dict per row of a batched read; whole numbers become Python ints."""
    columns = {name: a.tolist() if a.ndim == 1 and a.dtype.kind in "ib" else a for name, a in read.items()}
    return [{name: a[r] for name, a in columns.items()} for r in range(len(read["row"]))]
