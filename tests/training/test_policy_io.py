"""Exported policies: same actions as the torch policy, a pickle-free round trip, clear load errors."""
import json
import zipfile

import numpy as np
import pytest

from corruption_envs.bots import make_agent
from corruption_envs.core import PolicyFileError
from corruption_envs.policy import load_policy, read_policy_file
from tests.training.toygame import raw_env
from training.network.export import export_actor
from training.opponents.pool import OpponentPool
from training.opponents.wrapper import SelfPlayEnv
from corruption_envs import get_game

META = {"game": "toy", "game_version": 0, "min_players": 2, "max_players": 3}


@pytest.fixture(scope="module", params=["MlpPolicy", "LearnerPolicy"])
def model(request):
    """A trained model of SB3's MlpPolicy, and of the learner's faster one (training.network.learner_policy)."""
    from sb3_contrib import MaskablePPO
    from torch import nn

    from training.network.learner_policy import LearnerPolicy

    pool = OpponentPool({"random": 1.0}, 1, 2.0)
    env = SelfPlayEnv(get_game("toy"), {}, (2, 3), pool, seed=0)
    policy = LearnerPolicy if request.param == "LearnerPolicy" else request.param
    m = MaskablePPO(policy, env, n_steps=64, batch_size=64, n_epochs=1, seed=1, device="cpu",
                    policy_kwargs={"net_arch": [16, 8], "activation_fn": nn.ReLU})
    m.learn(256)  # move the weights away from their init
    return m


def observations(n=300):
    """Varied observations and masks from real toy games."""
    env = raw_env(num_players=3)
    rng = np.random.default_rng(0)
    out = []
    while len(out) < n:
        env.reset(seed=int(rng.integers(1 << 30)))
        while not env.terminations[env.agent_selection]:
            seen = env.observe(env.agent_selection)
            out.append((seen["observation"], seen["action_mask"].copy()))
            env.step(int(rng.choice(np.flatnonzero(seen["action_mask"]))))
    # a mask forbidding the favourite action shows the mask is applied
    out += [(o, np.array([1, 0], np.int8)) for o, _ in out[:20]] + [(o, np.array([0, 1], np.int8)) for o, _ in out[:20]]
    return out


def test_exported_policy_plays_exactly_like_the_torch_policy(model):
    policy = export_actor(model, "relu", META)
    for obs, mask in observations():
        torch_action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        assert policy.act(obs, mask) == int(torch_action)


def test_save_load_round_trip_keeps_every_logit_and_is_pickle_free(model, tmp_path):
    policy = export_actor(model, "relu", META)
    path = policy.save(tmp_path / "p.npz")
    with np.load(path, allow_pickle=False) as data:  # would raise on any object array
        assert all(data[k].dtype != object for k in data.files)
    loaded = load_policy(path, raw_env(num_players=3))
    obs = np.stack([o for o, _ in observations(50)])
    assert np.array_equal(loaded.logits(obs), policy.logits(obs))
    assert loaded.meta["game"] == "toy" and loaded.meta["obs_size"] == obs.shape[1]


def test_loaded_policy_is_greedy_by_default_and_samples_reproducibly_with_a_seed(model, tmp_path):
    path = export_actor(model, "relu", META).save(tmp_path / "p.npz")
    env = raw_env(num_players=3)
    obs, mask = observations(1)[0]
    greedy = load_policy(path, env)
    assert len({greedy.act(obs, mask) for _ in range(20)}) == 1
    a = [load_policy(path, env, sample=True, seed=3).act(obs, np.ones(2, np.int8)) for _ in range(2)]
    assert a[0] == a[1]
    sampler = load_policy(path, env, sample=True, seed=4)
    assert all(sampler.act(obs, np.array([0, 1], np.int8)) == 1 for _ in range(20))


def test_make_agent_loads_a_policy_path_as_a_bot(model, tmp_path):
    path = export_actor(model, "relu", META).save(tmp_path / "p.npz")
    bot = make_agent(str(path), raw_env(num_players=2), seed=0)
    obs, mask = observations(1)[0]
    assert bot.act(obs, mask) in (0, 1)


@pytest.fixture
def good_file(model, tmp_path):
    return export_actor(model, "relu", META).save(tmp_path / "good.npz")


