"""`python -m training.selfplay --backend rllib`: config, opponent mapping, export, and a smoke run."""
import json

import numpy as np
import pytest
import yaml

pytest.importorskip("ray")

from corruption_envs.policy import read_policy_file  # noqa: E402
from training import config as cfg  # noqa: E402
from training import selfplay  # noqa: E402
from training.rllib import backend as rllib_backend  # noqa: E402
from corruption_envs import get_game


class Episode:
    def __init__(self, ident):
        self.id_ = ident


def test_player_0_is_the_learner_and_seats_follow_the_mix_consistently():
    kinds, weights = ("self", "heuristic", "random"), (0.5, 0.3, 0.2)
    draws = [rllib_backend.map_agent(f"player_{s}", Episode(f"ep{e}"), kinds, weights, slots=3)
             for e in range(400) for s in (1, 2)]
    assert {rllib_backend.map_agent("player_0", Episode(f"ep{e}"), kinds, weights, 3) for e in range(20)} == {"learner"}
    assert rllib_backend.map_agent("player_2", Episode("x"), kinds, weights, 3) == \
        rllib_backend.map_agent("player_2", Episode("x"), kinds, weights, 3)
    share = {k: np.mean([d.startswith(k) for d in draws]) for k in ("snapshot", "heuristic", "random")}
    assert share["snapshot"] == pytest.approx(0.5, abs=0.06) and share["random"] == pytest.approx(0.2, abs=0.05)
    assert {d for d in draws if d.startswith("snapshot")} == {"snapshot_0", "snapshot_1", "snapshot_2"}


def test_the_self_play_env_seats_player_0_anywhere_and_keeps_ids_consistent():
    env = rllib_backend.SelfPlayTurnBasedEnv("corruption", players=[3, 5])
    seats = set()
    for seed in range(12):
        obs, _ = env.reset(seed=seed)
        seats.add(env._shift)
        rng = np.random.default_rng(seed)
        while True:
            (agent, seen), = obs.items()
            n = len(env.env.possible_agents)
            assert seen["num_players"][0] == n and int(agent.split("_")[1]) < n
            # the rotated id sees exactly what its seat sees
            seat = f"player_{(int(agent.split('_')[1]) + env._shift) % n}"
            np.testing.assert_array_equal(seen["observations"], env.env.observe(seat)["observation"])
            obs, rewards, done, _, infos = env.step({agent: int(rng.choice(np.flatnonzero(seen["action_mask"])))})
            if done["__all__"]:
                assert "player_0" in rewards and set(obs) == {f"player_{i}" for i in range(n)}
                break
    assert len(seats) >= 3


@pytest.mark.parametrize("setting, message", [
    ("ppo.prior=heuristic", "ppo.prior='heuristic' is not supported with --backend rllib"),
    ("init.policy=start.npz", "init.policy='start.npz' is not supported"),
    ("pool.mix.ismcts:8=0.2", "pool.mix keys ['ismcts:8'] are not supported with --backend rllib"),
])
def test_sb3_only_features_are_refused_with_exit_2(smoke_config, setting, message, capsys, tmp_path):
    code = selfplay.main(["--config", str(smoke_config), "--backend", "rllib", "--set", setting,
                          "--out", str(tmp_path / "run")])
    assert code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("setting, message", [
    ("rllib.num_env_runners=-1", "rllib.num_env_runners=-1 is not allowed"),
    ("rllib.address=''", "rllib.address='' is not allowed"),
    ("rllib.workers=2", "unknown config key 'rllib.workers'"),
    ("rllib.num_gpus_per_learner=-1", "rllib.num_gpus_per_learner=-1 is not allowed"),
])
def test_the_rllib_section_is_validated_like_the_others(smoke_config, setting, message):
    with pytest.raises(cfg.ConfigError, match=message):
        cfg.load(None, smoke_config, [setting])


def test_the_learners_gpus_reach_rllibs_config(smoke_config):
    config = cfg.load(None, smoke_config, ["rllib.num_learners=1", "rllib.num_gpus_per_learner=0.5"])
    built = rllib_backend.algo_config(config)
    assert built.num_learners == 1 and built.num_gpus_per_learner == 0.5


def test_resume_is_refused_on_rllib_with_exit_2(tmp_path, capsys):
    assert selfplay.main(["--resume", str(tmp_path), "--backend", "rllib"]) == 2
    err = capsys.readouterr().err
    assert "--resume is not supported with --backend rllib" in err
    assert len(err.strip().splitlines()) == 1 and "--backend sb3" in err  # one line, naming the fix


