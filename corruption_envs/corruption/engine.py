"""Corruption's batched engine: `CorruptionRules` again, as numba kernels over B games at once.

Chance: Corruption draws only at setup (the contract deck's permutation and round 1's first player,
in `CorruptionRules.new_game`). The kernel makes those two draws, in `new_game`'s order, from its own
copy of `np.random.default_rng(engine.game_seeds[i])` (numpy_rng.py: the same numbers as numpy), so
game i of the engine is exactly the AEC game `rules.new_game(np.random.default_rng(engine.game_seeds[i]))`
and the differential test (tests/vector/test_corruption.py) plays both with the same actions.

The state of a game is one int16 row holding the fields of `CorruptionState` at fixed offsets (below),
then the list of the observation entries the row shows; every step, the acting seat's observation is
written once into its row of `batch.observation` (its head rewritten whole, past it the ~50 entries the
row's last observation listed cleared and this one's written, from the state as `Observer.full` reads
it), and its mask into `batch.action_mask`. `load(row, state)` copies an AEC state into a row;
`load_resampled(state, player, seeds)` fills rows with `player`'s determinizations of a state, each
drawn in a kernel as `resample_hidden` draws it from `default_rng(seed)` (a search's waves).

The kernels are compiled without numba's reference counting (`_nrt=False`, as Corruptia's): with it,
numba counts a reference up and down (two atomic instructions) on every array a compiled function
takes and every view it makes, a tenth of a decision's time even with few arrays passed. So they
allocate nothing: a deal seeds its generator in scratch words (`numpy_rng.seed_generator_in`).
"""
from __future__ import annotations

import numba as nb
import numpy as np

