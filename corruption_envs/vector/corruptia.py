"""Corruptia's batched engine: the rules of `corruption_envs/corruptia/` as numba kernels over B games.

Chance. Corruptia draws at setup (the pile's permutation, the reshuffle of the cards the triangle
replaced, the starting President) and during play (the People's Die every turn, the President's coin
on a tied vote), all from the game's numpy Generator (PCG64). The setup draws run in Python with
`np.random.default_rng(game_seed)` exactly as `CorruptiaRules.new_game` makes them; the Generator's
PCG64 state is then handed to the kernels, which carry it on per row: `_pcg64_next` is numpy's PCG64
(128-bit LCG, XSL-RR output) and `_draw` its `integers(high)` (Lemire's bounded draw on 32-bit outputs,
with PCG64's buffered upper half). So game i of the engine is, draw for draw, the AEC game
`rules.new_game(np.random.default_rng(engine.game_seeds[i]))`, dice and coins included, and the
differential test (tests/vector/test_corruptia.py, driver benchmarks/differential_corruptia.py) just
plays both from the same seeds. `load(row, state)` copies an AEC state into a row, its Generator's
state included, so crafted positions continue with the same chance too.

State per row: cards by location (hands and the discard zone are sets, only the pile has an order),
the table as bill slots in the order placed (`cell_slot` maps a board cell to its slot), and the bill
slots' observation features kept up to date as the rules' `Observer.show_bill` / `update_bill` keep
them. The acting seat's observation is written once per decision straight into its batch row.
"""
from __future__ import annotations

from typing import Any, Sequence

import numba as nb
import numpy as np

from ..corruptia import CorruptiaRules
from ..corruptia.codec import (
    ACTIONS, BLACKMAIL, BOARD, CELL0, CRONY_WORKER, KEEP_HAND, MAX_PLAYERS, OFFER, PASS_ACTION, VOTE0,
    WORKER0,
)
from ..corruptia.observer import (
    MAX_HAND, MAX_SLOTS, OPPOSITE, S_COL, S_CRONIES, S_DEPT, S_INCOME, S_INTERVIEW, S_NEIGHBOURS,
    S_OFFICIALS, S_PRESENT, S_PROPOSED, S_ROW, SLOT_FEATURES, TOKENS_SCALE, VALUE_SCALE, Observer,
    scaled_coords,
)
from ..corruptia.state import (
    ABSENT, APPROVED, APPROVED_BY_COIN, BILL, CELL, CRONY, DISCARD, IN_BOX, IN_DECK, IN_DISCARD, NEGOTIATE,
    NO, ON_TABLE, OVER, PROPOSED, REJECTED, REJECTED_BY_COIN, SWAP_GIVE, SWAP_TAKE, VOTE, WORKER, YES,
    CorruptiaState,
)
from ..corruptia.tables import (
    CARDS_PER_DEPT, CARDS_REMOVED, CRONIES_EACH, CRONY_POINTS, DEAL_PER_ROUND, DEPT, DIE_FACES, DISCARD_PER_ROUND, INCOME,
    NEED, NUM_CARDS, NUM_DEPTS, NUM_ROUNDS, OFFICIALS_PER_START_BILL, REVOLUTION, START_HAND,
    TOKEN_POINTS, TRIANGLE_SIZE, WORKERS_PER_BILL,
)
from .engine import VectorEngine
from .outcome import write_outcome

P = MAX_PLAYERS
NUM_CELLS = BOARD.size
NUM_DIRS = 6
MAX_CANDIDATES = NUM_DIRS * MAX_SLOTS  # empty cells next to a bill: at most six per bill on the table

