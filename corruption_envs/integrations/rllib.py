"""Ray RLlib (new API stack) glue: the games as turn-based `MultiAgentEnv`s and an action-masking PPO module.

    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env
    from corruption_envs.integrations.rllib import env_creator, rl_module_spec

    register_env("corruption", lambda cfg: env_creator("corruption", **cfg))
    config = (PPOConfig().environment("corruption", env_config={"players": [3, 5]})
              .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent, episode, **kw: "shared")
              .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": rl_module_spec()})))

Only the agent on turn gets an observation; when the game ends every seat gets its last observation, its
terminal reward and `terminated=True`. Observations are `{"observations", "action_mask"}` (float32), the
keys RLlib's action-masking module reads. Needs `pip install -e ".[rllib]"` (ray and torch).
"""
from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

import corruption_envs
from corruption_envs.core import GameEnv
from corruption_envs.registry import get_game

__all__ = ["ActionMaskingTorchRLModule", "TurnBasedEnv", "env_creator", "rl_module_spec"]


class TurnBasedEnv(MultiAgentEnv):
    """One game as an RLlib MultiAgentEnv; the player count is drawn per episode from `players`."""

    def __init__(self, game: str, players: Sequence[int] | None = None, **config: Any) -> None:
        super().__init__()
        rules = get_game(game).rules
        if "num_players" in config and players is not None:
            raise ValueError("give num_players=n or players=[min, max], not both")
        n = config.pop("num_players", rules.default_players)
        lo, hi = (n, n) if players is None else (int(players[0]), int(players[1]))
        if not rules.min_players <= lo <= hi <= rules.max_players:
            raise ValueError(f"players={[lo, hi]} is not allowed; {game} takes {rules.min_players} to "
                             f"{rules.max_players} players")
        self.game, self.players = game, (lo, hi)
        self._envs = {k: corruption_envs.env(game, num_players=k, **config) for k in range(lo, hi + 1)}
        sizes = {(e.observation_layout.size, e.num_actions) for e in self._envs.values()}
        if len(sizes) > 1:
            raise ValueError(f"{game}'s observation and action sizes depend on the player count "
                             f"({sorted(sizes)}); give one player count")
        self.env: GameEnv = self._envs[hi]
        obs_size, num_actions = sizes.pop()
        self.possible_agents = self.env.possible_agents[:]
        self.agents = self.possible_agents[:]
        space = gym.spaces.Dict({
            "observations": gym.spaces.Box(0.0, 1.0, (obs_size,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (num_actions,), np.float32),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, gym.spaces.Discrete(num_actions))
        self.rng = np.random.default_rng()

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        seen = self.env.observe(agent)
        return {"observations": seen["observation"], "action_mask": seen["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.env = self._envs[int(self.rng.integers(self.players[0], self.players[1] + 1))]
        self.env.reset(seed=int(self.rng.integers(2**63)))
        self.agents = self.env.agents[:]
        first = self.env.agent_selection
        return {first: self._obs(first)}, {first: {"num_players": len(self.agents)}}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        env = self.env
        env.step(int(action_dict[env.agent_selection]))
        if not env.terminations[env.agent_selection]:
            nxt = env.agent_selection
            # RLlib wants a reward with every observation of an agent that has acted: 0 until the end
            return {nxt: self._obs(nxt)}, {nxt: 0.0}, {"__all__": False}, {"__all__": False}, {}
        seats = env.possible_agents
        obs = {a: self._obs(a) for a in seats}
        rewards = {a: float(env.rewards[a]) for a in seats}
        done = {**dict.fromkeys(seats, True), "__all__": True}
        infos = {a: {**env.infos[a], "num_players": len(seats)} for a in seats}
        return obs, rewards, done, {**dict.fromkeys(seats, False), "__all__": False}, infos


def env_creator(game: str, **config: Any) -> TurnBasedEnv:
    """RLlib's env for `game`: `config` is the game's own options plus `num_players=n` or
    `players=[min, max]` (a count drawn per episode); pass it to `register_env`."""
    return TurnBasedEnv(game, **dict(config))


def rl_module_spec(hidden: Sequence[int] = (128, 128), activation: str = "tanh",
                   model_config: dict[str, Any] | None = None) -> RLModuleSpec:
    """An action-masking PPO RLModule (torch): separate actor and critic MLPs of `hidden` layers, illegal
    actions' logits pushed to the float minimum. `model_config` adds RLlib DefaultModelConfig keys."""
    config = {"fcnet_hiddens": list(hidden), "fcnet_activation": activation, "vf_share_layers": False,
              "head_fcnet_hiddens": [], **(model_config or {})}
    return RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=config)
