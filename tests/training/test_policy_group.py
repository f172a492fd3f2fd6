"""Snapshot policies deciding a batch together choose exactly what each decides for its own rows."""
import numpy as np
import pytest

import corruption_envs
from corruption_envs import vector
from corruption_envs.policy import NumpyPolicy
from training.policy_group import PolicyGroup, kind_of


def policies(env, count, activation, sample, seed=0):
    """`count` random MLPs for `env` of one shape, each with its own generator and temperature."""
    rng = np.random.default_rng(seed)
    sizes = [env.unwrapped.observation_layout.size, 24, 16, env.unwrapped.num_actions]
    made = []
    for i in range(count):
        layers = [(rng.normal(0, 0.5, (a, b)), rng.normal(0, 0.1, b)) for a, b in zip(sizes[:-2], sizes[1:-1])]
        head = (rng.normal(0, 1.0, (sizes[-2], sizes[-1])), rng.normal(0, 0.1, sizes[-1]))
        made.append(NumpyPolicy(layers, head, activation, {"temperature": 0.5 + i / 4}, sample=sample, seed=i))
    return made


@pytest.mark.parametrize("activation", ["tanh", "relu"])
@pytest.mark.parametrize("sample", [True, False])
def test_a_group_decides_each_row_as_its_own_policy_with_the_same_draws(activation, sample):
    env = corruption_envs.env("corruption", num_players=5)
    group = PolicyGroup(policies(env, 4, activation, sample))
    alone = policies(env, 4, activation, sample)
    engine = vector.make("corruption", num_envs=96, num_players=[3, 5, 7], seed=1)
    batch, rng = engine.reset(), np.random.default_rng(2)
    for _ in range(30):
        which = rng.integers(4, size=96)
        which[:3] = 1  # rows of one policy side by side too
        chosen = group.act_batch(which, batch.observation, batch.action_mask)
        expected = np.empty(96, np.int64)
        for k, policy in enumerate(alone):
            rows = np.flatnonzero(which == k)
            expected[rows] = policy.act_batch(batch.observation[rows], batch.action_mask[rows])
        assert np.array_equal(chosen, expected)
        batch = engine.step(chosen)
    for a, b in zip(group.policies, alone):
        assert a.rng.bit_generator.state == b.rng.bit_generator.state


def test_a_group_takes_plain_policies_of_one_kind_only():
    env = corruption_envs.env("corruption", num_players=4)
    tanh, relu = policies(env, 1, "tanh", True), policies(env, 1, "relu", True)
    assert kind_of(tanh[0]) != kind_of(relu[0]) and kind_of("heuristic") is None
    with pytest.raises(ValueError, match="one shape, activation and play"):
        PolicyGroup(tanh + relu)