# --- the rules' tables as arrays -------------------------------------------------------------------
DEPT_A = np.array(DEPT, np.int64)
INCOME_A = np.array(INCOME, np.int64)
NEED_A = np.array(NEED, np.int64)  # (card, income 0..3): jobs of each income, index 0 unused
NEIGHBOURS = BOARD.neighbour_array  # (cell, direction) -> cell or -1
OPPOSITE_A = np.array(OPPOSITE, np.int64)
# seat arithmetic as tables (a kernel's % is a division): AFTER[n, p, k] = (p + k) % n, the seat k
# places after p; REL[n, me, q] = (q - me) % n, seat q as seat `me` sees it
AFTER = np.array([[[(p + k) % max(n, 1) for k in range(P)] for p in range(P)] for n in range(P + 1)], np.int64)
REL = np.array([[[(q - me) % max(n, 1) for q in range(P)] for me in range(P)] for n in range(P + 1)], np.int64)
TRIANGLE_CELLS = np.array(BOARD.triangle, np.int64)
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
I_SHOWN = I_VALUES + NUM_DEPTS  # bill-slot floats the observation row shows (those after are zero)
NUM_INTS = I_SHOWN + 1
# seat[i, ..., q]: per-seat vectors
SE_TOKENS, SE_RESERVE, SE_HAND, SE_VOTE, SE_LAST_VOTE, SE_BLACKMAILER, SE_DEMAND, SE_QUEUE = range(8)
NUM_SEAT = 8
# cards[i, ..., c]
C_LOC, C_KNOWN, C_RETURNED = range(3)
# table[i, ..., slot]: the bills on the table in the order placed
T_CELL, T_CARD, T_OFFICIALS, T_CRONIES = range(4)
NO_OFFER = -1  # offer[i, f, t]: item * 2 + vote of f's offer to t this turn

M32 = np.uint64(0xFFFFFFFF)
U32 = np.uint64(32)
PCG_MUL_HI = np.uint64(0x2360ED051FC65DA4)  # PCG's default 128-bit multiplier
PCG_MUL_LO = np.uint64(0x4385DF649FCCF645)
KEY_SHIFT = 20  # final key (score, tokens) as score << 20 | tokens: tokens stay far below 2**20


# --- numpy's PCG64 and Generator.integers ------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def _mul64(a, b):  # pragma: no cover - compiled
    """The 128-bit product of two uint64 as (high, low)."""
    a0, a1, b0, b1 = a & M32, a >> U32, b & M32, b >> U32
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> U32) + (p01 & M32) + (p10 & M32)
    return p11 + (p01 >> U32) + (p10 >> U32) + (mid >> U32), (p00 & M32) | (mid << U32)


@nb.njit(cache=True)
def _pcg64_next(r):  # pragma: no cover - compiled
    """numpy's PCG64 step and output; r = (state high, state low, inc high, inc low, has32, upper32)."""
    hi, lo = _mul64(r[1], PCG_MUL_LO)
    hi = hi + r[1] * PCG_MUL_HI + r[0] * PCG_MUL_LO
    low = lo + r[3]
    hi = hi + r[2] + (np.uint64(1) if low < lo else np.uint64(0))
    r[0], r[1] = hi, low
    x = hi ^ low
    rot = hi >> np.uint64(58)
    return (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))


@nb.njit(cache=True)
def _next32(r):  # pragma: no cover - compiled
    """PCG64's next_uint32: the low half of a fresh output, keeping the high half for the next call."""
    if r[4]:
        r[4] = np.uint64(0)
        return r[5]
    v = _pcg64_next(r)
    r[4], r[5] = np.uint64(1), v >> U32
    return v & M32


@nb.njit(cache=True)
def _draw(r, high):  # pragma: no cover - compiled
    """Generator.integers(high) for 1 < high < 2**32 (Lemire's rejection on 32-bit draws)."""
    span = np.uint64(high)
    m = _next32(r) * span
    left = m & M32
    if left < span:
        threshold = (M32 - (span - np.uint64(1))) % span
        while left < threshold:
            m = _next32(r) * span
            left = m & M32
    return np.int64(m >> U32)


# --- the table ---------------------------------------------------------------------------------------
@nb.njit(cache=True)
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


@nb.njit(cache=True)
def _update_bill(st, i, cell, interviewed):  # pragma: no cover - compiled
    """Observer.update_bill: the officials at `cell` and how many of them are proposed as workers."""
    table, cell_slot, slots = st[6], st[7], st[8]
    k = cell_slot[i, cell]
    slots[i, k, S_OFFICIALS] = table[i, T_OFFICIALS, k] / 18.0
    slots[i, k, S_INTERVIEW] = interviewed / 3.0


