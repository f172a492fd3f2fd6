"""Corruptia's batched engine against the AEC rules, decision by decision.

    python -m benchmarks.differential_corruptia --games 100000 --players 3 4 5 --play random

A `CorruptiaEngine` and the `ReferenceEngine` (the AEC rules game by game) are made with the same seed,
so every row deals the same game on both (the engine carries the game's PCG64 Generator on, so dice
and coins agree too), and are stepped with the same actions: at every decision the player count, the
acting seat, its observation (float32, bit for bit) and its mask must be equal, and at every game's
end the terminated flag, scores, ranks and rewards. The first difference raises AssertionError naming
the row, the decision, the player count and the observation feature by its layout name.
"""
from __future__ import annotations

import argparse
import time
from typing import Any, Iterable, Sequence

import numpy as np

import corruption_envs
from corruption_envs.corruptia import CorruptiaRules
from corruption_envs.corruptia.heuristic import HeuristicAgent
from corruption_envs.corruptia.state import CorruptiaState
from corruption_envs.vector.corruptia import CorruptiaEngine
from corruption_envs.vector.reference import ReferenceEngine

PLAYS = ("random", "heuristic")


class Mismatch(AssertionError):
    """The engine and the AEC rules disagree."""


def first_difference(layout, a: np.ndarray, b: np.ndarray) -> str:
    """The first observation entry where a != b, by its layout piece and index within the piece."""
    k = int(np.flatnonzero(a != b)[0])
    for name, piece in layout.items():
        if piece.start <= k < piece.stop:
            at = np.unravel_index(k - piece.start, layout.shapes[name])
            return f"{name}{list(map(int, at))}: engine {a[k]!r}, AEC {b[k]!r}"
    raise AssertionError(f"index {k} is in no layout piece")


class _Chooser:
    """The actions both sides play: uniformly random legal ones, or each count's HeuristicAgent acting
    on the AEC observation."""

    def __init__(self, counts: Iterable[int], play: str, seed: int, config: dict[str, Any]) -> None:
        if play not in PLAYS:
            raise ValueError(f"play={play!r}: choose one of {PLAYS}")
        self.rng = np.random.default_rng(seed)
        self.agents = {}
        if play == "heuristic":
            self.agents = {n: HeuristicAgent(corruption_envs.env("corruptia", num_players=n, **config),
                                             seed=seed + n) for n in counts}

    def __call__(self, reference: ReferenceEngine) -> np.ndarray:
        b = reference._batch
        if not self.agents:
            u = self.rng.random(b.action_mask.shape) * b.action_mask
            return u.argmax(axis=1)
        return np.array([self.agents[int(n)].act(obs, mask)
                         for n, obs, mask in zip(b.num_players, b.observation, b.action_mask)], np.int64)


class _Pair:
    """A compiled engine and the reference engine (the AEC rules game by game) on the same games."""

    def __init__(self, num_envs: int, counts: Sequence[int], seed: int, config: dict[str, Any]) -> None:
        self.engine = CorruptiaEngine(num_envs, num_players=counts, seed=seed, **config)
        self.reference = ReferenceEngine(CorruptiaRules, num_envs, num_players=counts, seed=seed, **config)
        self.decision = np.zeros(num_envs, np.int64)  # decisions so far in each row's game

    def reset(self) -> None:
        self.engine.reset()
        self.reference.reset()
        self.check(np.ones(self.engine.num_envs, bool))

    def load(self, row: int, state: CorruptiaState) -> None:
        self.engine.load(row, state)
        self.reference.load(row, state)

    def step(self, actions: np.ndarray, compared: np.ndarray) -> int:
        """Both engines play `actions`; the rows in `compared` are held to each other. Returns how many
        games ended among them."""
        self.engine.step(actions)
        self.reference.step(actions)
        self.decision += 1
        ended = self.check(compared)
        self.decision[self.reference._batch.terminated] = 0
        return ended

    def check(self, rows: np.ndarray) -> int:
        got, want = self.engine._batch, self.reference._batch
        for i in np.flatnonzero(rows):
            where = f"row {i}, decision {self.decision[i]}, {want.num_players[i]} players"
            if got.terminated[i] != want.terminated[i]:
                raise Mismatch(f"{where}: terminated engine {got.terminated[i]}, AEC {want.terminated[i]}")
            if want.terminated[i]:
                n = want.ended_players[i]
                where = f"row {i}, the end after decision {self.decision[i]}, {n} players"
                for name in ("scores", "ranks", "rewards"):
                    a, b = getattr(got, name)[i, :n], getattr(want, name)[i, :n]
                    if not np.array_equal(a, b):
                        raise Mismatch(f"{where}: {name} engine {a.tolist()}, AEC {b.tolist()}")
                where = f"row {i}, the next game's first decision, {want.num_players[i]} players"
            elif (got.rewards[i] != 0).any():
                raise Mismatch(f"{where}: rewards {got.rewards[i].tolist()} in a game that goes on")
            for name in ("num_players", "current_player"):
                a, b = getattr(got, name)[i], getattr(want, name)[i]
                if a != b:
                    raise Mismatch(f"{where}: {name} engine {a}, AEC {b}")
            if not np.array_equal(got.observation[i], want.observation[i]):
                layout = self.engine.observation_layout
                diff = first_difference(layout, got.observation[i], want.observation[i])
                raise Mismatch(f"{where}: observation differs at {diff}")
            if not np.array_equal(got.action_mask[i], want.action_mask[i]):
                diff = np.flatnonzero(got.action_mask[i] != want.action_mask[i])[:3]
                names = [f"{self.engine.action_name(a)} (engine {got.action_mask[i, a]}, "
                         f"AEC {want.action_mask[i, a]})" for a in diff]
                raise Mismatch(f"{where}: action mask differs at {names}")
        return int(want.terminated[rows].sum())


def compare_games(
    num_games: int,
    num_players: int | Sequence[int],
    seed: int,
    play: str = "random",
    num_envs: int = 64,
    **config: Any,
) -> int:
    """Play `num_games` games both ways, in an engine of `num_envs` rows (`num_players`: one count, or
    counts to mix), and return the decisions compared. Every row is compared until num_games games
    have ended."""
    counts = [num_players] if isinstance(num_players, int) else list(num_players)
    pair = _Pair(min(num_envs, num_games), counts, seed, config)
    choose = _Chooser(counts, play, seed, config)
    pair.reset()
    everything = np.ones(pair.engine.num_envs, bool)
    ended = compared = 0
    while ended < num_games:
        compared += pair.engine.num_envs
        ended += pair.step(choose(pair.reference), everything)
    return compared


def compare_from(states: Sequence[CorruptiaState], seed: int, play: str = "random", **config: Any) -> int:
    """Load each AEC state into a row of both engines and play every game on to its end both ways, with
    the same actions; return the decisions compared."""
    counts = sorted({s.n for s in states})
    pair = _Pair(len(states), counts, seed, config)
    choose = _Chooser(counts, play, seed, config)
    pair.reset()
    for i, s in enumerate(states):
        pair.load(i, s)
    live = np.ones(len(states), bool)
    pair.check(live)
    compared = 0
    while live.any():
        compared += int(live.sum())
        pair.step(choose(pair.reference), live)
        live &= ~pair.reference._batch.terminated
    return compared


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--play", choices=PLAYS, default="random")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.process_time()
    decisions = compare_games(args.games, args.players, args.seed, args.play)
    print(f"{args.games} games, {decisions} decisions identical "
          f"({time.process_time() - start:.1f} s CPU)")


if __name__ == "__main__":
    main()
