"""Information-set MCTS (Cowling, Powley & Whitehouse 2012, SO-ISMCTS) over any game's `Rules`.

Every iteration draws one determinization from the acting seat's information set
(`rules.resample_hidden`, which redraws everything that seat cannot see and all future chance), then
descends one tree whose edges are actions, whoever plays them. At each node the seat to act in the
determinization picks by UCB1 on its own rank points, counting a child's availability (the
iterations in which it was legal) in place of the parent's visits, since a move may be legal in
some determinizations only. New nodes are added one per iteration; a playout (random or heuristic
bots) finishes the game. The move played is the root child with the most visits.

Opponents are searched in the same tree with their own statistics (single-observer: the tree shows
their moves, and their own hidden cards, as the determinization has them). The bot never reads the
true state except through `resample_hidden`, so two states the seat cannot tell apart give the same
move for the same seed (tests/search/test_ismcts.py).
"""
from __future__ import annotations

import math
import time

import numpy as np

from ..core import GameEnv
from .rollout import Playout, SeatView


class Node:
    """Statistics of the edge into this node, for the seat that chose it."""

    __slots__ = ("children", "player", "visits", "total", "avail")

    def __init__(self, player: int) -> None:
        self.children: dict[int, Node] = {}
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class ISMCTSAgent:
    """A bot for any seat: `simulations` determinized iterations a move (fewer when `time_limit`
    seconds of wall time run out first; then the move also depends on the machine's speed)."""

    def __init__(
        self,
        env: GameEnv,
        seed: int | None = None,
        simulations: int = 200,
        rollout: str = "random",
        exploration: float = 0.7,
        time_limit: float | None = None,
    ) -> None:
        if simulations < 1:
            raise ValueError(f"simulations={simulations}: give at least 1 simulation a move")
        if time_limit is not None and time_limit < 0:
            raise ValueError(f"time_limit={time_limit}: give a number of seconds >= 0, or None")
        self.view = SeatView(env)
        self.simulations = simulations
        self.exploration = exploration
        self.time_limit = time_limit
        self.rng = np.random.default_rng(seed)
        self.playout = Playout(self.view.env, rollout, self.rng)
        self.last_iterations = 0  # iterations run for the last move (for tests and reports)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def bind(self, env: GameEnv, seed: int | None = None) -> None:
        """Play in `env` from now on (for callers that build the bot before the env it plays in)."""
        self.view = SeatView(env)
        self.playout = Playout(self.view.env, self.playout.policy, self.rng)
        self.seed(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("ISMCTSAgent was asked to act with an all-zero action mask")
        me, truth = self.view.acting_state(observation)
        if legal.size == 1:
            self.last_iterations = 0
            return int(legal[0])
        self.playout.reseed(self.rng)
        root = Node(me)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while done < self.simulations:
            self._iterate(root, self.view.determinize(truth, me, self.rng))
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        # most visits; ties to the lowest action, so the choice is a function of the statistics alone
        return max(sorted(root.children), key=lambda a: root.children[a].visits)

    def _iterate(self, root: Node, state) -> None:
        rules, rng, c = self.view.env.rules, self.rng, self.exploration
        node, path = root, []
        while (p := rules.current_player(state)) >= 0:
            legal = np.flatnonzero(rules.legal_mask(state)).tolist()
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                if a in children:
                    children[a].avail += 1
            if untried:
                action = untried[rng.integers(len(untried))] if len(untried) > 1 else untried[0]
                child = children[action] = Node(p)
                rules.apply(state, action)
                path.append(child)
                break
            best, best_value = legal[0], -math.inf
            for a in legal:
                ch = children[a]
                value = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if value > best_value:
                    best, best_value = a, value
            node = children[best]
            rules.apply(state, best)
            path.append(node)
        points = self.playout.run(state)
        for n in path:
            n.visits += 1
            n.total += points[n.player]
