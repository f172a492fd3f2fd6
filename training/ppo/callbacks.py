"""What happens during learning: pool snapshots, periodic evaluation, metrics, checkpoints, progress."""
from __future__ import annotations

import csv
import time
from pathlib import Path
from typing import Any, Callable

from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from ..network import checkpoint
from ..config import Config
from ..evaluate import Result, against_baselines, metric_name
from .exploiter import train_best_response
from ..opponents.pool import OpponentPool

METRIC_FIELDS = [
    "timesteps", "wall_seconds", "learner_steps_per_s", "train_win_rate", "episodes", "pool_size",
    "baseline", "num_players", "games", "win_rate", "ci_low", "ci_high", "reverse",
]


class SelfPlayCallback(BaseCallback):
    """Every `snapshot_every` steps a frozen copy joins the pool; every `eval.every` steps a seeded
    evaluation against each baseline is logged (metrics.csv, TensorBoard, progress bar)."""

    def __init__(
        self,
        config: Config,
        out: Path,
        pool: OpponentPool,
        export: Callable[[], Any],
        total: int,
        progress: bool = True,
        replicated: bool = False,
    ) -> None:
        super().__init__()
        self.config, self.out, self.pool, self.export = config, out, pool, export
        self.total = total
        self.replicated = replicated  # envs in subprocesses hold pool replicas to keep in sync
        self.progress = progress
        self.start_time = time.monotonic()
        self.start_cpu = time.process_time()  # this process only: load-independent with vec_env dummy
        self.start_steps = 0
        self.next_snapshot = self.next_eval = self.next_checkpoint = self.next_exploiter = 0
        self.exploiters: list[dict[str, Any]] = []
        self.recent_wins: list[float] = []
        self.episodes = 0
        self.latest: dict[str, Result] = {}
        self.bar: tqdm | None = None
        self.stop_reason = ""

    # --- sb3 hooks ---------------------------------------------------------------------------------
    def _on_training_start(self) -> None:
        n = self.num_timesteps
        self.start_steps = n
        run, pool, ev = self.config.run, self.config.pool, self.config.eval
        self.next_snapshot = (n // pool.snapshot_every + 1) * pool.snapshot_every
        self.next_eval = (n // ev.every + 1) * ev.every
        self.next_checkpoint = (n // run.checkpoint_every + 1) * run.checkpoint_every
        every = pool.exploiter_every
        self.next_exploiter = (n // every + 1) * every if every else float("inf")
        if self.progress:
            self.bar = tqdm(total=self.total, initial=n, unit="step", dynamic_ncols=True, smoothing=0.05)

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", ()):
            if "win" in info:
                self.episodes += 1
                self.recent_wins.append(info["win"])
                for ident, points in info["pool_points"]:
                    self.pool.record(ident, points)
        del self.recent_wins[:-500]
        n = self.num_timesteps
        if self.bar is not None:  # sb3 rounds the run up to whole rollouts: clamp the bar
            self.bar.update(min(n, self.total) - self.bar.n)
        if n >= self.next_snapshot:
            self.next_snapshot += self.config.pool.snapshot_every
            self.add_snapshot(n)
        if n >= self.next_exploiter:
            self.next_exploiter += self.config.pool.exploiter_every
            self.add_exploiter(n)
        if n >= self.next_eval:
            self.next_eval += self.config.eval.every
            self.run_evaluation()
        if n >= self.next_checkpoint:
            self.next_checkpoint += self.config.run.checkpoint_every
            self.save_checkpoint()
        limit = self.config.run.time_limit_minutes
        if limit and time.monotonic() - self.start_time > 60 * limit:
            self.stop_reason = f"time limit of {limit} min reached at {n} steps"
            return False
        return True

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.close()

    # --- the work ------------------------------------------------------------------------------------
    @property
    def steps_per_second(self) -> float:
        elapsed = time.monotonic() - self.start_time
        return (self.num_timesteps - self.start_steps) / elapsed if elapsed > 0 else 0.0

    @property
    def steps_per_cpu_second(self) -> float:
        cpu = time.process_time() - self.start_cpu
        return (self.num_timesteps - self.start_steps) / cpu if cpu > 0 else 0.0

    @property
    def train_win_rate(self) -> float:
        return sum(self.recent_wins) / len(self.recent_wins) if self.recent_wins else float("nan")

    def add_snapshot(self, step: int, policy: Any = None) -> None:
        """A frozen copy of the learner (or `policy`) joins the pool, here and in every env's replica of it."""
        snap = self.pool.add(self.export() if policy is None else policy, step)
        if self.replicated:
            self.training_env.env_method("add_snapshot", snap.policy, step, snap.ident)
            self.training_env.env_method("sync_pool_scores", self.pool.scores())

    def add_exploiter(self, step: int) -> None:
        """Train a best response to the learner now and add it to the pool (its time is logged)."""
        config = self.config.updated({"run.timesteps": self.config.pool.exploiter_steps,
                                      "run.seed": self.config.run.seed + 1 + len(self.exploiters)})
        target = self.export()
        exploiter, timing = train_best_response(config, target, target.meta)
        self.add_snapshot(step, exploiter)
        self.exploiters.append({"at_step": step, **timing})

    def _on_rollout_end(self) -> None:
        if self.replicated:
            self.training_env.env_method("sync_pool_scores", self.pool.scores())

    def run_evaluation(self) -> list[Result]:
        """Evaluate the learner now against each baseline and log it."""
        policy, ev = self.export(), self.config.eval
        results = against_baselines(policy, self.config, ev.games)
        if ev.reverse:
            results += against_baselines(policy, self.config, ev.games, reverse=True, baselines=ev.reverse)
        self.log_results(results)
        return results

    def log_results(self, results: list[Result]) -> None:
        path = self.out / "metrics.csv"
        new = not path.exists()
        sps, twr = self.steps_per_second, self.train_win_rate
        with open(path, "a", newline="") as f:
            w = csv.DictWriter(f, METRIC_FIELDS)
            if new:
                w.writeheader()
            for r in results:
                w.writerow({
                    "timesteps": self.num_timesteps,
                    "wall_seconds": round(time.monotonic() - self.start_time, 1),
                    "learner_steps_per_s": round(sps, 1), "train_win_rate": round(twr, 4),
                    "episodes": self.episodes, "pool_size": len(self.pool.snapshots),
                    **{k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.as_dict().items()},
                })
                name = metric_name(r)
                self.latest[name] = r
                lo, hi = r.interval
                self.logger.record(f"eval/win_rate_{name}", r.rate)
                self.logger.record(f"eval/ci_low_{name}", lo)
                self.logger.record(f"eval/ci_high_{name}", hi)
        self.logger.record("train/learner_steps_per_s", sps)
        self.logger.record("train/win_rate_in_pool_games", twr)
        self.logger.record("train/pool_size", len(self.pool.snapshots))
        self.logger.dump(self.num_timesteps)
        if self.bar is not None:
            post = {name: f"{r.rate:.2f}" for name, r in self.latest.items()}
            self.bar.set_postfix({"steps/s": f"{sps:.0f}", "train_win": f"{twr:.2f}", **post})

    def save_checkpoint(self) -> None:
        checkpoint.save(self.out, self.model, self.pool)
