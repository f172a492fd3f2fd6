"""A rule-based Construction & Corruption bot, written like a strategy guide.

It reads only its observation (through the env's observation layout), its action mask and the static
config, so it can sit in any seat like a trained policy.

- Contracts pay $100k a turn but pile up Corruption. Complete your own contract once it carries 3 or
  more Corruption (it sheds the risk and draws an investigation card); otherwise keep it.
- Put spare workers where they complete something: your own heavy contracts first, then the leader's
  contracts (the leader loses the income). Never leave a worker idle: vacation pay costs $20k.
- Never give money away. Vote for yourself (a Key to the City is worth $100k or more), unless you carry
  the most Corruption, and a lot of it: then back an ally (who voted for you last time) to avoid an
  investigation.
- As mayor play Big Papa, shield your own light contracts with festivals, and send city workers to
  complete your heavy contracts or the leader's.
- In an investigation hit the leader: Deep Merde, Snitch and Revenue Quebec on the leaders, Spic 'n
  Span on your heaviest contract, Cut & Paste on the fattest hand; Red Alert only when the leader is
  far more corrupt than you. After the roll pay whichever is cheaper, the fixed amount on a tie.
- To measure it against 3 random bots: python -m training.evaluate --game construction --policy heuristic --baselines random

The 'expert' bot plays the same guide with some of its numbers changed (`EXPERT`): it completes its
own contracts whatever their Corruption, and no opponent's but in the last year, when it keeps its
own for the final pay and completes the others'; it keeps Spic 'n Span for a contract carrying 3
Corruption and never plays Red Alert. Found by trying one rule at a time against three heuristic bots,
it wins about 0.44 of 4-player games against them, and one heuristic bot against three experts almost
none (docs/results.md).

The 'raider' bot (`RAIDER`) is the expert for a table of search bots, which keep their contracts and elect
mayors: before the last year it keeps its own contracts, completes opponents' (the leader's first) and
puts a spare worker on an opponent's contract rather than pay its vacation. Against three heuristic bots
it loses; against three ismcts:1600 bots it wins more than the expert (docs/results.md). The 'adaptive'
bot (`AdaptiveAgent`) plays the expert until an opponent does in public what no rule bot does (a gift, a
vote for another seat, a Key, a pass with workers left), then the raider.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..core.agents import Agent, legal_counts, scaled_back
from ..core.jit import njit
from . import codec
from .observer import CONTRACT_FEATURES, MONEY_SCALE, SEAT_FEATURES
from .state import CARDS, MAYOR, OVER, PAY, PLACE, VOTE
from .tables import COMPLETION_WORKERS, LOGO_COST, MAX_PLAYERS, NUM_CONTRACTS, NUM_TURNS

P, C = MAX_PLAYERS, NUM_CONTRACTS
(CONTRACTS, CORRUPTION, TO_PLACE, PASSED, KEYS, HAND_SIZE, LOGOS, GIFTS_LEFT, CASH_KNOWN, UNSEEN_IN,
 UNSEEN_OUT) = (SEAT_FEATURES.index(name) for name in (
    "contracts", "corruption", "to_place", "passed", "keys", "hand_size", "logos", "gifts_left", "cash_known",
    "unseen_gifts_in", "unseen_gifts_out"))
# the offsets {a, b} -> their place in codec.PAIRS, as an array the kernels index
PAIR_INDEX = np.full((P, P), -1)
for _i, (_a, _b) in enumerate(codec.PAIRS):
    PAIR_INDEX[_a, _b] = PAIR_INDEX[_b, _a] = _i
LOGO_COSTS = np.array(LOGO_COST)
EXPOSED = 8  # Corruption on all my contracts at which an investigation costs me more than a lost Key


class Style(NamedTuple):
    """The numbers a rule bot plays the guide with."""

    heavy: int  # Corruption at which an own contract is better completed than kept
    leader_completion: float  # a placement's score for completing a contract of the leader
    other_completion: float  # a placement's score for completing a contract of an opponent not leading
    red_alert_ratio: float  # Red Alert when the leader carries this many times my Corruption
    spic_min: int  # the least Corruption on my contract worth Spic 'n Span's 4
    final_year: bool  # in the last year keep my contracts (the final pay) and complete the others'
    keep_own: bool  # before the last year: no worker on my own contracts; complete opponents', spare ones on theirs


HEURISTIC = Style(heavy=3, leader_completion=8.0, other_completion=4.0, red_alert_ratio=2.0, spic_min=0,
                  final_year=False, keep_own=False)
# a kept contract's Corruption costs more than its income, and a completed contract sheds its owner's
# Corruption and hands the owner an investigation card: the expert completes its own at once and an
# opponent's only in the last year, when completion costs the owner the final pay and sheds Corruption
# no investigation will roll; it keeps Spic 'n Span for a contract the other cards have loaded
EXPERT = Style(heavy=0, leader_completion=0.0, other_completion=0.0, red_alert_ratio=np.inf, spic_min=3,
               final_year=True, keep_own=False)
# where other seats keep their contracts and elect mayors (search bots do), a contract is worth more kept:
# the raider keeps its own, completes opponents' (the leader's first, the fewest workers short first) and
# puts a spare worker on an opponent's contract (the leader's, the fullest) rather than pay its vacation;
# in the last year and in every other phase it plays as the expert
RAIDER = EXPERT._replace(leader_completion=3.0, other_completion=2.0, keep_own=True)
VOTE_COLUMNS = P + 1  # a ballot row of the observation: the candidate seats, then the Outsider


class Pieces(NamedTuple):
    """Where the pieces the rules read start in an observation (observer.py lays them out)."""

    phase: int
    year: int
    my_cash: int
    seats: int
    contracts: int
    last_ballots: int


class Board(NamedTuple):
    """The pieces of one observation the strategy reads (seats relative to me): per contract, on the board
    or not, its owner, Corruption, festival and crew (workers and city workers); per seat, its features."""

    on: np.ndarray
    owner: np.ndarray
    corruption: np.ndarray
    festival: np.ndarray
    crew: np.ndarray
    seats: np.ndarray


# The rules, one row at a time, in one compiled loop over the rows. The observation is float32: values
# are scaled back and summed in float32, as numpy computed them.
@njit
def decide_rows(observations: np.ndarray, masks: np.ndarray, at: Pieces, n: int, threshold: int,
                style: Style) -> np.ndarray:
    actions = np.empty(len(masks), np.int64)
    for r in range(len(masks)):
        actions[r] = decide(observations[r], masks[r], at, n, threshold, style)
    return actions


@njit
def decide_adaptive_rows(observations: np.ndarray, masks: np.ndarray, at: Pieces, n: int, threshold: int,
                         calm: Style, raid: Style) -> np.ndarray:
    """Each row by `raid` where its table plays as no rule bot does (`plays_unlike_rule_bots`), else `calm`."""
    actions = np.empty(len(masks), np.int64)
    for r in range(len(masks)):
        style = raid if plays_unlike_rule_bots(observations[r], at, n) else calm
        actions[r] = decide(observations[r], masks[r], at, n, threshold, style)
    return actions


@njit
def plays_unlike_rule_bots(obs: np.ndarray, at: Pieces, n: int) -> bool:
    """Whether an opponent has done in public what the library's rule bots never do: held a Key to the City
    (a mayor was elected: rule bots all vote for themselves, a tie), voted for another seat at the last
    election, given a gift (this phase, or unseen since its cash was last shown) or, placing workers, passed
    with workers left. Search bots do all four from the first year."""
    seats = obs[at.seats:at.seats + P * len(SEAT_FEATURES)].reshape((P, len(SEAT_FEATURES)))
    placing = np.argmax(obs[at.phase:at.phase + OVER + 1]) == PLACE
    for k in range(1, n):
        row = seats[k]
        if row[KEYS] > 0 or row[UNSEEN_IN] > 0 or row[UNSEEN_OUT] > 0 or row[GIFTS_LEFT] < seats[0, GIFTS_LEFT]:
            return True
        if placing and row[PASSED] > 0.5 and row[TO_PLACE] > 0:
            return True
        ballot = obs[at.last_ballots + k * VOTE_COLUMNS:at.last_ballots + (k + 1) * VOTE_COLUMNS]
        for candidate in range(VOTE_COLUMNS):
            if ballot[candidate] > 0.5 and candidate != k:
                return True
    return False


@njit
def decide(obs: np.ndarray, mask: np.ndarray, at: Pieces, n: int, threshold: int, style: Style) -> int:
    """The phase's choice; without one, or when the mask forbids it: pass, else the first legal action."""
    phase = np.argmax(obs[at.phase:at.phase + OVER + 1])
    v = read_board(obs, at)
    choice = -1  # none
    if phase == PLACE:
        choice = place(v, mask, n, threshold, style, np.argmax(obs[at.year:at.year + NUM_TURNS + 1]))
    elif phase == VOTE:
        choice = vote(v, obs, at, n)
    elif phase == MAYOR:
        choice = mayor(v, mask, n, threshold, style)
    elif phase == CARDS:
        choice = cards(v, mask, n, style)
    elif phase == PAY:
        choice = pay(v, obs, at)
    if choice < 0 or not mask[choice]:
        choice = codec.PASS if mask[codec.PASS] else np.flatnonzero(mask)[0]
    return choice


