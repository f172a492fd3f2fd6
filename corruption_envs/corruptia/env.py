"""The PettingZoo AEC env of Corruptia (corruptia_v0): the generic adapter over CorruptiaRules, which
composes the play (`rules.py`) with what reads its states: observations, resampling, text and pictures."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import GameEnv, make_env_class, parallel_env_fn
from .hidden import resample_hidden
from .observer import Observer
from .picture import draw_table
from .render import render_state
from .rules import CorruptiaPlay
from .state import CorruptiaState


class CorruptiaRules(CorruptiaPlay):
    """Corruptia's full `Rules`: the play with its observations (`observer.py`), resampling (`hidden.py`),
    text (`render.py`) and pictures (`picture.py`)."""

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__(config)
        self.observer = Observer(self)
        self.observation_layout = self.observer.layout

    def observe(self, s: CorruptiaState, player: int) -> np.ndarray:
        return self.observer.observe(s, player)

    def resample_hidden(self, s: CorruptiaState, player: int, rng: np.random.Generator) -> CorruptiaState:
        return resample_hidden(s, player, rng)

    def render(self, s: CorruptiaState, player: int | None = None) -> str:
        return render_state(self, s, player)

    def picture(self, s: CorruptiaState, player: int | None = None) -> np.ndarray:
        return draw_table(self, s, player)


raw_env = make_env_class(CorruptiaRules)


def env(**config: Any) -> GameEnv:
    return raw_env(**config)


parallel_env = parallel_env_fn(env)
