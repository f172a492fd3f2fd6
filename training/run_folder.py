"""A run's folder and its life, one for every training driver (selfplay, rllib_backend, psro): where it
is (a new folder, or the one --resume names), what it holds before training (config.yaml, commit.txt)
and what it holds and prints at its end (policy.npz, the final table both ways, learning_curve.png,
sample games, results.json). Drivers train; the run folder does the rest."""
from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import yaml

from rich.console import Console
from rich.table import Table

from benchmarks.results import git_commit
from corruption_envs.bots import make_agent
from corruption_envs.recording import save_samples

from .config import Config, ConfigError
from .evaluate import Result, final_evaluation, results_rows
from .plot import plot_learning_curve

REPO = Path(__file__).resolve().parent.parent
SAMPLE_GAMES = 2  # logged games of the final policy in samples/, each with its replay page


def write_samples(config: Config, out: Path) -> None:
    """samples/: the final policy in seat 0 against heuristic bots, as `play --log` files and their
    HTML replay pages (python -m corruption_envs.play --replay samples/game-<seed>.jsonl)."""
    n = config.eval.num_players
    env = config.game_def.env(**config.env, num_players=n, record_events=True)
    seed = config.run.seed
    specs = [str(out / "policy.npz")] + ["heuristic"] * (n - 1)
    agents = [make_agent(spec, env, seed=seed + p) for p, spec in enumerate(specs)]
    seats = ["policy.npz"] + specs[1:]
    save_samples(env, agents, [seed * 1000 + k for k in range(SAMPLE_GAMES)], out / "samples",
                 config.game, seats)


def print_results(summary: dict[str, Any], rows: list[list[str]], out: Path) -> None:
    """The final evaluation as a table (rows: `evaluate.results_rows`) and where the run folder is."""
    picked = "" if summary["policy_timesteps"] == summary["timesteps"] else (
        f", the snapshot at {summary['policy_timesteps']} steps picked by validation")
    table = Table(title=f"{summary['game']}: final policy after {summary['timesteps']} steps{picked} "
                        f"({summary['learner_steps_per_s']:.0f} learner steps/s)")
    for col in ("who sits alone", "players", "games", "its win rate", "95% Wilson interval"):
        table.add_column(col)
    for row in rows:
        table.add_row(*row)
    console = Console()
    console.print(table)
    console.print(f"run folder: {out}  ({summary['stopped']})")


def driver_parser(prog: str, description: str, kind: str, example: str) -> argparse.ArgumentParser:
    """The arguments every training driver takes: --game, --config, --set (e.g. `example`) and --out
    (default runs/<game>-`kind`-<timestamp>, or runs/<game>-<timestamp> for an empty `kind`)."""
    p = argparse.ArgumentParser(prog=prog, description=description)
    p.add_argument("--game", help="the game (default: the config's game)")
    p.add_argument("--config", help="YAML config (default: configs/<game>.yaml)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help=f"override a config value, dotted (e.g. --set {example}); repeatable")
    p.add_argument("--out", help=f"run folder (default runs/<game>-{kind + '-' if kind else ''}<timestamp>)")
    return p


def missing_folder(flag: str, path: str | None) -> str | None:
    """What is wrong with output file `path` (given as `flag`) when its folder does not exist, else None:
    checked before a long run, not after it."""
    if path is None or Path(path).parent.is_dir():
        return None
    return f"{flag} {path}: folder {str(Path(path).parent)!r} does not exist; create it first"


def new_run_path(out: str | None, game: str, kind: str = "") -> Path:
    """The folder of a new run: `out`, or runs/<game>[-kind]-<time>; refused when it holds anything."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = Path(out) if out else REPO / "runs" / "-".join([game, *([kind] if kind else []), stamp])
    if path.exists() and any(path.iterdir()):
        raise ConfigError(f"--out {path} exists and is not empty; pick a new folder or use --resume")
    return path


def resume_path(folder: str, needs: tuple[str, ...], what: str) -> Path:
    """The folder --resume names, refused unless it holds the files `needs` (`what` made them)."""
    path = Path(folder)
    if not all((path / name).is_file() for name in needs):
        raise ConfigError(f"--resume {path}: no {' and '.join(needs)} there; give the folder of {what}")
    return path


@dataclass
class RunFolder:
    """A run's folder from start to finish. `begin` opens it (new or resumed) and records the config and
    the commit; `finish` saves the final policy, plays the final table both ways, writes its files and
    prints the table; results.json comes last, so a folder that has one holds a finished run.

    A driver adopts it so (training/selfplay.py does, as do rllib/backend.py and psro.py):

        folder = RunFolder.begin(config, out, plan=cfg.plan(config))
        policy = my_training(config, folder.path, meta=policy_meta(config, 0, folder.commit))
        play_at_temperature(policy, config)  # the exported actor plays as eval.play says
        folder.finish(policy, timesteps=steps, learner_steps_per_s=rate, stopped="timesteps reached",
                      train_seconds=seconds)  # any further keyword: a results.json entry
    """

    path: Path
    config: Config
    commit: str

    @classmethod
    def begin(cls, config: Config, path: Path, plan: str | None = None) -> RunFolder:
        """Create (or reopen) the folder, write config.yaml, log the commit, print the `plan` line."""
        path.mkdir(parents=True, exist_ok=True)
        commit = git_commit()
        (path / "config.yaml").write_text(yaml.safe_dump(config.dump(), sort_keys=False))
        with open(path / "commit.txt", "a") as f:
            f.write(f"{commit}\n")
        if plan is not None:
            print(plan, flush=True)
        return cls(path, config, commit)

    def finish(self, policy: Any, *, timesteps: int, learner_steps_per_s: float, stopped: str,
               log: Callable[[list[Result]], None] | None = None, **extra: Any) -> dict[str, Any]:
        """The end of a run: `policy` saved as policy.npz and played in the final table (`log` also
        records its rows, e.g. in metrics.csv), the learning curve if metrics.csv has one, sample games,
        results.json (the summary, with `extra` entries) and the printed table. Returns the summary."""
        config, out = self.config, self.path
        policy.save(out / "policy.npz")
        results = final_evaluation(policy, config)
        if log is not None:
            log(results)
        if (out / "metrics.csv").exists():
            plot_learning_curve(out / "metrics.csv", out / "learning_curve.png", config.game,
                                config.eval.num_players)
        write_samples(config, out)
        summary = {"game": config.game, "timesteps": timesteps, "commit": self.commit, **extra,
                   "learner_steps_per_s": learner_steps_per_s, "stopped": stopped,
                   "policy_timesteps": policy.meta["timesteps"], "final_eval": [r.as_dict() for r in results]}
        (out / "results.json").write_text(json.dumps(summary, indent=1))
        print_results(summary, results_rows(results), out)
        return summary
