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

The 'expert' bot plays the same guide with its `Style` changed (`EXPERT`): its vote weighs its hand's
stake in a bill a fifth as much, so the People's favour, blackmail and offers decide it; it stays absent,
swapping its weakest card for the discard zone's strongest, when the swap gains more than the token it
costs by a margin; it weighs each department by its cards of it less half an average opponent's expected
holding; it offers one Crony a turn for its vote when a bill matters 15 points to it; and it proposes the
bill that gains it most at its best free cell less twice its department's value today, since the card
leaves its hand. Found by trying one rule at a time against three heuristic bots, it wins about 0.88 of
4-player games against them (docs/results.md).
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..core.agents import Agent, first_legal, legal_counts, scaled_back
from ..core.jit import njit
from .codec import BLACKMAIL, CELL0, CRONY_WORKER, KEEP_HAND, MAX_PLAYERS, OFFER, PASS_ACTION, VOTE0, WORKER0
from .observer import MAX_HAND, PLAYER_FEATURES, TOKENS_SCALE
from .slots import (
    COL_MIN, COL_SPAN, CRONIES_SCALE, MAX_SLOTS, OFFICIALS_SCALE, ROW_MIN, ROW_SPAN, S_COL, S_CRONIES, S_DEPT,
    S_INTERVIEW, S_OFFICIALS, S_PRESENT, S_PROPOSED, S_ROW, SLOT_FEATURES,
)
from .state import ABSENT, BILL, CELL, CRONY, DISCARD, NEGOTIATE, NO, NUM_PHASES, SWAP_GIVE, SWAP_TAKE, VOTE, WORKER, YES
from .tables import (
    CARDS_PER_DEPT, CRONY_POINTS, DEPT, NUM_CARDS, NUM_DEPTS, REVOLUTION, TOKEN_POINTS, WORKERS_PER_BILL,
)

P = MAX_PLAYERS
DEPT_INDEX = np.array(DEPT)  # card -> its department
# (offset, demand) -> the blackmail action, as an array the kernels index (offset 0, me, reaches nobody)
BLACKMAIL_ACTION = np.array([[BLACKMAIL.get((k, demand), -1) for demand in (YES, NO)] for k in range(P)])
# offset -> the action offering that player a Crony for a YES / a NO (offset 0 reaches nobody)
CRONY_OFFER_ACTION = np.array([[OFFER.get((k, CRONY, vote), -1) for vote in (YES, NO)] for k in range(P)])
BLACKMAIL_STAKE = 3  # points at stake before a blackmail card is worth spending
PROPOSED_CRONIES = 14  # in the proposal piece: the Cronies proposed / 3
TOKENS, HAND_SIZE = 1, 3  # in a player's features (observer.py): tokens / TOKENS_SCALE, hand size / MAX_HAND


class Style(NamedTuple):
    """The numbers a rule bot plays the guide with."""

    vote_weight: float  # my hand's stake in a vote's value: my vote decides the outcome only sometimes
    absent_margin: float  # points a swap must gain beyond the token absence costs (inf: never absent)
    opponent_weight: float  # a department's weight: my cards of it minus this times an opponent's expected
    offer_stake: float  # points at stake for which I offer one Crony for my vote, once a turn (inf: never)
    card_cost: float  # the bill proposed: what it gains me at its best free cell less this times its
    # department's value today, the card leaving my hand (negative: the department I hold most of)


HEURISTIC = Style(vote_weight=0.5, absent_margin=np.inf, opponent_weight=0.0, offer_stake=np.inf, card_cost=-1.0)
# a card scores its department's value at the end, so a swap from the discard zone can be worth several
# tokens; the People's favour is sure points where one vote rarely decides a bill; a bill that raises
# my rivals' cards as much as mine gains me nothing; a Crony (5 points) can buy a bill worth three times it;
# the bill proposed leaves my hand, and a card of a department already worth much is worth more kept
EXPERT = Style(vote_weight=0.1, absent_margin=10.0, opponent_weight=0.5, offer_stake=15.0, card_cost=2.0)


