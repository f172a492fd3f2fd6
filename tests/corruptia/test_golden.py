"""The recorded golden games replay identically: a layout change (action indices, observation) is not a
rules change. The games are compared by the names of the actions, which do not depend on the indices."""
from __future__ import annotations

import json

import pytest

from .golden import CASES, GOLDEN_FILE, play

GOLDEN = {(g["players"], tuple(g["bots"]), g["seed"]): g for g in json.loads(GOLDEN_FILE.read_text())}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}p-{'-'.join(c[1])}")
def test_a_seeded_game_plays_exactly_as_recorded(case):
    golden = GOLDEN[case]
    game = play(*case)
    first_diff = next((i for i, (a, b) in enumerate(zip(game["actions"], golden["actions"])) if a != b), None)
    assert first_diff is None, f"decision {first_diff}: {game['actions'][first_diff]!r} != {golden['actions'][first_diff]!r}"
    assert len(game["actions"]) == len(golden["actions"])
    assert game["seat_digests"] == golden["seat_digests"], "a seat was shown something else"
    assert game["scores"] == golden["scores"]