@nb.njit(cache=True)
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


@nb.njit(cache=True)
def _department_values(st, i):  # pragma: no cover - compiled
    """scoring.department_values: per department, over its blocks, bills x workers."""
    ints, table, cell_slot = st[0], st[6], st[7]
    placed = ints[i, I_PLACED]
    seen = np.zeros(MAX_SLOTS, np.bool_)
    stack = np.empty(MAX_SLOTS, np.int64)
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


@nb.njit(cache=True)
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


@nb.njit(cache=True, inline="always")
def _deficit(card, a1, a2, a3):  # pragma: no cover - compiled
    return max(0, NEED_A[card, 1] - a1) + max(0, NEED_A[card, 2] - a2) + max(0, NEED_A[card, 3] - a3)


@nb.njit(cache=True)
def _bill_fits(st, i, card, cronies):  # pragma: no cover - compiled
    ints, cand = st[0], st[9]
    for c in range(ints[i, I_CANDIDATES]):
        if _deficit(card, cand[i, c, 1], cand[i, c, 2], cand[i, c, 3]) <= cronies:
            return True
    return False


# --- the turn ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _proposer(ints, i):  # pragma: no cover - compiled
    return AFTER[ints[i, I_N], ints[i, I_PRESIDENT], ints[i, I_TURN]]


@nb.njit(cache=True)
def _pop(st, i):  # pragma: no cover - compiled
    """The top card of the pile."""
    ints, deck = st[0], st[5]
    ints[i, I_DECK] -= 1
    return np.int64(deck[i, ints[i, I_DECK]])


@nb.njit(cache=True)
def _start_turn(st, i):  # pragma: no cover - compiled
    ints, seat, offer, cards, rng = st[0], st[1], st[3], st[4], st[10]
    p = _proposer(ints, i)
    ints[i, I_DIE] = _draw(rng[i], DIE_FACES)  # phase 1: the People's Die
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


@nb.njit(cache=True)
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


@nb.njit(cache=True)
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


@nb.njit(cache=True)
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


@nb.njit(cache=True)
def _negotiation_moves(st, i, p, offers_on, m, mark):  # pragma: no cover - compiled
    """rules._negotiation_moves: whether p has a blackmail or an offer to make; with `mark`, all of
    them are set in the mask row m (else m is not touched and the first one found answers)."""
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
            m[BLACKMAIL_A[k, YES]] = 1
            m[BLACKMAIL_A[k, NO]] = 1
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
                    m[OFFER_A[k, item, YES]] = 1
                    m[OFFER_A[k, item, NO]] = 1
    return found


@nb.njit(cache=True)
def _skip_forced_passes(st, i, offers_on):  # pragma: no cover - compiled
    """A player whose only move is to pass passes without being asked."""
    ints = st[0]
    n = ints[i, I_N]
    while not _negotiation_moves(st, i, ints[i, I_ACTOR], offers_on, st[11], False):
        ints[i, I_PASSES] += 1
        if ints[i, I_PASSES] >= n:
            _start_vote(ints, i)
            return
        ints[i, I_ACTOR] = AFTER[n, ints[i, I_ACTOR], 1]


@nb.njit(cache=True)
def _start_vote(ints, i):  # pragma: no cover - compiled
    ints[i, I_PHASE] = VOTE
    ints[i, I_ACTOR] = _proposer(ints, i)


@nb.njit(cache=True)
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
        approved = _draw(rng[i], 2) != 0
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


@nb.njit(cache=True)
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


@nb.njit(cache=True)
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


@nb.njit(cache=True)
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


