"""Corruption's batched engine: `CorruptionRules` again, as numba kernels over B games at once.

Chance: Corruption draws only at setup (the contract deck's permutation and round 1's first player,
in `CorruptionRules.new_game`). `_start` makes those two draws in Python from
`np.random.default_rng(engine.game_seeds[i])`, in `new_game`'s order, and hands them to the kernel, so
game i of the engine is exactly the AEC game `rules.new_game(np.random.default_rng(engine.game_seeds[i]))`
and the differential test (tests/vector/test_corruption.py) plays both with the same actions.

The state of each game is a set of small integer arrays (the fields of `CorruptionState`, one row per
game); every step, the acting seat's observation is written once into its row of `batch.observation`
(the row zeroed, then its ~120 nonzero entries written from the state, as `Observer.full` reads it),
and its mask into `batch.action_mask`.
"""
from __future__ import annotations

from typing import Any, Sequence

import numba as nb
import numpy as np

from ..corruption import CorruptionRules
from ..corruption.codec import ASSIGN, DECLINE, KILL, KILL_SLOTS, PLAY, REMOVE, SWISS
from ..corruption.observer import build_layout
from ..corruption.state import (
    ASSIGNED,
    AWARDED,
    CANCELLED,
    CONTRACT,
    CORRUPTION,
    DECK,
    HAND,
    HIT_STEP,
    LOST,
    NO_AWARD,
    OVER,
    REPORTER_STEP,
    SWISS_STEP,
    TABLE,
    USED,
    WON,
    CorruptionState,
)
from ..corruption.state import SWISS as ON_SWISS
from ..corruption.tables import (
    CARD_KIND,
    CARD_VALUE,
    CARDS_PER_ROUND,
    CONTRACT_VALUE,
    CONTRACTS_PER_BODY,
    HAND_SIZE,
    HIT_MAN,
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
from .engine import VectorEngine
from .outcome import write_outcome

# --- tables as constant arrays (numba freezes module-level arrays into the kernels) ----------------
KIND = CARD_KIND.astype(np.int64)
VALUE = CARD_VALUE.astype(np.int64)
WEIGHT = np.where(CARD_KIND == REPORTER, 0.5, 1.0).astype(np.float32)  # observer.CARD_WEIGHT
FIRST_CARD = np.array([cards[0] for cards in KIND_CARDS], np.int64)  # kind -> its card played first
GONE_COLUMN = np.array([0, 0, 0, 0, 0, 0, 0, 1, 1, 2], np.int64)  # observer.CHAR_COLUMN
WHERE_BASE = np.array([0, 1, 4, 5], np.int64)  # observer.WHERE_BASE: deck, table + body, won, lost
CONTRACT_SHOWN = (CONTRACT_VALUE / MAX_CONTRACT_VALUE).astype(np.float32)  # the contract_value piece
DA_CARD, REPORTER_1, REPORTER_2, HIT_MAN_CARD = 6, 7, 8, 9
C, P7, K, NB = NUM_CONTRACTS, MAX_PLAYERS, NUM_KINDS, NUM_BRIBES

# observation offsets (the layout is the same at every player count)
_LAYOUT = build_layout()
O_HAND, O_SEATS, O_ROUND, O_PHASE = (_LAYOUT[k].start for k in ("my_hand", "seats", "round", "phase"))
O_LEADER, O_TO_ACT, O_PLACED, O_ON = (_LAYOUT[k].start for k in ("leader", "to_act", "placed", "on_contracts"))
O_SCORE, O_WON, O_GONE = (_LAYOUT[k].start for k in ("score", "contracts_won", "chars_gone"))
O_WHERE, O_VALUE, O_WINNER, O_OUTCOME, O_NEW = (
    _LAYOUT[k].start for k in ("contract_where", "contract_value", "contract_winner", "contract_outcome",
                               "contract_new"))
O_CARDS, O_FACEDOWN, O_ASSIGNED, O_SWISS, O_SWISS_FD = (
    _LAYOUT[k].start for k in ("cards", "facedown", "assigned", "swiss", "swiss_facedown"))
O_DKIND, O_DCONTRACT, O_DBODY = (_LAYOUT[k].start for k in ("decision_kind", "decision_contract", "decision_body"))

# columns of the per-game scalars array `sc`
ROUND, PHASE, TO_ACT, LEADER, TURN, QPOS, QLEN, DECK_LEN = range(8)
NUM_SCALARS = 8
# a queue / play-order entry packs (seat, card id) as seat * 10 + card
MAX_PLAYS = CARDS_PER_ROUND * MAX_PLAYERS


# --- small pure helpers -------------------------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def _rel(q, p, n):  # pragma: no cover - compiled
    """Seat q as seen from seat p."""
    r = q - p
    return r + n if r < 0 else r


# --- observation and mask -----------------------------------------------------------------------------
@nb.njit(cache=True)
def write_observation(row, i, p, n, st, touched):  # pragma: no cover - compiled
    """Seat p's observation of game i into `row` (zeroed first): `Observer.full` from the state."""
    sc, loc, where, public, placed, on_c, won_value, won_count, cloc, cbody, cowner, outcome, dealt, \
        deck, order, queue = st
    row[:] = 0
    rnd, phase = sc[i, ROUND], sc[i, PHASE]
    for k in range(HAND_SIZE):
        if loc[i, p, k] == HAND:
            row[O_HAND + k] = 1.0
    if phase != OVER:
        row[O_ROUND + rnd] = 1.0
        row[O_PHASE + phase] = 1.0
        row[O_TO_ACT + _rel(sc[i, TO_ACT], p, n)] = 1.0
    row[O_LEADER + _rel(sc[i, LEADER], p, n)] = 1.0
    touched_count = 0  # face-down counters hold counts until the end, then k / 6 as the rules write it
    for q in range(n):
        r = _rel(q, p, n)
        row[O_SEATS + q] = 1.0
        row[O_PLACED + r] = placed[i, q] / CARDS_PER_ROUND
        row[O_ON + r] = on_c[i, q] / CARDS_PER_ROUND
        row[O_SCORE + r] = won_value[i, q] * (1 / TOTAL_CONTRACT_VALUE)
        row[O_WON + r] = won_count[i, q] * (1 / C)
        for k in range(HAND_SIZE):
            place = loc[i, q, k]
            if place == HAND:
                continue
            w = where[i, q, k]
            shown = public[i, q, k] != 0
            if k >= NB and shown:
                row[O_GONE + r * 3 + GONE_COLUMN[k]] += WEIGHT[k]
            if place == CONTRACT:
                if shown or q == p:
                    row[O_CARDS + (w * P7 + r) * K + KIND[k]] += WEIGHT[k]
                if not shown:
                    j = O_FACEDOWN + w * P7 + r
                    if row[j] == 0:
                        touched[touched_count] = j
                        touched_count += 1
                    row[j] += 1.0
            elif place == ON_SWISS:
                if shown or q == p:
                    row[O_SWISS + (w * P7 + r) * NB + k] = 1.0
                if not shown:
                    j = O_SWISS_FD + w * P7 + r
                    if row[j] == 0:
                        touched[touched_count] = j
                        touched_count += 1
                    row[j] += 1.0
            elif place == ASSIGNED:
                row[O_ASSIGNED + (w * P7 + r) * NB + k] = 1.0
    for t in range(touched_count):
        row[touched[t]] = np.float64(row[touched[t]]) / CARDS_PER_ROUND
    for c in range(C):
        place = cloc[i, c]
        code = WHERE_BASE[place] + (cbody[i, c] if place == TABLE else 0)
        row[O_WHERE + c * 6 + code] = 1.0
        row[O_VALUE + c] = CONTRACT_SHOWN[c]
        if cowner[i, c] >= 0:
            row[O_WINNER + c * P7 + _rel(cowner[i, c], p, n)] = 1.0
        if outcome[i, c] != 0:
            row[O_OUTCOME + c * 3 + outcome[i, c] - 1] = 1.0
        if dealt[i, c] == rnd and place == TABLE:
            row[O_NEW + c] = 1.0
    if 0 < phase < OVER and sc[i, QPOS] < sc[i, QLEN]:
        e = queue[i, sc[i, QPOS]]
        q, card = e // 10, e % 10
        row[O_DKIND + KIND[card]] = 1.0
        if phase == SWISS_STEP:
            row[O_DBODY + where[i, q, card]] = 1.0
        else:
            row[O_DCONTRACT + where[i, q, card]] = 1.0


@nb.njit(cache=True)
def _holds_kind(loc, i, p, kind):  # pragma: no cover - compiled
    """Whether seat p still holds a card of `kind`."""
    if kind == REPORTER:
        return loc[i, p, REPORTER_1] == HAND or loc[i, p, REPORTER_2] == HAND
    return loc[i, p, FIRST_CARD[kind]] == HAND


@nb.njit(cache=True)
def write_mask(m, i, n, st, may_decline):  # pragma: no cover - compiled
    """The legal actions of game i's seat on turn into `m` (zeroed first): `rules.legal_mask`."""
    sc, loc, where, public, placed, on_c, won_value, won_count, cloc, cbody, cowner, outcome, dealt, \
        deck, order, queue = st
    m[:] = 0
    phase = sc[i, PHASE]
    if phase == CORRUPTION:
        p = sc[i, TO_ACT]
        for kind in range(K):
            if _holds_kind(loc, i, p, kind):
                for c in range(C):
                    if cloc[i, c] == TABLE:
                        m[PLAY + kind * C + c] = 1
        for b in range(NB):
            if loc[i, p, b] == HAND:
                for g in range(NUM_BODIES):
                    m[SWISS + b * NUM_BODIES + g] = 1
        return
    e = queue[i, sc[i, QPOS]]
    q, card = e // 10, e % 10
    if phase == SWISS_STEP:
        body = where[i, q, card]
        for c in range(C):
            if cloc[i, c] == TABLE and cbody[i, c] == body:
                m[ASSIGN + c] = 1
    elif phase == HIT_STEP:
        c = where[i, q, card]
        for o in range(n):
            base = KILL + _rel(o, q, n) * KILL_SLOTS
            if loc[i, o, DA_CARD] == CONTRACT and where[i, o, DA_CARD] == c:
                m[base] = 1
            reps = _on(loc, where, i, o, REPORTER_1, c) + _on(loc, where, i, o, REPORTER_2, c)
            for slot in range(reps):
                m[base + 1 + slot] = 1
            if o != q and _on(loc, where, i, o, HIT_MAN_CARD, c):
                m[base + 3] = 1
    else:
        c = where[i, q, card]
        for o in range(n):
            for b in range(NB):
                if loc[i, o, b] == CONTRACT and where[i, o, b] == c:
                    m[REMOVE + _rel(o, q, n) * NB + b] = 1
        if may_decline:
            m[DECLINE] = 1


@nb.njit(cache=True, inline="always")
def _on(loc, where, i, q, card, c):  # pragma: no cover - compiled
    """1 if q's `card` lies vertically on contract c."""
    return 1 if loc[i, q, card] == CONTRACT and where[i, q, card] == c else 0


@nb.njit(cache=True)
def publish(i, n, st, may_decline, obs, mask, current_player, touched):  # pragma: no cover - compiled
    """Game i's next decision into the batch: seat on turn, its mask and its observation."""
    p = st[0][i, TO_ACT]
    current_player[i] = p
    write_mask(mask[i], i, n, st, may_decline)
    write_observation(obs[i], i, p, n, st, touched)


# --- rounds ---------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _start_round(i, n, st):  # pragma: no cover - compiled
    """Phase I: six contracts off the deck's top, two under each body (`_start_round`)."""
    sc, loc, where, public, placed, on_c, won_value, won_count, cloc, cbody, cowner, outcome, dealt, \
        deck, order, queue = st
    for body in range(NUM_BODIES):
        for _ in range(CONTRACTS_PER_BODY):
            sc[i, DECK_LEN] -= 1
            c = deck[i, sc[i, DECK_LEN]]
            cloc[i, c] = TABLE
            cbody[i, c] = body
            dealt[i, c] = sc[i, ROUND]
    sc[i, PHASE] = CORRUPTION
    sc[i, TURN] = 0
    for q in range(n):
        placed[i, q] = 0
        on_c[i, q] = 0
    sc[i, TO_ACT] = sc[i, LEADER]


@nb.njit(cache=True)
def new_game(i, n, perm, leader, st):  # pragma: no cover - compiled
    """Game i as `CorruptionRules.new_game` deals it from the deck permutation and first player drawn."""
    sc, loc, where, public, placed, on_c, won_value, won_count, cloc, cbody, cowner, outcome, dealt, \
        deck, order, queue = st
    sc[i, :] = 0
    loc[i] = HAND
    where[i] = -1
    public[i] = 0
    won_value[i] = 0
    won_count[i] = 0
    cloc[i] = DECK
    cbody[i] = -1
    cowner[i] = -1
    outcome[i] = 0
    dealt[i] = -1
    for c in range(C):
        deck[i, c] = perm[c]
    sc[i, DECK_LEN] = C
    sc[i, LEADER] = leader
    _start_round(i, n, st)


@nb.njit(cache=True)
def _next_leader(i, n, st):  # pragma: no cover - compiled
    """Most value, then most contracts, then the earliest seat after the last first player."""
    sc, won_value, won_count = st[0], st[6], st[7]
    best = -1
    for p in range(n):
        if best < 0 or won_value[i, p] > won_value[i, best] or (
                won_value[i, p] == won_value[i, best] and won_count[i, p] > won_count[i, best]):
            best = p
        elif won_value[i, p] == won_value[i, best] and won_count[i, p] == won_count[i, best]:
            if _rel(p, sc[i, LEADER] + 1, n) < _rel(best, sc[i, LEADER] + 1, n):
                best = p
    return best


@nb.njit(cache=True)
def _end_round(i, n, st):  # pragma: no cover - compiled
    """Bribes come back, characters never do; then the next round or the game's end."""
    sc, loc, where, public, placed, on_c, won_value, won_count, cloc, cbody, cowner, outcome, dealt, \
        deck, order, queue = st
    for q in range(n):
        for k in range(HAND_SIZE):
            if loc[i, q, k] != HAND:
                loc[i, q, k] = HAND if k < NB else USED
            if loc[i, q, k] == HAND:
                public[i, q, k] = 0
            where[i, q, k] = -1
    sc[i, QPOS] = 0
    sc[i, QLEN] = 0
    sc[i, ROUND] += 1
    if sc[i, ROUND] == NUM_ROUNDS:
        for c in range(C):
            if cloc[i, c] == TABLE:
                cloc[i, c] = LOST
        sc[i, PHASE] = OVER
        sc[i, TO_ACT] = -1
        return
    sc[i, LEADER] = _next_leader(i, n, st)
    _start_round(i, n, st)


# --- Phase II ---------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _place(i, n, a, st, may_decline):  # pragma: no cover - compiled
    """A card on a contract (face up for the round's first r + 1 there) or a bribe on a Swiss account."""
    sc, loc, where, public, placed, on_c, won_value, won_count, cloc, cbody, cowner, outcome, dealt, \
        deck, order, queue = st
    p = sc[i, TO_ACT]
    if a < SWISS:
        kind, place = (a - PLAY) // C, (a - PLAY) % C
        card = FIRST_CARD[kind]
        if kind == REPORTER and loc[i, p, REPORTER_1] != HAND:  # Reporters lowest id first
            card = REPORTER_2
        loc[i, p, card] = CONTRACT
        on_c[i, p] += 1
        if on_c[i, p] <= sc[i, ROUND] + 1:
            public[i, p, card] = 1
    else:
        card, place = (a - SWISS) // NUM_BODIES, (a - SWISS) % NUM_BODIES
        loc[i, p, card] = ON_SWISS
    where[i, p, card] = place
    order[i, sc[i, TURN]] = p * 10 + card
    placed[i, p] += 1
    sc[i, TURN] += 1
    if sc[i, TURN] == CARDS_PER_ROUND * n:
        _reveal(i, n, st)
    else:
        sc[i, TO_ACT] = p + 1 if p + 1 < n else 0


@nb.njit(cache=True)
def _reveal(i, n, st):  # pragma: no cover - compiled
    """Phase III: every card on the table turns face up; last round's outcomes are cleared; step 1."""
    sc, loc, where, public, placed, on_c, won_value, won_count, cloc, cbody, cowner, outcome, dealt, \
        deck, order, queue = st
    for q in range(n):
        for k in range(HAND_SIZE):
            if loc[i, q, k] == CONTRACT or loc[i, q, k] == ON_SWISS:
                public[i, q, k] = 1
    for c in range(C):
        if cloc[i, c] == TABLE:
            outcome[i, c] = 0
    sc[i, PHASE] = SWISS_STEP
    _queue_in_play_order(i, st, ON_SWISS, -1)
    _advance(i, n, st)


@nb.njit(cache=True)
def _queue_in_play_order(i, st, place, kind):  # pragma: no cover - compiled
    """The step's queue: the cards at `place` (of `kind`, unless -1) in the round's play order."""
    sc, loc, order, queue = st[0], st[1], st[14], st[15]
    length = 0
    for t in range(sc[i, TURN]):
        e = order[i, t]
        q, card = e // 10, e % 10
        if loc[i, q, card] == place and (kind < 0 or KIND[card] == kind):
            queue[i, length] = e
            length += 1
    sc[i, QLEN] = length
    sc[i, QPOS] = 0


# --- Phase III ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _discard(i, q, card, st):  # pragma: no cover - compiled
    st[1][i, q, card] = USED
    st[2][i, q, card] = -1


@nb.njit(cache=True)
def _has_hit_target(i, n, q, card, st):  # pragma: no cover - compiled
    loc, where = st[1], st[2]
    c = where[i, q, card]
    for o in range(n):
        if _on(loc, where, i, o, DA_CARD, c) or _on(loc, where, i, o, REPORTER_1, c) \
                or _on(loc, where, i, o, REPORTER_2, c) or (o != q and _on(loc, where, i, o, HIT_MAN_CARD, c)):
            return True
    return False


@nb.njit(cache=True)
def _has_vertical_bribe(i, n, c, st):  # pragma: no cover - compiled
    loc, where = st[1], st[2]
    for o in range(n):
        for b in range(NB):
            if _on(loc, where, i, o, b, c):
                return True
    return False


@nb.njit(cache=True)
def _advance(i, n, st):  # pragma: no cover - compiled
    """Resolve Phase III step after step until a decision is needed or the round ends (`_advance`)."""
    sc, loc, where = st[0], st[1], st[2]
    queue = st[15]
    if sc[i, PHASE] == SWISS_STEP:
        if sc[i, QPOS] < sc[i, QLEN]:
            sc[i, TO_ACT] = queue[i, sc[i, QPOS]] // 10
            return
        sc[i, PHASE] = HIT_STEP
        _queue_in_play_order(i, st, CONTRACT, HIT_MAN)
    if sc[i, PHASE] == HIT_STEP:
        while sc[i, QPOS] < sc[i, QLEN]:
            e = queue[i, sc[i, QPOS]]
            q, card = e // 10, e % 10
            if loc[i, q, card] == CONTRACT:
                if _has_hit_target(i, n, q, card, st):
                    sc[i, TO_ACT] = q
                    return
                _discard(i, q, card, st)  # no target: removed without effect
            sc[i, QPOS] += 1
        _cancel_by_district_attorneys(i, n, st)
        sc[i, PHASE] = REPORTER_STEP
        _queue_in_play_order(i, st, CONTRACT, REPORTER)
    while sc[i, QPOS] < sc[i, QLEN]:
        e = queue[i, sc[i, QPOS]]
        q, card = e // 10, e % 10
        if loc[i, q, card] == CONTRACT:
            if _has_vertical_bribe(i, n, where[i, q, card], st):
                sc[i, TO_ACT] = q
                return
            _discard(i, q, card, st)  # no bribe to remove
        sc[i, QPOS] += 1
    _award(i, n, st)
    _end_round(i, n, st)


@nb.njit(cache=True)
def _cancel_by_district_attorneys(i, n, st):  # pragma: no cover - compiled
    """Step 3: a contract with a surviving DA is cancelled; its bribes go home, characters out."""
    loc, where, outcome = st[1], st[2], st[11]
    for c in range(C):
        cancelled = False
        for q in range(n):
            if _on(loc, where, i, q, DA_CARD, c):
                cancelled = True
        if not cancelled:
            continue
        for q in range(n):
            for k in range(HAND_SIZE):
                if where[i, q, k] == c and (loc[i, q, k] == CONTRACT or loc[i, q, k] == ASSIGNED):
                    loc[i, q, k] = HAND if k < NB else USED
                    where[i, q, k] = -1
        outcome[i, c] = CANCELLED


@nb.njit(cache=True)
def _award(i, n, st):  # pragma: no cover - compiled
    """Step 5: the sole highest total (vertical x2, assigned Swiss x1, half-$1,000 units) wins."""
    sc, loc, where, public, placed, on_c, won_value, won_count, cloc, cbody, cowner, outcome, dealt, \
        deck, order, queue = st
    for c in range(C):
        if cloc[i, c] != TABLE or outcome[i, c] == CANCELLED:
            continue
        best, winner, level = 0, -1, 0
        for q in range(n):
            total = 0
            for b in range(NB):
                if where[i, q, b] == c:
                    if loc[i, q, b] == CONTRACT:
                        total += 2 * VALUE[b]
                    elif loc[i, q, b] == ASSIGNED:
                        total += VALUE[b]
            if total > best:
                best, winner, level = total, q, 1
            elif total == best:
                level += 1
        if best > 0 and level == 1:
            cloc[i, c] = WON
            cowner[i, c] = winner
            won_value[i, winner] += CONTRACT_VALUE[c]
            won_count[i, winner] += 1
            outcome[i, c] = AWARDED
        else:
            outcome[i, c] = NO_AWARD


@nb.njit(cache=True)
def _play(i, n, a, st, may_decline):  # pragma: no cover - compiled
    """Apply legal action `a` in game i."""
    sc, loc, where = st[0], st[1], st[2]
    queue = st[15]
    phase = sc[i, PHASE]
    if phase == CORRUPTION:
        _place(i, n, a, st, may_decline)
        return
    e = queue[i, sc[i, QPOS]]
    q, card = e // 10, e % 10
    if phase == SWISS_STEP:  # the Swiss bribe goes to a contract of its body
        loc[i, q, card] = ASSIGNED
        where[i, q, card] = a - ASSIGN
    elif phase == HIT_STEP:  # the Hit Man kills (seat, slot) and is discarded with it
        rel, slot = (a - KILL) // KILL_SLOTS, (a - KILL) % KILL_SLOTS
        o = q + rel if q + rel < n else q + rel - n
        c = where[i, q, card]
        if slot == 0:
            victim = DA_CARD
        elif slot == 3:
            victim = HIT_MAN_CARD
        else:
            victim = _reporter_in_slot(i, o, c, slot, st)
        _discard(i, o, victim, st)
        _discard(i, q, card, st)
    else:  # the Reporter removes a vertical bribe, or nothing; then leaves
        if a != DECLINE:
            rel, b = (a - REMOVE) // NB, (a - REMOVE) % NB
            o = q + rel if q + rel < n else q + rel - n
            loc[i, o, b] = HAND
            where[i, o, b] = -1
        _discard(i, q, card, st)
    sc[i, QPOS] += 1
    _advance(i, n, st)


@nb.njit(cache=True)
def _reporter_in_slot(i, o, c, slot, st):  # pragma: no cover - compiled
    """Seat o's Reporter on contract c in kill slot 1 (earlier played) or 2 (later)."""
    loc, where, order, sc = st[1], st[2], st[14], st[0]
    seen = 0
    for t in range(sc[i, TURN]):
        e = order[i, t]
        if e // 10 == o and KIND[e % 10] == REPORTER and _on(loc, where, i, o, e % 10, c):
            seen += 1
            if seen == slot:
                return e % 10
    return -1


# --- the batch kernels ----------------------------------------------------------------------------------
@nb.njit(cache=True)
def start_kernel(rows, perms, leaders, num_players, st, may_decline, obs, mask, current_player,
                 touched):  # pragma: no cover - compiled
    """New games in `rows` from their setup draws, and their first decision into the batch."""
    for j in range(rows.shape[0]):
        i = rows[j]
        n = num_players[i]
        new_game(i, n, perms[j], leaders[j], st)
        publish(i, n, st, may_decline, obs, mask, current_player, touched)


@nb.njit(cache=True)
def step_kernel(actions, num_players, st, may_decline, mode, obs, mask, current_player, rewards,
                terminated, scores, ranks, touched):  # pragma: no cover - compiled
    """One action in every game; an ended game gets its outcome (its new game is dealt in Python)."""
    sc, won_value = st[0], st[6]
    ended = 0
    for i in range(actions.shape[0]):
        n = num_players[i]
        rewards[i, :] = 0
        scores[i, :] = 0
        ranks[i, :] = 0
        _play(i, n, actions[i], st, may_decline)
        if sc[i, PHASE] == OVER:
            terminated[i] = True
            ended += 1
            for q in range(n):
                scores[i, q] = won_value[i, q]
            write_outcome(won_value[i], won_value[i], n, mode, rewards[i], ranks[i])
        else:
            terminated[i] = False
            publish(i, n, st, may_decline, obs, mask, current_player, touched)
    return ended


@nb.njit(cache=True)
def refresh_kernel(i, num_players, st, may_decline, obs, mask, current_player, touched):  # pragma: no cover
    """Game i's decision into the batch again (after `load`)."""
    publish(i, num_players[i], st, may_decline, obs, mask, current_player, touched)


class CorruptionEngine(VectorEngine):
    """B games of Corruption stepped together; observations and masks are the AEC env's, bit for bit."""

    rules_class = CorruptionRules

    def __init__(self, num_envs: int, num_players: int | Sequence[int] | None = None,
                 seed: int | None = None, **config: Any) -> None:
        super().__init__(num_envs, num_players=num_players, seed=seed, **config)
        B, P = self.num_envs, self.max_players
        cards = (B, P, HAND_SIZE)
        # the fields of CorruptionState, one row per game, in the order the kernels unpack them
        self._state = (
            np.zeros((B, NUM_SCALARS), np.int64),  # sc: round, phase, to_act, leader, turn, qpos, qlen, deck
            np.zeros(cards, np.int8),  # loc
            np.full(cards, -1, np.int8),  # where
            np.zeros(cards, np.int8),  # public
            np.zeros((B, P), np.int64),  # placed
            np.zeros((B, P), np.int64),  # on_contracts
            np.zeros((B, P), np.int64),  # won_value
            np.zeros((B, P), np.int64),  # won_count
            np.zeros((B, C), np.int8),  # cloc
            np.full((B, C), -1, np.int8),  # cbody
            np.full((B, C), -1, np.int8),  # cowner
            np.zeros((B, C), np.int8),  # outcome
            np.full((B, C), -1, np.int8),  # dealt_round
            np.zeros((B, C), np.int8),  # deck (top = deck[DECK_LEN - 1])
            np.zeros((B, CARDS_PER_ROUND * P), np.int8),  # order: seat*10+card of each play this round
            np.zeros((B, CARDS_PER_ROUND * P), np.int8),  # queue of the Phase III step
        )
        self._may_decline = bool(self.config["reporter_may_decline"])
        self._touched = np.zeros(2 * (C + NUM_BODIES) * P, np.int64)  # scratch of write_observation

    # --- VectorEngine ------------------------------------------------------------------------------
    def _start(self, games: np.ndarray) -> None:
        counts = self._deal_counts(games)
        seeds = self._deal_seeds(games)
        perms = np.empty((len(games), C), np.int64)
        leaders = np.empty(len(games), np.int64)
        for j, (seed, n) in enumerate(zip(seeds.tolist(), counts.tolist())):
            # CorruptionRules.new_game's draws, in its order
            rng = np.random.default_rng(seed)
            perms[j] = rng.permutation(C)
            leaders[j] = rng.integers(n)
        b = self._batch
        start_kernel(np.asarray(games, np.int64), perms, leaders, b.num_players, self._state,
                     self._may_decline, b.observation, b.action_mask, b.current_player, self._touched)

    def _advance(self, actions: np.ndarray) -> None:
        b = self._batch
        ended = step_kernel(actions, b.num_players, self._state, self._may_decline, self.reward_code,
                            b.observation, b.action_mask, b.current_player, b.rewards, b.terminated,
                            b.scores, b.ranks, self._touched)
        if ended:
            self._start(np.flatnonzero(b.terminated))

    # --- positions from the AEC engine ----------------------------------------------------------------
    def load(self, row: int, state: CorruptionState) -> None:
        """Copy an AEC game state (from `CorruptionRules`, same config) into game `row`, and write its
        decision into the batch: the engine then plays on from that position. `game_seeds[row]`
        becomes -1 (the position came from no seed)."""
        n = int(state.n)
        if n > self.max_players:
            raise ValueError(f"a {n}-player state does not fit this engine (at most {self.max_players} "
                             f"players): make it with num_players including {n}")
        if state.phase == OVER:
            raise ValueError("the state's game is over: load a state with a decision to make")
        (sc, loc, where, public, placed, on_c, won_value, won_count, cloc, cbody, cowner, outcome, dealt,
         deck, order, queue) = self._state
        sc[row] = (state.round, state.phase, state.to_act, state.leader, state.turn, state.qpos,
                   len(state.queue), len(state.deck))
        for a, field in ((loc, state.loc), (where, state.where), (public, state.public),
                         (placed, state.placed), (on_c, state.on_contracts), (won_value, state.won_value),
                         (won_count, state.won_count)):
            a[row] = 0 if a is not where else -1
            a[row, :n] = field
        for a, field in ((cloc, state.cloc), (cbody, state.cbody), (cowner, state.cowner),
                         (outcome, state.outcome), (dealt, state.dealt_round)):
            a[row] = field
        deck[row, :len(state.deck)] = state.deck
        for q, card in zip(*np.nonzero(state.seq >= 0)):
            order[row, state.seq[q, card]] = q * 10 + card
        for t, (q, card) in enumerate(state.queue):
            queue[row, t] = q * 10 + card
        b = self._batch
        b.num_players[row] = n
        self.game_seeds[row] = -1
        refresh_kernel(int(row), b.num_players, self._state, self._may_decline, b.observation,
                       b.action_mask, b.current_player, self._touched)
