"""Random playouts in one compiled call (`CompiledEngine.play_random`, the search's random rollouts on
the engine): each row played to its end, move by move as stepping the engine would, uniformly."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from corruption_envs.core.rewards import rank_points

pytest.importorskip("numba")

from corruption_envs.vector import WAIT, make  # noqa: E402
from corruption_envs.corruptia import engine as corruptia  # noqa: E402
from corruption_envs.vector import numpy_rng  # noqa: E402
from corruption_envs.vector.compiled import pick_legal  # noqa: E402

GAMES = ("corruption", "corruptia", "construction")
WIDTH = 12


def engine(game: str, n: int, seed: int):
    e = make(game, WIDTH, num_players=n, seed=seed, engine="compiled")
    e.reset()
    return e


def legal_in_draw_order(e, row: int) -> np.ndarray:
    """The legal actions of `row` in the order the kernel numbers them: Corruptia's allowed list,
    else the mask row's."""
    if e.rules_class.name == "corruptia":
        ints, allowed = e._state[0], e._state[11]
        return allowed[row, :ints[row, corruptia.I_ALLOWED]].astype(np.int64)
    return np.flatnonzero(e.batch.action_mask[row])


def play_by_steps(e, playing: np.ndarray, seed: int) -> dict[int, tuple]:
    """What play_random should do, by step(): each playing row in order moved to its end, its move the
    k-th legal one for k = default_rng(seed).integers(count); per row, its outcome."""
    rng = np.random.default_rng(seed)
    out = {}
    for row in np.flatnonzero(playing).tolist():
        while True:
            legal = legal_in_draw_order(e, row)
            actions = np.full(WIDTH, WAIT, np.int64)
            actions[row] = legal[rng.integers(len(legal)) if len(legal) > 1 else 0]
            b = e.step(actions)
            if b.terminated[row]:
                out[row] = (b.ranks[row].copy(), b.scores[row].copy(), b.rewards[row].copy())
                break
    return out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [3, 4])
def test_a_compiled_playout_plays_the_games_stepping_would(game, n):
    fast, slow = engine(game, n, seed=n), engine(game, n, seed=n)
    playing = np.arange(WIDTH) % 3 != 1
    for seed in (7, 8):  # twice: the second from the rows the first dealt
        fast.play_random(playing, seed)
        expected = play_by_steps(slow, playing, seed)
        b = fast.batch
        np.testing.assert_array_equal(b.terminated, playing)
        np.testing.assert_array_equal(b.ended_players, np.where(playing, n, 0))
        for row, (ranks, scores, rewards) in expected.items():
            np.testing.assert_array_equal(b.ranks[row], ranks)
            np.testing.assert_array_equal(b.scores[row], scores)
            np.testing.assert_array_equal(b.rewards[row], rewards)
        assert not b.rewards[~playing].any()
        # the same successor games dealt, and every row's decision as stepping leaves it: the
        # observations skipped on the way left nothing stale behind
        np.testing.assert_array_equal(fast.game_seeds, slow.game_seeds)
        for name in ("observation", "action_mask", "current_player", "num_players"):
            np.testing.assert_array_equal(getattr(b, name), getattr(slow.batch, name), err_msg=name)


@pytest.mark.parametrize("game", GAMES)
def test_every_row_played_ends_with_valid_rank_points(game):
    e = engine(game, 4, seed=3)
    playing = np.ones(WIDTH, bool)
    for seed in range(5):
        e.play_random(playing, seed)
        b = e.batch
        assert b.terminated.all()
        for row in range(WIDTH):
            ranks = b.ranks[row, :4]
            assert ((ranks >= 1) & (ranks <= 4)).all()
            points = [rank_points(r, 4) for r in ranks]
            assert sum(points) == pytest.approx(sum(rank_points(r, 4) for r in range(1, 5)))


def test_rows_not_playing_are_left_as_they_were():
    e = engine("corruptia", 4, seed=1)
    playing = np.zeros(WIDTH, bool)
    playing[:4] = True
    before = [a.copy() for a in (e.batch.observation, e.batch.action_mask, e.batch.current_player)]
    e.play_random(playing, 0)
    after = (e.batch.observation, e.batch.action_mask, e.batch.current_player)
    for old, new in zip(before, after):
        np.testing.assert_array_equal(old[4:], new[4:])


def first_move_counts(e, row: int, draws: int) -> np.ndarray:
    """How often the kernel's random move at `row`'s decision picks each legal action."""
    g = np.zeros(numpy_rng.GENERATOR_SIZE, np.uint64)
    numpy_rng.seed_generator(g, 11)
    counts = np.zeros(e.num_actions, np.int64)
    for _ in range(draws):
        if e.rules_class.name == "corruptia":
            counts[corruptia.random_allowed(e._state, row, g)] += 1
        else:
            counts[pick_legal(g, e.batch.action_mask[row])] += 1
    return counts


@pytest.mark.parametrize("game", GAMES)
def test_random_moves_are_uniform_over_the_legal_ones(game):
    e = engine(game, 4, seed=5)
    rng = np.random.default_rng(0)
    while np.count_nonzero(e.batch.action_mask[0]) < 3:  # a decision with a few moves to pick from
        mask = e.batch.action_mask[0]
        e.step(np.array([rng.choice(np.flatnonzero(mask))] + [WAIT] * (WIDTH - 1), np.int64))
    legal = np.flatnonzero(e.batch.action_mask[0])
    counts = first_move_counts(e, 0, 4000)
    assert counts.sum() == counts[legal].sum()  # never an illegal move
    assert (counts[legal] > 0).all()
    assert chisquare(counts[legal]).pvalue > 1e-3
