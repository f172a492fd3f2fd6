"""A tiny full run of `python -m training.selfplay` on the toy game: run folder, determinism, resume."""
import csv
import io
import json

import numpy as np
import pytest
import yaml

from corruption_envs.policy import load_policy, read_policy_file
from tests.training.toygame import raw_env
from training.selfplay import main


@pytest.fixture(scope="module")
def run(tmp_path_factory, toy_yaml_path):
    out = tmp_path_factory.mktemp("runs") / "a"
    assert main(["--config", str(toy_yaml_path), "--out", str(out), "--no-progress"]) == 0
    return out


@pytest.fixture(scope="module")
def toy_yaml_path(tmp_path_factory):
    from tests.training.conftest import TOY_YAML

    path = tmp_path_factory.mktemp("cfg") / "toy.yaml"
    path.write_text(TOY_YAML)
    return path


def pool_index(run):
    return json.loads((run / "checkpoints" / "latest.json").read_text())["pool"]


def test_run_folder_holds_everything_the_brief_lists(run):
    for name in ("config.yaml", "commit.txt", "metrics.csv", "policy.npz", "results.json",
                 "learning_curve.png", "checkpoints/latest.json", "pool/snapshot_0000.npz"):
        assert (run / name).exists(), name
    assert not list(run.rglob("*.zip")) and not list(run.rglob("*.tmp*"))  # no SB3 pickle, no leftovers
    manifest = json.loads((run / "checkpoints" / "latest.json").read_text())
    assert [p.name for p in (run / "checkpoints").glob("*.pt")] == [manifest["model"]]  # older ones pruned
    assert any((run / "tensorboard").rglob("events.out.tfevents.*"))
    config = yaml.safe_load((run / "config.yaml").read_text())
    assert config["game"] == "toy" and config["ppo"]["net_arch"] == [16, 16]  # resolved, defaults filled
    assert len((run / "commit.txt").read_text().strip()) >= 7


def test_the_run_writes_sample_games_of_its_final_policy_that_replay(run):
    from corruption_envs import play

    names = sorted(p.name for p in (run / "samples").iterdir())
    assert names == ["game-0.html", "game-0.jsonl", "game-1.html", "game-1.jsonl"]
    header, actions, end = play.read_log(str(run / "samples" / "game-0.jsonl"))
    assert header["seats"]["player_0"] == "policy.npz" and actions and end is not None
    out = io.StringIO()
    assert play.main(["--replay", str(run / "samples" / "game-0.jsonl")], play.Console(io.StringIO(), out)) == 0
    assert "differs" not in out.getvalue()
    assert "player_0: " in (run / "samples" / "game-0.html").read_text()


def test_metrics_log_each_baseline_with_its_interval(run):
    rows = list(csv.DictReader(open(run / "metrics.csv")))
    assert {r["baseline"] for r in rows} == {"random", "heuristic"}
    steps = sorted({int(r["timesteps"]) for r in rows})
    assert len(steps) >= 2  # the periodic evaluation(s) and the final one
    for r in rows:
        assert float(r["ci_low"]) <= float(r["win_rate"]) <= float(r["ci_high"])
    results = json.loads((run / "results.json").read_text())
    assert results["timesteps"] >= 1024


def test_final_evaluation_measures_every_trained_player_count_and_both_directions(run):
    """run.players [2, 4]: final_games at eval.num_players (3), count_games at 2 and 4, each baseline;
    then at 3 players one of each baseline against copies of the policy."""
    final = json.loads((run / "results.json").read_text())["final_eval"]
    assert [(e["num_players"], e["baseline"], e["games"], e["reverse"]) for e in final] == [
        (2, "random", 10, False), (2, "heuristic", 10, False), (3, "random", 40, False),
        (3, "heuristic", 40, False), (4, "random", 10, False), (4, "heuristic", 10, False),
        (3, "random", 40, True), (3, "heuristic", 40, True)]
    assert all(e["ci_low"] <= e["win_rate"] <= e["ci_high"] for e in final)