from ..core.errors import NotResetError
from ..vector.compiled import CompiledEngine, pick_legal
from ..vector.numpy_rng import GENERATOR_SIZE, SEED_SCRATCH, integers, permutation_into, seed_generator_in
from ..vector.outcome import write_outcome
from .codec import ASSIGN, DECLINE, KILL, KILL_SLOTS, PLAY, REMOVE, SWISS
from .env import CorruptionRules
from .observer import CARD_WEIGHT, build_layout
from .state import (
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
from .state import SWISS as ON_SWISS
from .tables import (
    CARD_KIND,
    CARD_VALUE,
    CARDS_PER_ROUND,
    CONTRACT_VALUE,
    CONTRACTS_PER_BODY,
    DA,
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

# --- tables as constant arrays (numba freezes module-level arrays into the kernels) ----------------
KIND = CARD_KIND.astype(np.int64)
VALUE = CARD_VALUE.astype(np.int64)
WEIGHT = CARD_WEIGHT  # a card's weight in the per-kind counts (Reporters 1/2)
FIRST_CARD = np.array([cards[0] for cards in KIND_CARDS], np.int64)  # kind -> its card played first
# contract_where's column by (cloc, cbody + 1): 0 deck, 1-3 on the table under body 0-2, 4 won, 5 lost
WHERE_CODE = np.array([[0, 0, 0, 0], [1, 1, 2, 3], [4, 4, 4, 4], [5, 5, 5, 5]], np.int64)
CONTRACT_SHOWN = (CONTRACT_VALUE / MAX_CONTRACT_VALUE).astype(np.float32)  # the contract_value piece
(DA_CARD,), (REPORTER_1, REPORTER_2), (HIT_MAN_CARD,) = KIND_CARDS[DA], KIND_CARDS[REPORTER], KIND_CARDS[HIT_MAN]
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
# the observation's head, my_hand to chars_gone (88 entries), is rewritten whole: cheaper than listing
# its ~50 writes for the next observation to clear
HEAD = _LAYOUT["chars_gone"].stop
assert [k for k in _LAYOUT if _LAYOUT[k].start < HEAD] == [
    "my_hand", "seats", "round", "phase", "leader", "to_act", "placed", "on_contracts", "score",
    "contracts_won", "chars_gone"], "the head is the pieces write_observation rewrites whole"

# --- one game's state: one int16 row of `state`, the fields of CorruptionState at these offsets --------
# scalars
ROUND, PHASE, TO_ACT, LEADER, TURN, QPOS, QLEN, DECK_LEN = range(8)
SEAT_CARDS = MAX_PLAYERS * HAND_SIZE  # per-card fields: index seat * 10 + card id
SEAT_OF, CARD_OF = np.divmod(np.arange(SEAT_CARDS), HAND_SIZE)
LOC = 8
WHERE = LOC + SEAT_CARDS
PUBLIC = WHERE + SEAT_CARDS
# per-seat fields
PLACED = PUBLIC + SEAT_CARDS
ON_CONTRACTS = PLACED + MAX_PLAYERS
WON_VALUE = ON_CONTRACTS + MAX_PLAYERS
WON_COUNT = WON_VALUE + MAX_PLAYERS
# per-contract fields
CLOC = WON_COUNT + MAX_PLAYERS
CBODY = CLOC + C
COWNER = CBODY + C
OUTCOME = COWNER + C
DEALT = OUTCOME + C
DECK_CARDS = DEALT + C  # the undealt contracts, top = DECK_CARDS + DECK_LEN - 1
# the round's plays (seat * 10 + card, in play order) and the Phase III step's queue
MAX_PLAYS = CARDS_PER_ROUND * MAX_PLAYERS
ORDER = DECK_CARDS + C
QUEUE = ORDER + MAX_PLAYS
GAME_SIZE = QUEUE + MAX_PLAYS  # a new game clears this much; the row's observation lists follow


@nb.njit(cache=True, _nrt=False, inline="always")
def _rel(q, p, n):  # pragma: no cover - compiled
    """Seat q as seen from seat p."""
    r = q - p
    return r + n if r < 0 else r


@nb.njit(cache=True, _nrt=False, inline="always")
def _on(s, q, card, c):  # pragma: no cover - compiled
    """Whether seat q's `card` lies vertically on contract c (`&`, not `and`: no branch)."""
    return (s[LOC + q * HAND_SIZE + card] == CONTRACT) & (s[WHERE + q * HAND_SIZE + card] == c)


@nb.njit(cache=True, _nrt=False, inline="always")
def _gone(s, q, card):  # pragma: no cover - compiled
    """Whether seat q's character `card` is out of hand and public (in chars_gone)."""
    return (s[LOC + q * HAND_SIZE + card] != HAND) & (s[PUBLIC + q * HAND_SIZE + card] != 0)


# --- observation and mask -----------------------------------------------------------------------------
# the most entries one observation lists past its head (so the next one clears just these): two per
# card played this round, a winner per contract, the decision's two
MAX_WRITTEN = 2 * MAX_PLAYS + C + 2
# the contracts' places, outcomes and newness are the same for every seat, and change only as a phase
# or round begins: a row keeps them, with their own list, while its game stays in the same round and
# phase (key 1 + round * PHASES + phase; 0 once the row holds another game)
PHASES = OVER + 1
CONTRACT_WRITTEN = 3 * C
# the row's lists, after its game: each "end" is the slot after its list's last (0 before any list)
LISTED_END = GAME_SIZE
LISTED = LISTED_END + 1  # the entries the observation wrote
CONTRACTS_KEY = LISTED + MAX_WRITTEN
CONTRACTS_END = CONTRACTS_KEY + 1
CONTRACTS_LISTED = CONTRACTS_END + 1  # the entries the contracts wrote
TOUCHED = CONTRACTS_LISTED + CONTRACT_WRITTEN  # scratch: the face-down counters one observation wrote
ROW_SIZE = TOUCHED + MAX_PLAYS


@nb.njit(cache=True, _nrt=False, inline="always")
def _put(row, s, at, j, value):  # pragma: no cover - compiled
    """row[j] = value, listed in slot `at` of the state row for the next observation to clear unless it
    is 0 (then row[j] was 0 already: an entry no observation listed is 0); the next free slot, without
    a branch."""
    row[j] = value
    s[at] = j
    return at + (value != 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def _add(row, s, at, j, value):  # pragma: no cover - compiled
    """row[j] += value (a count or a weight), listed when the entry turns nonzero."""
    fresh = (row[j] == 0) & (value != 0)
    row[j] += value
    s[at] = j
    return at + fresh


@nb.njit(cache=True, _nrt=False)
def write_observation(obs, i, s, p, n):  # pragma: no cover - compiled
    """Seat p's observation into row i of `obs`, read from the state row s as `Observer.full` reads it.

    The row is not zeroed whole (13.6 KB, 96% zeros): its head (HEAD entries) is rewritten whole, and
    past it the entries its last observation wrote (listed in s) are cleared and this one's ~50 written
    and listed. The contract_value piece is the same in every observation: `CorruptionEngine` writes it
    once; the contracts' other seat-free pieces are rewritten only when their round and phase changed
    (`_write_contracts`)."""
    row = obs[i]
    for t in range(LISTED, s[LISTED_END]):
        row[s[t]] = 0
    rnd, phase = s[ROUND], s[PHASE]
    row[:HEAD] = 0
    for k in range(HAND_SIZE):
        row[O_HAND + k] = s[LOC + p * HAND_SIZE + k] == HAND
    if phase != OVER:
        row[O_ROUND + rnd] = 1.0
        row[O_PHASE + phase] = 1.0
        row[O_TO_ACT + _rel(s[TO_ACT], p, n)] = 1.0
    row[O_LEADER + _rel(s[LEADER], p, n)] = 1.0
    for q in range(n):
        r = _rel(q, p, n)
        row[O_SEATS + q] = 1.0
        row[O_PLACED + r] = s[PLACED + q] / CARDS_PER_ROUND
        row[O_ON + r] = s[ON_CONTRACTS + q] / CARDS_PER_ROUND
        row[O_SCORE + r] = s[WON_VALUE + q] * (1 / TOTAL_CONTRACT_VALUE)
        row[O_WON + r] = s[WON_COUNT + q] * (1 / C)
        # characters out of hand that everyone has seen, stored (the Reporters' halves summed first)
        gone = O_GONE + r * 3
        row[gone] = _gone(s, q, DA_CARD)
        row[gone + 1] = 0.5 * _gone(s, q, REPORTER_1) + 0.5 * _gone(s, q, REPORTER_2)
        row[gone + 2] = _gone(s, q, HIT_MAN_CARD)
    count = LISTED
    # the cards on the table, read from the round's plays (a dozen at most, rather than every seat's ten
    # cards): the clearing above left every entry past the head at 0, so the entries two cards can
    # share (one seat's bribes, or Reporters, on a contract) and the face-down counters are summed into
    # in place. The counters hold counts until the end, then k / 6 as the rules write it (listed from
    # TOUCHED)
    touched_count = TOUCHED
    for t in range(s[TURN]):
        x = s[ORDER + t]
        place = s[LOC + x]
        if place != CONTRACT and place != ON_SWISS and place != ASSIGNED:  # discarded, or home again
            continue
        q, k = x // HAND_SIZE, x % HAND_SIZE
        r = _rel(q, p, n)
        w = s[WHERE + x]
        known = s[PUBLIC + x] != 0 or q == p
        if place == ASSIGNED:
            count = _put(row, s, count, O_ASSIGNED + (w * P7 + r) * NB + k, 1.0)
            continue
        if place == CONTRACT:
            count = _add(row, s, count, O_CARDS + (w * P7 + r) * K + KIND[k], WEIGHT[k] * known)
            j = O_FACEDOWN + w * P7 + r
        else:
            count = _put(row, s, count, O_SWISS + (w * P7 + r) * NB + k, known)
            j = O_SWISS_FD + w * P7 + r
        if s[PUBLIC + x] == 0:
            if row[j] == 0:
                s[count] = j
                s[touched_count] = j
                count += 1
                touched_count += 1
            row[j] += 1.0
    for t in range(TOUCHED, touched_count):
        row[s[t]] = np.float64(row[s[t]]) / CARDS_PER_ROUND
    for c in range(C):  # the winners, as this seat sees them
        owner = s[COWNER + c]
        if owner >= 0:
            count = _put(row, s, count, O_WINNER + c * P7 + _rel(owner, p, n), 1.0)
    if 0 < phase < OVER and s[QPOS] < s[QLEN]:
        e = s[QUEUE + s[QPOS]]
        count = _put(row, s, count, O_DKIND + KIND[e % HAND_SIZE], 1.0)
        count = _put(row, s, count, (O_DBODY if phase == SWISS_STEP else O_DCONTRACT) + s[WHERE + e],
                     1.0)
    s[LISTED_END] = count
    key = 1 + rnd * PHASES + phase
    if s[CONTRACTS_KEY] != key:
        s[CONTRACTS_KEY] = key
        _write_contracts(row, s)


@nb.njit(cache=True, _nrt=False)
def _write_contracts(row, s):  # pragma: no cover - compiled
    """The contracts' places, outcomes and newness (the same for every seat) into the observation row,
    clearing the entries of their last write first."""
    for t in range(CONTRACTS_LISTED, s[CONTRACTS_END]):
        row[s[t]] = 0
    rnd = s[ROUND]
    count = CONTRACTS_LISTED
    for c in range(C):
        place = s[CLOC + c]
        count = _put(row, s, count, O_WHERE + c * 6 + WHERE_CODE[place, s[CBODY + c] + 1], 1.0)
        outcome = s[OUTCOME + c]
        count = _put(row, s, count, O_OUTCOME + c * 3 + max(outcome - 1, 0), outcome != 0)
        count = _put(row, s, count, O_NEW + c, (s[DEALT + c] == rnd) & (place == TABLE))
    s[CONTRACTS_END] = count


@nb.njit(cache=True, _nrt=False)
def write_mask(mask, i, s, n, may_decline):  # pragma: no cover - compiled
    """The legal actions of the seat on turn into row i of `mask` (zeroed first), as `rules.legal_mask`."""
    m = mask[i]
    m[:] = 0
    phase = s[PHASE]
    if phase == CORRUPTION:
        hand = LOC + s[TO_ACT] * HAND_SIZE
        held = 0  # bit k: a card of kind k in hand
        for kind in range(K):
            if s[hand + FIRST_CARD[kind]] == HAND or (kind == REPORTER and s[hand + REPORTER_2] == HAND):
                held |= 1 << kind
        for c in range(C):
            if s[CLOC + c] == TABLE:
                for kind in range(K):
                    if held >> kind & 1:
                        m[PLAY + kind * C + c] = 1
        for b in range(NB):
            if held >> b & 1:
                for g in range(NUM_BODIES):
                    m[SWISS + b * NUM_BODIES + g] = 1
        return
    e = s[QUEUE + s[QPOS]]
    q = e // HAND_SIZE
    here = s[WHERE + e]
    if phase == SWISS_STEP:  # the contracts under the Swiss bribe's body
        for c in range(C):
            if s[CLOC + c] == TABLE and s[CBODY + c] == here:
                m[ASSIGN + c] = 1
    elif phase == HIT_STEP:  # every DA, Reporter and other Hit Man on the Hit Man's contract
        for o in range(n):
            base = KILL + _rel(o, q, n) * KILL_SLOTS
            if _on(s, o, DA_CARD, here):
                m[base] = 1
            reporters = _on(s, o, REPORTER_1, here) + _on(s, o, REPORTER_2, here)
            for slot in range(reporters):
                m[base + 1 + slot] = 1
            if o != q and _on(s, o, HIT_MAN_CARD, here):
                m[base + 3] = 1
    else:  # every vertical bribe on the Reporter's contract
        for o in range(n):
            for b in range(NB):
                if _on(s, o, b, here):
                    m[REMOVE + _rel(o, q, n) * NB + b] = 1
        if may_decline:
            m[DECLINE] = 1


@nb.njit(cache=True, _nrt=False)
def publish(i, s, n, may_decline, obs, mask, current_player):  # pragma: no cover - compiled
    """Game i's next decision into the batch: the seat on turn, its mask and its observation."""
    p = s[TO_ACT]
    current_player[i] = p
    write_mask(mask, i, s, n, may_decline)
    write_observation(obs, i, s, p, n)


# --- rounds ---------------------------------------------------------------------------------------------
@nb.njit(cache=True, _nrt=False)
def _start_round(s, n):  # pragma: no cover - compiled
    """Phase I: six contracts off the deck's top, two under each body; the leader plays first."""
    for body in range(NUM_BODIES):
        for _ in range(CONTRACTS_PER_BODY):
            s[DECK_LEN] -= 1
            c = s[DECK_CARDS + s[DECK_LEN]]
            s[CLOC + c] = TABLE
            s[CBODY + c] = body
            s[DEALT + c] = s[ROUND]
    s[PHASE] = CORRUPTION
    s[TURN] = 0
    s[PLACED:PLACED + MAX_PLAYERS] = 0
    s[ON_CONTRACTS:ON_CONTRACTS + MAX_PLAYERS] = 0
    s[TO_ACT] = s[LEADER]


@nb.njit(cache=True, _nrt=False)
def new_game(s, n, perm, leader):  # pragma: no cover - compiled
    """The game `CorruptionRules.new_game` deals from this deck permutation and first player."""
    s[:GAME_SIZE] = 0  # round 1, no plays, no outcome, no score
    s[LOC:LOC + SEAT_CARDS] = HAND
    s[WHERE:WHERE + SEAT_CARDS] = -1
    s[CLOC:CLOC + C] = DECK
    s[CBODY:CBODY + C] = -1
    s[COWNER:COWNER + C] = -1
    s[DEALT:DEALT + C] = -1
    for k in range(C):  # (a loop: a slice assignment from an array may allocate a copy)
        s[DECK_CARDS + k] = perm[k]
    s[DECK_LEN] = C
    s[LEADER] = leader
    _start_round(s, n)


@nb.njit(cache=True, _nrt=False)
def _next_leader(s, n):  # pragma: no cover - compiled
    """Most value, then most contracts, then the earliest seat after the last first player."""
    best = 0
    for p in range(1, n):
        dv = s[WON_VALUE + p] - s[WON_VALUE + best]
        dc = s[WON_COUNT + p] - s[WON_COUNT + best]
        if dv > 0 or (dv == 0 and (dc > 0 or (dc == 0 and
                                              _rel(p, s[LEADER] + 1, n) < _rel(best, s[LEADER] + 1, n)))):
            best = p
    return best


@nb.njit(cache=True, _nrt=False)
def _end_round(s, n):  # pragma: no cover - compiled
    """Bribes come back, characters never do; then the next round, or the game's end."""
    for x in range(n * HAND_SIZE):
        if s[LOC + x] != HAND:
            s[LOC + x] = HAND if x % HAND_SIZE < NB else USED
        if s[LOC + x] == HAND:
            s[PUBLIC + x] = 0
        s[WHERE + x] = -1
    s[QPOS] = 0
    s[QLEN] = 0
    s[ROUND] += 1
    if s[ROUND] == NUM_ROUNDS:
        for c in range(C):
            if s[CLOC + c] == TABLE:  # unawarded after round 4: lost
                s[CLOC + c] = LOST
        s[PHASE] = OVER
        s[TO_ACT] = -1
        return
    s[LEADER] = _next_leader(s, n)
    _start_round(s, n)


# --- Phase II ---------------------------------------------------------------------------------------------
@nb.njit(cache=True, _nrt=False)
def _place(s, n, a):  # pragma: no cover - compiled
    """A card on a contract (face up while within the round's count) or a bribe on a Swiss account; the
    next seat's turn, unless it was the round's last card (then `_play` reveals)."""
    p = s[TO_ACT]
    if a < SWISS:
        kind, place = (a - PLAY) // C, (a - PLAY) % C
        card = FIRST_CARD[kind]
        if kind == REPORTER and s[LOC + p * HAND_SIZE + card] != HAND:  # Reporters lowest id first
            card = REPORTER_2
        x = p * HAND_SIZE + card
        s[LOC + x] = CONTRACT
        s[ON_CONTRACTS + p] += 1
        if s[ON_CONTRACTS + p] <= s[ROUND] + 1:
            s[PUBLIC + x] = 1
    else:
        card, place = (a - SWISS) // NUM_BODIES, (a - SWISS) % NUM_BODIES
        x = p * HAND_SIZE + card
        s[LOC + x] = ON_SWISS
    s[WHERE + x] = place
    s[ORDER + s[TURN]] = x
    s[PLACED + p] += 1
    s[TURN] += 1
    if s[TURN] < CARDS_PER_ROUND * n:
        s[TO_ACT] = p + 1 if p + 1 < n else 0


@nb.njit(cache=True, _nrt=False)
def _reveal(s, n):  # pragma: no cover - compiled
    """Phase III: every card on the table turns face up; last round's outcomes are cleared; step 1."""
    for x in range(n * HAND_SIZE):
        if s[LOC + x] == CONTRACT or s[LOC + x] == ON_SWISS:
            s[PUBLIC + x] = 1
    for c in range(C):
        if s[CLOC + c] == TABLE:
            s[OUTCOME + c] = 0
    s[PHASE] = SWISS_STEP
    _queue_in_play_order(s, ON_SWISS, -1)
    _advance(s, n)


@nb.njit(cache=True, _nrt=False)
def _queue_in_play_order(s, place, kind):  # pragma: no cover - compiled
    """The step's queue: the cards at `place` (of `kind`, unless -1) in the round's play order."""
    length = 0
    for t in range(s[TURN]):
        x = s[ORDER + t]
        if s[LOC + x] == place and (kind < 0 or KIND[x % HAND_SIZE] == kind):
            s[QUEUE + length] = x
            length += 1
    s[QLEN] = length
    s[QPOS] = 0


# --- Phase III ------------------------------------------------------------------------------------------
@nb.njit(cache=True, _nrt=False, inline="always")
def _discard(s, x):  # pragma: no cover - compiled
    """A character leaves the game."""
    s[LOC + x] = USED
    s[WHERE + x] = -1


@nb.njit(cache=True, _nrt=False)
def _has_hit_target(s, n, q, c):  # pragma: no cover - compiled
    for o in range(n):
        if _on(s, o, DA_CARD, c) or _on(s, o, REPORTER_1, c) or _on(s, o, REPORTER_2, c) \
                or (o != q and _on(s, o, HIT_MAN_CARD, c)):
            return True
    return False


@nb.njit(cache=True, _nrt=False)
def _has_vertical_bribe(s, n, c):  # pragma: no cover - compiled
    for o in range(n):
        for b in range(NB):
            if _on(s, o, b, c):
                return True
    return False


@nb.njit(cache=True, _nrt=False)
def _advance(s, n):  # pragma: no cover - compiled
    """Resolve Phase III step after step until a decision is needed or the round ends (`_advance`)."""
    if s[PHASE] == SWISS_STEP:
        if s[QPOS] < s[QLEN]:
            s[TO_ACT] = s[QUEUE + s[QPOS]] // HAND_SIZE
            return
        s[PHASE] = HIT_STEP
        _queue_in_play_order(s, CONTRACT, HIT_MAN)
    if s[PHASE] == HIT_STEP:
        while s[QPOS] < s[QLEN]:
            x = s[QUEUE + s[QPOS]]
            if s[LOC + x] == CONTRACT:  # (a killed Hit Man does not act)
                if _has_hit_target(s, n, x // HAND_SIZE, s[WHERE + x]):
                    s[TO_ACT] = x // HAND_SIZE
                    return
                _discard(s, x)  # no target: removed without effect
            s[QPOS] += 1
        _cancel_by_district_attorneys(s, n)
        s[PHASE] = REPORTER_STEP
        _queue_in_play_order(s, CONTRACT, REPORTER)
    while s[QPOS] < s[QLEN]:
        x = s[QUEUE + s[QPOS]]
        if s[LOC + x] == CONTRACT:
            if _has_vertical_bribe(s, n, s[WHERE + x]):
                s[TO_ACT] = x // HAND_SIZE
                return
            _discard(s, x)  # no bribe to remove
        s[QPOS] += 1
    _award(s, n)
    _end_round(s, n)


@nb.njit(cache=True, _nrt=False)
def _cancel_by_district_attorneys(s, n):  # pragma: no cover - compiled
    """Step 3: a contract with a surviving DA is cancelled; its bribes go home, its characters out."""
    for c in range(C):
        cancelled = False
        for q in range(n):
            cancelled |= _on(s, q, DA_CARD, c)
        if not cancelled:
            continue
        for x in range(n * HAND_SIZE):
            if s[WHERE + x] == c and (s[LOC + x] == CONTRACT or s[LOC + x] == ASSIGNED):
                s[LOC + x] = HAND if x % HAND_SIZE < NB else USED
                s[WHERE + x] = -1
        s[OUTCOME + c] = CANCELLED


@nb.njit(cache=True, _nrt=False)
def _award(s, n):  # pragma: no cover - compiled
    """Step 5: the sole highest total (vertical x2, assigned Swiss x1, in half-$1,000s) wins."""
    for c in range(C):
        if s[CLOC + c] != TABLE or s[OUTCOME + c] == CANCELLED:
            continue
        best, winner, level = 0, -1, 0
        for q in range(n):
            total = 0
            for b in range(NB):
                x = q * HAND_SIZE + b
                if s[WHERE + x] == c:
                    if s[LOC + x] == CONTRACT:
                        total += 2 * VALUE[b]
                    elif s[LOC + x] == ASSIGNED:
                        total += VALUE[b]
            if total > best:
                best, winner, level = total, q, 1
            elif total == best:
                level += 1
        if best > 0 and level == 1:
            s[CLOC + c] = WON
            s[COWNER + c] = winner
            s[WON_VALUE + winner] += CONTRACT_VALUE[c]
            s[WON_COUNT + winner] += 1
            s[OUTCOME + c] = AWARDED
        else:
            s[OUTCOME + c] = NO_AWARD


@nb.njit(cache=True, _nrt=False)
def _reporter_in_slot(s, o, c, slot):  # pragma: no cover - compiled
    """Seat o's Reporter on contract c in kill slot 1 (the earlier played) or 2 (the later)."""
    seen = 0
    for t in range(s[TURN]):
        x = s[ORDER + t]
        if x // HAND_SIZE == o and KIND[x % HAND_SIZE] == REPORTER and _on(s, o, x % HAND_SIZE, c):
            seen += 1
            if seen == slot:
                return x % HAND_SIZE
    return -1


@nb.njit(cache=True, _nrt=False)
def _play(s, n, a):  # pragma: no cover - compiled
    """Apply the legal action `a`."""
    phase = s[PHASE]
    if phase == CORRUPTION:
        _place(s, n, a)
        if s[TURN] == CARDS_PER_ROUND * n:
            _reveal(s, n)
        return
    x = s[QUEUE + s[QPOS]]  # the card being resolved
    q = x // HAND_SIZE
    if phase == SWISS_STEP:  # the Swiss bribe goes to a contract of its body
        s[LOC + x] = ASSIGNED
        s[WHERE + x] = a - ASSIGN
    elif phase == HIT_STEP:  # the Hit Man kills (seat, slot) and is discarded with it
        rel, slot = (a - KILL) // KILL_SLOTS, (a - KILL) % KILL_SLOTS
        o = q + rel if q + rel < n else q + rel - n
        if slot == 0:
            victim = DA_CARD
        elif slot == 3:
            victim = HIT_MAN_CARD
        else:
            victim = _reporter_in_slot(s, o, s[WHERE + x], slot)
        _discard(s, o * HAND_SIZE + victim)
        _discard(s, x)
    else:  # the Reporter removes a vertical bribe (it goes home) or nothing, then leaves
        if a != DECLINE:
            rel, b = (a - REMOVE) // NB, (a - REMOVE) % NB
            o = q + rel if q + rel < n else q + rel - n
            s[LOC + o * HAND_SIZE + b] = HAND
            s[WHERE + o * HAND_SIZE + b] = -1
        _discard(s, x)
    s[QPOS] += 1
    _advance(s, n)


# --- the batch kernels ----------------------------------------------------------------------------------
@nb.njit(cache=True, _nrt=False)
def start_kernel(rows, seeds, num_players, state, may_decline, obs, mask, current_player, generator,
                 perm):  # pragma: no cover - compiled
    """New games in `rows`, each dealt from its seed as `CorruptionRules.new_game` deals it from
    `default_rng(seed)`: the deck's permutation, then round 1's first player; their first decision
    into the batch."""
    for j in range(rows.shape[0]):
        i = rows[j]
        _deal(state[i], num_players[i], seeds[j], generator, perm)
        state[i, CONTRACTS_KEY] = 0  # another game: its contracts are to be written
        publish(i, state[i], num_players[i], may_decline, obs, mask, current_player)


@nb.njit(cache=True, _nrt=False)
def _deal(s, n, seed, generator, perm):  # pragma: no cover - compiled
    """The game `CorruptionRules.new_game(default_rng(seed))` deals, into the state row s (generator:
    the new game's default_rng, then seeding's scratch)."""
    seed_generator_in(generator, seed, generator[GENERATOR_SIZE:])
    permutation_into(generator, perm)
    new_game(s, n, perm, integers(generator, n))


@nb.njit(cache=True, _nrt=False)
def step_kernel(actions, num_players, state, may_decline, mode, obs, mask, current_player, rewards,
                terminated, scores, ranks, ended_players, keys, ended_rows, deal, seeds, game_seeds,
                deal_index, generator, perm):  # pragma: no cover - compiled
    """One action in every game; a game that ends gets its outcome and, with `deal`, its successor
    (dealt from seeds[0], seeds[1], ... in row order), else Python deals it. Returns how many games
    ended, their rows in ended_rows[:that many]."""
    ended = 0
    for i in range(actions.shape[0]):
        s = state[i]
        n = num_players[i]
        rewards[i, :] = 0
        terminated[i] = False
        ended_players[i] = 0
        if actions[i] < 0:  # WAIT: this game does not move
            continue
        scores[i, :] = 0
        ranks[i, :] = 0
        _play(s, n, actions[i])
        if s[PHASE] == OVER:
            terminated[i] = True
            ended_players[i] = n
            ended_rows[ended] = i
            ended += 1
            _write_end(s, n, mode, keys, rewards[i], scores[i], ranks[i])
            if deal:
                game_seeds[i] = seeds[ended - 1]
                deal_index[i] = -1
                _deal(s, n, seeds[ended - 1], generator, perm)
                s[CONTRACTS_KEY] = 0
                publish(i, s, n, may_decline, obs, mask, current_player)
        else:
            publish(i, s, n, may_decline, obs, mask, current_player)
    return ended



@nb.njit(cache=True, _nrt=False)
def _write_end(s, n, mode, keys, rewards, scores, ranks):  # pragma: no cover - compiled
    """The scores and outcome of the game that ended in the state row s (keys: scratch)."""
    for q in range(n):
        keys[q] = s[WON_VALUE + q]  # final key (total value) = score
        scores[q] = keys[q]
    write_outcome(keys, keys, n, mode, rewards, ranks)


@nb.njit(cache=True, _nrt=False)
def playout_kernel(rows, num_players, state, may_decline, mode, mask, rewards, scores, ranks, keys,
                   g):  # pragma: no cover - compiled
    """Each game of `rows` played to its end by moves uniform over its mask row (`pick_legal`) drawn
    from g, and its outcome written. Only the masks are written on the way: the observation rows keep
    their last writes and the lists in the state rows that clear them, so the next decision written
    (a new deal) clears them as usual."""
    for j in range(rows.shape[0]):
        i = rows[j]
        s = state[i]
        n = num_players[i]
        while True:
            _play(s, n, pick_legal(g, mask[i]))
            if s[PHASE] == OVER:
                break
            write_mask(mask, i, s, n, may_decline)
        scores[i, :] = 0
        ranks[i, :] = 0
        _write_end(s, n, mode, keys, rewards[i], scores[i], ranks[i])


@nb.njit(cache=True, _nrt=False)
def refresh_kernel(i, num_players, state, may_decline, obs, mask, current_player):  # pragma: no cover
    """Game i's decision into the batch again (after `load`, which gave the row another game)."""
    state[i, CONTRACTS_KEY] = 0
    publish(i, state[i], num_players[i], may_decline, obs, mask, current_player)


# --- determinizations: a seat's information set redrawn in the rows (as corruption/hidden.py) ----------
# scratch (int64 words): a seat's cards' loc, where, seq; the pool, its Swiss places, its other places,
# its bribes, the cards in deal order; then a permutation and the sorted deck (C words each)
R_LOC, R_WHERE, R_SEQ, R_POOL, R_SWISS, R_OTHERS, R_BRIBES, R_DEALT = (k * HAND_SIZE for k in range(8))
R_PERM = 8 * HAND_SIZE
R_DECK = R_PERM + C
REDRAW_SCRATCH = R_DECK + C


@nb.njit(cache=True, _nrt=False)
def resample_kernel(source, seeds, player, n, state, may_decline, obs, mask, current_player, generator,
                    scratch):  # pragma: no cover - compiled
    """Rows 0..len(seeds)-1: the game `source` (a row's first GAME_SIZE entries) with all that `player`
    cannot see redrawn from `default_rng(seeds[k])`, in `resample_hidden`'s order of draws; then their
    decisions into the batch. What a draw reads of the unseen cards is their places, never which card
    is where, and of the deck which contracts are in it, never their order."""
    for i in range(seeds.shape[0]):
        s = state[i]
        for k in range(GAME_SIZE):
            s[k] = source[k]
        seed_generator_in(generator, seeds[i], generator[GENERATOR_SIZE:])
        for q in range(n):
            if q != player:
                _redeal(s, q, generator, scratch)
        _shuffle_deck(s, generator, scratch)
        s[CONTRACTS_KEY] = 0  # another game: its contracts are to be written
        publish(i, s, n, may_decline, obs, mask, current_player)


@nb.njit(cache=True, _nrt=False, inline="always")
def _place_key(r, c):  # pragma: no cover - compiled
    """Card c's place (loc, where, seq) as one number, ordered as the tuple is."""
    return (r[R_LOC + c] * (C + 1) + r[R_WHERE + c] + 1) * (MAX_PLAYS + 1) + r[R_SEQ + c] + 1


@nb.njit(cache=True, _nrt=False)
def _sort_places(r, at, length):  # pragma: no cover - compiled
    """The cards r[at:at + length] sorted by place, stably (an insertion sort: ten cards at most)."""
    for j in range(1, length):
        card = r[at + j]
        key = _place_key(r, card)
        k = j
        while k > 0 and _place_key(r, r[at + k - 1]) > key:
            r[at + k] = r[at + k - 1]
            k -= 1
        r[at + k] = card


@nb.njit(cache=True, _nrt=False)
def _redeal(s, q, g, r):  # pragma: no cover - compiled
    """Seat q's never-public cards dealt again over their places, as hidden.py's `_redeal`: Swiss
    places take bribes only, the rest of the pool the other places, places in their canonical order;
    then the Reporters in play order."""
    base = q * HAND_SIZE
    for c in range(HAND_SIZE):
        r[R_LOC + c] = s[LOC + base + c]
        r[R_WHERE + c] = s[WHERE + base + c]
        r[R_SEQ + c] = -1
    for t in range(s[TURN]):
        x = s[ORDER + t]
        if x // HAND_SIZE == q:
            r[R_SEQ + x % HAND_SIZE] = t
    pool = swiss = others = bribes = 0
    for c in range(HAND_SIZE):
        if s[PUBLIC + base + c] == 0 and r[R_LOC + c] != USED:
            r[R_POOL + pool] = c
            pool += 1
            if r[R_LOC + c] == ON_SWISS:
                r[R_SWISS + swiss] = c
                swiss += 1
            else:
                r[R_OTHERS + others] = c
                others += 1
            if c < NB:
                r[R_BRIBES + bribes] = c
                bribes += 1
    if pool < 2:
        return
    _sort_places(r, R_SWISS, swiss)
    _sort_places(r, R_OTHERS, others)
    # the deal order: the Swiss places' bribes (the first of one permutation of the bribes), then the
    # rest of the pool in card order, shuffled by a second permutation
    perm = r[R_PERM:R_PERM + bribes]
    permutation_into(g, perm)
    for j in range(swiss):
        r[R_DEALT + j] = r[R_BRIBES + perm[j]]
    rest = swiss
    for j in range(pool):
        card = r[R_POOL + j]
        chosen = False
        for k in range(swiss):
            chosen |= r[R_DEALT + k] == card
        if not chosen:
            r[R_DEALT + rest] = card
            rest += 1
    perm = r[R_PERM:R_PERM + pool - swiss]
    permutation_into(g, perm)
    for j in range(pool - swiss):  # the rest in permuted order, through R_POOL (read no more)
        r[R_POOL + j] = r[R_DEALT + swiss + perm[j]]
    for j in range(pool - swiss):
        r[R_DEALT + swiss + j] = r[R_POOL + j]
    for j in range(pool):  # card R_DEALT[j] takes place j: the Swiss places, then the others
        place = r[R_SWISS + j] if j < swiss else r[R_OTHERS + j - swiss]
        x = base + r[R_DEALT + j]
        s[LOC + x] = r[R_LOC + place]
        s[WHERE + x] = r[R_WHERE + place]
        if r[R_SEQ + place] >= 0:
            s[ORDER + r[R_SEQ + place]] = x
    a, b = base + REPORTER_1, base + REPORTER_2
    if _play_key(s, a) > _play_key(s, b):  # Reporters are played lowest id first: keep id 7 the earlier
        s[LOC + a], s[LOC + b] = s[LOC + b], s[LOC + a]
        s[WHERE + a], s[WHERE + b] = s[WHERE + b], s[WHERE + a]
        s[PUBLIC + a], s[PUBLIC + b] = s[PUBLIC + b], s[PUBLIC + a]
        for t in range(s[TURN]):
            if s[ORDER + t] == a:
                s[ORDER + t] = b
            elif s[ORDER + t] == b:
                s[ORDER + t] = a


@nb.njit(cache=True, _nrt=False)
def _play_key(s, x):  # pragma: no cover - compiled
    """When card x was played: before this round (gone), at its turn this round, or not yet (in hand)."""
    if s[LOC + x] == USED:
        return -1
    for t in range(s[TURN]):
        if s[ORDER + t] == x:
            return t
    return 1 << 20


@nb.njit(cache=True, _nrt=False)
def _shuffle_deck(s, g, r):  # pragma: no cover - compiled
    """The undealt contracts in the order one permutation of their sorted ids draws."""
    length = 0
    for c in range(C):
        if s[CLOC + c] == DECK:
            r[R_DECK + length] = c
            length += 1
    perm = r[R_PERM:R_PERM + length]
    permutation_into(g, perm)
    for k in range(length):
        s[DECK_CARDS + k] = r[R_DECK + perm[k]]


# privileged features: per seat (counted from the seat on turn) and card, where the card lies: in hand,
# vertical on contract c, on body g's Swiss account, or assigned to contract c (none once used)
PLACE_START = np.array([0, 1, 1 + C, 1 + C + NUM_BODIES, 0], np.int64)  # by LOC value (HAND ... USED)
PER_CARD = 1 + C + NUM_BODIES + C
PRIVILEGED_SIZE = SEAT_CARDS * PER_CARD


class CorruptionEngine(CompiledEngine):
    """B games of Corruption stepped together; observations and masks are the AEC env's, bit for bit."""

    rules_class = CorruptionRules
    advance_writes_ended_players = True
    privileged_size = PRIVILEGED_SIZE

    def _allocate(self) -> None:
        # one int16 row per game (the offsets above; seats padded to the game's 7), ~1.5 KB with the
        # entries its observation shows (write_observation clears these, not the whole row)
        self._state = np.zeros((self.num_envs, ROW_SIZE), np.int16)
        self._may_decline = bool(self.config["reporter_may_decline"])
        self._keys = np.zeros(MAX_PLAYERS, np.int64)  # scratch: one ended game's final keys
        self._ended = np.zeros(self.num_envs, np.int64)  # scratch: the rows whose game ended this step
        self._batch.observation[:, O_VALUE:O_VALUE + C] = CONTRACT_SHOWN  # the same in every observation
        # scratch: a new game's default_rng, then its seeding's working words (the kernels allocate nothing)
        self._generator = np.zeros(GENERATOR_SIZE + SEED_SCRATCH, np.uint64)
        self._perm = np.zeros(C, np.int64)  # scratch: its deck
        self._source = np.zeros(GAME_SIZE, np.int16)  # the game load_resampled redraws in every row
        self._scratch = np.zeros(REDRAW_SCRATCH, np.int64)  # the redraw's working words

    # --- VectorEngine ------------------------------------------------------------------------------
    def _start(self, games: np.ndarray) -> None:
        self._deal_counts(games)
        seeds = self._deal_seeds(games)
        b = self._batch
        start_kernel(np.asarray(games, np.int64), seeds, b.num_players, self._state, self._may_decline,
                     b.observation, b.action_mask, b.current_player, self._generator, self._perm)


    def _advance(self, actions: np.ndarray) -> None:
        b = self._batch
        seeds = self._seeds_ahead()  # the kernel deals the games that end, unless Python must
        ended = step_kernel(actions, b.num_players, self._state, self._may_decline, self.reward_code,
                            b.observation, b.action_mask, b.current_player, b.rewards, b.terminated,
                            b.scores, b.ranks, b.ended_players, self._keys, self._ended, seeds is not None,
                            self._ended if seeds is None else seeds, self.game_seeds, self.deal_index,
                            self._generator, self._perm)
        if seeds is not None:
            self._used_ahead(ended)
        elif ended:
            self._start(self._ended[:ended])

    def _playouts(self, rows: np.ndarray, generator: np.ndarray) -> None:
        b = self._batch
        playout_kernel(rows, b.num_players, self._state, self._may_decline, self.reward_code, b.action_mask,
                       b.rewards, b.scores, b.ranks, self._keys, generator)

    def write_privileged(self, out: np.ndarray, rows: np.ndarray) -> None:
        """Where every card of every seat lies (hands and face-down cards included), seats counted from
        the one on turn as observations count them, one-hot per card (`PER_CARD` entries: `PLACE_START`)."""
        b = self._batch
        n, p = b.num_players[rows, None], b.current_player[rows, None]
        seats = (p + np.arange(MAX_PLAYERS)) % n  # (R, 7): the seat r places after the one on turn
        cards = (seats[:, :, None] * HAND_SIZE + np.arange(HAND_SIZE)).reshape(len(rows), SEAT_CARDS)
        loc = np.take_along_axis(self._state[rows, LOC:LOC + SEAT_CARDS], cards, axis=1).astype(np.int64)
        where = np.take_along_axis(self._state[rows, WHERE:WHERE + SEAT_CARDS], cards, axis=1)
        column = PLACE_START[loc] + np.where(loc == HAND, 0, where) + np.arange(SEAT_CARDS) * PER_CARD
        shown = (loc != USED) & (np.arange(SEAT_CARDS) < n * HAND_SIZE)  # seats past the count hold none
        out[:] = 0
        r, k = np.nonzero(shown)
        out[r, column[r, k]] = 1.0

    # --- positions from the AEC engine ----------------------------------------------------------------
    def load(self, row: int, state: CorruptionState) -> None:
        """Copy an AEC game state (of `CorruptionRules` with this engine's config) into game `row` and
        write its decision into the batch; the engine then plays on from that position (after reset(),
        which gives the other rows their games). `game_seeds[row]` becomes -1: the position came from
        no seed."""
        n = self._loadable(state)
        _write_game(self._state[row], state)
        b = self._batch
        b.num_players[row] = n
        self.game_seeds[row] = -1
        refresh_kernel(int(row), b.num_players, self._state, self._may_decline, b.observation,
                       b.action_mask, b.current_player)

    def can_resample(self, state: CorruptionState, player: int) -> bool:
        """Whether `load_resampled` draws `player`'s determinizations of `state`: always."""
        return True

    def load_resampled(self, state: CorruptionState, player: int, seeds: np.ndarray) -> None:
        """Rows 0..len(seeds)-1 play on from `player`'s determinizations of `state`: row k holds the state
        `rules.resample_hidden(state, player, np.random.default_rng(seeds[k]))` draws, bit for bit, drawn
        in one compiled pass from one copy of `state` (`resample_kernel`). `game_seeds` of those rows
        become -1, as with `load`."""
        n = self._loadable(state)
        seeds = np.asarray(seeds, np.int64)
        if not 0 <= player < n or len(seeds) > self.num_envs:
            raise ValueError(f"player {player} of {n}, {len(seeds)} seeds for {self.num_envs} rows: give a "
                             "seat of the game and at most one seed a row")
        _write_game(self._source, state)
        b = self._batch
        b.num_players[:len(seeds)] = n
        self.game_seeds[:len(seeds)] = -1
        resample_kernel(self._source, seeds, int(player), n, self._state, self._may_decline, b.observation,
                        b.action_mask, b.current_player, self._generator, self._scratch)

    def _loadable(self, state: CorruptionState) -> int:
        """The player count of `state`, once it is known to fit a row of this running engine."""
        if not self._started:
            raise NotResetError("load() replaces one game of a running batch: call reset(seed=...) first")
        n = int(state.n)
        if n > self.max_players:
            raise ValueError(f"a {n}-player state does not fit this engine (at most {self.max_players} "
                             f"players): make it with num_players including {n}")
        if state.phase == OVER:
            raise ValueError("the state's game is over: load a state with a decision to make")
        return n

def _write_game(s: np.ndarray, state: CorruptionState) -> None:
    """The game part of a state row (s[:GAME_SIZE]) from an AEC state."""
    n = int(state.n)
    s[:GAME_SIZE] = 0
    s[:8] = (state.round, state.phase, state.to_act, state.leader, state.turn, state.qpos,
             len(state.queue), len(state.deck))
    for start, field in ((LOC, state.loc), (WHERE, state.where), (PUBLIC, state.public)):
        s[start:start + SEAT_CARDS] = -1 if start == WHERE else 0
        s[start:start + n * HAND_SIZE] = field.ravel()
    for start, field in ((PLACED, state.placed), (ON_CONTRACTS, state.on_contracts),
                         (WON_VALUE, state.won_value), (WON_COUNT, state.won_count)):
        s[start:start + n] = field
    for start, field in ((CLOC, state.cloc), (CBODY, state.cbody), (COWNER, state.cowner),
                         (OUTCOME, state.outcome), (DEALT, state.dealt_round)):
        s[start:start + C] = field
    s[DECK_CARDS:DECK_CARDS + len(state.deck)] = state.deck
    played = np.flatnonzero(state.seq.ravel() >= 0)  # seat * 10 + card, as the kernels index cards
    s[ORDER + state.seq.ravel()[played]] = played
    s[QUEUE:QUEUE + len(state.queue)] = [q * HAND_SIZE + card for q, card in state.queue]