@nb.njit(cache=True)
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
@nb.njit(cache=True)
def _write_mask(st, i, offers_on, m):  # pragma: no cover - compiled
    """rules.legal_mask into the zeroed row m."""
    ints, seat, cards, table, cell_slot, cand = st[0], st[1], st[4], st[6], st[7], st[9]
    p = ints[i, I_ACTOR]
    phase = ints[i, I_PHASE]
    reserve = seat[i, SE_RESERVE, p]
    if phase == BILL:
        for c in range(NUM_CARDS):
            if cards[i, C_LOC, c] == p and _bill_fits(st, i, c, reserve):
                m[c] = 1
    elif phase == CELL:
        bill = ints[i, I_BILL]
        for c in range(ints[i, I_CANDIDATES]):
            if _deficit(bill, cand[i, c, 1], cand[i, c, 2], cand[i, c, 3]) <= reserve:
                m[CELL0 + cand[i, c, 0]] = 1
    elif phase == WORKER:
        cell = ints[i, I_CELL]
        for d in range(NUM_DIRS):
            j = NEIGHBOURS[cell, d]
            if j >= 0 and cell_slot[i, j] >= 0:
                k = cell_slot[i, j]
                if ints[i, I_NEED + INCOME_A[table[i, T_CARD, k]]] > 0 and \
                        table[i, T_OFFICIALS, k] > ints[i, I_PENDING + d]:
                    m[WORKER0 + d] = 1
        if reserve > 0:
            m[WORKER0 + CRONY_WORKER] = 1
    elif phase == NEGOTIATE:
        m[PASS_ACTION] = 1
        _negotiation_moves(st, i, p, offers_on, m, True)
    elif phase == VOTE:
        m[VOTE0 + YES] = m[VOTE0 + NO] = 1
        if seat[i, SE_TOKENS, p] > 0:  # only those with tokens can be absent
            m[VOTE0 + ABSENT] = 1
    elif phase == SWAP_GIVE or phase == DISCARD:
        for c in range(NUM_CARDS):
            if cards[i, C_LOC, c] == p:
                m[c] = 1
        if phase == SWAP_GIVE:
            m[KEEP_HAND] = 1
    elif phase == SWAP_TAKE:
        for c in range(NUM_CARDS):
            if cards[i, C_LOC, c] == IN_DISCARD and c != ints[i, I_GIVEN]:
                m[c] = 1


