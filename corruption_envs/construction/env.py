"""The PettingZoo AEC env of Construction & Corruption (construction_v0): the generic adapter over
ConstructionRules, which composes the play (`rules.py`) with what reads its states: observations,
resampling, text and pictures."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import GameEnv, make_env_class, parallel_env_fn
from .hidden import resample_hidden
from .observer import build_layout, observe
from .picture import draw_table
from .render import render
from .rules import ConstructionPlay
from .state import State


class ConstructionRules(ConstructionPlay):
    """Construction's full `Rules`: the play with its observations (`observer.py`), resampling
    (`hidden.py`), text (`render.py`) and pictures (`picture.py`)."""

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__(config)
        self.observation_layout = build_layout()

    def observe(self, s: State, player: int) -> np.ndarray:
        return observe(self, s, player)

    def resample_hidden(self, s: State, player: int, rng: np.random.Generator) -> State:
        return resample_hidden(self, s, player, rng)

    def render(self, s: State, player: int | None = None) -> str:
        return render(self, s, player)

    def picture(self, s: State, player: int | None = None) -> np.ndarray:
        return draw_table(self, s, player)


raw_env = make_env_class(ConstructionRules)


def env(**config: Any) -> GameEnv:
    return raw_env(**config)


parallel_env = parallel_env_fn(env)
