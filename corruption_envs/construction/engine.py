"""The batched engine of Construction & Corruption: B games as int16 rows, stepped by numba kernels.

The rules are those of `corruption_envs/construction/` (rules.py, cards.py, money.py), rewritten over
flat arrays; the observation and the mask are the AEC encoding (observer.py, `legal_mask`) bit for bit.

Chance. Every draw of a game, the deal (the contract stack, the investigation deck, the First Player
roll) and the chance of play (the investigation dice, Cut & Paste's random card, the reshuffle of the
discard pile), comes from the game's numpy Generator, `np.random.default_rng(engine.game_seeds[i])`,
which each row carries on in the kernels (`numpy_rng`: SeedSequence, PCG64, `integers`,
`permutation`) and draws from in the order the rules draw. So row i plays, die for die, the AEC game
`rules.new_game(np.random.default_rng(engine.game_seeds[i]))`, the game `env().reset(seed)` plays
for the seed `queue_deals` gave the row (tests/vector/test_construction.py and
tests/vector/test_construction_seeds.py hold the two to each other). `load(row, state)` copies an AEC
state with its Generator's state, so a crafted or determinized position goes on with the same dice;
`load_resampled(state, player, seeds)` fills rows with `player`'s determinizations of a state, drawn in
a kernel as `resample_hidden` draws them from `default_rng(seed)`, unless secret gift amounts are to
be redrawn (`can_resample`: those stay with the rules' search).

The game tables, the action layout and the observation offsets reach the kernels as an argument (one
int64 vector at the G_ offsets), never as compiled-in globals, so an edit of the values in tables.py,
codec.py or observer.py cannot be hidden by numba's cache; the sizes (seats, contracts, card kinds,
turns) and the enumerations (phases, card types) are compiled in, and the import-time checks below
fail loudly when the layouts move.
"""
from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from ..core import Layout
from ..core.errors import NotResetError
from ..vector import numpy_rng
from ..vector.compiled import CompiledEngine, pick_legal
from ..vector.numpy_rng import pcg64_words
from ..vector.outcome import write_outcome
from . import codec, observer, tables
from .env import ConstructionRules
from .state import CARDS, GIFT, MAYOR, OVER, PAY, PLACE, VOTE, State
from .tables import (
    BIG_PAPA, CUT_AND_PASTE, DEEP_MERDE, LA_GREVE, RED_ALERT, REVENUE_QUEBEC, SNITCH, SPIC_N_SPAN,
)

# compiled once and cached; integer % and // without the zero-division check (no divisor is ever 0)
_kernel = nb.njit(cache=True, error_model="numpy")

P = tables.MAX_PLAYERS  # seats in a row (the observation pads to 7 too)
C = tables.NUM_CONTRACTS
T = tables.NUM_CARD_TYPES
D = tables.NUM_CARDS
Y = tables.NUM_TURNS


class _Offsets:
    """Named offsets into a flat int vector, handed out in order."""

    def __init__(self) -> None:
        self.size = 0

    def take(self, width: int = 1) -> int:
        start = self.size
        self.size += width
        return start


# --- one game's row: named offsets into an int16 vector (every figure of a game fits: all the money
# ever paid out is under $15M, 1500 units) ---------------------------------------------------------------
_row = _Offsets()
_field = _row.take
N, TURN, PHASE, ACTOR, FIRST, MAYOR_SEAT, CITY_LEFT, FEST_LEFT = (_field() for _ in range(8))
CUT_USED, PASSES, INVESTIGATED, LAST_MAYOR = (_field() for _ in range(4))
STACK_HEAD, STACK_LEN, DECK_POS, DECK_LEN, PAY_POS, PAY_LEN = (_field() for _ in range(6))
STACK = _field(C)  # a ring of contract ids: top at STACK_HEAD, completed contracts join the bottom
OWNER, CORRUPTION, CITY, FESTIVAL = (_field(C) for _ in range(4))
WORKERS = _field(C * P)  # workers[c][p]
CASH, KEYS, TO_PLACE, PASSED, GIFTS_LEFT, VOTES = (_field(P) for _ in range(6))
HAND = _field(P * T)  # hand[p][t]
DECK = _field(D)  # card types, DECK[DECK_POS] on top
DISCARD = _field(T)
KNOWN = _field(P * P * T)  # known[o][q][t]
MERDE, RED, LOGOS, PAID_PERCENT = (_field(P) for _ in range(4))
LAST_VOTES = _field(P + 1)  # per seat, then the Outsider
LAST_BALLOTS, PUB_CASH = (_field(P) for _ in range(2))
GIFT_CNT, GIFT_AMT = (_field(P * 2 * P) for _ in range(2))  # [q][o] received from o, [q][P + o] given to o
PAYMENTS = _field(P)  # seats still to pay, in order, from PAY_POS
ROW_SIZE = _row.size

# action kinds (the codec's block names, in codec order) and observation pieces (the layout's order)
KINDS = ("place", "pass", "gift", "vote", "outsider", "city", "festival", "big_papa", "cut_and_paste",
         "deep_merde", "la_greve", "red_alert", "revenue_quebec", "spic_n_span", "snitch", "pay_fixed",
         "pay_percent")
(A_PLACE, A_PASS, A_GIFT, A_VOTE, A_OUTSIDER, A_CITY, A_FESTIVAL, A_BIG_PAPA, A_CUT, A_MERDE, A_GREVE,
 A_RED, A_REVENUE, A_SPIC, A_SNITCH, A_PAY_FIXED, A_PAY_PERCENT) = range(len(KINDS))
PIECES = ("phase", "year", "num_players", "first_player", "to_act", "mayor", "mayor_supply", "my_cash",
          "my_hand", "my_vote", "known_cards", "seats", "contracts", "contract_workers", "last_ballots",
          "table", "discard")
(O_PHASE, O_YEAR, O_NUM_PLAYERS, O_FIRST, O_TO_ACT, O_MAYOR, O_SUPPLY, O_CASH, O_HAND, O_VOTE, O_KNOWN,
 O_SEATS, O_CONTRACTS, O_WORKERS, O_BALLOTS, O_TABLE, O_DISCARD) = range(len(PIECES))
SEAT_FEATURES = ("present", "contracts", "corruption", "to_place", "passed", "has_voted", "keys",
                 "hand_size", "deep_merde", "red_alert", "logos", "paid_percent", "gifts_left", "cash_known",
                 "unseen_gifts_in", "unseen_gifts_out", "last_votes_received", "last_mayor",
                 "payment_pending")  # as _observe writes them
NF = len(SEAT_FEATURES)
CF = observer.CONTRACT_FEATURES


# --- what a kernel reads besides the rows: the tables, the layouts and the config, as one int64 vector
# (one array to pass: numba counts references per array argument of every call)
NUM_GIFTS = len(tables.GIFT_AMOUNTS)
NUM_PAIRS = len(codec.PAIRS)
_tab = _Offsets()
G_PLAYER_WORKERS, G_CITY_WORKERS, G_LOGO_COST = (_tab.take(Y) for _ in range(3))
G_FESTIVALS = _tab.take(P + 1)  # per player count
G_KEYS_VALUE = _tab.take(Y + 1)  # per number of keys
G_CARD_COUNTS = _tab.take(T)
G_LOGO_FACES = _tab.take(len(tables.LOGO_FACES))  # white, black, red
G_GIFT_AMOUNTS = _tab.take(NUM_GIFTS)
G_START = _tab.take(len(KINDS))  # per kind: its first action
G_PAIR_B = _tab.take(NUM_PAIRS)  # the second offset of each codec pair
G_DECK_CARDS = _tab.take(D)  # the card types of the unshuffled deck, as rules.new_game lists them
G_OBS_AT = _tab.take(len(PIECES))  # per observation piece: its first feature
SCALARS = ("setup_dice", "pay_per_contract", "vacation_pay", "max_contracts", "big_papa_festivals",
           "big_papa_city_workers", "festival_pieces", "city_worker_pieces", "spic_removes", "die_faces",
           "money_scale", "threshold", "max_gifts", "investigation_gifts", "secret_gifts", "red_per_contract",
           "first_player_passes", "reward_code")
