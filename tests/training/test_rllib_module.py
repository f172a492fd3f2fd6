"""The RLlib learner's module and PPO learner (training/rllib/module.py): the dense module's numbers from
the observation's non-zeros, RLlib's PPO loss, the SB3 path's Adam."""
import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("ray")

import torch  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.algorithms.ppo.torch.ppo_torch_learner import PPOTorchLearner  # noqa: E402
from ray.rllib.core import DEFAULT_MODULE_ID  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.evaluation.postprocessing import Postprocessing  # noqa: E402

import corruption_envs  # noqa: E402
from corruption_envs.integrations.rllib import rl_module_spec  # noqa: E402
from training import config as cfg  # noqa: E402
from training.rllib import backend as rllib_backend  # noqa: E402
from training.rllib.module import SparsePPOTorchLearner, sparse_module_spec  # noqa: E402
from training.network.sparse_input import SparseInputLinear  # noqa: E402

GAME = corruption_envs.env("corruption", num_players=4)
SIZE, ACTIONS = GAME.observation_layout.size, GAME.num_actions
BOX = lambda n: gym.spaces.Box(0.0, 1.0, (n,), np.float32)  # noqa: E731
SPACE = gym.spaces.Dict({"observations": BOX(SIZE), "action_mask": BOX(ACTIONS)})


def positions(n, seed=0):
    """Observations and masks of `n` positions of real games (mostly zeros, as the learner sees them)."""
    rng, obs, masks = np.random.default_rng(seed), [], []
    GAME.reset(seed=seed)
    while len(obs) < n:
        if GAME.terminations[GAME.agent_selection]:
            GAME.reset(seed=int(rng.integers(1 << 30)))
            continue
        seen = GAME.observe(GAME.agent_selection)
        obs.append(seen["observation"])
        masks.append(seen["action_mask"].astype(np.float32))
        GAME.step(int(rng.choice(np.flatnonzero(seen["action_mask"]))))
    return torch.as_tensor(np.array(obs)), torch.as_tensor(np.array(masks))


def build(make_spec, **kwargs):
    spec = make_spec((32, 16), "tanh", **kwargs)
    spec.observation_space, spec.action_space = SPACE, gym.spaces.Discrete(ACTIONS)
    return spec.build()


def test_the_sparse_module_computes_the_dense_modules_logits_values_and_gradients():
    torch.manual_seed(0)
    dense, sparse = build(rl_module_spec), build(sparse_module_spec)
    assert isinstance(sparse.encoder.actor_encoder.net.mlp[0], SparseInputLinear)
    assert isinstance(sparse.encoder.critic_encoder.net.mlp[0], SparseInputLinear)
    state = dense.state_dict()
    assert set(sparse.state_dict()) == set(state)  # checkpoints and synced weights name W `weight` as before
    sparse.load_state_dict(state)
    obs, masks = positions(64)
    batch = lambda: {Columns.OBS: {"observations": obs.clone(), "action_mask": masks.clone()}}  # noqa: E731
    for forward in ("forward_inference", "forward_exploration"):
        expected = getattr(dense, forward)(batch())[Columns.ACTION_DIST_INPUTS]
        got = getattr(sparse, forward)(batch())[Columns.ACTION_DIST_INPUTS]
        legal = masks > 0
        torch.testing.assert_close(got[legal], expected[legal], rtol=1e-5, atol=1e-5)
        assert torch.equal(got[~legal], expected[~legal])  # RLlib's mask: the float minimum added
    outs = []
    for module in (dense, sparse):
        module.zero_grad()
        split = batch()
        values = module.compute_values(split)  # as RLlib's advantages pass: it splits the batch's columns
        out = module.forward_train(split)
        logits = out[Columns.ACTION_DIST_INPUTS].masked_fill(masks == 0, 0.0)
        (logits.square().sum() + module.compute_values(split, out[Columns.EMBEDDINGS]).sum()).backward()
        first = module.encoder.actor_encoder.net.mlp[0]
        outs.append((values.detach(), logits.detach(), first.weight.grad if first.weight.grad is not None
                     else first.weight_t.grad.t(), module.encoder.critic_encoder.net.mlp[0].bias.grad))
    for expected, got in zip(*outs):
        torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-5)


