"""One generic PettingZoo AEC adapter that drives any game's `Rules`.

The env knows nothing of the rules beyond the `Rules` contract; each game module only declares its
rules class. The adapter validates actions itself (so `env()` needs none of PettingZoo's wrappers,
which cost 2.5-3.5x on cheap games), caches the acting player's mask once per state, and rebuilds no
big array per step.
"""
from __future__ import annotations

import operator
import sys
import warnings
from typing import Any, Callable, ClassVar, Iterable

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from .errors import GameOverError, IllegalActionError, IllegalActionWarning, NotResetError
from .events import EVERYONE
from .picture import require_pillow
from .rewards import ranks, terminal_rewards
from .rules import GameState, Rules
from .state import copy_rng


class GameEnv(AECEnv):
    """PettingZoo AEC env over a `Rules` class; subclasses set `rules_class` (see `make_env_class`)."""

    rules_class: type[Rules]
    game: ClassVar[Any]  # the `core.game.Game` that declares this env class (set by it; `game_of`)
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, **config: Any) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode={render_mode!r} is not supported; use one of "
                f"{[None, *self.metadata['render_modes']]}"
            )
        if render_mode == "rgb_array":
            require_pillow()  # fail now, naming the extra to install, rather than at the first render()
        self.render_mode = render_mode
        self.rules = self.rules_class(self.rules_class.make_config(**config))
        self.config = self.rules.config
        n = self.rules.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_layout = self.rules.observation_layout
        obs_size = self.observation_layout.size
        num_actions = self.rules.num_actions
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (obs_size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, (n * obs_size,), np.float32)
        self._no_moves = np.zeros(num_actions, np.int8)
        self._no_moves.flags.writeable = False
        self._seeder: np.random.Generator | None = None
        self._game: GameState | None = None
        self._mask: np.ndarray | None = None

    # --- spaces -----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    @property
    def num_actions(self) -> int:
        return self.rules.num_actions

    # --- episode ------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._seeder is None:
            self._seeder = np.random.default_rng(seed)
        game_rng = np.random.default_rng(self._seeder.integers(2**63))
        self._game = self.rules.new_game(game_rng)
        self._mask = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.rules.current_player(self._game)]

    def _running(self) -> GameState:
        """The game in play; NotResetError naming the fix before the first reset()."""
        if self._game is None:
            raise NotResetError(
                "this env has no game yet: call reset(seed=...) first, then step(), last(), observe(), "
                "state(), action_mask() and the other accessors"
            )
        return self._game

    def _seat(self, agent: str) -> int:
        try:
            return self.agent_name_mapping[agent]
        except (KeyError, TypeError):
            raise ValueError(f"unknown agent {agent!r}; the agents are {self.possible_agents}") from None

    def step(self, action: Any) -> None:
        self._running()
        if not self.agents:
            raise GameOverError(
                "the game is over and every agent has been stepped out; call reset() for a new game"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise GameOverError(
                    f"the game is over: {agent} can only be stepped with None (to leave the game); "
                    "call reset() for a new game"
                )
            self._was_dead_step(action)
            return
        player = self.agent_name_mapping[agent]
        mask = self._legal_mask()
        problem = self._check_action(action, mask)
        if problem is not None:
            if self.config["illegal_action"] == "raise":
                raise IllegalActionError(
                    f"{agent} cannot play {action!r}: {problem}. Legal actions now: "
                    f"{np.flatnonzero(mask).tolist()} (see env.unwrapped.action_name(i))"
                )
            shown = int(action) if isinstance(action, (int, np.integer)) else repr(action)
            warnings.warn(
                f"{agent} played {shown}: {problem}; the game ends with -1 for {agent} "
                "(illegal_action='penalize'; pass illegal_action='raise' to get an error instead)",
                IllegalActionWarning, stacklevel=2,
            )
            self._end_game([-1.0 if p == player else 0.0 for p in range(self.rules.num_players)])
            self.infos[agent]["illegal_action"] = action
            return
        self.rules.apply(self._game, operator.index(action))
        self._mask = None
        nxt = self.rules.current_player(self._game)
        if nxt < 0:
            keys = self.rules.final_keys(self._game)
            scores = self.rules.scores(self._game)
            self._end_game(terminal_rewards(self.config["reward"], keys, scores))
            for a, score, rank in zip(self.possible_agents, scores, ranks(keys)):
                self.infos[a] = {"score": score, "rank": rank}
        else:
            self.agent_selection = self.possible_agents[nxt]
        if self.render_mode == "human":
            self.render()

    def _check_action(self, action: Any, mask: np.ndarray) -> str | None:
        """Why `action` cannot be played now, or None when it can."""
        try:
            a = operator.index(action)
        except TypeError:
            return f"an action must be an integer in [0, {self.rules.num_actions})"
        if not 0 <= a < self.rules.num_actions:
            return f"it is out of range [0, {self.rules.num_actions})"
        if not mask[a]:
            return f"{self.action_name(a)!r} is not legal now"
        return None

    def _end_game(self, rewards: list[float]) -> None:
        for a, r in zip(self.possible_agents, rewards):
            self.rewards[a] = r
            self._cumulative_rewards[a] += r
            self.terminations[a] = True

    # --- what agents see ----------------------------------------------------------------------------
    def action_mask(self) -> np.ndarray:
        """The acting player's mask: a fresh writable copy, so a client's write cannot reach the env."""
        return self._legal_mask().copy()

    def _legal_mask(self) -> np.ndarray:
        """The acting player's mask, read-only and cached until the next step."""
        if self._mask is None:
            if self.rules.is_over(self._running()):
                self._mask = self._no_moves
            else:
                mask = self.rules.legal_mask(self._game)
                mask.flags.writeable = False
                self._mask = mask
        return self._mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._seat(agent)
        game = self._game if self._game is not None else self._running()
        acting = self.rules.current_player(game) == player
        return {
            "observation": self.rules.observe(game, player),
            "action_mask": (self._legal_mask() if acting else self._no_moves).copy(),
        }

    def state(self) -> np.ndarray:
        """Everything any player knows: every seat's observation, in seat order."""
        game = self._running()
        return np.concatenate([self.rules.observe(game, p) for p in range(self.rules.num_players)])

    def last(self, observe: bool = True) -> tuple:
        self._running()
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        self._running()
        return super().agent_iter(max_iter)

    # --- search support -----------------------------------------------------------------------------
    def clone(self) -> "GameEnv":
        """An independent copy of this env mid-game (same future chance)."""
        return self._with_game(self.rules.copy_state(self._running()))

    def _with_game(self, game: GameState | None) -> "GameEnv":
        """A copy of this env's bookkeeping around `game` (already an independent state)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._game = game
        if self._seeder is not None:
            new._seeder = copy_rng(self._seeder)
        new.agents = self.agents[:]
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(new, name, dict(getattr(self, name)))
        new.infos = {a: dict(i) for a, i in self.infos.items()}
        return new

    def resample_hidden(self, agent: str, seed: int | None = None) -> "GameEnv":
        """A copy in which all that `agent` cannot see, and all future chance, is redrawn from `seed`,
        consistently with what `agent` has seen."""
        game = self.rules.resample_hidden(self._running(), self._seat(agent), np.random.default_rng(seed))
        new = self._with_game(game)
        new._mask = None
        return new

    # --- text ------------------------------------------------------------------------------------------
    def events_for(self, agent: str | None) -> list[str]:
        """The event texts `agent` may read so far, oldest first: the public ones and its own private
        ones (None: every event). Empty unless the env was built with record_events=True."""
        return self._visible_events(None if agent is None else self._seat(agent))

    def public_events(self) -> list[str]:
        """The event texts every seat may read so far (what a shared game log holds)."""
        return self._visible_events(EVERYONE)

    def _visible_events(self, seat: int | None) -> list[str]:
        events = getattr(self._running(), "events", None)
        return [] if events is None else events.visible_to(seat)

    def action_name(self, action: int) -> str:
        """A readable name of `action`, filled in from the current state."""
        return self.rules.action_name(int(action), self._game)

    def render(self) -> str | np.ndarray | None:
        """The whole table (every card shown), as text or (rgb_array) an HxWx3 uint8 picture;
        `render_for(agent)` and `picture_for(agent)` show one seat's view."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self.rules.picture(self._running(), None)
        text = self.rules.render(self._running(), None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def render_for(self, agent: str | None) -> str:
        """The table as `agent` sees it (None: everything)."""
        return self.rules.render(self._running(), None if agent is None else self._seat(agent))

    def picture_for(self, agent: str | None) -> np.ndarray:
        """HxWx3 uint8 picture of the table as `agent` sees it (None: everything); needs Pillow."""
        require_pillow()
        return self.rules.picture(self._running(), None if agent is None else self._seat(agent))

    @property
    def game_state(self) -> GameState:
        """The rules' state object (for tests, bots and tools; mutate it at your own risk)."""
        return self._game

    def close(self) -> None:
        pass


def make_env_class(rules_class: type[Rules], qualname: str = "raw_env") -> type[GameEnv]:
    """The AEC env class of one game, with its versioned metadata name (e.g. corruption_v0).

    Assign it to a module-level name `qualname` of the calling module: the class is registered there
    (as namedtuple does) so that pickle and multiprocessing can find it again.
    """
    name = f"{rules_class.name}_v{rules_class.version}"
    return type(
        qualname,
        (GameEnv,),
        {
            "rules_class": rules_class,
            "metadata": {**GameEnv.metadata, "name": name},
            "__doc__": f"PettingZoo AEC env of {rules_class.name} ({name}).",
            "__module__": sys._getframe(1).f_globals.get("__name__", "__main__"),
            "__qualname__": qualname,
        },
    )


def parallel_env_fn(env_fn: Callable[..., GameEnv]) -> Callable[..., ParallelEnv]:
    """A game module's `parallel_env(**config)`: the PettingZoo module convention (`env`, `raw_env`,
    `parallel_env`), built as PettingZoo's `parallel_wrapper_fn` is but by `turn_based_aec_to_parallel`,
    since the games are turn-based: each step() takes the action of the one agent on turn (the others'
    are ignored)."""

    def parallel_env(**config: Any) -> ParallelEnv:
        """The game's env(**config) as a PettingZoo ParallelEnv played by the agent on turn."""
        return turn_based_aec_to_parallel(env_fn(**config))

    return parallel_env
