"""Information-set MCTS (Cowling, Powley & Whitehouse 2012, SO-ISMCTS) over any game's `Rules`.

Every iteration draws one determinization from the acting seat's information set
(`rules.resample_hidden`, which redraws everything that seat cannot see and all future chance), then
descends one tree whose edges are actions, whoever plays them. At each node the seat to act in the
determinization picks by UCB1 on its own rank points, counting a child's availability (the
iterations in which it was legal) in place of the parent's visits, since a move may be legal in
some determinizations only. New nodes are added one per iteration; a playout (random or heuristic
bots) finishes the game. The move played is the root child with the most visits. On the batched
engine the iterations run in waves (`waves.run_wave`), each descent counting its visits as it goes
so the descents of a wave differ.

Opponents are searched in the same tree with their own statistics (single-observer: the tree shows
their moves, and their own hidden cards, as the determinization has them). The bot never reads the
true state except through `resample_hidden` (or the engine's compiled draw of the same,
`load_resampled`), so two states the seat cannot tell apart give the same move for the same seed
(tests/search/test_search.py).
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ..core import GameEnv, GameState
from .base import SearchAgent
from .waves import run_wave


class Node:
    """Statistics of the edge into this node, for the seat that chose it."""

    __slots__ = ("children", "player", "visits", "total", "avail")

    def __init__(self, player: int) -> None:
        self.children: dict[int, Node] = {}
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class ISMCTSAgent(SearchAgent):
    """A bot for any seat: `simulations` ISMCTS iterations a move (see `SearchAgent` for the budget)."""

    def __init__(self, env: GameEnv, seed: int | None = None, exploration: float = 0.7, **budget: Any) -> None:
        super().__init__(env, seed, **budget)  # simulations, rollout, time_limit
        self.exploration = exploration

    def _new_stats(self, me: int, legal: np.ndarray) -> Node:
        return self._node(me)

    def _choose(self, root: Node) -> int:
        # most visits; ties (a small budget visits many moves once) to the better mean, then the
        # lowest action, so the choice is a function of the statistics alone
        children = root.children
        return max(sorted(children), key=lambda a: (children[a].visits, children[a].total / children[a].visits))

    def _node(self, player: int) -> Node:
        return Node(player)

    def _select(self, node: Node, player: int, mask: np.ndarray, observe: Callable[[], np.ndarray]) -> int:
        """The move `player` makes at `node` in this determinization (`observe()`: `player`'s
        observation there, for a tree policy that reads it)."""
        return ucb_select(node, mask, self.rng, self.exploration)

    def _simulate_wave(self, root: Node, size: int, done: int) -> None:
        batch = self._rows.engine.batch
        run_wave(self._rows, self._wave_playout, [root] * size,
                 lambda node, row, player: self._select(node, player, batch.action_mask[row],
                                                        lambda: batch.observation[row].copy()),
                 self._node, self._prepare)

    _prepare = None  # a tree policy with priors evaluates them for a wave's nodes at once

    def _simulate(self, root: Node, state: GameState, done: int) -> None:
        rules = self.view.env.rules
        node, path = root, []
        while (p := rules.current_player(state)) >= 0:
            action = self._select(node, p, rules.legal_mask(state), lambda: rules.observe(state, p))
            rules.apply(state, action)
            if action not in node.children:  # a new node: one a simulation, then the playout
                node.children[action] = new = self._node(p)
                path.append(new)
                break
            node = node.children[action]
            path.append(node)
        points = self.playout.run(state)
        for n in path:
            n.visits += 1
            n.total += points[n.player]


def ucb_select(node: Node, mask: np.ndarray, rng: np.random.Generator, exploration: float) -> int:
    """The move at `node` for the legal `mask`: an untried one (drawn from `rng`) first, else UCB1 with
    availability counts, after counting the availability of the legal children."""
    legal = np.flatnonzero(mask).tolist()
    children = node.children
    untried = [a for a in legal if a not in children]
    for a in legal:
        if a in children:
            children[a].avail += 1
    if untried:
        return untried[rng.integers(len(untried))] if len(untried) > 1 else untried[0]
    best, best_value = legal[0], -math.inf
    for a in legal:
        ch = children[a]
        value = ch.total / ch.visits + exploration * math.sqrt(math.log(ch.avail) / ch.visits)
        if value > best_value:
            best, best_value = a, value
    return best
