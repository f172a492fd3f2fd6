"""The results page's targets: each figure is read from its record and marked MET or SHORT by the
target's direction (a lower-bound target by the interval's low end), and every committed target finds
its figure in the committed records."""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import report, results
from benchmarks.results import Column, Interval, Record, RecordError
from benchmarks.targets import TARGETS, Source, Target, assess


def made_up(rows: list[list]) -> list[tuple[Path, Record]]:
    record = Record(section="search", title="Champion vs search", commands=["python -m benchmarks.tournament X"],
                    columns=[Column(name="agent"), Column(name="probe seed"), Column(name="win", format=".3f")],
                    rows=rows, source="measured")
    return [(Path("results/made-up.json"), record)]


def target(direction, threshold, *wheres) -> Target:
    return Target("Toy", "champion vs 3 bots", direction, threshold,
                  tuple(Source("made-up.json", "win", tuple(w.items())) for w in wheres))


def row_of(records, t: Target) -> str:
    [line] = [x for x in report.render_targets(records, [t]) if x.startswith("| Toy |")]
    return line


CHAMPION = {"agent": "champion"}


@pytest.mark.parametrize("direction, threshold, interval, status", [
    ("at least", "0.55", (0.56, 0.50, 0.60), "MET"),
    ("at least", "0.55", (0.54, 0.50, 0.60), "SHORT"),
    ("at most", "0.25", (0.25, 0.20, 0.30), "MET"),
    ("at most", "0.25", (0.26, 0.20, 0.30), "SHORT"),
    # the value is well above 1/4 but the interval's low end is not
    ("lower bound above", "1/4", (0.354, 0.234, 0.496), "SHORT"),
    ("lower bound above", "1/4", (0.354, 0.251, 0.496), "MET"),
])
def test_a_figure_is_marked_by_the_targets_direction(direction, threshold, interval, status):
    value, low, high = interval
    records = made_up([["champion", 0, Interval(value=value, low=low, high=high)], ["bot", 0, 0.1]])
    line = row_of(records, target(direction, threshold, CHAMPION))
    assert line == (f"| Toy | champion vs 3 bots: {direction} {threshold} | {value:.3f} [{low:.3f}, {high:.3f}] "
                    f"| {status} | `python -m benchmarks.tournament X` |")


def test_a_target_over_several_rows_reads_their_mean():
    records = made_up([["champion", s, Interval(value=v, low=v - 0.05, high=v + 0.05)]
                       for s, v in enumerate((0.28, 0.30, 0.35))])
    t = target("at most", "0.30", *({"agent": "champion", "probe seed": s} for s in range(3)))
    assert "| 0.310 (mean of 0.280, 0.300, 0.350) | SHORT |" in row_of(records, t)
    assert assess(t, records).figure == pytest.approx(0.31)


def test_a_missing_record_shows_as_such_and_a_missing_row_is_an_error():
    records = made_up([["champion", 0, 0.5]])
    absent = Target("Toy", "x", "at least", "0.5", (Source("elsewhere.json", "win", ()),))
    assert "| - | no record | - |" in row_of(records, absent)
    with pytest.raises(RecordError, match=r"made-up.json: 0 rows match \{'agent': 'nobody'\}"):
        assess(target("at least", "0.5", {"agent": "nobody"}), records)
    with pytest.raises(RecordError, match="a lower-bound target needs a figure with an interval"):
        assess(target("lower bound above", "1/4", CHAMPION), records)


def test_every_target_finds_its_figure_in_the_committed_records():
    records = results.read_all(report.RESULTS)
    missing = [f"{t.game}: {t.what}" for t in TARGETS if assess(t, records).figure is None]
    assert not missing, f"targets without a record in results/: {missing}"