class Pieces(NamedTuple):
    """Where the pieces the rules read start in an observation (observer.py lays them out)."""

    phase: int
    die: int
    proposer: int
    my_hand: int
    discard_zone: int
    players: int
    blackmail_now: int
    offers_now: int
    proposal: int
    department_values: int
    bills: int
    known_hands: int


class Table(NamedTuple):
    """The table as read back from an observation's bill slots and proposal: per slot, a bill on the
    table or not (`on`), with its cell, department, workers (`staff`), of them its officials, and of those
    the ones interviewed for the proposal (`interview`); the proposal's cell (-1: none yet), department
    (-1: none) and Cronies."""

    cells: np.ndarray
    on: np.ndarray
    depts: np.ndarray
    staff: np.ndarray
    officials: np.ndarray
    interview: np.ndarray
    proposed: int
    bill_dept: int
    pending_cronies: int


@njit
def read_table(obs: np.ndarray, at: Pieces, cell_lookup: np.ndarray) -> Table:
    """The Table of one observation; `cell_lookup`: (row - ROW_MIN, col - COL_MIN) -> cell."""
    cells, on = np.full(MAX_SLOTS, -1), np.zeros(MAX_SLOTS, np.bool_)
    depts, staff = np.zeros(MAX_SLOTS, np.int64), np.zeros(MAX_SLOTS, np.int64)
    officials, interview = np.zeros(MAX_SLOTS, np.int64), np.zeros(MAX_SLOTS, np.int64)
    proposed = -1
    for s in range(MAX_SLOTS):
        slot = obs[at.bills + s * SLOT_FEATURES:at.bills + (s + 1) * SLOT_FEATURES]
        if slot[S_PRESENT] <= 0:
            continue
        cells[s] = cell_lookup[scaled_back(slot[S_ROW], ROW_SPAN), scaled_back(slot[S_COL], COL_SPAN)]
        depts[s] = np.argmax(slot[S_DEPT:S_DEPT + NUM_DEPTS])
        officials[s] = scaled_back(slot[S_OFFICIALS], OFFICIALS_SCALE)
        staff[s] = officials[s] + scaled_back(slot[S_CRONIES], CRONIES_SCALE)
        if slot[S_PROPOSED] > 0:
            proposed = cells[s] if proposed < 0 else proposed
        else:
            on[s] = True
            interview[s] = scaled_back(slot[S_INTERVIEW], WORKERS_PER_BILL)  # officials on the bills they would leave
    return Table(cells, on, depts, staff, officials, interview, proposed, proposal_dept(obs, at),
                 scaled_back(obs[at.proposal + PROPOSED_CRONIES], 3))


@njit
def proposal_dept(obs: np.ndarray, at: Pieces) -> int:
    """The department of the bill proposed (-1: none)."""
    depts = obs[at.proposal:at.proposal + NUM_DEPTS]
    return np.argmax(depts) if depts.any() else -1


@njit
def hand_counts(obs: np.ndarray, at: Pieces) -> np.ndarray:
    """How many cards of each department my hand holds."""
    counts = np.zeros(NUM_DEPTS, np.int64)
    for card in range(NUM_CARDS):
        if obs[at.my_hand + card] != 0:
            counts[DEPT_INDEX[card]] += 1
    return counts


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
    """Per cell of `candidates`: department values with a bill of `bill_dept` there staffed by `workers`,
    and the officials on the bills next to it."""
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
    """Per cell of `sources`: department values with one official fewer on the bill there."""
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


