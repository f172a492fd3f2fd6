"""The project's strength targets as data, each read against the record that holds its figure.

A target names its figure's place (record file, column, the cells that pick the row); `assess` reads
the figure from the records and says whether it meets the target, so the results page's "Targets"
table (benchmarks/report.py) is rendered from records and never typed. A target over several rows (a
probe's seeds) reads the mean of their values. 4 players unless a target says otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Literal, Mapping, Sequence

from benchmarks.results import Cell, Interval, Record, RecordError

Direction = Literal["at least", "at most", "lower bound above"]  # the last reads the 95% interval's low end
WIN_RATE = "win rate [95% Wilson]"


@dataclass(frozen=True)
class Source:
    """The cell of `column` in the one row of results/`record` whose cells match `where`."""
    record: str
    column: str
    where: tuple[tuple[str, Cell], ...]


@dataclass(frozen=True)
class Target:
    game: str
    what: str
    direction: Direction
    threshold: str  # a decimal or a fraction ("0.55", "1/4"), shown as written
    sources: tuple[Source, ...]  # several: the figure is the mean of their values


@dataclass(frozen=True)
class Assessment:
    target: Target
    figure: Interval | float | None  # None: a record the target names is not in results/
    format: str  # the figure's column format in its record
    parts: tuple[float, ...]  # the values averaged, when the target reads several rows
    met: bool | None
    commands: tuple[str, ...]


def _source(record: str, column: str, where: Mapping[str, Cell] | None = None) -> Source:
    return Source(record, column, tuple((where or {}).items()))


STRENGTH_4P = {"corruption": "strength-corruption-champion-4p-random-heuristic-expert-seed2026.json",
               "construction": "strength-construction-champion-4p-random-heuristic-seed2026.json",
               "corruptia": "strength-corruptia-champion-4p-random-heuristic-seed2026.json"}
STRENGTH_OTHER = {"corruption": "strength-corruption-champion-3-5-6-7p-random-heuristic-expert-seed2026.json",
                  "construction": "strength-construction-champion-3-5-6-7p-random-heuristic-seed2026.json",
                  "corruptia": "strength-corruptia-champion-3-5p-random-heuristic-seed2026.json"}
SEARCH = {"corruption": "search-table-3b-corruption-champion-vs-ismcts-700.json",
          "construction": "search-table-3d-construction-champion-vs-ismcts-1600.json",
          "corruptia": "search-table-3c-corruptia-champion-vs-ismcts-550.json"}


@dataclass(frozen=True)
class GameTargets:
    title: str
    best_bot: str
    alone_at_least: str  # the champion vs 3 best bots
    one_bot_at_most: str  # one best bot vs 3 champions
    search: str  # the ISMCTS the champion, not searching, should beat
    counts: range  # the player counts the champion claims


GAMES = {"corruption": GameTargets("Corruption", "expert", "0.55", "0.25", "ismcts:700", range(3, 8)),
         "construction": GameTargets("Construction", "heuristic", "0.40", "0.25", "ismcts:1600", range(3, 8)),
         "corruptia": GameTargets("Corruptia", "heuristic", "0.80", "0.25", "ismcts:550", range(3, 6))}


def _champion(game: str) -> str:
    return f"policies/{game}/champion.npz"


# the column of each champion's own play in its probe records, one a seed (Corruption's champion samples)
PROBE_COLUMN = {"corruption": "vs 3 sampling copies (a bot: its own play)", "construction": "vs 3 greedy copies",
                "corruptia": "vs 3 greedy copies"}


def _probe_seeds(game: str) -> tuple[Source, ...]:
    """The best-response probes at seeds 0-3, read in the column of the champion's own play."""
    return tuple(_source(f"exploit-{game}-champion-seed{s}.json", PROBE_COLUMN[game],
                         {"policy": _champion(game), "probe seed": s}) for s in range(4))


