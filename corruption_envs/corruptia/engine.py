"""Corruptia's batched engine: the rules of `corruption_envs/corruptia/` as numba kernels over B games.

Chance. Corruptia draws at setup (the pile's permutation, the reshuffle of the cards the triangle passed
over, the starting President) and during play (the People's Die every turn, the President's coin on a
tied vote), all from the game's numpy Generator. Each row carries that Generator on in the kernels
(`numpy_rng`: numpy's SeedSequence, PCG64, `integers`, and `shuffle` here as `_shuffle`), and every
draw is made in the order `CorruptiaRules.new_game` and the rules make it. So row i of the engine
plays, draw for draw, the AEC game `rules.new_game(np.random.default_rng(engine.game_seeds[i]))`, dice
and coins included: the differential test (tests/vector/test_corruptia.py, driver
benchmarks/differential.py) plays the engine and the AEC rules from the same seeds, with no scripted
chance.
`load(row, state)` copies an AEC state into a row with its Generator's state, so a crafted position
goes on with the same chance too. (A state whose Generator is not PCG64 is refused.)
`load_resampled(state, player, seeds)` fills rows with `player`'s determinizations of a state, each
drawn in a kernel as `resample_hidden` draws it from `default_rng(seed)` (a search's waves).

State per row: cards by location (hands and the discard zone are sets, only the pile has an order),
the table as bill slots in the order placed (`cell_slot` maps a board cell to its slot), the turn's
candidate cells, and the seats' tokens, Cronies, ballots, blackmail and offers. The bill slots are
public and the same for every seat, so they live only in the batch's observation rows, kept up to date
as the rules' `Observer.show_bill` / `update_bill` keep theirs; of the rest of an observation, the
kernels clear the one-hot entries the row's last observation set (they keep the list) and write the
acting seat's; a mask row likewise. So the batch's arrays are the engine's: read or copy them, never
write into them.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from ..core import Layout
from ..core.errors import NotResetError
from ..vector import numpy_rng
from ..vector.compiled import CompiledEngine
from ..vector.engine import WAIT
from ..vector.numpy_rng import pcg64_words
from ..vector.outcome import write_outcome
from .codec import (
    ACTIONS, BLACKMAIL, BOARD, CELL0, CRONY_WORKER, KEEP_HAND, MAX_PLAYERS, OFFER, PASS_ACTION, VOTE0,
    WORKER0,
)
from .env import CorruptiaRules
from .observer import (
    MAX_HAND, MAX_SLOTS, OPPOSITE, S_COL, S_CRONIES, S_DEPT, S_INCOME, S_INTERVIEW, S_NEIGHBOURS,
    S_OFFICIALS, S_PRESENT, S_PROPOSED, S_ROW, SLOT_FEATURES, TOKENS_SCALE, VALUE_SCALE, Observer,
    scaled_coords,
)
from .state import (
    ABSENT, APPROVED, APPROVED_BY_COIN, BILL, CELL, CRONY, DISCARD, IN_BOX, IN_DECK, IN_DISCARD, NEGOTIATE,
    NO, ON_TABLE, OVER, PROPOSED, REJECTED, REJECTED_BY_COIN, SWAP_GIVE, SWAP_TAKE, VOTE, WORKER, YES,
    CorruptiaState,
)
from .tables import (
    BUDGET, BUDGETS, CARDS_PER_DEPT, CARDS_REMOVED, CRONIES_EACH, CRONY_POINTS, DEAL_PER_ROUND, DEPT,
    DIE_FACES, DISCARD_PER_ROUND, INCOME,
    NEED, NUM_CARDS, NUM_DEPTS, NUM_ROUNDS, OFFICIALS_PER_START_BILL, REVOLUTION, START_HAND,
    TOKEN_POINTS, TRIANGLE_SIZE, WORKERS_PER_BILL,
)

P = MAX_PLAYERS
NUM_CELLS = BOARD.size
NUM_DIRS = 6
MAX_CANDIDATES = NUM_DIRS * MAX_SLOTS  # empty cells next to a bill: at most six per bill on the table

# --- the rules' tables as arrays -------------------------------------------------------------------
DEPT_A = np.array(DEPT, np.int64)
assert (DEPT_A == np.arange(NUM_CARDS) // CARDS_PER_DEPT).all(), "a department's cards are a block"
INCOME_A = np.array(INCOME, np.int64)
NEED_A = np.array(NEED, np.int64)  # (card, income 0..3): jobs of each income, index 0 unused
NUM_BUDGETS = len(BUDGETS)
NO_CELL = 1 << 14  # the Cronies "needed" where no cell is a candidate: more than any reserve
BUDGET_OF = np.array([BUDGETS.index(b) for b in BUDGET], np.int64)  # card -> its budget
BUDGET_CARD = np.array([BUDGET.index(b) for b in BUDGETS], np.int64)  # budget -> a card with it
NEIGHBOURS = BOARD.neighbour_array  # (cell, direction) -> cell or -1
OPPOSITE_A = np.array(OPPOSITE, np.int64)
# seat arithmetic as tables (a kernel's % is a division): AFTER[n, p, k] = (p + k) % n, the seat k
# places after p; REL[n, me, q] = (q - me) % n, seat q as seat `me` sees it
AFTER = np.array([[[(p + k) % max(n, 1) for k in range(P)] for p in range(P)] for n in range(P + 1)],
                 np.int64)
REL = np.array([[[(q - me) % max(n, 1) for q in range(P)] for me in range(P)] for n in range(P + 1)],
               np.int64)
TRIANGLE_CELLS = np.array(BOARD.triangle, np.int64)
CARDS_REMOVED_A = np.array([CARDS_REMOVED.get(n, 0) for n in range(P + 1)], np.int64)
COORDS = np.array([scaled_coords(r, c) for r, c in BOARD.coords], np.float32)  # a slot's row, column
BLACKMAIL_A = np.full((P, 2), -1, np.int64)  # (offset, demand) -> action
OFFER_A = np.full((P, 2, 2), -1, np.int64)  # (offset, item, vote) -> action
for (_k, _d), _a in BLACKMAIL.items():
    BLACKMAIL_A[_k, _d] = _a
for (_k, _item, _vote), _a in OFFER.items():
    OFFER_A[_k, _item, _vote] = _a
# per action of the negotiation: 0 pass, 1 blackmail, 2 offer; then offset, demand or item, vote
NEGOTIATION = np.zeros((ACTIONS.size, 4), np.int64)
for _a, (_kind, _f) in enumerate(ACTIONS.decoded):
    if _kind == "blackmail":
        NEGOTIATION[_a] = (1, _f["offset"], _f["demand"], 0)
    elif _kind == "offer":
        NEGOTIATION[_a] = (2, _f["offset"], _f["item"], _f["vote"])

# --- observation offsets (the layout is the same at every count) --------------------------------------
_LAYOUT = Observer(CorruptiaRules(CorruptiaRules.make_config(num_players=P))).layout
(O_PHASE, O_ROUND, O_TURN, O_DIE, O_PRESIDENT, O_PROPOSER, O_ACTOR, O_HAND, O_BY_DEPT, O_DISCARD, O_KNOWN,
 O_RETURNED, O_PLAYERS, O_HELD, O_BLACKMAIL, O_OFFERS, O_LAST_VOTES, O_LAST_RESULT, O_PROPOSAL, O_VALUES,
 O_BILLS) = (_LAYOUT[name].start for name in (
    "phase", "round", "turn", "die", "president", "proposer", "actor", "my_hand", "my_hand_by_dept",
    "discard_zone", "known_hands", "returned_at_setup", "players", "blackmail_held", "blackmail_now",
    "offers_now", "last_votes", "last_result", "proposal", "department_values", "bills"))
PLAYER_FEATURES = _LAYOUT.shapes["players"][1]
# _write_observation zeroes two runs of one-hot pieces and writes every other piece whole
assert (O_HAND, O_HELD, O_PROPOSAL) == (_LAYOUT["actor"].stop, _LAYOUT["players"].stop,
                                        _LAYOUT["last_result"].stop), "the observation layout changed"
assert (O_VALUES, O_BILLS) == (_LAYOUT["proposal"].stop, _LAYOUT["department_values"].stop)

# --- the row state's layout ----------------------------------------------------------------------------
# ints[i, ...]: the scalars of game i
(I_N, I_PHASE, I_ACTOR, I_ROUND, I_TURN, I_PRESIDENT, I_DIE, I_BILL, I_CELL, I_CRONIES, I_WORKERS,
 I_PASSES, I_RESULT, I_GIVEN, I_PLACED, I_CANDIDATES, I_DECK, I_QUEUE_HEAD, I_QUEUE_LEN) = range(19)
I_NEED = 19  # 4 entries: open jobs by income (index 0 unused)
I_PENDING = I_NEED + 4  # 6 entries: officials proposed from the neighbour in each direction
I_VALUES = I_PENDING + NUM_DIRS  # 5 entries: department values
I_SHOWN = I_VALUES + NUM_DEPTS  # one-hot entries the observation row shows (listed in st[12][i])
I_ALLOWED = I_SHOWN + 1  # actions the mask row allows (listed in allowed[i])
I_LEAST = I_ALLOWED + 1  # NUM_BUDGETS entries: _least_deficits of this turn
NUM_INTS = I_LEAST + NUM_BUDGETS
MAX_LEGAL = NUM_CARDS + 1 + MAX_SLOTS * NUM_DIRS  # cards and keep, or candidate cells: the most at once
# one-hot entries of an observation: seats, phase and clock; every card at most once in a known hand;
# blackmail cards, ballots, blackmail, offers (the hand and the discard zone are written whole, and the
# cards returned at setup once a game, in `_deal`)
MAX_ONES = 8 + NUM_CARDS + P * P + P + P + P * P
# seat[i, ..., q]: per-seat vectors
SE_TOKENS, SE_RESERVE, SE_HAND, SE_VOTE, SE_LAST_VOTE, SE_BLACKMAILER, SE_DEMAND, SE_QUEUE = range(8)
NUM_SEAT = 8
# cards[i, ..., c]
C_LOC, C_KNOWN, C_RETURNED = range(3)
# table[i, ..., slot]: the bills on the table in the order placed
T_CELL, T_CARD, T_OFFICIALS, T_CRONIES = range(4)
NO_OFFER = -1  # offer[i, f, t]: item * 2 + vote of f's offer to t this turn
# scratch[...]: the kernels' working arrays, one row each (they allocate nothing: see below)
W_SEEN, W_STACK, W_KEYS = range(3)

KEY_SHIFT = 20  # final key (score, tokens) as score << 20 | tokens: tokens stay far below 2**20


# The kernels of a step are compiled without numba's reference counting (_nrt=False): with it, each
# call of a helper increfs and decrefs every array of the state tuple on entry and exit, atomic
# operations that took 44% of a step. So they allocate nothing; their working arrays are the state's
# scratch. Only a deal (once a game) counts references: numpy_rng's seeding allocates, and a function
# compiled for a caller without them would have to do without too.
# The helpers of most decisions, the rules' step and the observation are inlined (inline="always"): a
# call passes the state tuple's 16 arrays, some 150 machine words, by value (~20% of a step at B=64).

# --- chance: numpy's Generator (numpy_rng) --------------------------------------------------------
@nb.njit(cache=True, _nrt=False)
def _shuffle(g, cards, size):  # pragma: no cover - compiled
    """Generator.shuffle of cards[:size], a list or an array alike (Fisher-Yates from the end)."""
    for k in range(size - 1, 0, -1):
        j = numpy_rng.random_interval(g, k)
        cards[k], cards[j] = cards[j], cards[k]


# --- the table ---------------------------------------------------------------------------------------
@nb.njit(cache=True, _nrt=False)
def _show_bill(st, i, cell, card, proposed):  # pragma: no cover - compiled
    """Observer.show_bill: the bill at `cell` in the next slot (proposed) or the one just placed."""
    ints, table, cell_slot, slots = st[0], st[6], st[7], st[8]
    k = ints[i, I_PLACED] if proposed else ints[i, I_PLACED] - 1
    row = slots[i, k]
    row[:] = 0.0
    row[S_PRESENT] = 1.0
    row[S_PROPOSED] = 1.0 if proposed else 0.0
    row[S_ROW] = COORDS[cell, 0]
    row[S_COL] = COORDS[cell, 1]
    row[S_DEPT + DEPT_A[card]] = 1.0
    row[S_INCOME + INCOME_A[card] - 1] = 1.0
    if not proposed:  # a cell being proposed holds no officials or Cronies yet
        row[S_OFFICIALS] = table[i, T_OFFICIALS, k] / 18.0
        row[S_CRONIES] = table[i, T_CRONIES, k] / 3.0
    for d in range(NUM_DIRS):
        j = NEIGHBOURS[cell, d]
        if j >= 0 and cell_slot[i, j] >= 0:
            row[S_NEIGHBOURS + d] = 1.0
            if not proposed:
                slots[i, cell_slot[i, j], S_NEIGHBOURS + OPPOSITE_A[d]] = 1.0


@nb.njit(cache=True, _nrt=False, inline="always")
def _update_bill(st, i, cell, interviewed):  # pragma: no cover - compiled
    """Observer.update_bill: the officials at `cell` and how many of them are proposed as workers."""
    table, cell_slot, slots = st[6], st[7], st[8]
    k = cell_slot[i, cell]
    slots[i, k, S_OFFICIALS] = table[i, T_OFFICIALS, k] / 18.0
    slots[i, k, S_INTERVIEW] = interviewed / 3.0


@nb.njit(cache=True, _nrt=False)
def _place(st, i, cell, card, officials, cronies):  # pragma: no cover - compiled
    ints, cards, table, cell_slot = st[0], st[4], st[6], st[7]
    k = ints[i, I_PLACED]
    table[i, T_CELL, k] = cell
    table[i, T_CARD, k] = card
    table[i, T_OFFICIALS, k] = officials
    table[i, T_CRONIES, k] = cronies
    cell_slot[i, cell] = k
    cards[i, C_LOC, card] = ON_TABLE
    ints[i, I_PLACED] = k + 1
    _show_bill(st, i, cell, card, False)


@nb.njit(cache=True, _nrt=False)
def _department_values(st, i):  # pragma: no cover - compiled
    """scoring.department_values: per department, over its blocks, bills x workers."""
    ints, table, cell_slot = st[0], st[6], st[7]
    placed = ints[i, I_PLACED]
    seen, stack = st[15][W_SEEN], st[15][W_STACK]
    seen[:placed] = 0
    for d in range(NUM_DEPTS):
        ints[i, I_VALUES + d] = 0
    for start in range(placed):
        if seen[start]:
            continue
        dept = DEPT_A[table[i, T_CARD, start]]
        seen[start] = True
        stack[0] = start
        top = 1
        bills = staff = 0
        while top:
            top -= 1
            k = stack[top]
            bills += 1
            staff += table[i, T_OFFICIALS, k] + table[i, T_CRONIES, k]
            cell = table[i, T_CELL, k]
            for d in range(NUM_DIRS):
                j = NEIGHBOURS[cell, d]
                if j >= 0:
                    m = cell_slot[i, j]
                    if m >= 0 and not seen[m] and DEPT_A[table[i, T_CARD, m]] == dept:
                        seen[m] = True
                        stack[top] = m
                        top += 1
        ints[i, I_VALUES + dept] += bills * staff


@nb.njit(cache=True, _nrt=False)
def _find_candidates(st, i):  # pragma: no cover - compiled
    """rules._candidates: every empty cell next to a bill, with the officials around it by income."""
    ints, table, cell_slot, cand = st[0], st[6], st[7], st[9]
    count = 0
    for k in range(ints[i, I_PLACED]):
        cell = table[i, T_CELL, k]
        for d in range(NUM_DIRS):
            j = NEIGHBOURS[cell, d]
            if j < 0 or cell_slot[i, j] != -1:
                continue
            cell_slot[i, j] = -2  # seen this turn (reset below)
            cand[i, count, 0] = j
            cand[i, count, 1] = cand[i, count, 2] = cand[i, count, 3] = 0
            for e in range(NUM_DIRS):
                x = NEIGHBOURS[j, e]
                if x >= 0 and cell_slot[i, x] >= 0:
                    m = cell_slot[i, x]
                    cand[i, count, INCOME_A[table[i, T_CARD, m]]] += table[i, T_OFFICIALS, m]
            count += 1
    for c in range(count):
        cell_slot[i, cand[i, c, 0]] = -1
    ints[i, I_CANDIDATES] = count
    _least_deficits(st, i)


@nb.njit(cache=True, _nrt=False, inline="always")
def _deficit(card, a1, a2, a3):  # pragma: no cover - compiled
    return max(0, NEED_A[card, 1] - a1) + max(0, NEED_A[card, 2] - a2) + max(0, NEED_A[card, 3] - a3)


@nb.njit(cache=True, _nrt=False)
def _least_deficits(st, i):  # pragma: no cover - compiled
    """Per budget, the fewest Cronies a bill of that budget needs on any candidate cell this turn."""
    ints, cand = st[0], st[9]
    for b in range(NUM_BUDGETS):
        card = BUDGET_CARD[b]
        least = NO_CELL  # no candidate cell: no bill fits
        for c in range(ints[i, I_CANDIDATES]):
            least = min(least, _deficit(card, cand[i, c, 1], cand[i, c, 2], cand[i, c, 3]))
        ints[i, I_LEAST + b] = least


@nb.njit(cache=True, _nrt=False, inline="always")
def _bill_fits(st, i, card, cronies):  # pragma: no cover - compiled
    """rules._bill_fits: some candidate cell can be staffed with `cronies` Cronies at most."""
    return st[0][i, I_LEAST + BUDGET_OF[card]] <= cronies


# --- the turn ----------------------------------------------------------------------------------------
@nb.njit(cache=True, _nrt=False, inline="always")
def _proposer(ints, i):  # pragma: no cover - compiled
    return AFTER[ints[i, I_N], ints[i, I_PRESIDENT], ints[i, I_TURN]]


@nb.njit(cache=True, _nrt=False)
def _pop(st, i):  # pragma: no cover - compiled
    """The top card of the pile."""
    ints, deck = st[0], st[5]
    ints[i, I_DECK] -= 1
    return np.int64(deck[i, ints[i, I_DECK]])


@nb.njit(cache=True, _nrt=False)
def _start_turn(st, i):  # pragma: no cover - compiled
    ints, seat, offer, cards, rng = st[0], st[1], st[3], st[4], st[10]
    p = _proposer(ints, i)
    ints[i, I_DIE] = numpy_rng.integers(rng[i], DIE_FACES)  # phase 1: the People's Die
    ints[i, I_BILL] = ints[i, I_CELL] = -1
    for x in range(4):
        ints[i, I_NEED + x] = 0
    for d in range(NUM_DIRS):
        ints[i, I_PENDING + d] = 0
    ints[i, I_CRONIES] = ints[i, I_WORKERS] = ints[i, I_PASSES] = 0
    ints[i, I_QUEUE_HEAD] = ints[i, I_QUEUE_LEN] = 0
    ints[i, I_GIVEN] = -1
    for q in range(P):
        seat[i, SE_BLACKMAILER, q] = -1
        seat[i, SE_VOTE, q] = -1
    offer[i, :, :] = NO_OFFER
    ints[i, I_ACTOR] = p
    _find_candidates(st, i)
    reserve = seat[i, SE_RESERVE, p]
    ints[i, I_PHASE] = DISCARD  # rulings: no legal proposal -> discard a hand card, no vote
    for c in range(NUM_CARDS):
        if cards[i, C_LOC, c] == p and _bill_fits(st, i, c, reserve):
            ints[i, I_PHASE] = BILL
            break


@nb.njit(cache=True, _nrt=False)
def _start_round(st, i):  # pragma: no cover - compiled
    ints, seat, cards = st[0], st[1], st[4]
    n = ints[i, I_N]
    for k in range(n):  # the President deals two to everyone, themselves included
        p = AFTER[n, ints[i, I_PRESIDENT], k]
        for _ in range(DEAL_PER_ROUND):
            cards[i, C_LOC, _pop(st, i)] = p
        seat[i, SE_HAND, p] += DEAL_PER_ROUND
    for _ in range(DISCARD_PER_ROUND):
        cards[i, C_LOC, _pop(st, i)] = IN_DISCARD
    _start_turn(st, i)


@nb.njit(cache=True, _nrt=False)
def _end_turn(st, i):  # pragma: no cover - compiled
    ints = st[0]
    ints[i, I_TURN] += 1
    if ints[i, I_TURN] < ints[i, I_N]:
        _start_turn(st, i)
        return
    ints[i, I_TURN] = 0
    ints[i, I_ROUND] += 1
    if ints[i, I_ROUND] == NUM_ROUNDS:
        ints[i, I_PHASE] = OVER
        ints[i, I_ACTOR] = -1
        return
    ints[i, I_PRESIDENT] = AFTER[ints[i, I_N], ints[i, I_PRESIDENT], 1]  # the token passes left
    _start_round(st, i)


@nb.njit(cache=True, _nrt=False, inline="always")
def _spare(st, i, p):  # pragma: no cover - compiled
    """p's Cronies and tokens not yet promised in this turn's offers."""
    ints, seat, offer = st[0], st[1], st[3]
    crony, token = seat[i, SE_RESERVE, p], seat[i, SE_TOKENS, p]
    for t in range(ints[i, I_N]):
        o = offer[i, p, t]
        if o != NO_OFFER:
            if (o >> 1) == CRONY:
                crony -= 1
            else:
                token -= 1
    return crony, token


@nb.njit(cache=True, _nrt=False, inline="always")
def _negotiation_moves(st, i, p, offers_on, m, mark):  # pragma: no cover - compiled
    """rules._negotiation_moves: whether p has a blackmail or an offer to make; with `mark`, all of
    them are allowed in the mask row m (else m is not touched and the first one found answers)."""
    ints, seat, held, offer = st[0], st[1], st[2], st[3]
    n = ints[i, I_N]
    found = False
    for k in range(1, n):
        t = AFTER[n, p, k]
        # one blackmail per target per turn; none on a player without tokens
        if held[i, p, t] and seat[i, SE_TOKENS, t] > 0 and seat[i, SE_BLACKMAILER, t] < 0:
            if not mark:
                return True
            found = True
            _allow(st, i, m, BLACKMAIL_A[k, YES])
            _allow(st, i, m, BLACKMAIL_A[k, NO])
    if offers_on:
        crony, token = _spare(st, i, p)
        for k in range(1, n):
            t = AFTER[n, p, k]
            if offer[i, p, t] != NO_OFFER:
                continue
            for item in range(2):
                if (crony if item == CRONY else token) > 0:
                    if not mark:
                        return True
                    found = True
                    _allow(st, i, m, OFFER_A[k, item, YES])
                    _allow(st, i, m, OFFER_A[k, item, NO])
    return found


@nb.njit(cache=True, _nrt=False, inline="always")
def _skip_forced_passes(st, i, offers_on):  # pragma: no cover - compiled
    """A player whose only move is to pass passes without being asked."""
    ints = st[0]
    n = ints[i, I_N]
    while not _negotiation_moves(st, i, ints[i, I_ACTOR], offers_on, st[13], False):
        ints[i, I_PASSES] += 1
        if ints[i, I_PASSES] >= n:
            _start_vote(ints, i)
            return
        ints[i, I_ACTOR] = AFTER[n, ints[i, I_ACTOR], 1]


@nb.njit(cache=True, _nrt=False, inline="always")
def _start_vote(ints, i):  # pragma: no cover - compiled
    ints[i, I_PHASE] = VOTE
    ints[i, I_ACTOR] = _proposer(ints, i)


@nb.njit(cache=True, _nrt=False)
def _resolve(st, i):  # pragma: no cover - compiled
    """The vote's outcome, the offers paid, public opinion, then the absent players' swaps."""
    ints, seat, offer, cards, table, cell_slot, slots, rng = st[0], st[1], st[3], st[4], st[6], st[7], \
        st[8], st[10]
    n = ints[i, I_N]
    p = _proposer(ints, i)
    yes = no = 0
    for q in range(n):
        v = seat[i, SE_VOTE, q]
        if v == YES:
            yes += 1
        elif v == NO:
            no += 1
    if yes != no:
        approved = yes > no
        ints[i, I_RESULT] = APPROVED if approved else REJECTED
    else:  # a tie: the President tosses the token
        approved = numpy_rng.integers(rng[i], 2) != 0
        ints[i, I_RESULT] = APPROVED_BY_COIN if approved else REJECTED_BY_COIN
    for q in range(n):
        seat[i, SE_LAST_VOTE, q] = seat[i, SE_VOTE, q]
    cell, bill = ints[i, I_CELL], ints[i, I_BILL]
    moved = 0
    for d in range(NUM_DIRS):
        k = ints[i, I_PENDING + d]
        if k:
            j = NEIGHBOURS[cell, d]
            if approved:
                table[i, T_OFFICIALS, cell_slot[i, j]] -= k
                moved += k
            _update_bill(st, i, j, 0)
    if approved:
        _place(st, i, cell, bill, moved, ints[i, I_CRONIES])  # Cronies stay there for the game
        _department_values(st, i)
    else:
        slots[i, ints[i, I_PLACED]] = 0.0  # the proposed bill leaves the table
        cards[i, C_LOC, bill] = IN_DISCARD
        seat[i, SE_RESERVE, p] += ints[i, I_CRONIES]
    for f in range(n):  # binding offers are paid to those who voted as asked
        for t in range(n):
            o = offer[i, f, t]
            if o != NO_OFFER and seat[i, SE_VOTE, t] == (o & 1):
                stock = SE_RESERVE if (o >> 1) == CRONY else SE_TOKENS
                seat[i, stock, f] -= 1
                seat[i, stock, t] += 1
    dept = DEPT_A[bill]
    die = ints[i, I_DIE]
    for q in range(n):  # phase 5: public opinion
        v = seat[i, SE_VOTE, q]
        change = 0
        if (v == YES and die == dept) or (v == NO and die == REVOLUTION):
            change += 1
        if v == ABSENT:
            change -= 1
        if seat[i, SE_BLACKMAILER, q] >= 0 and v != seat[i, SE_DEMAND, q]:
            change -= 1  # public opinion learns of the compromising situation
        seat[i, SE_TOKENS, q] = max(0, seat[i, SE_TOKENS, q] + change)
    queue = 0
    for k in range(n):
        q = AFTER[n, p, k]
        if seat[i, SE_VOTE, q] == ABSENT:
            seat[i, SE_QUEUE, queue] = q
            queue += 1
    ints[i, I_QUEUE_HEAD] = 0
    ints[i, I_QUEUE_LEN] = queue
    _next_swap(st, i)


@nb.njit(cache=True, _nrt=False)
def _next_swap(st, i):  # pragma: no cover - compiled
    """Absent players may swap a hand card with the discard zone, in turn order."""
    ints, seat = st[0], st[1]
    ints[i, I_GIVEN] = -1
    if ints[i, I_QUEUE_HEAD] < ints[i, I_QUEUE_LEN]:
        ints[i, I_ACTOR] = seat[i, SE_QUEUE, ints[i, I_QUEUE_HEAD]]
        ints[i, I_QUEUE_HEAD] += 1
        ints[i, I_PHASE] = SWAP_GIVE
    else:
        _end_turn(st, i)


@nb.njit(cache=True, _nrt=False)
def _choose_worker(st, i, p, w, offers_on):  # pragma: no cover - compiled
    ints, seat, table, cell_slot = st[0], st[1], st[6], st[7]
    cell = ints[i, I_CELL]
    if w == CRONY_WORKER:
        seat[i, SE_RESERVE, p] -= 1
        ints[i, I_CRONIES] += 1
        # a Crony is wild: it takes the job that matching officials are shortest of
        a1 = a2 = a3 = 0
        for d in range(NUM_DIRS):
            j = NEIGHBOURS[cell, d]
            if j >= 0 and cell_slot[i, j] >= 0:
                k = cell_slot[i, j]
                free = table[i, T_OFFICIALS, k] - ints[i, I_PENDING + d]
                income = INCOME_A[table[i, T_CARD, k]]
                if income == 1:
                    a1 += free
                elif income == 2:
                    a2 += free
                else:
                    a3 += free
        best, gap = -1, 0
        for x in range(1, 4):
            need = ints[i, I_NEED + x]
            if need > 0:
                short = need - (a1 if x == 1 else a2 if x == 2 else a3)
                if best < 0 or short > gap:
                    best, gap = x, short
        ints[i, I_NEED + best] -= 1
    else:
        j = NEIGHBOURS[cell, w]
        ints[i, I_PENDING + w] += 1
        _update_bill(st, i, j, ints[i, I_PENDING + w])
        ints[i, I_NEED + INCOME_A[table[i, T_CARD, cell_slot[i, j]]]] -= 1
    ints[i, I_WORKERS] += 1
    if ints[i, I_WORKERS] == WORKERS_PER_BILL:
        ints[i, I_PHASE] = NEGOTIATE
        ints[i, I_ACTOR] = p
        ints[i, I_PASSES] = 0
        _skip_forced_passes(st, i, offers_on)


@nb.njit(cache=True, _nrt=False, inline="always")
def _negotiate(st, i, p, action, offers_on):  # pragma: no cover - compiled
    ints, seat, held, offer = st[0], st[1], st[2], st[3]
    n = ints[i, I_N]
    kind, offset = NEGOTIATION[action, 0], NEGOTIATION[action, 1]
    t = AFTER[n, p, offset]
    if kind == 0:
        ints[i, I_PASSES] += 1
    elif kind == 1:
        held[i, p, t] = 0  # a used card leaves the game whatever happens
        seat[i, SE_BLACKMAILER, t] = p
        seat[i, SE_DEMAND, t] = NEGOTIATION[action, 2]
        ints[i, I_PASSES] = 0
    else:
        offer[i, p, t] = NEGOTIATION[action, 2] * 2 + NEGOTIATION[action, 3]
        ints[i, I_PASSES] = 0
    if ints[i, I_PASSES] >= n:
        _start_vote(ints, i)
        return
    ints[i, I_ACTOR] = AFTER[n, p, 1]
    _skip_forced_passes(st, i, offers_on)


@nb.njit(cache=True, _nrt=False, inline="always")
def _apply(st, i, action, offers_on):  # pragma: no cover - compiled
    """rules.apply: one legal action of the acting seat."""
    ints, seat, cards = st[0], st[1], st[4]
    p = ints[i, I_ACTOR]
    phase = ints[i, I_PHASE]
    if phase == BILL:
        ints[i, I_BILL] = action
        cards[i, C_LOC, action] = PROPOSED
        cards[i, C_KNOWN, action] = -1
        seat[i, SE_HAND, p] -= 1
        for x in range(4):
            ints[i, I_NEED + x] = NEED_A[action, x]
        ints[i, I_PHASE] = CELL
    elif phase == CELL:
        ints[i, I_CELL] = action - CELL0
        _show_bill(st, i, action - CELL0, ints[i, I_BILL], True)
        ints[i, I_PHASE] = WORKER
    elif phase == WORKER:
        _choose_worker(st, i, p, action - WORKER0, offers_on)
    elif phase == NEGOTIATE:
        _negotiate(st, i, p, action, offers_on)
    elif phase == VOTE:
        seat[i, SE_VOTE, p] = action - VOTE0
        ints[i, I_ACTOR] = AFTER[ints[i, I_N], p, 1]
        if ints[i, I_ACTOR] == _proposer(ints, i):
            _resolve(st, i)
    elif phase == SWAP_GIVE:
        if action == KEEP_HAND:
            _next_swap(st, i)
        else:
            cards[i, C_LOC, action] = IN_DISCARD
            cards[i, C_KNOWN, action] = -1
            seat[i, SE_HAND, p] -= 1
            ints[i, I_GIVEN] = action
            ints[i, I_PHASE] = SWAP_TAKE
    elif phase == SWAP_TAKE:
        cards[i, C_LOC, action] = p
        cards[i, C_KNOWN, action] = p  # taken from the face-up zone: everyone knows where it is
        seat[i, SE_HAND, p] += 1
        _next_swap(st, i)
    else:  # DISCARD: a proposer who can staff no bill discards one
        cards[i, C_LOC, action] = IN_DISCARD
        cards[i, C_KNOWN, action] = -1
        seat[i, SE_HAND, p] -= 1
        _end_turn(st, i)


# --- what the acting seat sees and may do --------------------------------------------------------------
@nb.njit(cache=True, _nrt=False, inline="always")
def _allow(st, i, m, action):  # pragma: no cover - compiled
    """Mark `action` legal in the mask row m, noting it so the next decision clears only these."""
    ints, allowed = st[0], st[11]
    m[action] = 1
    allowed[i, ints[i, I_ALLOWED]] = action
    ints[i, I_ALLOWED] += 1


@nb.njit(cache=True, _nrt=False, inline="always")
def _write_mask(st, i, offers_on, m):  # pragma: no cover - compiled
    """rules.legal_mask into the mask row m, after clearing the actions the row's last mask allowed."""
    allowed = st[11]
    for k in range(st[0][i, I_ALLOWED]):
        m[allowed[i, k]] = 0
    st[0][i, I_ALLOWED] = 0
    ints, seat, cards, table, cell_slot, cand = st[0], st[1], st[4], st[6], st[7], st[9]
    p = ints[i, I_ACTOR]
    phase = ints[i, I_PHASE]
    reserve = seat[i, SE_RESERVE, p]
    if phase == BILL:
        for c in range(NUM_CARDS):
            if cards[i, C_LOC, c] == p and _bill_fits(st, i, c, reserve):
                _allow(st, i, m, c)
    elif phase == CELL:
        bill = ints[i, I_BILL]
        for c in range(ints[i, I_CANDIDATES]):
            if _deficit(bill, cand[i, c, 1], cand[i, c, 2], cand[i, c, 3]) <= reserve:
                _allow(st, i, m, CELL0 + cand[i, c, 0])
    elif phase == WORKER:
        cell = ints[i, I_CELL]
        for d in range(NUM_DIRS):
            j = NEIGHBOURS[cell, d]
            if j >= 0 and cell_slot[i, j] >= 0:
                k = cell_slot[i, j]
                if ints[i, I_NEED + INCOME_A[table[i, T_CARD, k]]] > 0 and \
                        table[i, T_OFFICIALS, k] > ints[i, I_PENDING + d]:
                    _allow(st, i, m, WORKER0 + d)
        if reserve > 0:
            _allow(st, i, m, WORKER0 + CRONY_WORKER)
    elif phase == NEGOTIATE:
        _allow(st, i, m, PASS_ACTION)
        _negotiation_moves(st, i, p, offers_on, m, True)
    elif phase == VOTE:
        _allow(st, i, m, VOTE0 + YES)
        _allow(st, i, m, VOTE0 + NO)
        if seat[i, SE_TOKENS, p] > 0:  # only those with tokens can be absent
            _allow(st, i, m, VOTE0 + ABSENT)
    elif phase == SWAP_GIVE or phase == DISCARD:
        for c in range(NUM_CARDS):
            if cards[i, C_LOC, c] == p:
                _allow(st, i, m, c)
        if phase == SWAP_GIVE:
            _allow(st, i, m, KEEP_HAND)
    elif phase == SWAP_TAKE:
        for c in range(NUM_CARDS):
            if cards[i, C_LOC, c] == IN_DISCARD and c != ints[i, I_GIVEN]:
                _allow(st, i, m, c)


