"""A training run's final table as a results record, read from the run folder's results.json.

    python -m benchmarks.run_record runs/corruption-<timestamp> --record results \
        --command "python -m training.selfplay --game corruption"

The run folder does not hold the command that made it, so `--command` names it. The record carries the
run's own commit and load average; results.json is read as JSON and validated, never evaluated.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from pydantic import BaseModel, ConfigDict, ValidationError

from benchmarks.results import Column, Record, RecordError, add_record_option, record_name, write
from corruption_envs.evaluation import Result
from training.evaluate import RECORD_COLUMNS, strength_rows


class _FinalRow(BaseModel):
    baseline: str
    num_players: int
    games: int
    win_rate: float
    reverse: bool


class RunResults(BaseModel):
    """The fields of a run's results.json that the record uses (others are ignored)."""
    model_config = ConfigDict(extra="ignore")
    game: str
    timesteps: int
    commit: str
    learn_cpu_seconds: float
    load_average: list[float]
    final_eval: list[_FinalRow]


def read_run(run: Path) -> RunResults:
    path = run / "results.json"
    try:
        return RunResults.model_validate(json.loads(path.read_text()))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RecordError(f"{path}: not a readable results.json ({e}); is {run} a finished run folder?") from None
    except ValidationError as e:
        first = e.errors()[0]
        raise RecordError(f"{path}: field {'.'.join(map(str, first['loc']))}: {first['msg']}") from None


def run_record(run: RunResults, command: str, title: str | None = None) -> Record:
    results = [Result(r.baseline, r.num_players, r.games, r.win_rate * r.games, r.reverse) for r in run.final_eval]
    return Record(section="training", title=title or f"{run.game}: a run's final table ({run.timesteps:,} learner "
                  "steps)", commands=[command], columns=[Column(name=n, format=f) for n, f in RECORD_COLUMNS],
                  rows=strength_rows("policy", results), source="measured", games=[run.game],
                  players=sorted({r.num_players for r in run.final_eval}), git_commit=run.commit,
                  load_average=[round(x, 2) for x in run.load_average],
                  note=f"The run's final table, on deals used nowhere else in the run; "
                       f"{run.learn_cpu_seconds / 60:.1f} CPU-minutes of training.")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.run_record", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", type=Path, help="a finished run folder (holds results.json)")
    p.add_argument("--command", required=True, help="the command that made the run")
    p.add_argument("--title", default=None)
    p.add_argument("--name", default=None, help="the record's file name (default: from the run folder's name)")
    add_record_option(p)
    args = p.parse_args(argv)
    try:
        record = run_record(read_run(args.run), args.command, args.title)
        write(record, args.record or Path("results"), args.name or record_name("training", args.run.name))
    except RecordError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
