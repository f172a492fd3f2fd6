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

from .codec import BLACKMAIL, CELL0, CRONY_WORKER, KEEP_HAND, MAX_PLAYERS, PASS_ACTION, VOTE0, WORKER0
from ..core.agents import first_row, legal_counts, nth_legal
from .observer import (
    COL_SPAN, CRONIES_SCALE, OFFICIALS_SCALE, ROW_MIN, ROW_SPAN, COL_MIN, S_COL, S_CRONIES, S_DEPT, S_INTERVIEW,
    S_OFFICIALS, S_PRESENT, S_PROPOSED, S_ROW, TOKENS_SCALE,
)
from .scoring import department_values
from .state import BILL, CELL, DISCARD, NEGOTIATE, NO, SWAP_GIVE, SWAP_TAKE, VOTE, WORKER, YES
from .tables import (
    CARDS_PER_DEPT, CRONY_POINTS, DEPT, NUM_DEPTS, REVOLUTION, TOKEN_POINTS, WORKERS_PER_BILL,
)

P = MAX_PLAYERS
DEPT_OF_CARD = np.eye(NUM_DEPTS, dtype=np.int64)[list(DEPT)]  # (cards, departments) one-hot
VOTE_WEIGHT = 0.5  # my vote decides the outcome only sometimes
BLACKMAIL_STAKE = 3  # points at stake before a blackmail card is worth spending


class Cells(dict):
    """cell -> value with a default for cells not listed: the grid has over a thousand cells and the
    table a few dozen bills, so the heuristic keeps only the occupied ones."""

    def __init__(self, default: int, items: Any = ()) -> None:
        super().__init__(items)
        self.default = default

    def __missing__(self, cell: int) -> int:
        return self.default


class Slots:
    """The bill slots and the proposal of every row, parsed at once (a row's Table is built from them)."""

    def __init__(self, agent: "HeuristicAgent", observations: np.ndarray) -> None:
        lay, k = agent.layout, len(observations)
        slots = observations[:, lay["bills"]].reshape((k, *lay.shapes["bills"]))
        self.present = slots[:, :, S_PRESENT] > 0
        rows = np.rint(slots[:, :, S_ROW] * ROW_SPAN).astype(np.int64)
        cols = np.rint(slots[:, :, S_COL] * COL_SPAN).astype(np.int64)
        self.cells = agent.cell_lookup[rows, cols]  # ROW_MIN + rows, COL_MIN + cols: cell_at's (row, col)
        self.proposed = slots[:, :, S_PROPOSED] > 0
        self.officials = np.rint(slots[:, :, S_OFFICIALS] * OFFICIALS_SCALE).astype(int)
        self.cronies = np.rint(slots[:, :, S_CRONIES] * CRONIES_SCALE).astype(int)
        self.interview = np.rint(slots[:, :, S_INTERVIEW] * WORKERS_PER_BILL).astype(int)
        self.depts = slots[:, :, S_DEPT:S_DEPT + NUM_DEPTS].argmax(axis=2)
        prop = observations[:, lay["proposal"]]
        self.bill_dept = np.where(prop[:, :NUM_DEPTS].any(axis=1), prop[:, :NUM_DEPTS].argmax(axis=1), -1).tolist()
        self.pending_cronies = np.rint(prop[:, 14] * 3).astype(int).tolist()


class Table:
    """The table as read back from an observation (row `r` of the parsed slots)."""

    def __init__(self, agent: "HeuristicAgent", slots: Slots, r: int) -> None:
        present = slots.present[r]
        cells = slots.cells[r, present].tolist()
        proposed = slots.proposed[r, present].tolist()
        officials = slots.officials[r, present].tolist()
        cronies = slots.cronies[r, present].tolist()
        interview = slots.interview[r, present].tolist()
        depts = slots.depts[r, present].tolist()
        self.proposed = -1
        self.card, self.officials, self.cronies = Cells(-1), Cells(0), Cells(0)
        self.interview = {}
        occupied = []
        for k, i in enumerate(cells):
            if proposed[k]:
                self.proposed = i
                continue
            occupied.append(i)
            self.card[i] = depts[k] * CARDS_PER_DEPT  # a card of the department stands for it
            self.officials[i] = officials[k]
            self.cronies[i] = cronies[k]
            if interview[k]:
                self.interview[i] = interview[k]
        self.occupied = sorted(occupied)
        self.neighbours = agent.neighbours
        self.bill_dept = slots.bill_dept[r]
        self.pending_cronies = slots.pending_cronies[r]

    def values(self, extra: dict | None = None) -> list[int]:
        """Department values, optionally with {cell: (dept, workers, {source cell: officials moved})}
        added to the table."""
        if not extra:
            return department_values(self.card, self.officials, self.cronies, self.occupied, self.neighbours)
        card = Cells(-1, self.card)
        officials = Cells(0, self.officials)
        cronies = Cells(0, self.cronies)
        placed = self.occupied[:]
        for cell, (d, workers, moved) in extra.items():
            card[cell] = d * CARDS_PER_DEPT
            officials[cell] = workers
            cronies[cell] = 0
            placed.append(cell)
            for j, k in moved.items():
                officials[j] -= k
        return department_values(card, officials, cronies, placed, self.neighbours)