@nb.njit(cache=True)
def _write_observation(st, i, me, obs):  # pragma: no cover - compiled
    """Observer.observe(state, me) into the batch row obs. The card pieces, players, proposal, values
    and the bill slots shown are written whole (loops the compiler vectorises); the pieces of a few
    one-hot entries are zeroed, then set; slots beyond those shown are zero already (or zeroed here)."""
    ints, seat, held, offer, cards, slots = st[0], st[1], st[2], st[3], st[4], st[8]
    n = ints[i, I_N]
    phase = ints[i, I_PHASE]
    live = phase != OVER
    rel = REL[n, me]
    obs[O_PHASE:O_HAND] = 0.0
    obs[O_HELD:O_PROPOSAL] = 0.0
    obs[O_PHASE + phase] = 1.0
    obs[O_PRESIDENT + rel[ints[i, I_PRESIDENT]]] = 1.0
    obs[O_LAST_RESULT + ints[i, I_RESULT]] = 1.0
    if live:
        obs[O_ROUND + ints[i, I_ROUND]] = 1.0
        obs[O_TURN + ints[i, I_TURN]] = 1.0
        obs[O_DIE + ints[i, I_DIE]] = 1.0
        obs[O_ACTOR + rel[ints[i, I_ACTOR]]] = 1.0
        obs[O_PROPOSER + rel[_proposer(ints, i)]] = 1.0
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
                obs[O_HELD + k * P + rel[j]] = 1.0
        obs[base] = 1.0
        obs[base + 1] = min(seat[i, SE_TOKENS, q] / TOKENS_SCALE, 1.0)
        obs[base + 2] = seat[i, SE_RESERVE, q] / 15.0
        obs[base + 3] = seat[i, SE_HAND, q] / MAX_HAND
        obs[base + 4] = cards_held / (P - 1)
        obs[base + 5] = 1.0 if voting and seat[i, SE_VOTE, q] >= 0 else 0.0
        v = seat[i, SE_LAST_VOTE, q]
        obs[O_LAST_VOTES + k * 4 + (3 if v < 0 else v)] = 1.0
    loc, known, returned = cards[i, C_LOC], cards[i, C_KNOWN], cards[i, C_RETURNED]
    for d in range(NUM_DEPTS):
        count = 0
        for c in range(d * CARDS_PER_DEPT, (d + 1) * CARDS_PER_DEPT):
            mine = loc[c] == me
            count += mine
            obs[O_HAND + c] = 1.0 if mine else 0.0
        obs[O_BY_DEPT + d] = count / MAX_HAND
        obs[O_VALUES + d] = min(ints[i, I_VALUES + d] / VALUE_SCALE, 1.0)
    for c in range(NUM_CARDS):
        obs[O_DISCARD + c] = 1.0 if loc[c] == IN_DISCARD else 0.0
        obs[O_RETURNED + c] = returned[c]
    for k in range(1, P):  # row k - 1: the cards seen taken by the seat k places after me
        row = O_KNOWN + (k - 1) * NUM_CARDS
        q = AFTER[n, me, k] if k < n else -2  # -2: no seat (known is -1 or a seat)
        for c in range(NUM_CARDS):
            obs[row + c] = 1.0 if known[c] == q else 0.0
    obs[O_PROPOSAL:O_VALUES] = 0.0
    if live:
        for t in range(n):
            f = seat[i, SE_BLACKMAILER, t]
            if f >= 0:
                obs[O_BLACKMAIL + (rel[f] * P + rel[t]) * 2 + seat[i, SE_DEMAND, t]] = 1.0
        for f in range(n):
            for t in range(n):
                o = offer[i, f, t]
                if o != NO_OFFER:
                    obs[O_OFFERS + (rel[f] * P + rel[t]) * 4 + o] = 1.0
        c = ints[i, I_BILL]
        if c >= 0:
            obs[O_PROPOSAL + DEPT_A[c]] = 1.0
            obs[O_PROPOSAL + 4 + INCOME_A[c]] = 1.0
            for x in range(3):
                obs[O_PROPOSAL + 8 + x] = NEED_A[c, x + 1] / 3.0
                obs[O_PROPOSAL + 11 + x] = ints[i, I_NEED + x + 1] / 3.0
            obs[O_PROPOSAL + 14] = ints[i, I_CRONIES] / 3.0
            obs[O_PROPOSAL + 15] = ints[i, I_WORKERS] / 3.0
    size = min(ints[i, I_PLACED] + 1, MAX_SLOTS) * SLOT_FEATURES  # the slots after these are empty
    obs[O_BILLS:O_BILLS + size] = slots[i].ravel()[:size]
    if ints[i, I_SHOWN] > size:  # a new game, or a row loaded: slots of the last one may show
        obs[O_BILLS + size:O_BILLS + ints[i, I_SHOWN]] = 0.0
    ints[i, I_SHOWN] = size


@nb.njit(cache=True)
def _write_decision(st, i, offers_on, obs, mask, current):  # pragma: no cover - compiled
    me = st[0][i, I_ACTOR]
    current[i] = me
    _write_observation(st, i, me, obs[i])
    mask[i, :] = 0
    _write_mask(st, i, offers_on, mask[i])


@nb.njit(cache=True)
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
@nb.njit(cache=True)
def _step_kernel(st, actions, offers_on, mode, obs, mask, current, rewards, terminated, scores,
                 ranks):  # pragma: no cover - compiled
    keys = np.zeros(P, np.int64)
    for i in range(actions.shape[0]):
        _apply(st, i, actions[i], offers_on)
        rewards[i, :] = 0.0
        scores[i, :] = 0
        ranks[i, :] = 0.0
        terminated[i] = st[0][i, I_PHASE] == OVER
        if terminated[i]:
            _write_end(st, i, mode, keys, rewards, scores, ranks)
        else:
            _write_decision(st, i, offers_on, obs, mask, current)