def test_the_sparse_modules_export_plays_its_logits():
    module = build(sparse_module_spec)
    policy = rllib_backend.export_module(module, "tanh", {"game": "corruption"})
    obs, masks = positions(16, seed=3)
    expected = module.forward_inference({Columns.OBS: {"observations": obs, "action_mask": masks}})
    logits = expected[Columns.ACTION_DIST_INPUTS].detach().numpy()
    for row in range(len(obs)):
        legal = masks[row].numpy() > 0
        np.testing.assert_allclose(policy.logits(obs[row].numpy())[legal], logits[row][legal], rtol=1e-4, atol=1e-5)


def learner(**training):
    config = (PPOConfig().learners(learner_class=SparsePPOTorchLearner)
              .training(lr=1e-3, minibatch_size=64, use_kl_loss=False, grad_clip=None, **training)
              .rl_module(rl_module_spec=sparse_module_spec((32, 16), "tanh")))
    return config.build_learner(spaces={DEFAULT_MODULE_ID: (SPACE, gym.spaces.Discrete(ACTIONS))})


def train_batch(n=48, seed=0):
    obs, masks = positions(n, seed)
    rng = np.random.default_rng(seed)
    actions = torch.as_tensor([rng.choice(np.flatnonzero(m)) for m in masks.numpy()])
    return {Columns.OBS: obs, "action_mask": masks, Columns.ACTIONS: actions,
            Columns.ACTION_LOGP: torch.as_tensor(rng.normal(-2.0, 0.5, n), dtype=torch.float32),
            Columns.ACTION_DIST_INPUTS: torch.as_tensor(rng.normal(size=masks.shape), dtype=torch.float32),
            Postprocessing.ADVANTAGES: torch.as_tensor(rng.normal(size=n), dtype=torch.float32),
            Postprocessing.VALUE_TARGETS: torch.as_tensor(rng.normal(size=n), dtype=torch.float32),
            Columns.LOSS_MASK: torch.as_tensor(rng.random(n) < 0.8)}


def test_the_loss_is_rllibs_ppo_loss_without_the_kl_term():
    one = learner(entropy_coeff=0.01, vf_loss_coeff=0.5, clip_param=0.2)
    module = one.module[DEFAULT_MODULE_ID]
    batch = train_batch()
    fwd = module.forward_train(dict(batch))
    config = one.config.get_config_for_module(DEFAULT_MODULE_ID)
    ours = one.compute_loss_for_module(module_id=DEFAULT_MODULE_ID, config=config, batch=batch, fwd_out=fwd)
    ours_stats = {k: float(torch.as_tensor(v.peek()).detach()) for k, v in one.metrics.stats[DEFAULT_MODULE_ID].items()}
    rllib = PPOTorchLearner.compute_loss_for_module(one, module_id=DEFAULT_MODULE_ID, config=config, batch=batch,
                                                    fwd_out=fwd)
    rllib_stats = {k: float(torch.as_tensor(v.peek()).detach()) for k, v in one.metrics.stats[DEFAULT_MODULE_ID].items()}
    torch.testing.assert_close(ours, rllib, rtol=1e-5, atol=1e-6)
    assert ours_stats.keys() == rllib_stats.keys()
    for key in ours_stats:
        assert ours_stats[key] == pytest.approx(rllib_stats[key], rel=1e-4, abs=1e-6), key


def test_a_step_is_adam_with_sb3s_eps_and_nan_gradients_become_zero():
    one = learner()
    module = one.module[DEFAULT_MODULE_ID]
    params = list(module.parameters())
    before = [p.detach().clone() for p in params]
    grads = [1e-5 * torch.randn_like(p) for p in params]  # as small as eps: Adam's eps shows in the step
    reference = [p.detach().clone().requires_grad_() for p in params]
    adam = torch.optim.Adam(reference, lr=1e-3, eps=1e-5)
    for r, g in zip(reference, grads):
        r.grad = g.clone()
    adam.step()
    one.apply_gradients({one.get_param_ref(p): g.clone() for p, g in zip(params, grads)})
    for p, r in zip(params, reference):
        torch.testing.assert_close(p.detach(), r.detach(), rtol=1e-5, atol=1e-7)
    assert any(not torch.equal(p.detach(), b) for p, b in zip(params, before))

    grads[0][0] = float("nan")
    one.apply_gradients({one.get_param_ref(p): g.clone() for p, g in zip(params, grads)})
    assert all(torch.isfinite(p).all() for p in params)


