"""ISMCTS guided by a trained policy (spec `ismcts:SIMULATIONS@POLICY_FILE`): expert iteration's
"search with the policy" (Anthony et al. 2017; AlphaZero's PUCT).

The tree is the same single-observer ISMCTS tree (`ismcts.py`): one determinization from the acting
seat's information set per iteration, availability counts, playouts to the end. Only the tree policy
changes: at each node the seat to act in the determinization picks by PUCT,

    Q(a) + c * P(a) * sqrt(N) / (1 + n(a)),

where P is the policy's softmax over that seat's legal moves, computed once per node from its
observation in the determinization where the node was first reached (a state drawn from the searching
seat's information set, so the prior reads nothing the searcher cannot see), N is the visits of the
node's legal children plus one, and an unvisited move counts Q = 1/2 (the mean of rank points at any
player count). Plain ISMCTS expands every legal move once before it looks deeper, a budget that
Corruption's 30-80 legal bids use up at the root; PUCT spends its simulations on the moves the policy
rates, so the tree reaches the opponents' replies and the Phase III decisions.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ..core import GameEnv
from .ismcts import ISMCTSAgent, Node

UNVISITED_VALUE = 0.5  # rank points average 1/2 at every player count


class GuidedNode(Node):
    """A tree node that also keeps the prior of the seat to act here."""

    __slots__ = ("prior",)

    def __init__(self, player: int) -> None:
        super().__init__(player)
        self.prior: np.ndarray | None = None  # unnormalized softmax over every action


class GuidedISMCTSAgent(ISMCTSAgent):
    """ISMCTS whose tree policy is PUCT with `policy` (a loaded policy file, `NumpyPolicy`) as the
    prior; `c_puct` weighs the prior against the playouts' means. A mixture policy guides with the
    member it draws for the game (at `seed`)."""

    def __init__(self, env: GameEnv, policy: Any, seed: int | None = None, c_puct: float = 1.0,
                 **budget: Any) -> None:
        if not c_puct > 0:
            raise ValueError(f"c_puct={c_puct}: give a weight > 0 for the policy's prior")
        self.policy = policy
        super().__init__(env, seed, **budget)  # simulations, rollout, time_limit
        self.c_puct = c_puct

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self.policy.seed(seed)

    def bind(self, env: GameEnv, seed: int | None = None) -> None:
        self.policy.bind(env, seed)  # a policy with a prior bot builds it for the new env
        super().bind(env, seed)

    def _node(self, player: int) -> GuidedNode:
        return GuidedNode(player)

    def _prepare(self, nodes: list[GuidedNode], rows: list[int]) -> None:
        """On the engine: the priors of a wave's nodes that have none yet, from one batched evaluation
        of the policy on their rows' observations."""
        fresh: dict[int, tuple[GuidedNode, int]] = {}  # node -> the first row at it, whose observation sets it
        for node, row in zip(nodes, rows):
            if node.prior is None:
                fresh.setdefault(id(node), (node, row))
        if not fresh:
            return
        batch = self._rows.engine.batch
        at = np.array([row for _, row in fresh.values()], np.int64)
        observations, masks = batch.observation[at], batch.action_mask[at]
        z = self.policy.logits_with_prior(observations, masks)
        for k, (node, _) in enumerate(fresh.values()):
            node.prior = _prior(z[k], masks[k])

    def _select(self, node: GuidedNode, player: int, mask: np.ndarray, observe: Callable[[], np.ndarray]) -> int:
        legal = np.flatnonzero(mask)
        if node.prior is None:
            node.prior = _prior(self.policy.logits_with_prior(observe(), mask), mask)
        prior = node.prior[legal]
        prior = (prior / prior.sum()).tolist()
        legal = legal.tolist()
        children = node.children
        visited = 1
        for a in legal:
            if (ch := children.get(a)) is not None:
                ch.avail += 1
                visited += ch.visits
        scale = self.c_puct * math.sqrt(visited)
        best, best_value = legal[0], -math.inf
        for a, pa in zip(legal, prior):
            ch = children.get(a)
            value = (UNVISITED_VALUE + scale * pa if ch is None
                     else ch.total / ch.visits + scale * pa / (1 + ch.visits))
            if value > best_value:
                best, best_value = a, value
        return best


def _prior(z: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Every action's weight from its logit, capped at the best legal one's and floored above zero: in
    other determinizations other moves of this seat may be legal at the node."""
    return np.exp(np.clip(z - z[np.flatnonzero(mask)].max(), -30.0, 0.0))
