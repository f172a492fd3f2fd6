"""What every batched engine keeps: seeding, auto-reset, masks, the arrays' shapes, and bad input.

The rules themselves are held to the AEC engine by each game's differential test (tests/vector/).
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from corruption_envs import vector  # noqa: E402
from corruption_envs.core.errors import IllegalActionError, NotResetError  # noqa: E402

B = 16


def built_games():
    """The games whose engine module exists (each game's engine lands with its differential test)."""
    games = []
    for game in vector.list_games():
        try:
            vector.engine_class(game)
        except ModuleNotFoundError:
            continue
        games.append(game)
    return games


GAMES = built_games()
pytestmark = pytest.mark.skipif(not GAMES, reason="no batched engine is built yet")


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly drawn legal action per row."""
    u = rng.random(mask.shape) * mask
    return u.argmax(axis=1)


def play(engine, steps: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    batch = engine.reset(seed=seed)
    trace = [batch.observation.copy()]
    for _ in range(steps):
        batch = engine.step(random_actions(batch.action_mask, rng))
        trace += [batch.observation.copy(), batch.rewards.copy(), batch.terminated.copy()]
    return trace


@pytest.fixture(params=GAMES)
def game(request):
    return request.param


def test_arrays_have_the_documented_shapes_and_types(game):
    engine = vector.make(game, num_envs=B, seed=0)
    b = engine.reset()
    assert b.observation.shape == (B, engine.observation_size) and b.observation.dtype == np.float32
    assert b.action_mask.shape == (B, engine.num_actions) and b.action_mask.dtype == np.int8
    assert b.current_player.shape == (B,) and b.rewards.shape == (B, engine.max_players)
    assert (b.action_mask.sum(axis=1) > 0).all(), "every game has a legal action"
    assert not b.terminated.any()


def test_the_same_seed_gives_the_same_games(game):
    a = play(vector.make(game, num_envs=B, seed=0), 300, seed=3)
    b = play(vector.make(game, num_envs=B, seed=99), 300, seed=3)  # reset(seed) reseeds
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_games_end_with_outcomes_and_start_again(game):
    engine = vector.make(game, num_envs=B, num_players=[3, 4], seed=1)
    rng = np.random.default_rng(1)
    batch = engine.reset()
    ended = 0
    for _ in range(3000):
        batch = engine.step(random_actions(batch.action_mask, rng))
        for i in np.flatnonzero(batch.terminated):
            n = batch.num_players[i]
            ended += 1
            assert np.isin(batch.ranks[i, :n], np.arange(1, n + 1, 0.5)).all()
            assert (batch.rewards[i, n:] == 0).all()
        assert (batch.action_mask.sum(axis=1) > 0).all(), "a fresh game after every end"
        assert (batch.current_player < batch.num_players).all()
        assert (~batch.terminated | (batch.rewards != 0).any(axis=1) | (engine.reward_code == 0)).all()
        if ended >= 2 * B:
            break
    assert ended >= 2 * B, "random games end"
    assert set(np.unique(batch.num_players)) <= {3, 4}


def test_bad_actions_raise_and_change_nothing(game):
    engine = vector.make(game, num_envs=B, seed=2)
    batch = engine.reset()
    before = (batch.observation.copy(), batch.action_mask.copy(), batch.current_player.copy())
    illegal = batch.action_mask.argmin(axis=1)  # a 0 in every row that has one
    rows = np.flatnonzero(batch.action_mask[np.arange(B), illegal] == 0)
    assert rows.size, "some game has an illegal action"
    legal = batch.action_mask.argmax(axis=1)
    mixed = legal.copy()
    mixed[rows[0]] = illegal[rows[0]]
    cases = {
        "shape": (legal[:-1], r"shape \(16,\)"),
        "dtype": (legal.astype(np.float32), "integers"),
        "range": (np.full(B, engine.num_actions), "out of range"),
        "illegal": (mixed, rf"illegal actions in games \[{rows[0]}\]"),
    }
    for name, (actions, message) in cases.items():
        with pytest.raises(IllegalActionError, match=message):
            engine.step(actions)
        assert np.array_equal(batch.observation, before[0]), name
        assert np.array_equal(batch.action_mask, before[1]), name
        assert np.array_equal(batch.current_player, before[2]), name


def test_step_before_reset_and_bad_config_say_what_to_do(game):
    with pytest.raises(NotResetError, match="reset"):
        vector.make(game, num_envs=2).step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="num_players"):
        vector.make(game, num_envs=2, num_players=99)
    with pytest.raises(ValueError, match="num_envs"):
        vector.make(game, num_envs=0)
    with pytest.raises(ValueError, match="no batched engine"):
        vector.make("chess", num_envs=2)
