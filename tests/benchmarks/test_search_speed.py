"""benchmarks/search_speed.py runs on a tiny budget and prints its rows (its figures are not tested)."""
from __future__ import annotations

import pytest

from benchmarks import search_speed

pytest.importorskip("numba")


def test_the_speed_table_has_a_row_per_game(capsys):
    search_speed.main(["--spec", "ismcts:3", "--decisions", "1", "--games", "corruption", "construction"])
    rows = capsys.readouterr().out.splitlines()
    assert rows[1].split() == ["game", "one", "game", "engine", "ratio"]
    assert [r.split()[0] for r in rows[2:]] == ["corruption", "construction"]
    assert all(r.split()[3].endswith("x") for r in rows[2:])


def test_the_strength_test_reports_a_paired_test_per_game(capsys):
    search_speed.main(["--strength", "--deals", "2", "--spec", "ismcts:2", "--games", "corruption"])
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 2 and rows[1].startswith("corruption") and "over 2 deals" in rows[1]


def test_the_breakdown_names_each_part_per_game(capsys):
    search_speed.main(["--breakdown", "--spec", "ismcts:3", "--decisions", "1", "--games", "construction"])
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 2 and rows[1].startswith("construction")
    assert all(label in rows[1] for label, _, _ in search_speed.PARTS)
