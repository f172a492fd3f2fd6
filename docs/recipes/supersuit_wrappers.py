"""Which SuperSuit wrappers take a Dict(observation, action_mask) PettingZoo game: plays 200 moves under each.

    pip install supersuit && python docs/recipes/supersuit_wrappers.py

Wrappers that transform observations assume a Box (or Discrete) observation space, so they fail on every
PettingZoo game whose observations are a Dict with an action mask (ours, and PettingZoo's classic games).
"""
import warnings

import numpy as np
import supersuit as ss

import corruption_envs

WRAPPERS = {
    "clip_reward_v0": lambda e: ss.clip_reward_v0(e, lower_bound=-1, upper_bound=1),
    "reward_lambda_v0": lambda e: ss.reward_lambda_v0(e, lambda r: 2 * r),
    "pad_action_space_v0": ss.pad_action_space_v0,
    "sticky_actions_v0": lambda e: ss.sticky_actions_v0(e, 0.25),
    "delay_observations_v0": lambda e: ss.delay_observations_v0(e, 1),
    "dtype_v0": lambda e: ss.dtype_v0(e, np.float32),
    "normalize_obs_v0": ss.normalize_obs_v0,
    "flatten_v0": ss.flatten_v0,
    "frame_stack_v1": lambda e: ss.frame_stack_v1(e, 2),
    "max_observation_v0": lambda e: ss.max_observation_v0(e, 2),
    "observation_lambda_v0": lambda e: ss.observation_lambda_v0(e, lambda o, s: o),
    "pad_observations_v0": ss.pad_observations_v0,
    "agent_indicator_v0": ss.agent_indicator_v0,
}


def runs(wrap) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # IllegalActionWarning when a wrapper replays a stale move
            env = wrap(corruption_envs.env("corruption", num_players=4))
            env.reset(seed=0)
            for agent in env.agent_iter(200):
                obs, reward, termination, truncation, info = env.last()
                env.step(None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0]))
        return "runs"
    except (AssertionError, AttributeError, IndexError, ValueError) as e:
        return f"fails: {type(e).__name__}: {str(e).splitlines()[0][:70]}"


for name, wrap in WRAPPERS.items():
    print(f"{name}: {runs(wrap)}")
