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
from ..core.jit import njit

from .heuristic import PLAY_ACTION, VALUES, HeuristicAgent, da_fits, heuristic_place, hit_man, reporter_fits
from .tables import CARDS_PER_ROUND, DA, NUM_BODIES, NUM_BRIBES, REPORTER

STEP = 0.5  # $k resolution of contract totals (a Swiss bribe counts half)
GRID = np.arange(0, 2 * VALUES.sum() + 1) * STEP  # my possible totals on one contract
MIN_SD = 0.3  # $k: a total known exactly still gets a little spread (keeps the probabilities smooth)
CHARACTER_COST = 0.3  # play a character only when a bribe fewer costs less than this share of its contract
PLAN_BLOCK = 64  # rows planned at once: their worth grids stay in cache
NUM_SUBSETS = 1 << NUM_BRIBES
SUBSET_SIZE = np.array([bin(m).count("1") for m in range(NUM_SUBSETS)])
SUBSET_STEPS = np.array([round(sum(VALUES[b] for b in range(NUM_BRIBES) if m >> b & 1) / STEP)
                         for m in range(NUM_SUBSETS)])  # each subset's money, in steps of the grid


# the standard normal CDF is approximated by the logistic 1 / (1 + exp(-LOGISTIC * x)) (error < 0.01;
# numpy has no erf)
LOGISTIC = 1.702
GRID_BELOW = GRID - STEP  # half a step below each total: strictly below an opponent's (discrete) total


@njit
def _exponents(mu: np.ndarray, sd: np.ndarray, out: np.ndarray) -> None:
    """out[j, o, i] = -LOGISTIC * (GRID_BELOW[i] - mu[j, o]) / sd[j, o], as numpy's operations round it."""
    for j in range(mu.shape[0]):
        for o in range(mu.shape[1]):
            for i in range(GRID_BELOW.size):
                out[j, o, i] = (GRID_BELOW[i] - mu[j, o]) / sd[j, o] * -LOGISTIC


@njit
def _win_worth(exps: np.ndarray, absent: np.ndarray, value: np.ndarray, out: np.ndarray) -> None:
    """out[j, i] = value[j] * P(every opponent ends below GRID[i]): the product over the opponents, in
    their order, of 1 / (1 + exps[j, o, i]) (1 for an absent seat); 0 for no money bid (i = 0)."""
    for j in range(exps.shape[0]):
        for i in range(exps.shape[2]):
            win = 1.0  # times the first factor is that factor exactly, as numpy's product starts
            for o in range(exps.shape[1]):
                if not absent[j, o]:
                    win *= 1.0 / (1.0 + exps[j, o, i])
            out[j, i] = value[j] * (win if i else 0.0)