@nb.njit(cache=True, _nrt=False, inline="always")
def _one(obs, listed, count, index):  # pragma: no cover - compiled
    """Set a one-hot entry of the observation row, listing it for the next decision to clear."""
    obs[index] = 1.0
    listed[count] = index
    return count + 1


@nb.njit(cache=True, _nrt=False, inline="always")
def _any_known(known, me):  # pragma: no cover - compiled
    """Whether some card is known to be in the hand of a seat other than `me`."""
    found = False
    for c in range(NUM_CARDS):
        found |= (known[c] >= 0) & (known[c] != me)
    return found


@nb.njit(cache=True, _nrt=False, inline="always")
def _write_observation(st, i, me, obs):  # pragma: no cover - compiled
    """Observer.observe(state, me) into the batch row obs, touching little of it: the ones the row's
    last observation set are cleared and this one's set (listed in st[12]); the hand, the discard
    zone and the few pieces of other values (players, hand counts, proposal, department values) are
    written whole; the bill slots and the cards returned at setup live in the row already (st[8] and
    st[14] are their views of the batch's observations)."""
    ints, seat, held, offer, cards = st[0], st[1], st[2], st[3], st[4]
    listed = st[12][i]
    for k in range(ints[i, I_SHOWN]):
        obs[listed[k]] = 0.0
    n = ints[i, I_N]
    phase = ints[i, I_PHASE]
    live = phase != OVER
    rel = REL[n, me]
    count = _one(obs, listed, 0, O_PHASE + phase)
    count = _one(obs, listed, count, O_PRESIDENT + rel[ints[i, I_PRESIDENT]])
    count = _one(obs, listed, count, O_LAST_RESULT + ints[i, I_RESULT])
    if live:
        count = _one(obs, listed, count, O_ROUND + ints[i, I_ROUND])
        count = _one(obs, listed, count, O_TURN + ints[i, I_TURN])
        count = _one(obs, listed, count, O_DIE + ints[i, I_DIE])
        count = _one(obs, listed, count, O_ACTOR + rel[ints[i, I_ACTOR]])
        count = _one(obs, listed, count, O_PROPOSER + rel[_proposer(ints, i)])
    voting = phase == VOTE
    for k in range(P):
        base = O_PLAYERS + k * PLAYER_FEATURES
        if k >= n:
            obs[base:base + PLAYER_FEATURES] = 0.0
            continue
        q = AFTER[n, me, k]
        cards_held = 0
        for j in range(n):
            if held[i, q, j]:
                cards_held += 1
                count = _one(obs, listed, count, O_HELD + k * P + rel[j])
        obs[base] = 1.0
        obs[base + 1] = min(seat[i, SE_TOKENS, q] / TOKENS_SCALE, 1.0)
        obs[base + 2] = seat[i, SE_RESERVE, q] / 15.0
        obs[base + 3] = seat[i, SE_HAND, q] / MAX_HAND
        obs[base + 4] = cards_held / (P - 1)
        obs[base + 5] = 1.0 if voting and seat[i, SE_VOTE, q] >= 0 else 0.0
        v = seat[i, SE_LAST_VOTE, q]
        count = _one(obs, listed, count, O_LAST_VOTES + k * 4 + (3 if v < 0 else v))
    loc, known = cards[i, C_LOC], cards[i, C_KNOWN]
    for c in range(NUM_CARDS):  # the hand and the discard zone whole: no branch, in vector registers
        obs[O_HAND + c] = loc[c] == me
        obs[O_DISCARD + c] = loc[c] == IN_DISCARD
    for d in range(NUM_DEPTS):  # a department's cards are a block: counted without a branch per card
        in_hand = 0
        for c in range(d * CARDS_PER_DEPT, (d + 1) * CARDS_PER_DEPT):
            in_hand += loc[c] == me
        obs[O_BY_DEPT + d] = in_hand / MAX_HAND
        obs[O_VALUES + d] = min(ints[i, I_VALUES + d] / VALUE_SCALE, 1.0)
    if _any_known(known, me):  # in random play, 2 decisions in 5 have none: a scan without branches first
        for c in range(NUM_CARDS):
            seen = known[c]
            if seen >= 0 and seen != me:  # row k - 1: the cards seen taken by the seat k places after me
                count = _one(obs, listed, count, O_KNOWN + (rel[seen] - 1) * NUM_CARDS + c)
    obs[O_PROPOSAL:O_VALUES] = 0.0
    if live:
        for t in range(n):
            f = seat[i, SE_BLACKMAILER, t]
            if f >= 0:
                at = O_BLACKMAIL + (rel[f] * P + rel[t]) * 2 + seat[i, SE_DEMAND, t]
                count = _one(obs, listed, count, at)
        for f in range(n):
            for t in range(n):
                o = offer[i, f, t]
                if o != NO_OFFER:
                    count = _one(obs, listed, count, O_OFFERS + (rel[f] * P + rel[t]) * 4 + o)
        c = ints[i, I_BILL]
        if c >= 0:
            obs[O_PROPOSAL + DEPT_A[c]] = 1.0
            obs[O_PROPOSAL + 4 + INCOME_A[c]] = 1.0
            for x in range(3):
                obs[O_PROPOSAL + 8 + x] = NEED_A[c, x + 1] / 3.0
                obs[O_PROPOSAL + 11 + x] = ints[i, I_NEED + x + 1] / 3.0
            obs[O_PROPOSAL + 14] = ints[i, I_CRONIES] / 3.0
            obs[O_PROPOSAL + 15] = ints[i, I_WORKERS] / 3.0
    ints[i, I_SHOWN] = count


