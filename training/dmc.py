"""Deep Monte-Carlo training of one game: `python -m training.dmc --game construction`.

DouZero's recipe (Zha et al. 2021, arXiv 2106.06135) on the batched engine: the learner's seat plays
epsilon-greedy on its Q network in `run.n_envs` games at once against the opponent pool of self-play
(`pool:` section: its own past snapshots, playing their Q's softmax at `dmc.opponent_temperature`, and
the library's bots); every move is regressed (MSE) on the return its game paid at the end
(training/dmc_learner.py). The config's `dmc:` section sets the budget and the learner; the run folder,
periodic evaluations, progress bar, validation pick and final table are self-play's (training/selfplay.py).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
import yaml
from stable_baselines3.common.logger import configure

from corruption_envs.core.threads import one_blas_thread

from . import config as cfg
from .batched_env import BatchedSelfPlayVecEnv
from .callbacks import SelfPlayCallback
from .dmc_learner import EpisodeStore, QNetwork, choose, update
from .evaluate import final_evaluation, results_rows
from .export import policy_meta
from .plot import plot_learning_curve
from .pool import OpponentPool
from .run_folder import REPO, git_commit, print_results, write_samples
from .selection import select_best


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m training.dmc", description=__doc__.split("\n")[0])
    p.add_argument("--game", help="the game to train (default: the config's game)")
    p.add_argument("--config", help="YAML config (default: configs/<game>.yaml)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config value, dotted (e.g. --set dmc.epsilon=0.1); repeatable")
    p.add_argument("--timesteps", type=int, help="learner steps in total (dmc.timesteps)")
    p.add_argument("--seed", type=int, help="run.seed")
    p.add_argument("--out", help="run folder (default runs/<game>-dmc-<timestamp>)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (for logs)")
    return p.parse_args(argv)


def resolve(args: argparse.Namespace) -> tuple[dict[str, Any], Path]:
    """The config (run.timesteps set to dmc.timesteps, the budget every shared piece reads) and the
    run folder; reads only, writes nothing."""
    config = cfg.load(args.game, args.config, args.set, **{"dmc.timesteps": args.timesteps, "run.seed": args.seed})
    if config["run"]["vec_env"] != "batched":
        raise cfg.ConfigError(f"config run.vec_env={config['run']['vec_env']!r} is not allowed for training.dmc: "
                              "it plays its games on the batched engine; set run.vec_env=batched")
    config["run"]["timesteps"] = config["dmc"]["timesteps"]
    out = Path(args.out) if args.out else REPO / "runs" / f"{config['game']}-dmc-{time.strftime('%Y%m%d-%H%M%S')}"
    if out.exists() and any(out.iterdir()):
        raise cfg.ConfigError(f"--out {out} exists and is not empty; pick a new folder")
    return config, out


class Learner:
    """What the shared callback reads of a model: its step count, logger and env."""

    def __init__(self, venv: BatchedSelfPlayVecEnv, out: Path) -> None:
        self.venv, self.num_timesteps = venv, 0
        self.logger = configure(str(out / "tensorboard"), ["tensorboard"])

    def get_env(self) -> BatchedSelfPlayVecEnv:
        return self.venv


class DMCCallback(SelfPlayCallback):
    """Self-play's snapshots, evaluations, metrics, progress bar and time limit; a DMC run keeps no
    checkpoints (it does not resume), so the callback's checkpoint hook saves nothing."""

    def save_checkpoint(self) -> None:
        pass


