"""A game's one description, `Game`: what the registry holds and what every layer is handed once a name
has been looked up (as OpenSpiel's GameType/GameInfo or pgx's EnvId with its make)."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping

from pettingzoo import ParallelEnv

from .aec import GameEnv, parallel_env_fn
from .agents import Agent, RandomAgent
from .rules import GameState, Rules

if TYPE_CHECKING:  # the engines need numba, which the env package does not
    from ..vector.engine import VectorEngine

RANDOM = "random"  # the bot every game has: uniform over the legal actions


@dataclass(frozen=True, eq=False)  # one object per game: compared and hashed by identity
class Game:
    """Everything a game offers, declared once in its folder (`GAME` in its `__init__.py`) and registered
    with `corruption_envs.register(GAME)`.

    - `name`: what users, configs and files call it (an identifier);
    - `about`: one line for people (title, designers, year, player range);
    - `raw_env`: its PettingZoo AEC env class (`core.make_env_class(rules)`), whose `rules_class` is its
      `Rules` (player range, options, observation layout, views);
    - `env`: the env factory people call, `env(**config)` (the raw env wrapped as the game wants);
    - `bots`: its named bots, name -> class built as `cls(env, seed=seed)` (e.g. {"heuristic": ...});
      'random' needs no entry: every game has it;
    - `engine`: None, or a function that imports and returns its compiled batched engine class (called
      only when an engine is asked for: the engines need numba);
    - `invariants`: None, or `check(rules, state)` raising AssertionError on a broken state (the fuzz
      tests and the reliability benchmark call it after moves).
    """

    name: str
    about: str
    raw_env: type[GameEnv]
    env: Callable[..., GameEnv]
    bots: Mapping[str, Callable[..., Agent]] = field(default_factory=dict)
    engine: Callable[[], type[VectorEngine]] | None = None
    invariants: Callable[[Rules, GameState], None] | None = None

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name.isidentifier()):
            raise ValueError(f"game name {self.name!r} must be an identifier, e.g. 'my_game'")
        if RANDOM in self.bots:
            raise ValueError(f"game {self.name!r}: 'random' is every game's bot already; name yours otherwise")
        object.__setattr__(self, "bots", MappingProxyType(dict(self.bots)))
        if "game" not in vars(self.raw_env):  # the first Game of an env class is the one its envs name
            self.raw_env.game = self

    def __copy__(self) -> Game:
        return self  # one object per game, as a class is: a copied config holds the same game

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self

    @property
    def rules(self) -> type[Rules]:
        """Its Rules class: player range (`min_players`, `max_players`, `default_players`), options."""
        return self.raw_env.rules_class

    @property
    def players(self) -> range:
        """The player counts it plays."""
        return range(self.rules.min_players, self.rules.max_players + 1)

    @property
    def views(self) -> tuple[str, ...]:
        """What a seat can be shown: its observation vector, its text, and its picture where the rules draw one."""
        return ("observation", "text") + (("picture",) if self.rules.picture is not Rules.picture else ())

    @property
    def bot_names(self) -> tuple[str, ...]:
        """The bots `bot` builds: 'random' and the game's own."""
        return (RANDOM, *self.bots)

    def parallel_env(self, **config: Any) -> ParallelEnv:
        """The game as a PettingZoo ParallelEnv (each step() takes the action of the one agent on turn)."""
        return parallel_env_fn(self.env)(**config)

    def bot(self, name: str, env: GameEnv, seed: int | None = None) -> Agent:
        """Its bot `name` for `env`; ValueError naming the bots it has."""
        if name == RANDOM:
            return RandomAgent(seed)
        if name not in self.bots:
            raise ValueError(f"game {self.name!r} has no {name} bot; its bots: {list(self.bot_names)}")
        return self.bots[name](env.unwrapped, seed=seed)

    def engine_class(self) -> type[VectorEngine]:
        """Its compiled batched engine class; ValueError for a game without one, ImportError without numba."""
        if self.engine is None:
            raise ValueError(f"game {self.name!r} has no compiled engine; use engine='reference'")
        try:
            return self.engine()
        except ModuleNotFoundError as err:
            if err.name == "numba":
                raise ImportError("the batched engines need numba: pip install corruption-envs[vector]") from None
            raise


def expect_game(game: object, caller: str) -> Game:
    """`game` if it is a `Game`; a TypeError naming the lookup otherwise (a name is looked up once, where it
    comes in, and the `Game` handed on)."""
    if not isinstance(game, Game):
        raise TypeError(f"{caller} takes a Game, not {type(game).__name__} {game!r}: look a name up once with "
                        f"corruption_envs.get_game(name) and hand the Game on")
    return game


def game_of(env: GameEnv) -> Game:
    """The game an env plays, for code handed an env: the `Game` that declared its env class, or, for an env
    class no `Game` declares (a 'module:attr' env class), a description of it alone (no bots but
    'random', no engine)."""
    raw = type(env.unwrapped)
    declared = getattr(raw, "game", None)  # a subclass of a game's env class plays that game
    if declared is not None:
        return declared
    return Game(name=raw.rules_class.name, about=f"{raw.rules_class.name} (not registered)", raw_env=raw, env=raw)
