"""Batched engines: B games of one kind held as arrays and stepped together (pgx, EnvPool).

    from corruption_envs import vector
    engine = vector.make("corruption", num_envs=1024, num_players=4, seed=0)
    batch = engine.reset()
    batch = engine.step(actions)        # one action per game, legal in its batch.action_mask row

Each game's engine, in its own folder (`corruption_envs/<game>/engine.py`), is a second implementation
of its rules compiled with numba, over the machinery shared here (`engine.py`, `compiled.py`,
`numpy_rng.py`, `outcome.py`, `sampling.py`): observations and masks are exactly the AEC env's encoding,
so a policy moves between the two unchanged, and `tests/vector/` holds the two to each other decision by
decision. Needs numba (`pip install corruption-envs[vector]`); the AEC envs do not.
"""
from __future__ import annotations

import importlib
from typing import Any, Sequence

from .engine import WAIT, Batch, VectorEngine

# game name -> "module:class" of its batched engine (code registers engines, never a file)
ENGINES: dict[str, str] = {
    "corruption": "corruption_envs.corruption.engine:CorruptionEngine",
    "corruptia": "corruption_envs.corruptia.engine:CorruptiaEngine",
    "construction": "corruption_envs.construction.engine:ConstructionEngine",
}


def engine_class(game: str) -> type[VectorEngine]:
    """The compiled batched engine class of `game`."""
    if game not in ENGINES:
        raise ValueError(f"no compiled engine for game {game!r}; games with one: {list(ENGINES)}")
    module, name = ENGINES[game].split(":")
    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as err:
        if err.name == "numba":
            raise ImportError(
                "the batched engines need numba: pip install corruption-envs[vector]"
            ) from None
        raise


def make(
    game: str,
    num_envs: int,
    num_players: int | Sequence[int] | None = None,
    seed: int | None = None,
    engine: str = "auto",
    **config: Any,
) -> VectorEngine:
    """A batched engine of `num_envs` games of `game`.

    `num_players` is one count, or several: each new game then draws its count from them (one batch
    serves every count, as the observations have the same size at every count). `config` takes the
    AEC env's game options (`reward`, ...). `engine`: "compiled" (numba), "reference" (the AEC rules
    game by game, for any registered game, or the env class a person's 'module:attr' names) or "auto"
    (compiled where the game has one). Call `reset()` before the first `step()`.
    """
    if engine not in ("auto", "compiled", "reference"):
        raise ValueError(f"engine={engine!r}: choose 'auto', 'compiled' or 'reference'")
    if engine == "reference" or (engine == "auto" and game not in ENGINES):
        from ..registry import rules_class
        from .reference import ReferenceEngine

        return ReferenceEngine(rules_class(game), num_envs, num_players=num_players, seed=seed, **config)
    return engine_class(game)(num_envs, num_players=num_players, seed=seed, **config)


def list_games() -> list[str]:
    """The games that have a batched engine."""
    return list(ENGINES)


__all__ = ["WAIT", "Batch", "ENGINES", "VectorEngine", "engine_class", "list_games", "make"]