# The rules, one row at a time, in one compiled loop over the rows (decide_rows). A row's tie-breaking
# uniforms (`noise`) are drawn before, for all rows in row order, so draws_wanted counts them first.
@njit
def draws_wanted(observations: np.ndarray, masks: np.ndarray, counts: np.ndarray,
                 at: Pieces) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row: its phase; how many uniforms its rule draws (one per legal action choosing a bill, a cell
    or a worker, one per card swapping or discarding); and for a row of a phase without a rule, the bound
    of its one integer draw (else 0). A row without a choice (counts[r] < 2) draws nothing."""
    k = len(masks)
    phases, sizes, bounds = np.empty(k, np.int64), np.zeros(k, np.int64), np.zeros(k, np.int64)
    for r in range(k):
        phases[r] = np.argmax(observations[r, at.phase:at.phase + NUM_PHASES])
        if counts[r] < 2:
            continue
        if phases[r] == BILL or phases[r] == CELL or phases[r] == WORKER:
            sizes[r] = counts[r]
        elif phases[r] == SWAP_GIVE or phases[r] == SWAP_TAKE or phases[r] == DISCARD:
            sizes[r] = np.count_nonzero(masks[r, :CELL0])
        elif phases[r] != NEGOTIATE and phases[r] != VOTE:
            bounds[r] = counts[r]
    return phases, sizes, bounds


@njit
def decide_rows(observations: np.ndarray, masks: np.ndarray, counts: np.ndarray, phases: np.ndarray,
                actions: np.ndarray, uniforms: np.ndarray, sizes: np.ndarray, picks: np.ndarray, at: Pieces,
                cell_lookup: np.ndarray, neighbours: np.ndarray, index: np.ndarray, n: int, style: Style) -> np.ndarray:
    """`actions` with the choice of each row that has one; the rows' uniforms follow each other in
    `uniforms` (sizes[r] of them for row r); picks[r]: the index of the legal action drawn for a row of a
    phase without a rule."""
    start = 0
    for r in range(len(masks)):
        if counts[r] > 1:
            noise = uniforms[start:start + sizes[r]]
            actions[r] = _decide(observations[r], masks[r], phases[r], noise, picks[r], at, cell_lookup, neighbours,
                                 index, n, style)
        start += sizes[r]
    return actions


@njit
def _decide(obs: np.ndarray, mask: np.ndarray, phase: int, noise: np.ndarray, pick: int, at: Pieces,
            cell_lookup: np.ndarray, neighbours: np.ndarray, index: np.ndarray, n: int, style: Style) -> int:
    counts = hand_counts(obs, at)
    legal = np.flatnonzero(mask)
    if phase == BILL and style.card_cost < 0:
        return choose_bill(legal, counts, noise)
    if phase == SWAP_GIVE or phase == SWAP_TAKE or phase == DISCARD:
        return swap_card(phase, obs, at, legal, counts, noise)
    if phase != BILL and phase != NEGOTIATE and phase != VOTE and phase != CELL and phase != WORKER:
        return legal[pick]
    table = read_table(obs, at, cell_lookup)
    weights = counts.astype(np.float64)  # what a point of each department's value is worth to me
    if style.opponent_weight > 0:
        weights -= style.opponent_weight * average_opponent(obs, at, table, counts, n)
    if phase == BILL:
        return choose_bill_for_gain(table, legal, weights, department_values(obs, at), style.card_cost, noise,
                                    neighbours, index)
    if phase == NEGOTIATE:
        return negotiate(stake(table, weights, neighbours, index), obs, at, mask, n, style)
    if phase == VOTE:
        return vote(stake(table, weights, neighbours, index), obs, at, mask, style)
    if phase == CELL:
        return choose_cell(table, legal, weights, noise, neighbours, index)
    return choose_worker(table, legal, weights, noise, neighbours, index)


@njit
def average_opponent(obs: np.ndarray, at: Pieces, table: Table, counts: np.ndarray, n: int) -> np.ndarray:
    """Per department, the cards an average opponent holds as my seat can tell: those seen taken from the
    discard zone, and of the cards unseen (not in my hand, the zone or on the table) a share by the
    opponents' hand sizes."""
    seen, known = counts.astype(np.float64), np.zeros(NUM_DEPTS)
    for card in range(NUM_CARDS):
        seen[DEPT_INDEX[card]] += obs[at.discard_zone + card] != 0
        for k in range(P - 1):
            known[DEPT_INDEX[card]] += obs[at.known_hands + k * NUM_CARDS + card] != 0
    for slot in range(MAX_SLOTS):
        if table.cells[slot] >= 0:  # a bill on the table or proposed
            seen[table.depts[slot]] += 1
    held = 0.0
    for k in range(1, n):
        held += obs[at.players + k * PLAYER_FEATURES + HAND_SIZE] * MAX_HAND
    unseen = np.maximum(CARDS_PER_DEPT - seen - known, 0.0)
    share = min(1.0, max(0.0, held - known.sum()) / unseen.sum()) if unseen.sum() > 0 else 0.0
    return (known + unseen * share) / (n - 1)


