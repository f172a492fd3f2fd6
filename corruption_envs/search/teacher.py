"""Search as a teacher (expert iteration): a search bot's visit distribution and value at many positions.

`search_policy_targets` runs the ISMCTS bot's own search (`SearchAgent.search`: its tree, its budget,
its waves of engine rows, each wave's determinizations drawn in one compiled pass where the engine
can) at each of k positions, and reads the root: the share of visits each move got and the seat's
mean rank points. So a teacher's targets are the statistics the bot's move is chosen from (its move
is the target's most visited one), and it searches exactly as fast as the bot. With `guide` (a loaded
policy file) the search is PUCT guided by that policy (`ismcts:N@POLICY`), expert iteration's
"search with the current policy". Every determinization is drawn from the acting seat's information
set only.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..core import GameEnv, GameState
from ..core.game import game_of
from .base import ROLLOUTS
from .guided import GuidedISMCTSAgent
from .ismcts import ISMCTSAgent
from .waves import engine_available


def search_policy_targets(
    env: GameEnv,
    states: Sequence[GameState],
    seats: Sequence[int],
    simulations: int,
    rollout: str = "random",
    seed: int | None = None,
    exploration: float = 0.7,
    guide: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(visits (k, A) float64, values (k,) float64) of an ISMCTS search from each `states[i]` (rules
    states of `env`'s game and player count) by its acting seat `seats[i]`: the share of root visits
    each action got, and the seat's mean rank points over the iterations (1 first, 0 last). A position
    with one legal move gets it with share 1 and no search (value NaN). `guide`: a policy loaded for
    `env` (`load_policy`) whose move probabilities guide the search (PUCT)."""
    rules = env.unwrapped.rules
    if not engine_available(game_of(env)):
        raise ValueError(f"search_policy_targets runs on the batched engine: {rules.name!r} has none here "
                         "(it needs numba, pip install corruption-envs[vector])")
    if len(states) != len(seats) or not states:
        raise ValueError(f"give one seat per state (got {len(states)} states, {len(seats)} seats), at least one")
    if simulations < 1 or rollout not in ROLLOUTS:
        raise ValueError(f"simulations={simulations}, rollout={rollout!r}: give simulations >= 1 and a "
                         f"rollout of {ROLLOUTS}")
    for i, (state, seat) in enumerate(zip(states, seats)):
        if rules.current_player(state) != seat:
            raise ValueError(f"states[{i}]: seat {seat} is not the seat to act "
                             f"({rules.current_player(state)}); give the acting seat of each state")
    budget = {"simulations": simulations, "rollout": rollout, "engine": True, "exploration": exploration}
    bot = (ISMCTSAgent(env, seed=seed, **budget) if guide is None
           else GuidedISMCTSAgent(env, guide, seed=seed, **budget))
    visits = np.zeros((len(states), rules.num_actions))
    values = np.full(len(states), np.nan)
    for i, (state, seat) in enumerate(zip(states, seats)):
        legal = np.flatnonzero(rules.legal_mask(state))
        if legal.size == 1:
            visits[i, legal[0]] = 1.0
            continue
        visits[i], values[i] = root_shares(bot.search(state, int(seat), legal), rules.num_actions)
    return visits, values


def root_shares(root: Any, num_actions: int) -> tuple[np.ndarray, float]:
    """(share of the root's visits each action got (num_actions,), the searching seat's mean rank points)
    of an ISMCTS root (`ISMCTSAgent.search`, or the statistics `decide` returns)."""
    visits = np.zeros(num_actions)
    for action, child in root.children.items():
        visits[action] = child.visits
    n = visits.sum()
    return visits / n, sum(child.total for child in root.children.values()) / n
