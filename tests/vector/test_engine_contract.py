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


import corruption_envs  # noqa: E402

# every compiled engine, and the reference engine (the AEC rules game by game) of every game
KINDS = [(g, "compiled") for g in vector.list_games()] + [(g, "reference") for g in corruption_envs.list_games()]


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


@pytest.fixture(params=KINDS, ids=lambda kind: "-".join(kind))
def made(request):
    """make(game, ...) for this game and engine kind."""
    game, engine = request.param
    return lambda **kw: vector.make(game, engine=engine, **kw)


def test_arrays_have_the_documented_shapes_and_types(made):
    engine = made(num_envs=B, seed=0)
    b = engine.reset()
    assert b.observation.shape == (B, engine.observation_size) and b.observation.dtype == np.float32
    assert b.action_mask.shape == (B, engine.num_actions) and b.action_mask.dtype == np.int8
    assert b.current_player.shape == (B,) and b.rewards.shape == (B, engine.max_players)
    assert (b.action_mask.sum(axis=1) > 0).all(), "every game has a legal action"
    assert not b.terminated.any()
    with pytest.raises(ValueError, match="read-only"):
        b.observation[0, 0] = 1.0  # the engine's own arrays: a client's write cannot corrupt a game


def test_the_same_seed_gives_the_same_games(made):
    a = play(made(num_envs=B, seed=0), 300, seed=3)
    b = play(made(num_envs=B, seed=99), 300, seed=3)  # reset(seed) reseeds
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_games_end_with_outcomes_and_start_again(made):
    engine = made(num_envs=B, num_players=[3, 4], seed=1)
    rng = np.random.default_rng(1)
    batch = engine.reset()
    ended = 0
    for _ in range(3000):
        batch = engine.step(random_actions(batch.action_mask, rng))
        for i in np.flatnonzero(batch.terminated):
            n = batch.ended_players[i]
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


def test_bad_actions_raise_and_change_nothing(made):
    engine = made(num_envs=B, seed=2)
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
        "below WAIT": (np.full(B, -2), "out of range"),
        "illegal": (mixed, rf"illegal actions in games \[{rows[0]}\]"),
    }
    for name, (actions, message) in cases.items():
        with pytest.raises(IllegalActionError, match=message):
            engine.step(actions)
        assert np.array_equal(batch.observation, before[0]), name
        assert np.array_equal(batch.action_mask, before[1]), name
        assert np.array_equal(batch.current_player, before[2]), name


def test_queued_deals_are_the_aec_envs_deals_in_order(made):
    engine = made(num_envs=4, num_players=[3, 5], seed=0)
    engine.queue_deals([11, 12, 13, 14, 15, 16], [3, 5, 3, 5, 3, 5])
    batch = engine.reset()
    assert engine.deal_index.tolist() == [0, 1, 2, 3] and engine.deals_waiting == 2
    game = engine.rules_class.name
    for row, (seed, n) in enumerate(zip([11, 12, 13, 14], [3, 5, 3, 5])):
        env = corruption_envs.env(game, num_players=n)
        env.reset(seed=seed)
        seen = env.observe(env.agent_selection)
        assert batch.num_players[row] == n
        assert np.array_equal(batch.observation[row], seen["observation"])
        assert np.array_equal(batch.action_mask[row], seen["action_mask"])
    with pytest.raises(ValueError, match="this engine plays"):
        engine.queue_deals([1], 4)


def test_a_waiting_game_stays_as_it_is(made):
    engine = made(num_envs=B, seed=4)
    rng = np.random.default_rng(4)
    batch = engine.reset()
    for _ in range(200):
        waiting = rng.random(B) < 0.5
        before = batch.observation[waiting].copy(), batch.current_player[waiting].copy()
        actions = np.where(waiting, vector.WAIT, random_actions(batch.action_mask, rng))
        batch = engine.step(actions)
        assert not batch.terminated[waiting].any() and not batch.rewards[waiting].any()
        assert np.array_equal(batch.observation[waiting], before[0])
        assert np.array_equal(batch.current_player[waiting], before[1])


def test_step_before_reset_and_bad_config_say_what_to_do(made):
    with pytest.raises(NotResetError, match="reset"):
        made(num_envs=2).step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="num_players"):
        made(num_envs=2, num_players=99)
    with pytest.raises(ValueError, match="num_envs"):
        made(num_envs=0)
    with pytest.raises(ValueError, match="illegal_action"):
        made(num_envs=2, illegal_action="penalize")


def test_make_names_what_it_cannot_build():
    with pytest.raises(ValueError, match="unknown game"):
        vector.make("chess", num_envs=2)
    with pytest.raises(ValueError, match="engine="):
        vector.make("corruption", num_envs=2, engine="jax")


def test_game_seeds_are_the_numbers_integers_draws():
    from corruption_envs.vector.engine import draw_game_seeds

    for seed in range(20):
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        for size in (1, 3, 64, 0, 5):
            assert np.array_equal(draw_game_seeds(ours, size), numpys.integers(2**63, size=size))
        ours.integers(3, size=7), numpys.integers(3, size=7)  # the player-count draws between them
        assert np.array_equal(draw_game_seeds(ours, 4), numpys.integers(2**63, size=4))
