"""The RLlib runners' env on the batched engine: gymnasium's next-step autoreset over the SB3 rollout."""
import numpy as np
import pytest

from corruption_envs.policy import NumpyPolicy
from training import config as cfg
from training.rllib.engine_env import EngineVectorEnv, make_engine_env

B = 8


@pytest.fixture
def config():
    return cfg.load("corruption", sets=["ppo.prior=none", "run.players=[3,4]", f"run.n_envs={B}",
                                        "ppo.batch_size=8", "pool.mix={self: 0.5, random: 0.5}"])


def legal_moves(obs, rng):
    return np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])


def test_a_finished_game_returns_the_next_games_first_observation_on_the_following_step(config):
    env = make_engine_env(config, {"num_envs": B})
    obs, _ = env.reset(seed=3)
    assert env.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    rng, ended, seen, paid = np.random.default_rng(0), 0, 0, 0
    for _ in range(400):
        before = {k: v.copy() for k, v in obs.items()}
        waiting = env._waiting.copy()
        actions = legal_moves(obs, rng)
        actions[waiting] = 0  # ignored: a waiting row does not move, whatever it is sent
        obs, rewards, terminated, truncated, _ = env.step(actions)
        assert not truncated.any()
        if waiting.any():
            seen += 1
            assert not terminated[waiting].any() and (rewards[waiting] == 0).all()
            for key in obs:
                np.testing.assert_array_equal(obs[key][waiting], before[key][waiting])
        assert (rewards[~terminated] == 0).all()  # a game pays its learner when it ends, never before
        ended += int(terminated.sum())
        paid += int(np.count_nonzero(rewards[terminated]))
    assert ended > B and seen > 0 and paid > 0


def test_observations_handed_out_are_not_rewritten_by_later_steps(config):
    env = make_engine_env(config, {"num_envs": B})
    obs, _ = env.reset(seed=1)
    kept = {k: v.copy() for k, v in obs.items()}
    env.step(legal_moves(obs, np.random.default_rng(1)))
    for key in obs:
        np.testing.assert_array_equal(obs[key], kept[key])


def test_a_seed_fixes_the_games_and_another_seed_deals_others(config):
    runs = []
    for seed in (5, 5, 6):
        env = EngineVectorEnv(config, B, seed=0)
        obs, _ = env.reset(seed=seed)
        runs.append(obs["observations"])
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], runs[2])


def test_snapshots_join_the_pool_and_take_seats(config):
    env = make_engine_env(config, {"num_envs": B})
    size, actions = env.single_observation_space["observations"].shape[0], env.single_action_space.n
    rng = np.random.default_rng(0)
    policy = NumpyPolicy([(rng.normal(size=(size, 8)).astype(np.float32), np.zeros(8, np.float32))],
                         (rng.normal(size=(8, actions)).astype(np.float32), np.zeros(actions, np.float32)),
                         "tanh", {"game": "corruption"})
    assert env.pool.sample_kind(np.random.default_rng(0)) in ("random", "self") and not env.pool.snapshots
    env.add_snapshot(policy, 0)
    obs, _ = env.reset(seed=2)
    for _ in range(300):
        obs, *_ = env.step(legal_moves(obs, rng))
    snap = env.pool.snapshots[0]
    assert len(env.pool.snapshots) == 1 and snap.games > 2  # the learner met it: its PFSP score moved


def test_with_a_prior_the_bots_move_comes_as_its_own_key(config):
    from corruption_envs.bots import make_agent

    import corruption_envs

    env = make_engine_env(config.updated({"ppo.prior": "expert"}), {"num_envs": B})
    obs, _ = env.reset(seed=4)
    assert set(obs) == {"observations", "action_mask", "prior"}
    assert obs["observations"].shape[1] == env.games.obs_size
    np.testing.assert_array_equal(obs["prior"].sum(axis=1), np.ones(B))  # one move a row, a legal one
    assert (obs["action_mask"][obs["prior"] > 0] == 1).all()
    expert = make_agent("expert", corruption_envs.env("corruption", num_players=4), seed=0)
    rows = np.flatnonzero(env.games.batch.num_players == 4)
    assert rows.size
    moves = expert.act_batch(obs["observations"][rows], obs["action_mask"][rows].astype(np.int8))
    np.testing.assert_array_equal(obs["prior"][rows].argmax(axis=1), moves)