def test_a_smoke_run_fills_the_run_folder_and_exports_a_policy_the_tools_take(local_ray, smoke_config, tmp_path):
    from training.evaluate import main as evaluate_main

    out = tmp_path / "run"
    assert selfplay.main(["--config", str(smoke_config), "--backend", "rllib", "--out", str(out), "--no-progress"]) == 0
    for name in ("config.yaml", "commit.txt", "metrics.csv", "learning_curve.png", "results.json", "policy.npz"):
        assert (out / name).is_file(), name
    assert any((out / "tensorboard").iterdir()) and any((out / "checkpoints" / "rllib").iterdir())
    resolved = yaml.safe_load((out / "config.yaml").read_text())
    assert resolved["rllib"]["num_env_runners"] == 0 and resolved["rllib"]["address"] is None
    summary = json.loads((out / "results.json").read_text())
    assert summary["backend"] == "rllib" and summary["timesteps"] >= 600
    assert {r["baseline"] for r in summary["final_eval"]} == {"random", "heuristic"}
    policy = read_policy_file(out / "policy.npz")
    assert policy.meta["game"] == "corruption" and policy.meta["timesteps"] == summary["timesteps"]
    assert evaluate_main(["--game", "corruption", "--policy", str(out / "policy.npz"), "--games", "4"]) == 0


def test_the_exported_policy_computes_the_modules_logits(local_ray):
    import torch
    from ray.rllib.core.columns import Columns

    import corruption_envs
    from corruption_envs.integrations.rllib import env_creator, rl_module_spec

    env = env_creator("corruption", num_players=4)
    spec = rl_module_spec(hidden=(24, 12), activation="relu")
    spec.observation_space, spec.action_space = env.observation_spaces["player_0"], env.action_spaces["player_0"]
    module = spec.build()
    policy = rllib_backend.export_module(module, "relu", {"game": "corruption"})
    game = corruption_envs.env("corruption", num_players=4)
    game.reset(seed=5)
    for _ in range(5):
        seen = game.observe(game.agent_selection)
        batch = {Columns.OBS: {"observations": torch.as_tensor(seen["observation"])[None],
                               "action_mask": torch.as_tensor(seen["action_mask"], dtype=torch.float32)[None]}}
        expected = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].detach().numpy()
        legal = seen["action_mask"] > 0
        np.testing.assert_allclose(policy.logits(seen["observation"])[legal], expected[legal], rtol=1e-4, atol=1e-5)
        game.step(policy.act(seen["observation"], seen["action_mask"]))


def test_the_warm_start_fits_the_learner_and_reaches_the_env_runners(local_ray, smoke_config, tmp_path):
    from ray.tune.registry import register_env

    from training.ppo.imitation import collect

    config = cfg.load(None, smoke_config, ["imitation.games=40", "imitation.teacher=heuristic"])
    register_env(rllib_backend.ENV_NAME, lambda c: rllib_backend.SelfPlayTurnBasedEnv(**c))
    algo = rllib_backend.algo_config(config).build_algo()
    try:
        export = lambda: rllib_backend.export_module(algo.get_module(rllib_backend.LEARNER), "tanh", {})  # noqa: E731
        # positions the fit did not see: other deals than the run's seed
        data = collect(get_game("corruption"), config.env, (3, 5), 10, seed=99, explore=0.0, gamma=1.0, teacher="heuristic")
        obs, masks = data.observations[np.arange(len(data))], data.masks

        def agreement(policy):
            return float(np.mean(policy.act_batch(obs, masks) == data.actions))

        before = export()
        rllib_backend.imitate(algo, config, {}, tmp_path)
        after = export()  # the env runner's copy, the one that samples
        learner = [r.get() for r in algo.learner_group.foreach_learner(
            lambda one: rllib_backend.export_module(one.module[rllib_backend.LEARNER], "tanh", {}))][0]
        for (w, b), (lw, lb) in zip(after.layers, learner.layers):
            np.testing.assert_array_equal(w, lw)
            np.testing.assert_array_equal(b, lb)
        stats = json.loads((tmp_path / "imitation.json").read_text())
        assert stats["games"] == 40 and stats["decisions"] > 1000
        assert agreement(after) > agreement(before) + 0.1
    finally:
        algo.stop()