@njit
def gains(counts: np.ndarray, before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Points my hand gains from department values `before` to each row of `after`."""
    return ((after - before) * counts).sum(axis=1)


@njit
def values_now(table: Table, neighbours: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Department values of the table."""
    return table_values(table.cells, table.on, table.depts, table.staff, neighbours, index, -1, -1, 0)


@njit
def choose_bill(legal: np.ndarray, counts: np.ndarray, noise: np.ndarray) -> int:
    # the department I hold most of (after this card leaves my hand); ties broken at random
    return legal[np.argmax(counts[DEPT_INDEX[legal]] - 1 + noise * 0.5)]


@njit
def choose_bill_for_gain(table: Table, legal: np.ndarray, weights: np.ndarray, values: np.ndarray, card_cost: float,
                         noise: np.ndarray, neighbours: np.ndarray, index: np.ndarray) -> int:
    """The bill whose department gains me most at its best free cell next to the table (staffed by three
    workers), the card no longer in my hand, less `card_cost` times the department's value today."""
    cells = free_cells(table, neighbours, index)
    now = values_now(table, neighbours, index)
    worth = np.full(NUM_DEPTS, -np.inf)
    for d in np.unique(DEPT_INDEX[legal]):
        after, _ = values_with_bill(table.cells, table.on, table.depts, table.staff, table.officials, neighbours,
                                    index, cells, d, WORKERS_PER_BILL)
        kept = weights.copy()
        kept[d] -= 1
        worth[d] = gains(kept, now, after).max() - card_cost * values[d]
    return legal[np.argmax(worth[DEPT_INDEX[legal]] + noise * 0.5)]


@njit
def free_cells(table: Table, neighbours: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The empty cells next to a bill on the table."""
    _point(table.cells, table.on, index, True)
    cells = []
    for s in range(MAX_SLOTS):
        if table.on[s]:
            for j in neighbours[table.cells[s]]:
                if j >= 0 and index[j] < 0:
                    cells.append(j)
    _point(table.cells, table.on, index, False)
    return np.unique(np.array(cells, np.int64))


@njit
def choose_cell(table: Table, legal: np.ndarray, counts: np.ndarray, noise: np.ndarray, neighbours: np.ndarray,
                index: np.ndarray) -> int:
    after, supply = values_with_bill(table.cells, table.on, table.depts, table.staff, table.officials, neighbours,
                                     index, legal - CELL0, table.bill_dept, 3)
    # also prefer cells whose neighbours can supply officials (no Crony spent)
    return legal[np.argmax(gains(counts, values_now(table, neighbours, index), after) + 0.01 * supply + noise * 1e-3)]


@njit
def choose_worker(table: Table, legal: np.ndarray, counts: np.ndarray, noise: np.ndarray, neighbours: np.ndarray,
                  index: np.ndarray) -> int:
    workers = legal - WORKER0
    official = workers != CRONY_WORKER
    after = values_without_official(table.cells, table.on, table.depts, table.staff, neighbours, index,
                                    neighbours[table.proposed, workers[official]])
    cost = np.full(legal.size, float(CRONY_POINTS))
    cost[official] = -gains(counts, values_now(table, neighbours, index), after)
    return legal[np.argmin(cost + noise * 1e-3)]


@njit
def stake(table: Table, counts: np.ndarray, neighbours: np.ndarray, index: np.ndarray) -> float:
    """Points my hand gains if the proposal is approved: the new bill with its officials and Cronies,
    minus what the officials' old bills lose."""
    if table.proposed < 0:
        return 0.0
    after = table_values(table.cells, table.on, table.depts, table.staff - table.interview, neighbours, index,
                         table.proposed, table.bill_dept, table.interview.sum() + table.pending_cronies)
    return float(((after - values_now(table, neighbours, index)) * counts).sum())


@njit
def negotiate(stake: float, obs: np.ndarray, at: Pieces, mask: np.ndarray, n: int, style: Style) -> int:
    """Blackmail the opponent with the most tokens into my vote, when enough is at stake; failing that, and
    with more at stake, offer the first opponent I may a Crony for it, once a turn."""
    if abs(stake) < BLACKMAIL_STAKE:
        return PASS_ACTION
    want = YES if stake > 0 else NO
    proposer = np.argmax(obs[at.proposer:at.proposer + P])
    best, best_score = PASS_ACTION, 0.0
    for k in range(1, n):
        a = BLACKMAIL_ACTION[k, want]
        if not mask[a]:
            continue
        score = obs[at.players + k * PLAYER_FEATURES + TOKENS] * np.float32(TOKENS_SCALE) + np.float32(1)
        if k == proposer:  # the proposer votes YES anyway
            score = score + np.float32(10) if want == NO else np.float32(0)
        if score > best_score:
            best, best_score = a, score
    if best != PASS_ACTION or abs(stake) < style.offer_stake or offered_this_turn(obs, at):
        return best
    for k in range(1, n):
        a = CRONY_OFFER_ACTION[k, want]
        if not (k == proposer and want == YES) and mask[a]:
            return a
    return PASS_ACTION


@njit
def offered_this_turn(obs: np.ndarray, at: Pieces) -> bool:
    """Whether I made an offer this turn (offers_now [sender, receiver, item, vote], me first)."""
    return obs[at.offers_now:at.offers_now + P * 2 * 2].any()


@njit
def vote(stake: float, obs: np.ndarray, at: Pieces, mask: np.ndarray, style: Style) -> int:
    """YES or NO by the stake, the People's favour, blackmail and offers; absent when the discard zone's
    best swap beats both by the style's margin."""
    value, blackmailed = vote_values(stake, obs, at, style.vote_weight)
    best = max(value[YES], value[NO])
    if style.absent_margin < np.inf and mask[VOTE0 + ABSENT]:
        # absent: a token lost, and one more when it disobeys a blackmail
        if swap_gain(obs, at) - TOKEN_POINTS * (1 + blackmailed) - style.absent_margin > best:
            return VOTE0 + ABSENT
    return VOTE0 + (YES if value[YES] >= value[NO] else NO)


@njit
def vote_values(stake: float, obs: np.ndarray, at: Pieces, weight: float) -> tuple[list[float], bool]:
    """[YES, NO] vote values in points, and whether a blackmail binds me. For the heuristic's weight they
    are halves of small whole numbers: float64 holds them exactly, as the float32 numpy once summed them in did."""
    die = np.argmax(obs[at.die:at.die + NUM_DEPTS + 1])
    value = [weight * stake, 0.0]
    if die == proposal_dept(obs, at):
        value[YES] += TOKEN_POINTS
    if die == REVOLUTION:
        value[NO] += TOKEN_POINTS
    blackmailed = False
    for v in (YES, NO):
        for sender in range(P):  # blackmail_now [sender, me, demand]: disobeying costs a token
            if obs[at.blackmail_now + sender * P * 2 + v]:
                value[1 - v] -= TOKEN_POINTS
                blackmailed = True
                break
    for v in (YES, NO):
        for sender in range(P):  # offers_now [sender, me, item, vote]
            for item in range(2):
                value[v] += CRONY_POINTS * obs[at.offers_now + (sender * P * 2 + item) * 2 + v]
    return value, blackmailed


@njit
def swap_gain(obs: np.ndarray, at: Pieces) -> float:
    """Points at today's department values from swapping my weakest card for the zone's strongest."""
    values, weakest, strongest = department_values(obs, at), np.inf, -np.inf
    for card in range(NUM_CARDS):
        value = values[DEPT_INDEX[card]]
        if obs[at.my_hand + card] != 0:
            weakest = min(weakest, value)
        if obs[at.discard_zone + card] != 0:
            strongest = max(strongest, value)
    return strongest - weakest


@njit
def department_values(obs: np.ndarray, at: Pieces) -> np.ndarray:
    """The department values the observation shows."""
    values = np.empty(NUM_DEPTS, np.int64)
    for d in range(NUM_DEPTS):
        values[d] = scaled_back(obs[at.department_values + d], 200)
    return values


@njit
def swap_card(phase: int, obs: np.ndarray, at: Pieces, legal: np.ndarray, counts: np.ndarray,
              noise: np.ndarray) -> int:
    """Take the strongest card / give up the weakest one (keep my hand when the zone offers nothing
    stronger)."""
    values = department_values(obs, at)
    cards = legal[legal < CELL0]
    depts = DEPT_INDEX[cards]
    worth = values[depts] * 4 + counts[depts] + noise
    if phase == SWAP_TAKE:
        return cards[np.argmax(worth)]
    weakest = cards[np.argmin(worth)]
    if phase == SWAP_GIVE and not zone_beats(obs[at.discard_zone:at.discard_zone + NUM_CARDS], values, weakest):
        return KEEP_HAND
    return weakest


@njit
def zone_beats(zone: np.ndarray, values: np.ndarray, card: int) -> bool:
    """Whether the discard zone holds a card of a department worth more than `card`'s."""
    for c in range(NUM_CARDS):
        if zone[c] != 0 and c != card and values[DEPT_INDEX[c]] > values[DEPT_INDEX[card]]:
            return True
    return False


class HeuristicAgent(Agent):
    """Plays Corruptia from its observation and mask only."""

    style = HEURISTIC

    def __init__(self, env: Any, seed: int | None = None) -> None:
        env = env.unwrapped
        self.at = Pieces(*env.observation_layout.starts(Pieces._fields))
        self.n = env.config["num_players"]
        grid = env.rules.grid
        self.neighbour_table = np.array(grid.neighbours, np.int64)  # (cells, directions), -1 off the grid
        self.slot_of_cell = np.full(len(grid.neighbours), -1)  # the kernels' scratch (see _point)
        # (row - ROW_MIN, col - COL_MIN) -> cell (-1 off this count's grid), to read the bill slots back
        self.cell_lookup = np.full((ROW_SPAN + 1, COL_SPAN + 1), -1)
        for (row, col), cell in grid.index.items():
            self.cell_lookup[row - ROW_MIN, col - COL_MIN] = cell
        self.rng = np.random.default_rng(seed)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The rules run for all rows in one kernel, each row read from its observation there; their
        tie-breaking draws are made before, in row order, so they are the row-by-row draws."""
        counts = legal_counts(action_masks, "HeuristicAgent")
        actions = first_legal(action_masks)
        if counts.max() < 2:
            return actions
        phases, sizes, bounds = draws_wanted(observations, action_masks, counts, self.at)
        uniforms, picks = self._draw(sizes, bounds)
        return decide_rows(observations, action_masks, counts, phases, actions, uniforms, sizes, picks, self.at,
                           self.cell_lookup, self.neighbour_table, self.slot_of_cell, self.n, self.style)

    def _draw(self, sizes: np.ndarray, bounds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Row after row, sizes[r] uniforms or, where bounds[r] is not 0, one integer below it (-> picks):
        the rows' draws as row by row (one rng.random call for a run of rows draws as that many calls)."""
        if not bounds.any():  # every row's phase has a rule, as in play: one call
            return self.rng.random(sizes.sum()), np.zeros_like(bounds)
        uniforms, picks, start = [], np.zeros_like(bounds), 0
        for r in np.flatnonzero(bounds).tolist():
            uniforms.append(self.rng.random(int(sizes[start:r].sum())))
            picks[r] = self.rng.integers(bounds[r])
            start = r + 1
        uniforms.append(self.rng.random(int(sizes[start:].sum())))
        return np.concatenate(uniforms), picks


class ExpertAgent(HeuristicAgent):
    """The heuristic's guide with the expert's numbers (`EXPERT`)."""

    style = EXPERT
