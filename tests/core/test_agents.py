"""The Agent base class: a bot defines act or act_batch, and every other part has a default that suits a
bot keeping nothing between games but its generator, so callers call each part on any bot."""
import numpy as np
import pytest

from corruption_envs.core.agents import Agent

MASKS = np.array([[0, 1, 1], [1, 0, 0], [0, 0, 1]], np.int8)
OBS = np.zeros((3, 4), np.float32)


class ActOnly(Agent):
    """The least a bot defines: `act`."""

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[-1])


class BatchOnly(Agent):
    """A bot that decides batches only: its `act` is the one row of its `act_batch`."""

    def act_batch(self, observations, action_masks):
        return np.argmax(action_masks != 0, axis=1).astype(np.int64)


def test_a_bot_with_only_act_has_every_part():
    bot = ActOnly()
    actions = bot.act_batch(OBS, MASKS)
    assert actions.dtype == np.int64 and actions.tolist() == [2, 0, 2]  # act row by row
    assert bot.bind("env", 3) is None
    bot.start_game()
    assert bot.member_policies() == [bot] and bot.draw_member() == 0
    assert not bot.any_player_count and bot.plays_on_batches


def test_a_bot_with_only_act_batch_acts_on_one_row():
    bot = BatchOnly()
    assert [bot.act(o, m) for o, m in zip(OBS, MASKS)] == [1, 0, 2]


def test_a_bot_without_act_or_act_batch_is_refused_where_it_is_defined():
    with pytest.raises(TypeError, match="bot Mute must define act.*or act_batch"):
        class Mute(Agent):
            pass


def test_seed_makes_a_fresh_generator_and_use_rng_shares_one():
    bot = ActOnly()
    bot.seed(7)
    assert bot.rng.integers(1 << 30, size=4).tolist() == np.random.default_rng(7).integers(1 << 30, size=4).tolist()
    rng = np.random.default_rng(4)
    bot.use_rng(rng)
    assert bot.rng is rng