def test_on_the_engine_the_runners_sample_only_the_learners_seat_with_snapshots_in_their_pool(
        local_ray, smoke_config, tmp_path):
    out = tmp_path / "run"
    sets = ["run.vec_env=batched", "run.n_envs=16", "pool.mix={self: 0.5, heuristic: 0.3, random: 0.2}"]
    args = ["--config", str(smoke_config), "--backend", "rllib", "--out", str(out), "--no-progress"]
    assert selfplay.main(args + [a for s in sets for a in ("--set", s)]) == 0
    summary = json.loads((out / "results.json").read_text())
    # one env step is one learner decision: the opponents play inside the runner's env
    assert summary["timesteps"] >= 600 and summary["env_steps"] == summary["timesteps"]
    policy = read_policy_file(out / "policy.npz")
    assert policy.meta["game"] == "corruption" and policy.meta["timesteps"] == summary["timesteps"]


def test_engine_snapshots_reach_every_sampling_runners_pool(local_ray, smoke_config):
    config = cfg.load(None, smoke_config, ["run.vec_env=batched", "run.n_envs=16"])
    rllib_backend.register(config)
    algo = rllib_backend.algo_config(config).build_algo()
    try:
        name = rllib_backend.learner_id(config)
        policy = rllib_backend.export_learner(algo.get_module(name), config, {"game": "corruption"})
        snapshots = rllib_backend.Snapshots(algo, config)
        snapshots.start(policy)
        snapshots.add(policy, 300)
        sizes = algo.env_runner_group.foreach_env_runner(lambda r: len(r.env.unwrapped.pool.snapshots))
        assert sizes == [2]
    finally:
        algo.stop()


@pytest.mark.parametrize("args, message", [
    (["--iterations", "0"], "--iterations >= 1"),
    (["--game", "chess"], "configs/chess.yaml' does not exist"),
])
def test_the_speed_benchmark_refuses_bad_input_before_starting_ray(args, message, capsys):
    from benchmarks import rllib_speed

    assert rllib_speed.main(args) == 2
    assert message in capsys.readouterr().err


def test_on_the_engine_a_prior_trains_and_exports_with_its_bot_and_weight(local_ray, smoke_config, tmp_path):
    out = tmp_path / "run"
    sets = ["run.vec_env=batched", "run.n_envs=16", "ppo.prior=heuristic", "ppo.prior_weight=4",
            "imitation.games=20", "imitation.teacher=heuristic"]
    args = ["--config", str(smoke_config), "--backend", "rllib", "--out", str(out), "--no-progress"]
    assert selfplay.main(args + [a for s in sets for a in ("--set", s)]) == 0
    policy = read_policy_file(out / "policy.npz")
    assert policy.prior == "heuristic" and policy.prior_weight != 0.0
    assert json.loads((out / "imitation.json").read_text())["games"] == 20  # the critic was fitted first


def test_the_prior_modules_logits_are_the_exported_policys(local_ray):
    import torch
    from ray.rllib.core.columns import Columns

    import corruption_envs
    from corruption_envs.bots import make_agent
    from training.rllib.prior import prior_module_spec

    game = corruption_envs.env("corruption", num_players=4)
    size, actions = game.observation_layout.size, game.num_actions
    import gymnasium as gym
    box = lambda n: gym.spaces.Box(0.0, 1.0, (n,), np.float32)  # noqa: E731
    spec = prior_module_spec((24, 12), "tanh", 3.0)
    spec.observation_space = gym.spaces.Dict({"observations": box(size), "action_mask": box(actions),
                                              "prior": box(actions)})
    spec.action_space = gym.spaces.Discrete(actions)
    module = spec.build()
    policy = rllib_backend.export_module(module, "tanh", {"game": "corruption"}, "heuristic").bind(game, seed=0)
    bot = make_agent("heuristic", game, seed=0)
    game.reset(seed=5)
    for _ in range(5):
        seen = game.observe(game.agent_selection)
        hint = np.zeros(actions, np.float32)
        hint[bot.act(seen["observation"], seen["action_mask"])] = 1.0
        batch = {Columns.OBS: {"observations": torch.as_tensor(seen["observation"])[None],
                               "action_mask": torch.as_tensor(seen["action_mask"], dtype=torch.float32)[None],
                               "prior": torch.as_tensor(hint)[None]}}
        expected = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].detach().numpy()
        legal = seen["action_mask"] > 0
        got = policy.logits_with_prior(seen["observation"], seen["action_mask"])
        np.testing.assert_allclose(got[legal], expected[legal], rtol=1e-4, atol=1e-5)
        game.step(int(np.flatnonzero(legal)[0]))
    with pytest.raises(TypeError, match="does not match"):
        rllib_backend.export_module(module, "tanh", {"game": "corruption"})
