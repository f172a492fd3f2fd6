"""Residual learning on a bot (ppo.prior): the hint in the learner's observation, the torch policy
and its numpy export agreeing, the policy file keeping the prior, and clear errors."""
import json

import numpy as np
import pytest

from corruption_envs.core import PolicyFileError
from corruption_envs.evaluation import evaluate
from corruption_envs.policy import NumpyPolicy, load_policy, read_policy_file
from tests.training.test_policy_io import META, observations, rewrite
from tests.training.toygame import HeuristicAgent, raw_env
from training.config import ConfigError
from training.config import load as load_config
from training.network.export import export_actor
from training.opponents.pool import OpponentPool, SampledPolicy
from training.opponents.wrapper import SelfPlayEnv
from corruption_envs import get_game


def hinted_env(seed=0, mix=None):
    pool = OpponentPool(mix or {"random": 1.0}, 3, 2.0)
    return SelfPlayEnv(get_game("toy"), {}, (2, 3), pool, seed=seed, prior="heuristic")


def test_the_learner_sees_its_observation_then_the_heuristics_move_one_hot():
    w = hinted_env()
    size = w.env.observation_layout.size
    assert w.observation_space.shape == (size + w.env.num_actions,)
    for _ in range(20):
        obs, _ = w.reset()
        done = False
        while not done:
            seen = w.env.observe(w.learner)
            assert np.array_equal(obs[:size], seen["observation"])
            move = HeuristicAgent(w.env).act(seen["observation"], seen["action_mask"])
            assert obs[size:].tolist() == [float(a == move) for a in range(w.env.num_actions)]
            obs, _, done, _, _ = w.step(int(np.flatnonzero(w.action_masks())[0]))
        assert not obs[size:].any()  # no hint once the game is over


@pytest.fixture(scope="module")
def model():
    from sb3_contrib import MaskablePPO
    from torch import nn

    from training.network.prior import PriorPolicy

    m = MaskablePPO(PriorPolicy, hinted_env(), n_steps=64, batch_size=64, n_epochs=2, seed=1, device="cpu",
                    learning_rate=3e-3, policy_kwargs={"net_arch": [16, 8], "activation_fn": nn.Tanh,
                                                       "prior_weight": 2.5})
    m.learn(256)  # move the weights, the prior's included, away from their init
    return m


def hinted(obs, mask):
    tail = np.zeros(2, np.float32)
    tail[HeuristicAgent(None).act(obs, mask)] = 1.0
    return np.concatenate([obs, tail])


def test_the_prior_weight_is_learned(model):
    assert float(model.policy.prior_weight.detach()) != 2.5


def test_exported_prior_policy_plays_exactly_like_the_torch_policy(model):
    policy = export_actor(model, "tanh", META, prior="heuristic").bind(raw_env(num_players=3))
    assert policy.prior == "heuristic"
    assert policy.prior_weight == pytest.approx(float(model.policy.prior_weight.detach()))
    for obs, mask in observations():
        torch_action, _ = model.predict(hinted(obs, mask), action_masks=mask.astype(bool), deterministic=True)
        assert policy.act(obs, mask) == int(torch_action)
        probs = model.policy.get_distribution(
            model.policy.obs_to_tensor(hinted(obs, mask))[0], action_masks=mask.astype(bool)[None]
        ).distribution.probs.detach().numpy()[0]
        z = policy.scores(obs, mask)
        p = np.exp(z - z.max())
        assert np.allclose(p / p.sum(), probs, atol=1e-5)


def test_export_refuses_a_prior_the_model_does_not_have(model):
    with pytest.raises(TypeError, match="does not match the model's policy PriorPolicy"):
        export_actor(model, "tanh", META)


def test_a_fresh_prior_policy_plays_the_bots_move():
    """Zero network logits: the prior alone decides, so the policy is the heuristic."""
    policy = NumpyPolicy([], (np.zeros((30, 2), np.float32), np.zeros(2, np.float32)),
                         prior="heuristic", prior_weight=0.5).bind(raw_env(num_players=3))
    for obs, mask in observations():
        assert policy.act(obs, mask) == HeuristicAgent(None).act(obs, mask)


def test_pool_snapshots_with_a_prior_consult_their_seats_bot():
    head = (np.zeros((30, 2), np.float32), np.array([4.0, 0.0], np.float32))  # the network prefers action 0
    snap = NumpyPolicy([], head, prior="heuristic", prior_weight=50.0)  # the bot (action 1) overrules it
    sampler = SampledPolicy(snap, np.random.default_rng(0), HeuristicAgent(None))
    obs = observations(1)[0][0]
    assert {sampler.act(obs, np.ones(2, np.int8)) for _ in range(50)} == {1}
    assert {sampler.act(obs, np.array([1, 0], np.int8)) for _ in range(50)} == {0}


