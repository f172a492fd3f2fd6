"""A seed fixes one game on both paths: `engine.queue_deals(seeds)` plays, move for move, the games
`env().reset(seed)` plays, chance of play included (Construction's dice, Cut & Paste's card and
reshuffles; Corruptia's People's Die and coins).

Only the public API: both sides get the same actions (uniformly random legal ones), the engine's rows
wait now and then in mid-game (as the training rollout's do), and every decision's seat, observation
and mask and every end's rewards must agree.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import corruption_envs  # noqa: E402
from corruption_envs import vector  # noqa: E402

GAMES_PER_COUNT = 4
WAIT_CHANCE = 0.25


def counts_of(game: str) -> list[int]:
    rules = vector.engine_class(game).rules_class
    return [n for n in range(3, 8) if rules.min_players <= n <= rules.max_players]


def mismatches(game: str, seeds: list[int], counts: list[int], play_seed: int) -> tuple[int, int]:
    """(decisions where the engine and the AEC env differ, decisions compared) over the queued games."""
    engine = vector.make(game, num_envs=len(seeds), num_players=sorted(set(counts)))
    engine.queue_deals(seeds, counts)
    batch = engine.reset(seed=0)
    assert engine.deal_index.tolist() == list(range(len(seeds)))
    envs = []
    for seed, n in zip(seeds, counts):
        env = corruption_envs.env(game, num_players=n)
        env.reset(seed=seed)
        envs.append(env)
    rng = np.random.default_rng(play_seed)
    live = np.ones(len(seeds), bool)
    wrong = compared = 0
    while live.any():
        actions = np.full(len(seeds), vector.WAIT, np.int64)
        for row in np.flatnonzero(live):
            env = envs[row]
            seen = env.observe(env.agent_selection)
            compared += 1
            same = (batch.current_player[row] == env.possible_agents.index(env.agent_selection)
                    and np.array_equal(batch.observation[row], seen["observation"])
                    and np.array_equal(batch.action_mask[row], seen["action_mask"]))
            if not same:
                wrong += 1
                live[row] = False
                continue
            if rng.random() < WAIT_CHANCE:
                continue
            legal = np.flatnonzero(seen["action_mask"])
            actions[row] = legal[rng.integers(legal.size)]
            env.step(int(actions[row]))
        batch = engine.step(actions)
        for row in np.flatnonzero(live & (actions != vector.WAIT)):
            env = envs[row]
            over = all(env.terminations.values())
            if bool(batch.terminated[row]) != over:
                wrong += 1
                live[row] = False
            elif over:
                want = [env.rewards[a] for a in env.possible_agents]
                wrong += not np.allclose(batch.rewards[row, :len(want)], want)
                live[row] = False
    return wrong, compared


@pytest.mark.parametrize("game", vector.list_games())
def test_queued_deals_play_the_env_games_move_for_move(game):
    counts = [n for n in counts_of(game) for _ in range(GAMES_PER_COUNT)]
    seeds = [1000 + 7 * k for k in range(len(counts))]
    wrong, compared = mismatches(game, seeds, counts, play_seed=len(game))
    assert wrong == 0, f"{game}: {wrong} of {len(seeds)} games differ"
    assert compared > 50 * len(seeds)  # whole games were compared, not a few first moves
