"""A rule-based Corruption bot that reads only its observation, its mask and the static config.

Strategy guide, in the order it is applied:
  Phase II (placing cards)
  1. Hit Man: if an opponent's DA shows on a contract I lead, send my Hit Man there.
  2. Bid: for every contract, estimate the best opponent's total (face-up bribes, plus a guess for
     each face-down card) and pick the contract with the best value per dollar I must add to lead;
     add the smallest bribe that takes the lead. When my next contract card would be face-up and half
     the bribe still leads, hide it in that body's Swiss account instead.
  3. Reporter: on a valuable contract where I trail by no more than the leader's largest face-up bribe.
  4. DA: on a valuable contract an opponent leads by more than my largest bribe can answer.
  5. Otherwise dump my smallest card where it does the most good (where I lead, or a Swiss account).
  Phase III
  - Swiss bribe: the contract under that body it wins, the most valuable first; else the closest.
  - Hit Man: an opponent's DA, then an opponent's Reporter, then an opponent's Hit Man; own cards last.
  - Reporter: the removal that makes me the winner; else the leader's largest bribe; never my own
    (decline instead when allowed).
"""
from __future__ import annotations

import numpy as np
from ..core.jit import njit

from ..core.agents import Agent, draws_below, first_legal, legal_counts, nth_legal
from . import codec
from .codec import ASSIGN, DECLINE, KILL, KILL_SLOTS, REMOVE, SWISS
from .observer import build_layout
from .tables import (
    BRIBE_VALUES,
    CARDS_PER_ROUND,
    DA,
    HIT_MAN,
    MAX_CONTRACT_VALUE,
    MAX_PLAYERS,
    NUM_BODIES,
    NUM_BRIBES,
    NUM_CONTRACTS,
    NUM_KINDS,
    NUM_ROUNDS,
    REPORTER,
)

VALUES = np.array(BRIBE_VALUES, np.float64)
PLAY_ACTION = np.array([[codec.ACTIONS.encode("play", kind=k, contract=c) for c in range(NUM_CONTRACTS)]
                        for k in range(NUM_KINDS)])
SWISS_ACTION = np.array([[codec.ACTIONS.encode("swiss", bribe=b, body=g) for g in range(NUM_BODIES)]
                         for b in range(NUM_BRIBES)])
HIDDEN_GUESS = 4.0  # $k a face-down card of an opponent is guessed to be worth
KILL_RANK = np.array([3, 2, 2, 1])  # a Hit Man's preference by slot: DA, either Reporter, Hit Man
# where the pieces the bots read start in an observation (the same layout at every player count)
LAYOUT = build_layout()
HAND_AT, SEATS_AT, ROUND_AT, PLACED_AT, ON_CONTRACTS_AT, GONE_AT, WHERE_AT, VALUE_AT, CARDS_AT, FACEDOWN_AT, \
    ASSIGNED_AT, SWISS_AT, SWISS_FACEDOWN_AT, KIND_AT, CONTRACT_AT = LAYOUT.starts((
        "my_hand", "seats", "round", "placed", "on_contracts", "chars_gone", "contract_where", "contract_value",
        "cards", "facedown", "assigned", "swiss", "swiss_facedown", "decision_kind", "decision_contract"))
SORT_WIDTHS = (8, 16, NUM_CONTRACTS)  # the table sizes numpy's argsort sorts with one network (see by_value)


