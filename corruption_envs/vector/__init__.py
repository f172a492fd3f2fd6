"""Batched engines: B games of one kind held as arrays and stepped together (pgx, EnvPool).

    from corruption_envs import vector
    engine = vector.make("corruption", num_envs=1024, num_players=4, seed=0)
    batch = engine.reset()
    batch = engine.step(actions)        # one action per game, legal in its batch.action_mask row

Each game's engine, in its own folder (`corruption_envs/<game>/engine.py`, loaded through its `Game`), is
a second implementation of its rules compiled with numba, over the machinery shared here (`engine.py`,
`compiled.py`, `numpy_rng.py`, `outcome.py`, `sampling.py`): observations and masks are exactly the AEC
env's encoding, so a policy moves between the two unchanged, and `tests/vector/` holds the two to each
other decision by decision. Needs numba (`pip install corruption-envs[vector]`); the AEC envs do not.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..core.game import Game
from ..registry import GAMES, get_game, rules_class
from .engine import WAIT, Batch, VectorEngine


def engine_class(game: str | Game) -> type[VectorEngine]:
    """The compiled batched engine class of `game` (a registered name or a `Game`)."""
    return get_game(game).engine_class()


def make(
    game: str | Game,
    num_envs: int,
    num_players: int | Sequence[int] | None = None,
    seed: int | None = None,
    engine: str = "auto",
    **config: Any,
) -> VectorEngine:
    """A batched engine of `num_envs` games of `game` (a registered name, a `Game`, or the env class a
    person's 'module:attr' names, which has no compiled engine); as `build`, which takes a `Game`."""
    if isinstance(game, str) and ":" in game:
        _check_engine_choice(engine, game, None)
        return _reference_engine(rules_class(game), num_envs, num_players, seed, **config)
    return build(get_game(game), num_envs, num_players, seed, engine, **config)


def build(
    game: Game,
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
    game by game, for any game) or "auto" (compiled where the game has one). Call `reset()` before the
    first `step()`.
    """
    compiled = game.engine and game.engine_class
    _check_engine_choice(engine, game.name, compiled)
    if engine == "reference" or compiled is None:
        return _reference_engine(game.rules, num_envs, num_players, seed, **config)
    return compiled()(num_envs, num_players=num_players, seed=seed, **config)


def _check_engine_choice(engine: str, name: str, compiled: Any) -> None:
    if engine not in ("auto", "compiled", "reference"):
        raise ValueError(f"engine={engine!r}: choose 'auto', 'compiled' or 'reference'")
    if engine == "compiled" and compiled is None:
        raise ValueError(f"no compiled engine for game {name!r}; games with one: {list_games()}")


def _reference_engine(rules: Any, num_envs: int, num_players: Any, seed: int | None, **config: Any) -> VectorEngine:
    from .reference import ReferenceEngine  # the AEC rules game by game: no numba needed

    return ReferenceEngine(rules, num_envs, num_players=num_players, seed=seed, **config)


def list_games() -> list[str]:
    """The registered games that have a compiled batched engine."""
    return [name for name, game in GAMES.items() if game.engine is not None]


__all__ = ["WAIT", "Batch", "VectorEngine", "build", "engine_class", "list_games", "make"]
