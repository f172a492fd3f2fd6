"""A plain PettingZoo loop: the AEC env, then the same game as a ParallelEnv, random legal moves.

    pip install -e . && python docs/recipes/pettingzoo_loop.py
"""
import numpy as np

import corruption_envs

rng = np.random.default_rng(0)
env = corruption_envs.env("corruption", num_players=4)
env.reset(seed=1)
ranks = {}
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    if termination or truncation:
        ranks[agent] = info["rank"]  # the game is over: each agent is stepped out with None
        action = None
    else:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
    env.step(action)
print("AEC game over; ranks:", ranks)

par = corruption_envs.parallel_env("corruption", num_players=4)
observations, infos = par.reset(seed=1)
while par.agents:  # every agent sends an action; only the one on turn (nonzero mask) counts
    actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
               for a, o in observations.items()}
    observations, rewards, terminations, truncations, infos = par.step(actions)
print("parallel game over; ranks:", {a: info["rank"] for a, info in infos.items()})