@nb.njit(cache=True)
def _start_kernel(st, rows, counts, decks, deck_sizes, boxes, returned, triangles, presidents, rngs,
                  offers_on, obs, mask, current):  # pragma: no cover - compiled
    """new_game for each row of `rows` from its setup draws (made in Python), up to its first decision."""
    ints, seat, held, offer, cards, deck, table, cell_slot, slots, rng = st[0], st[1], st[2], st[3], \
        st[4], st[5], st[6], st[7], st[8], st[10]
    for g in range(rows.shape[0]):
        i = rows[g]
        for k in range(ints[i, I_PLACED]):  # clear the last game's table
            cell_slot[i, table[i, T_CELL, k]] = -1
        ints[i, :] = 0
        ints[i, I_SHOWN] = MAX_SLOTS * SLOT_FEATURES  # the last game's slots may show in the row
        seat[i, :, :] = 0
        held[i, :, :] = 0
        offer[i, :, :] = NO_OFFER
        slots[i, :, :] = 0.0
        n = counts[g]
        ints[i, I_N] = n
        ints[i, I_RESULT] = 0
        rng[i, :] = rngs[g]
        for c in range(NUM_CARDS):
            cards[i, C_LOC, c] = IN_BOX if boxes[g, c] else IN_DECK
            cards[i, C_KNOWN, c] = -1
            cards[i, C_RETURNED, c] = returned[g, c]
            deck[i, c] = decks[g, c]
        ints[i, I_DECK] = deck_sizes[g]
        for t in range(TRIANGLE_SIZE):  # setup 3: six officials on each starting bill
            _place(st, i, TRIANGLE_CELLS[t], triangles[g, t], OFFICIALS_PER_START_BILL, 0)
        _department_values(st, i)
        for p in range(n):  # setup 5-10
            for _ in range(START_HAND):
                cards[i, C_LOC, _pop(st, i)] = p
            seat[i, SE_HAND, p] = START_HAND
            seat[i, SE_RESERVE, p] = CRONIES_EACH
            seat[i, SE_LAST_VOTE, p] = -1
            for q in range(n):
                held[i, p, q] = 1 if p != q else 0
        for _ in range(n):
            cards[i, C_LOC, _pop(st, i)] = IN_DISCARD
        ints[i, I_PRESIDENT] = presidents[g]
        _start_round(st, i)
        _write_decision(st, i, offers_on, obs, mask, current)


@nb.njit(cache=True)
def _decide_kernel(st, rows, offers_on, obs, mask, current):  # pragma: no cover - compiled
    for g in range(rows.shape[0]):
        _write_decision(st, rows[g], offers_on, obs, mask, current)


# --- setup draws (Python, with the game's own Generator) ------------------------------------------------
def pcg64_words(rng: np.random.Generator) -> np.ndarray:
    """A PCG64 Generator's state as the kernels keep it: 6 uint64 words."""
    state = rng.bit_generator.state
    if state["bit_generator"] != "PCG64":
        raise ValueError(
            f"the batched engine carries numpy's PCG64 on; this game's generator is "
            f"{state['bit_generator']}: build the AEC state with np.random.default_rng(seed)"
        )
    s, inc = state["state"]["state"], state["state"]["inc"]
    low = (1 << 64) - 1
    return np.array([s >> 64, s & low, inc >> 64, inc & low, state["has_uint32"], state["uinteger"]],
                    np.uint64)


def deal_setup(seed: int, n: int) -> tuple[list[int], list[int], list[int], list[int], int, np.ndarray]:
    """The setup draws of `CorruptiaRules.new_game(np.random.default_rng(seed))` at n players, in the
    same order: (pile, box, triangle, cards shuffled back, President, the Generator's state after)."""
    rng = np.random.default_rng(seed)
    cards = rng.permutation(NUM_CARDS).tolist()
    removed = CARDS_REMOVED[n]
    box, deck = cards[:removed], cards[removed:]
    triangle: list[int] = []
    replaced: list[int] = []
    while len(triangle) < TRIANGLE_SIZE:  # setup 2: different departments and incomes
        c = deck.pop()
        if all(DEPT[c] != DEPT[t] and INCOME[c] != INCOME[t] for t in triangle):
            triangle.append(c)
        else:
            replaced.append(c)
    if replaced:
        deck.extend(replaced)
        rng.shuffle(deck)
    president = int(rng.integers(n))  # setup 10 (the hands and the discard zone take no draw)
    return deck, box, triangle, replaced, president, pcg64_words(rng)