@nb.njit(cache=True, _nrt=False, inline="always")
def _write_decision(st, i, offers_on, obs, mask, current):  # pragma: no cover - compiled
    me = st[0][i, I_ACTOR]
    current[i] = me
    _write_observation(st, i, me, obs[i])
    _write_mask(st, i, offers_on, mask[i])


@nb.njit(cache=True, _nrt=False)
def _write_end(st, i, mode, keys, rewards, scores, ranks):  # pragma: no cover - compiled
    """Scores and the keys (score, tokens) of the game that just ended, then its outcome."""
    ints, seat, cards = st[0], st[1], st[4]
    n = ints[i, I_N]
    for q in range(n):
        score = TOKEN_POINTS * seat[i, SE_TOKENS, q] + CRONY_POINTS * seat[i, SE_RESERVE, q]
        for c in range(NUM_CARDS):
            if cards[i, C_LOC, c] == q:
                score += ints[i, I_VALUES + DEPT_A[c]]
        scores[i, q] = score
        keys[q] = (score << KEY_SHIFT) | seat[i, SE_TOKENS, q]
    write_outcome(keys, scores[i], n, mode, rewards[i], ranks[i])


# --- the batch kernels -------------------------------------------------------------------------------
@nb.njit(cache=True, _nrt=False)
def _step_kernel(st, actions, offers_on, mode, obs, mask, current, rewards, terminated, scores,
                 ranks, ended_players, ended_rows):  # pragma: no cover - compiled
    """One action in every game (none where WAIT); returns how many games ended, their rows in
    ended_rows[:that many] (Python deals their successors)."""
    keys = st[15][W_KEYS]
    ended = 0
    for i in range(actions.shape[0]):
        rewards[i, :] = 0.0
        terminated[i] = False
        ended_players[i] = 0
        if actions[i] == WAIT:  # this game does not move; its row stays as it is
            continue
        _apply(st, i, actions[i], offers_on)
        scores[i, :] = 0
        ranks[i, :] = 0.0
        terminated[i] = st[0][i, I_PHASE] == OVER
        if terminated[i]:
            _write_end(st, i, mode, keys, rewards, scores, ranks)
            ended_players[i] = st[0][i, I_N]
            ended_rows[ended] = i
            ended += 1
        else:
            _write_decision(st, i, offers_on, obs, mask, current)
    return ended


