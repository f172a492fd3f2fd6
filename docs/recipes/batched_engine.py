"""Thousands of games at once: the batched engine, batched bots and the match loop.

    python docs/recipes/batched_engine.py --games 1024

1. Step B games together with random legal moves (one action per game), reading per game the acting
   seat's observation and mask (the AEC env's encoding) and, when a game ends, every seat's reward.
2. Let bots decide for a whole batch (`act_batch`), the heuristic in seat 0 against random seats.
3. Play seeded games between named agents with the match loop: the same deals `env.reset(seed=...)`
   deals, one call per agent per step.
"""
from __future__ import annotations

import argparse

import numpy as np

import corruption_envs
from corruption_envs import vector
from corruption_envs.bots import make_agent
from corruption_envs.match import play_match
from corruption_envs.vector.sampling import random_legal
from corruption_envs import get_game


def random_play(games: int, steps: int) -> None:
    engine = vector.make("corruption", num_envs=games, num_players=[3, 4, 5], seed=0)
    batch = engine.reset()
    rng = np.random.default_rng(0)
    ended, seat0 = 0, 0.0
    for _ in range(steps):
        batch = engine.step(random_legal(batch.action_mask, rng))  # auto-reset: ended rows start anew
        ended += int(batch.terminated.sum())
        seat0 += float(batch.rewards[batch.terminated, 0].sum())  # 'win' reward: +1 shared by winners
    print(f"random play: {games * steps} decisions, {ended} games ended, seat 0's reward {seat0:+.2f}")


def bots_on_a_batch(games: int, steps: int) -> None:
    engine = vector.make("corruption", num_envs=games, num_players=4, seed=1)
    env = corruption_envs.env("corruption", num_players=4)  # bots read the game's layout from an env
    heuristic, rand = make_agent("heuristic", env, seed=0), make_agent("random", env, seed=1)
    batch = engine.reset()
    wins = ended = 0.0
    for _ in range(steps):
        mine = batch.current_player == 0
        actions = np.empty(games, np.int64)
        for rows, bot in ((np.flatnonzero(mine), heuristic), (np.flatnonzero(~mine), rand)):
            if rows.size:
                actions[rows] = bot.act_batch(batch.observation[rows], batch.action_mask[rows])
        batch = engine.step(actions)
        done = batch.terminated
        wins += float((batch.ranks[done, 0] == 1).sum())
        ended += int(done.sum())
    print(f"heuristic in seat 0 vs 3 random: won {wins:.0f} of {ended:.0f} games")


def match(games: int) -> None:
    env = corruption_envs.env("corruption", num_players=4)
    agents = [make_agent("expert", env, seed=0), make_agent("heuristic", env, seed=1)]
    lineups = [[(g + s) % 2 for s in range(4)] for g in range(games)]  # expert, heuristic, expert, ...
    results = play_match(get_game("corruption"), agents, lineups, env_seeds=range(games))
    first = np.array([[lineups[g][s] for s in range(4)] for g in range(games)])[results.ranks[:, :4] == 1]
    print(f"match: {games} games, {results.decisions.sum()} decisions; first places by the expert "
          f"{(first == 0).sum()}, by the heuristic {(first == 1).sum()}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=1024)
    p.add_argument("--steps", type=int, default=300)
    args = p.parse_args()
    random_play(args.games, args.steps)
    bots_on_a_batch(args.games, args.steps)
    match(min(args.games, 200))
