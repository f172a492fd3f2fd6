"""The 'expert' Corruption bot: it plans all its bribes of the round at once against a model of the
opponents. Like the heuristic it reads only its observation, its mask and the static tables.

Phase II (placing cards):
  1. Opponent model: each opponent's final total on each contract is a normal variable whose mean is
     their face-up bribes, plus each of their face-down cards at the mean of their unseen cards (their
     bribes not shown this round and their characters not yet public), plus their Swiss cards spread
     over that body's contracts, plus the cards they still have to place this round spread over the
     table in proportion to contract value (the variance follows the same draws).
  2. The worth of ending the round with total m on contract c is value(c) * P(every opponent ends
     below m) (a tie awards nothing).
  3. Plan: the split of my bribes in hand over the contracts that maximizes the summed worth, at most
     one bribe per placement I have left: exact, by dynamic programming over contracts and subsets
     of my (at most six) bribes.
  4. Characters: the heuristic's Hit Man rule first; a Reporter or DA where the heuristic's rule
     calls for one and the plan loses little by placing one bribe fewer.
  5. Otherwise play the plan's largest bribe on its contract: a face-up card that size warns later
     bidders off, and the smaller ones follow face-down.
Phase III (Swiss assignment, Hit Man victims, Reporter removals) is the heuristic's.
"""
from __future__ import annotations

import numpy as np

from . import codec
from .heuristic import HeuristicAgent, VALUES
from .tables import CARDS_PER_ROUND, DA, HIT_MAN, NUM_BODIES, NUM_BRIBES, REPORTER

STEP = 0.5  # $k resolution of contract totals (a Swiss bribe counts half)
GRID = np.arange(0, 2 * VALUES.sum() + 1) * STEP  # my possible totals on one contract
MIN_SD = 0.3  # $k: a total known exactly still gets a little spread (keeps the probabilities smooth)
CHARACTER_COST = 0.3  # play a character only when a bribe fewer costs less than this share of its contract
NUM_SUBSETS = 1 << NUM_BRIBES
# every (held, added) pair of disjoint bribe subsets, for the dynamic programme over contracts
_HELD, _ADDED = (a.ravel() for a in np.meshgrid(np.arange(NUM_SUBSETS), np.arange(NUM_SUBSETS), indexing="ij"))
_DISJOINT = (_HELD & _ADDED) == 0
HELD, ADDED = _HELD[_DISJOINT], _ADDED[_DISJOINT]
SUBSET_SIZE = np.array([bin(m).count("1") for m in range(NUM_SUBSETS)])
SUBSET_STEPS = np.array([round(sum(VALUES[b] for b in range(NUM_BRIBES) if m >> b & 1) / STEP)
                         for m in range(NUM_SUBSETS)])  # each subset's money, in steps of the grid


def normal_cdf(x: np.ndarray) -> np.ndarray:
    """A logistic approximation of the standard normal CDF (error < 0.01; numpy has no erf)."""
    return 1.0 / (1.0 + np.exp(-1.702 * x))


