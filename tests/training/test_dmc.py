"""Deep Monte-Carlo (training/dmc.py): samples carry their episode's return, masked moves are never
played, the exported file plays the Q's argmax, the fit reaches the mean return, a tiny run on the toy
game leaves a playable policy and a final table both ways."""
import json

import numpy as np
import pytest
import torch as th

import corruption_envs
from corruption_envs.policy import load_policy, read_policy_file
from training import config as cfg
from training.batched_env import BatchedSelfPlayVecEnv
from training.dmc import main
from training.dmc_learner import MIXED_BATCHES, EpisodeStore, QNetwork, choose, update
from training.pool import OpponentPool

DMC_SETS = ["--set", "dmc.timesteps=1024", "--set", "dmc.batch_size=64", "--set", "dmc.net_arch=[16]",
            "--set", "dmc.prior=heuristic", "--set", "run.vec_env=batched", "--set", "eval.select_from=2"]


def test_every_sample_carries_the_return_of_its_own_game_and_open_games_give_none():
    venv = BatchedSelfPlayVecEnv("toy", {"num_rounds": 2, "reward": "rank"}, (2, 4),
                                 OpponentPool({"random": 1.0}, 3, 2.0), 6, seed=1)
    rng, store = np.random.default_rng(0), EpisodeStore(6)
    moves = [[] for _ in range(6)]  # the learner's moves per open game, as (observation, action)
    expected = []  # (observation, action, return) of every ended game's moves, in the order they ended
    obs = venv.reset()
    for _ in range(40):
        actions = choose(th.zeros(6, venv.engine.num_actions), venv.action_masks(), 1.0, rng)
        store.add(obs, actions)
        for row in range(6):
            moves[row].append((obs[row].copy(), int(actions[row])))
        obs, rewards, dones, _ = venv.step(actions)
        for row in np.flatnonzero(dones):
            store.end(row, rewards[row])
            expected += [(o, a, float(rewards[row])) for o, a in moves[row]]
            moves[row] = []
    assert {r for *_, r in expected} >= {-1.0, 1.0}  # games won and lost
    k = len(expected) // MIXED_BATCHES
    assert store.take(k + 1, rng) == []  # fewer than MIXED_BATCHES batches ready: nothing yet
    batches = store.take(k, rng)
    assert len(batches) == len(expected) // k and all(len(b[1]) == k for b in batches)
    taken = [(tuple(o), a, r) for obs_t, act_t, ret_t in batches
             for o, a, r in zip(obs_t.numpy().round(2).tolist(), act_t.tolist(), ret_t.tolist())]
    left = [(tuple(o.astype(np.float32).round(2).tolist()), a, r) for o, a, r in store.ready]
    assert len(left) < k  # the open games' moves are not samples yet
    # each ended game's every move, once, with its game's return
    assert sorted(taken + left) == sorted((tuple(o.round(2).tolist()), a, r) for o, a, r in expected)


@pytest.mark.parametrize("epsilon", [0.0, 0.5, 1.0])
def test_masked_moves_are_never_chosen_even_where_their_q_is_highest(epsilon):
    rng = np.random.default_rng(3)
    masks = rng.random((500, 7)) < 0.3
    masks[np.arange(500), rng.integers(7, size=500)] = True
    q = th.from_numpy(np.where(masks, 0.0, 5.0).astype(np.float32))  # every illegal move looks best
    actions = choose(q, masks, epsilon, rng)
    assert masks[np.arange(500), actions].all()
    several = masks.sum(1) >= 3
    first_legal = masks.argmax(1)  # the greedy move: every legal Q is 0
    left_greedy = (actions != first_legal)[several].mean()
    assert left_greedy == 0.0 if epsilon == 0.0 else left_greedy > 0.6 * epsilon  # uniform: >= 2/3 of them


def test_the_fit_reaches_the_mean_return_of_each_move():
    th.manual_seed(0)
    net = QNetwork(4, 3, [8], "relu")
    obs = th.eye(4)[[0, 0, 0, 0, 1, 1]]
    act = th.tensor([2, 2, 2, 2, 0, 0])
    ret = th.tensor([1.0, -1.0, 1.0, 1.0, -1.0, -0.5])
    optimizer = th.optim.Adam(net.parameters(), lr=1e-2)
    for _ in range(40):
        update(net, optimizer, (obs, act, ret), 10, 40.0)
    q = net(th.eye(4)[[0, 1]])
    assert abs(float(q[0, 2]) - 0.5) < 0.02 and abs(float(q[1, 0]) + 0.75) < 0.02


