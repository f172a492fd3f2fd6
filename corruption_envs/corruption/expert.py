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

from .heuristic import (
    CARDS_AT,
    DECIDE_NAMES,
    FACEDOWN_AT,
    GONE_AT,
    PLACED_AT,
    PLAY_ACTION,
    SWISS_AT,
    SWISS_FACEDOWN_AT,
    VALUES,
    HeuristicAgent,
    da_fits,
    heuristic_place,
    hit_man,
    phase_three,
    reporter_fits,
)
from .tables import CARDS_PER_ROUND, DA, MAX_PLAYERS, NUM_BODIES, NUM_BRIBES, NUM_CONTRACTS, NUM_KINDS, REPORTER

STEP = 0.5  # $k resolution of contract totals (a Swiss bribe counts half)
GRID = np.arange(0, 2 * VALUES.sum() + 1) * STEP  # my possible totals on one contract
MIN_SD = 0.3  # $k: a total known exactly still gets a little spread (keeps the probabilities smooth)
CHARACTER_COST = 0.3  # play a character only when a bribe fewer costs less than this share of its contract
PLAN_BLOCK = 64  # rows planned at once: their worth grids stay in cache
NUM_SUBSETS = 1 << NUM_BRIBES
SUBSET_SIZE = np.array([bin(m).count("1") for m in range(NUM_SUBSETS)])
SUBSET_STEPS = np.array([round(sum(VALUES[b] for b in range(NUM_BRIBES) if m >> b & 1) / STEP)
                         for m in range(NUM_SUBSETS)])  # each subset's money, in steps of the grid
MAX_SUMS = np.unique(SUBSET_STEPS).size  # the sums a hand of bribes can make


# the standard normal CDF is approximated by the logistic 1 / (1 + exp(-LOGISTIC * x)) (error < 0.01;
# numpy has no erf)
LOGISTIC = 1.702
GRID_BELOW = GRID - STEP  # half a step below each total: strictly below an opponent's (discrete) total


@njit
def _exponents(mu: np.ndarray, sd: np.ndarray, points: np.ndarray, counts: np.ndarray, out: np.ndarray) -> None:
    """out[j, o, q] = -LOGISTIC * (GRID_BELOW[i] - mu[j, o]) / sd[j, o] at the grid point i = points[j, q],
    q < counts[j], as numpy's operations round it."""
    for j in range(mu.shape[0]):
        below = GRID_BELOW[points[j, :counts[j]]]  # gathered once: the loop over them vectorizes
        for o in range(mu.shape[1]):
            for q in range(below.size):
                out[j, o, q] = (below[q] - mu[j, o]) / sd[j, o] * -LOGISTIC


@njit
def _win_worth(exps: np.ndarray, absent: np.ndarray, value: np.ndarray, points: np.ndarray, counts: np.ndarray,
               out: np.ndarray) -> None:
    """out[j, i] = value[j] * P(every opponent ends below GRID[i]) at the grid points i = points[j, q],
    q < counts[j]: the product over the opponents, in their order, of 1 / (1 + exps[j, o, q]) (1 for an
    absent seat); 0 for no money bid (i = 0)."""
    for j in range(exps.shape[0]):
        for q in range(counts[j]):
            win = 1.0  # times the first factor is that factor exactly, as numpy's product starts
            for o in range(exps.shape[1]):
                if not absent[j, o]:
                    win *= 1.0 / (1.0 + exps[j, o, q])
            i = points[j, q]
            out[j, i] = value[j] * (win if i else 0.0)


