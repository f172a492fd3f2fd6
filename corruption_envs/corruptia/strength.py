"""The heuristic's win rate against random bots, with a 95% Wilson interval.

    python -m corruption_envs.corruptia.strength --games 1000 --players 4
"""
from __future__ import annotations

import argparse
import math

from ..core import RandomAgent
from .env import env as make_env
from .heuristic import HeuristicAgent


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win share."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(num_players: int, game_seed: int, heuristic_seat: int) -> float:
    """One seeded game of the heuristic in `heuristic_seat` against random bots; its share of the win."""
    env = make_env(num_players=num_players)
    env.reset(seed=game_seed)
    bots = {a: RandomAgent(game_seed * 10 + i) for i, a in enumerate(env.possible_agents)}
    me = env.possible_agents[heuristic_seat]
    bots[me] = HeuristicAgent(env, seed=game_seed)
    share = 0.0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            if agent == me:
                share = max(reward, 0.0)  # 'win' reward: 1 / number of winners, else negative
            env.step(None)
        else:
            env.step(bots[agent].act(obs["observation"], obs["action_mask"]))
    return share


def win_rate(games: int, num_players: int = 4, seed: int = 0) -> tuple[float, float, float]:
    """Share of games won (ties shared), the seat rotating; with its 95% Wilson interval."""
    wins = sum(play(num_players, seed + g, g % num_players) for g in range(games))
    lo, hi = wilson(wins, games)
    return wins / games, lo, hi


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rate, lo, hi = win_rate(args.games, args.players, args.seed)
    print(f"heuristic vs {args.players - 1} random bots, {args.games} seeded games: win rate "
          f"{rate:.3f} (95% Wilson interval {lo:.3f}-{hi:.3f}; an equal share is "
          f"{1 / args.players:.3f})")


if __name__ == "__main__":
    main()