@nb.njit(cache=True, _nrt=False)
def random_allowed(st, i, g):  # pragma: no cover - compiled
    """A uniform legal action of row i: its allowed list's k-th (the mask row's legal actions, each
    once) for k = `Generator.integers(count)` drawn from g (no draw when one is legal)."""
    count = st[0][i, I_ALLOWED]
    return st[11][i, numpy_rng.integers(g, count) if count > 1 else 0]


@nb.njit(cache=True, _nrt=False)
def _playout_kernel(st, rows, g, offers_on, mode, mask, rewards, scores,
                    ranks):  # pragma: no cover - compiled
    """Each game of `rows` played to its end by `random_allowed` moves drawn from g, and its outcome
    written. Only the masks are written on the way: the observation rows keep their last writes and
    the lists that clear them (st[12]), so the next decision written (a new deal) clears them as
    usual."""
    keys = st[15][W_KEYS]
    ints = st[0]
    for j in range(rows.shape[0]):
        i = rows[j]
        while True:
            _apply(st, i, random_allowed(st, i, g), offers_on)
            if ints[i, I_PHASE] == OVER:
                break
            _write_mask(st, i, offers_on, mask[i])
        scores[i, :] = 0
        ranks[i, :] = 0.0
        _write_end(st, i, mode, keys, rewards, scores, ranks)


