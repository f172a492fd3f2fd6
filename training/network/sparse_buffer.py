"""MaskablePPO's rollout buffer with each observation kept as its non-zero entries.

A Corruption observation has 3,391 floats of which about 120 are non-zero. SB3's buffer keeps them dense
(28 MB a 2,048-step rollout), copies 512 dense rows out for every minibatch of every epoch, and the
learner's sparse first layers then search those rows for their non-zeros again. This buffer finds each
step's non-zeros once, as it is added, and hands the policy a minibatch as `NonZeros` (the entries in
the order `NonZeros.of` would find them, so the update computes exactly what it did on dense rows). Masks
are kept as booleans, the type the policy's masking reads. Everything else is SB3's.
"""
from __future__ import annotations

from typing import Any, Generator

import numpy as np
import torch as th
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer, MaskableRolloutBufferSamples
from stable_baselines3.common.buffers import BaseBuffer

from .sparse_input import NonZeros
from .sparse_rows import SparseRows


class SparseRolloutBuffer(MaskableRolloutBuffer):
    """`MaskableRolloutBuffer` whose observations are stored and sampled as their non-zero entries."""

    def reset(self) -> None:
        BaseBuffer.reset(self)  # pos and full; SB3's own reset would allocate the dense observations
        shape = (self.buffer_size, self.n_envs)
        self.mask_dims = int(self.action_space.n)
        self.action_masks = np.ones((*shape, self.mask_dims), dtype=bool)
        self.actions = np.zeros((*shape, self.action_dim), dtype=self.action_space.dtype)
        for name in ("rewards", "returns", "episode_starts", "values", "log_probs", "advantages"):
            setattr(self, name, np.zeros(shape, dtype=np.float32))
        self._steps: list[SparseRows] = []  # each step's observations, one row per env
        self.generator_ready = False

    def add(self, obs: np.ndarray, action: np.ndarray, reward: np.ndarray, episode_start: np.ndarray,
            value: th.Tensor, log_prob: th.Tensor, action_masks: np.ndarray | None = None) -> None:
        self._steps.append(SparseRows.of(np.asarray(obs).reshape(self.n_envs, -1)))
        if action_masks is not None:
            self.action_masks[self.pos] = action_masks.reshape((self.n_envs, self.mask_dims))
        self.actions[self.pos] = np.asarray(action).reshape((self.n_envs, self.action_dim))
        self.rewards[self.pos] = reward
        self.episode_starts[self.pos] = episode_start
        self.values[self.pos] = value.clone().cpu().numpy().flatten()
        self.log_probs[self.pos] = log_prob.clone().cpu().numpy().reshape(-1)
        self.pos += 1
        self.full = self.pos == self.buffer_size

    def get(self, batch_size: int | None = None) -> Generator[MaskableRolloutBufferSamples, None, None]:
        if not self.generator_ready:
            self.observation_rows = SparseRows.merge(self._steps, self.obs_shape[0])  # step by step
            self._steps = []
            for name in ("actions", "values", "log_probs", "advantages", "returns", "action_masks"):
                self.__dict__[name] = self.swap_and_flatten(self.__dict__[name])
            self.generator_ready = True
        # SB3's get, which draws the sample order; it finds the buffer ready and reorders nothing
        yield from super().get(batch_size)

    def _get_samples(self, batch_inds: np.ndarray, env: Any = None) -> MaskableRolloutBufferSamples:
        # SB3's sample i is env i // steps at step i % steps (swap_and_flatten); the rows are step by step
        rows = batch_inds % self.buffer_size * self.n_envs + batch_inds // self.buffer_size
        nonzeros = NonZeros.from_numpy(*self.observation_rows.entries(rows), (len(batch_inds), self.obs_shape[0]),
                                       self.device)
        data = (self.actions[batch_inds], self.values[batch_inds].flatten(), self.log_probs[batch_inds].flatten(),
                self.advantages[batch_inds].flatten(), self.returns[batch_inds].flatten(),
                self.action_masks[batch_inds].reshape(-1, self.mask_dims))
        return MaskableRolloutBufferSamples(nonzeros, *map(self.to_torch, data))
