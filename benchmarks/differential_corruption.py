"""Corruption's batched engine against the AEC rules, decision by decision (tests/vector/test_corruption.py).

    python -m benchmarks.differential_corruption --games 100000 --players 3 4 5 6 7 --play random

Both sides play the same games (the engine's game i is `rules.new_game(default_rng(game_seeds[i]))`) with
the same actions, chosen from the AEC side; before every action the engine's observation, mask and
seat on turn must equal the AEC's exactly, and at every game's end its rewards, scores and ranks.
The first difference raises AssertionError naming the row, the decision, the player count and the
observation feature.
"""
from __future__ import annotations

import argparse
from typing import Any, Callable, Sequence

import numpy as np

from corruption_envs.core.rewards import ranks, terminal_rewards
from corruption_envs.corruption import CorruptionRules, HeuristicAgent, env
from corruption_envs.corruption.state import CorruptionState
from corruption_envs.vector.corruption import CorruptionEngine

Chooser = Callable[[int, np.ndarray, np.ndarray], int]  # (num_players, observation, mask) -> action


def chooser(play: str, counts: Sequence[int], seed: int, **config: Any) -> Chooser:
    """'random': a uniform legal action; 'heuristic': the HeuristicAgent of the game's player count."""
    rng = np.random.default_rng(seed)
    if play == "random":
        def random_action(n: int, obs: np.ndarray, mask: np.ndarray) -> int:
            legal = np.flatnonzero(mask)
            return int(legal[rng.integers(legal.size)])
        return random_action
    if play == "heuristic":
        agents = {n: HeuristicAgent(env(num_players=n, **config), seed=seed + n) for n in counts}
        return lambda n, obs, mask: agents[n].act(obs, mask)
    raise ValueError(f"play={play!r}: use 'random' or 'heuristic'")


def first_difference(engine: CorruptionEngine, got: np.ndarray, want: np.ndarray) -> str:
    """The first differing observation entry, by its layout piece."""
    j = int(np.flatnonzero(got != want)[0])
    for name, piece in engine.observation_layout.items():
        if piece.start <= j < piece.stop:
            return f"{name}[{j - piece.start}] (entry {j}): engine {got[j]!r}, AEC {want[j]!r}"
    raise AssertionError("no difference")  # pragma: no cover


def check_decision(engine: CorruptionEngine, row: int, rules: CorruptionRules, s: CorruptionState,
                   decision: int) -> tuple[np.ndarray, np.ndarray]:
    """Engine row `row` shows the AEC state's decision exactly; returns the AEC (observation, mask)."""
    b = engine._batch
    n = s.n
    where = f"game row {row}, decision {decision}, {n} players"
    p = rules.current_player(s)
    assert b.num_players[row] == n, f"{where}: engine has {b.num_players[row]} players"
    assert b.current_player[row] == p, f"{where}: engine's seat on turn {b.current_player[row]}, AEC's {p}"
    mask = rules.legal_mask(s)
    if not np.array_equal(b.action_mask[row], mask):
        extra = np.flatnonzero(b.action_mask[row] > mask).tolist()
        missing = np.flatnonzero(b.action_mask[row] < mask).tolist()
        raise AssertionError(f"{where}: mask differs: engine adds {[rules.action_name(a, s) for a in extra]}, "
                             f"lacks {[rules.action_name(a, s) for a in missing]}")
    obs = rules.observe(s, p)
    got = b.observation[row]
    if not np.array_equal(got, obs):
        raise AssertionError(f"{where}: observation differs at {first_difference(engine, got, obs)}")
    return obs, mask


def check_end(engine: CorruptionEngine, row: int, rules: CorruptionRules, s: CorruptionState,
              decision: int) -> None:
    """Engine row `row` ended with the AEC game's rewards, scores and ranks."""
    b = engine._batch
    n = s.n
    where = f"game row {row}, end after decision {decision}, {n} players"
    keys, scores = rules.final_keys(s), rules.scores(s)
    want = {
        "rewards": np.float32(terminal_rewards(rules.config["reward"], keys, scores)),
        "scores": np.array(scores, np.int64),
        "ranks": np.array(ranks(keys), np.float64),
    }
    assert b.terminated[row], f"{where}: the engine's game did not end"
    for name, value in want.items():
        got = getattr(b, name)[row]
        assert np.array_equal(got[:n], value) and not got[n:].any(), f"{where}: {name} {got} != AEC {value}"


def compare_games(num_games: int, num_players: int | Sequence[int] = (3, 4, 5, 6, 7), seed: int = 0,
                  play: str = "random", num_envs: int = 64, **config: Any) -> int:
    """Play `num_games` games both ways (batches mixing `num_players`), comparing every decision;
    returns the number of decisions compared."""
    engine = CorruptionEngine(num_envs, num_players=num_players, seed=seed, **config)
    choose = chooser(play, engine.player_counts, seed, **config)
    engine.reset()

    def deal(row: int) -> CorruptionState:
        n = int(engine._batch.num_players[row])
        return engine.rules[n].new_game(np.random.default_rng(int(engine.game_seeds[row])))

    states = [deal(i) for i in range(num_envs)]
    made = [0] * num_envs  # decisions made in each row's current game
    finished = compared = 0
    actions = np.zeros(num_envs, np.int64)
    while finished < num_games:
        for i, s in enumerate(states):
            rules = engine.rules[s.n]
            obs, mask = check_decision(engine, i, rules, s, made[i])
            actions[i] = choose(s.n, obs, mask)
            rules.apply(s, int(actions[i]))
        batch = engine.step(actions)
        compared += num_envs
        for i, s in enumerate(states):
            made[i] += 1
            rules = engine.rules[s.n]
            if rules.current_player(s) >= 0:
                assert not batch.terminated[i], f"game row {i}, decision {made[i]}: engine ended, AEC did not"
                continue
            check_end(engine, i, rules, s, made[i])
            finished += 1
            states[i], made[i] = deal(i), 0
    return compared


def compare_from_state(rules: CorruptionRules, state: CorruptionState, seed: int = 0,
                       play: str = "random") -> int:
    """Load an AEC position into a one-game engine and play it out both ways to the game's end;
    returns the number of decisions compared."""
    # the rules' options and reward (the engine only raises on illegal actions; the count is the state's)
    config = {k: v for k, v in rules.config.items() if k not in ("num_players", "illegal_action")}
    engine = CorruptionEngine(1, num_players=state.n, **config)
    engine.reset(seed=seed)
    engine.load(0, state)
    choose = chooser(play, [state.n], seed, **config)
    made = 0
    while True:
        obs, mask = check_decision(engine, 0, rules, state, made)
        action = choose(state.n, obs, mask)
        rules.apply(state, action)
        engine.step(np.array([action]))
        made += 1
        if rules.current_player(state) < 0:
            check_end(engine, 0, rules, state, made)
            return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6, 7])
    parser.add_argument("--play", choices=("random", "heuristic"), default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=64)
    args = parser.parse_args()
    decisions = compare_games(args.games, args.players, args.seed, args.play, args.envs)
    print(f"{args.games} games, {decisions} decisions: engine and AEC agree")


if __name__ == "__main__":
    main()