class HeuristicAgent(Agent):
    """Plays any seat from (observation, action_mask) like a trained policy would, at any player count:
    each row's seats are read from its observation, so one bot decides a batch of mixed counts."""

    any_player_count = True

    def __init__(self, env, seed: int | None = None) -> None:
        # env: Corruption's, whose observation layout is LAYOUT at every count (the kernels read it as such)
        self.rng = np.random.default_rng(seed)

    def _read(self, observations: np.ndarray, rows: np.ndarray, masks: np.ndarray) -> dict:
        """What the rules read from the observations `rows` (masks: theirs), arrays with a leading row axis."""
        read = dict(zip(READ_NAMES, read_rows(observations, rows, masks)))
        read["by_value"] = by_value(read["on_table"], read["value"])
        return read

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The rows are read by one kernel and decided by another, Phase II's placements and Phase III's
        rules alike; the only random draws (a Swiss account's body for a dumped bribe, or any legal card)
        are then made in one call in row order, as row by row."""
        counts = legal_counts(action_masks, "HeuristicAgent")
        actions = first_legal(action_masks)
        deciding = np.flatnonzero(counts > 1)
        if deciding.size == 0:
            return actions
        masks = action_masks[deciding]
        chosen, dump = self._decide(self._read(observations, deciding, masks), masks)
        actions[deciding] = self._draw(chosen, dump, masks)
        return actions

    def _decide(self, read: dict, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per row: the action (-1: draw), and the bribe to dump on a Swiss account of a body drawn at
        random (-1: none)."""
        return decide_rows(*(read[name] for name in DECIDE_NAMES), masks)

    def _draw(self, chosen: np.ndarray, dump: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """`chosen` with its undecided rows (-1) drawn, one bounded draw a row in row order: the body of
        the Swiss account for a dumped bribe, else any legal action."""
        drawing = np.flatnonzero(chosen < 0)
        if drawing.size == 0:
            return chosen
        dumped = dump[drawing] >= 0
        picks = draws_below(self.rng, np.where(dumped, NUM_BODIES, np.count_nonzero(masks[drawing], axis=1)))
        chosen[drawing[dumped]] = SWISS_ACTION[dump[drawing[dumped]], picks[dumped]]
        chosen[drawing[~dumped]] = nth_legal(masks[drawing[~dumped]], picks[~dumped])
        return chosen


# read_rows' arrays, in order, and those decide_rows takes
READ_NAMES = ("seats", "hand", "value", "on_table", "body", "vertical", "known", "mine", "best_opp", "da_shown",
              "top_shown", "faceup_next", "placing", "decision_kind", "decision_contract")
DECIDE_NAMES = ("placing", "hand", "value", "mine", "best_opp", "da_shown", "top_shown", "by_value", "on_table",
                "body", "faceup_next", "seats", "known", "decision_kind", "decision_contract")


@njit
def read_rows(observations: np.ndarray, rows: np.ndarray, masks: np.ndarray) -> tuple:
    """Per row observations[rows[r]] (its mask masks[r]): its number of seats; my hand; the contracts'
    values ($k, float32); read_contracts' per contract and seat; my known money on each contract; whether
    my next contract card is face-up; whether I place a card (else Phase III); the kind and contract of a
    Phase III decision."""
    k = rows.size
    seats, hand = np.zeros(k, np.int64), np.zeros((k, NUM_KINDS + 1), np.bool_)
    value = np.zeros((k, NUM_CONTRACTS), np.float32)
    on_table, body = np.zeros((k, NUM_CONTRACTS), np.bool_), np.zeros((k, NUM_CONTRACTS), np.int64)
    vertical = np.zeros((k, NUM_CONTRACTS, MAX_PLAYERS))
    known = np.zeros((k, NUM_CONTRACTS, MAX_PLAYERS))
    mine, best_opp = np.zeros((k, NUM_CONTRACTS)), np.full((k, NUM_CONTRACTS), -np.inf)
    da_shown, top_shown = np.zeros((k, NUM_CONTRACTS), np.bool_), np.zeros((k, NUM_CONTRACTS))
    faceup_next, placing = np.zeros(k, np.bool_), np.zeros(k, np.bool_)
    decision_kind, decision_contract = np.zeros(k, np.int64), np.zeros(k, np.int64)
    for r in range(k):
        obs = observations[rows[r]]
        for s in range(MAX_PLAYERS):
            seats[r] += obs[SEATS_AT + s] > 0
        for i in range(NUM_KINDS + 1):
            hand[r, i] = obs[HAND_AT + i] > 0
        for c in range(NUM_CONTRACTS):
            value[r, c] = obs[VALUE_AT + c] * np.float32(MAX_CONTRACT_VALUE)
        read_contracts(obs, seats[r], on_table[r], body[r], vertical[r], known[r], best_opp[r], da_shown[r],
                       top_shown[r])
        mine[r] = known[r, :, 0]
        # this round's first round + 1 contract cards are face-up
        round_index = np.argmax(obs[ROUND_AT:ROUND_AT + NUM_ROUNDS])
        faceup_next[r] = obs[ON_CONTRACTS_AT] * np.float32(CARDS_PER_ROUND) < round_index + 1
        first, last = legal_bounds(masks[r])
        placing[r] = first < SWISS or (first < ASSIGN and last < ASSIGN)
        decision_kind[r] = np.argmax(obs[KIND_AT:KIND_AT + NUM_KINDS])
        decision_contract[r] = np.argmax(obs[CONTRACT_AT:CONTRACT_AT + NUM_CONTRACTS])
    return (seats, hand, value, on_table, body, vertical, known, mine, best_opp, da_shown, top_shown, faceup_next,
            placing, decision_kind, decision_contract)


@njit
def legal_bounds(mask: np.ndarray) -> tuple[int, int]:
    """The first and the last legal action of a mask with one at least."""
    first, last = 0, mask.size - 1
    while mask[first] == 0:
        first += 1
    while mask[last] == 0:
        last -= 1
    return first, last


@njit
def read_contracts(obs: np.ndarray, n: int, on_table: np.ndarray, body: np.ndarray, vertical: np.ndarray,
                   known: np.ndarray, best_opp: np.ndarray, da_shown: np.ndarray, top_shown: np.ndarray) -> None:
    """Per contract and seat (the n seats of the observation `obs`): on the table and under which body; my
    and everyone's known money there (vertical bribes, and Swiss bribes assigned there at half value); the
    best opponent's estimate, adding a guess at their hidden money (face-down cards, and Swiss bribes
    spread over the body's contracts on the table); whether an opponent's DA shows, and the largest
    face-up bribe of an opponent ($k, 0 if none). The guess rounds as numpy's float32 arithmetic did (it is
    float32, the spread float64)."""
    cards = obs[CARDS_AT:FACEDOWN_AT].reshape((NUM_CONTRACTS, MAX_PLAYERS, NUM_KINDS))
    facedown = obs[FACEDOWN_AT:ASSIGNED_AT].reshape((NUM_CONTRACTS, MAX_PLAYERS))
    assigned = obs[ASSIGNED_AT:SWISS_AT].reshape((NUM_CONTRACTS, MAX_PLAYERS, NUM_BRIBES))
    swiss_facedown = obs[SWISS_FACEDOWN_AT:KIND_AT].reshape((NUM_BODIES, MAX_PLAYERS))
    where = obs[WHERE_AT:VALUE_AT].reshape((NUM_CONTRACTS, 6))  # deck, the three bodies, won, lost
    per_body = np.zeros(NUM_BODIES, np.int64)
    for c in range(NUM_CONTRACTS):
        on_table[c] = where[c, 1] + where[c, 2] + where[c, 3] > 0
        for g in range(1, NUM_BODIES):  # the first body of the largest column, as argmax
            if where[c, 1 + g] > where[c, 1 + body[c]]:
                body[c] = g
        if on_table[c]:
            per_body[body[c]] += 1
    for c in range(NUM_CONTRACTS):
        if not on_table[c]:  # no card lies there (invariants.py): no money, and nothing hidden but 0
            best_opp[c] = 0.0
            continue
        g = body[c]
        for p in range(n):
            # the sums skip the empty places (most): adding 0.0 to positive money leaves it as it is
            money, swiss_money, top = 0.0, 0.0, 0.0
            for b in range(NUM_BRIBES):
                if cards[c, p, b] > 0:
                    money += cards[c, p, b] * VALUES[b]
                    top = VALUES[b]  # the values ascend
                if assigned[c, p, b] > 0:
                    swiss_money += assigned[c, p, b] * VALUES[b]
            vertical[c, p], known[c, p] = money, money + swiss_money / 2
            if p == 0:  # I know my own cards
                continue
            guess = np.float32(np.rint(facedown[c, p] * np.float32(CARDS_PER_ROUND)) * np.float32(HIDDEN_GUESS))
            hidden = np.float32(np.rint(swiss_facedown[g, p] * np.float32(CARDS_PER_ROUND)))
            spread = np.float64(hidden * np.float32(HIDDEN_GUESS) / np.float32(2)) / per_body[g]
            guess = np.float32(np.float64(guess) + spread)
            best_opp[c] = max(best_opp[c], known[c, p] + guess)
            da_shown[c] |= cards[c, p, DA] > 0
            top_shown[c] = max(top_shown[c], top)


def by_value(on_table: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Per row, its table's contracts, the most valuable first, then -1s. numpy's argsort of the
    negated values, as the rules have always ordered them: it is not stable here (an AVX-512 sort), so
    ties keep its order. That sort orders up to 8, 16 or 32 values with one network each, padded with
    +inf; a 2-D argsort sorts each row as the 1-D one does: so the rows whose tables need the same
    network are sorted in one call, padded with +inf as the sort pads them."""
    keys, rows = sort_keys(on_table, value)
    return ordered_contracts(on_table, rows, tuple(np.argsort(k, axis=1) for k in keys))


@njit
def sort_keys(on_table: np.ndarray, value: np.ndarray) -> tuple:
    """For each of SORT_WIDTHS, the keys of the rows whose table is that wide at most (and wider than the
    previous width): the negated values of the table's contracts, then +inf; and those rows."""
    sizes = np.zeros(on_table.shape[0], np.int64)
    for r in range(on_table.shape[0]):
        sizes[r] = np.count_nonzero(on_table[r])
    narrow, narrow_rows = width_group(on_table, value, sizes, 0, SORT_WIDTHS[0])
    middle, middle_rows = width_group(on_table, value, sizes, SORT_WIDTHS[0], SORT_WIDTHS[1])
    wide, wide_rows = width_group(on_table, value, sizes, SORT_WIDTHS[1], SORT_WIDTHS[2])
    return (narrow, middle, wide), (narrow_rows, middle_rows, wide_rows)


@njit
def width_group(on_table: np.ndarray, value: np.ndarray, sizes: np.ndarray, smaller: int, width: int) -> tuple:
    """The keys (padded to `width`) and the rows of the tables wider than `smaller`, `width` at most."""
    rows = np.flatnonzero((sizes > smaller) & (sizes <= width))
    keys = np.full((rows.size, width), np.inf, np.float32)
    for i in range(rows.size):
        place = 0
        for c in range(NUM_CONTRACTS):
            if on_table[rows[i], c]:
                keys[i, place] = -value[rows[i], c]
                place += 1
    return keys, rows


@njit
def ordered_contracts(on_table: np.ndarray, rows: tuple, orders: tuple) -> np.ndarray:
    """Per row, its table's contracts in the order its sort put them (orders[w][i]: rows[w][i]'s), then -1s."""
    out = np.full(on_table.shape, -1)
    for w in range(len(rows)):
        for i in range(rows[w].size):
            table = np.flatnonzero(on_table[rows[w][i]])
            for place in range(table.size):
                out[rows[w][i], place] = table[orders[w][i, place]]
    return out


@njit
def decide_rows(placing, hand, value, mine, best_opp, da_shown, top_shown, by_value, on_table, body, faceup_next,
                seats, known, decision_kind, decision_contract, masks) -> tuple[np.ndarray, np.ndarray]:
    """heuristic_place for each row placing a card, phase_three for the others."""
    chosen, dump = np.full(len(placing), -1), np.full(len(placing), -1)
    for r in range(len(placing)):
        if placing[r]:
            chosen[r], dump[r] = heuristic_place(hand[r], value[r], mine[r], best_opp[r], da_shown[r], top_shown[r],
                                                 by_value[r], on_table[r], body[r], faceup_next[r], masks[r])
        else:
            chosen[r] = phase_three(known[r, :, :seats[r]], value[r], decision_kind[r], decision_contract[r],
                                    masks[r])
    return chosen, dump


@njit
def heuristic_place(hand, value, mine, best_opp, da_shown, top_shown, by_value, on_table, body, faceup_next,
                    mask) -> tuple[int, int]:
    """The Phase II rules (the module's guide, 1-5) for one row: (action, -1), or (-1, bribe) to dump that
    bribe on a Swiss account of a body drawn at random, or (-1, -1) when no card is useful (any legal
    card is drawn). `mine` and `best_opp`: my and the best opponent's estimated totals."""
    hit = hit_man(hand, mine, best_opp, da_shown, by_value, mask)
    if hit >= 0:
        return hit, -1
    # 2. Bid where a bribe in hand takes the lead at the best value per dollar
    best_score, best_bribe, best_contract, best_need = 0.0, -1, -1, 0.0
    for c in range(NUM_CONTRACTS):
        if not on_table[c]:
            continue
        need = best_opp[c] - mine[c] + 0.5
        for b in range(NUM_BRIBES):
            if hand[b] and VALUES[b] >= need and mask[PLAY_ACTION[b, c]] == 1:
                score = value[c] / VALUES[b]
                if best_bribe < 0 or score > best_score:
                    best_score, best_bribe, best_contract, best_need = score, b, c, need
                break
    if best_bribe >= 0 and best_score >= 40:
        money = VALUES[best_bribe]
        if faceup_next and money / 2 >= best_need and money >= 4:
            return SWISS_ACTION[best_bribe, body[best_contract]], -1
        return PLAY_ACTION[best_bribe, best_contract], -1
    # 3. Reporter where I trail by no more than the leader's largest face-up bribe
    for c in by_value[:np.count_nonzero(on_table)]:
        if reporter_fits(c, hand, value, mine, best_opp, top_shown, mask):
            return PLAY_ACTION[REPORTER, c], -1
    # 4. DA where an opponent leads beyond my reach
    for c in by_value[:np.count_nonzero(on_table)]:
        if da_fits(c, hand, value, mine, best_opp, mask):
            return PLAY_ACTION[DA, c], -1
    if best_bribe >= 0:
        return PLAY_ACTION[best_bribe, best_contract], -1
    # 5. Dump the smallest bribe: on the best contract I lead, else on a Swiss account
    for b in range(NUM_BRIBES):
        if hand[b]:
            target = -1
            for c in range(NUM_CONTRACTS):
                if (on_table[c] and mine[c] > 0 and mine[c] >= best_opp[c] and mask[PLAY_ACTION[b, c]] == 1
                        and (target < 0 or value[c] > value[target])):
                    target = c
            if target >= 0:
                return PLAY_ACTION[b, target], -1
            return -1, b
    return -1, -1  # only characters left and none is useful: any legal card


@njit
def hit_man(hand, mine, best_opp, da_shown, by_value, mask) -> int:
    """1. The Hit Man on the most valuable contract where an opponent's DA shows and I lead (-1: none)."""
    if hand[9]:
        for c in by_value:
            if c < 0:
                break
            if da_shown[c] and mine[c] >= best_opp[c] and mask[PLAY_ACTION[HIT_MAN, c]] == 1:
                return PLAY_ACTION[HIT_MAN, c]
    return -1


@njit
def reporter_fits(c, hand, value, mine, best_opp, top_shown, mask) -> bool:
    """3. A Reporter in hand, a valuable contract c where I trail by no more than the largest face-up bribe
    of an opponent."""
    gap = best_opp[c] - mine[c]
    return ((hand[7] or hand[8]) and value[c] >= 500 and 0 < gap <= top_shown[c] and mine[c] > 0
            and mask[PLAY_ACTION[REPORTER, c]] == 1)


@njit
def da_fits(c, hand, value, mine, best_opp, mask) -> bool:
    """4. The DA in hand, a valuable contract c an opponent leads by more than my largest bribe."""
    reach = 0.0
    for b in range(NUM_BRIBES):
        if hand[b]:
            reach = VALUES[b]
    return hand[6] and value[c] >= 700 and best_opp[c] - mine[c] > reach and mask[PLAY_ACTION[DA, c]] == 1


# --- Phase III -------------------------------------------------------------------------------------
@njit
def phase_three(known: np.ndarray, value: np.ndarray, decision_kind: int, decision_contract: int,
                mask: np.ndarray) -> int:
    """A Swiss assignment, a Hit Man's victim or a Reporter's removal (-1: any legal action); `known`:
    everyone's known money per contract and seat, the row's seats only."""
    first = legal_bounds(mask)[0]
    if first < KILL:
        return assign_target(known, value, VALUES[decision_kind] / 2, mask)
    if first < REMOVE:
        return kill_target(mask)
    return removal(known[decision_contract], mask)


@njit
def assign_target(known: np.ndarray, value: np.ndarray, half: float, mask: np.ndarray) -> int:
    """The most valuable contract the Swiss bribe (worth `half` there) makes me win; else the one I trail
    on least, the most valuable of those. Ties go to the first in action order."""
    win, close = -1, -1
    for a in np.flatnonzero(mask):
        c = a - ASSIGN
        gap = known[c, 1:].max() - known[c, 0]
        if known[c, 0] + half > known[c, 1:].max():
            if win < 0 or value[c] > value[win]:
                win = c
        if close < 0 or gap < known[close, 1:].max() - known[close, 0] or (
                gap == known[close, 1:].max() - known[close, 0] and value[c] > value[close]):
            close = c
    return ASSIGN + (win if win >= 0 else close)


@njit
def kill_target(mask: np.ndarray) -> int:
    """An opponent's DA, then an opponent's Reporter, then an opponent's Hit Man; own cards last. Ties go
    to the first in action order."""
    best, best_rank = -1, -1
    for a in np.flatnonzero(mask):
        rel, slot = divmod(a - KILL, KILL_SLOTS)
        rank = 4 * (rel != 0) + KILL_RANK[slot]
        if rank > best_rank:
            best, best_rank = a, rank
    return best


@njit
def removal(totals: np.ndarray, mask: np.ndarray) -> int:
    """The removal that makes me the sole leader; else an opponent's, the one leaving the lowest top
    total, the largest bribe; my own only when declining is not allowed (-1: none legal)."""
    best, best_key = -1, (False, False, 0.0, 0.0)
    for a in np.flatnonzero(mask):
        if a == DECLINE:
            continue
        rel, b = divmod(a - REMOVE, NUM_BRIBES)
        after = totals.copy()
        after[rel] -= VALUES[b]
        top = after.max()
        i_win = after[0] == top and (after == top).sum() == 1
        key = (i_win, rel != 0, -top if rel != 0 else -1e9, VALUES[b] if rel != 0 else -VALUES[b])
        if best < 0 or key > best_key:
            best, best_key = a, key
    if mask[DECLINE] == 1 and (best < 0 or (best - REMOVE) // NUM_BRIBES == 0):
        return DECLINE
    return best