@nb.njit(cache=True)
def _deal(st, i, n, seed):  # pragma: no cover - compiled
    """CorruptiaRules.new_game(np.random.default_rng(seed)) at n players in row i, draw for draw."""
    ints, seat, held, offer, cards, deck, table, cell_slot, slots, rng = st[0], st[1], st[2], st[3], \
        st[4], st[5], st[6], st[7], st[8], st[10]
    for k in range(ints[i, I_PLACED]):  # clear the last game's table
        cell_slot[i, table[i, T_CELL, k]] = -1
    ints[i, :I_SHOWN] = 0  # not I_SHOWN and I_ALLOWED: they describe the batch row, not the game
    seat[i, :, :] = 0
    held[i, :, :] = 0
    offer[i, :, :] = NO_OFFER
    slots[i, :, :] = 0.0
    ints[i, I_N] = n
    r = rng[i]
    numpy_rng.seed_generator(r, seed)
    pile = deck[i]
    for c in range(NUM_CARDS):  # setup 1: permutation(90); the first cards go to the box unseen
        pile[c] = c
        cards[i, C_KNOWN, c] = -1
        cards[i, C_RETURNED, c] = 0
    _shuffle(r, pile, NUM_CARDS)
    removed = CARDS_REMOVED_A[n]
    for k in range(NUM_CARDS):
        cards[i, C_LOC, pile[k]] = IN_BOX if k < removed else IN_DECK
    size = NUM_CARDS - removed
    for k in range(size):
        pile[k] = pile[k + removed]
    # setup 2: a triangle of different departments and incomes; the cards passed over go back and the
    # pile is shuffled
    triangle = np.empty(TRIANGLE_SIZE, np.int64)
    passed = np.empty(NUM_CARDS, np.int16)
    placed = replaced = 0
    while placed < TRIANGLE_SIZE:
        size -= 1
        c = np.int64(pile[size])
        fits = True
        for x in range(placed):
            if DEPT_A[c] == DEPT_A[triangle[x]] or INCOME_A[c] == INCOME_A[triangle[x]]:
                fits = False
        if fits:
            triangle[placed] = c
            placed += 1
        else:
            cards[i, C_RETURNED, c] = 1
            passed[replaced] = c
            replaced += 1
    if replaced:
        pile[size:size + replaced] = passed[:replaced]
        size += replaced
        _shuffle(r, pile, size)
    for c in range(NUM_CARDS):  # the observation's returned_at_setup piece, for the whole game
        st[14][i, c] = cards[i, C_RETURNED, c]
    ints[i, I_DECK] = size
    for t in range(TRIANGLE_SIZE):  # setup 3: six officials on each starting bill
        _place(st, i, TRIANGLE_CELLS[t], triangle[t], OFFICIALS_PER_START_BILL, 0)
    _department_values(st, i)
    for p in range(n):  # setup 5-9
        for _ in range(START_HAND):
            cards[i, C_LOC, _pop(st, i)] = p
        seat[i, SE_HAND, p] = START_HAND
        seat[i, SE_RESERVE, p] = CRONIES_EACH
        seat[i, SE_LAST_VOTE, p] = -1
        for q in range(n):
            held[i, p, q] = 1 if p != q else 0
    for _ in range(n):
        cards[i, C_LOC, _pop(st, i)] = IN_DISCARD
    ints[i, I_PRESIDENT] = numpy_rng.integers(r, n)  # setup 10
    _start_round(st, i)


