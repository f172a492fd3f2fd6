"""The learner's seat in many games at once, for RLlib's env runners: a gymnasium `VectorEnv` over the
batched engine (`--backend rllib` with `run.vec_env: batched`).

Each env runner holds one `BatchedSelfPlayVecEnv` (training/opponents/batched_env.py), the SB3 path's rollout: the
engine steps `run.n_envs` games together and the opponents (snapshots by PFSP, bots by the pool's mix)
decide in batches inside it, so RLlib sees only the learner's decisions, as a single agent. What differs
is the reset convention: SB3's vec env starts the next game in the step that ends one, while RLlib's
runners use gymnasium's next-step autoreset (the step after a game's end returns the new game's first
observation and ignores its action). The game that replaced the finished one already waits for its
learner; on that next step its row waits (`vector.WAIT`) while the others play.
"""
from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector.utils import batch_space

from corruption_envs import vector
from corruption_envs.policy import NumpyPolicy

from .. import config as cfg
from ..opponents.batched_env import BatchedSelfPlayVecEnv
from ..opponents.pool import OpponentPool

PRIOR = "prior"  # the observation key of the prior bot's move (training/rllib/prior.py adds it to the logits)


class EngineVectorEnv(gym.vector.VectorEnv):
    """`num_envs` learner games of the config's game on one batched engine, opponents from this env's own
    pool (the driver adds snapshots with `add_snapshot`; PFSP scores are this runner's games)."""

    metadata = {"autoreset_mode": gym.vector.AutoresetMode.NEXT_STEP}

    def __init__(self, config: cfg.Config, num_envs: int, seed: int) -> None:
        pool_cfg = config.pool
        self.pool = OpponentPool(pool_cfg.mix, pool_cfg.max_snapshots, pool_cfg.pfsp_power)
        self.games = BatchedSelfPlayVecEnv(config.game_def, config.env, tuple(config.run.players),
                                           self.pool, num_envs, seed=seed, prior=cfg.bot_option(config, "prior"))
        self.num_envs = num_envs
        size, actions = self.games.obs_size, int(self.games.action_space.n)
        spaces = {"observations": gym.spaces.Box(0.0, 1.0, (size,), np.float32),
                  "action_mask": gym.spaces.Box(0.0, 1.0, (actions,), np.float32)}
        self.prior = self.games.prior is not None
        if self.prior:  # the prior bot's move, a one-hot the module adds to its logits (training/rllib/prior.py)
            spaces[PRIOR] = gym.spaces.Box(0.0, 1.0, (actions,), np.float32)
        self.single_observation_space = gym.spaces.Dict(spaces)
        self.single_action_space = gym.spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._waiting = np.zeros(num_envs, bool)  # games that ended on the last step: they wait this one
        self._actions = np.zeros(num_envs, np.int64)

    def add_snapshot(self, policy: NumpyPolicy, step: int) -> None:
        """A frozen copy of the learner joins this env's pool (the oldest leaves beyond pool.max_snapshots)."""
        self.pool.add(policy, step)

    def _observe(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        # copies: RLlib keeps each step's rows in its episodes, and the vec env rewrites its arrays
        size = self.games.obs_size
        out = {"observations": observation[:, :size].copy(),
               "action_mask": self.games.batch.action_mask.astype(np.float32)}
        if self.prior:
            out[PRIOR] = observation[:, size:].copy()
        return out

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:  # RLlib seeds each runner apart (config seed + its index)
            self.games.seed(seed)
            self.games.engine.reset(seed=seed)
        self._waiting[:] = False
        return self._observe(self.games.reset()), {}

    def step(self, actions: np.ndarray) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        self._actions[:] = np.asarray(actions).reshape(-1)
        self._actions[self._waiting] = vector.WAIT
        self.games.step_async(self._actions)
        observation, rewards, dones, infos = self.games.step_wait()
        for info in infos:  # the learner's points against each snapshot it met: this pool's PFSP scores
            for ident, points in info.get("pool_points", ()):
                self.pool.record(ident, points)
        self._waiting = dones.copy()
        return self._observe(observation), rewards, dones, np.zeros(self.num_envs, bool), {}


def make_engine_env(config: cfg.Config, context: dict[str, Any]) -> EngineVectorEnv:
    """RLlib's env creator (its vector entry point passes `num_envs`); the runner's first reset seeds it."""
    return EngineVectorEnv(config, int(context.get("num_envs", config.run.n_envs)),
                           seed=config.run.seed * 7919)