@njit
def read_board(obs: np.ndarray, at: Pieces) -> Board:
    """The Board of one observation."""
    on, festival = np.zeros(C, np.bool_), np.zeros(C, np.bool_)
    owner, corruption, crew = np.zeros(C, np.int64), np.zeros(C, np.int64), np.zeros(C, np.int64)
    for c in range(C):
        contract = obs[at.contracts + c * CONTRACT_FEATURES:at.contracts + (c + 1) * CONTRACT_FEATURES]
        on[c], festival[c] = contract[0] > 0.5, contract[10] > 0.5
        owner[c] = np.argmax(contract[1:8])
        corruption[c] = scaled_back(contract[8], 20)
        crew[c] = scaled_back(contract[11], 6) + scaled_back(contract[9], 8)
    seats = obs[at.seats:at.seats + P * len(SEAT_FEATURES)].copy().reshape((P, len(SEAT_FEATURES)))
    return Board(on, owner, corruption, festival, crew, seats)


@njit
def wealth(seats: np.ndarray, k: int) -> float:
    """What seat k is known to own: cash, Keys to the City and contracts."""
    row = seats[k]
    keys = scaled_back(row[KEYS], 7)
    return (row[CASH_KNOWN] * np.float32(MONEY_SCALE) + np.float32(10 * keys * (keys + 1) / 2)
            + np.float32(10 * 5) * row[CONTRACTS])


