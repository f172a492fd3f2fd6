"""What the searches share: the seat's view of its env, determinizations, playouts, the budget loop.

Search runs on the rules level (`rules.resample_hidden`, `rules.apply`), the same calls that
`GameEnv.resample_hidden` and `GameEnv.clone` wrap, without building an env per simulation; where
the game has a compiled engine (numba installed), determinizations are played in waves of engine
rows instead (`waves.py`).
"""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..core import GameEnv, GameState, ResampleError, Rules
from ..core.game import Game
from ..core.agents import Agent
from ..core.rewards import rank_points as points_of_rank, ranks
from ..named_bots import named_bot
from ..core.game import game_of
from .waves import DEFAULT_WAVE, MIN_WAVES, EngineRows, WavePlayout, engine_available

ROLLOUTS = ("random", "heuristic")


def rank_points(rules: Rules, state: GameState) -> list[float]:
    """Per seat at the end of a game: 1 for first, 0 for last, tied seats share their places."""
    n = rules.num_players
    return [points_of_rank(r, n) for r in ranks(rules.final_keys(state))]


class Playout:
    """Plays a state to its end with one rollout policy for every seat; returns rank points."""

    def __init__(self, game: Game, env: GameEnv, policy: str, rng: np.random.Generator) -> None:
        if policy not in ROLLOUTS:
            raise ValueError(f"rollout policy {policy!r} is not one of {ROLLOUTS}")
        self.rules = env.rules
        self.policy = policy
        self.rng = rng
        self.bots: list[Any] | None = None
        if policy == "heuristic":
            self.bots = [named_bot("heuristic", game, env, 0) for _ in range(self.rules.num_players)]

    def reseed(self, rng: np.random.Generator) -> None:
        """Draw all playout chance from `rng` (the heuristics' own generators too)."""
        self.rng = rng
        for bot in self.bots or ():
            bot.use_rng(rng)

    def run(self, state: GameState) -> list[float]:
        rules, rng, bots = self.rules, self.rng, self.bots
        while (p := rules.current_player(state)) >= 0:
            mask = rules.legal_mask(state)
            if bots is None:
                legal = np.flatnonzero(mask)
                action = legal[rng.integers(legal.size)] if legal.size > 1 else legal[0]
            else:
                action = bots[p].act(rules.observe(state, p), mask)
            rules.apply(state, int(action))
        return rank_points(rules, state)


class SeatView:
    """The env a search bot plays in, read only through the acting seat's information set."""

    def __init__(self, env: GameEnv) -> None:
        self.env = env.unwrapped

    def acting_state(self, observation: np.ndarray) -> tuple[int, GameState]:
        """(acting seat, true state) of the env, after checking that `observation` is that seat's view:
        the bot reads the state only to redraw what the seat cannot see."""
        env = self.env
        rules, state = env.rules, env.game_state
        player = -1 if state is None else rules.current_player(state)
        if player < 0 or not np.array_equal(rules.observe(state, player), observation):
            raise ValueError(
                "a search bot must act in the env it was built for (make_agent(spec, env)) on that "
                "env's acting seat; the observation given is not the acting seat's view of that env"
            )
        return player, state

    def determinize(self, state: GameState, player: int, rng: np.random.Generator) -> GameState:
        """A state drawn from `player`'s information set, with fresh future chance from `rng`."""
        return determinize(self.env.rules, state, player, rng)


RESAMPLE_TRIES = 4  # fresh draws before a ResampleError reaches the caller


def determinize(rules: Rules, state: GameState, player: int, rng: np.random.Generator) -> GameState:
    """A state drawn from `player`'s information set in `state`, with fresh future chance from `rng`.
    A draw that finds no consistent state (Construction's tangled secret gifts, rarely) is drawn again
    from `rng`: a retry reads nothing the seat cannot see, where a fallback to the truth would."""
    def draw() -> GameState:
        return rules.resample_hidden(state, player, np.random.default_rng(int(rng.integers(2**63))))

    for _ in range(RESAMPLE_TRIES - 1):
        try:
            return draw()
        except ResampleError:
            pass
    return draw()  # the last try's error reaches the caller


