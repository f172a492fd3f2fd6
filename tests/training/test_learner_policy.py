"""The learner's policy (training.network.learner_policy) is SB3's MlpPolicy computed faster: the same
parameters from the same seed, the same outputs and gradients (its exported file: test_policy_io.py)."""
import gymnasium as gym
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from training.network.learner_policy import LearnerPolicy
from training.network.sparse_input import SparseInputLinear

OBS, ACTIONS = 400, 60
ARCH = {"net_arch": {"pi": [32, 16], "vf": [32, 16]}, "activation_fn": torch.nn.Tanh}


def pair(seed=3):
    space, actions = gym.spaces.Box(0.0, 1.0, (OBS,), np.float32), gym.spaces.Discrete(ACTIONS)
    torch.manual_seed(seed)
    plain = MaskableActorCriticPolicy(space, actions, lambda _: 1e-3, **ARCH)
    torch.manual_seed(seed)
    fast = LearnerPolicy(space, actions, lambda _: 1e-3, **ARCH)
    return plain, fast


def batch(rows=50, seed=0):
    """Mostly-zero observations (one row all zero), masks with few legal actions, a legal action each."""
    gen = torch.Generator().manual_seed(seed)
    obs = (torch.rand(rows, OBS, generator=gen) < 0.04).float() * torch.rand(rows, OBS, generator=gen)
    obs[7] = 0.0
    masks = torch.rand(rows, ACTIONS, generator=gen) < 0.1
    masks[:, 5] = True
    actions = torch.tensor([int(np.random.default_rng(r).choice(np.flatnonzero(m))) for r, m in enumerate(masks.numpy())])
    return obs, masks.numpy(), actions


def test_it_starts_with_the_mlp_policys_parameters_and_first_layers_computed_sparsely():
    plain, fast = pair()
    assert list(plain.state_dict()) == list(fast.state_dict())
    assert all(torch.equal(a, b) for a, b in zip(plain.state_dict().values(), fast.state_dict().values()))
    assert isinstance(fast.mlp_extractor.policy_net[0], SparseInputLinear)
    assert isinstance(fast.mlp_extractor.value_net[0], SparseInputLinear)


def test_values_log_probs_entropies_and_gradients_match_the_mlp_policy():
    plain, fast = pair()
    obs, masks, actions = batch()
    outputs = []
    for policy in (plain, fast):
        values, log_prob, entropy = policy.evaluate_actions(obs, actions, action_masks=masks)
        (values.sum() + log_prob.sum() + entropy.sum()).backward()
        outputs.append((values, log_prob, entropy, [p.grad for p in policy.parameters()]))
    (*a, grads_a), (*b, grads_b) = outputs
    for x, y in zip(a, b):
        assert torch.allclose(x, y, atol=1e-5)
    for x, y in zip(grads_a, grads_b):
        y = y if y.shape == x.shape else y.t()  # the sparse first layers' parameter is W.T
        assert torch.allclose(x, y, atol=1e-4)


def test_illegal_actions_have_probability_zero_and_are_never_sampled():
    _, fast = pair()
    obs, masks, _ = batch(rows=200)
    dist = fast.get_distribution(obs, action_masks=masks)
    assert dist.distribution.probs[~torch.as_tensor(masks)].max() == 0.0
    assert torch.allclose(dist.distribution.probs.sum(-1), torch.ones(200))
    sampled = dist.sample().numpy()
    assert masks[np.arange(200), sampled].all()


def test_the_sparse_layer_equals_the_dense_one_on_an_all_zero_batch():
    layer = torch.nn.Linear(OBS, 8)
    sparse = SparseInputLinear.sharing(layer)
    zeros = torch.zeros(4, OBS)
    assert torch.equal(sparse(zeros), layer(zeros))
    assert torch.equal(sparse.weight, layer.weight) and sparse.bias is layer.bias


def test_the_sparse_layer_holds_its_weight_and_gradient_transposed_in_memory():
    """embedding_bag's table is W.T and the scatter writes W.T's gradient: held as a contiguous W.T
    parameter, neither the forward pass nor the optimizer copies a transposed W, and Adam's fused step
    takes its fast path."""
    sparse = SparseInputLinear.sharing(torch.nn.Linear(OBS, 8))
    obs, _, _ = batch()
    sparse(obs).sum().backward()
    assert [name for name, _ in sparse.named_parameters()] == ["weight_t", "bias"]
    assert sparse.weight_t.is_contiguous() and sparse.weight_t.grad.is_contiguous()
    assert torch.allclose(sparse.weight_t.grad, obs.t() @ torch.ones(obs.shape[0], 8), atol=1e-5)


def test_the_sparse_layer_reads_and_writes_its_weight_as_nn_linear_does():
    """State dicts (checkpoints, warm starts) name W `weight`, outputs x inputs, as nn.Linear's."""
    layer = torch.nn.Linear(OBS, 8)
    sparse = SparseInputLinear.sharing(layer)
    state = sparse.state_dict()
    assert list(state) == ["weight", "bias"] and torch.equal(state["weight"], layer.weight)
    other = SparseInputLinear.sharing(torch.nn.Linear(OBS, 8))
    other.load_state_dict(state)
    assert torch.equal(other.weight, layer.weight) and torch.equal(other.weight_t, layer.weight.t())


def test_the_legal_categorical_matches_sb3s_masked_categorical_with_ties_going_to_the_lowest_action():
    from sb3_contrib.common.maskable.distributions import MaskableCategorical

    from training.network.legal_categorical import LegalCategorical

    gen = torch.Generator().manual_seed(1)
    logits = torch.randint(0, 3, (40, ACTIONS), generator=gen).float()  # many ties
    masks = torch.rand(40, ACTIONS, generator=gen) < torch.linspace(0.02, 0.9, 40)[:, None]  # rows of every width
    masks[:, 11] = True
    ours, theirs = LegalCategorical(logits, masks), MaskableCategorical(logits=logits, masks=masks)
    assert torch.allclose(ours.probs, theirs.probs, atol=1e-6) and ours.probs[~masks].max() == 0.0
    assert torch.allclose(ours.entropy(), theirs.entropy(), atol=1e-5)
    legal = torch.tensor([int(np.flatnonzero(m)[-1]) for m in masks.numpy()])
    assert torch.allclose(ours.log_prob(legal), theirs.log_prob(legal), atol=1e-5)
    assert torch.equal(ours.mode(), torch.where(masks, logits, -1e8).argmax(dim=1))
    assert masks[torch.arange(40), ours.sample()].all()