def train(config: dict[str, Any], out: Path, progress: bool = True) -> dict[str, Any]:
    """A DMC run into `out`; returns the final evaluation summary (results.json)."""
    run, dmc, pool_cfg = config["run"], config["dmc"], config["pool"]
    th.set_num_threads(run["torch_threads"])
    th.manual_seed(run["seed"])
    rng = np.random.default_rng(run["seed"])
    prior = None if dmc["prior"] == "none" else dmc["prior"]
    pool = OpponentPool(pool_cfg["mix"], pool_cfg["max_snapshots"], pool_cfg["pfsp_power"])
    venv = BatchedSelfPlayVecEnv(config["game"], config["env"], tuple(run["players"]), pool, run["n_envs"],
                                 seed=run["seed"] * 7919, prior=prior)
    out.mkdir(parents=True, exist_ok=True)
    commit = git_commit()
    (out / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    (out / "commit.txt").write_text(f"{commit}\n")
    no_imitation = {**config, "imitation": {**config["imitation"], "games": 0}}  # DMC imitates nothing
    print(cfg.plan(no_imitation).replace("plan: ", "plan: deep Monte-Carlo, "), flush=True)

    d = venv.obs_size
    net = QNetwork(d, venv.engine.num_actions, dmc["net_arch"], dmc["activation"])
    optimizer = th.optim.Adam(net.parameters(), lr=dmc["learning_rate"])
    learner = Learner(venv, out)

    def export() -> Any:
        policy = net.export(policy_meta(config, learner.num_timesteps, commit), prior, dmc["margin"])
        policy.temperature = dmc["opponent_temperature"]  # as a pool snapshot; the file plays greedy
        return policy

    pool.add(export(), 0)
    callback = DMCCallback(config, out, pool, export, run["timesteps"], progress)
    callback.init_callback(learner)
    callback.on_training_start({}, {})
    store, losses, off_prior = EpisodeStore(run["n_envs"]), [], []
    t0, cpu0 = time.monotonic(), time.process_time()
    obs = venv.reset()
    while learner.num_timesteps < run["timesteps"]:
        with th.no_grad():
            q = net(th.from_numpy(obs[:, :d]))
        prior_moves = obs[:, d:].argmax(1) if prior else None
        actions = choose(q, venv.action_masks(), dmc["epsilon"], rng, prior_moves, dmc["margin"])
        if prior:  # how far the learner's play has left the bot's (exploring moves included)
            off_prior.append(float(np.mean(actions != prior_moves)))
        store.add(obs[:, :d], actions)
        obs, rewards, dones, infos = venv.step(actions)
        for row in np.flatnonzero(dones):
            store.end(row, rewards[row])
        for batch in store.take(dmc["batch_size"], rng):
            losses.append(update(net, optimizer, batch, dmc["epochs"], dmc["max_grad_norm"]))
        learner.num_timesteps += len(actions)
        callback.update_locals({"infos": infos})
        if not callback.on_step():
            break
        if losses and callback.n_calls % 200 == 0:
            learner.logger.record("train/q_loss", float(np.mean(losses[-50:])))
            if off_prior:
                learner.logger.record("train/moves_off_prior", float(np.mean(off_prior[-200:])))
    callback.on_training_end()
    learn_seconds, learn_cpu = time.monotonic() - t0, time.process_time() - cpu0

    final, selection = export(), []
    ev = config["eval"]
    if ev["select_from"]:
        earlier = [(s.step, s.policy) for s in pool.snapshots if s.step < learner.num_timesteps]
        final, selection = select_best([(learner.num_timesteps, final), *earlier[-ev["select_from"]:]], config)
    final.save(out / "policy.npz")
    results = final_evaluation(final, config)
    callback.log_results(results)
    plot_learning_curve(out / "metrics.csv", out / "learning_curve.png", config["game"], ev["num_players"])
    summary = {
        "game": config["game"], "algorithm": "dmc", "timesteps": learner.num_timesteps, "commit": commit,
        "learn_seconds": round(learn_seconds, 1), "learn_cpu_seconds": round(learn_cpu, 1),
        "learner_steps_per_s": round(callback.steps_per_second, 1),
        "learner_steps_per_cpu_s": round(callback.steps_per_cpu_second, 1),
        "q_loss_last": round(float(np.mean(losses[-50:])), 5) if losses else None,
        "moves_off_prior_last": round(float(np.mean(off_prior[-200:])), 4) if off_prior else None,
        "load_average": list(os.getloadavg()), "players": run["players"],
        "stopped": callback.stop_reason or "timesteps reached", "pool_mix": pool_cfg["mix"],
        "selection": selection, "exploiters": callback.exploiters, "policy_timesteps": final.meta["timesteps"],
        "final_eval": [r.as_dict() for r in results],
    }
    (out / "results.json").write_text(json.dumps(summary, indent=1))
    write_samples(config, out)
    print_results(summary, results_rows(results), out)
    return summary


def main(argv: list[str] | None = None) -> int:
    one_blas_thread()
    args = parse_args(argv)
    try:
        config, out = resolve(args)
    except ValueError as e:  # the config's or a game's own error, each naming the fix
        print(f"error: {e}", file=sys.stderr)
        return 2
    train(config, out, progress=not args.no_progress)
    return 0


if __name__ == "__main__":
    sys.exit(main())
