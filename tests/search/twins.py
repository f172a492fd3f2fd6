"""Positions of seeded games beside twins that differ only in what the acting seat cannot see."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from tests.test_contract import leak_points


def seat_twins(game: str, games: int, every: int) -> Iterator[tuple[int, Any, Any, bool]]:
    """(k, env, twin, changed) at each position with a choice: the twin is the acting seat's resample of
    `env` (seed k), and `changed` says whether anything the seat cannot see differs."""
    for k, env in enumerate(leak_points(game, games=games, every=every)):
        if np.count_nonzero(env.action_mask()) < 2:
            continue
        twin = env.resample_hidden(env.agent_selection, seed=k)
        yield k, env, twin, not np.array_equal(twin.state(), env.state())