class SearchAgent(Agent):
    """What every search bot shares: a seeded generator, the playout, and the loop that spends
    `simulations` determinizations a move, or fewer when `time_limit` seconds of wall time run out
    first (then the move also depends on the machine's speed). Subclasses say what one simulation
    does (`_simulate`), what a wave of them does on the engine (`_simulate_wave`) and which move the
    statistics pick (`_choose`).

    `engine`: True plays the simulations in waves of up to `wave` engine rows, and at least MIN_WAVES
    waves a move so that a small budget still grows its tree wave on wave (the game needs a compiled
    engine); False one game at a time on the rules; None (the default) the engine where the game has
    one. On the engine a time limit is checked after each wave, so a move spends whole waves."""

    plays_on_batches = False  # it plans on the AEC game it is bound to, one decision at a time

    def __init__(
        self,
        env: GameEnv,
        seed: int | None = None,
        simulations: int = 200,
        rollout: str = "random",
        time_limit: float | None = None,
        engine: bool | None = None,
        wave: int = DEFAULT_WAVE,
    ) -> None:
        if simulations < 1:
            raise ValueError(f"simulations={simulations}: give at least 1 simulation a move")
        if time_limit is not None and time_limit < 0:
            raise ValueError(f"time_limit={time_limit}: give a number of seconds >= 0, or None")
        if wave < 1:
            raise ValueError(f"wave={wave}: give at least 1 engine row a wave")
        self.view = SeatView(env)
        self.game = game_of(env)
        self.simulations = simulations
        self.time_limit = time_limit
        self.rng = np.random.default_rng(seed)
        self.playout = Playout(self.game, self.view.env, rollout, self.rng)
        self.last_iterations = 0  # simulations run for the last move (for tests and reports)
        self.wave = wave
        self._engine_choice = engine
        self._check_engine()
        self._rows: EngineRows | None = None  # made at the first move on the engine, then reused
        self._wave_playout: WavePlayout | None = None

    @property
    def uses_engine(self) -> bool:
        """Whether this bot plays its simulations on the batched engine."""
        return self._engine_choice is not False and engine_available(self.game)

    def _check_engine(self) -> None:
        if self._engine_choice and not engine_available(self.game):
            raise ValueError(
                f"engine=True: {self.game.name!r} has no compiled engine here (it needs numba, "
                "pip install corruption-envs[vector], and a registered game that declares one); "
                "pass engine=None to search one game at a time where there is none"
            )

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def bind(self, env: GameEnv, seed: int | None = None) -> None:
        """Play in `env` from now on (for callers that build the bot before the env it plays in)."""
        self.view = SeatView(env)
        self.game = game_of(env)
        self.playout = Playout(self.game, self.view.env, self.playout.policy, self.rng)
        self._check_engine()
        self._rows = self._wave_playout = None
        self.seed(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.decide(observation, action_mask)[0]

    def decide(self, observation: np.ndarray, action_mask: np.ndarray) -> tuple[int, Any]:
        """The move `act` plays and the statistics of the search it was chosen from (None where only one
        move is legal: then there is no search)."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError(f"{type(self).__name__} was asked to act with an all-zero action mask")
        me, truth = self.view.acting_state(observation)
        if legal.size == 1:
            self.last_iterations = 0
            return int(legal[0]), None
        stats = self.search(truth, me, legal)
        return self._choose(stats), stats

    def search(self, truth: GameState, me: int, legal: np.ndarray) -> Any:
        """The statistics of one move's search by seat `me` (to act in `truth`, with the legal moves
        `legal`): what `act` chooses from, and what a teacher reads (`teacher.py`). `truth` is read only
        through determinizations of `me`'s information set."""
        stats = self._new_stats(me, legal)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        engine = self.uses_engine
        if engine:
            self.ready_engine()
        else:
            self.playout.reseed(self.rng)
        done = 0
        while done < self.simulations:
            if engine:
                size = min(self.wave, -(-self.simulations // MIN_WAVES), self.simulations - done)
                self._rows.deal(truth, me, size, self.rng, self.view.determinize)
                self._simulate_wave(stats, size, done)
            else:
                size = 1
                self._simulate(stats, self.view.determinize(truth, me, self.rng), done)
            done += size
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        return stats

    def ready_engine(self) -> None:
        """Make the engine rows and their playout (once): the first move on the engine does, a
        benchmark calls it first to time moves alone."""
        if self._rows is None:
            env = self.view.env
            # the engine's own deals are never read (every row plays a loaded determinization), so its
            # seed is fixed: a reseeded bot then plays as a fresh one seeded alike
            self._rows = EngineRows(self.game, env.rules, self.wave, seed=0)
            self._wave_playout = WavePlayout(self.game, env, self.playout.policy, self.rng)
        self._wave_playout.reseed(self.rng)

    def _simulate_wave(self, stats: Any, size: int, done: int) -> None:
        """`size` simulations, one from each of the engine rows 0..size-1 (dealt their determinizations)."""
        raise NotImplementedError

    def _new_stats(self, me: int, legal: np.ndarray) -> Any:
        raise NotImplementedError

    def _simulate(self, stats: Any, state: GameState, done: int) -> None:
        raise NotImplementedError

    def _choose(self, stats: Any) -> int:
        raise NotImplementedError