class ExpertAgent(HeuristicAgent):
    """Plays any seat from (observation, action_mask); deterministic given its seed."""

    def _opponent_totals(self, observations: np.ndarray, read: dict) -> tuple[np.ndarray, np.ndarray]:
        """Mean and standard deviation of each opponent's end-of-round total, (k, contracts, n - 1), n the
        seats of `read`'s cards (a smaller game's extra seats get numbers too: `_worth` ignores them)."""
        v = lambda name: self._view(observations, name)
        n, table, value = read["cards"].shape[2], read["on_table"], read["value"]
        rows = np.arange(len(observations))[:, None]
        cards = read["cards"][:, :, 1:]  # opponents' public vertical cards (k, 24, n-1, 9)
        facedown = np.rint(v("facedown")[:, :, 1:n] * CARDS_PER_ROUND)
        swiss_hidden = np.rint(v("swiss_facedown")[:, :, 1:n] * CARDS_PER_ROUND)  # (k, 3, n-1)
        gone = v("chars_gone")[:, 1:n]  # (k, n-1, 3): DA, Reporters (1/2 each), Hit Man
        left = np.rint(CARDS_PER_ROUND * (1 - v("placed")[:, 1:n]))[:, None, :]
        shown = cards[..., :NUM_BRIBES].sum(axis=1) > 0  # (k, n-1, 6) bribes seen this round
        unseen_money = (~shown) @ VALUES
        unseen_bribes = (~shown).sum(axis=2).clip(min=1)
        characters_left = (1 - gone[..., 0]) + 2 * (1 - gone[..., 1]) + (1 - gone[..., 2])
        unseen_cards = (~shown).sum(axis=2) + characters_left.clip(min=0)
        unseen_cards = unseen_cards.clip(min=1)
        # per opponent, broadcast over contracts
        mean = (unseen_money / unseen_cards)[:, None, :]  # a face-down or future card: a bribe or a character
        square = (((~shown) @ VALUES**2) / unseen_cards)[:, None, :]
        var = square - mean**2
        bribe_mean = (unseen_money / unseen_bribes)[:, None, :]
        share = np.where(table, value, 0.0)
        share = (share / np.maximum(share.sum(axis=1, keepdims=True), 1.0))[:, :, None]  # where future cards go
        body = read["body"]
        per_body = (table[:, :, None] & (body[:, :, None] == np.arange(NUM_BODIES))).sum(axis=1).clip(min=1)
        swiss_share = (np.where(table, 1.0 / per_body[rows, body], 0.0)[:, :, None]
                       * swiss_hidden[rows, body])  # (k, 24, n-1)
        mu = (read["vertical"][:, :, 1:] + facedown * mean + swiss_share * bribe_mean / 2
              + share * left * mean)
        sd2 = (facedown * var + swiss_share * bribe_mean**2 / 4
               + left * (share * square - share ** 2 * mean**2))
        return mu, np.sqrt(sd2.clip(min=0)) + MIN_SD

    def _worth(self, observations: np.ndarray, read: dict) -> tuple[np.ndarray, np.ndarray]:
        """worth[j, i]: value(c) * P(I win c with total GRID[i]) for the j-th (row, contract) on the table
        (only these are planned over: the grid is costly), and where[r, c]: that j (-1 off the table)."""
        mu, sd = self._opponent_totals(observations, read)
        table = np.nonzero(read["on_table"])
        where = np.full(read["on_table"].shape, -1)
        where[table] = np.arange(table[0].size)
        mu, sd = mu[table], sd[table]  # (j, opponent)
        # below an opponent's total by at least half a step, i.e. strictly below their (discrete) total:
        # normal_cdf((GRID - STEP - mu) / sd) operation by operation, numpy's exp between two compiled passes
        cdf = np.empty((*mu.shape, GRID.size))
        _exponents(mu, sd, cdf)
        np.exp(cdf, out=cdf)
        # a seat beyond its row's game is beaten for sure: a factor 1 leaves the product exact
        absent = self._view(observations, "seats")[:, 1:mu.shape[1] + 1][table[0]] == 0
        worth = np.empty((len(mu), GRID.size))
        _win_worth(cdf, absent, read["value"][table].astype(np.float64), worth)
        return worth, where

    def _my_totals(self, observations: np.ndarray, read: dict) -> np.ndarray:
        """My total on each contract now: vertical bribes, plus my Swiss bribes at half value on the
        contract under that body where I have most (where the assignment step would likely put them)."""
        mine = read["known"][:, :, 0].copy()
        swiss = self._view(observations, "swiss")[:, :, 0] @ VALUES / 2  # (k, 3)
        for g in range(NUM_BODIES):
            under = read["on_table"] & (read["body"] == g)
            rows = np.flatnonzero((swiss[:, g] != 0) & under.any(axis=1))
            target = np.argmax(np.where(under, mine * 1e4 + read["value"], -np.inf)[rows], axis=1)
            mine[rows, target] += swiss[rows, g]
        return mine

    def _read(self, observations: np.ndarray, action_masks: np.ndarray) -> dict:
        """The heuristic's read, and for the rows placing a card on a table with contracts: my totals and
        the plan (its worth, the worth of a plan with one bribe fewer, its largest bribe and contract)."""
        read = super()._read(observations, action_masks)
        k = len(observations)
        read["mine"] = read["known"][:, :, 0].copy()
        read["plan"] = np.zeros((k, 4))
        planning = np.flatnonzero(read["placing"] & read["on_table"].any(axis=1))
        for start in range(0, planning.size, PLAN_BLOCK):
            block = planning[start:start + PLAN_BLOCK]
            part = {name: a[block] for name, a in read.items()}
            obs = observations[block]
            mine = self._my_totals(obs, part)
            slots = CARDS_PER_ROUND - np.rint(self._view(obs, "placed")[:, 0] * CARDS_PER_ROUND).astype(np.int64)
            held = part["hand"][:, :NUM_BRIBES].astype(np.int64) @ (1 << np.arange(NUM_BRIBES))
            gain, fewer, bribe, contract = plan_rows(*self._worth(obs, part), np.rint(mine / STEP).astype(np.int64),
                                                     part["on_table"], held, slots)
            read["mine"][block] = mine
            read["plan"][block] = np.stack([gain, fewer, bribe, contract], axis=1)
        return read

    def _place(self, read: dict, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return expert_place_rows(*self._place_inputs(read, masks), read["mine"], read["plan"])


@njit
def expert_place_rows(placing, hand, value, estimated, best_opp, da_shown, top_shown, by_value, on_table, body,
                      faceup_next, masks, mine, plan) -> tuple[np.ndarray, np.ndarray]:
    """expert_place for each row placing a card (the heuristic's place_rows, with my totals and plans)."""
    chosen, dump = np.full(len(placing), -1), np.full(len(placing), -1)
    for r in range(len(placing)):
        if placing[r]:
            chosen[r], dump[r] = expert_place(hand[r], value[r], estimated[r], best_opp[r], da_shown[r], top_shown[r],
                                              by_value[r], on_table[r], body[r], faceup_next[r], masks[r], mine[r],
                                              plan[r])
    return chosen, dump


@njit
def expert_place(hand, value, estimated, best_opp, da_shown, top_shown, by_value, on_table, body, faceup_next, mask,
                 mine, plan) -> tuple[int, int]:
    """The module's steps 4-5 for one row, then the heuristic's rules (as heuristic_place returns);
    `mine`: my totals, `plan`: (its worth, the worth with a bribe fewer, its largest bribe, its contract)."""
    if not on_table.any():
        return -1, -1
    hit = hit_man(hand, mine, best_opp, da_shown, by_value, mask)  # the heuristic's rule, on my totals
    if hit >= 0:
        return hit, -1
    cost = plan[0] - plan[1]  # what a character placement costs the plan
    for c in by_value:
        # the share in float32, as numpy multiplies a Python float by a float32 value
        if c < 0 or cost >= np.float32(CHARACTER_COST) * value[c]:
            break
        if reporter_fits(c, hand, value, mine, best_opp, top_shown, mask):
            return PLAY_ACTION[REPORTER, c], -1
        if da_fits(c, hand, value, mine, best_opp, mask):
            return PLAY_ACTION[DA, c], -1
    bribe, contract = int(plan[2]), int(plan[3])
    if bribe >= 0 and mask[PLAY_ACTION[bribe, contract]] == 1:
        # the plan's largest bribe: a face-up card that size warns later bidders off
        return PLAY_ACTION[bribe, contract], -1
    return heuristic_place(hand, value, estimated, best_opp, da_shown, top_shown, by_value, on_table, body,
                           faceup_next, mask)


@njit
def plan_rows(worth: np.ndarray, where: np.ndarray, at: np.ndarray, table: np.ndarray, held: np.ndarray,
              slots: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row, the best split of the bribes in `held` (a bit set), at most `slots` of them, over the
    table's contracts (contract c's worth grid is worth[where[r, c]], my total on it GRID[at[r, c]]), by
    dynamic programming over contracts and subsets of bribes: the worth it gains,
    the worth gained with at most slots - 1 bribes (0 with one slot), and its largest bribe and that
    bribe's contract (-1, -1 for an empty plan). Ties go to the lowest subset, as numpy's argmax would."""
    k = table.shape[0]
    gains, fewer = np.zeros(k), np.zeros(k)
    top_bribe, top_contract = np.full(k, -1), np.full(k, -1)
    for r in range(k):
        contracts = np.flatnonzero(table[r])
        stages, gain = _stages(worth, where[r], at[r], contracts, held[r])
        gains[r], plan = _best(stages, gain, held[r], slots[r])
        if slots[r] > 1:  # the same stages: only the number of bribes allowed differs
            fewer[r] = _best(stages, gain, held[r], slots[r] - 1)[0]
        for b in range(NUM_BRIBES - 1, -1, -1):
            if plan[b] >= 0:
                top_bribe[r], top_contract[r] = b, contracts[plan[b]]
                break
    return gains, fewer, top_bribe, top_contract


@njit
def _stages(worth: np.ndarray, where: np.ndarray, at: np.ndarray, contracts: np.ndarray, held: int
            ) -> tuple[np.ndarray, np.ndarray]:
    """gain[j, s]: the worth subset s adds on the j-th table contract; stages[0]: the empty plan, and
    stages[j + 1, s]: the best worth added on the first j + 1 contracts by exactly the bribes of subset s
    (-inf where s is out of reach)."""
    m = contracts.size
    # only subsets of the bribes held are ever reached or read: gain is left 0 on the others, and the
    # stages walk the subsets a of what h leaves (their order is free: each a reaches its own h | a)
    gain = np.zeros((m, NUM_SUBSETS))
    for j in range(m):
        c = contracts[j]
        grid = worth[where[c]]
        s = held
        while True:
            gain[j, s] = grid[min(at[c] + SUBSET_STEPS[s], GRID.size - 1)] - grid[at[c]]
            if s == 0:
                break
            s = (s - 1) & held
    stages = np.full((m + 1, NUM_SUBSETS), -np.inf)
    stages[0, 0] = 0.0
    for j in range(m):
        for h in range(NUM_SUBSETS):
            if stages[j, h] == -np.inf:
                continue
            free = held & ~h
            a = free
            while True:
                if stages[j, h] + gain[j, a] > stages[j + 1, h | a]:
                    stages[j + 1, h | a] = stages[j, h] + gain[j, a]
                if a == 0:
                    break
                a = (a - 1) & free
    return stages, gain


@njit
def _best(stages: np.ndarray, gain: np.ndarray, held: int, slots: int) -> tuple[float, np.ndarray]:
    """The best plan of at most `slots` bribes: its worth and, per bribe, the index of its contract in
    the table (-1: not placed), walking the stages back to each contract's subset."""
    m = gain.shape[0]
    target, total = 0, stages[m, 0]
    for s in range(1, NUM_SUBSETS):
        if SUBSET_SIZE[s] <= slots and s & ~held == 0 and stages[m, s] > total:
            target, total = s, stages[m, s]
    plan = np.full(NUM_BRIBES, -1)
    for j in range(m - 1, -1, -1):
        chosen, chosen_value = 0, stages[j, target] + gain[j, 0]
        for s in range(1, NUM_SUBSETS):
            if s & target == s and stages[j, target ^ s] + gain[j, s] > chosen_value:
                chosen, chosen_value = s, stages[j, target ^ s] + gain[j, s]
        for b in range(NUM_BRIBES):
            if chosen >> b & 1:
                plan[b] = j
        target ^= chosen
    return total, plan
