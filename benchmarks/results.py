"""Result records: one JSON file per figure group in results/, each with the commands that reproduce it.

The benchmark commands write one with `--record DIR`; `python -m benchmarks.report` reads every record
back, validated, and renders docs/results.md, so the page's figures are regenerated, never hand-copied.
A record is data only: nothing in it is imported, called or evaluated, and a column's format is a
format spec checked against a short pattern before any value is formatted with it.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Literal, Sequence, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

SCHEMA_VERSION = 1
# the results page's sections, in page order; benchmarks/report.py gives each its heading and intro
Section = Literal["speed", "strength", "search", "exploit", "training", "ablation", "rllib", "reliability"]
REPO = Path(__file__).resolve().parent.parent
OUTPUTS = ("results", "docs/results.md")  # what the records and the report write, from the repo's root:
# rewriting them leaves the measuring code clean (git_commit ignores them)
FORMAT_SPEC = re.compile(r"^\+?,?(\.\d)?[fge%]?$")  # e.g. ".3f", ",.0f", "+.4f", ".2g", "" (as given)


class RecordError(ValueError):
    """A record file that is not valid JSON or not a valid record; the message names file and field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Interval(_Strict):
    """A figure with its 95% interval."""
    value: float
    low: float
    high: float

    @model_validator(mode="after")
    def _ordered(self) -> "Interval":
        if not self.low <= self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")
        return self


Cell = Union[Interval, int, float, str, None]  # None renders as "-"


class Column(_Strict):
    name: str = Field(min_length=1)
    format: Annotated[str, Field(pattern=FORMAT_SPEC.pattern)] = ""


class Record(_Strict):
    """One figure group: a table, the commands that reproduce it and where it was measured."""
    version: Literal[1] = SCHEMA_VERSION
    section: Section
    title: str = Field(min_length=1)
    commands: list[str] = Field(min_length=1)
    columns: list[Column] = Field(min_length=1)
    rows: list[list[Cell]] = Field(min_length=1)
    note: str = ""
    # measured: written by the command itself; transcribed: figures carried over from earlier docs
    source: Literal["measured", "transcribed"]
    games: list[str] = Field(default_factory=list)
    players: list[int] = Field(default_factory=list)
    seed: int | None = None
    git_commit: str = "unknown"
    machine_cores: int | None = None
    load_average: list[float] | None = None

    @model_validator(mode="after")
    def _rows_fit_columns(self) -> "Record":
        for i, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(f"rows[{i}] has {len(row)} cells for {len(self.columns)} columns")
        return self


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


def measured(section: Section, title: str, command: str, columns: Sequence[tuple[str, str]],
             rows: Sequence[Sequence[Cell]], *, games: Sequence[str] = (), players: Sequence[int] = (),
             seed: int | None = None, note: str = "") -> Record:
    """A record of figures this process just measured: `columns` as (name, format spec) pairs; the
    commit, the machine's cores and its load average are filled in."""
    return Record(section=section, title=title, commands=[command], note=note, source="measured",
                  columns=[Column(name=n, format=f) for n, f in columns], rows=[list(r) for r in rows],
                  games=list(games), players=list(players), seed=seed, git_commit=git_commit(OUTPUTS),
                  machine_cores=os.cpu_count(), load_average=[round(x, 2) for x in os.getloadavg()])


def write(record: Record, directory: Path, name: str) -> Path:
    """`directory/name.json`, written whole under a temporary name and renamed into place."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", name):
        raise RecordError(f"record name {name!r}: use lower-case letters, digits, '.', '_' and '-'")
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record.model_dump(mode="json"), indent=1) + "\n")
    tmp.replace(path)
    print(f"wrote {path}")
    return path


def read(path: Path) -> Record:
    """The record in `path`, validated; RecordError naming the file and the first bad field."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RecordError(f"{path}: not a readable JSON record ({e})") from None
    try:
        return Record.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "(top level)"
        raise RecordError(f"{path}: field {where}: {first['msg']} "
                          f"({e.error_count()} problem(s); fix the file or write it again with --record)") from None


def _natural(path: Path) -> list[str | int]:
    """A file name's sort key with its numbers as numbers: ablation-9 comes before ablation-10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]


def read_all(directory: Path) -> list[tuple[Path, Record]]:
    """Every `*.json` record in `directory`, by file name."""
    paths = sorted(Path(directory).glob("*.json"), key=_natural)
    if not paths:
        raise RecordError(f"{directory}: no *.json records; write some with a benchmark's --record DIR")
    return [(p, read(p)) for p in paths]


def add_record_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--record", type=Path, default=None, metavar="DIR",
                        help="also write the figures as a JSON record to DIR (results/ feeds "
                             "python -m benchmarks.report)")


def command_line(module: str, argv: Sequence[str] | None) -> str:
    """`python -m module ARGS`, the arguments as given but without `--record DIR`."""
    args = list(sys.argv[1:] if argv is None else argv)
    kept, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "--record":
            skip = True
        elif not a.startswith("--record="):
            kept.append(a)
    return shlex.join(["python", "-m", module, *kept])


def record_name(*parts: str) -> str:
    """A record's file name from what it measured: `search-speed-ismcts-700-corruption`."""
    return "-".join(re.sub(r"[^a-z0-9]+", "-", p.lower()).strip("-") for p in parts if p)[:120]