def test_round_trip_keeps_the_prior_and_load_binds_it(model, tmp_path):
    path = export_actor(model, "tanh", META, prior="heuristic").save(tmp_path / "p.npz")
    meta = read_policy_file(path).meta
    assert meta["format_version"] == 2 and meta["prior"] == "heuristic"
    loaded = load_policy(path, raw_env(num_players=3))
    assert isinstance(loaded.prior_bot, HeuristicAgent)
    assert loaded.prior_weight == pytest.approx(float(model.policy.prior_weight.detach()))
    obs, mask = observations(1)[0]
    assert loaded.act(obs, mask) in (0, 1)
    # evaluation binds the policy to its own env
    r = evaluate(read_policy_file(path), get_game("toy"), "random", 6, num_players=3, seed=1)
    assert r.games == 6


def test_an_unbound_prior_policy_says_how_to_bind_it(model, tmp_path):
    policy = read_policy_file(export_actor(model, "tanh", META, prior="heuristic").save(tmp_path / "p.npz"))
    obs, mask = observations(1)[0]
    with pytest.raises(RuntimeError, match=r"call policy.bind\(env\) first"):
        policy.act(obs, mask)


@pytest.mark.parametrize("change, message", [
    (lambda a, m: m.update(prior="oracle"), "names prior 'oracle'.*must be one of"),
    (lambda a, m: m.update(prior="heuristic", prior_weight="big"),
     "metadata prior_weight is 'big', not a number"),
])
def test_a_bad_prior_in_the_file_fails_naming_it(model, tmp_path, change, message):
    path = export_actor(model, "tanh", META, prior="heuristic").save(tmp_path / "p.npz")
    with pytest.raises(PolicyFileError, match=message):
        read_policy_file(rewrite(path, tmp_path, change))


def test_version_1_files_without_a_prior_still_load(model, tmp_path):
    from sb3_contrib import MaskablePPO

    plain = MaskablePPO("MlpPolicy", SelfPlayEnv(get_game("toy"), {}, (2, 3), OpponentPool({"random": 1.0}, 1, 2.0)),
                        seed=0, device="cpu", policy_kwargs={"net_arch": [8]})
    path = export_actor(plain, "tanh", META).save(tmp_path / "p.npz")

    def as_v1(arrays, meta):
        meta["format_version"] = 1
        del meta["prior"], meta["prior_weight"]

    old = load_policy(rewrite(path, tmp_path, as_v1), raw_env(num_players=3))
    assert old.prior is None and json.loads(json.dumps(old.meta))["format_version"] == 1


def test_config_names_a_bad_prior(toy_config_file):
    with pytest.raises(ConfigError, match="ppo.prior='oracle' is not allowed"):
        load_config(path=toy_config_file, sets=["ppo.prior=oracle"])
    assert load_config(path=toy_config_file, sets=["ppo.prior=heuristic"]).ppo.prior_weight == 3.0


def test_a_tail_with_two_moves_in_a_row_is_refused(model):
    import torch

    obs = np.zeros((2, model.observation_space.shape[0]), np.float32)
    obs[0, -2:] = 1.0  # both of the toy game's actions hinted
    with pytest.raises(ValueError, match="must be a one-hot: a row has two moves"):
        model.policy.get_distribution(torch.from_numpy(obs))


def test_a_fresh_expert_prior_policy_plays_the_experts_move():
    """Corruption's expert as the prior: with zero network logits the policy is the expert, move for move."""
    import corruption_envs
    from corruption_envs.bots import make_agent

    env = corruption_envs.env("corruption", num_players=4)
    size, actions = env.unwrapped.observation_layout.size, env.unwrapped.num_actions
    head = (np.zeros((size, actions), np.float32), np.zeros(actions, np.float32))
    policy = NumpyPolicy([], head, prior="expert", prior_weight=50.0).bind(env, seed=3)
    expert = make_agent("expert", env, seed=3)
    env.reset(seed=5)
    for _ in range(60):
        if env.terminations[env.agent_selection]:
            break
        seen = env.observe(env.agent_selection)
        move = expert.act(seen["observation"], seen["action_mask"])
        assert policy.act(seen["observation"], seen["action_mask"]) == move
        env.step(move)


def test_the_learners_hint_is_the_named_prior_bots_move():
    """ppo.prior=expert hints the expert's move, not the heuristic's (the two differ on these deals)."""
    from corruption_envs.bots import make_agent

    pool = OpponentPool({"random": 1.0}, 3, 2.0)
    w = SelfPlayEnv(get_game("corruption"), {}, (4, 4), pool, seed=0, prior="expert")
    size = w.env.observation_layout.size
    expert, heuristic = make_agent("expert", w.env, seed=0), make_agent("heuristic", w.env, seed=0)
    differ = 0
    for _ in range(3):
        obs, _ = w.reset()
        done = False
        while not done:
            seen = w.env.observe(w.learner)
            move = expert.act(seen["observation"], seen["action_mask"])
            assert int(np.argmax(obs[size:])) == move
            differ += move != heuristic.act(seen["observation"], seen["action_mask"])
            obs, _, done, _, _ = w.step(move)
    assert differ > 0


def test_config_refuses_a_prior_the_game_lacks(toy_config_file):
    with pytest.raises(ConfigError, match="ppo.prior='expert' is not allowed"):
        load_config(path=toy_config_file, sets=["ppo.prior=expert"])
    assert load_config("corruption", sets=["ppo.prior=expert", "imitation.games=0"]).ppo.prior == "expert"
