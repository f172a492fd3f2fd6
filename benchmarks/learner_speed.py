"""Learner steps per CPU-second of self-play training: the game-by-game wrapper beside the batched
rollout, each game's default config, measured in one run.

    python -m benchmarks.learner_speed                       # every game, 8,192 learner steps each
    python -m benchmarks.learner_speed --game corruption --steps 20000 --rounds 2

Each variant builds the run as `python -m training.selfplay` does (model, vec env, opponent pool with
the untrained policy as its first snapshot), then times `model.learn(steps)` in CPU seconds of this
process: the rollout (opponents, env, the learner's forward passes) and the PPO updates, without the
imitation warm start, exploiters or evaluations (they are not learner steps). Rounds alternate the
variants and the best round of each counts.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

from corruption_envs.core.threads import one_blas_thread

# the wrapper as the configs ran it before the batched rollout: 8 games, 256 steps each per rollout
VARIANTS = {
    "wrapper (dummy, 8 envs)": ["run.vec_env=dummy", "run.n_envs=8", "ppo.n_steps=256"],
    "batched (config)": ["run.vec_env=batched"],
}
OFF = ["imitation.games=0", "pool.exploiter_every=0", "eval.every=100000000", "run.checkpoint_every=100000000"]


def time_learn(game: str, sets: Sequence[str], steps: int) -> float:
    """Learner steps per CPU-second of `model.learn(steps)` for the game's config with `sets`."""
    import torch

    from training import config as cfg
    from training.export import export_actor
    from training.selfplay import start

    config = cfg.load(game, sets=[*OFF, *sets])
    torch.set_num_threads(config["run"]["torch_threads"])
    with tempfile.TemporaryDirectory() as tmp:
        model, venv, pool = start(config, Path(tmp), None)
        pool.add(export_actor(model, config["ppo"]["activation"], prior=cfg.bot_option(config, "prior")), 0)
        begin = time.process_time()
        model.learn(steps)
        elapsed = time.process_time() - begin
        venv.close()
    return model.num_timesteps / elapsed


def main(argv: Sequence[str] | None = None) -> int:
    one_blas_thread()
    p = argparse.ArgumentParser(prog="python -m benchmarks.learner_speed", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", nargs="+", default=["corruption", "corruptia", "construction"])
    p.add_argument("--steps", type=int, default=8192, help="learner steps per variant and round")
    p.add_argument("--rounds", type=int, default=1)
    args = p.parse_args(argv)
    print("| game | " + " | ".join(VARIANTS) + " | batched / wrapper |")
    print("|---|" + "---|" * (len(VARIANTS) + 1))
    for game in args.game:
        best = dict.fromkeys(VARIANTS, 0.0)
        for _ in range(args.rounds):
            for name, sets in VARIANTS.items():
                best[name] = max(best[name], time_learn(game, sets, args.steps))
        rates = list(best.values())
        print(f"| {game} | " + " | ".join(f"{r:,.0f}" for r in rates) + f" | {rates[-1] / rates[0]:.1f}x |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