(G_SETUP_DICE, G_PAY_PER_CONTRACT, G_VACATION_PAY, G_MAX_CONTRACTS, G_BIG_PAPA_FESTIVALS,
 G_BIG_PAPA_CITY_WORKERS, G_FESTIVAL_PIECES, G_CITY_WORKER_PIECES, G_SPIC_REMOVES, G_DIE_FACES,
 G_MONEY_SCALE, G_THRESHOLD, G_MAX_GIFTS, G_INVESTIGATION_GIFTS, G_SECRET_GIFTS, G_RED_PER_CONTRACT,
 G_FIRST_PLAYER_PASSES, G_REWARD_CODE) = (_tab.take() for _ in SCALARS)
G_ACTIONS = _tab.take(3 * codec.NUM_ACTIONS)  # per action: its KINDS index and its fields x, y


def _action_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each action's kind and fields (contract, seat, amount / seat, pair), and each kind's first action."""
    A = codec.NUM_ACTIONS
    kind, x, y = np.zeros(A, np.int64), np.zeros(A, np.int64), np.zeros(A, np.int64)
    start = np.full(len(KINDS), -1, np.int64)
    for a, (name, f) in enumerate(codec.ACTIONS.decoded):
        k = KINDS.index(name)
        kind[a] = k
        if start[k] < 0:
            start[k] = a
        if "pair" in f:
            x[a], y[a] = f["pair"]
        elif "amount" in f:
            x[a], y[a] = f["amount"], f["seat"]
        else:
            x[a] = f.get("contract", f.get("seat", 0))
    # the masks address actions as start + field: hold the codec to that
    pairs = {p: i for i, p in enumerate(codec.PAIRS)}
    for a in range(A):
        k = kind[a]
        local = {A_GIFT: x[a] * len(codec.OFFSETS) + y[a] - 1, A_VOTE: x[a], A_CUT: x[a] - 1,
                 A_MERDE: x[a] - 1, A_RED: x[a] - 1}.get(k, x[a])
        if k in (A_REVENUE, A_SNITCH):
            local = pairs[(x[a], y[a])]
        if k in (A_PASS, A_OUTSIDER, A_BIG_PAPA, A_GREVE, A_PAY_FIXED, A_PAY_PERCENT):
            local = 0
        assert start[k] + local == a, f"codec action {a} is not where the engine's masks put it"
    return kind, x, y, start


def _check_layouts() -> np.ndarray:
    """The observation offsets per piece, after checking the layout is the one the kernels write."""
    lay = observer.build_layout()
    expected = {"seats": (P, NF), "contracts": (C, CF), "contract_workers": (C, P), "known_cards": (P - 1, T),
                "last_ballots": (P, P + 1), "my_vote": (P + 1,), "table": (4,), "discard": (T,)}
    if tuple(lay) != PIECES or tuple(observer.SEAT_FEATURES) != SEAT_FEATURES or CF != 12 or any(
            lay.shapes[k] != v for k, v in expected.items()):
        raise ImportError("construction's observation layout changed: update corruption_envs/vector/"
                          "construction.py (PIECES, SEAT_FEATURES, _observe) to match observer.py")
    if (PLACE, VOTE, MAYOR, CARDS, PAY, OVER) != tuple(range(6)) or (
            BIG_PAPA, CUT_AND_PASTE, DEEP_MERDE, LA_GREVE, RED_ALERT, REVENUE_QUEBEC, SPIC_N_SPAN, SNITCH
    ) != tuple(range(T)):
        raise ImportError("construction's phases or card types were renumbered: update the engine")
    return np.array([lay[name].start for name in PIECES], np.int64)


_KIND, _X, _Y, _START = _action_tables()
_OBS_AT = _check_layouts()
if observer.MONEY_SCALE != int(observer.MONEY_SCALE):
    raise ImportError("observer.MONEY_SCALE is no longer a whole number: the engine's table holds it as one")


def _game_table(config: dict[str, Any], reward_code: int) -> np.ndarray:
    """The int64 vector of tables, layouts and config that the kernels read (the G_ offsets)."""
    tab = np.zeros(_tab.size, np.int64)
    for at, values in (
        (G_PLAYER_WORKERS, tables.PLAYER_WORKERS), (G_CITY_WORKERS, tables.CITY_WORKERS),
        (G_LOGO_COST, tables.LOGO_COST), (G_FESTIVALS, [tables.festivals(n) for n in range(P + 1)]),
        (G_KEYS_VALUE, [tables.keys_value(k) for k in range(Y + 1)]), (G_CARD_COUNTS, tables.CARD_COUNTS),
        (G_LOGO_FACES, tables.LOGO_FACES), (G_GIFT_AMOUNTS, tables.GIFT_AMOUNTS), (G_START, _START),
        (G_PAIR_B, [b for _, b in codec.PAIRS]), (G_OBS_AT, _OBS_AT),
        (G_DECK_CARDS, [t for t, k in enumerate(tables.CARD_COUNTS) for _ in range(k)]),
        (G_ACTIONS, np.stack([_KIND, _X, _Y], axis=1).ravel()),
    ):
        tab[at: at + len(values)] = values
    scalars = {
        "setup_dice": tables.SETUP_DICE, "pay_per_contract": tables.PAY_PER_CONTRACT,
        "vacation_pay": tables.VACATION_PAY, "max_contracts": tables.MAX_CONTRACTS,
        "big_papa_festivals": tables.BIG_PAPA_FESTIVALS,
        "big_papa_city_workers": tables.BIG_PAPA_CITY_WORKERS,
        "festival_pieces": tables.FESTIVAL_PIECES, "city_worker_pieces": tables.CITY_WORKER_PIECES,
        "spic_removes": tables.SPIC_N_SPAN_REMOVES, "die_faces": tables.DIE_FACES,
        "money_scale": int(observer.MONEY_SCALE),
        "threshold": tables.COMPLETION_WORKERS[config["completion"]],
        "max_gifts": config["max_gifts"], "investigation_gifts": config["investigation_gifts"],
        "secret_gifts": config["secret_gifts"], "red_per_contract": config["red_alert"] == "per_contract",
        "first_player_passes": config["first_player_passes"], "reward_code": reward_code,
    }
    tab[G_SETUP_DICE: G_SETUP_DICE + len(SCALARS)] = [scalars[name] for name in SCALARS]
    return tab


# --- chance: the game's numpy Generator, carried on in its row (numpy_rng) ---------------------------
@_kernel
def _below(rng, i, k):  # pragma: no cover - compiled
    """Generator.integers(k) from row i's Generator (k < 2**32); k == 1 draws nothing, as in numpy."""
    if k == 1:
        return np.int64(0)
    return numpy_rng.integers(rng[i], k)


@_kernel
def _permute(rng, i, out, k):  # pragma: no cover - compiled
    """out[:k] = row i's Generator.permutation(k)."""
    numpy_rng.permutation_into(rng[i], out[:k])


