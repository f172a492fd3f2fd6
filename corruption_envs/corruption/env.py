"""The PettingZoo AEC env of Corruption (corruption_v0): the generic adapter over CorruptionRules, which
composes the play (`rules.py`) with what reads its states: resampling, text and pictures."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import GameEnv, make_env_class, parallel_env_fn
from .hidden import resample_hidden
from .picture import draw_table
from .render import render_state
from .rules import CorruptionPlay
from .state import CorruptionState


class CorruptionRules(CorruptionPlay):
    """Corruption's full `Rules`: the play with its resampling (`hidden.py`), text (`render.py`) and
    pictures (`picture.py`)."""

    def resample_hidden(self, s: CorruptionState, player: int, rng: np.random.Generator) -> CorruptionState:
        return resample_hidden(self, s, player, rng)

    def render(self, s: CorruptionState, player: int | None = None) -> str:
        return render_state(self, s, player)

    def picture(self, s: CorruptionState, player: int | None = None) -> np.ndarray:
        return draw_table(self, s, player)


raw_env = make_env_class(CorruptionRules)


def env(**config: Any) -> GameEnv:
    """corruption_v0 with `config` (num_players 3-7, reward, illegal_action, record_events,
    reporter_may_decline); the adapter validates actions itself, so no wrappers are added."""
    return raw_env(**config)


parallel_env = parallel_env_fn(env)
