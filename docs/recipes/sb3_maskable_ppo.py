"""Train sb3-contrib's MaskablePPO in one seat of Corruption against three heuristic bots.

    pip install -e . stable-baselines3 sb3-contrib && python docs/recipes/sb3_maskable_ppo.py --steps 2048

SB3 learns single-agent gymnasium envs: this 25-line view seats the learner at a random place, lets the
bots move until it is the learner's turn, and hands MaskablePPO the mask through `action_masks()`.
(`python -m training.selfplay` is the full version: self-play pool, evaluation, export.)
"""
import argparse

import gymnasium as gym
import numpy as np
from sb3_contrib import MaskablePPO

import corruption_envs
from corruption_envs.bots import make_agent


class OneSeat(gym.Env):
    def __init__(self, game="corruption", num_players=4, opponents="heuristic"):
        self.env = corruption_envs.env(game, num_players=num_players, reward="rank")
        self.bots = {a: make_agent(opponents, self.env, seed=i) for i, a in enumerate(self.env.possible_agents)}
        space = self.env.observation_space("player_0")
        self.observation_space, self.action_space = space["observation"], self.env.action_space("player_0")
        self.rng = np.random.default_rng(0)

    def _play_bots(self):
        while not self.env.terminations[self.me] and self.env.agent_selection != self.me:
            seen = self.env.observe(self.env.agent_selection)
            self.env.step(self.bots[self.env.agent_selection].act(seen["observation"], seen["action_mask"]))
        return self.env.observe(self.me)["observation"], self.env.terminations[self.me]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.env.reset(seed=int(self.rng.integers(2**31)))
        self.me = self.env.possible_agents[int(self.rng.integers(len(self.env.possible_agents)))]
        return self._play_bots()[0], {}

    def step(self, action):
        self.env.step(int(action))
        obs, over = self._play_bots()
        return obs, float(self.env.rewards[self.me]) if over else 0.0, over, False, {}

    def action_masks(self):
        return self.env.action_mask()


parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=2048)
args = parser.parse_args()
model = MaskablePPO("MlpPolicy", OneSeat(), n_steps=512, batch_size=128, seed=0, device="cpu")
model.learn(args.steps)
obs, _ = (env := OneSeat()).reset(seed=1)
action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
assert env.action_masks()[action], "the mask keeps MaskablePPO to legal moves"
print(f"trained {model.num_timesteps} steps; first move {env.env.unwrapped.action_name(int(action))!r}")