@nb.njit(cache=True)
def _start_kernel(st, rows, counts, seeds, offers_on, obs, mask, current):  # pragma: no cover - compiled
    """A new game in each row of `rows` (its count and seed), up to its first decision."""
    for g in range(rows.shape[0]):
        _deal(st, rows[g], counts[g], seeds[g])
        _write_decision(st, rows[g], offers_on, obs, mask, current)



@nb.njit(cache=True, _nrt=False)
def _decide_kernel(st, rows, offers_on, obs, mask, current):  # pragma: no cover - compiled
    """The decision of each row of `rows`, loaded from an AEC state."""
    for g in range(rows.shape[0]):
        _least_deficits(st, rows[g])
        _write_decision(st, rows[g], offers_on, obs, mask, current)


# --- determinizations: a seat's information set redrawn in the rows (as corruptia/hidden.py) ------------
# the redraw's working words: the pool of unseen cards (sorted), those of them never shuffled back, those
# that were, and each opponent's count of unseen hand cards
R_POOL, R_FREE, R_BOUND, R_DRAW = range(4)


@nb.njit(cache=True, _nrt=False)
def _copy_row2(a, count):  # pragma: no cover - compiled
    """a[1:count] = a[0], by loops (a slice assignment may allocate)."""
    for i in range(1, count):
        for x in range(a.shape[1]):
            a[i, x] = a[0, x]


