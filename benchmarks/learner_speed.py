"""Learner steps per CPU-second of self-play training: the game-by-game wrapper beside the batched
rollout, each game's default config, measured in one run.

    python -m benchmarks.learner_speed                       # every game, 8,192 learner steps each
    python -m benchmarks.learner_speed --game corruption --steps 20000 --rounds 2
    python -m benchmarks.learner_speed --game corruption --set ppo.n_epochs=2   # one more column

Each variant builds the run as `python -m training.selfplay` does (model, vec env, opponent pool with
the untrained policy as its first snapshot), then times `model.learn(steps)` in CPU seconds of this
process: the rollout (opponents, env, the learner's forward passes) and the PPO updates, without the
imitation warm start, exploiters or evaluations (they are not learner steps). Rounds alternate the
variants and the best round of each counts. The wrapper runs twice: with sb3-contrib's own MlpPolicy
and rollout buffer, as training ran before the batched engine (not for a policy with a prior bot, which
is always the learner's own), and with the learner's policy the batched rollout uses too. `--set`
adds the batched rollout with those config overrides as one more column, timed in the same rounds.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Sequence

from benchmarks.results import add_record_option, command_line, measured, record_name, write
from corruption_envs.core.threads import one_blas_thread
from training import config as cfg

# the wrapper as the configs ran it before the batched rollout: 8 games, 256 steps each per rollout
WRAPPER = ["run.vec_env=dummy", "run.n_envs=8", "ppo.n_steps=256"]
VARIANTS = {  # name: (config overrides, sb3-contrib's own MlpPolicy and buffer)
    "wrapper, MlpPolicy": (WRAPPER, True),
    "wrapper": (WRAPPER, False),
    "batched (config)": (["run.vec_env=batched"], False),
}
OFF = ["imitation.games=0", "pool.exploiter_every=0", "eval.every=100000000", "run.checkpoint_every=100000000"]


def time_learn(game: str, sets: Sequence[str], steps: int, plain: bool = False,
               clock: Callable[[], float] = time.process_time) -> float | None:
    """Learner steps per `clock` second (CPU by default) of `model.learn(steps)` for the game's config with
    `sets` (None: a `plain` MlpPolicy for a config whose policy has a prior bot, which only the learner's
    policy has)."""
    import torch

    from training.network.export import export_actor
    from training.selfplay import start

    config = cfg.load(game, sets=[*OFF, *sets])
    prior = cfg.bot_option(config, "prior")
    if plain and prior:
        return None
    torch.set_num_threads(config.run.torch_threads)
    with tempfile.TemporaryDirectory() as tmp:
        model, venv, pool = start(config, Path(tmp), None, plain)
        pool.add(export_actor(model, config.ppo.activation, prior=prior), 0)
        begin = clock()
        model.learn(steps)
        elapsed = clock() - begin
        venv.close()
    return model.num_timesteps / elapsed


def main(argv: Sequence[str] | None = None) -> int:
    one_blas_thread()
    p = argparse.ArgumentParser(prog="python -m benchmarks.learner_speed", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", nargs="+", default=["corruption", "corruptia", "construction"])
    p.add_argument("--steps", type=int, default=8192, help="learner steps per variant and round")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a config override for one more batched column (repeatable), e.g. ppo.n_epochs=2")
    add_record_option(p)
    args = p.parse_args(argv)
    variants = dict(VARIANTS)
    if args.set:
        variants["batched, " + " ".join(args.set)] = (["run.vec_env=batched", *args.set], False)
    names = list(variants)
    for game in args.game:  # a bad game or override stops here, before minutes of timing
        try:
            for sets, _ in variants.values():
                cfg.load(game, sets=[*OFF, *sets])
        except ValueError as e:  # ConfigError included
            print(f"error: {e}", file=sys.stderr)
            return 2
    columns = [("game", ""), *((name, ",.0f") for name in names),
               ("batched / wrapper, MlpPolicy", ".1f"), ("batched / wrapper", ".1f")]
    print("| " + " | ".join(name for name, _ in columns) + " |")
    print("|---|" + "---|" * (len(columns) - 1))
    rows = []
    for game in args.game:
        best: dict[str, float | None] = dict.fromkeys(names, 0.0)
        for _ in range(args.rounds):
            for name, (sets, plain) in variants.items():
                rate = time_learn(game, sets, args.steps, plain)
                best[name] = None if rate is None else max(best[name] or 0.0, rate)
        batched = best["batched (config)"]
        ratios = [None if best[w] is None else round(batched / best[w], 1)
                  for w in ("wrapper, MlpPolicy", "wrapper")]
        rows.append([game, *(None if r is None else round(r) for r in best.values()), *ratios])
        print("| " + " | ".join("-" if v is None else format(v, f) for v, (_, f) in zip(rows[-1], columns)) + " |",
              flush=True)
    if args.record is not None:
        record = measured("speed", "Learner steps per CPU-second of training", command_line(
            "benchmarks.learner_speed", argv), columns, rows, games=args.game)
        write(record, args.record, record_name("learner-speed", *args.set))
    return 0


if __name__ == "__main__":
    sys.exit(main())