@_kernel
def _logos(rng, i, dice, faces, die_faces):  # pragma: no cover - compiled
    """Logos on `dice` dice that show a logo on `faces` of their `die_faces` faces: one
    Generator.integers(die_faces) per die, a logo below `faces` (rules.roll_dice)."""
    hits = 0
    for _ in range(dice):
        if numpy_rng.integers(rng[i], die_faces) < faces:
            hits += 1
    return hits


@_kernel
def _deal(tab, seed, n, out, gen):  # pragma: no cover - compiled
    """What `rules.new_game(np.random.default_rng(seed))` draws, in its order, into `out`, with `gen`
    (numpy_rng.GENERATOR_SIZE words) becoming that Generator: the stack's order (C), the deck's
    permutation (D) and the First Player (the highest two-dice total, the tied highest rolling again)."""
    numpy_rng.seed_generator(gen, seed)
    numpy_rng.permutation_into(gen, out[:C])
    numpy_rng.permutation_into(gen, out[C:C + D])
    rolling = np.ones(n, np.bool_)
    totals = np.zeros(n, np.int64)
    while True:
        best = 0
        for p in range(n):
            if rolling[p]:
                totals[p] = 0
                for _ in range(tab[G_SETUP_DICE]):
                    totals[p] += 1 + numpy_rng.integers(gen, tab[G_DIE_FACES])
                best = max(best, totals[p])
        left = 0
        for p in range(n):
            rolling[p] = rolling[p] and totals[p] == best
            if rolling[p]:
                left += 1
                out[C + D] = p
        if left == 1:
            return


# --- money (money.py) -------------------------------------------------------------------------------
@_kernel
def _known_now(s, p, value):  # pragma: no cover - compiled
    s[PUB_CASH + p] = value
    for o in range(2 * P):
        s[GIFT_CNT + 2 * P * p + o] = 0
        s[GIFT_AMT + 2 * P * p + o] = 0


@_kernel
def _income(s, p, amount):  # pragma: no cover - compiled
    s[CASH + p] += amount
    s[PUB_CASH + p] += amount


@_kernel
def _pay(s, p, due):  # pragma: no cover - compiled
    """p pays `due` to the city, or all it has (then everyone knows its cash is 0)."""
    paid = min(due, s[CASH + p])
    s[CASH + p] -= paid
    s[PUB_CASH + p] -= paid
    if paid < due:
        _known_now(s, p, 0)


@_kernel
def _gift(s, tab, giver, receiver, amount):  # pragma: no cover - compiled
    s[CASH + giver] -= amount
    s[CASH + receiver] += amount
    if tab[G_SECRET_GIFTS]:
        s[GIFT_CNT + 2 * P * receiver + giver] += 1
        s[GIFT_AMT + 2 * P * receiver + giver] += amount
        s[GIFT_CNT + 2 * P * giver + P + receiver] += 1
        s[GIFT_AMT + 2 * P * giver + P + receiver] += amount
    else:
        s[PUB_CASH + giver] -= amount
        s[PUB_CASH + receiver] += amount
    s[GIFTS_LEFT + giver] -= 1


@_kernel
def _reveal(s, p):  # pragma: no cover - compiled
    _known_now(s, p, s[CASH + p])


# --- cards (cards.py) -------------------------------------------------------------------------------
@_kernel
def _hand_size(s, p):  # pragma: no cover - compiled
    total = 0
    for t in range(T):
        total += s[HAND + T * p + t]
    return total


@_kernel
def _draw(s, rng, i, p):  # pragma: no cover - compiled
    """p draws the top card; an empty deck is first refilled by shuffling the discard pile."""
    if s[DECK_POS] == s[DECK_LEN]:
        pile = np.empty(D, np.int64)
        k = 0
        for t in range(T):
            for _ in range(s[DISCARD + t]):
                pile[k] = t
                k += 1
        if k == 0:
            return
        order = np.empty(D, np.int64)
        _permute(rng, i, order, k)
        for j in range(k):
            s[DECK + j] = pile[order[j]]
        for t in range(T):
            s[DISCARD + t] = 0
        s[DECK_POS] = 0
        s[DECK_LEN] = k
    card = s[DECK + s[DECK_POS]]
    s[DECK_POS] += 1
    s[HAND + T * p + card] += 1


@_kernel
def _forget_one(s, q, card):  # pragma: no cover - compiled
    for o in range(s[N]):
        k = KNOWN + (o * P + q) * T + card
        if s[k]:
            s[k] -= 1


@_kernel
def _discard(s, p, card):  # pragma: no cover - compiled
    s[HAND + T * p + card] -= 1
    s[DISCARD + card] += 1
    _forget_one(s, p, card)


@_kernel
def _cut_and_paste(s, rng, i, p, target):  # pragma: no cover - compiled
    """Take a random card of `target` for my Cut & Paste; who learns what (cards.cut_and_paste)."""
    hand = HAND + T * target
    pick = _below(rng, i, _hand_size(s, target))
    card = 0
    while pick >= s[hand + card]:
        pick -= s[hand + card]
        card += 1
    s[hand + card] -= 1
    s[HAND + T * p + card] += 1
    s[HAND + T * p + CUT_AND_PASTE] -= 1
    s[hand + CUT_AND_PASTE] += 1
    _forget_one(s, p, CUT_AND_PASTE)
    for o in range(s[N]):
        if o == target:
            s[KNOWN + (target * P + p) * T + card] += 1
            continue
        k = KNOWN + (o * P + target) * T
        if o == p:
            if s[k + card]:
                s[k + card] -= 1
        else:
            for t in range(T):
                if s[k + t]:
                    s[k + t] -= 1
        s[k + CUT_AND_PASTE] += 1


# --- turn flow (rules.py) ------------------------------------------------------------------------------
@_kernel
def _contracts_of(s, p):  # pragma: no cover - compiled
    k = 0
    for c in range(C):
        if s[OWNER + c] == p:
            k += 1
    return k


@_kernel
def _corrupt(s, q):  # pragma: no cover - compiled
    for c in range(C):
        if s[OWNER + c] == q:
            s[CORRUPTION + c] += 1


@_kernel
def _pay_contracts(s, tab):  # pragma: no cover - compiled
    for p in range(s[N]):
        k = _contracts_of(s, p)
        if k:
            _income(s, p, tab[G_PAY_PER_CONTRACT] * k)


@_kernel
def _new_game(s, tab, n, dealt):  # pragma: no cover - compiled
    """rules.new_game with its draws made (`_deal`): the table set, then the first turn."""
    s[:] = 0
    s[N] = n
    for k in range(C):
        s[OWNER + k] = -1
        s[STACK + k] = dealt[k]
    for k in range(P):
        s[VOTES + k] = -1
        s[LAST_BALLOTS + k] = -1
    s[MAYOR_SEAT] = -1
    s[LAST_MAYOR] = -1
    s[STACK_LEN] = C
    for j in range(D):
        s[DECK + j] = tab[G_DECK_CARDS + dealt[C + j]]
    s[DECK_LEN] = D
    s[FIRST] = dealt[C + D]
    _begin_turn(s, tab)


