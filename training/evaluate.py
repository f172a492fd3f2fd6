"""Seeded evaluation of an agent against baseline bots, seats rotated, with 95% Wilson intervals."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core import Agent

from .wrapper import win_share


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (shared wins count fractionally)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Result:
    baseline: str
    num_players: int
    games: int
    wins: float

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def as_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"baseline": self.baseline, "num_players": self.num_players, "games": self.games,
                "win_rate": self.rate, "ci_low": lo, "ci_high": hi}


def evaluate(
    agent: Agent,
    game: str,
    baseline: str,
    games: int,
    num_players: int = 4,
    seed: int = 0,
    env_config: dict[str, Any] | None = None,
) -> Result:
    """`agent` in a rotating seat (game g: seat g mod n) against n-1 `baseline` bots, games seeded
    from `seed`, so two agents evaluated with the same seed meet the same deals."""
    env = corruption_envs.env(game, num_players=num_players, **(env_config or {}))
    bots = [make_agent(baseline, env, seed=seed * 1000 + s) for s in range(num_players)]
    wins = 0.0
    for g in range(games):
        me = g % num_players
        env.reset(seed=seed * 1_000_003 + g)
        while not env.terminations[env.agent_selection]:
            agent_name = env.agent_selection
            seat = env.agent_name_mapping[agent_name]
            seen = env.observe(agent_name)
            actor = agent if seat == me else bots[seat]
            env.step(actor.act(seen["observation"], seen["action_mask"]))
        ranks = [env.infos[a].get("rank", 0.0) for a in env.possible_agents]
        wins += win_share(ranks, me)
    return Result(baseline, num_players, games, wins)


def results_rows(results: list[Result]) -> list[list[str]]:
    """Rows for a results table: baseline, players, games, win rate, 95% interval."""
    rows = []
    for r in results:
        lo, hi = r.interval
        rows.append([r.baseline, str(r.num_players), str(r.games), f"{r.rate:.3f}", f"[{lo:.3f}, {hi:.3f}]"])
    return rows



def main(argv: list[str] | None = None) -> int:
    """python -m training.evaluate --game corruption --policy policies/corruption/champion.npz"""
    import argparse
    import json

    from corruption_envs.policy import load_policy

    p = argparse.ArgumentParser(prog="python -m training.evaluate",
                                description="Win rate of a policy file against baseline bots, seats rotated.")
    p.add_argument("--game", required=True)
    p.add_argument("--policy", required=True, help="an exported policy .npz")
    p.add_argument("--baselines", nargs="+", default=["random", "heuristic"])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=2026, help="deal seed (differs from training's eval seed)")
    args = p.parse_args(argv)
    env = corruption_envs.env(args.game, num_players=args.players)
    policy = load_policy(args.policy, env)
    env_config = {k: v for k, v in policy.meta.get("env_config", {}).items() if k != "reward"}
    rows = []
    for baseline in args.baselines:
        r = evaluate(policy, args.game, baseline, args.games, args.players, args.seed, env_config)
        rows.append(r.as_dict())
        lo, hi = r.interval
        print(f"{args.game}: policy vs {args.players - 1} x {baseline}: win rate {r.rate:.3f} "
              f"(95% Wilson [{lo:.3f}, {hi:.3f}], {r.games} games, seed {args.seed})", flush=True)
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
