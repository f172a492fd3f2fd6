"""The positions a policy decides at: its seats' states in its own games, kept for a search to label.

Games alternate between the two tables the policy is measured on: the policy against `n - 1` opponent
bots, and one opponent bot against `n - 1` copies of the policy (the table where an exploited policy
loses). At each decision of a policy seat with more than one legal move, kept with probability `keep`
(so a budget of positions spreads over more games), the rules state is copied with the seat to act, its
observation and mask, and, for a policy with a prior bot, that bot's move (the network's input).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from corruption_envs.bots import make_agent
from corruption_envs.core import GameEnv, GameState
from corruption_envs.policy import load_policy

from ..network.sparse_rows import SparseRows


@dataclass
class Positions:
    states: list[GameState]  # independent copies of the rules states
    seats: np.ndarray  # (N,) int64, the seat to act in each state (a policy seat)
    games: np.ndarray  # (N,) int64, the game each comes from (held-out splits go by game)
    observations: SparseRows  # (N, obs) the acting seat's observation
    masks: np.ndarray  # (N, actions) bool
    prior_moves: np.ndarray | None  # (N,) int64, the policy's prior bot's move there (None: no prior)

    def __len__(self) -> int:
        return len(self.states)


def policy_seats(game: int, players: int) -> np.ndarray:
    """Which seats the policy plays in game `game`: even games one seat against opponents, odd games
    every seat but one; the lone seat moves round the table from game to game."""
    lone = (game // 2) % players
    seats = np.arange(players) == lone
    return seats if game % 2 == 0 else ~seats


def record_positions(env: GameEnv, policy_file: str | Path, opponent: str, games: int, keep: float,
                     seed: int) -> Positions:
    """Play `games` seeded games of `env` (its player count) between the policy of `policy_file` (as
    its file says it plays) and `opponent` bots, seats by `policy_seats`, and keep the policy's
    decisions as the module says."""
    if not 0 < keep <= 1 or games < 1:
        raise ValueError(f"keep={keep}, games={games}: give 0 < keep <= 1 and games >= 1")
    rng = np.random.default_rng(seed)
    rules, players = env.unwrapped.rules, len(env.possible_agents)
    policies = [load_policy(policy_file, env, seed=int(rng.integers(2**31))) for _ in range(players)]
    bots = [make_agent(opponent, env, seed=int(rng.integers(2**31))) for _ in range(players)]
    prior = policies[0].prior
    prior_bot = None if prior is None else make_agent(prior, env, seed=int(rng.integers(2**31)))
    states, seats, played, parts, masks, prior_moves = [], [], [], [], [], []
    for g in range(games):
        env.reset(seed=int(rng.integers(2**63)))
        mine = policy_seats(g, players)
        agents = [policies[s] if mine[s] else bots[s] for s in range(players)]
        for agent in agents:
            agent.seed(int(rng.integers(2**31)))
        rows, legal = [], []
        while not env.terminations[env.agent_selection]:
            state = env.unwrapped.game_state
            seat = rules.current_player(state)
            view = env.observe(env.agent_selection)
            if mine[seat] and np.count_nonzero(view["action_mask"]) > 1 and rng.random() < keep:
                states.append(rules.copy_state(state))
                seats.append(seat)
                played.append(g)
                rows.append(view["observation"])
                legal.append(view["action_mask"])
            env.step(int(agents[seat].act(view["observation"], view["action_mask"])))
        if rows:  # kept sparse game by game: a Corruption observation is 120 non-zeros of 3,391
            rows, legal = np.asarray(rows, np.float32), np.asarray(legal)
            parts.append(SparseRows.of(rows))
            masks.append(legal != 0)
            if prior_bot is not None:
                prior_moves.append(np.asarray(prior_bot.act_batch(rows, legal), np.int64))
    width, actions = env.unwrapped.observation_layout.size, env.unwrapped.num_actions
    return Positions(states, np.asarray(seats, np.int64), np.asarray(played, np.int64),
                     SparseRows.merge(parts, width),
                     np.concatenate(masks) if masks else np.zeros((0, actions), bool),
                     None if prior_bot is None else np.concatenate([np.zeros(0, np.int64), *prior_moves]))
