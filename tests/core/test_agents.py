"""The Agent protocol's helpers: each calls a bot's optional part when it has one and stands in for it
when it has not."""
import numpy as np

from corruption_envs.core.agents import (
    act_batch, bind_agent, is_mixture, seed_agent, start_game, starts_each_game, use_rng,
)

MASKS = np.array([[0, 1, 1], [1, 0, 0], [0, 0, 1]], np.int8)
OBS = np.zeros((3, 4), np.float32)


class ActOnly:
    """The least a bot must have: `act`."""

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[-1])


class RngOnly(ActOnly):
    def __init__(self):
        self.rng = np.random.default_rng(99)


class Full(ActOnly):
    """Every optional part, each recording its call."""

    def __init__(self):
        self.calls = []
        self.rng = np.random.default_rng(0)

    def act_batch(self, observations, action_masks):
        self.calls.append(("act_batch", len(action_masks)))
        return np.zeros(len(action_masks), np.int32)

    def bind(self, env, seed=None):
        self.calls.append(("bind", env, seed))

    def seed(self, seed):
        self.calls.append(("seed", seed))

    def reset(self):
        self.calls.append(("reset",))

    def start_game(self):
        self.calls.append(("start_game",))

    def member_policies(self):
        return [ActOnly()]

    def draw_member(self):
        return 0


def test_a_bot_with_only_act_plays_through_every_helper():
    bot = ActOnly()
    actions = act_batch(bot, OBS, MASKS)
    assert actions.dtype == np.int64 and actions.tolist() == [2, 0, 2]
    bind_agent(bot, "env", 3)
    seed_agent(bot, 3)
    start_game(bot)
    use_rng(bot, np.random.default_rng(1))
    assert not starts_each_game(bot) and not is_mixture(bot)
    assert vars(bot) == {}  # no helper gave it anything it lacked


def test_the_helpers_call_the_parts_a_bot_has():
    bot = Full()
    actions = act_batch(bot, OBS, MASKS)
    assert actions.dtype == np.int64 and actions.tolist() == [0, 0, 0]  # its act_batch, not act
    bind_agent(bot, "env", 3)
    seed_agent(bot, 5)
    start_game(bot)
    assert bot.calls == [("act_batch", 3), ("bind", "env", 3), ("reset",), ("seed", 5), ("start_game",)]
    assert starts_each_game(bot) and is_mixture(bot)


def test_seed_agent_reseeds_the_rng_of_a_bot_without_seed():
    bot = RngOnly()
    seed_agent(bot, 7)
    assert bot.rng.integers(1 << 30, size=4).tolist() == np.random.default_rng(7).integers(1 << 30, size=4).tolist()


def test_use_rng_shares_the_generator():
    bot, rng = RngOnly(), np.random.default_rng(4)
    use_rng(bot, rng)
    assert bot.rng is rng
