"""The differential driver (benchmarks/differential.py) with rows waiting mid-game, and the names it
gives a difference: a wrong mask, termination or reward is reported as such, not only observations."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from benchmarks.differential import TWINS, check_decision, check_step, compare_games  # noqa: E402
from corruption_envs.vector import engine_class, list_games  # noqa: E402


@pytest.mark.parametrize("game", list_games())
def test_rows_that_wait_mid_game_play_on_as_the_aec_games(game):
    rules = engine_class(game).rules_class
    counts = list(range(rules.min_players, rules.max_players + 1))
    assert compare_games(game, 12, counts, seed=3, num_envs=6, wait=0.4) > 12 * 50


def one_row(game, seed=0):
    engine = engine_class(game)(1, num_players=4 if game != "corruptia" else 3, seed=seed)
    engine.reset()
    twin = TWINS[game].dealt(engine, 0)
    return engine, engine.rules[twin.n], twin


def play_one(engine, rules, twin, rng):
    action = int(rng.choice(np.flatnonzero(rules.legal_mask(twin))))
    rules.apply(twin, action)
    engine.step(np.array([action]))


@pytest.mark.parametrize("game", list_games())
def test_a_wrong_mask_is_named(game):
    engine, rules, twin = one_row(game)
    check_decision(engine, 0, rules, twin, 0)
    legal = np.flatnonzero(engine._batch.action_mask[0])
    engine._batch.action_mask[0, legal[0]] = 0
    with pytest.raises(AssertionError, match=r"row 0, decision 0, \d players: mask differs: engine adds \[\], lacks"):
        check_decision(engine, 0, rules, twin, 0)


@pytest.mark.parametrize("game", list_games())
def test_a_wrong_termination_and_a_wrong_reward_are_named(game):
    engine, rules, twin = one_row(game)
    rng = np.random.default_rng(1)
    play_one(engine, rules, twin, rng)
    engine._batch.terminated[0] = True  # the engine would claim the game ended after one move
    with pytest.raises(AssertionError, match="decision 1, .*engine terminated=True, AEC over=False"):
        check_step(engine, 0, rules, twin, 1)
    engine._batch.terminated[0] = False
    engine._batch.rewards[0, 0] = 1.0
    with pytest.raises(AssertionError, match="rewards .* in a game that goes on"):
        check_step(engine, 0, rules, twin, 1)
    engine._batch.rewards[0, 0] = 0.0
    decision = 1
    while not rules.is_over(twin):
        check_decision(engine, 0, rules, twin, decision)
        play_one(engine, rules, twin, rng)
        decision += 1
    engine._batch.rewards[0, 0] += 0.5  # a wrong final reward
    with pytest.raises(AssertionError, match=f"the end after decision {decision}, .*: rewards"):
        check_step(engine, 0, rules, twin, decision)


def test_a_wait_rejects_a_bad_chance():
    with pytest.raises(ValueError, match=r"wait=1.5: a chance in \[0, 1\)"):
        compare_games("construction", 1, 4, seed=0, wait=1.5)