def test_a_sampling_run_exports_its_play_mode_and_evaluates_reproducibly(toy_yaml_path, tmp_path):
    runs = [tmp_path / "s1", tmp_path / "s2"]
    for out in runs:
        assert main(["--config", str(toy_yaml_path), "--out", str(out), "--no-progress", "--set", "eval.play=sample",
                     "--set", "run.timesteps=256", "--set", "eval.temperature=3"]) == 0
    exported = load_policy(runs[0] / "policy.npz", raw_env(num_players=3))
    assert exported.sample is True and exported.temperature == 3.0
    # the temperature is the exported policy's: the pool's snapshots sampled at 1 during training
    assert {read_policy_file(f).temperature for f in (runs[0] / "pool").glob("*.npz")} == {1.0}
    first, second = (json.loads((r / "results.json").read_text())["final_eval"] for r in runs)
    assert first == second


def test_final_policy_loads_without_torch_for_the_trained_player_counts(run):
    policy = load_policy(run / "policy.npz", raw_env(num_players=3))
    assert policy.meta["min_players"] == 2 and policy.meta["max_players"] == 4
    env = raw_env(num_players=4)
    env.reset(seed=0)
    seen = env.observe(env.agent_selection)
    assert policy.act(seen["observation"], seen["action_mask"]) in (0, 1)


def test_same_seed_and_config_give_the_same_policy(run, toy_yaml_path, tmp_path):
    out = tmp_path / "b"
    assert main(["--config", str(toy_yaml_path), "--out", str(out), "--no-progress"]) == 0
    with np.load(run / "policy.npz") as a, np.load(out / "policy.npz") as b:
        for k in a.files:
            if k != "meta":
                assert np.array_equal(a[k], b[k]), k


def test_resume_continues_from_the_checkpoint(run, tmp_path):
    import shutil

    out = tmp_path / "resumed"
    shutil.copytree(run, out)
    assert main(["--resume", str(out), "--timesteps", "1536", "--no-progress"]) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["timesteps"] >= 1536
    assert len((out / "commit.txt").read_text().split()) == 2  # one line per (re)start
    assert pool_index(out)["next_id"] > 4


def test_resume_reads_adam_state_kept_in_the_weights_shape_as_older_checkpoints_did(run, tmp_path):
    """Checkpoints written while the sparse first layers' parameter was W (outputs x inputs) hold its
    Adam moments in that shape: a resume transposes them and continues exactly as from today's."""
    import shutil

    import torch

    ends = []
    for name, older in (("today", False), ("older", True)):
        out = tmp_path / name
        shutil.copytree(run, out)
        if older:
            path = out / "checkpoints" / json.loads((out / "checkpoints" / "latest.json").read_text())["model"]
            tensors = torch.load(path, weights_only=True)
            first = tensors["policy"]["mlp_extractor.policy_net.0.weight"].shape  # (outputs, inputs)
            moved = 0
            for entries in tensors["optimizer"]["state"].values():
                for k, t in entries.items():
                    if t.shape == first[::-1]:  # a first layer's moment, in W.T's shape today
                        entries[k], moved = t.t(), moved + 1
            assert moved == 4  # exp_avg and exp_avg_sq of the actor's and the critic's first layers
            torch.save(tensors, path)
        assert main(["--resume", str(out), "--timesteps", "1536", "--no-progress"]) == 0
        with np.load(out / "policy.npz") as f:
            ends.append({k: f[k] for k in f.files if k != "meta"})
    assert all(np.array_equal(ends[0][k], ends[1][k]) for k in ends[0])


def test_out_folder_that_is_not_empty_is_refused(run, toy_yaml_path, capsys):
    assert main(["--config", str(toy_yaml_path), "--out", str(run)]) == 2
    assert "exists and is not empty" in capsys.readouterr().err


def test_subprocess_envs_keep_their_pool_replicas_in_sync(toy_yaml_path, tmp_path):
    out = tmp_path / "sub"
    assert main(["--config", str(toy_yaml_path), "--out", str(out), "--no-progress",
                 "--set", "run.vec_env=subproc", "--set", "run.timesteps=512"]) == 0
    pool = pool_index(out)
    assert len(pool["snapshots"]) == 3  # initial + two snapshot_every=256 (max_snapshots=3)
    assert sum(s["games"] for s in pool["snapshots"]) > 3 * 2  # results flowed back from the workers