class HeuristicAgent:
    def __init__(self, env: Any, seed: int | None = None) -> None:
        env = env.unwrapped
        self.layout = env.observation_layout
        self.n = env.config["num_players"]
        grid = env.rules.grid
        self.neighbours = grid.neighbours
        # (row - ROW_MIN, col - COL_MIN) -> cell (-1 off this count's grid), to read the bill slots back
        self.cell_lookup = np.full((ROW_SPAN + 1, COL_SPAN + 1), -1)
        for (row, col), cell in grid.index.items():
            self.cell_lookup[row - ROW_MIN, col - COL_MIN] = cell
        self.rng = np.random.default_rng(seed)

    # --- reading ---------------------------------------------------------------------------------
    def _gain(self, counts: list[int], before: list[int], after: list[int]) -> int:
        return sum(c * (a - b) for c, a, b in zip(counts, after, before))

    # --- acting ------------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return first_row(self.act_batch(observation[None], np.asarray(action_mask)[None]))

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Phases, hands and bill slots are read for all rows at once; each row's rules then run in row
        order, so their tie-breaking draws are the row-by-row draws."""
        counts = legal_counts(action_masks, "HeuristicAgent")
        actions = nth_legal(action_masks, np.zeros(len(counts), np.int64))
        deciding = np.flatnonzero(counts > 1)
        if deciding.size:
            obs = observations[deciding]
            phases = obs[:, self.layout["phase"]].argmax(axis=1).tolist()
            dept_counts = ((obs[:, self.layout["my_hand"]] != 0) @ DEPT_OF_CARD).tolist()
            slots = Slots(self, obs)
            for j, r in enumerate(deciding):
                table = Table(self, slots, j) if phases[j] in (CELL, WORKER, NEGOTIATE, VOTE) else None
                actions[r] = self._decide(phases[j], obs[j], action_masks[r], dept_counts[j], table)
        return actions

    def _decide(self, phase: int, obs: np.ndarray, action_mask: np.ndarray, counts: list[int],
                table: Table | None) -> int:
        legal = np.flatnonzero(action_mask)
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
            def worth(c: int) -> float:
                return values[DEPT[c]] * 4 + counts[DEPT[c]] + self.rng.random()
            cards = [int(a) for a in legal if a < CELL0]
            if phase == SWAP_TAKE:
                return max(cards, key=worth)
            weakest = min(cards, key=worth)
            if phase == SWAP_GIVE and not self._zone_beats(obs, values, weakest):
                return KEEP_HAND
            return weakest
        return int(legal[self.rng.integers(legal.size)])

    def _zone_beats(self, obs: np.ndarray, values: list[int], card: int) -> bool:
        """Whether the discard zone holds a card of a department worth more than `card`'s."""
        zone = np.flatnonzero(obs[self.layout["discard_zone"]]).tolist()
        return any(values[DEPT[c]] > values[DEPT[card]] for c in zone if c != card)

    def _choose_bill(self, legal: np.ndarray, counts: list[int]) -> int:
        # the department I hold most of (after this card leaves my hand); ties broken at random
        def score(c: int) -> float:
            return counts[DEPT[c]] - 1 + self.rng.random() * 0.5
        return int(max(legal.tolist(), key=score))

    def _choose_cell(self, table: Table, legal: np.ndarray, counts: list[int]) -> int:
        before = table.values()
        d = table.bill_dept
        best, best_score = int(legal[0]), -1e9
        for a in legal.tolist():
            cell = a - CELL0
            after = table.values({cell: (d, 3, {})})
            # also prefer cells whose neighbours can supply officials (no Crony spent)
            supply = sum(table.officials[j] for j in self.neighbours[cell] if j >= 0)
            score = self._gain(counts, before, after) + 0.01 * supply + self.rng.random() * 1e-3
            if score > best_score:
                best, best_score = a, score
        return best

    def _choose_worker(self, table: Table, legal: np.ndarray, counts: list[int]) -> int:
        before = table.values()
        cell = table.proposed
        best, best_cost = int(legal[0]), 1e9
        for a in legal.tolist():
            w = a - WORKER0
            if w == CRONY_WORKER:
                cost = CRONY_POINTS
            else:
                j = self.neighbours[cell][w]
                table.officials[j] -= 1
                after = table.values()
                table.officials[j] += 1
                cost = -self._gain(counts, before, after)
            cost += self.rng.random() * 1e-3
            if cost < best_cost:
                best, best_cost = a, cost
        return best

    def _stake(self, table: Table, counts: list[int]) -> float:
        """Points my hand gains if the proposal is approved: the new bill with its officials and
        Cronies, minus what the officials' old bills lose."""
        if table.proposed < 0:
            return 0.0
        before = table.values()
        workers = sum(table.interview.values()) + table.pending_cronies
        after = table.values({table.proposed: (table.bill_dept, workers, dict(table.interview))})
        return float(self._gain(counts, before, after))

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