def test_the_learning_rate_follows_the_sb3_paths_schedule_on_the_engine():
    config = cfg.load("corruption", sets=["ppo.prior=none", "run.vec_env=batched", "run.timesteps=1000",
                                          "ppo.learning_rate=0.001", "ppo.lr_final_fraction=0.25"])
    assert rllib_backend.learning_rate(config) == [[0, 0.001], [1000, 0.00025]]
    built = rllib_backend.algo_config(config)
    assert built.lr == [[0, 0.001], [1000, 0.00025]] and built.use_kl_loss is False
    assert built.learner_class is SparsePPOTorchLearner
    assert rllib_backend.learning_rate(config.updated({"ppo.lr_final_fraction": 1.0})) == 0.001
    assert rllib_backend.learning_rate(config.updated({"run.vec_env": "dummy"})) == 0.001


def test_the_train_batch_keeps_the_rows_the_loss_counts_and_their_observations_as_non_zeros():
    from training.rllib.module import NZ_COLUMNS, NZ_VALUES, CompactTrainBatch

    module = build(sparse_module_spec)
    batch = train_batch(40, seed=2)
    mask = batch.pop(Columns.LOSS_MASK)
    dense = {**batch, Columns.LOSS_MASK: mask}
    out = CompactTrainBatch()(rl_module={"m": module}, batch={"m": dict(dense)}, episodes=[])["m"]
    keep = mask.nonzero().reshape(-1)
    assert Columns.OBS not in out and Columns.LOSS_MASK not in out and 0 < len(keep) < 40
    for key, value in batch.items():
        if key != Columns.OBS:
            torch.testing.assert_close(out[key], value[keep], rtol=0, atol=0)
    columns, values = out[NZ_COLUMNS], out[NZ_VALUES]
    assert columns.shape == values.shape and columns.shape[0] == len(keep)
    counts = (batch[Columns.OBS] != 0).sum(1)
    assert int(counts[keep].max()) <= columns.shape[1] <= int(counts.max())  # as wide as a full row, no wider
    rebuilt = torch.zeros(len(keep), SIZE).scatter_add_(1, columns, values)
    torch.testing.assert_close(rebuilt, batch[Columns.OBS][keep], rtol=0, atol=0)

    # the module reads the compact rows as it reads the dense ones
    fwd = module.forward_train({**batch, Columns.OBS: batch[Columns.OBS][keep], "action_mask": batch["action_mask"][keep]})
    compact = module.forward_train(dict(out))
    for key in (Columns.ACTION_DIST_INPUTS, Columns.EMBEDDINGS):
        torch.testing.assert_close(compact[key], fwd[key], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(module.compute_values(dict(out)), module.compute_values(
        {Columns.OBS: batch[Columns.OBS][keep]}), rtol=1e-5, atol=1e-5)


def test_a_module_under_a_wrapper_gets_the_compact_batch_and_another_module_the_dense_one():
    from training.rllib.module import NZ_COLUMNS, CompactTrainBatch

    class Wrapped:  # as RLlib's DDP wrapper with several learners: the module is `unwrapped()`
        def __init__(self, module):
            self.module = module

        def unwrapped(self):
            return self.module

    batch = train_batch(16, seed=4)
    wrapped = CompactTrainBatch()(rl_module={"m": Wrapped(build(sparse_module_spec))}, batch={"m": dict(batch)},
                                  episodes=[])["m"]
    assert NZ_COLUMNS in wrapped and Columns.OBS not in wrapped
    dense = CompactTrainBatch()(rl_module={"m": build(rl_module_spec)}, batch={"m": dict(batch)}, episodes=[])["m"]
    assert set(dense) == set(batch)  # RLlib's own module reads the batch as RLlib made it
