"""The check that a rule bot decides alike from states its seat cannot tell apart, and a bot built to fail it."""
import zlib

import numpy as np

from tests.test_contract import leak_points


def disagreements(game: str, bot_class, games: int, every: int) -> tuple[int, int, int]:
    """(decisions, states changed by the resample, decisions that changed with it) of `bot_class` at
    seeded positions of `game` and their resamples, which redraw everything the acting seat cannot see."""
    decisions = changed = differ = 0
    for k, env in enumerate(leak_points(game, games=games, every=every)):
        if np.count_nonzero(env.action_mask()) < 2:
            continue
        agent = env.agent_selection
        twin = env.resample_hidden(agent, seed=k)
        changed += not np.array_equal(twin.state(), env.state())
        seen, twin_seen = env.observe(agent), twin.observe(agent)
        differ += (bot_class(env, seed=k).act(seen["observation"], seen["action_mask"])
                   != bot_class(twin, seed=k).act(twin_seen["observation"], twin_seen["action_mask"]))
        decisions += 1
    return decisions, changed, differ


def peeking(bot_class):
    """A bad bot for the check: `bot_class` picking by the true state, hidden parts included."""

    class Peeking(bot_class):
        def __init__(self, env, seed=None):
            super().__init__(env, seed)
            self.env = env

        def act(self, observation, action_mask):
            legal = np.flatnonzero(action_mask)
            return int(legal[zlib.crc32(np.asarray(self.env.state()).tobytes()) % len(legal)])

    return Peeking