class CorruptiaEngine(VectorEngine):
    """B games of Corruptia stepped by numba kernels; the AEC env's observations, masks and outcomes."""

    rules_class = CorruptiaRules

    def __init__(
        self,
        num_envs: int,
        num_players: int | Sequence[int] | None = None,
        seed: int | None = None,
        **config: Any,
    ) -> None:
        super().__init__(num_envs, num_players=num_players, seed=seed, **config)
        B = self.num_envs
        self._offers_on = bool(self.config["vote_offers"])
        cell_slot = np.full((B, NUM_CELLS), -1, np.int8)
        self._state = (
            np.zeros((B, NUM_INTS), np.int64),  # 0 ints
            np.zeros((B, NUM_SEAT, P), np.int64),  # 1 seat
            np.zeros((B, P, P), np.int8),  # 2 held: [p, q] p holds the card of q's party
            np.full((B, P, P), NO_OFFER, np.int8),  # 3 offer
            np.zeros((B, 3, NUM_CARDS), np.int8),  # 4 cards: location, seen taken by, shuffled back
            np.zeros((B, NUM_CARDS), np.int16),  # 5 the pile, its top last
            np.zeros((B, 4, MAX_SLOTS), np.int64),  # 6 table
            cell_slot,  # 7 board cell -> slot of its bill, -1 empty
            np.zeros((B, MAX_SLOTS, SLOT_FEATURES), np.float32),  # 8 the bill slots as observed
            np.zeros((B, MAX_CANDIDATES, 4), np.int64),  # 9 candidate cells, officials by income
            np.zeros((B, 6), np.uint64),  # 10 PCG64 state
            np.zeros(1, np.int8),  # 11 the mask argument of a question that marks nothing
        )

    def _start(self, games: np.ndarray) -> None:
        games = np.asarray(games, np.int64)
        counts = self._deal_counts(games)
        seeds = self._deal_seeds(games)
        G = len(games)
        decks = np.zeros((G, NUM_CARDS), np.int16)
        sizes = np.zeros(G, np.int64)
        boxes = np.zeros((G, NUM_CARDS), np.int8)
        returned = np.zeros((G, NUM_CARDS), np.int8)
        triangles = np.zeros((G, TRIANGLE_SIZE), np.int64)
        presidents = np.zeros(G, np.int64)
        rngs = np.zeros((G, 6), np.uint64)
        for g in range(G):
            deck, box, triangle, replaced, president, words = deal_setup(int(seeds[g]), int(counts[g]))
            decks[g, :len(deck)] = deck
            sizes[g] = len(deck)
            boxes[g, box] = 1
            returned[g, replaced] = 1
            triangles[g] = triangle
            presidents[g] = president
            rngs[g] = words
        b = self._batch
        _start_kernel(self._state, games, counts, decks, sizes, boxes, returned, triangles, presidents, rngs,
                      self._offers_on, b.observation, b.action_mask, b.current_player)

    def _advance(self, actions: np.ndarray) -> None:
        b = self._batch
        _step_kernel(self._state, actions, self._offers_on, self.reward_code, b.observation, b.action_mask,
                     b.current_player, b.rewards, b.terminated, b.scores, b.ranks)
        ended = np.flatnonzero(b.terminated)
        if ended.size:
            self._start(ended)

    def load(self, row: int, state: CorruptiaState) -> None:
        """Copy an AEC game state (with its Generator's state) into `row`, which then continues that game
        and shows its current decision; the row's outcome figures are cleared."""
        if not self._started:
            self.reset()
        s = state
        if s.phase == OVER:
            raise ValueError("load() takes a game in play: this state is over (nothing left to decide)")
        if s.n not in self.rules:
            raise ValueError(f"a {s.n}-player state: this engine plays {list(self.player_counts)}; make it "
                             "with num_players=[...] listing every count it will load")
        ints, seat, held, offer, cards, deck, table, cell_slot, slots, cand, rng, _ = self._state
        i = int(row)
        for k in range(ints[i, I_PLACED]):
            cell_slot[i, table[i, T_CELL, k]] = -1
        ints[i] = 0
        ints[i, I_SHOWN] = MAX_SLOTS * SLOT_FEATURES  # the last game's slots may show in the row
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
