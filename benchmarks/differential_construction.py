"""The batched Construction engine against the AEC rules, decision by decision.

Every row of a `ConstructionEngine` is mirrored by an AEC `State` dealt from the row's seed and then
drawing its chance from the row's own stream (`ChanceStream`), so both sides play the same game; the
same action is fed to both, and every decision's observation, mask and player, and every end's rewards,
scores and ranks, must be equal.

    python -m benchmarks.differential_construction --games 100000 --players 3 4 5 6 7
"""
from __future__ import annotations

import argparse
import time
from types import SimpleNamespace
from typing import Any, Sequence

import numpy as np

from corruption_envs.construction import ConstructionRules, HeuristicAgent
from corruption_envs.construction.state import State
from corruption_envs.core.rewards import ranks, terminal_rewards
from corruption_envs.vector.construction import ChanceStream, ConstructionEngine

PLAYS = ("random", "heuristic")


def compare_games(
    num_games: int,
    num_players: int | Sequence[int],
    seed: int,
    play: str = "random",
    batch: int = 64,
    **config: Any,
) -> int:
    """Play `num_games` games (a batch of up to `batch` rows, auto-reset) on the engine and on the AEC
    rules side by side; returns the decisions compared, or raises AssertionError at the first difference."""
    engine = ConstructionEngine(min(batch, num_games), num_players=num_players, seed=seed, **config)
    engine.reset()
    states = [_aec_game(engine, i) for i in range(engine.num_envs)]
    return _drive(engine, states, num_games, play, seed)


def compare_positions(
    states: Sequence[State], seed: int, play: str = "random", **config: Any
) -> int:
    """Load each AEC state into a row of an engine (config as the states were built with), play both
    until every one of those games has ended; returns the decisions compared."""
    counts = sorted({s.n for s in states})
    engine = ConstructionEngine(len(states), num_players=counts, seed=seed, **config)
    engine.reset()
    mine = []
    for row, s in enumerate(states):
        s = s.copy()
        s.rng = ChanceStream(seed + row)
        engine.load(row, s, seed + row)
        mine.append(s)
    return _drive(engine, mine, len(states), play, seed)


def _aec_game(engine: ConstructionEngine, row: int) -> State:
    """The AEC game of `row`: dealt as the AEC env deals from the row's seed, played on with its stream."""
    n, seed = int(engine._batch.num_players[row]), int(engine.game_seeds[row])
    s = engine.rules[n].new_game(np.random.default_rng(seed))
    s.rng = ChanceStream(seed)
    return s


def _drive(engine: ConstructionEngine, states: list[State], num_games: int, play: str, seed: int) -> int:
    if play not in PLAYS:
        raise ValueError(f"play={play!r}: one of {PLAYS}")
    rules = engine.rules
    agents = {n: HeuristicAgent(_env_view(r)) for n, r in rules.items()}
    rng = np.random.default_rng(seed)
    batch = engine._batch
    B = engine.num_envs
    move = np.zeros(B, np.int64)  # decisions so far in each row's game
    games_seen = np.zeros(B, np.int64)
    finished = decisions = 0
    actions = np.zeros(B, np.int64)
    while finished < num_games or not games_seen.all():
        for i in range(B):
            s, r = states[i], rules[states[i].n]
            _check_decision(engine, i, r, s, int(move[i]), int(games_seen[i]))
            mask = batch.action_mask[i]
            if play == "random":
                a = int(rng.choice(np.flatnonzero(mask)))
            else:
                a = agents[s.n].act(r.observe(s, s.actor), r.legal_mask(s))
            actions[i] = a
            r.apply(s, a)
            move[i] += 1
        decisions += B
        engine.step(actions)
        for i in range(B):
            s, r = states[i], rules[states[i].n]
            over = r.is_over(s)
            where = _where(i, s.n, int(move[i]), int(games_seen[i]))
            assert bool(batch.terminated[i]) == over, \
                f"{where}: engine terminated={batch.terminated[i]}, AEC over={over}"
            if not over:
                continue
            _check_outcome(engine, i, r, s, where)
            finished += 1
            games_seen[i] += 1
            move[i] = 0
            states[i] = _aec_game(engine, i)
    return decisions


def _where(row: int, n: int, move: int, game: int) -> str:
    return f"row {row} (game {game} of the row), {n} players, decision {move}"


def _check_decision(
    engine: ConstructionEngine, i: int, r: ConstructionRules, s: State, move: int, game: int
) -> None:
    b = engine._batch
    where = _where(i, s.n, move, game)
    assert int(b.num_players[i]) == s.n, f"{where}: engine num_players {b.num_players[i]}"
    assert int(b.current_player[i]) == s.actor, f"{where}: current player {b.current_player[i]} != {s.actor}"
    mask = r.legal_mask(s)
    if not np.array_equal(b.action_mask[i], mask):
        diff = np.flatnonzero(b.action_mask[i] != mask)
        names = [f"{r.action_name(int(a))} (engine {b.action_mask[i][a]}, AEC {mask[a]})" for a in diff[:5]]
        raise AssertionError(f"{where}: masks differ at {names}")
    obs = r.observe(s, s.actor)
    if not np.array_equal(b.observation[i], obs):
        k = int(np.flatnonzero(b.observation[i] != obs)[0])
        raise AssertionError(f"{where}: observations differ first at {_feature(engine, k)}: "
                             f"engine {b.observation[i][k]!r}, AEC {obs[k]!r}")


def _check_outcome(engine: ConstructionEngine, i: int, r: ConstructionRules, s: State, where: str) -> None:
    b, n = engine._batch, s.n
    keys, scores = r.final_keys(s), r.scores(s)
    expected = {
        "scores": np.asarray(scores, np.int64),
        "ranks": np.asarray(ranks(keys), np.float64),
        "rewards": np.asarray(terminal_rewards(r.config["reward"], keys, scores), np.float32),
    }
    for name, want in expected.items():
        got = getattr(b, name)[i, :n]
        assert np.array_equal(got, want), f"{where}: final {name} {got} != AEC {want}"
        assert not getattr(b, name)[i, n:].any(), f"{where}: {name} beyond the {n} seats are not 0"


def _feature(engine: ConstructionEngine, k: int) -> str:
    """The layout name of observation feature k, e.g. seats[2, 13]."""
    lay = engine.observation_layout
    for name, piece in lay.items():
        if piece.start <= k < piece.stop:
            index = np.unravel_index(k - piece.start, lay.shapes[name])
            return f"{name}[{', '.join(str(int(j)) for j in index)}] (feature {k})"
    raise IndexError(k)


def _env_view(r: ConstructionRules) -> SimpleNamespace:
    """What HeuristicAgent reads of an env: its observation layout and config."""
    env = SimpleNamespace(observation_layout=r.observation_layout, config=r.config)
    env.unwrapped = env
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6, 7])
    parser.add_argument("--play", choices=PLAYS, default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args()
    t = time.process_time()
    decisions = compare_games(args.games, args.players, args.seed, args.play, args.batch)
    print(f"{args.games} games, {decisions} decisions equal ({time.process_time() - t:.1f} s CPU)")


if __name__ == "__main__":
    main()
