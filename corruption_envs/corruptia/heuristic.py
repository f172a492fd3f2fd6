"""A rule-based Corruptia player that reads only its observation, its mask and the static config.

Strategy, as a guide would put it:
- Your hand is your portfolio: a department is worth (bills in each block) x (workers on them), and
  every card of it you hold at the end scores that value. Propose bills of the departments you hold
  most of, next to bills of the same department, so the blocks grow.
- Staff bills with Public Officials taken from departments you do not hold; a Crony in your reserve is
  worth 5 points at the end, so spend one only when no fitting official is left.
- Vote for bills that raise the departments in your hand, and collect the People's favour: YES on the
  die's department and NO in a revolution each bring a token (5 points). Obey blackmail (disobeying
  costs a token) unless the bill matters more; take offers that pay for the vote you would cast anyway.
  Never stay absent: it costs a token. (Absent anyway, e.g. when an exploring learner played its
  seat, give up the weakest card if the discard zone offers a stronger one.)
- Blackmail when the vote matters to you: demand your vote from the opponent with the most tokens.
- With no bill you can staff, throw away the card of your weakest department.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.agents import first_legal, first_row, legal_actions, legal_counts
from ..core.jit import njit
from .codec import BLACKMAIL, CELL0, CRONY_WORKER, KEEP_HAND, MAX_PLAYERS, PASS_ACTION, VOTE0, WORKER0
from .observer import TOKENS_SCALE
from .slots import (
    COL_MIN, COL_SPAN, CRONIES_SCALE, OFFICIALS_SCALE, ROW_MIN, ROW_SPAN, S_COL, S_CRONIES, S_DEPT, S_INTERVIEW,
    S_OFFICIALS, S_PRESENT, S_PROPOSED, S_ROW,
)
from .state import BILL, CELL, DISCARD, NEGOTIATE, NO, SWAP_GIVE, SWAP_TAKE, VOTE, WORKER, YES
from .tables import (
    CRONY_POINTS, DEPT, NUM_DEPTS, REVOLUTION, TOKEN_POINTS, WORKERS_PER_BILL,
)

P = MAX_PLAYERS
DEPT_INDEX = np.array(DEPT)  # card -> its department
DEPT_OF_CARD = np.eye(NUM_DEPTS, dtype=np.int64)[DEPT_INDEX]  # (cards, departments) one-hot
VOTE_WEIGHT = 0.5  # my vote decides the outcome only sometimes
BLACKMAIL_STAKE = 3  # points at stake before a blackmail card is worth spending


class Slots:
    """The bill slots and the proposal of every row, parsed at once (a row's Table is built from them)."""

    def __init__(self, agent: "HeuristicAgent", observations: np.ndarray) -> None:
        lay, k = agent.layout, len(observations)
        slots = observations[:, lay["bills"]].reshape((k, *lay.shapes["bills"]))
        present = slots[:, :, S_PRESENT] > 0
        proposed = present & (slots[:, :, S_PROPOSED] > 0)
        self.on_table = present & ~proposed
        rows = np.rint(slots[:, :, S_ROW] * ROW_SPAN).astype(np.int64)
        cols = np.rint(slots[:, :, S_COL] * COL_SPAN).astype(np.int64)
        self.cells = agent.cell_lookup[rows, cols]  # ROW_MIN + rows, COL_MIN + cols: cell_at's (row, col)
        self.proposed = np.where(proposed.any(axis=1), self.cells[np.arange(k), np.argmax(proposed, axis=1)], -1)
        self.officials = np.rint(slots[:, :, S_OFFICIALS] * OFFICIALS_SCALE).astype(np.int64)
        self.staff = self.officials + np.rint(slots[:, :, S_CRONIES] * CRONIES_SCALE).astype(np.int64)
        # officials interviewed for the proposal, on the bills they would leave
        interview = np.rint(slots[:, :, S_INTERVIEW] * WORKERS_PER_BILL).astype(np.int64)
        self.interview = np.where(self.on_table, interview, 0)
        self.depts = slots[:, :, S_DEPT:S_DEPT + NUM_DEPTS].argmax(axis=2)
        prop = observations[:, lay["proposal"]]
        self.bill_dept = np.where(prop[:, :NUM_DEPTS].any(axis=1), prop[:, :NUM_DEPTS].argmax(axis=1), -1).tolist()
        self.pending_cronies = np.rint(prop[:, 14] * 3).astype(int).tolist()


class Table:
    """The table as read back from an observation: row `r` of the parsed slots, each slot a bill on the
    table or not (`on`), with its cell, department, workers (`staff`) and of them its officials."""

    def __init__(self, agent: "HeuristicAgent", slots: Slots, r: int) -> None:
        self.cells, self.on, self.dept = slots.cells[r], slots.on_table[r], slots.depts[r]
        self.staff, self.officials, self.interview = slots.staff[r], slots.officials[r], slots.interview[r]
        self.neighbours, self.index = agent.neighbour_table, agent.slot_of_cell
        self.proposed = int(slots.proposed[r])
        self.bill_dept = slots.bill_dept[r]
        self.pending_cronies = slots.pending_cronies[r]

    def values(self) -> np.ndarray:
        """Department values of the table."""
        return table_values(self.cells, self.on, self.dept, self.staff, self.neighbours, self.index, -1, -1, 0)

    def values_with_proposal(self, workers: int) -> np.ndarray:
        """Department values with the proposed bill on the table, staffed by `workers`, its interviewed
        officials gone from their bills."""
        return table_values(self.cells, self.on, self.dept, self.staff - self.interview, self.neighbours, self.index,
                            self.proposed, self.bill_dept, workers)

    def values_with_bill(self, cells: np.ndarray, workers: int) -> tuple[np.ndarray, np.ndarray]:
        """Per cell of `cells`: department values with the proposed department's bill there staffed by
        `workers`, and the officials on the bills next to it."""
        return values_with_bill(self.cells, self.on, self.dept, self.staff, self.officials, self.neighbours,
                                self.index, cells, self.bill_dept, workers)

    def values_without_official(self, sources: np.ndarray) -> np.ndarray:
        """Per cell of `sources`: department values with one official fewer on the bill there."""
        return values_without_official(self.cells, self.on, self.dept, self.staff, self.neighbours, self.index,
                                       sources)


# The kernels below read a table as its slots' arrays; `index` is a scratch array over the grid's cells,
# -1 everywhere between calls, that a kernel points at each bill's slot while it runs (the grid has
# thousands of cells, the table a few dozen bills).
@njit
def _point(cells: np.ndarray, on: np.ndarray, index: np.ndarray, pointing: bool) -> None:
    for s in range(cells.size):
        if on[s]:
            index[cells[s]] = s if pointing else -1


@njit
def _block_values(cells: np.ndarray, on: np.ndarray, dept: np.ndarray, staff: np.ndarray, neighbours: np.ndarray,
                  index: np.ndarray, extra_cell: int, extra_dept: int, extra_staff: int) -> np.ndarray:
    """Per department, the sum over its blocks of adjacent bills of (bills in block) x (workers on them)
    (scoring.department_values), with one more bill on extra_cell unless it is -1 (slot cells.size)."""
    size = cells.size
    if extra_cell >= 0:
        index[extra_cell] = size
    values = np.zeros(NUM_DEPTS, np.int64)
    seen = np.zeros(size + 1, np.bool_)
    stack = np.empty(size + 1, np.int64)
    for start in range(size + 1):
        if seen[start] or (start < size and not on[start]) or (start == size and extra_cell < 0):
            continue
        block_dept = extra_dept if start == size else dept[start]
        seen[start] = True
        stack[0] = start
        top, bills, workers = 1, 0, 0
        while top:
            top -= 1
            s = stack[top]
            bills += 1
            workers += extra_staff if s == size else staff[s]
            for j in neighbours[extra_cell if s == size else cells[s]]:
                t = index[j] if j >= 0 else -1
                if t >= 0 and not seen[t] and (extra_dept if t == size else dept[t]) == block_dept:
                    seen[t] = True
                    stack[top] = t
                    top += 1
        values[block_dept] += bills * workers
    if extra_cell >= 0:
        index[extra_cell] = -1
    return values


@njit
def table_values(cells: np.ndarray, on: np.ndarray, dept: np.ndarray, staff: np.ndarray, neighbours: np.ndarray,
                 index: np.ndarray, extra_cell: int, extra_dept: int, extra_staff: int) -> np.ndarray:
    """_block_values of one table."""
    _point(cells, on, index, True)
    values = _block_values(cells, on, dept, staff, neighbours, index, extra_cell, extra_dept, extra_staff)
    _point(cells, on, index, False)
    return values


@njit
def values_with_bill(cells: np.ndarray, on: np.ndarray, dept: np.ndarray, staff: np.ndarray, officials: np.ndarray,
                     neighbours: np.ndarray, index: np.ndarray, candidates: np.ndarray, bill_dept: int,
                     workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Table.values_with_bill."""
    _point(cells, on, index, True)
    values, supply = np.empty((candidates.size, NUM_DEPTS), np.int64), np.zeros(candidates.size, np.int64)
    for m in range(candidates.size):
        values[m] = _block_values(cells, on, dept, staff, neighbours, index, candidates[m], bill_dept, workers)
        for j in neighbours[candidates[m]]:
            if j >= 0 and index[j] >= 0:
                supply[m] += officials[index[j]]
    _point(cells, on, index, False)
    return values, supply


@njit
def values_without_official(cells: np.ndarray, on: np.ndarray, dept: np.ndarray, staff: np.ndarray,
                            neighbours: np.ndarray, index: np.ndarray, sources: np.ndarray) -> np.ndarray:
    """Table.values_without_official."""
    _point(cells, on, index, True)
    staff, values = staff.copy(), np.empty((sources.size, NUM_DEPTS), np.int64)
    for m in range(sources.size):
        slot = index[sources[m]]  # -1: no bill there, so no official to lose
        if slot >= 0:
            staff[slot] -= 1
        values[m] = _block_values(cells, on, dept, staff, neighbours, index, -1, -1, 0)
        if slot >= 0:
            staff[slot] += 1
    _point(cells, on, index, False)
    return values


class HeuristicAgent:
    def __init__(self, env: Any, seed: int | None = None) -> None:
        env = env.unwrapped
        self.layout = env.observation_layout
        self.n = env.config["num_players"]
        grid = env.rules.grid
        self.neighbours = grid.neighbours
        self.neighbour_table = np.array(grid.neighbours, np.int64)  # (cells, directions), -1 off the grid
        self.slot_of_cell = np.full(len(grid.neighbours), -1)  # the kernels' scratch (see _point)
        # (row - ROW_MIN, col - COL_MIN) -> cell (-1 off this count's grid), to read the bill slots back
        self.cell_lookup = np.full((ROW_SPAN + 1, COL_SPAN + 1), -1)
        for (row, col), cell in grid.index.items():
            self.cell_lookup[row - ROW_MIN, col - COL_MIN] = cell
        self.rng = np.random.default_rng(seed)

    # --- reading ---------------------------------------------------------------------------------
    def _gain(self, counts: np.ndarray, before: np.ndarray, after: np.ndarray) -> np.ndarray:
        """Points my hand gains from department values `before` to `after` (either may be a stack)."""
        return (after - before) @ counts

    # --- acting ------------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return first_row(self.act_batch(observation[None], np.asarray(action_mask)[None]))

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Phases, hands and bill slots are read for all rows at once; each row's rules then run in row
        order, so their tie-breaking draws are the row-by-row draws."""
        counts = legal_counts(action_masks, "HeuristicAgent")
        actions = first_legal(action_masks)
        deciding = np.flatnonzero(counts > 1)
        if deciding.size:
            obs = observations[deciding]
            phases = obs[:, self.layout["phase"]].argmax(axis=1).tolist()
            dept_counts = (obs[:, self.layout["my_hand"]] != 0) @ DEPT_OF_CARD
            legal = np.split(legal_actions(action_masks[deciding]), np.cumsum(counts[deciding])[:-1])
            tabled = [j for j, phase in enumerate(phases) if phase in (CELL, WORKER, NEGOTIATE, VOTE)]
            slots = Slots(self, obs[tabled]) if tabled else None
            tables = dict(zip(tabled, range(len(tabled))))  # row -> its row of the slots
            for j, r in enumerate(deciding):
                table = Table(self, slots, tables[j]) if j in tables else None
                actions[r] = self._decide(phases[j], obs[j], legal[j], action_masks[r], dept_counts[j], table)
        return actions

    def _decide(self, phase: int, obs: np.ndarray, legal: np.ndarray, action_mask: np.ndarray, counts: np.ndarray,
                table: Table | None) -> int:
        if phase == BILL:
            return self._choose_bill(legal, counts)
        if phase == CELL:
            return self._choose_cell(table, legal, counts)
        if phase == WORKER:
            return self._choose_worker(table, legal, counts)
        if phase == NEGOTIATE:
            return self._negotiate(obs, table, action_mask, counts)
        if phase == VOTE:
            return self._vote(obs, table, action_mask, counts)
        if phase in (SWAP_GIVE, SWAP_TAKE, DISCARD):
            values = [round(v * 200) for v in obs[self.layout["department_values"]]]
            # take the strongest card / give up the weakest one
            cards = legal[legal < CELL0]
            depts = DEPT_INDEX[cards]
            worth = np.array(values)[depts] * 4 + counts[depts] + self.rng.random(cards.size)
            if phase == SWAP_TAKE:
                return int(cards[np.argmax(worth)])
            weakest = int(cards[np.argmin(worth)])
            if phase == SWAP_GIVE and not self._zone_beats(obs, values, weakest):
                return KEEP_HAND
            return weakest
        return int(legal[self.rng.integers(legal.size)])

    def _zone_beats(self, obs: np.ndarray, values: list[int], card: int) -> bool:
        """Whether the discard zone holds a card of a department worth more than `card`'s."""
        zone = np.flatnonzero(obs[self.layout["discard_zone"]]).tolist()
        return any(values[DEPT[c]] > values[DEPT[card]] for c in zone if c != card)

    def _choose_bill(self, legal: np.ndarray, counts: np.ndarray) -> int:
        # the department I hold most of (after this card leaves my hand); ties broken at random
        return int(legal[np.argmax(counts[DEPT_INDEX[legal]] - 1 + self.rng.random(legal.size) * 0.5)])

    def _choose_cell(self, table: Table, legal: np.ndarray, counts: np.ndarray) -> int:
        after, supply = table.values_with_bill(legal - CELL0, 3)
        # also prefer cells whose neighbours can supply officials (no Crony spent)
        score = self._gain(counts, table.values(), after) + 0.01 * supply + self.rng.random(legal.size) * 1e-3
        return int(legal[np.argmax(score)])

    def _choose_worker(self, table: Table, legal: np.ndarray, counts: np.ndarray) -> int:
        workers = legal - WORKER0
        crony = workers == CRONY_WORKER
        after = table.values_without_official(table.neighbours[table.proposed, workers[~crony]])
        cost = np.full(legal.size, CRONY_POINTS)
        cost[~crony] = -self._gain(counts, table.values(), after)
        return int(legal[np.argmin(cost + self.rng.random(legal.size) * 1e-3)])

    def _stake(self, table: Table, counts: np.ndarray) -> float:
        """Points my hand gains if the proposal is approved: the new bill with its officials and
        Cronies, minus what the officials' old bills lose."""
        if table.proposed < 0:
            return 0.0
        workers = int(table.interview.sum()) + table.pending_cronies
        return float(self._gain(counts, table.values(), table.values_with_proposal(workers)))

    def _negotiate(self, obs: np.ndarray, table: Table, mask: np.ndarray, counts: list[int]) -> int:
        stake = self._stake(table, counts)
        if abs(stake) < BLACKMAIL_STAKE:
            return PASS_ACTION
        want = YES if stake > 0 else NO
        players = self.layout.view(obs, "players")
        proposer = int(obs[self.layout["proposer"]].argmax())
        best, best_score = PASS_ACTION, 0.0
        for k in range(1, self.n):
            a = BLACKMAIL[k, want]
            if not mask[a]:
                continue
            score = players[k, 1] * TOKENS_SCALE + 1
            if k == proposer:  # the proposer votes YES anyway
                score = score + 10 if want == NO else 0.0
            if score > best_score:
                best, best_score = a, score
        return best

    def _vote(self, obs: np.ndarray, table: Table, mask: np.ndarray, counts: list[int]) -> int:
        lay = self.layout
        die = int(obs[lay["die"]].argmax())
        value = [VOTE_WEIGHT * self._stake(table, counts), 0.0]
        if die == table.bill_dept:
            value[YES] += TOKEN_POINTS
        if die == REVOLUTION:
            value[NO] += TOKEN_POINTS
        demand = lay.view(obs, "blackmail_now")[:, 0, :]  # anyone -> me
        for v in (YES, NO):
            if demand[:, v].any():
                value[1 - v] -= TOKEN_POINTS
        offers = lay.view(obs, "offers_now")[:, 0]  # [from, item, vote] to me
        for v in (YES, NO):
            value[v] += CRONY_POINTS * offers[:, :, v].sum()
        vote = YES if value[YES] >= value[NO] else NO
        return VOTE0 + vote
