"""Snapshot policies deciding a batch together choose exactly what each decides for its own rows."""
import numpy as np
import pytest

import corruption_envs
from corruption_envs import vector
from corruption_envs.policy import NumpyPolicy
from training.opponents.policy_group import PolicyGroup, _first_layer, kind_of


def policies(env, count, activation, sample, seed=0, prior=None):
    """`count` random MLPs for `env` of one shape, each with its own generator and temperature (and,
    with a `prior`, its own bot of that name and weight); the last holds the first's weight arrays, as a
    snapshot's copies for each player count do."""
    rng = np.random.default_rng(seed)
    sizes = [env.unwrapped.observation_layout.size, 24, 16, env.unwrapped.num_actions]
    made = []
    for i in range(count):
        layers = [(rng.normal(0, 0.5, (a, b)), rng.normal(0, 0.1, b)) for a, b in zip(sizes[:-2], sizes[1:-1])]
        head = (rng.normal(0, 1.0, (sizes[-2], sizes[-1])), rng.normal(0, 0.1, sizes[-1]))
        if i == count - 1 > 0:
            layers, head = made[0].layers, made[0].head
        made.append(NumpyPolicy(layers, head, activation, {"temperature": 0.5 + i / 4}, sample=sample, seed=i,
                                prior=prior, prior_weight=1.0 + i / 3).bind(env, seed=10 + i))
    return made


@pytest.mark.parametrize("activation,prior", [("tanh", None), ("relu", None), ("tanh", "heuristic")])
@pytest.mark.parametrize("sample", [True, False])
def test_a_group_decides_each_row_as_its_own_policy_with_the_same_draws(activation, prior, sample):
    env = corruption_envs.env("corruption", num_players=5)
    group = PolicyGroup(policies(env, 4, activation, sample, prior=prior))
    assert group.net.tolist() == [0, 1, 2, 0]
    alone = policies(env, 4, activation, sample, prior=prior)
    engine = vector.make("corruption", num_envs=96, num_players=[3, 5, 7], seed=1)
    batch, rng = engine.reset(), np.random.default_rng(2)
    for step in range(30):
        which = rng.integers(4, size=96)
        which[:3] = 1  # rows of one policy side by side too
        if step % 2:  # every other step, rows picked out of the batch where they lie
            rows = np.sort(rng.choice(96, 80, replace=False))
            chosen = np.full(96, vector.WAIT)
            chosen[rows] = group.act_batch(which[rows], batch.observation, batch.action_mask, rows=rows)
        else:
            rows = np.arange(96)
            chosen = group.act_batch(which, batch.observation, batch.action_mask)
        expected = np.full(96, vector.WAIT)
        for k, policy in enumerate(alone):
            mine = rows[which[rows] == k]
            expected[mine] = policy.act_batch(batch.observation[mine], batch.action_mask[mine])
        assert np.array_equal(chosen, expected)
        batch = engine.step(chosen)
    for a, b in zip(group.policies, alone):
        assert a.rng.bit_generator.state == b.rng.bit_generator.state
        if prior:
            assert a.prior_bot.rng.bit_generator.state == b.prior_bot.rng.bit_generator.state


def test_the_first_layer_kernel_sums_each_rows_nonzero_inputs_in_column_order():
    """The compiled first layer equals its plain definition: b, then v * w[c] added in float32 for each
    non-zero input c of the row in column order (zeros, -0.0 and all-zero rows included)."""
    rng = np.random.default_rng(3)
    obs = np.where(rng.random((40, 300)) < 0.05, rng.normal(0, 2, (40, 300)), 0.0).astype(np.float32)
    obs[::7] = 0.0
    obs[1, :5] = -0.0
    obs[2, -3:] = [-1.5, 3.0, -0.25]
    w, b = rng.normal(0, 1, (300, 33)).astype(np.float32), rng.normal(0, 1, 33).astype(np.float32)
    rows = np.array([2, 0, 7, 1, 2, 39, 14, 5])  # any order, repeats too
    out = np.empty((rows.size, 33), np.float32)
    _first_layer(rows, obs, w, b, out)
    for i, r in enumerate(rows):
        expected = b.copy()
        for c in np.flatnonzero(obs[r]):
            expected += obs[r, c] * w[c]
        assert np.array_equal(out[i], expected)


def test_a_group_takes_policies_of_one_kind_only():
    env = corruption_envs.env("corruption", num_players=4)
    tanh, relu = policies(env, 1, "tanh", True), policies(env, 1, "relu", True)
    assert kind_of(tanh[0]) != kind_of(relu[0]) and kind_of("heuristic") is None
    bound = policies(env, 1, "tanh", True, prior="heuristic")[0]
    unbound = NumpyPolicy(bound.layers, bound.head, prior="heuristic", prior_weight=1.0)
    assert kind_of(bound) != kind_of(tanh[0]) and kind_of(unbound) is None
    with pytest.raises(ValueError, match="one shape, activation, play and prior"):
        PolicyGroup(tanh + relu)
