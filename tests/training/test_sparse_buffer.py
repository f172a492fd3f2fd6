"""The sparse rollout buffer hands PPO the same minibatches as sb3-contrib's dense one, in the same order."""
import gymnasium as gym
import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

from training.network.sparse_buffer import SparseRolloutBuffer
from training.network.sparse_input import NonZeros

STEPS, ENVS, OBS, ACTIONS = 6, 5, 40, 7


def filled(kind, seed=0):
    """A buffer of `kind` holding a seeded rollout of mostly-zero observations (one of them all zero)."""
    rng = np.random.default_rng(seed)
    space, actions = gym.spaces.Box(0.0, 1.0, (OBS,), np.float32), gym.spaces.Discrete(ACTIONS)
    buffer = kind(STEPS, space, actions, device="cpu", gamma=0.9, gae_lambda=0.8, n_envs=ENVS)
    for step in range(STEPS):
        obs = ((rng.random((ENVS, OBS)) < 0.1) * rng.random((ENVS, OBS))).astype(np.float32)
        obs[step % ENVS] = 0.0
        masks = rng.random((ENVS, ACTIONS)) < 0.5
        buffer.add(obs, rng.integers(ACTIONS, size=(ENVS, 1)), rng.random(ENVS).astype(np.float32),
                   rng.random(ENVS) < 0.2, torch.from_numpy(rng.random(ENVS).astype(np.float32)),
                   torch.from_numpy(rng.random(ENVS).astype(np.float32)), action_masks=masks)
    buffer.compute_returns_and_advantage(torch.zeros(ENVS), np.zeros(ENVS, bool))
    return buffer


def minibatches(buffer, batch_size, seed):
    np.random.seed(seed)  # SB3 draws the sample order from numpy's global generator
    return [list(b) for epoch in range(2) for b in buffer.get(batch_size)]


def test_each_minibatch_is_the_dense_buffers_with_its_observations_as_their_non_zeros():
    dense, sparse = minibatches(filled(MaskableRolloutBuffer), 7, 1), minibatches(filled(SparseRolloutBuffer), 7, 1)
    assert len(dense) == len(sparse) == 2 * -(-STEPS * ENVS // 7)
    for d, s in zip(dense, sparse):
        expected, got = NonZeros.of(d[0]), s[0]
        assert got.shape == expected.shape
        for field in ("rows", "columns", "values", "offsets"):
            assert torch.equal(getattr(got, field), getattr(expected, field)), field
        for a, b in zip(d[1:-1], s[1:-1]):
            assert torch.equal(a, b)
        assert torch.equal(d[-1].bool(), s[-1]) and s[-1].dtype == torch.bool


def test_a_minibatch_splits_into_the_game_observation_and_the_tail():
    dense = filled(MaskableRolloutBuffer).observations.reshape(-1, OBS)
    split = NonZeros.of(torch.from_numpy(dense)).split(OBS - 9)
    for got, part in zip(split, (dense[:, : OBS - 9], dense[:, OBS - 9:])):
        expected = NonZeros.of(torch.from_numpy(np.ascontiguousarray(part)))
        assert got.shape == expected.shape
        for field in ("rows", "columns", "values", "offsets"):
            assert torch.equal(getattr(got, field), getattr(expected, field)), field
