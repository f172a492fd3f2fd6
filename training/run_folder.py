"""What a run leaves beside its policy and prints at its end: the commit it ran, sample games of the
final policy, the results table. Shared by the run drivers (selfplay, psro, rllib_backend)."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console
from rich.table import Table

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.recording import save_samples

REPO = Path(__file__).resolve().parent.parent
SAMPLE_GAMES = 2  # logged games of the final policy in samples/, each with its replay page


def git_commit(ignore: Sequence[str] = ()) -> str:
    """HEAD of the repo, with '-dirty' when tracked files differ from it (files under `ignore`, paths from
    the repo's root, aside)."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                                *(f":(exclude){p}" for p in ignore)], cwd=REPO,
                               capture_output=True, text=True).stdout.strip()
        return head + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write_samples(config: dict[str, Any], out: Path) -> None:
    """samples/: the final policy in seat 0 against heuristic bots, as `play --log` files and their
    HTML replay pages (python -m corruption_envs.play --replay samples/game-<seed>.jsonl)."""
    n = config["eval"]["num_players"]
    env = corruption_envs.env(config["game"], **config["env"], num_players=n, record_events=True)
    seed = config["run"]["seed"]
    specs = [str(out / "policy.npz")] + ["heuristic"] * (n - 1)
    agents = [make_agent(spec, env, seed=seed + p) for p, spec in enumerate(specs)]
    seats = ["policy.npz"] + specs[1:]
    save_samples(env, agents, [seed * 1000 + k for k in range(SAMPLE_GAMES)], out / "samples",
                 config["game"], seats)


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