@njit
def ranking(seats: np.ndarray, n: int) -> np.ndarray:
    """Opponents (relative seats 1..n-1), richest first (ties: the nearest seat first)."""
    worth = np.empty(n - 1, np.float32)
    for k in range(1, n):
        worth[k - 1] = wealth(seats, k)
    return np.argsort(-worth, kind="mergesort") + 1


@njit
def leader(seats: np.ndarray, n: int) -> int:
    return ranking(seats, n)[0]


# --- phases ---------------------------------------------------------------------------------------
@njit
def place(v: Board, mask: np.ndarray, n: int, threshold: int, style: Style, year: int) -> int:
    if not mask[codec.PLACE:codec.PLACE + C].any():
        return codec.PASS
    left = scaled_back(v.seats[0, TO_PLACE], 5)
    best, best_score = -1, -np.inf
    top = leader(v.seats, n)
    final = style.final_year and year == NUM_TURNS - 1
    raid = style.keep_own and not final
    for c in np.flatnonzero(v.on):
        need = threshold - v.crew[c]
        completes = 0 < need <= left and not v.festival[c]
        if raid:
            if v.owner[c] == 0 or v.festival[c] or not mask[codec.PLACE + c]:
                continue
            score = (style.leader_completion if v.owner[c] == top else style.other_completion) - need
            if not (completes and score > 0):  # a spare worker: below every completion, the leader's, the fullest
                score = -10.0 + (1.0 if v.owner[c] == top else 0.0) + 0.1 * v.crew[c]
        elif v.owner[c] == 0 and final:
            score = -np.inf if need <= 1 else 0.1  # never the worker that completes it
        elif v.owner[c] == 0:
            score = (10.0 + v.corruption[c]) if completes and v.corruption[c] >= style.heavy else 1.0
        elif final and completes:
            score = (12.0 if v.owner[c] == top else 9.0) - need
        elif v.owner[c] == top:
            score = (style.leader_completion - need) if completes else 0.5
        else:
            score = (style.other_completion - need) if completes else 0.2
        if score > best_score:
            best, best_score = codec.PLACE + c, score
    return codec.PASS if best < 0 else best


@njit
def vote(v: Board, obs: np.ndarray, at: Pieces, n: int) -> int:
    """Myself; but when I carry the most Corruption, and a lot of it, an investigation hurts me most,
    so I back an ally (an opponent who voted for me last time) to get a mayor elected."""
    risk = v.seats[:, CORRUPTION]
    if risk[0] * np.float32(30) >= EXPOSED and risk[0] >= risk[1:n].max():
        for k in range(1, n):  # last_ballots [voter, candidate]
            if obs[at.last_ballots + k * (P + 1)] > 0.5:
                return codec.VOTE + k
    return codec.VOTE


