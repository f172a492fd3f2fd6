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
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.agents import first_row, legal_counts
from . import codec
from .observer import MONEY_SCALE, SEAT_FEATURES
from .state import CARDS, MAYOR, PAY, PLACE, VOTE
from .tables import COMPLETION_WORKERS, LOGO_COST

F = {name: i for i, name in enumerate(SEAT_FEATURES)}
HEAVY = 3  # Corruption at which an own contract is better completed than kept
EXPOSED = 8  # Corruption on all my contracts at which an investigation costs me more than a lost Key


class HeuristicAgent:
    """Plays Construction & Corruption from its observation and mask only."""

    def __init__(self, env: Any, seed: int | None = None) -> None:
        env = env.unwrapped
        self.layout = env.observation_layout
        self.n = env.config["num_players"]
        self.threshold = COMPLETION_WORKERS[env.config["completion"]]
        # the strategy is deterministic; `seed` is accepted so every bot is built the same way

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return first_row(self.act_batch(observation[None], np.asarray(action_mask)[None]))

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The board and seats are read for all rows at once, the rules then run row by row (no draws)."""
        legal_counts(action_masks, "HeuristicAgent")
        phases = np.argmax(observations[:, self.layout["phase"]], axis=1).tolist()
        boards = _Board(observations, self.layout)
        return np.array([self._decide(phase, boards.row(r, self.n), obs, mask)
                         for r, (phase, obs, mask) in enumerate(zip(phases, observations, action_masks))],
                        np.int64)

    def _decide(self, phase: int, view: "_View", observation: np.ndarray, action_mask: np.ndarray) -> int:
        choice = None
        if phase == PLACE:
            choice = self._place(view, action_mask)
        elif phase == VOTE:
            choice = self._vote(view, observation)
        elif phase == MAYOR:
            choice = self._mayor(view, action_mask)
        elif phase == CARDS:
            choice = self._cards(view, action_mask)
        elif phase == PAY:
            choice = self._pay(view, observation)
        if choice is None or not action_mask[choice]:
            choice = codec.PASS if action_mask[codec.PASS] else int(np.flatnonzero(action_mask)[0])
        return int(choice)

    # --- phases -------------------------------------------------------------------------------------
    def _place(self, v: "_View", mask: np.ndarray) -> int | None:
        if not mask[codec.PLACE: codec.PLACE + 18].any():
            return codec.PASS
        left = int(round(v.seats[0, F["to_place"]] * 5))
        best, best_score = None, -math.inf
        leader = v.leader()
        for c in v.on_board():
            need = self.threshold - v.crew[c]
            completes = 0 < need <= left and not v.festival[c]
            if v.owner[c] == 0:
                score = (10 + v.corruption[c]) if completes and v.corruption[c] >= HEAVY else 1
            elif v.owner[c] == leader:
                score = (8 - need) if completes else 0.5
            else:
                score = (4 - need) if completes else 0.2
            if score > best_score:
                best, best_score = codec.PLACE + c, score
        return best

    def _vote(self, v: "_View", observation: np.ndarray) -> int:
        """Myself; but when I carry the most Corruption, and a lot of it, an investigation hurts me most,
        so I back an ally (an opponent who voted for me last time) to get a mayor elected."""
        risk = v.seats[:, F["corruption"]]
        if risk[0] * 30 >= EXPOSED and risk[0] >= risk[1:self.n].max():
            ballots = self.layout.view(observation, "last_ballots")
            allies = [k for k in range(1, self.n) if ballots[k, 0] > 0.5]
            if allies:
                return codec.VOTE + allies[0]
        return codec.VOTE

    def _mayor(self, v: "_View", mask: np.ndarray) -> int | None:
        if mask[codec.BIG_PAPA]:
            return codec.BIG_PAPA
        leader = v.leader()
        if mask[codec.FESTIVAL: codec.FESTIVAL + 18].any():
            # shield my light contracts that are about to be completed
            mine = [c for c in v.on_board() if v.owner[c] == 0 and not v.festival[c]
                    and v.corruption[c] < HEAVY and v.crew[c] >= self.threshold]
            if mine:
                return codec.FESTIVAL + max(mine, key=lambda c: v.crew[c])
        if mask[codec.CITY: codec.CITY + 18].any():
            targets = []
            for c in v.on_board():
                if v.festival[c] or v.crew[c] >= self.threshold:
                    continue
                if v.owner[c] == 0 and v.corruption[c] >= HEAVY:
                    targets.append((3, -v.crew[c], c))
                elif v.owner[c] == leader:
                    targets.append((2, v.crew[c], c))
                elif v.owner[c] != 0:
                    targets.append((1, v.crew[c], c))
            if targets:
                return codec.CITY + max(targets)[2]
        return codec.PASS

    def _cards(self, v: "_View", mask: np.ndarray) -> int | None:
        ranking = v.ranking()
        leader = ranking[0]
        second = ranking[1] if len(ranking) > 1 else ranking[0]
        merde = codec.DEEP_MERDE + leader - 1
        if mask[merde]:
            return merde
        if leader != second:
            pair = codec.pair_index(leader, second)
            for base in (codec.SNITCH, codec.REVENUE_QUEBEC):
                if mask[base + pair]:
                    return base + pair
        spic = [c for c in v.on_board() if v.owner[c] == 0 and mask[codec.SPIC_N_SPAN + c]]
        if spic:
            return codec.SPIC_N_SPAN + max(spic, key=lambda c: v.corruption[c])
        cut = [k for k in range(1, self.n) if mask[codec.CUT_AND_PASTE + k - 1]]
        if cut:
            return codec.CUT_AND_PASTE + max(cut, key=lambda k: v.seats[k, F["hand_size"]]) - 1
        red = codec.RED_ALERT + leader - 1
        my_risk = v.seats[0, F["corruption"]]
        if mask[red] and v.seats[leader, F["corruption"]] > 2 * my_risk:
            return red
        return codec.PASS

    def _pay(self, v: "_View", observation: np.ndarray) -> int:
        year = int(np.argmax(observation[self.layout["year"]]))
        logos = int(round(v.seats[0, F["logos"]] * 20))
        cash = int(round(float(observation[self.layout["my_cash"]][0]) * MONEY_SCALE))
        fixed = logos * LOGO_COST[min(year, len(LOGO_COST) - 1)]
        percent = min(cash, cash * logos // 10)
        return codec.PAY_PERCENT if percent < fixed else codec.PAY_FIXED


class _Board:
    """The contract board and the seats of every row, read at once."""

    def __init__(self, observations: np.ndarray, lay: Any) -> None:
        k = len(observations)
        cb = observations[:, lay["contracts"]].reshape((k, *lay.shapes["contracts"]))
        self.on = cb[:, :, 0] > 0.5
        self.owner = np.argmax(cb[:, :, 1:8], axis=2)
        self.corruption = np.rint(cb[:, :, 8] * 20).astype(int)
        self.festival = cb[:, :, 10] > 0.5
        self.crew = np.rint(cb[:, :, 11] * 6).astype(int) + np.rint(cb[:, :, 9] * 8).astype(int)
        self.seats = observations[:, lay["seats"]].reshape((k, *lay.shapes["seats"]))

    def row(self, r: int, n: int) -> "_View":
        return _View(n, self.on[r], self.owner[r], self.corruption[r], self.festival[r], self.crew[r], self.seats[r])


class _View:
    """The pieces of one observation the strategy reads (seats relative to me)."""

    def __init__(self, n: int, on: np.ndarray, owner: np.ndarray, corruption: np.ndarray, festival: np.ndarray,
                 crew: np.ndarray, seats: np.ndarray) -> None:
        self.n = n
        self.on, self.owner, self.corruption, self.festival, self.crew = on, owner, corruption, festival, crew
        self.seats = seats

    def on_board(self) -> list[int]:
        return [int(c) for c in np.flatnonzero(self.on)]

    def wealth(self, k: int) -> float:
        row = self.seats[k]
        keys = round(row[F["keys"]] * 7)
        return (row[F["cash_known"]] * MONEY_SCALE + 10 * keys * (keys + 1) / 2
                + 10 * 5 * row[F["contracts"]])

    def ranking(self) -> list[int]:
        """Opponents (relative seats 1..n-1), richest first."""
        return sorted(range(1, self.n), key=lambda k: -self.wealth(k))

    def leader(self) -> int:
        return self.ranking()[0]
