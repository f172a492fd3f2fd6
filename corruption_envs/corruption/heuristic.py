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

from ..core.agents import draws_below, first_legal, first_row, legal_counts, nth_legal
from . import codec
from .codec import ASSIGN, DECLINE, KILL, KILL_SLOTS, REMOVE, SWISS
from .tables import (
    BRIBE_VALUES,
    CARDS_PER_ROUND,
    DA,
    HIT_MAN,
    MAX_CONTRACT_VALUE,
    NUM_BODIES,
    NUM_BRIBES,
    NUM_CONTRACTS,
    NUM_KINDS,
    REPORTER,
)

VALUES = np.array(BRIBE_VALUES, np.float64)
PLAY_ACTION = np.array([[codec.ACTIONS.encode("play", kind=k, contract=c) for c in range(NUM_CONTRACTS)]
                        for k in range(NUM_KINDS)])
SWISS_ACTION = np.array([[codec.ACTIONS.encode("swiss", bribe=b, body=g) for g in range(NUM_BODIES)]
                         for b in range(NUM_BRIBES)])
HIDDEN_GUESS = 4.0  # $k a face-down card of an opponent is guessed to be worth


class HeuristicAgent:
    """Plays any seat from (observation, action_mask) like a trained policy would, at any player count:
    each row's seats are read from its observation, so one bot decides a batch of mixed counts."""

    any_player_count = True

    def __init__(self, env, seed: int | None = None) -> None:
        self.layout = env.unwrapped.observation_layout
        self.rng = np.random.default_rng(seed)

    # --- reading the observation -------------------------------------------------------------------
    def _view(self, observations: np.ndarray, name: str) -> np.ndarray:
        """The piece `name` of every row, shaped (k, *its declared shape)."""
        return observations[:, self.layout[name]].reshape((len(observations), *self.layout.shapes[name]))

    def _read(self, observations: np.ndarray, action_masks: np.ndarray) -> dict:
        """What the rules read from each row, as arrays with a leading row axis."""
        v = lambda name: self._view(observations, name)
        # the seats of the largest game among the rows: a smaller game's extra seats are all zeros,
        # which no maximum or sum below can tell from an absent seat
        n = int(observations[:, self.layout["seats"]].sum(axis=1).max())
        cards = v("cards")[:, :, :n]  # (k, 24, n, 9), reporters 1/2 each
        on_table, body, vertical, known, estimate, best_opp, da_shown, top_shown = read_contracts(
            cards, v("facedown"), v("assigned"), v("swiss_facedown"), v("contract_where"))
        legal = action_masks != 0
        first, last = np.argmax(legal, axis=1), legal.shape[1] - 1 - np.argmax(legal[:, ::-1], axis=1)
        return {
            "hand": v("my_hand") > 0, "cards": cards, "on_table": on_table, "body": body,
            "value": v("contract_value") * MAX_CONTRACT_VALUE, "vertical": vertical, "known": known,
            "estimate": estimate, "best_opp": best_opp, "da_shown": da_shown, "top_shown": top_shown,
            "on_contracts": v("on_contracts")[:, 0] * CARDS_PER_ROUND,
            "round": np.argmax(v("round"), axis=1),
            "decision_contract": np.argmax(v("decision_contract"), axis=1),
            "decision_kind": np.argmax(v("decision_kind"), axis=1),
            "placing": (first < SWISS) | ((first < ASSIGN) & (last < ASSIGN)), "row": np.arange(len(observations)),
        }

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return first_row(self.act_batch(observation[None], np.asarray(action_mask)[None]))

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The rows are read for all rows at once and the placements chosen by one kernel; the rare Phase
        III rows run the rules one by one; the only random draws (a Swiss account's body for a dumped
        bribe, or any legal card) are then made in one call in row order, as row by row."""
        counts = legal_counts(action_masks, "HeuristicAgent")
        actions = first_legal(action_masks)
        deciding = np.flatnonzero(counts > 1)
        if deciding.size == 0:
            return actions
        masks = action_masks[deciding]
        read = self._read(observations[deciding], masks)
        chosen, dump = self._place(read, masks)
        later = np.flatnonzero(~read["placing"])
        if later.size:
            for j, info in zip(later, _rows({name: a[later] for name, a in read.items()})):
                chosen[j] = self._phase_three(info, masks[j])
        actions[deciding] = self._draw(chosen, dump, masks)
        return actions

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

    def _phase_three(self, info: dict, action_mask: np.ndarray) -> int:
        """A Swiss assignment, a Hit Man's victim or a Reporter's removal (-1: any legal action)."""
        legal = np.flatnonzero(action_mask)
        first = legal[0]
        if first < codec.KILL:
            action = self._assign(info, legal)
        elif first < REMOVE:
            action = self._kill(info, legal)
        else:
            action = self._report(info, legal)
        return -1 if action is None else int(action)

    # --- Phase II ----------------------------------------------------------------------------------
    def _place(self, read: dict, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per row placing a card: the card and where (-1: draw), and the bribe to dump on a Swiss
        account of a body drawn at random (-1: none); -1, -1 on the other rows."""
        return place_rows(*self._place_inputs(read, masks))

    def _place_inputs(self, read: dict, masks: np.ndarray) -> tuple:
        return (read["placing"], read["hand"], read["value"], np.ascontiguousarray(read["estimate"][:, :, 0]),
                read["best_opp"], read["da_shown"], read["top_shown"], by_value(read["on_table"], read["value"]),
                read["on_table"], read["body"], read["on_contracts"] < read["round"] + 1, masks)

    # --- Phase III ---------------------------------------------------------------------------------
    def _assign(self, info: dict, legal: np.ndarray) -> int:
        known, value = info["known"], info["value"]
        # the Swiss bribe's value is not in the observation's decision piece: the decision kind is it
        half = VALUES[info["decision_kind"]] / 2
        options = [a - ASSIGN for a in legal]
        wins = [c for c in options if known[c, 0] + half > known[c, 1:].max()]
        if wins:
            return ASSIGN + max(wins, key=lambda c: value[c])
        return ASSIGN + min(options, key=lambda c: (known[c, 1:].max() - known[c, 0], -value[c]))

    def _kill(self, info: dict, legal: np.ndarray) -> int:
        def priority(action: int) -> tuple:
            rel, slot = divmod(action - KILL, KILL_SLOTS)
            return (rel != 0, {0: 3, 1: 2, 2: 2, 3: 1}[slot])

        return max(legal, key=priority)

    def _report(self, info: dict, legal: np.ndarray) -> int:
        c = info["decision_contract"]
        totals = info["known"][c].copy()
        options = [a for a in legal if a != DECLINE]
        best, best_key = None, None
        for a in options:
            rel, b = divmod(a - REMOVE, NUM_BRIBES)
            after = totals.copy()
            after[rel] -= VALUES[b]
            top = after.max()
            i_win = after[0] == top and (after == top).sum() == 1
            key = (i_win, rel != 0, -top if rel != 0 else -1e9, VALUES[b] if rel != 0 else -VALUES[b])
            if best_key is None or key > best_key:
                best, best_key = a, key
        if DECLINE in legal and (best is None or (best - REMOVE) // NUM_BRIBES == 0):
            return DECLINE
        return best


@njit
def read_contracts(cards: np.ndarray, facedown: np.ndarray, assigned: np.ndarray, swiss_facedown: np.ndarray,
                   where: np.ndarray) -> tuple:
    """Per row, contract and seat (the n seats of `cards`): on the table and under which body; my and
    everyone's known money there (vertical bribes, and Swiss bribes assigned there at half value); an
    estimate adding a guess at each opponent's hidden money (face-down cards, and Swiss bribes spread
    over the body's contracts on the table); the best opponent's estimate; whether an opponent's DA
    shows, and the largest face-up bribe of an opponent ($k, 0 if none). The guess rounds as numpy's
    float32 arithmetic did (it is float32, the spread float64)."""
    k, contracts, n = cards.shape[0], cards.shape[1], cards.shape[2]
    on_table, body = np.zeros((k, contracts), np.bool_), np.zeros((k, contracts), np.int64)
    vertical, known, estimate = np.zeros((k, contracts, n)), np.zeros((k, contracts, n)), np.zeros((k, contracts, n))
    best_opp, top_shown = np.full((k, contracts), -np.inf), np.zeros((k, contracts))
    da_shown = np.zeros((k, contracts), np.bool_)
    per_body = np.zeros(NUM_BODIES, np.int64)
    for r in range(k):
        per_body[:] = 0
        for c in range(contracts):
            on_table[r, c] = where[r, c, 1] + where[r, c, 2] + where[r, c, 3] > 0
            for g in range(1, NUM_BODIES):  # the first body of the largest column, as argmax
                if where[r, c, 1 + g] > where[r, c, 1 + body[r, c]]:
                    body[r, c] = g
            if on_table[r, c]:
                per_body[body[r, c]] += 1
        for c in range(contracts):
            g = body[r, c]
            for p in range(n):
                for b in range(NUM_BRIBES):
                    vertical[r, c, p] += cards[r, c, p, b] * VALUES[b]
                    known[r, c, p] += assigned[r, c, p, b] * VALUES[b]
                known[r, c, p] = vertical[r, c, p] + known[r, c, p] / 2
                if p == 0:  # I know my own cards
                    estimate[r, c, p] = known[r, c, p]
                    continue
                guess = np.float32(np.rint(facedown[r, c, p] * np.float32(CARDS_PER_ROUND)) * np.float32(HIDDEN_GUESS))
                if on_table[r, c]:
                    hidden = np.float32(np.rint(swiss_facedown[r, g, p] * np.float32(CARDS_PER_ROUND)))
                    spread = np.float64(hidden * np.float32(HIDDEN_GUESS) / np.float32(2)) / max(per_body[g], 1)
                    guess = np.float32(np.float64(guess) + spread)
                estimate[r, c, p] = known[r, c, p] + guess
                best_opp[r, c] = max(best_opp[r, c], estimate[r, c, p])
                da_shown[r, c] |= cards[r, c, p, DA] > 0
                for b in range(NUM_BRIBES):
                    if cards[r, c, p, b] > 0:
                        top_shown[r, c] = max(top_shown[r, c], VALUES[b])
    return on_table, body, vertical, known, estimate, best_opp, da_shown, top_shown


def by_value(on_table: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Per row, its table's contracts, the most valuable first, then -1s. numpy's argsort of the
    negated values, as the rules have always ordered them: it is not stable here (an AVX-512 sort), so
    ties keep its order; a 2-D argsort sorts each row as the 1-D one does."""
    out = np.full(on_table.shape, -1)
    sizes = on_table.sum(axis=1)
    for size in sorted(set(sizes.tolist())):
        rows = np.flatnonzero(sizes == size)
        table = np.nonzero(on_table[rows])[1].reshape(rows.size, size)
        order = np.argsort(-value[rows[:, None], table], axis=1)
        out[rows, :size] = np.take_along_axis(table, order, axis=1)
    return out


@njit
def place_rows(placing, hand, value, mine, best_opp, da_shown, top_shown, by_value, on_table, body, faceup_next,
               masks) -> tuple[np.ndarray, np.ndarray]:
    """heuristic_place for each row placing a card."""
    chosen, dump = np.full(len(placing), -1), np.full(len(placing), -1)
    for r in range(len(placing)):
        if placing[r]:
            chosen[r], dump[r] = heuristic_place(hand[r], value[r], mine[r], best_opp[r], da_shown[r], top_shown[r],
                                                 by_value[r], on_table[r], body[r], faceup_next[r], masks[r])
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


def _rows(read: dict) -> list[dict]:
    """One dict per row of a batched read; whole numbers become Python ints."""
    columns = {name: a.tolist() if a.ndim == 1 and a.dtype.kind in "ib" else a for name, a in read.items()}
    return [{name: a[r] for name, a in columns.items()} for r in range(len(read["row"]))]
