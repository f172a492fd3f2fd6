"""The imitation warm start (training/ppo/imitation.py) on the toy game, whose heuristic raises whenever
the mask allows it."""
import json

import numpy as np
import pytest

import corruption_envs
from corruption_envs.bots import make_agent
from training.config import ConfigError, load
from training.ppo.imitation import collect, fit
from training.selfplay import main
from corruption_envs import get_game

GAMMA = 0.9


@pytest.fixture(scope="module")
def demos():
    return collect(get_game("toy"), {"num_rounds": 2}, (2, 4), games=60, seed=3, explore=0.0, gamma=GAMMA)


def test_every_label_is_the_teachers_legal_choice(demos):
    assert len(demos) == len(demos.masks) == len(demos.observations) == len(demos.returns)
    assert demos.masks[np.arange(len(demos)), demos.actions].all()
    # the toy heuristic raises exactly when raising is legal
    assert np.array_equal(demos.actions, demos.masks[:, 1].astype(np.int64))


def test_returns_are_the_final_reward_discounted_by_the_seats_remaining_moves():
    # one 3-player game of two laps: seats decide in the order 0 1 2 0 1 2, so each seat's first
    # decision is worth gamma x its last one, which carries the seat's final reward
    one = collect(get_game("toy"), {"num_rounds": 2}, (3, 3), games=1, seed=11, explore=0.0, gamma=GAMMA)
    assert len(one) == 6
    assert np.allclose(one.returns[:3], GAMMA * one.returns[3:])
    assert np.abs(one.returns[3:]).max() > 0  # someone won or lost


def test_exploration_changes_the_games_but_not_the_labels():
    plain = collect(get_game("toy"), {"num_rounds": 2}, (3, 3), games=30, seed=5, explore=0.0, gamma=GAMMA)
    noisy = collect(get_game("toy"), {"num_rounds": 2}, (3, 3), games=30, seed=5, explore=0.5, gamma=GAMMA)
    assert not np.array_equal(plain.observations, noisy.observations)  # other moves were played
    assert np.array_equal(noisy.actions, noisy.masks[:, 1].astype(np.int64))  # still the teacher's


def test_fitting_makes_the_policy_play_like_the_teacher(demos):
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from training.opponents.pool import OpponentPool
    from training.opponents.wrapper import SelfPlayEnv

    pool = OpponentPool({"heuristic": 1.0}, 1, 1.0)
    venv = DummyVecEnv([lambda: SelfPlayEnv(get_game("toy"), {"num_rounds": 2}, (2, 4), pool, seed=0)])
    model = MaskablePPO("MlpPolicy", venv, seed=0, device="cpu", policy_kwargs={"net_arch": [16, 16]})
    stats = fit(model.policy, demos, epochs=30, batch_size=32, learning_rate=3e-3, seed=0, holdout=0.3)
    assert stats["heldout_accuracy"] > 0.95
    obs, masks = demos.observations, demos.masks
    free = masks.all(axis=1)  # positions where the teacher had a real choice
    actions, _ = model.predict(obs[free], action_masks=masks[free], deterministic=True)
    assert (actions == 1).mean() > 0.95


def test_imitation_keys_are_checked():
    with pytest.raises(ConfigError, match=r"imitation.explore=2 is not allowed"):
        load("corruption", sets=["imitation.explore=2"])
    with pytest.raises(ConfigError, match=r"imitation.teacher='champion' is not allowed"):
        load("corruption", sets=["imitation.teacher=champion"])


def test_the_teacher_named_plays_every_seat_of_the_demonstrations():
    """Each label is the move the named teacher makes there: replaying a teacher bot through the
    recorded positions of an explore-free collection reproduces the labels (the expert's are not the
    heuristic's)."""
    data = collect(get_game("corruption"), {}, (4, 4), games=1, seed=3, explore=0.0, gamma=1.0, teacher="expert")
    heuristic = collect(get_game("corruption"), {}, (4, 4), games=1, seed=3, explore=0.0, gamma=1.0)
    assert not np.array_equal(data.actions[:len(heuristic)], heuristic.actions[:len(data)])
    env = corruption_envs.env("corruption", num_players=4)
    rng = np.random.default_rng(3)
    assert rng.integers(4, 5, size=1).tolist() == [4]  # collect's draws in its order: the counts, the deals,
    deal = int(rng.integers(2**63, size=1)[0])  # then one teacher per count, for all its seats
    bot = make_agent("expert", env, seed=int(rng.integers(2**31)))
    env.reset(seed=deal)
    for i, label in enumerate(data.actions):
        seen = env.observe(env.agent_selection)
        assert np.array_equal(seen["observation"], data.observations[i])
        assert bot.act(seen["observation"], seen["action_mask"]) == label
        env.step(int(label))
    assert env.terminations[env.agent_selection]


