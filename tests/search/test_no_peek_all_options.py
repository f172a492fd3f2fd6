"""Search bots never see what their seat cannot: every game, every player count, every search spec (the
policies/<game>/ files as guides included), with every rule option that hides more switched on (secret
gifts, gifts in the investigation, the most gifts a phase).

A twin of the game that differs in all the acting seat cannot see (`env.resample_hidden`) must get the
same move from the same seeded bot. Budgets are a few simulations, so this runs in seconds.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core import PolicyFileError

GAMES = corruption_envs.list_games()
POLICIES = Path(__file__).resolve().parents[2] / "policies"
SIMULATIONS = 3
POINTS = 3  # decisions checked per game and player count
EVERY = 17  # random decisions between two checked ones


def options_on(game: str) -> dict:
    """Every True/False rule option on; construction's gifts at their most."""
    options = corruption_envs.get_game(game).rules.options
    config = {name: True for name, option in options.items() if getattr(option, "choices", None) == (True, False)}
    if game == "construction":
        config["max_gifts"] = 3
    return config


def specs(game: str) -> list[str]:
    guided = [f"ismcts:{SIMULATIONS}@{path}" for path in sorted((POLICIES / game).glob("*.npz"))]
    return [f"ismcts:{SIMULATIONS}", f"pimc:{SIMULATIONS}", f"ismcts:{SIMULATIONS}:heuristic", *guided]


def cases() -> list[tuple[str, int]]:
    out = []
    for game in GAMES:
        rules = corruption_envs.get_game(game).rules
        out += [(game, n) for n in range(rules.min_players, rules.max_players + 1)]
    return out


def decide(bot, env) -> int:
    seen = env.observe(env.agent_selection)
    return int(bot.act(seen["observation"], seen["action_mask"]))


def checked_points(game: str, n: int):
    """(env, point index) at a few decisions with a choice of a seeded random game, all options on."""
    env = corruption_envs.env(game, num_players=n, **options_on(game))
    env.reset(seed=700 + n)
    rng = np.random.default_rng(n)
    step = found = 0
    while found < POINTS and not all(env.terminations.values()):
        legal = np.flatnonzero(env.action_mask())
        if step % EVERY == EVERY - 1 and legal.size > 1:
            yield env, found
            found += 1
        env.step(int(rng.choice(legal)))
        step += 1


def fitting_specs(game: str, env) -> list[str]:
    """The specs whose guide (if any) plays this env: champion-3to5.npz, say, refuses 6-7 players."""
    fit = []
    for spec in specs(game):
        try:
            make_agent(spec, env, seed=0)
        except PolicyFileError:
            continue
        fit.append(spec)
    return fit


@pytest.mark.parametrize("game, n", cases())
def test_every_search_bot_moves_alike_when_only_what_the_seat_cannot_see_differs(game, n):
    compared = changed = 0
    for env, k in checked_points(game, n):
        twin = env.resample_hidden(env.agent_selection, seed=100 + k)
        changed += not np.array_equal(twin.state(), env.state())
        fit = fitting_specs(game, env)
        assert f"ismcts:{SIMULATIONS}@{POLICIES / game / 'champion.npz'}" in fit  # every count has a guide
        for spec in fit:
            mine = decide(make_agent(spec, env, seed=k), env)
            assert mine == decide(make_agent(spec, twin, seed=k), twin), f"{spec} at point {k} peeks"
            compared += 1
    assert compared >= POINTS * 4 and changed > 0