def test_a_fresh_network_with_a_prior_plays_the_bot_and_its_file_plays_q_plus_the_margin(tmp_path):
    env = corruption_envs.env("toy", num_players=3, num_rounds=2)
    venv = BatchedSelfPlayVecEnv("toy", {"num_rounds": 2}, (3, 3), OpponentPool({"random": 1.0}, 3, 2.0), 32,
                                 seed=2, prior="heuristic")
    obs, masks = venv.reset(), venv.action_masks()
    d = venv.obs_size
    prior_moves = obs[:, d:].argmax(1)
    th.manual_seed(1)
    net = QNetwork(d, venv.engine.num_actions, [16], "tanh")
    with th.no_grad():
        fresh = choose(net(th.from_numpy(obs[:, :d])), masks, 0.0, np.random.default_rng(), prior_moves, 0.1)
        assert fresh.tolist() == prior_moves.tolist()  # the bot's move, wherever it is
        for p in net.parameters():  # any other Q, one that rates action 0 far above the bot's move (1)
            p.add_(th.randn_like(p))
        net.head.bias[0] += 5.0
        q = net(th.from_numpy(obs[:, :d]))
    learner = choose(q, masks, 0.0, np.random.default_rng(), prior_moves, 0.3)
    assert learner.tolist() != prior_moves.tolist()  # the trained Q leaves the bot somewhere
    net.export({"game": "toy"}, "heuristic", 0.3).save(tmp_path / "q.npz")
    assert read_policy_file(tmp_path / "q.npz").meta["play"] == "greedy"
    policy = load_policy(tmp_path / "q.npz", env=env)
    assert policy.act_batch(obs[:, :d].copy(), masks).tolist() == learner.tolist()


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    from tests.training.conftest import TOY_YAML

    path = tmp_path_factory.mktemp("cfg") / "toy.yaml"
    path.write_text(TOY_YAML)
    out = tmp_path_factory.mktemp("runs") / "dmc"
    assert main(["--config", str(path), "--out", str(out), "--no-progress", *DMC_SETS]) == 0
    return out


def test_a_tiny_run_leaves_a_greedy_policy_file_and_a_final_table_both_ways(run):
    for name in ("config.yaml", "commit.txt", "metrics.csv", "policy.npz", "results.json", "learning_curve.png"):
        assert (run / name).exists(), name
    results = json.loads((run / "results.json").read_text())
    assert results["algorithm"] == "dmc" and results["timesteps"] >= 1024
    assert results["q_loss_last"] is not None  # it learnt
    table = {(r["baseline"], r["num_players"], r["reverse"]) for r in results["final_eval"]}
    assert ("heuristic", 3, False) in table and ("heuristic", 3, True) in table  # both directions
    assert len(results["selection"]) == 3  # the final policy and the last two snapshots
    policy = read_policy_file(run / "policy.npz")
    assert policy.meta["play"] == "greedy" and policy.prior == "heuristic" and not policy.sample
    env = corruption_envs.env("toy", num_players=3, num_rounds=2)
    env.reset(seed=0)
    agent = load_policy(run / "policy.npz", env=env)
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"]))


@pytest.mark.parametrize("item, message", [
    ("dmc.epsilon=2", r"dmc.epsilon=2 is not allowed; dmc.epsilon must be a number in \[0, 1\]"),
    ("dmc.prior=expert", r"dmc.prior='expert' is not allowed: game 'toy' has no expert bot"),
    ("dmc.epsilom=0.1", r"unknown config key 'dmc.epsilom'.*epsilon"),
])
def test_bad_dmc_keys_fail_at_start_naming_them(toy_config_file, item, message):
    with pytest.raises(cfg.ConfigError, match=message):
        cfg.load(None, toy_config_file, [item])


def test_the_cli_refuses_a_run_off_the_batched_engine(toy_config_file, tmp_path, capsys):
    assert main(["--config", str(toy_config_file), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "run.vec_env='dummy' is not allowed for training.dmc" in err and "\n" not in err.strip()
    assert not (tmp_path / "x").exists()
