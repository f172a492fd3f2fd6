"""Env steps per second of RLlib self-play sampling with 0, 1 and 2 env runners (the RLlib backend's setup).

    pip install -e ".[train,rllib]" && python -m benchmarks.rllib_speed --game corruption --runners 0 1 2

Each row builds the backend's PPO algorithm from the game's config (learner, heuristic, random and
snapshot modules mapped per seat), warms up with one sample round, then times `--rounds` synchronous
sample rounds of `--steps` env steps each (all seats' steps) and keeps the best round, so that other
load on a shared machine disturbs the figures less. 0 runners samples in the driver; N runners are N
Ray actors of one CPU each, here on this machine (a local Ray on 127.0.0.1) or on `--address`.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from training import config as cfg
from training import rllib_backend


def sample_rate(config: dict, runners: int, steps: int, rounds: int) -> float:
    """The best of `rounds` env-steps-per-second rates sampling `steps` env steps with `runners` runners."""
    from ray.rllib.execution.rollout_ops import synchronous_parallel_sample
    from ray.tune.registry import register_env

    config = cfg.merge(config, {"rllib": {"num_env_runners": runners}})
    register_env(rllib_backend.ENV_NAME, lambda c: rllib_backend.SelfPlayTurnBasedEnv(**c))
    algo = rllib_backend.algo_config(config).build_algo()
    try:
        module = algo.get_module(rllib_backend.LEARNER)
        policy = rllib_backend.export_module(module, config["ppo"]["activation"], {"game": config["game"]})
        rllib_backend.share_snapshot(algo, range(config["pool"]["max_snapshots"]), policy)
        best = 0.0
        for i in range(rounds + 1):
            t = time.perf_counter()
            episodes = synchronous_parallel_sample(worker_set=algo.env_runner_group, max_env_steps=steps,
                                                   concat=False, _uses_new_env_runners=True)
            done = sum(e.env_steps() for runner in episodes for e in (runner if isinstance(runner, list) else [runner]))
            if i:  # the first round warms up (actor start, module build)
                best = max(best, done / (time.perf_counter() - t))
        return best
    finally:
        algo.stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.rllib_speed", description=__doc__.split("\n")[0])
    p.add_argument("--game", default="corruption")
    p.add_argument("--runners", type=int, nargs="+", default=[0, 1, 2])
    p.add_argument("--steps", type=int, default=4000, help="env steps per sample round")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--address", help="a running Ray cluster (default: a local Ray on 127.0.0.1)")
    args = p.parse_args(argv)
    if min(args.runners) < 0 or args.steps < 1 or args.rounds < 1:
        print("error: --runners must be >= 0, --steps and --rounds >= 1", file=sys.stderr)
        return 2
    try:
        config = cfg.load(args.game)
    except cfg.ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    rllib_backend.connect(args.address)
    print(f"{args.game}: RLlib self-play sampling, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print("| env runners | env steps/s |\n|---|---|")
    for n in args.runners:
        print(f"| {n} | {sample_rate(config, n, args.steps, args.rounds):,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
