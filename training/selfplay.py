"""Self-play training of one game: `python -m training.selfplay --game corruption`.

MaskablePPO learns one seat against a pool of its own frozen snapshots (PFSP) and the heuristic and
random bots; the run folder gets the resolved config, the git commit, metrics.csv, TensorBoard logs,
checkpoints, the exported policy (policy.npz, loadable without torch) and a learning-curve PNG.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import VecEnv

from corruption_envs.core.threads import one_blas_thread

from .network import checkpoint as ckpt
from . import config as cfg
from .ppo.callbacks import SelfPlayCallback
from .network.export import export_actor, play_at_temperature, policy_meta
from .ppo.imitation import warm_start
from .ppo.init_policy import warm_start_actor
from .ppo.learner import build_model, make_venv
from .opponents.pool import OpponentPool
from .run_folder import RunFolder, driver_parser, new_run_path, resume_path
from .selection import select_best


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = driver_parser("python -m training.selfplay", __doc__.split("\n")[0], "", "ppo.learning_rate=1e-4")
    p.add_argument("--timesteps", type=int, help="learner steps in total (run.timesteps)")
    p.add_argument("--seed", type=int, help="run.seed")
    p.add_argument("--resume", metavar="DIR", help="continue the run in DIR from its last checkpoint")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (for logs)")
    p.add_argument("--backend", choices=("sb3", "rllib"), default="sb3",
                   help="sb3: MaskablePPO in one process; rllib: Ray RLlib PPO, local or on a cluster "
                        "(the config's rllib: section)")
    return p.parse_args(argv)


def resolve(args: argparse.Namespace) -> tuple[dict[str, Any], Path, ckpt.Checkpoint | None]:
    """The config, the run folder and, for --resume, its checkpoint; reads only, writes nothing."""
    overrides = {"run.timesteps": args.timesteps, "run.seed": args.seed}
    if args.resume:
        if args.config:
            raise cfg.ConfigError(f"--resume {Path(args.resume)} reads the run's own config.yaml; drop --config {args.config}")
        out = resume_path(args.resume, ("config.yaml",), "a training.selfplay run")
        trained = cfg.load(None, out / "config.yaml").game
        for item in args.set:
            if cfg.parse_set(item)[0][0] == "game":
                raise cfg.ConfigError(f"--resume {out}: the run trains {trained}; drop --set {item}")
        config = cfg.load(args.game, out / "config.yaml", args.set, **overrides)
        return config, out, ckpt.read(out)
    config = cfg.load(args.game, args.config, args.set, **overrides)
    if args.timesteps:  # a shorter run plays fewer imitation and evaluation games too
        planned = cfg.load(args.game, args.config, args.set).run.timesteps
        kept = {".".join(cfg.parse_set(item)[0]) for item in args.set}
        config = cfg.scale_to_timesteps(config, planned, kept)
    return config, new_run_path(args.out, config.game), None


def start(config: cfg.Config, out: Path, checkpoint: ckpt.Checkpoint | None,
          plain: bool = False) -> tuple[MaskablePPO, VecEnv, OpponentPool]:
    """The model, its vec env and the opponent pool, from the config and the checkpoint if any;
    writes nothing, so a checkpoint that does not fit leaves the run folder as it was. `plain`:
    sb3-contrib's own MlpPolicy and rollout buffer (`build_model`)."""
    torch.set_num_threads(config.run.torch_threads)
    set_random_seed(config.run.seed)
    pool_cfg = config.pool
    pool = OpponentPool(pool_cfg.mix, pool_cfg.max_snapshots, pool_cfg.pfsp_power)
    venv = make_venv(config, pool)
    try:
        model = build_model(config, venv, out, plain)
        if checkpoint is not None:
            restore(model, pool, checkpoint, config, out)
        elif config.init.policy is not None:
            print(f"init: {warm_start_actor(model, config)}", flush=True)
    except BaseException:
        venv.close()
        raise
    return model, venv, pool


