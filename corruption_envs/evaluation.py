"""Seeded strength measurement: one agent in a rotating seat against baseline bots (and, the other way
round, one bot against copies of the agent), with a 95% Wilson interval. Torch-free, shared by the per-game tests, training's periodic evaluation and its CLI
(`python -m training.evaluate --game corruption --policy heuristic --baselines random`)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .bots import make_agent
from .core import Agent
from .core.game import Game, expect_game
from .core.rewards import win_shares
from .match import play_match

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a rate; `successes` may be fractional (shared wins count as shares)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z * z / (4.0 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Result:
    """`wins` of the seat that sits alone: the evaluated agent against n-1 `baseline` bots, or with
    `reverse`, one `baseline` bot against n-1 copies of the agent (its wins, so lower is better for
    the agent)."""

    baseline: str
    num_players: int
    games: int
    wins: float
    reverse: bool = False

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def as_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"baseline": self.baseline, "num_players": self.num_players, "games": self.games,
                "win_rate": self.rate, "ci_low": lo, "ci_high": hi, "reverse": self.reverse}


def evaluate(
    agent: Agent,
    game: Game,
    baseline: str,
    games: int,
    num_players: int = 4,
    seed: int = 0,
    env_config: dict[str, Any] | None = None,
    baseline_sample: bool | None = None,
    reverse: bool = False,
) -> Result:
    """`agent` in a rotating seat (game g: seat g mod n) against n-1 `baseline` bots, games seeded
    from `seed`, so two agents evaluated with the same seed meet the same deals. A policy-file
    baseline plays as its file says, or greedy / sampling by `baseline_sample`. With `reverse`, one
    `baseline` bot sits in the rotating seat against n-1 copies of `agent`, and the result counts the
    bot's wins: a policy that only wins as the odd one out shows here."""
    expect_game(game, "evaluate")
    env = game.env(num_players=num_players, **(env_config or {}))
    agent.bind(env, seed)  # a policy with a prior, or a search bot, plays in this env
    agent.seed(seed)  # an agent that draws (a sampling policy) draws the same moves on the same deals
    bots = [make_agent(baseline, env, seed=seed * 1000 + s, sample=baseline_sample) for s in range(num_players)]
    # the lone seat's agent, and the agent of every other seat s
    lone, others = (bots[0], [agent] * num_players) if reverse else (agent, bots)
    deals = [seed * 1_000_003 + g for g in range(games)]
    wins = _rotating_seat_wins(game, env, lone, others, deals, env_config)
    return Result(baseline, num_players, games, wins, reverse)


def _rotating_seat_wins(game: Game, env: Any, lone: Agent, others: list[Agent], deals: list[int],
                        env_config: dict[str, Any] | None) -> float:
    """Win shares of `lone`, seated at g mod n on deal g, with `others[s]` in every other seat s."""
    n = len(others)
    if all(a.plays_on_batches for a in (lone, *others)):
        # agent 0 is `lone`, agent 1 + s the one of seat s (copies of one agent share its index)
        index = {id(lone): 0}
        members = [lone]
        for a in others:
            if id(a) not in index:
                index[id(a)] = len(members)
                members.append(a)
        lineups = [[0 if s == g % n else index[id(others[s])] for s in range(n)] for g in range(len(deals))]
        results = play_match(game, members, lineups, deals, env_config)
        return float(sum(win_shares(results.ranks[g, :n])[g % n] for g in range(len(deals))))
    wins = 0.0
    for g, deal in enumerate(deals):
        me = g % n
        env.reset(seed=deal)
        for a in {id(a): a for a in (lone, *others)}.values():
            a.start_game()  # a mixture policy draws the member that plays this game
        while not env.terminations[env.agent_selection]:
            agent_name = env.agent_selection
            seat = env.agent_name_mapping[agent_name]
            seen = env.observe(agent_name)
            actor = lone if seat == me else others[seat]
            env.step(actor.act(seen["observation"], seen["action_mask"]))
        wins += win_shares([env.infos[a]["rank"] for a in env.possible_agents])[me]
    return wins
