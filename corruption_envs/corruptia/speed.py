"""Decisions per second of seeded random play through env(), observing with env.last() every step.

    python -m corruption_envs.corruptia.speed --players 4 --games 50
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from .env import env as make_env


def decisions_per_second(num_players: int = 4, games: int = 50, seed: int = 0) -> tuple[float, float]:
    """(decisions per wall-clock second, per CPU second of this process): on a shared machine the
    second is the fairer figure."""
    env = make_env(num_players=num_players)
    rng = np.random.default_rng(seed)
    decisions = 0
    start, cpu = time.perf_counter(), time.process_time()
    for g in range(games):
        env.reset(seed=seed + g)
        while not all(env.terminations.values()):
            obs, *_ = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            decisions += 1
    return decisions / (time.perf_counter() - start), decisions / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    wall, cpu = decisions_per_second(args.players, args.games)
    print(f"{args.players} players, random play with env.last() every step: {wall:,.0f} decisions per "
          f"second ({cpu:,.0f} per CPU second)")


if __name__ == "__main__":
    main()