def restore(model: Any, pool: Any, checkpoint: ckpt.Checkpoint, config: cfg.Config, out: Path) -> None:
    """The checkpoint's tensors into the model, its snapshots into the pool, each checked to fit."""
    ckpt.restore(model, checkpoint)
    pool.load(out / "pool", checkpoint.pool)
    learner = export_actor(model, config.ppo.activation, prior=cfg.bot_option(config, "prior"))
    for snap in pool.snapshots:
        p = snap.policy
        if (p.obs_size, p.num_actions, p.prior) != (learner.obs_size, learner.num_actions, learner.prior):
            raise ckpt.CheckpointError(
                f"pool snapshot {snap.ident} has {p.obs_size} inputs, {p.num_actions} actions and prior "
                f"{p.prior!r}; the run's model has {learner.obs_size}, {learner.num_actions} and "
                f"{learner.prior!r}; {ckpt.RESTART}"
            )


def train(config: cfg.Config, out: Path, model: Any, venv: Any, pool: Any, resume: bool = False,
          progress: bool = True) -> dict[str, Any]:
    """Run (or continue) training of `start`'s model; returns the final evaluation summary."""
    run = config.run
    folder = RunFolder.begin(config, out, plan=cfg.plan(config))
    activation, prior = config.ppo.activation, cfg.bot_option(config, "prior")
    export = lambda: export_actor(model, activation, policy_meta(config, model.num_timesteps, folder.commit),  # noqa: E731
                                  prior)
    t0 = time.monotonic()
    if not resume and config.imitation.games:
        warm_start(model.policy, config, export, out)
    if not pool.snapshots:
        pool.add(export(), model.num_timesteps)
    replicated = run.vec_env == "subproc"
    if replicated:
        for snap in pool.snapshots:
            venv.env_method("add_snapshot", snap.policy, snap.step, snap.ident)
        venv.env_method("sync_pool_scores", pool.scores())

    total = run.timesteps
    callback = SelfPlayCallback(config, out, pool, export, total, progress, replicated)
    remaining = max(0, total - model.num_timesteps)
    t_learn, cpu0 = time.monotonic(), time.process_time()
    model.learn(remaining, callback=callback, reset_num_timesteps=not resume, tb_log_name="ppo")
    learn_seconds, learn_cpu = time.monotonic() - t_learn, time.process_time() - cpu0
    train_seconds = time.monotonic() - t0  # imitation + self-play, before the final evaluation
    steps_per_s, steps_per_cpu_s = callback.steps_per_second, callback.steps_per_cpu_second

    callback.save_checkpoint()
    final, selection = export(), []
    ev = config.eval
    if ev.select_from:
        earlier = [(s.step, s.policy) for s in pool.snapshots if s.step < model.num_timesteps]
        recent = earlier[-ev.select_from:]
        final, selection = select_best([(model.num_timesteps, final), *recent], config)
    play_at_temperature(final, config)
    summary = folder.finish(
        final, timesteps=model.num_timesteps, learner_steps_per_s=round(steps_per_s, 1),
        stopped=callback.stop_reason or "timesteps reached", log=callback.log_results,
        train_seconds=round(train_seconds, 1), learn_seconds=round(learn_seconds, 1),
        learn_cpu_seconds=round(learn_cpu, 1), learner_steps_per_cpu_s=round(steps_per_cpu_s, 1),
        load_average=list(os.getloadavg()), vec_env=run.vec_env, players=run.players, pool_mix=config.pool.mix,
        selection=selection, exploiters=callback.exploiters)
    venv.close()
    return summary


def main(argv: list[str] | None = None) -> int:
    one_blas_thread()
    args = parse_args(argv)
    try:
        if args.backend == "rllib" and args.resume:
            raise cfg.ConfigError("--resume is not supported with --backend rllib (RLlib's checkpoints are "
                                  "pickles, which a run never loads); start a new run, or train with "
                                  "--backend sb3, whose runs resume")
        config, out, checkpoint = resolve(args)
        if args.backend == "rllib":
            from .rllib import backend as rllib_backend  # ray is optional: only --backend rllib loads it

            rllib_backend.check(config)
        else:
            model, venv, pool = start(config, out, checkpoint)
    except ValueError as e:  # the config's, the checkpoint's or a game's own error, each naming the fix
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.backend == "rllib":
        rllib_backend.train(config, out, progress=not args.no_progress)
    else:
        train(config, out, model, venv, pool, resume=checkpoint is not None, progress=not args.no_progress)
    return 0


if __name__ == "__main__":
    sys.exit(main())
