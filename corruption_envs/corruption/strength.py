"""The heuristic's strength against random bots, and the speed of random play:
`python -m corruption_envs.corruption.strength [--games 1000] [--speed]`."""
from __future__ import annotations

import argparse
import time

import numpy as np

from ..core import RandomAgent
from .env import env as make_env
from .heuristic import HeuristicAgent


def win_rate(games: int = 1000, players: int = 4, seed: int = 0) -> tuple[float, float, float]:
    """The heuristic's share of wins (shared wins count their share) in seat 0..n-1 rotated against
    random bots, with a 95% Wilson interval."""
    env = make_env(num_players=players)
    total = 0.0
    for g in range(games):
        seat = g % players
        agents = [RandomAgent(seed * 100_003 + g * players + p) for p in range(players)]
        agents[seat] = HeuristicAgent(env, seed=g)
        env.reset(seed=seed * 1_000_003 + g)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(agents[env.agent_name_mapping[agent]].act(obs["observation"], obs["action_mask"]))
        keys = env.rules.final_keys(env.game_state)
        best = max(keys)
        if keys[seat] == best:
            total += 1 / sum(k == best for k in keys)
    p = total / games
    z = 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * np.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return p, centre - half, centre + half


def random_play_speed(games: int = 300, players: int = 4, seed: int = 0) -> float:
    """Decisions per second of seeded random play through env(), reading env.last() every step."""
    env = make_env(num_players=players)
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        env.reset(seed=seed + g)
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            steps += 1
    return steps / (time.perf_counter() - start)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Win rate of the Corruption heuristic vs random bots")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--speed", action="store_true", help="measure random-play decisions/s instead")
    args = parser.parse_args()
    if args.speed:
        rate = random_play_speed(players=args.players)
        print(f"random play, {args.players} players: {rate:,.0f} decisions/s (env() with env.last())")
        raise SystemExit
    rate, lo, hi = win_rate(args.games, args.players)
    print(f"heuristic vs {args.players - 1} random bots, {args.games} seeded games: "
          f"win rate {rate:.3f} (95% Wilson interval {lo:.3f}-{hi:.3f}; a random seat wins "
          f"{1 / args.players:.3f})")