@_kernel
def _begin_turn(s, tab):  # pragma: no cover - compiled
    """Construction (new contracts, their pay and Corruption), then the Corruption phase."""
    n, y = s[N], s[TURN]
    if tab[G_FIRST_PLAYER_PASSES] and y > 0:
        s[FIRST] = (s[FIRST] + 1) % n
    for k in range(n):
        p = (s[FIRST] + k) % n
        if s[STACK_LEN] == 0:
            break
        if _contracts_of(s, p) >= tab[G_MAX_CONTRACTS]:
            continue
        c = s[STACK + s[STACK_HEAD]]
        s[STACK_HEAD] = (s[STACK_HEAD] + 1) % C
        s[STACK_LEN] -= 1
        s[OWNER + c] = p
        s[WORKERS + P * c + p] += 1
    _pay_contracts(s, tab)
    for c in range(C):
        if s[OWNER + c] >= 0:
            s[CORRUPTION + c] += 1
    s[PHASE] = PLACE
    for p in range(n):
        s[TO_PLACE + p] = max(0, tab[G_PLAYER_WORKERS + y] - _contracts_of(s, p))
        s[PASSED + p] = 0
        s[GIFTS_LEFT + p] = tab[G_MAX_GIFTS]
    _next_placer(s, tab, s[FIRST])


@_kernel
def _next_placer(s, tab, start):  # pragma: no cover - compiled
    n = s[N]
    for k in range(n):
        p = (start + k) % n
        if s[PASSED + p]:
            continue
        if s[TO_PLACE + p] == 0 and s[GIFTS_LEFT + p] == 0:
            s[PASSED + p] = 1
            continue
        s[ACTOR] = p
        return
    _end_corruption(s, tab)


@_kernel
def _end_corruption(s, tab):  # pragma: no cover - compiled
    """Vacation pay for unplaced workers, then the Election."""
    n = s[N]
    for k in range(n):
        p = (s[FIRST] + k) % n
        if s[TO_PLACE + p]:
            _pay(s, p, tab[G_VACATION_PAY] * s[TO_PLACE + p])
    s[PHASE] = VOTE
    for p in range(n):
        s[VOTES + p] = -1
        s[GIFTS_LEFT + p] = tab[G_MAX_GIFTS]
    s[ACTOR] = s[FIRST]


@_kernel
def _resolve_election(s, tab, rng, i):  # pragma: no cover - compiled
    n = s[N]
    for v in range(n + 1):
        s[LAST_VOTES + v] = 0
    for p in range(n):
        s[LAST_VOTES + s[VOTES + p]] += 1
        s[LAST_BALLOTS + p] = s[VOTES + p]
        s[VOTES + p] = -1
    best, top, m = -1, 0, -1
    for v in range(n + 1):
        if s[LAST_VOTES + v] > best:
            best, top, m = s[LAST_VOTES + v], 1, v
        elif s[LAST_VOTES + v] == best:
            top += 1
    if top == 1 and m < n:
        s[MAYOR_SEAT] = m
        s[LAST_MAYOR] = m
        s[KEYS + m] += 1
        s[CITY_LEFT] = tab[G_CITY_WORKERS + s[TURN]]
        s[FEST_LEFT] = tab[G_FESTIVALS + n]
        s[PHASE] = MAYOR
        s[ACTOR] = m
        _check_mayor_done(s, tab, rng, i)
    else:
        s[LAST_MAYOR] = -1
        _start_investigation(s, tab, rng, i)


@_kernel
def _check_mayor_done(s, tab, rng, i):  # pragma: no cover - compiled
    """The mayor is asked while it can place something or holds a card (a Big Papa stays private)."""
    held = False
    free_arch = False
    for c in range(C):
        if s[OWNER + c] >= 0:
            held = True
            if not s[FESTIVAL + c]:
                free_arch = True
    if not ((s[CITY_LEFT] and held) or (s[FEST_LEFT] and free_arch) or _hand_size(s, s[MAYOR_SEAT])):
        _extraction(s, tab, rng, i)


@_kernel
def _start_investigation(s, tab, rng, i):  # pragma: no cover - compiled
    s[INVESTIGATED] = 1
    s[PHASE] = CARDS
    s[PASSES] = 0
    for p in range(s[N]):
        s[GIFTS_LEFT + p] = tab[G_MAX_GIFTS] if tab[G_INVESTIGATION_GIFTS] else 0
    _next_card_player(s, tab, rng, i, s[FIRST])


@_kernel
def _next_card_player(s, tab, rng, i, start):  # pragma: no cover - compiled
    """Seat order until every seat passed in a row; a seat with a card or a gift left is asked."""
    n = s[N]
    p = start
    while s[PASSES] < n:
        if s[GIFTS_LEFT + p] or _hand_size(s, p):
            s[ACTOR] = p
            return
        s[PASSES] += 1
        p = (p + 1) % n
    _roll(s, tab, rng, i)


@_kernel
def _roll(s, tab, rng, i):  # pragma: no cover - compiled
    """Each seat rolls a die per Corruption on its contracts (rules.roll_dice), in seat order."""
    n = s[N]
    s[PAY_POS] = 0
    s[PAY_LEN] = 0
    for k in range(n):
        p = (s[FIRST] + k) % n
        dice = 0
        for c in range(C):
            if s[OWNER + c] == p:
                dice += s[CORRUPTION + c]
        red = 0
        if s[RED + p]:
            red = min(dice, _contracts_of(s, p)) if tab[G_RED_PER_CONTRACT] else dice
        base = tab[G_LOGO_FACES + tables.BLACK] if s[MERDE + p] else tab[G_LOGO_FACES + tables.WHITE]
        logos = 0
        if red:
            logos += _logos(rng, i, red, tab[G_LOGO_FACES + tables.RED], tab[G_DIE_FACES])
        if dice - red:
            logos += _logos(rng, i, dice - red, base, tab[G_DIE_FACES])
        s[LOGOS + p] = logos
        s[PAID_PERCENT + p] = 0
        if logos:
            s[PAYMENTS + s[PAY_LEN]] = p
            s[PAY_LEN] += 1
    if s[PAY_LEN]:
        s[PHASE] = PAY
        s[ACTOR] = s[PAYMENTS]
    else:
        _extraction(s, tab, rng, i)


@_kernel
def _extraction(s, tab, rng, i):  # pragma: no cover - compiled
    """Completed contracts go to the stack's bottom (their owner draws a card); workers come home."""
    n = s[N]
    for c in range(C):
        p = s[OWNER + c]
        if p < 0 or s[FESTIVAL + c]:
            continue
        crew = s[CITY + c]
        for q in range(n):
            crew += s[WORKERS + P * c + q]
        if crew < tab[G_THRESHOLD]:
            continue
        s[OWNER + c] = -1
        s[CORRUPTION + c] = 0
        s[STACK + (s[STACK_HEAD] + s[STACK_LEN]) % C] = c
        s[STACK_LEN] += 1
        _draw(s, rng, i, p)
    for c in range(C):
        for q in range(n):
            s[WORKERS + P * c + q] = 0
        if s[OWNER + c] >= 0:
            s[WORKERS + P * c + s[OWNER + c]] = 1
        s[CITY + c] = 0
        s[FESTIVAL + c] = 0
    s[MAYOR_SEAT] = -1
    s[CITY_LEFT] = 0
    s[FEST_LEFT] = 0
    s[INVESTIGATED] = 0
    s[CUT_USED] = 0
    s[TURN] += 1
    if s[TURN] < Y:
        _begin_turn(s, tab)
        return
    _pay_contracts(s, tab)
    s[PHASE] = OVER
    s[ACTOR] = -1