def test_a_run_with_imitation_records_it_and_starts_from_the_copy(toy_config_file, tmp_path):
    out = tmp_path / "run"
    assert main(["--config", str(toy_config_file), "--out", str(out), "--no-progress", "--timesteps", "256",
                 "--set", "imitation.games=40", "--set", "imitation.epochs=20"]) == 0
    stats = json.loads((out / "imitation.json").read_text())
    assert stats["games"] == 40 and stats["decisions"] > 40 * 2 * 2
    assert {e["baseline"] for e in stats["eval"]} == {"random", "heuristic"}
    assert stats["heldout_accuracy"] > 0.9


def test_with_a_prior_only_the_critic_is_fitted(demos):
    """A PriorPolicy plays the teacher already: the warm start must leave its actor alone."""
    import torch
    from sb3_contrib import MaskablePPO

    from training.opponents.pool import OpponentPool
    from training.network.prior import PriorPolicy
    from training.opponents.wrapper import SelfPlayEnv

    env = SelfPlayEnv(get_game("toy"), {"num_rounds": 2}, (2, 4), OpponentPool({"heuristic": 1.0}, 1, 1.0), seed=0,
                      prior="heuristic")
    model = MaskablePPO(PriorPolicy, env, seed=0, device="cpu", policy_kwargs={"net_arch": [16, 16]})
    actor = [p.detach().clone() for p in [*model.policy.mlp_extractor.policy_net.parameters(),
                                          *model.policy.action_net.parameters(), model.policy.prior_weight]]
    critic = [p.detach().clone() for p in model.policy.value_net.parameters()]
    before = fit(model.policy, demos, epochs=1, batch_size=32, learning_rate=3e-3, seed=0, holdout=0.3,
                 critic_only=True, prior=True)
    after = fit(model.policy, demos, epochs=20, batch_size=32, learning_rate=3e-3, seed=0, holdout=0.3,
                critic_only=True, prior=True)
    now = [*model.policy.mlp_extractor.policy_net.parameters(), *model.policy.action_net.parameters(),
           model.policy.prior_weight]
    assert all(torch.equal(a, b) for a, b in zip(actor, now))
    assert not all(torch.equal(a, b) for a, b in zip(critic, model.policy.value_net.parameters()))
    assert after["heldout_value_mse"] < before["heldout_value_mse"]
    assert before["heldout_accuracy"] == 1.0  # the prior's one-hot is the teacher's move


def test_sparse_rows_give_back_the_dense_rows_by_any_index():
    from training.network.sparse_rows import SparseRows

    rng = np.random.default_rng(0)
    chunks = [np.where(rng.random((k, 50)) < 0.1, rng.random((k, 50)), 0).astype(np.float32) for k in (7, 0, 13, 1)]
    dense = np.concatenate(chunks)
    rows = SparseRows.merge([SparseRows.of(c) for c in chunks], 50)
    assert len(rows) == len(dense) and len(rows.values) == np.count_nonzero(dense)  # only the nonzeros kept
    idx = rng.permutation(len(dense))[:9]
    assert np.array_equal(rows[idx], dense[idx]) and np.array_equal(rows[3], dense[3])
    assert np.array_equal(rows[dense[:, 0] > 0], dense[dense[:, 0] > 0])


def test_the_learners_policy_fits_stored_rows_as_their_non_zeros_exactly_as_dense_ones(demos):
    """The learner's policy trains on the demonstrations' non-zeros (no dense copy); the fit is the same."""
    import dataclasses

    import gymnasium as gym
    import torch

    from training.network.learner_policy import LearnerPolicy
    from training.network.sparse_input import NonZeros

    dense = dataclasses.replace(demos, observations=demos.observations[np.arange(len(demos))])
    space = gym.spaces.Box(0.0, 1.0, (dense.observations.shape[1],), np.float32)
    fitted, seen = [], []
    for data in (demos, dense):
        torch.manual_seed(0)
        policy = LearnerPolicy(space, gym.spaces.Discrete(demos.masks.shape[1]), lambda _: 1e-3, net_arch=[16, 16])
        evaluate = policy.evaluate_actions
        policy.evaluate_actions = lambda obs, *a, **k: (seen.append(type(obs)), evaluate(obs, *a, **k))[1]
        fit(policy, data, epochs=3, batch_size=32, learning_rate=3e-3, seed=0)
        fitted.append(policy.state_dict())
    assert set(seen[:len(seen) // 2]) == {NonZeros} and set(seen[len(seen) // 2:]) == {torch.Tensor}
    assert all(torch.equal(a, b) for a, b in zip(fitted[0].values(), fitted[1].values()))