@nb.njit(cache=True, _nrt=False)
def _copy_row3(a, count):  # pragma: no cover - compiled
    for i in range(1, count):
        for x in range(a.shape[1]):
            for y in range(a.shape[2]):
                a[i, x, y] = a[0, x, y]


@nb.njit(cache=True, _nrt=False)
def _copy_rows(st, obs, mask, current, count):  # pragma: no cover - compiled
    """Rows 1..count-1 become copies of row 0: its game, its observation and mask rows (the bill slots
    and the cards returned at setup among them) and the lists of what those rows show."""
    _copy_row2(st[0], count)
    _copy_row3(st[1], count)
    _copy_row3(st[2], count)
    _copy_row3(st[3], count)
    _copy_row3(st[4], count)
    _copy_row2(st[5], count)
    _copy_row3(st[6], count)
    _copy_row2(st[7], count)
    _copy_row3(st[9], count)
    _copy_row2(st[11], count)
    _copy_row2(st[12], count)
    _copy_row2(obs, count)
    _copy_row2(mask, count)
    for i in range(1, count):
        current[i] = current[0]


@nb.njit(cache=True, _nrt=False)
def _resample_kernel(st, seeds, player, offers_on, obs, mask, current, work,
                     seeding):  # pragma: no cover - compiled
    """Rows 0..len(seeds)-1, each a copy of the game in row 0, with all that `player` cannot see
    redrawn from `default_rng(seeds[k])` in `resample_hidden`'s order of draws, that Generator then
    carrying the row's chance on; their decisions written again. A draw reads which cards are unseen
    (the pile, the box, the opponents' hand cards not seen taken), never where each one is."""
    count = seeds.shape[0]
    _copy_rows(st, obs, mask, current, count)
    ints, seat, cards, deck = st[0], st[1], st[4], st[5]
    for i in range(count):
        g = st[10][i]
        numpy_rng.seed_generator_in(g, seeds[i], seeding)
        n = ints[i, I_N]
        for q in range(n):  # each opponent's hand cards not seen taken, to be drawn again
            work[R_DRAW, q] = seat[i, SE_HAND, q] if q != player else 0
        pool = free = bound = box = 0
        for c in range(NUM_CARDS):
            where = cards[i, C_LOC, c]
            if where < n and where != player and cards[i, C_KNOWN, c] == where:
                work[R_DRAW, where] -= 1
            unseen = where == IN_DECK or where == IN_BOX or (
                where < n and where != player and cards[i, C_KNOWN, c] != where)
            if unseen:
                work[R_POOL, pool] = c
                pool += 1
                box += where == IN_BOX
                if cards[i, C_RETURNED, c] != 0:
                    work[R_BOUND, bound] = c
                    bound += 1
                else:
                    work[R_FREE, free] = c
                    free += 1
        _shuffle(g, work[R_FREE], free)
        for k in range(box):
            cards[i, C_LOC, work[R_FREE, k]] = IN_BOX
        rest = work[R_POOL]  # the rest of the free cards, then the bound ones (the pool is read no more)
        size = 0
        for k in range(box, free):
            rest[size] = work[R_FREE, k]
            size += 1
        for k in range(bound):
            rest[size] = work[R_BOUND, k]
            size += 1
        _shuffle(g, rest, size)
        for q in range(n):  # each opponent's unseen hand cards off the end of the rest
            draw = work[R_DRAW, q]
            for k in range(size - draw, size):
                cards[i, C_LOC, rest[k]] = q
            size -= draw
        for k in range(size):  # the pile, its top last
            deck[i, k] = rest[k]
            cards[i, C_LOC, rest[k]] = IN_DECK
        if ints[i, I_PHASE] == VOTE:  # the ballots cast so far are secret
            for q in range(n):
                if q != player and seat[i, SE_VOTE, q] >= 0:
                    seat[i, SE_VOTE, q] = numpy_rng.integers(g, 3 if seat[i, SE_TOKENS, q] > 0 else 2)
        _least_deficits(st, i)
        _write_decision(st, i, offers_on, obs, mask, current)


# privileged features (a privileged critic's input, never a seat's view), seats counted from the one on
# turn: what the state holds and the seat on turn cannot see. Of the unseen cards, only which lie in the
# box: no seat ever learns the pile's order.
PRIVILEGED = Layout()
PRIVILEGED.add("hands", (P, NUM_CARDS))  # each seat's hand, by card id
PRIVILEGED.add("box", NUM_CARDS)  # the cards removed unseen at setup (the other unseen cards: the pile)
PRIVILEGED.add("votes", (P, 3))  # the ballots cast in the running vote: YES, NO, ABSENT
PV_HANDS, PV_BOX, PV_VOTES = PRIVILEGED.starts(("hands", "box", "votes"))