@njit
def mayor(v: Board, mask: np.ndarray, n: int, threshold: int, style: Style) -> int:
    if mask[codec.BIG_PAPA]:
        return codec.BIG_PAPA
    top = leader(v.seats, n)
    if mask[codec.FESTIVAL:codec.FESTIVAL + C].any():
        # shield my light contracts that are about to be completed (the fullest, the first of ties)
        shield = -1
        for c in np.flatnonzero(v.on):
            if (v.owner[c] == 0 and not v.festival[c] and v.corruption[c] < style.heavy and v.crew[c] >= threshold
                    and (shield < 0 or v.crew[c] > v.crew[shield])):
                shield = c
        if shield >= 0:
            return codec.FESTIVAL + shield
    if mask[codec.CITY:codec.CITY + C].any():
        # my heavy contracts (the emptiest first), then the leader's, then the others' (the fullest first);
        # ties: the last contract
        target, best_rank, best_crew = -1, 0, 0
        for c in np.flatnonzero(v.on):
            if v.festival[c] or v.crew[c] >= threshold:
                continue
            if v.owner[c] == 0 and v.corruption[c] >= style.heavy:
                rank, crew = 3, -v.crew[c]
            elif v.owner[c] == top:
                rank, crew = 2, v.crew[c]
            elif v.owner[c] != 0:
                rank, crew = 1, v.crew[c]
            else:
                continue
            if target < 0 or rank > best_rank or (rank == best_rank and crew >= best_crew):
                target, best_rank, best_crew = c, rank, crew
        if target >= 0:
            return codec.CITY + target
    return codec.PASS


@njit
def cards(v: Board, mask: np.ndarray, n: int, style: Style) -> int:
    order = ranking(v.seats, n)
    top = order[0]
    second = order[1] if len(order) > 1 else order[0]
    merde = codec.DEEP_MERDE + top - 1
    if mask[merde]:
        return merde
    if top != second:
        pair = PAIR_INDEX[top, second]
        if mask[codec.SNITCH + pair]:
            return codec.SNITCH + pair
        if mask[codec.REVENUE_QUEBEC + pair]:
            return codec.REVENUE_QUEBEC + pair
    spic = -1  # my most corrupt contract, the first of ties
    for c in np.flatnonzero(v.on):
        if (v.owner[c] == 0 and v.corruption[c] >= style.spic_min and mask[codec.SPIC_N_SPAN + c]
                and (spic < 0 or v.corruption[c] > v.corruption[spic])):
            spic = c
    if spic >= 0:
        return codec.SPIC_N_SPAN + spic
    cut = -1  # the fattest hand, the nearest seat of ties
    for k in range(1, n):
        if mask[codec.CUT_AND_PASTE + k - 1] and (cut < 0 or v.seats[k, HAND_SIZE] > v.seats[cut, HAND_SIZE]):
            cut = k
    if cut >= 0:
        return codec.CUT_AND_PASTE + cut - 1
    red = codec.RED_ALERT + top - 1
    if mask[red] and v.seats[top, CORRUPTION] > np.float32(style.red_alert_ratio) * v.seats[0, CORRUPTION]:
        return red
    return codec.PASS


@njit
def pay(v: Board, obs: np.ndarray, at: Pieces) -> int:
    year = np.argmax(obs[at.year:at.year + NUM_TURNS + 1])
    logos = scaled_back(v.seats[0, LOGOS], 20)
    cash = int(np.rint(np.float64(obs[at.my_cash]) * MONEY_SCALE))
    fixed = logos * LOGO_COSTS[min(year, len(LOGO_COSTS) - 1)]
    percent = min(cash, cash * logos // 10)
    return codec.PAY_PERCENT if percent < fixed else codec.PAY_FIXED


class HeuristicAgent(Agent):
    """Plays Construction & Corruption from its observation and mask only."""

    style = HEURISTIC

    def __init__(self, env: Any, seed: int | None = None) -> None:
        env = env.unwrapped
        self.at = Pieces(*env.observation_layout.starts(Pieces._fields))
        self.n = env.config["num_players"]
        self.threshold = COMPLETION_WORKERS[env.config["completion"]]
        # the strategy is deterministic; `seed` is accepted so every bot is built the same way

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The rules run for all rows in one kernel, each row read from its observation there (no draws)."""
        legal_counts(action_masks, "HeuristicAgent")
        return decide_rows(observations, action_masks, self.at, self.n, self.threshold, self.style)


class ExpertAgent(HeuristicAgent):
    """The heuristic's guide with the expert's numbers (`EXPERT`)."""

    style = EXPERT


class RaiderAgent(HeuristicAgent):
    """The expert, keeping its contracts and completing opponents' before the last year (`RAIDER`)."""

    style = RAIDER


class AdaptiveAgent(HeuristicAgent):
    """The expert at a table that plays as rule bots do, the raider once an opponent does in public what no
    rule bot does (`plays_unlike_rule_bots`)."""

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        legal_counts(action_masks, "AdaptiveAgent")
        return decide_adaptive_rows(observations, action_masks, self.at, self.n, self.threshold, EXPERT, RAIDER)
