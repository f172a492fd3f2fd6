"""Search as a teacher (expert iteration): ISMCTS's visit distribution and value at many positions.

`search_policy_targets` runs `simulations` SO-ISMCTS iterations (the tree, UCB1 and playouts of
`ismcts.py`) at each of k positions on the batched engine. A wave holds one iteration of every
position (each row descends its own position's tree), so each tree grows exactly as the one-game
search grows it, one iteration after another; k positions fill up to `width` rows a wave. Every
determinization is drawn from the acting seat's information set (`rules.resample_hidden`).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..core import GameEnv, GameState
from .base import ROLLOUTS, determinize
from .ismcts import Node, ucb_select
from .waves import EngineRows, WavePlayout, engine_available, run_wave


def search_policy_targets(
    env: GameEnv,
    states: Sequence[GameState],
    seats: Sequence[int],
    simulations: int,
    rollout: str = "random",
    seed: int | None = None,
    exploration: float = 0.7,
    width: int = 256,
) -> tuple[np.ndarray, np.ndarray]:
    """(visits (k, A) float64, values (k,) float64) of an ISMCTS search from each `states[i]` (rules
    states of `env`'s game and player count) by its acting seat `seats[i]`: the share of root visits
    each action got, and the seat's mean rank points over the iterations (1 first, 0 last)."""
    rules = env.unwrapped.rules
    if not engine_available(rules):
        raise ValueError(f"search_policy_targets runs on the batched engine: {rules.name!r} has none here "
                         "(it needs numba, pip install corruption-envs[vector])")
    if len(states) != len(seats) or not states:
        raise ValueError(f"give one seat per state (got {len(states)} states, {len(seats)} seats), at least one")
    if simulations < 1 or width < 1 or rollout not in ROLLOUTS:
        raise ValueError(f"simulations={simulations}, width={width}, rollout={rollout!r}: give simulations "
                         f">= 1, width >= 1 and a rollout of {ROLLOUTS}")
    for i, (state, seat) in enumerate(zip(states, seats)):
        if rules.current_player(state) != seat:
            raise ValueError(f"states[{i}]: seat {seat} is not the seat to act "
                             f"({rules.current_player(state)}); give the acting seat of each state")
    rng = np.random.default_rng(seed)
    rows = EngineRows(rules, min(width, len(states)), int(rng.integers(2**63)))
    playout = WavePlayout(env.unwrapped, rollout, rng)
    playout.reseed(rng)
    roots = [Node(int(seat)) for seat in seats]
    masks = rows.engine.batch.action_mask
    for lo in range(0, len(states), rows.width):
        part = range(lo, min(lo + rows.width, len(states)))
        for _ in range(simulations):
            rows.load([determinize(rules, states[i], seats[i], rng) for i in part])
            run_wave(rows, playout, [roots[i] for i in part],
                     lambda node, row, player: ucb_select(node, masks[row], rng, exploration), Node)
    visits = np.zeros((len(states), rules.num_actions))
    values = np.zeros(len(states))
    for i, root in enumerate(roots):
        for action, child in root.children.items():
            visits[i, action] = child.visits
            values[i] += child.total
        values[i] /= visits[i].sum()
        visits[i] /= visits[i].sum()
    return visits, values
