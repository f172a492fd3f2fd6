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

from .nonzeros import nonzero_entries
from .sparse_input import NonZeros


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The concatenation of range(s, s + n) for each (s, n): the entries of the chosen rows, in order."""
    ends = np.cumsum(lengths)
    return np.repeat(starts - (ends - lengths), lengths) + np.arange(ends[-1] if len(ends) else 0)


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
        self._steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (counts, columns, values) a step
        self.generator_ready = False

    def add(self, obs: np.ndarray, action: np.ndarray, reward: np.ndarray, episode_start: np.ndarray,
            value: th.Tensor, log_prob: th.Tensor, action_masks: np.ndarray | None = None) -> None:
        rows, columns, values = nonzero_entries(np.asarray(obs).reshape(self.n_envs, -1))
        self._steps.append((np.bincount(rows, minlength=self.n_envs), columns, values))
        if action_masks is not None:
            self.action_masks[self.pos] = action_masks.reshape((self.n_envs, self.mask_dims))
        self.actions[self.pos] = np.asarray(action).reshape((self.n_envs, self.action_dim))
        self.rewards[self.pos] = reward
        self.episode_starts[self.pos] = episode_start
        self.values[self.pos] = value.clone().cpu().numpy().flatten()
        self.log_probs[self.pos] = log_prob.clone().cpu().numpy().reshape(-1)
        self.pos += 1
        self.full = self.pos == self.buffer_size

    def _flatten_observations(self) -> None:
        """The steps' entries reordered as SB3's swap_and_flatten orders samples (env-major)."""
        counts = np.stack([c for c, _, _ in self._steps])  # (steps, envs)
        columns = np.concatenate([c for _, c, _ in self._steps])
        values = np.concatenate([v for _, _, v in self._steps])
        starts = (np.cumsum(counts.reshape(-1)) - counts.reshape(-1)).reshape(counts.shape)
        order = _ranges(starts.T.reshape(-1), counts.T.reshape(-1))
        self.obs_counts = counts.T.reshape(-1)
        self.obs_starts = np.cumsum(self.obs_counts) - self.obs_counts
        self.obs_columns, self.obs_values = columns[order], values[order]
        self._steps = []

    def get(self, batch_size: int | None = None) -> Generator[MaskableRolloutBufferSamples, None, None]:
        if not self.generator_ready:
            self._flatten_observations()
            for name in ("actions", "values", "log_probs", "advantages", "returns", "action_masks"):
                self.__dict__[name] = self.swap_and_flatten(self.__dict__[name])
            self.generator_ready = True
        # SB3's get, which draws the sample order; it finds the buffer ready and reorders nothing
        yield from super().get(batch_size)

    def _get_samples(self, batch_inds: np.ndarray, env: Any = None) -> MaskableRolloutBufferSamples:
        lengths = self.obs_counts[batch_inds]
        entries = _ranges(self.obs_starts[batch_inds], lengths)
        nonzeros = NonZeros.from_numpy(
            np.repeat(np.arange(len(batch_inds)), lengths), self.obs_columns[entries], self.obs_values[entries],
            (len(batch_inds), self.obs_shape[0]), self.device)
        data = (self.actions[batch_inds], self.values[batch_inds].flatten(), self.log_probs[batch_inds].flatten(),
                self.advantages[batch_inds].flatten(), self.returns[batch_inds].flatten(),
                self.action_masks[batch_inds].reshape(-1, self.mask_dims))
        return MaskableRolloutBufferSamples(nonzeros, *map(self.to_torch, data))