def _game_targets(game: str) -> list[Target]:
    g, champion = GAMES[game], _champion(game)
    title, bot = g.title, g.best_bot
    rows = [
        Target(title, f"champion vs 3 {bot} bots", "at least", g.alone_at_least,
               (_source(STRENGTH_4P[game], WIN_RATE, {"who sits alone": champion, "against": f"3 x {bot}"}),)),
        Target(title, f"one {bot} bot vs 3 champions", "at most", g.one_bot_at_most,
               (_source(STRENGTH_4P[game], WIN_RATE, {"who sits alone": bot, "against": f"3 x {champion}"}),)),
        Target(title, f"champion (no search) vs 3 {g.search}", "lower bound above", "1/4",
               (_source(SEARCH[game], WIN_RATE, {"agent": champion}),)),
        Target(title, "best response to the champion, 150k steps, mean of seeds 0-3", "at most", "0.30",
               _probe_seeds(game)),
    ]
    for n in g.counts:
        record = STRENGTH_4P[game] if n == 4 else STRENGTH_OTHER[game]
        rows.append(Target(title, f"champion vs {n - 1} {bot} bots at {n} players", "lower bound above", f"1/{n}",
                           (_source(record, WIN_RATE, {"who sits alone": champion, "against": f"{n - 1} x {bot}"}),)))
    return rows


QUICK_START = "training-corruption-default-run.json"
QUICK_START_COST = "training-corruption-quick-start-cost.json"
TARGETS: tuple[Target, ...] = (
    *(t for game in GAMES for t in _game_targets(game)),
    *(Target("Quick start", what, direction, threshold,
             (_source(QUICK_START, "seed 0 [95% Wilson]", {"who sits alone": row}),))
      for what, direction, threshold, row in (
          ("policy vs 3 heuristic bots (seed 0)", "at least", "0.90", "the policy against three heuristic bots"),
          ("policy vs 3 expert bots (seed 0)", "at least", "0.45", "the policy against three expert bots"),
          ("one expert bot vs 3 copies (seed 0)", "at most", "0.50",
           "one expert bot against three copies of the policy"))),
    Target("Quick start", "wall time, minutes", "at most", "8", (_source(QUICK_START_COST, "wall time, min"),)),
    Target("Quick start", "peak memory, GB", "at most", "2", (_source(QUICK_START_COST, "peak resident, GB"),)),
)


def _cell(source: Source, records: Mapping[str, Record]) -> Cell:
    record = records[source.record]
    names = [c.name for c in record.columns]
    missing = [k for k in (source.column, *(k for k, _ in source.where)) if k not in names]
    if missing:
        raise RecordError(f"results/{source.record}: no column {missing[0]!r} for a target; columns are {names}")
    picked = [row for row in record.rows if all(row[names.index(k)] == v for k, v in source.where)]
    if len(picked) != 1:
        raise RecordError(f"results/{source.record}: {len(picked)} rows match {dict(source.where)} for a target; "
                          "it needs exactly one (fix the target in benchmarks/targets.py or the record)")
    return picked[0][names.index(source.column)]


def meets(direction: Direction, threshold: str, figure: Interval | float) -> bool:
    """Whether `figure` meets the target; a lower-bound target needs the figure's interval."""
    limit = float(Fraction(threshold))  # as a float, a rate measured as 550/1000 meets "0.55"
    if direction == "lower bound above":
        if not isinstance(figure, Interval):
            raise RecordError(f"a lower-bound target needs a figure with an interval, not {figure!r}")
        return figure.low > limit
    value = figure.value if isinstance(figure, Interval) else figure
    return value >= limit if direction == "at least" else value <= limit


def assess(target: Target, records: Sequence[tuple[Path, Record]]) -> Assessment:
    """The target's figure from `records` ((path, record) pairs, found by file name) and whether it is met."""
    by_name = {path.name: record for path, record in records}
    if any(s.record not in by_name for s in target.sources):
        return Assessment(target, None, "", (), None, ())
    cells = [_cell(s, by_name) for s in target.sources]
    [column] = [c for c in by_name[target.sources[0].record].columns if c.name == target.sources[0].column]
    for s, cell in zip(target.sources, cells):
        if not isinstance(cell, (Interval, int, float)):
            raise RecordError(f"results/{s.record}: column {s.column!r} holds {cell!r}, not a figure")
    values = tuple(c.value if isinstance(c, Interval) else float(c) for c in cells)
    figure = cells[0] if len(cells) == 1 else sum(values) / len(values)
    commands = tuple(dict.fromkeys(c for s in target.sources for c in by_name[s.record].commands[:1]))
    met = meets(target.direction, target.threshold, figure)
    return Assessment(target, figure, column.format, values if len(values) > 1 else (), met, commands)