# --- decisions ---------------------------------------------------------------------------------------
@_kernel
def _apply(s, tab, rng, i, a):  # pragma: no cover - compiled
    """Play the legal action `a` of the seat to act (rules.apply)."""
    n, p, phase = s[N], s[ACTOR], s[PHASE]
    kind, x, y = tab[G_ACTIONS + 3 * a], tab[G_ACTIONS + 3 * a + 1], tab[G_ACTIONS + 3 * a + 2]
    if kind == A_GIFT:
        _gift(s, tab, p, (p + y) % n, tab[G_GIFT_AMOUNTS + x])
    if phase == PLACE:
        if kind == A_PLACE:
            s[WORKERS + P * x + p] += 1
            s[TO_PLACE + p] -= 1
        elif kind == A_PASS:
            s[PASSED + p] = 1
        _next_placer(s, tab, (p + 1) % n)
    elif phase == VOTE:
        if kind == A_VOTE:
            s[VOTES + p] = (p + x) % n
        elif kind == A_OUTSIDER:
            s[VOTES + p] = n
        for k in range(1, n + 1):
            q = (p + k) % n
            if s[VOTES + q] < 0:
                s[ACTOR] = q
                return
        _resolve_election(s, tab, rng, i)
    elif phase == MAYOR:
        if kind == A_PASS:
            _extraction(s, tab, rng, i)
            return
        if kind == A_CITY:
            s[CITY + x] += 1
            s[CITY_LEFT] -= 1
        elif kind == A_FESTIVAL:
            s[FESTIVAL + x] = 1
            s[FEST_LEFT] -= 1
        else:
            _discard(s, p, BIG_PAPA)
            arches = tab[G_FESTIVAL_PIECES] - s[FEST_LEFT]
            meeples = tab[G_CITY_WORKER_PIECES] - s[CITY_LEFT]
            for c in range(C):
                arches -= s[FESTIVAL + c]
                meeples -= s[CITY + c]
            s[FEST_LEFT] += min(tab[G_BIG_PAPA_FESTIVALS], arches)
            s[CITY_LEFT] += min(tab[G_BIG_PAPA_CITY_WORKERS], meeples)
        _check_mayor_done(s, tab, rng, i)
    elif phase == CARDS:
        if kind == A_PASS:
            s[PASSES] += 1
        else:
            if kind != A_GIFT:
                _play_card(s, tab, rng, i, p, kind, x, y)
            s[PASSES] = 0
        _next_card_player(s, tab, rng, i, (p + 1) % n)
    else:
        logos = s[LOGOS + p]
        if kind == A_PAY_PERCENT:
            _reveal(s, p)
            s[PAID_PERCENT + p] = 1
            _pay(s, p, s[CASH + p] * logos // 10)
        else:
            _pay(s, p, logos * tab[G_LOGO_COST + s[TURN]])
        s[PAY_POS] += 1
        if s[PAY_POS] < s[PAY_LEN]:
            s[ACTOR] = s[PAYMENTS + s[PAY_POS]]
        else:
            _extraction(s, tab, rng, i)


@_kernel
def _play_card(s, tab, rng, i, p, kind, x, y):  # pragma: no cover - compiled
    n = s[N]
    if kind == A_CUT:
        _cut_and_paste(s, rng, i, p, (p + x) % n)
        s[CUT_USED] = 1
    elif kind == A_MERDE:
        q = (p + x) % n
        _discard(s, p, DEEP_MERDE)
        s[MERDE + q] = 1
        _corrupt(s, q)
    elif kind == A_GREVE:
        _discard(s, p, LA_GREVE)
    elif kind == A_RED:
        _discard(s, p, RED_ALERT)
        s[RED + (p + x) % n] = 1
        s[RED + p] = 1
    elif kind == A_REVENUE:
        _discard(s, p, REVENUE_QUEBEC)
        for q in ((p + x) % n, (p + y) % n):
            _reveal(s, q)
            _corrupt(s, q)
    elif kind == A_SPIC:
        _discard(s, p, SPIC_N_SPAN)
        s[CORRUPTION + x] = max(0, s[CORRUPTION + x] - tab[G_SPIC_REMOVES])
    else:
        _discard(s, p, SNITCH)
        _corrupt(s, (p + x) % n)
        _corrupt(s, (p + y) % n)


@_kernel
def _gift_mask(s, tab, p, mask):  # pragma: no cover - compiled
    if s[GIFTS_LEFT + p]:
        n = s[N]
        for amount in range(NUM_GIFTS):
            if tab[G_GIFT_AMOUNTS + amount] <= s[CASH + p]:
                base = tab[G_START + A_GIFT] + amount * (P - 1) - 1
                for k in range(1, n):
                    mask[base + k] = 1


@_kernel
def _legal_mask(s, tab, mask):  # pragma: no cover - compiled
    """The legal actions of the seat to act (rules.legal_mask)."""
    mask[:] = 0
    n, p, phase = s[N], s[ACTOR], s[PHASE]
    if phase == PLACE:
        mask[tab[G_START + A_PASS]] = 1
        if s[TO_PLACE + p]:
            for c in range(C):
                if s[OWNER + c] >= 0:
                    mask[tab[G_START + A_PLACE] + c] = 1
        _gift_mask(s, tab, p, mask)
    elif phase == VOTE:
        for k in range(n):
            mask[tab[G_START + A_VOTE] + k] = 1
        mask[tab[G_START + A_OUTSIDER]] = 1
        _gift_mask(s, tab, p, mask)
    elif phase == MAYOR:
        mask[tab[G_START + A_PASS]] = 1
        for c in range(C):
            if s[OWNER + c] >= 0:
                if s[CITY_LEFT]:
                    mask[tab[G_START + A_CITY] + c] = 1
                if s[FEST_LEFT] and not s[FESTIVAL + c]:
                    mask[tab[G_START + A_FESTIVAL] + c] = 1
        if s[HAND + T * p + BIG_PAPA]:
            mask[tab[G_START + A_BIG_PAPA]] = 1
    elif phase == CARDS:
        mask[tab[G_START + A_PASS]] = 1
        _gift_mask(s, tab, p, mask)
        hand = HAND + T * p
        if s[hand + CUT_AND_PASTE] and not s[CUT_USED]:
            for k in range(1, n):
                if _hand_size(s, (p + k) % n):
                    mask[tab[G_START + A_CUT] + k - 1] = 1
        for card, kind in ((DEEP_MERDE, A_MERDE), (RED_ALERT, A_RED)):
            if s[hand + card]:
                for k in range(1, n):
                    mask[tab[G_START + kind] + k - 1] = 1
        if s[hand + LA_GREVE]:
            mask[tab[G_START + A_GREVE]] = 1
        for card, kind in ((REVENUE_QUEBEC, A_REVENUE), (SNITCH, A_SNITCH)):
            if s[hand + card]:
                for j in range(NUM_PAIRS):
                    if tab[G_PAIR_B + j] < n:
                        mask[tab[G_START + kind] + j] = 1
        if s[hand + SPIC_N_SPAN]:
            for c in range(C):
                if s[OWNER + c] >= 0 and s[CORRUPTION + c]:
                    mask[tab[G_START + A_SPIC] + c] = 1
    elif phase == PAY:
        mask[tab[G_START + A_PAY_FIXED]] = 1
        mask[tab[G_START + A_PAY_PERCENT]] = 1


# --- the observation (observer.py) -------------------------------------------------------------------
# The observer divides small counts by small scales (v / k, capped at 1 where it caps): the kernels read
# each quotient, computed once in float64 as the observer does, from a table (a division costs more
# than a whole feature otherwise): fr[k * W + v] = v / k for k, v <= 45, then cash / MONEY_SCALE.
W = D + 1
CASH_FRACTIONS = W * W


def fractions(money_scale: int) -> np.ndarray:
    """The quotient table of `_observe`, as float32 (the observation's rounding of the float64 quotient)."""
    v = np.arange(W, dtype=np.float64)
    small = np.zeros((W, W))
    small[1:] = v[None, :] / v[1:, None]
    cash = np.arange(money_scale + 1, dtype=np.float64) / money_scale
    return np.concatenate([small.ravel(), cash]).astype(np.float32)


@_kernel
def _observe(s, tab, fr, me, o, contracts, corruption, rel):  # pragma: no cover - compiled
    """Seat `me`'s observation, written into the float32 row `o` (zeroed first); `fr` holds the
    observer's quotients (`fractions()`); `contracts`, `corruption` and `rel` are scratch arrays."""
    money = tab[G_MONEY_SCALE]
    n = s[N]
    for q in range(n):  # each seat relative to me, the Outsider at P (no modulo: a division each)
        rel[q] = q - me if q >= me else q - me + n
    rel[n] = P
    o[:] = 0
    phase = s[PHASE]
    o[tab[G_OBS_AT + O_PHASE] + phase] = 1.0
    o[tab[G_OBS_AT + O_YEAR] + s[TURN]] = 1.0
    o[tab[G_OBS_AT + O_NUM_PLAYERS] + n - 3] = 1.0
    o[tab[G_OBS_AT + O_FIRST] + rel[s[FIRST]]] = 1.0
    if s[ACTOR] >= 0:
        o[tab[G_OBS_AT + O_TO_ACT] + rel[s[ACTOR]]] = 1.0
    if s[MAYOR_SEAT] >= 0:
        o[tab[G_OBS_AT + O_MAYOR] + rel[s[MAYOR_SEAT]]] = 1.0
    o[tab[G_OBS_AT + O_SUPPLY]] = fr[8 * W + min(s[CITY_LEFT], 8)]
    o[tab[G_OBS_AT + O_SUPPLY] + 1] = fr[4 * W + min(s[FEST_LEFT], 4)]
    o[tab[G_OBS_AT + O_CASH]] = fr[CASH_FRACTIONS + min(s[CASH + me], money)]
    # counts are written whether 0 or not: fewer branches to mispredict, and 0 reads as 0.0
    hand = tab[G_OBS_AT + O_HAND]
    for t in range(T):
        o[hand + t] = fr[tab[G_CARD_COUNTS + t] * W + s[HAND + T * me + t]]
    if phase == VOTE and s[VOTES + me] >= 0:
        v = s[VOTES + me]
        o[tab[G_OBS_AT + O_VOTE] + rel[v]] = 1.0
    known = tab[G_OBS_AT + O_KNOWN] - T
    for r in range(1, n):
        q = me + r - n if me + r >= n else me + r
        for t in range(T):
            o[known + T * r + t] = fr[tab[G_CARD_COUNTS + t] * W + s[KNOWN + (me * P + q) * T + t]]
    contracts[:] = 0
    corruption[:] = 0
    board, crews = tab[G_OBS_AT + O_CONTRACTS], tab[G_OBS_AT + O_WORKERS]
    for c in range(C):
        q = s[OWNER + c]
        if q < 0:
            continue
        cor = s[CORRUPTION + c]
        contracts[q] += 1
        corruption[q] += cor
        base = board + CF * c
        o[base] = 1.0
        o[base + 1 + rel[q]] = 1.0
        o[base + 8] = fr[20 * W + min(cor, 20)]
        o[base + 9] = fr[8 * W + min(s[CITY + c], 8)]
        o[base + 10] = s[FESTIVAL + c]  # 0 or 1
        crew = 0
        for q2 in range(n):
            count = s[WORKERS + P * c + q2]
            crew += count
            o[crews + P * c + rel[q2]] = fr[5 * W + count]
        o[base + 11] = fr[6 * W + min(crew, 6)]
    seats, ballots = tab[G_OBS_AT + O_SEATS], tab[G_OBS_AT + O_BALLOTS]
    voting = phase == VOTE
    for r in range(n):
        q = me + r - n if me + r >= n else me + r
        f = seats + NF * r
        cash, unseen_in, unseen_out = _cash_view(s, me, q)
        cards = _hand_size(s, q)
        o[f] = 1.0
        o[f + 1] = fr[5 * W + contracts[q]]
        o[f + 2] = fr[30 * W + min(corruption[q], 30)]
        o[f + 3] = fr[5 * W + s[TO_PLACE + q]]
        o[f + 4] = s[PASSED + q]  # flags are 0 or 1
        o[f + 5] = voting and s[VOTES + q] >= 0
        o[f + 6] = fr[7 * W + s[KEYS + q]]
        o[f + 7] = fr[10 * W + min(cards, 10)]
        o[f + 8] = s[MERDE + q]
        o[f + 9] = s[RED + q]
        o[f + 10] = fr[20 * W + min(s[LOGOS + q], 20)]
        o[f + 11] = s[PAID_PERCENT + q]
        o[f + 12] = fr[3 * W + s[GIFTS_LEFT + q]]
        o[f + 13] = 0.0 if cash <= 0 else fr[CASH_FRACTIONS + min(cash, money)]
        o[f + 14] = fr[5 * W + min(unseen_in, 5)]
        o[f + 15] = fr[5 * W + min(unseen_out, 5)]
        o[f + 16] = fr[n * W + s[LAST_VOTES + q]]
        o[f + 17] = s[LAST_MAYOR] == q
        if phase == PAY:
            for j in range(s[PAY_POS], s[PAY_LEN]):
                if s[PAYMENTS + j] == q:
                    o[f + 18] = 1.0
        v = s[LAST_BALLOTS + q]
        if v >= 0:
            o[ballots + (P + 1) * r + rel[v]] = 1.0
    o[tab[G_OBS_AT + O_TABLE]] = fr[C * W + s[STACK_LEN]]
    o[tab[G_OBS_AT + O_TABLE] + 1] = fr[D * W + min(s[DECK_LEN] - s[DECK_POS], D)]
    o[tab[G_OBS_AT + O_TABLE] + 2] = s[CUT_USED]
    o[tab[G_OBS_AT + O_TABLE] + 3] = s[INVESTIGATED]
    pile = tab[G_OBS_AT + O_DISCARD]
    for t in range(T):
        o[pile + t] = fr[tab[G_CARD_COUNTS + t] * W + s[DISCARD + t]]


@_kernel
def _cash_view(s, me, q):  # pragma: no cover - compiled
    """What `me` knows of q's cash (money.view_of): estimate, unseen gifts in, unseen gifts out."""
    if me == q:
        return s[CASH + q], 0, 0
    n = s[N]
    cnt = GIFT_CNT + 2 * P * q
    amt = GIFT_AMT + 2 * P * q
    estimate = s[PUB_CASH + q] + s[amt + me] - s[amt + P + me]
    unseen_in = -s[cnt + me]
    unseen_out = -s[cnt + P + me]
    for o in range(n):
        unseen_in += s[cnt + o]
        unseen_out += s[cnt + P + o]
    return estimate, unseen_in, unseen_out


# --- the batch kernels -----------------------------------------------------------------------------
@_kernel
def _write_decision(st, tab, fr, i, obs, mask, cur, scratch):  # pragma: no cover - compiled
    s = st[i]
    cur[i] = s[ACTOR]
    _observe(s, tab, fr, s[ACTOR], obs[i], scratch[0], scratch[1], scratch[2])
    _legal_mask(s, tab, mask[i])


@_kernel
def _start_kernel(st, rng, games, counts, seeds, tab, fr, obs, mask, cur):  # pragma: no cover - compiled
    scratch = np.zeros((3, P + 1), np.int64)
    dealt = np.zeros(C + D + 1, np.int64)
    for j in range(len(games)):
        i = games[j]
        _deal(tab, seeds[j], counts[j], dealt, rng[i])  # the row plays on with the deal's Generator
        _new_game(st[i], tab, counts[j], dealt)
        _write_decision(st, tab, fr, i, obs, mask, cur, scratch)


@_kernel
def _step_kernel(st, rng, actions, tab, fr, obs, mask, cur, rewards, terminated, scores,
                 ranks):  # pragma: no cover - compiled
    keys = np.zeros(P, np.int64)
    final = np.zeros(P, np.int64)
    scratch = np.zeros((3, P + 1), np.int64)
    for i in range(len(actions)):
        s = st[i]
        rewards[i, :] = 0
        terminated[i] = False
        if actions[i] < 0:  # WAIT: this game does not move
            continue
        _apply(s, tab, rng, i, actions[i])
        scores[i, :] = 0
        ranks[i, :] = 0
        if s[PHASE] != OVER:
            terminated[i] = False
            _write_decision(st, tab, fr, i, obs, mask, cur, scratch)
            continue
        _write_end(s, tab, keys, final, rewards[i], scores[i], ranks[i])
        terminated[i] = True


@_kernel
def _write_end(s, tab, keys, final, rewards, scores, ranks):  # pragma: no cover - compiled
    """The scores and outcome of the game that ended in the row s (keys, final: scratch)."""
    n = s[N]
    for p in range(n):
        final[p] = s[CASH + p] + tab[G_KEYS_VALUE + s[KEYS + p]]
        keys[p] = final[p]  # rules.final_keys: the score alone
        scores[p] = final[p]
    write_outcome(keys, final, n, tab[G_REWARD_CODE], rewards, ranks)


@_kernel
def _playout_kernel(st, rng, rows, g, tab, mask, rewards, scores, ranks):  # pragma: no cover - compiled
    """Each game of `rows` played to its end by moves uniform over its mask row (`pick_legal`) drawn
    from g, the dice from the row's own generator, and its outcome written. Only the masks are
    written on the way: an observation is written whole, so the next decision (a new deal) needs
    none of the skipped ones."""
    keys = np.zeros(P, np.int64)
    final = np.zeros(P, np.int64)
    for j in range(len(rows)):
        i = rows[j]
        s = st[i]
        while True:
            _apply(s, tab, rng, i, pick_legal(g, mask[i]))
            if s[PHASE] == OVER:
                break
            _legal_mask(s, tab, mask[i])
        scores[i, :] = 0
        ranks[i, :] = 0
        _write_end(s, tab, keys, final, rewards[i], scores[i], ranks[i])


# --- determinizations: a seat's information set redrawn in the rows (as construction/hidden.py) --------
@_kernel
def _resample_kernel(source, stack_hidden, seeds, me, st, chance, tab, fr, obs, mask,
                     cur):  # pragma: no cover - compiled
    """Rows 0..len(seeds)-1: the game `source` with all that seat `me` cannot see redrawn from
    `default_rng(seeds[k])` in `resample_hidden`'s order of draws (the unseen top of the contract stack,
    the cards beyond what `me` knows each seat holds, the votes cast in a running election), that
    Generator then carrying the row's dice on; their decisions written. Secret gift amounts are not
    redrawn here (`can_resample`). A draw reads counts and the seat's certainties, never which card or
    contract is where."""
    n = source[N]
    scratch = np.zeros((3, P + 1), np.int64)
    unseen = np.empty(C, np.int64)
    cards = np.empty(D, np.int64)
    dealt = np.empty(D, np.int64)
    perm = np.empty(max(C, D), np.int64)
    for i in range(seeds.shape[0]):
        s = st[i]
        s[:] = source
        g = chance[i]
        numpy_rng.seed_generator(g, seeds[i])
        if stack_hidden:  # the unseen contracts, sorted, in the order of one permutation
            for j in range(stack_hidden):
                unseen[j] = s[STACK + j]
            unseen[:stack_hidden].sort()
            numpy_rng.permutation_into(g, perm[:stack_hidden])
            for j in range(stack_hidden):
                s[STACK + j] = unseen[perm[j]]
        size = 0  # the cards `me` cannot place, by type, in one permutation
        for ty in range(T):
            left = tab[G_CARD_COUNTS + ty] - s[HAND + me * T + ty] - s[DISCARD + ty]
            for q in range(n):
                if q != me:
                    left -= s[KNOWN + (me * P + q) * T + ty]
            for _ in range(left):
                cards[size] = ty
                size += 1
        numpy_rng.permutation_into(g, perm[:size])
        for j in range(size):
            dealt[j] = cards[perm[j]]
        for q in range(n):  # each seat's known cards, then its other cards off the end of the deal
            if q == me:
                continue
            held = 0
            for ty in range(T):
                held += s[HAND + q * T + ty]
                s[HAND + q * T + ty] = s[KNOWN + (me * P + q) * T + ty]
                held -= s[HAND + q * T + ty]
            for _ in range(held):
                size -= 1
                s[HAND + q * T + dealt[size]] += 1
        for j in range(D):  # the investigation deck: the rest of the deal
            s[DECK + j] = dealt[j] if j < size else 0
        s[DECK_LEN] = size
        for o in range(n):  # the other seats' certainties, from me's information, hold in the new hands
            if o != me:
                for q in range(n):
                    for ty in range(T):
                        at = KNOWN + (o * P + q) * T + ty
                        if q != me and q != o:  # o's private view of a third hand: me's own certainty
                            s[at] = s[KNOWN + (me * P + q) * T + ty]
                        s[at] = min(s[at], s[HAND + q * T + ty])
        if s[PHASE] == VOTE:  # the votes cast so far are secret
            for q in range(n):
                if q != me and s[VOTES + q] >= 0:
                    s[VOTES + q] = numpy_rng.integers(g, n + 1)
        _write_decision(st, tab, fr, i, obs, mask, cur, scratch)


# --- privileged features (a privileged critic's input, never a seat's view) ------------------------------
# seats counted from the one on turn: what the state holds and the seat on turn cannot see, scaled as
# the observation scales its own hand and cash (no seat learns the order of the unseen contracts or the deck)
PRIVILEGED = Layout()
PRIVILEGED.add("hands", (P, T))  # each seat's investigation cards per type / the type's count
PRIVILEGED.add("cash", P)  # each seat's cash / MONEY_SCALE, capped at 1
PRIVILEGED.add("votes", (P, P + 1))  # the ballots cast in the running election: a relative seat, the Outsider
PV_HANDS, PV_CASH, PV_VOTES = PRIVILEGED.starts(("hands", "cash", "votes"))
CARD_COUNTS = np.array(tables.CARD_COUNTS, np.float64)


# --- the engine --------------------------------------------------------------------------------------
class ConstructionEngine(CompiledEngine):
    """B games of Construction & Corruption; game i's chance, deal and dice, is
    `np.random.default_rng(engine.game_seeds[i])`."""

    rules_class = ConstructionRules
    privileged_size = PRIVILEGED.size

    def _allocate(self) -> None:
        self._game = _game_table(self.config, self.reward_code)
        self._fractions = fractions(int(observer.MONEY_SCALE))
        self._rows = np.zeros((self.num_envs, ROW_SIZE), np.int16)
        self._chance = np.zeros((self.num_envs, numpy_rng.GENERATOR_SIZE), np.uint64)

    def _start(self, games: np.ndarray) -> None:
        counts = self._deal_counts(games)
        seeds = self._deal_seeds(games)
        b = self._batch
        _start_kernel(self._rows, self._chance, games, counts, seeds, self._game, self._fractions,
                      b.observation, b.action_mask, b.current_player)

    def _advance(self, actions: np.ndarray) -> None:
        b = self._batch
        _step_kernel(self._rows, self._chance, actions, self._game, self._fractions, b.observation,
                     b.action_mask, b.current_player, b.rewards, b.terminated, b.scores, b.ranks)
        ended = np.flatnonzero(b.terminated)
        if ended.size:
            self._start(ended)

    def _playouts(self, rows: np.ndarray, generator: np.ndarray) -> None:
        b = self._batch
        _playout_kernel(self._rows, self._chance, rows, generator, self._game, b.action_mask, b.rewards,
                        b.scores, b.ranks)

    def write_privileged(self, out: np.ndarray, rows: np.ndarray) -> None:
        """Every seat's investigation cards and cash and the ballots of a running election
        (`PRIVILEGED`), seats counted from the one on turn as observations count them."""
        b, s = self._batch, self._rows
        n = b.num_players[rows, None].astype(np.int64)
        me = b.current_player[rows, None].astype(np.int64)
        seats = (me + np.arange(P)) % n  # (R, P): the seat k places after the one on turn
        present = np.arange(P) < n
        hands = np.take_along_axis(s[rows, HAND:HAND + P * T].reshape(-1, P, T), seats[:, :, None], axis=1)
        out[:, PV_HANDS:PV_CASH] = (hands * present[:, :, None] / CARD_COUNTS).reshape(len(rows), P * T)
        cash = np.take_along_axis(s[rows, CASH:CASH + P], seats, axis=1)
        out[:, PV_CASH:PV_VOTES] = np.minimum(cash / observer.MONEY_SCALE, 1.0) * present
        out[:, PV_VOTES:] = 0
        votes = np.take_along_axis(s[rows, VOTES:VOTES + P], seats, axis=1).astype(np.int64)
        r, k = np.nonzero((votes >= 0) & present & (s[rows, PHASE, None] == VOTE))
        v, m, count = votes[r, k], me[r, 0], n[r, 0]
        out[r, PV_VOTES + k * (P + 1) + np.where(v == count, P, (v - m) % count)] = 1.0

    def load(self, row: int, state: State) -> None:
        """Play on from the AEC game `state` (a position a rule test built, a search's determinized
        state) in `row`, its chance drawn on from the state of `state.rng` (numpy's PCG64): the row
        and a copy of `state` roll the same dice."""
        if not self._started:
            raise NotResetError("load() fills a row of a running batch: call reset() first")
        if state.n not in self.player_counts:
            raise ValueError(f"a {state.n}-player game does not fit this engine of {self.player_counts} "
                             "players: make it with num_players including that count")
        if state.phase == OVER:
            raise ValueError("the game is over: load a game that still has a decision to make")
        self._chance[row] = pcg64_words(state.rng)
        self._rows[row] = _row_of(state)
        self.game_seeds[row] = -1  # dealt elsewhere, not from a seed of this engine
        b = self._batch
        b.num_players[row] = state.n
        _write_decision(self._rows, self._game, self._fractions, row, b.observation, b.action_mask,
                        b.current_player, np.zeros((3, P + 1), np.int64))

    def can_resample(self, state: State, player: int) -> bool:
        """Whether `load_resampled` draws `player`'s determinizations of `state`: not while the amount of
        a gift between two other seats is secret (the rules' search over the money ledger draws it).
        What gifts were made is public, so the answer reads nothing the seat cannot see."""
        return not self.config["secret_gifts"] or not any(
            kind == GIFT and a != player and b != player for kind, a, b, _ in state.ledger)

    def load_resampled(self, state: State, player: int, seeds: np.ndarray) -> None:
        """Rows 0..len(seeds)-1 play on from `player`'s determinizations of `state` (one `can_resample`
        allows): row k holds the state `rules.resample_hidden(state, player,
        np.random.default_rng(seeds[k]))` draws, that Generator rolling its dice on, drawn in one
        compiled pass from one copy of `state` (`_resample_kernel`). `game_seeds` of those rows become
        -1, as with `load`."""
        seeds = np.asarray(seeds, np.int64)
        if not self._started:
            raise NotResetError("load_resampled() fills rows of a running batch: call reset() first")
        if state.n not in self.player_counts or state.phase == OVER or not 0 <= player < state.n \
                or len(seeds) > self.num_envs or not self.can_resample(state, player):
            raise ValueError(f"player {player} of a {state.n}-player game in phase {state.phase}, "
                             f"{len(seeds)} seeds for {self.num_envs} rows: give a game this engine "
                             "plays that is not over, a seat of it, at most a seed a row, and a state "
                             "can_resample(state, player) allows")
        b = self._batch
        _resample_kernel(_row_of(state), int(state.stack_hidden), seeds, int(player), self._rows,
                         self._chance, self._game, self._fractions, b.observation, b.action_mask,
                         b.current_player)
        b.num_players[:len(seeds)] = state.n
        self.game_seeds[:len(seeds)] = -1


def _row_of(s: State) -> np.ndarray:
    """The engine row of an AEC state (ValueError when a figure does not fit the row's int16)."""
    n = s.n
    r = np.zeros(ROW_SIZE, np.int64)
    r[VOTES: VOTES + P] = -1
    r[LAST_BALLOTS: LAST_BALLOTS + P] = -1
    for offset, value in ((N, n), (TURN, s.turn), (PHASE, s.phase), (ACTOR, s.actor), (FIRST, s.first),
                          (MAYOR_SEAT, s.mayor), (CITY_LEFT, s.city_left), (FEST_LEFT, s.fest_left),
                          (CUT_USED, s.cut_used), (PASSES, s.passes), (INVESTIGATED, s.investigated),
                          (LAST_MAYOR, s.last_mayor), (STACK_LEN, len(s.stack)), (DECK_LEN, len(s.deck)),
                          (PAY_LEN, len(s.payments_left))):
        r[offset] = int(value)
    for offset, values in ((STACK, s.stack), (OWNER, s.owner), (CORRUPTION, s.corruption), (CITY, s.city),
                           (FESTIVAL, s.festival), (DECK, s.deck), (DISCARD, s.discard),
                           (PAYMENTS, s.payments_left), (LAST_VOTES, s.last_votes), (CASH, s.cash),
                           (KEYS, s.keys), (TO_PLACE, s.to_place), (PASSED, s.passed),
                           (GIFTS_LEFT, s.gifts_left), (VOTES, s.votes), (MERDE, s.merde), (RED, s.red),
                           (LOGOS, s.logos), (PAID_PERCENT, s.paid_percent), (LAST_BALLOTS, s.last_ballots),
                           (PUB_CASH, s.pub_cash)):
        r[offset: offset + len(values)] = [int(v) for v in values]
    for c in range(C):
        r[WORKERS + P * c: WORKERS + P * c + n] = s.workers[c]
    for p in range(n):
        r[HAND + T * p: HAND + T * p + T] = s.hand[p]
        for q in range(n):
            r[KNOWN + (p * P + q) * T: KNOWN + (p * P + q) * T + T] = s.known[p][q]
        for o in range(n):  # the AEC state keeps "given to o" at n + o, the row at P + o
            for mine, theirs in ((GIFT_CNT, s.gift_cnt), (GIFT_AMT, s.gift_amt)):
                r[mine + 2 * P * p + o] = theirs[p][o]
                r[mine + 2 * P * p + P + o] = theirs[p][n + o]
    if np.abs(r).max() > np.iinfo(np.int16).max:
        raise ValueError("this state holds a figure beyond 32767 (cash?): the engine's rows are int16")
    return r.astype(np.int16)
