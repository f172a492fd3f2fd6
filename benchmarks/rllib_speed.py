"""Learner steps per second of self-play training on RLlib, turn by turn and on the batched engine, beside
the SB3 path, each at 0, 1 and 2 env runners, measured in one run.

    pip install -e ".[train,rllib]" && python -m benchmarks.rllib_speed --game corruption --runners 0 1 2

Each row builds the backend's PPO algorithm from the game's config (`training.rllib.backend`, the
untrained learner as the opponents' first snapshot) and times `--iterations` calls of `algo.train()`
(sampling and the PPO update) after one warm-up call, in wall seconds: Ray's runners are other processes;
then the runners' sampling alone, `--iterations` times an iteration's batch (`rllib.train_batch_size`
env steps, all seats' turn by turn, the learner's on the engine), in env steps per wall second.
"turn by turn" is `run.vec_env: dummy`, every seat an RLlib agent stepping one game at a time through the
AEC adapter; "engine" is `run.vec_env: batched`, each runner stepping `run.n_envs` games of the
learner's seat with the opponents deciding in batches inside it. The SB3 row times `model.learn` on the
batched rollout for as many learner steps. Both backends run the config without its prior bot (RLlib
takes `ppo.prior` on the engine only), so they train the same network. 0 runners samples in the driver; N runners are
N Ray actors of one CPU each, on this machine (a local Ray on 127.0.0.1) or on `--address`.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from benchmarks.learner_speed import OFF, time_learn
from benchmarks.results import add_record_option, command_line, measured, record_name, write
from training import config as cfg
from training.rllib import backend as rllib_backend

MODES = {"turn by turn": "run.vec_env=dummy", "engine": "run.vec_env=batched"}
SAME_NETWORK = ["ppo.prior=none"]
COLUMNS = (("backend", ""), ("env runners", ""), ("learner steps/s", ",.0f"), ("sampling alone, env steps/s", ",.0f"))


def train_rate(config: dict, iterations: int) -> tuple[float, float]:
    """Learner steps per wall second over `iterations` calls of `algo.train()` after a warm-up call, and
    env steps per wall second of the runners' sampling alone (`iterations` times an iteration's batch)."""
    import torch
    from ray.rllib.execution.rollout_ops import synchronous_parallel_sample

    torch.set_num_threads(config.run.torch_threads)  # as training does: one thread for small MLPs
    rllib_backend.register(config)
    built = rllib_backend.algo_config(config)
    algo = built.build_algo()
    try:
        name = rllib_backend.learner_id(config)
        policy = rllib_backend.export_learner(algo.get_module(name), config, {"game": config.game})
        rllib_backend.Snapshots(algo, config).start(policy)
        first = rllib_backend.learner_steps(algo.train(), name)  # actor start, module build, compile
        begin = time.perf_counter()
        for _ in range(iterations):
            last = rllib_backend.learner_steps(algo.train(), name)
        train = (last - first) / (time.perf_counter() - begin)
        sampled, begin = 0, time.perf_counter()
        for _ in range(iterations):
            episodes = synchronous_parallel_sample(worker_set=algo.env_runner_group, _uses_new_env_runners=True,
                                                   max_env_steps=built.total_train_batch_size)
            sampled += sum(len(e) for e in episodes)
        return train, sampled / (time.perf_counter() - begin)
    finally:
        algo.stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.rllib_speed", description=__doc__.split("\n")[0])
    p.add_argument("--game", default="corruption")
    p.add_argument("--runners", type=int, nargs="+", default=[0, 1, 2])
    p.add_argument("--iterations", type=int, default=3, help="timed algo.train() calls per row")
    p.add_argument("--modes", nargs="+", choices=sorted(MODES), default=list(MODES))
    p.add_argument("--sb3-steps", type=int, default=16384, help="learner steps of the SB3 row (0: no row)")
    p.add_argument("--address", help="a running Ray cluster (default: a local Ray on 127.0.0.1)")
    add_record_option(p)
    args = p.parse_args(argv)
    if min(args.runners) < 0 or args.iterations < 1 or args.sb3_steps < 0:
        print("error: --runners and --sb3-steps must be >= 0, --iterations >= 1", file=sys.stderr)
        return 2
    try:
        configs = {m: cfg.load(args.game, sets=[*OFF, *SAME_NETWORK, MODES[m]]) for m in args.modes}
    except cfg.ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    rllib_backend.connect(args.address)
    print(f"{args.game}: learner steps per second of training, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}")
    print("| backend | env runners | learner steps/s | sampling alone, env steps/s |\n|---|---|---|---|")
    rows: list[list[Any]] = []
    for mode in args.modes:
        for n in args.runners:
            config = configs[mode].updated({"rllib.num_env_runners": n})
            train, sampling = train_rate(config, args.iterations)
            rows.append([f"RLlib, {mode}", n, round(train), round(sampling)])
            print(f"| RLlib, {mode} | {n} | {train:,.0f} | {sampling:,.0f} |", flush=True)
    if args.sb3_steps:
        rate = time_learn(args.game, [*SAME_NETWORK, "run.vec_env=batched"], args.sb3_steps, clock=time.perf_counter)
        rows.append(["SB3, batched rollout", None, round(rate), None])
        print(f"| SB3, batched rollout | - | {rate:,.0f} | - |", flush=True)
    if args.record is not None:
        record = measured("rllib", f"Training speed on RLlib beside SB3 ({args.game})",
                          command_line("benchmarks.rllib_speed", argv), COLUMNS, rows, games=[args.game])
        write(record, args.record, record_name("rllib-speed", args.game))
    return 0


if __name__ == "__main__":
    sys.exit(main())