class CorruptiaEngine(CompiledEngine):
    """B games of Corruptia stepped by numba kernels; the AEC env's observations, masks and outcomes."""

    rules_class = CorruptiaRules
    advance_writes_ended_players = True
    privileged_size = PRIVILEGED.size

    def _allocate(self) -> None:
        B = self.num_envs
        self._offers_on = bool(self.config["vote_offers"])
        self._ended = np.zeros(B, np.int64)  # scratch: the rows whose game ended this step
        cell_slot = np.full((B, NUM_CELLS), -1, np.int8)
        # the slots are public and the same for every seat: the rows' bill pieces are their only copy
        bills = self._batch.observation[:, O_BILLS:].reshape(B, MAX_SLOTS, SLOT_FEATURES)
        assert np.shares_memory(bills, self._batch.observation), "the bill slots must be a view"
        # a game's scalars, seats, blackmail cards and offers share one row of small ints (views of
        # it): each step reads every row, so the fewer cache lines a row spans the better
        small = np.zeros((B, NUM_INTS + NUM_SEAT * P + 2 * P * P), np.int16)
        seats, pairs = NUM_INTS + NUM_SEAT * P, NUM_INTS + NUM_SEAT * P + P * P
        small[:, pairs:] = NO_OFFER
        self._state = (
            small[:, :NUM_INTS],  # 0 ints
            small[:, NUM_INTS:seats].reshape(B, NUM_SEAT, P),  # 1 seat
            small[:, seats:pairs].reshape(B, P, P),  # 2 held: [p, q] p holds the card of q's party
            small[:, pairs:].reshape(B, P, P),  # 3 offer
            np.zeros((B, 3, NUM_CARDS), np.int8),  # 4 cards: location, seen taken by, shuffled back
            np.zeros((B, NUM_CARDS), np.int16),  # 5 the pile, its top last
            np.zeros((B, 4, MAX_SLOTS), np.int16),  # 6 table
            cell_slot,  # 7 board cell -> slot of its bill, -1 empty
            bills,  # 8 the bill slots, kept in the batch's observation rows
            np.zeros((B, MAX_CANDIDATES, 4), np.int16),  # 9 candidate cells, officials by income
            np.zeros((B, numpy_rng.GENERATOR_SIZE), np.uint64),  # 10 the game's Generator
            np.zeros((B, MAX_LEGAL), np.int16),  # 11 the actions the mask row allows
            np.zeros((B, MAX_ONES), np.int16),  # 12 the one-hot entries the observation row shows
            np.zeros(1, np.int8),  # 13 the mask argument of a question that marks nothing
            self._batch.observation[:, O_RETURNED:O_RETURNED + NUM_CARDS],  # 14 fixed for a game
            np.zeros((W_KEYS + 1, NUM_CARDS), np.int64),  # 15 scratch
        )
        self._redraw = np.zeros((R_DRAW + 1, NUM_CARDS), np.int64)  # load_resampled's working words
        self._seeding = np.zeros(numpy_rng.SEED_SCRATCH, np.uint64)

    def _start(self, games: np.ndarray) -> None:
        games = np.asarray(games, np.int64)
        counts = self._deal_counts(games)
        seeds = self._deal_seeds(games)
        b = self._batch
        _start_kernel(self._state, games, counts, seeds, self._offers_on, b.observation, b.action_mask,
                      b.current_player)


    def _advance(self, actions: np.ndarray) -> None:
        b = self._batch
        ended = _step_kernel(self._state, actions, self._offers_on, self.reward_code, b.observation,
                             b.action_mask, b.current_player, b.rewards, b.terminated, b.scores, b.ranks,
                             b.ended_players, self._ended)
        if ended:
            self._start(self._ended[:ended])

    def _playouts(self, rows: np.ndarray, generator: np.ndarray) -> None:
        b = self._batch
        _playout_kernel(self._state, rows, generator, self._offers_on, self.reward_code, b.action_mask,
                        b.rewards, b.scores, b.ranks)

    def write_privileged(self, out: np.ndarray, rows: np.ndarray) -> None:
        """Every seat's hand, the box and the ballots of a running vote (`PRIVILEGED`), seats counted
        from the one on turn as observations count them."""
        b = self._batch
        ints, seat, cards = self._state[0], self._state[1], self._state[4]
        n = b.num_players[rows, None].astype(np.int64)
        me = b.current_player[rows, None].astype(np.int64)
        loc = cards[rows, C_LOC].astype(np.int64)  # a seat (its hand) or IN_*
        out[:] = 0
        r, c = np.nonzero(loc < P)
        out[r, PV_HANDS + (loc[r, c] - me[r, 0]) % n[r, 0] * NUM_CARDS + c] = 1.0
        r, c = np.nonzero(loc == IN_BOX)
        out[r, PV_BOX + c] = 1.0
        seats = (me + np.arange(P)) % n  # (R, P): the seat k places after the one on turn
        votes = np.take_along_axis(seat[rows, SE_VOTE], seats, axis=1)
        cast = (votes >= 0) & (np.arange(P) < n) & (ints[rows, I_PHASE, None] == VOTE)
        r, k = np.nonzero(cast)
        out[r, PV_VOTES + k * 3 + votes[r, k]] = 1.0

    def load(self, row: int, state: CorruptiaState) -> None:
        """Copy an AEC game state (with its Generator's state) into `row`, which then continues that game
        and shows its current decision; the row's outcome figures are cleared."""
        if not self._started:
            raise NotResetError("load() replaces one game of a running batch: call reset(seed=...) first")
        s = state
        if s.phase == OVER:
            raise ValueError("load() takes a game in play: this state is over (nothing left to decide)")
        if s.n not in self.rules:
            raise ValueError(f"a {s.n}-player state: this engine plays {list(self.player_counts)}; make it "
                             "with num_players=[...] listing every count it will load")
        ints, seat, held, offer, cards, deck, table, cell_slot, slots, cand, rng = self._state[:11]
        i = int(row)
        for k in range(ints[i, I_PLACED]):
            cell_slot[i, table[i, T_CELL, k]] = -1
        ints[i, :I_SHOWN] = 0  # not I_SHOWN and I_ALLOWED: they describe the batch row, not the game
        for field, value in ((I_N, s.n), (I_PHASE, s.phase), (I_ACTOR, s.actor), (I_ROUND, s.round),
                             (I_TURN, s.turn), (I_PRESIDENT, s.president), (I_DIE, s.die),
                             (I_BILL, s.bill), (I_CELL, s.cell), (I_CRONIES, s.pending_cronies),
                             (I_WORKERS, s.workers), (I_PASSES, s.passes), (I_RESULT, s.last_result),
                             (I_GIVEN, s.given), (I_PLACED, len(s.placed)),
                             (I_CANDIDATES, len(s.candidates)), (I_DECK, len(s.deck)),
                             (I_QUEUE_LEN, len(s.absent_queue))):
            ints[i, field] = value
        ints[i, I_NEED:I_NEED + 4] = s.need
        ints[i, I_VALUES:I_VALUES + NUM_DEPTS] = s.values
        if s.cell >= 0:
            for d, j in enumerate(NEIGHBOURS[s.cell]):
                ints[i, I_PENDING + d] = s.pending.get(int(j), 0) if j >= 0 else 0
        seat[i] = 0
        seat[i, SE_BLACKMAILER] = -1
        n = s.n
        seat[i, SE_TOKENS, :n] = s.tokens
        seat[i, SE_RESERVE, :n] = s.reserve
        seat[i, SE_HAND, :n] = [len(h) for h in s.hands]
        seat[i, SE_VOTE, :n] = s.votes
        seat[i, SE_LAST_VOTE, :n] = s.last_votes
        for t, bm in enumerate(s.blackmail):
            if bm is not None:
                seat[i, SE_BLACKMAILER, t], seat[i, SE_DEMAND, t] = bm
        seat[i, SE_QUEUE, :len(s.absent_queue)] = s.absent_queue
        held[i] = 0
        held[i, :n, :n] = s.held
        offer[i] = NO_OFFER
        for f, t, item, vote in s.offers:
            offer[i, f, t] = item * 2 + vote
        cards[i, C_LOC] = s.loc
        cards[i, C_KNOWN] = s.known_at
        cards[i, C_RETURNED] = s.returned_vec != 0
        self._state[14][i] = cards[i, C_RETURNED]
        deck[i] = 0
        deck[i, :len(s.deck)] = s.deck
        for k, c in enumerate(s.placed):
            table[i, :, k] = (c, s.cell_card[c], s.officials[c], s.cronies[c])
            cell_slot[i, c] = k
        slots[i] = s.slots
        cand[i, :len(s.candidates)] = s.candidates if s.candidates else 0
        rng[i] = pcg64_words(s.rng)
        b = self._batch
        b.num_players[i] = n
        b.rewards[i] = 0
        b.terminated[i] = False
        b.scores[i] = 0
        b.ranks[i] = 0
        self.game_seeds[i] = -1  # dealt elsewhere, not from a seed of this engine
        _decide_kernel(self._state, np.array([i], np.int64), self._offers_on, b.observation, b.action_mask,
                       b.current_player)

    def can_resample(self, state: CorruptiaState, player: int) -> bool:
        """Whether `load_resampled` draws `player`'s determinizations of `state`: always."""
        return True

    def load_resampled(self, state: CorruptiaState, player: int, seeds: np.ndarray) -> None:
        """Rows 0..len(seeds)-1 play on from `player`'s determinizations of `state`: row k holds the state
        `rules.resample_hidden(state, player, np.random.default_rng(seeds[k]))` draws, that Generator
        carrying on its chance, drawn in one compiled pass from one copy of `state` in row 0
        (`_resample_kernel`). `game_seeds` of those rows become -1, as with `load`."""
        seeds = np.asarray(seeds, np.int64)
        w = len(seeds)
        if not 0 <= player < state.n or not 0 < w <= self.num_envs:
            raise ValueError(f"player {player} of {state.n}, {w} seeds for {self.num_envs} rows: give a seat "
                             "of the game and one to num_envs seeds, one a row")
        self.load(0, state)
        b = self._batch
        for a in (b.rewards, b.terminated, b.scores, b.ranks):
            a[1:w] = 0
        b.num_players[:w] = state.n
        self.game_seeds[:w] = -1
        _resample_kernel(self._state, seeds, int(player), self._offers_on, b.observation, b.action_mask,
                         b.current_player, self._redraw, self._seeding)