@njit
def grid_points(where: np.ndarray, at: np.ndarray, held: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The grid points the plan reads of the j-th (row, contract) on the tables (where[i, c] = j): my total
    there (at[i, c]) plus each sum of the bribes I hold (the top of the grid at most), in points[j,
    :counts[j]]."""
    size = where.max() + 1
    points, counts = np.zeros((size, MAX_SUMS), np.int64), np.zeros(size, np.int64)
    for i in range(where.shape[0]):
        sums = np.zeros(GRID.size, np.bool_)
        s = held[i]
        while True:  # the subsets of what I hold
            sums[SUBSET_STEPS[s]] = True
            if s == 0:
                break
            s = (s - 1) & held[i]
        steps = np.flatnonzero(sums)
        for c in range(NUM_CONTRACTS):
            j = where[i, c]
            if j >= 0:
                counts[j] = steps.size
                for q in range(steps.size):
                    points[j, q] = min(at[i, c] + steps[q], GRID.size - 1)
    return points, counts


class ExpertAgent(HeuristicAgent):
    """Plays any seat from (observation, action_mask); deterministic given its seed."""

    def _read(self, observations: np.ndarray, rows: np.ndarray, masks: np.ndarray) -> dict:
        """The heuristic's read, and for the rows placing a card on a table with contracts: my totals and
        the plan (its worth, the worth of a plan with one bribe fewer, its largest bribe and contract)."""
        read = super()._read(observations, rows, masks)
        read["my_totals"] = read["mine"].copy()
        read["plan"] = np.zeros((len(rows), 4))
        planning = np.flatnonzero(read["placing"] & read["on_table"].any(axis=1))
        for start in range(0, planning.size, PLAN_BLOCK):
            block = planning[start:start + PLAN_BLOCK]
            read["plan"][block] = self._plan(observations, rows, block, read)
        return read

    def _plan(self, observations: np.ndarray, rows: np.ndarray, block: np.ndarray, read: dict) -> np.ndarray:
        """Per row of `block` (into `rows`), its plan as plan_rows makes it, in four columns; its totals
        into read["my_totals"]."""
        at, held, slots = plan_inputs(observations, rows, block, read["hand"], read["on_table"], read["body"],
                                      read["value"], read["my_totals"])
        mu, sd, absent, value, where = opponent_model(observations, rows, block, read["seats"], read["value"],
                                                      read["on_table"], read["body"], read["vertical"])
        worth = win_worth(mu, sd, absent, value, *grid_points(where, at, held))
        plan = plan_rows(worth, where, at, read["on_table"][block], held, slots)
        return np.stack(plan, axis=1)

    def _decide(self, read: dict, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return expert_decide_rows(*(read[name] for name in DECIDE_NAMES), masks, read["my_totals"], read["plan"])


@njit
def plan_inputs(observations: np.ndarray, rows: np.ndarray, block: np.ndarray, hand: np.ndarray,
                on_table: np.ndarray, body: np.ndarray, value: np.ndarray, totals: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row r of `block` (observation rows[r]): my total on each contract now, into totals[r] (my
    vertical bribes there already): plus my Swiss bribes at half value on the contract under that body
    where I have most (where the assignment step would likely put them); that total in steps of the grid;
    my bribes in hand as a bit set; the placements I have left this round."""
    at, held, slots = np.zeros((block.size, NUM_CONTRACTS), np.int64), np.zeros(block.size, np.int64), \
        np.zeros(block.size, np.int64)
    for i in range(block.size):
        r = block[i]
        obs = observations[rows[r]]
        swiss = obs[SWISS_AT:SWISS_FACEDOWN_AT].reshape((NUM_BODIES, MAX_PLAYERS, NUM_BRIBES))
        for g in range(NUM_BODIES):
            money = 0.0
            for b in range(NUM_BRIBES):
                money += swiss[g, 0, b] * VALUES[b]
            target, best = -1, -np.inf
            for c in range(NUM_CONTRACTS):  # the first best, as argmax
                if on_table[r, c] and body[r, c] == g and totals[r, c] * 1e4 + value[r, c] > best:
                    target, best = c, totals[r, c] * 1e4 + value[r, c]
            if money != 0 and target >= 0:
                totals[r, target] += money / 2
        for c in range(NUM_CONTRACTS):
            at[i, c] = np.int64(np.rint(totals[r, c] / STEP))
        for b in range(NUM_BRIBES):
            held[i] |= hand[r, b] << b
        slots[i] = CARDS_PER_ROUND - np.int64(np.rint(obs[PLACED_AT] * np.float32(CARDS_PER_ROUND)))
    return at, held, slots


@njit
def opponent_model(observations: np.ndarray, rows: np.ndarray, block: np.ndarray, seats: np.ndarray,
                   value: np.ndarray, on_table: np.ndarray, body: np.ndarray, vertical: np.ndarray) -> tuple:
    """Mean and standard deviation of each opponent's end-of-round total on the j-th (row, contract) of the
    tables of `block`'s rows (observation rows[r]), (j, the most opponents of a row), whether that seat is
    absent from its row's game, the contract's value (float64), and where[i, c]: that j (-1 off the table).
    The module's model, rounded as the numpy operations over float32 observation pieces rounded it."""
    where = np.full((block.size, NUM_CONTRACTS), -1)
    size, width = 0, 0
    for i in range(block.size):
        width = max(width, seats[block[i]] - 1)
        for c in range(NUM_CONTRACTS):
            if on_table[block[i], c]:
                where[i, c], size = size, size + 1
    mu, sd, absent = np.zeros((size, width)), np.ones((size, width)), np.ones((size, width), np.bool_)
    contract_value = np.zeros(size)
    for i in range(block.size):
        r = block[i]
        obs = observations[rows[r]]
        # where future cards go: a table contract's share of the table's value (float32)
        table_value = np.float32(0)
        for c in range(NUM_CONTRACTS):
            if on_table[r, c]:
                table_value += value[r, c]
        per_body = np.zeros(NUM_BODIES, np.int64)
        for c in range(NUM_CONTRACTS):
            if on_table[r, c]:
                per_body[body[r, c]] += 1
                contract_value[where[i, c]] = value[r, c]
        for o in range(1, seats[r]):
            mean, square, bribe_mean = unseen_card_moments(obs, o)
            left = np.rint(np.float32(CARDS_PER_ROUND) * (np.float32(1) - obs[PLACED_AT + o]))
            for c in range(NUM_CONTRACTS):
                if not on_table[r, c]:
                    continue
                j, g = where[i, c], body[r, c]
                share = value[r, c] / max(table_value, np.float32(1))
                facedown = np.rint(obs[FACEDOWN_AT + c * MAX_PLAYERS + o] * np.float32(CARDS_PER_ROUND))
                swiss_hidden = np.rint(obs[SWISS_FACEDOWN_AT + g * MAX_PLAYERS + o] * np.float32(CARDS_PER_ROUND))
                swiss_share = 1.0 / max(per_body[g], 1) * swiss_hidden  # Swiss cards spread over the body's contracts
                mu[j, o - 1] = (vertical[r, c, o] + facedown * mean + swiss_share * bribe_mean / 2
                                + np.float32(share * left) * mean)
                sd2 = (facedown * (square - mean * mean) + swiss_share * (bribe_mean * bribe_mean) / 4
                       + left * (share * square - np.float32(share * share) * (mean * mean)))
                sd[j, o - 1] = np.sqrt(max(sd2, 0.0)) + MIN_SD
                absent[j, o - 1] = False
    return mu, sd, absent, contract_value, where


@njit
def unseen_card_moments(obs: np.ndarray, o: int) -> tuple[float, float, float]:
    """Opponent o's unseen cards (their bribes not shown this round, their characters not yet public): the
    mean value and mean squared value of one ($k), and the mean value of an unseen bribe."""
    cards = obs[CARDS_AT:FACEDOWN_AT].reshape((NUM_CONTRACTS, MAX_PLAYERS, NUM_KINDS))
    money, square, bribes = 0.0, 0.0, 0
    for b in range(NUM_BRIBES):
        shown = False
        for c in range(NUM_CONTRACTS):
            shown |= cards[c, o, b] > 0
        if not shown:
            money, square, bribes = money + VALUES[b], square + VALUES[b] ** 2, bribes + 1
    gone = obs[GONE_AT + 3 * o:GONE_AT + 3 * o + 3]  # DA, Reporters (1/2 each), Hit Man
    characters = (np.float32(1) - gone[0]) + np.float32(2) * (np.float32(1) - gone[1]) + (np.float32(1) - gone[2])
    cards_left = max(bribes + max(np.float64(characters), 0.0), 1.0)
    return money / cards_left, square / cards_left, money / max(bribes, 1)


def win_worth(mu: np.ndarray, sd: np.ndarray, absent: np.ndarray, value: np.ndarray, points: np.ndarray,
              counts: np.ndarray) -> np.ndarray:
    """worth[j, i]: value[j] * P(I win with total GRID[i]) against opponents of totals ~ (mu[j], sd[j])
    (an absent seat is beaten for sure: a factor 1 leaves the product exact), at the grid points the plan
    reads only (points[j, :counts[j]]; the others are nan): a hand makes at most 32 sums, often far fewer."""
    # below an opponent's total by at least half a step, i.e. strictly below their (discrete) total:
    # normal_cdf((GRID - STEP - mu) / sd) operation by operation, numpy's exp between two compiled passes
    cdf = np.zeros((*mu.shape, counts.max()))
    _exponents(mu, sd, points, counts, cdf)
    np.exp(cdf, out=cdf)
    worth = np.full((len(mu), GRID.size), np.nan)
    _win_worth(cdf, absent, value, points, counts, worth)
    return worth


@njit
def expert_decide_rows(placing, hand, value, estimated, best_opp, da_shown, top_shown, by_value, on_table, body,
                       faceup_next, seats, known, decision_kind, decision_contract, masks, mine, plan
                       ) -> tuple[np.ndarray, np.ndarray]:
    """expert_place for each row placing a card, the heuristic's phase_three for the others (the
    heuristic's decide_rows, with my totals and plans)."""
    chosen, dump = np.full(len(placing), -1), np.full(len(placing), -1)
    for r in range(len(placing)):
        if placing[r]:
            chosen[r], dump[r] = expert_place(hand[r], value[r], estimated[r], best_opp[r], da_shown[r], top_shown[r],
                                              by_value[r], on_table[r], body[r], faceup_next[r], masks[r], mine[r],
                                              plan[r])
        else:
            chosen[r] = phase_three(known[r, :, :seats[r]], value[r], decision_kind[r], decision_contract[r],
                                    masks[r])
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
