"""The recorded golden games replay identically: same actions, same views for every seat, same outcome."""
from __future__ import annotations

import json

import pytest

from .record import CASES, GOLDEN_FILE, key, play

GOLDEN = {key(g): g for g in json.loads(GOLDEN_FILE.read_text())}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}p-{'-'.join(c[2])}")
def test_a_seeded_game_plays_exactly_as_recorded(case):
    golden = GOLDEN[case[0], case[1], tuple(case[2]), case[3]]
    game = play(*case)
    first_diff = next((i for i, (a, b) in enumerate(zip(game["actions"], golden["actions"])) if a != b), None)
    assert first_diff is None, f"decision {first_diff}: {game['actions'][first_diff]} != {golden['actions'][first_diff]}"
    assert len(game["actions"]) == len(golden["actions"])
    assert game["seat_digests"] == golden["seat_digests"], "a seat was shown something else"
    assert game["scores"] == golden["scores"]
    assert game["rewards"] == golden["rewards"]