class ExpertAgent(HeuristicAgent):
    """Plays any seat from (observation, action_mask); deterministic given its seed."""

    def _opponent_totals(self, obs: np.ndarray, info: dict) -> tuple[np.ndarray, np.ndarray]:
        """Mean and standard deviation of each opponent's end-of-round total, (contracts, n - 1)."""
        v = lambda name: self.layout.view(obs, name)
        n, table, value = self.n, info["on_table"], info["value"]
        cards = info["cards"][:, 1:]  # opponents' public vertical cards (24, n-1, 9)
        facedown = np.rint(v("facedown")[:, 1:n] * CARDS_PER_ROUND)
        swiss_hidden = np.rint(v("swiss_facedown")[:, 1:n] * CARDS_PER_ROUND)  # (3, n-1)
        gone = v("chars_gone")[1:n]  # (n-1, 3): DA, Reporters (1/2 each), Hit Man
        left = np.rint(CARDS_PER_ROUND * (1 - v("placed")[1:n]))
        shown = cards[:, :, :NUM_BRIBES].sum(axis=0) > 0  # (n-1, 6) bribes seen this round
        unseen_money = (~shown) @ VALUES
        unseen_bribes = (~shown).sum(axis=1).clip(min=1)
        characters_left = (1 - gone[:, 0]) + 2 * (1 - gone[:, 1]) + (1 - gone[:, 2])
        unseen_cards = (~shown).sum(axis=1) + characters_left.clip(min=0)
        unseen_cards = unseen_cards.clip(min=1)
        mean = unseen_money / unseen_cards  # a face-down or future card: a bribe or a character
        square = ((~shown) @ VALUES**2) / unseen_cards
        var = square - mean**2
        bribe_mean = unseen_money / unseen_bribes
        share = np.where(table, value, 0.0)
        share = share / max(share.sum(), 1.0)  # where future cards go
        body = info["body"]
        per_body = np.bincount(body[table], minlength=NUM_BODIES).clip(min=1)
        swiss_share = np.where(table, 1.0 / per_body[body], 0.0)[:, None] * swiss_hidden[body]  # (24, n-1)
        mu = (info["vertical"][:, 1:] + facedown * mean + swiss_share * bribe_mean / 2
              + share[:, None] * left * mean)
        sd2 = (facedown * var + swiss_share * bribe_mean**2 / 4
               + left * (share[:, None] * square - share[:, None] ** 2 * mean**2))
        return mu, np.sqrt(sd2.clip(min=0)) + MIN_SD

    def _worth(self, obs: np.ndarray, info: dict) -> np.ndarray:
        """worth[c, i]: value(c) * P(I win c with total GRID[i]) on the table's contracts, 0 elsewhere."""
        mu, sd = self._opponent_totals(obs, info)
        # below an opponent's total by at least half a step, i.e. strictly below their (discrete) total
        z = (GRID[None, :, None] - STEP - mu[:, None, :]) / sd[:, None, :]
        win = normal_cdf(z).prod(axis=2)
        win[:, 0] = 0.0  # nothing bid, nothing won
        return np.where(info["on_table"], info["value"], 0.0)[:, None] * win

    def _my_totals(self, obs: np.ndarray, info: dict) -> np.ndarray:
        """My total on each contract now: vertical bribes, plus my Swiss bribes at half value on the
        contract under that body where I have most (where the assignment step would likely put them)."""
        mine = info["known"][:, 0].copy()
        swiss = self.layout.view(obs, "swiss")[:, 0] @ VALUES / 2
        for g in np.flatnonzero(swiss):
            under = np.flatnonzero(info["on_table"] & (info["body"] == g))
            if under.size:
                mine[under[np.argmax(mine[under] * 1e4 + info["value"][under])]] += swiss[g]
        return mine

    def _plan(self, worth: np.ndarray, mine: np.ndarray, bribes: list[int], slots: int,
              contracts: np.ndarray) -> tuple[float, list[tuple[int, int]]]:
        """The best split of `bribes` (at most `slots` of them) over `contracts`: (worth gained,
        [(bribe, contract), ...])."""
        held = sum(1 << b for b in bribes)
        usable = (ADDED & ~held) == 0
        held_ok, added_ok = HELD[usable], ADDED[usable]
        at = np.rint(mine[contracts] / STEP).astype(np.int64)
        # gain[k, s]: worth added on contract k by the bribes of subset s
        idx = np.minimum(at[:, None] + SUBSET_STEPS[None, :], GRID.size - 1)
        gain = np.take_along_axis(worth[contracts], idx, axis=1) - worth[contracts, at][:, None]
        best = np.full(NUM_SUBSETS, -np.inf)
        best[0] = 0.0
        stages = [best]
        for k in range(len(contracts)):
            new = np.full(NUM_SUBSETS, -np.inf)
            np.maximum.at(new, held_ok | added_ok, best[held_ok] + gain[k, added_ok])
            best = new
            stages.append(best)
        allowed = (SUBSET_SIZE <= slots) & ((np.arange(NUM_SUBSETS) & ~held) == 0)
        target = int(np.argmax(np.where(allowed, best, -np.inf)))
        total, plan = float(best[target]), []
        for k in range(len(contracts) - 1, -1, -1):  # walk the stages back to each contract's subset
            subs = [s for s in range(NUM_SUBSETS) if s & target == s]
            s = max(subs, key=lambda s: stages[k][target ^ s] + gain[k, s])
            plan += [(b, int(contracts[k])) for b in range(NUM_BRIBES) if s >> b & 1]
            target ^= s
        return total, plan

    def _place(self, info: dict, mask: np.ndarray) -> int | None:
        obs = info["obs"]
        hand, value = info["hand"], info["value"]
        table = np.flatnonzero(info["on_table"])
        can = lambda kind, c: mask[codec.ACTIONS.encode("play", kind=kind, contract=c)] == 1
        if table.size == 0:
            return None
        worth = self._worth(obs, info)
        mine = self._my_totals(obs, info)
        est_opp = info["estimate"][:, 1:].max(axis=1)
        shown = info["cards"][:, 1:]
        slots = CARDS_PER_ROUND - int(round(self.layout.view(obs, "placed")[0] * CARDS_PER_ROUND))
        bribes = [b for b in range(NUM_BRIBES) if hand[b]]
        by_value = table[np.argsort(-value[table])]

        # Hit Man against a visible opponent DA where I lead (the heuristic's rule)
        if hand[9]:
            for c in by_value:
                if shown[c, :, DA].sum() > 0 and mine[c] >= est_opp[c] and can(HIT_MAN, c):
                    return codec.ACTIONS.encode("play", kind=HIT_MAN, contract=c)
        gain, plan = self._plan(worth, mine, bribes, slots, table)
        fewer, _ = self._plan(worth, mine, bribes, slots - 1, table) if slots > 1 else (0.0, [])
        cost = gain - fewer  # what a character placement costs the plan

        reach = max((VALUES[b] for b in bribes), default=0)
        for c in by_value:
            if cost >= CHARACTER_COST * value[c]:
                break
            gap = est_opp[c] - mine[c]
            top = max((VALUES[b] for b in range(NUM_BRIBES) if shown[c, :, b].max() > 0), default=0)
            if (hand[7] or hand[8]) and value[c] >= 500 and 0 < gap <= top and mine[c] > 0 and can(REPORTER, c):
                return codec.ACTIONS.encode("play", kind=REPORTER, contract=c)
            if hand[6] and value[c] >= 700 and gap > reach and can(DA, c):
                return codec.ACTIONS.encode("play", kind=DA, contract=c)
        if plan:
            b, c = max(plan, key=lambda bc: (VALUES[bc[0]], value[bc[1]]))
            if can(b, c):
                return codec.ACTIONS.encode("play", kind=b, contract=c)
        return super()._place(info, mask)

    def _read(self, obs: np.ndarray) -> dict:
        return {**super()._read(obs), "obs": obs}