def rewrite(path, tmp_path, change):
    """A copy of the policy file with its arrays changed by `change(arrays, meta)`."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    change(arrays, meta)
    arrays["meta"] = np.array(json.dumps(meta))
    out = tmp_path / "changed.npz"
    np.savez(out, **arrays)
    return out


def test_corrupt_file_fails_clearly(good_file, tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(good_file.read_bytes()[:200])
    with pytest.raises(PolicyFileError, match="is corrupt or not a policy .npz.*re-export"):
        load_policy(bad, raw_env(num_players=3))
    text = tmp_path / "notes.npz"
    text.write_text("not a zip")
    with pytest.raises(PolicyFileError, match="corrupt"):
        read_policy_file(text)


def test_missing_file_fails_clearly(tmp_path):
    with pytest.raises(PolicyFileError, match="does not exist"):
        read_policy_file(tmp_path / "nope.npz")


def test_policy_for_another_game_fails_naming_both(good_file, tmp_path):
    other = rewrite(good_file, tmp_path, lambda a, m: m.update(game="corruption"))
    with pytest.raises(PolicyFileError, match="trained for game 'corruption', not 'toy'"):
        load_policy(other, raw_env(num_players=3))


def test_player_count_outside_the_trained_range_fails(good_file):
    with pytest.raises(PolicyFileError, match="trained for 2-3 players, but this env has 4"):
        load_policy(good_file, raw_env(num_players=4))


def test_observation_size_mismatch_fails_naming_both_sizes(good_file, tmp_path):
    def grow(arrays, meta):
        arrays["w0"] = np.zeros((arrays["w0"].shape[0] + 1, arrays["w0"].shape[1]), np.float32)
        meta["obs_size"] += 1

    other = rewrite(good_file, tmp_path, grow)
    with pytest.raises(PolicyFileError, match=r"observations of size 31 .* has 30"):
        load_policy(other, raw_env(num_players=3))


@pytest.mark.parametrize("change, message", [
    (lambda a, m: a.pop("w_out"), "lacks the weight array 'w_out'"),
    (lambda a, m: a.update(b0=np.zeros(3, np.float32)), "layer 0 has weights .* do not chain"),
    (lambda a, m: a.update(w1=np.full_like(a["w1"], np.nan)), "non-finite weights"),
    (lambda a, m: m.update(format_version=99), "version 99; this corruption_envs reads"),
    (lambda a, m: m.update(temperature=0), "play temperature 0; it must be a number in"),
    (lambda a, m: m.update(temperature="hot"), "metadata temperature is 'hot', not a number"),
])
def test_damaged_contents_fail_naming_the_problem(good_file, tmp_path, change, message):
    with pytest.raises(PolicyFileError, match=message):
        read_policy_file(rewrite(good_file, tmp_path, change))


def test_file_without_meta_fails(tmp_path):
    path = tmp_path / "x.npz"
    with zipfile.ZipFile(path, "w"):
        pass
    with pytest.raises(PolicyFileError, match="no 'meta' record"):
        read_policy_file(path)


def test_sparse_observation_shortcut_gives_the_dense_logits():
    from corruption_envs.policy import NumpyPolicy

    rng = np.random.default_rng(0)
    w0, b0 = rng.normal(size=(400, 16)).astype(np.float32), rng.normal(size=16).astype(np.float32)
    head = (rng.normal(size=(16, 5)).astype(np.float32), np.zeros(5, np.float32))
    policy = NumpyPolicy([(w0, b0)], head)
    for nnz in (0, 3, 40, 399):  # below and above the shortcut's threshold
        x = np.zeros(400, np.float32)
        x[rng.choice(400, nnz, replace=False)] = rng.random(nnz).astype(np.float32)
        dense = np.tanh(x @ w0 + b0) @ head[0]
        assert np.allclose(policy.logits(x), dense, atol=1e-5)
        assert np.allclose(policy.logits(x[None])[0], dense, atol=1e-5)


def test_a_sampling_temperature_spreads_the_moves_and_greedy_play_ignores_it():
    """Two actions with logits 0 and 2: at temperature 1 the second is drawn e^2/(1+e^2) = 0.88 of the
    time, at temperature 4 e^0.5/(1+e^0.5) = 0.62; the greedy choice stays the second."""
    from corruption_envs.policy import NumpyPolicy
    from training.opponents.pool import SampledPolicy

    head = (np.zeros((3, 2), np.float32), np.array([0.0, 2.0], np.float32))
    obs, mask = np.ones(3, np.float32), np.ones(2, np.int8)
    for temperature, expected in ((1.0, 0.881), (4.0, 0.622)):
        policy = NumpyPolicy([], head, meta={"temperature": temperature}, sample=True, seed=0)
        pooled = SampledPolicy(policy, np.random.default_rng(1))
        for agent in (policy, pooled):
            share = np.mean([agent.act(obs, mask) for _ in range(4000)])
            assert abs(share - expected) < 0.03
        policy.sample = False
        assert policy.act(obs, mask) == 1