def test_evaluate_cli_reports_each_baseline_both_ways_with_its_interval(run, capsys):
    from training.evaluate import main as evaluate_main

    assert evaluate_main(["--game", "toy", "--policy", str(run / "policy.npz"), "--games", "12",
                          "--players", "3"]) == 0
    rows = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [(r["baseline"], r["games"], r["num_players"], r["reverse"]) for r in rows] == [
        ("random", 12, 3, False), ("random", 12, 3, True), ("heuristic", 12, 3, False), ("heuristic", 12, 3, True)]
    assert all(r["ci_low"] <= r["win_rate"] <= r["ci_high"] for r in rows)


def test_selection_keeps_the_best_scoring_candidate(toy_yaml_path, tmp_path):
    out = tmp_path / "picked"
    assert main(["--config", str(toy_yaml_path), "--out", str(out), "--no-progress",
                 "--set", "eval.select_from=2", "--set", "eval.select_games=30"]) == 0
    results = json.loads((out / "results.json").read_text())
    rows = results["selection"]
    assert len(rows) == 3  # the final policy and the two latest snapshots before it
    picked = [r for r in rows if r["picked"]]
    assert len(picked) == 1 and picked[0]["score"] == max(r["score"] for r in rows)
    for r in rows:
        assert r["score"] == pytest.approx((r["win_rate_vs_random"] + r["win_rate_vs_heuristic"]) / 2)
    policy = load_policy(out / "policy.npz", raw_env(num_players=3))
    assert policy.meta["timesteps"] == picked[0]["timesteps"] == results["policy_timesteps"]


def test_selection_counts_one_bot_against_copies_when_eval_reverse_names_it(toy_yaml_path, tmp_path):
    out = tmp_path / "picked"
    assert main(["--config", str(toy_yaml_path), "--out", str(out), "--no-progress", "--set", "eval.select_from=2",
                 "--set", "eval.select_games=30", "--set", "eval.reverse=[heuristic]"]) == 0
    rows = json.loads((out / "results.json").read_text())["selection"]
    picked = [r for r in rows if r["picked"]]
    assert len(picked) == 1 and picked[0]["score"] == max(r["score"] for r in rows)
    for r in rows:
        assert 0 <= r["one_heuristic_vs_copies"] <= 1
        assert r["score"] == pytest.approx(
            (r["win_rate_vs_random"] + r["win_rate_vs_heuristic"] + 1 - r["one_heuristic_vs_copies"]) / 3)


def test_a_run_with_a_prior_exports_it_and_resumes(toy_yaml_path, tmp_path):
    """subproc workers hold pool snapshots that carry the prior; resume rebuilds the PriorPolicy."""
    out = tmp_path / "prior"
    common = ["--no-progress", "--set", "ppo.prior=heuristic", "--set", "ppo.prior_weight=1.5"]
    assert main(["--config", str(toy_yaml_path), "--out", str(out), "--set", "run.timesteps=512",
                 "--set", "run.vec_env=subproc", *common]) == 0
    policy = load_policy(out / "policy.npz", raw_env(num_players=3))
    assert policy.prior == "heuristic" and policy.prior_bot is not None
    assert main(["--resume", str(out), "--timesteps", "1024", "--no-progress"]) == 0
    resumed = load_policy(out / "policy.npz", raw_env(num_players=3))
    assert json.loads((out / "results.json").read_text())["timesteps"] >= 1024
    assert resumed.prior_weight != 1.5  # trained on, from the checkpoint's weight


def test_exploiters_train_against_the_learner_and_join_the_pool(toy_yaml_path, tmp_path):
    out = tmp_path / "psro"
    assert main(["--config", str(toy_yaml_path), "--out", str(out), "--no-progress",
                 "--set", "pool.exploiter_every=512", "--set", "pool.exploiter_steps=128"]) == 0
    exploiters = json.loads((out / "results.json").read_text())["exploiters"]
    assert [e["at_step"] for e in exploiters] == [512, 1024]
    assert all(e["learner_steps"] >= 128 for e in exploiters)
    # the initial snapshot, one every 256 steps up to 1024, and the two exploiters
    assert pool_index(out)["next_id"] == 1 + 4 + 2
