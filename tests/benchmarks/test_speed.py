"""The speed table counts decisions (non-None steps) of whole seeded games and names missing anchors."""
from benchmarks.speed import Entry, render, time_pettingzoo
from tests.core.toy import ToyEnv


def test_decisions_are_counted_per_step_of_whole_games():
    decisions, games, seconds = time_pettingzoo(lambda: ToyEnv(num_players=3), 5.0, 4, seed=0)
    assert games == 4 and decisions == 4 * 3 * 2  # 3 players x 2 laps, no None steps counted
    assert isinstance(seconds, float)  # reported; how large is the benchmark's business


def test_table_gives_ratios_to_texas_holdem_and_the_target_verdict():
    rows = [Entry("texas_holdem_v4 env()", 1000, 10, 1.0), Entry("corruption env()", 2500, 10, 1.0),
            Entry("openspiel", 0, 0, 0.0, "unavailable (open_spiel not installed)")]
    text = render(rows)
    assert "2.50" in text and "meets the >= 2x target" in text and "unavailable" in text
    assert "MISSES" in render([rows[0], Entry("corruption env()", 1500, 10, 1.0)])


def test_batched_rows_count_every_game_of_the_batch_and_get_their_verdict():
    import pytest

    pytest.importorskip("numba")
    from benchmarks.speed import time_vector

    decisions, games, _ = time_vector("corruption", 8, 0.5, 2, seed=0)
    assert decisions % (16 * 8) == 0 and decisions > 0
    rows = [Entry("corruption env()", 1000, 10, 1.0), Entry("corruption vector B=64", 60_000, 10, 1.0)]
    assert "60.0x corruption env(): meets the >= 50x target" in render(rows)
    assert "MISSES" in render([rows[0], Entry("corruption vector B=64", 40_000, 10, 1.0)])
