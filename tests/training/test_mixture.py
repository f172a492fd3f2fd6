"""Mixture policy files (PSRO's champion): K actors and their weights in one pickle-free file, one member
drawn per game (per seat in the training pool), older files still loading, a damaged mixture one line;
and the PSRO driver (meta-strategy solver, a tiny run on the toy game)."""
import json

import numpy as np
import pytest

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core import PolicyFileError
from corruption_envs.evaluation import evaluate
from corruption_envs.policy import MixturePolicy, NumpyPolicy, mixture_of, read_policy_file
from training import psro
from training.opponents.pool import OpponentPool, SampledPolicy
from corruption_envs import get_game

META = {"game": "toy", "game_version": 0, "min_players": 2, "max_players": 4, "env_config": {"num_rounds": 2}}


def member(action, size):
    """A one-layer toy policy that prefers `action` (0 or 1) by a wide margin everywhere."""
    head_b = np.zeros(2, np.float32)
    head_b[action] = 50.0
    return NumpyPolicy([(np.zeros((size, 4), np.float32), np.zeros(4, np.float32))],
                       (np.zeros((4, 2), np.float32), head_b), meta=META)


@pytest.fixture
def env():
    return corruption_envs.env("toy", num_players=3)


@pytest.fixture
def members(env):
    size = env.unwrapped.observation_layout.size
    return [member(0, size), member(1, size)]


def test_a_mixture_round_trips_as_version_3_and_a_single_policy_stays_version_2(members, tmp_path):
    path = mixture_of(members, [3.0, 1.0]).save(tmp_path / "m.npz")
    single = members[0].save(tmp_path / "s.npz")
    with np.load(path, allow_pickle=False) as a, np.load(single, allow_pickle=False) as b:
        assert json.loads(str(a["meta"]))["format_version"] == 3 and "m1_w_out" in a.files and "w0" not in a.files
        assert json.loads(str(b["meta"]))["format_version"] == 2 and "mixture" not in json.loads(str(b["meta"]))
    loaded = read_policy_file(path)
    assert isinstance(loaded, MixturePolicy) and loaded.weights.tolist() == [0.75, 0.25]
    for (layers, head), m in zip(loaded.members, members):
        assert np.array_equal(head[1], m.head[1]) and np.array_equal(layers[0][0], m.layers[0][0])
    assert type(read_policy_file(single)) is NumpyPolicy


def test_each_game_plays_one_member_drawn_by_weight_and_a_seed_repeats_the_draws(members, env):
    mix = mixture_of(members, [0.8, 0.2])
    obs, mask = np.zeros(env.unwrapped.observation_layout.size, np.float32), np.ones(2, np.int8)
    plays = []
    mix.seed(5)
    for _ in range(2000):
        mix.start_game()
        first = mix.act(obs, mask)
        assert all(mix.act(obs, mask) == first for _ in range(3))  # one member for the whole game
        plays.append(first)
    assert abs(np.mean(plays) - 0.2) < 0.03
    again = mixture_of(members, [0.8, 0.2])
    draws = []
    for policy in (mix, again):
        policy.seed(5)
        draws.append([(policy.start_game(), policy.member)[1] for _ in range(30)])
    assert draws[0] == draws[1] and 0 in draws[0] and 1 in draws[0]
    never = mixture_of(members, [1.0, 0.0])
    never.seed(0)
    assert {(never.start_game(), never.member)[1] for _ in range(200)} == {0}


def test_a_loaded_mixture_draws_its_first_member_from_the_seed(members, env, tmp_path):
    # make_agent(file, env, seed=s) alone, with no seed() call after it, must repeat its first game
    path = mixture_of(members, [0.5, 0.5]).save(tmp_path / "m.npz")
    for seed in (0, 1, 2):
        assert len({make_agent(str(path), env, seed=seed).member for _ in range(12)}) == 1
    assert len({make_agent(str(path), env, seed=s).member for s in range(12)}) == 2


def test_evaluate_draws_a_member_for_every_game(members, tmp_path):
    """Against a mixture of an always-raise and an always-check member, the games differ in kind."""
    path = mixture_of(members, [0.5, 0.5]).save(tmp_path / "m.npz")
    as_agent = make_agent(str(path), corruption_envs.env("toy", num_players=3), seed=1)
    assert isinstance(as_agent, MixturePolicy)
    seen, draw = [], as_agent.draw_member
    as_agent.draw_member = lambda: (seen.append(draw()), seen[-1])[1]
    evaluate(as_agent, get_game("toy"), "random", 40, 3, seed=0, env_config={"num_rounds": 2})
    assert len(seen) == 1 + 40 and set(seen[1:]) == {0, 1}  # seed() draws once, then one per game


def test_the_training_pool_gives_each_seat_its_own_member(members):
    pool = OpponentPool({"self": 1.0}, max_snapshots=1, pfsp_power=0.0)
    pool.add(mixture_of(members, [0.5, 0.5]), 0)
    rng = np.random.default_rng(0)
    drawn = [pool.snapshots[0].policy.draw(rng) for _ in range(400)]
    assert all(type(p) is NumpyPolicy for p in drawn)
    share = np.mean([p.head[1][1] > 0 for p in drawn])
    assert 0.4 < share < 0.6
    assert members[0].draw(rng) is members[0]  # a single policy is its own draw
    seat = SampledPolicy(drawn[0], rng)
    assert seat.act(np.zeros(drawn[0].obs_size, np.float32), np.ones(2, np.int8)) == int(drawn[0].head[1][1] > 0)


def _damage(arrays, key, value):
    out = dict(arrays)
    if value is None:
        del out[key]
    else:
        out[key] = value
    return out


@pytest.mark.parametrize("change, says", [
    (lambda a, m: _damage(a, "m1_w_out", None), "lacks the weight array 'm1_w_out'"),
    (lambda a, m: _damage(a, "m0_b0", np.zeros(3, np.float32)), "member 0's layer 0 has weights"),
    (lambda a, m: m.update(mixture=[0.0, 0.0]), "mixture weights [0.0, 0.0] must be"),
    (lambda a, m: m.update(mixture=[1.0, -1.0]), "must be 1-64 finite numbers >= 0"),
    (lambda a, m: m.update(mixture="half"), "metadata mixture is 'half', not a list of numbers"),
    (lambda a, m: m.pop("mixture"), "format version 3 without a mixture"),
    (lambda a, m: m.update(format_version=2), "format version 2 with a mixture"),
])
def test_a_damaged_mixture_file_is_one_policy_file_error(members, tmp_path, change, says):
    path = mixture_of(members, [0.5, 0.5]).save(tmp_path / "m.npz")
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    damaged = change(arrays, meta)
    arrays = damaged if isinstance(damaged, dict) and "meta" in damaged else arrays
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(PolicyFileError) as e:
        read_policy_file(tmp_path / "bad.npz")
    assert says in str(e.value) and "\n" not in str(e.value)


def test_a_mixture_holds_single_actors_of_one_depth(members, tmp_path):
    size = members[0].obs_size
    wide = NumpyPolicy([(np.zeros((size, 8), np.float32), np.zeros(8, np.float32))],
                       (np.zeros((8, 2), np.float32), np.zeros(2, np.float32)), meta=META)
    deep = NumpyPolicy([(np.zeros((size, 4), np.float32), np.zeros(4, np.float32))] * 2,
                       (np.zeros((4, 2), np.float32), np.zeros(2, np.float32)), meta=META)
    for bad in (mixture_of(members, [1, 1]), deep):
        with pytest.raises(PolicyFileError, match="single actors of one shape"):
            mixture_of([members[0], bad], [1, 1])
    loaded = read_policy_file(mixture_of([members[0], wide], [1, 1]).save(tmp_path / "w.npz"))
    layers, _ = loaded.members[1]
    assert layers[0][0].shape == (size, 8)  # widths may differ


def test_the_meta_strategy_mixes_a_cycle_and_drops_a_dominated_member():
    cycle = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])  # rock, paper, scissors
    assert np.allclose(psro.meta_strategy(cycle), 1 / 3, atol=0.02)
    dominated = np.array([[0.5, 0.1], [0.9, 0.5]])
    assert psro.meta_strategy(dominated)[1] > 0.99


def test_a_tiny_psro_run_writes_a_mixture_of_every_member(toy_config_file, tmp_path):
    out = tmp_path / "run"
    assert psro.main(["--config", str(toy_config_file), "--out", str(out), "--set", "psro.iterations=2",
                      "--set", "psro.br_steps=128", "--set", "psro.payoff_games=6"]) == 0
    champion = read_policy_file(out / "policy.npz")
    report = json.loads((out / "psro.json").read_text())
    assert isinstance(champion, MixturePolicy) and len(champion.members) == 3
    assert np.allclose(champion.weights, report["iterations"][-1]["meta_strategy"], atol=1e-3)
    assert np.array(report["table"]).shape == (3, 3)
    assert champion.meta["play"] == "sample"
    assert make_agent(str(out / "policy.npz"), corruption_envs.env("toy", num_players=3), seed=0).sample
    summary = json.loads((out / "results.json").read_text())
    assert len(summary["final_eval"]) > 0 and summary["policy_timesteps"] == champion.meta["timesteps"]
    # the run folder every driver leaves (training/run_folder.py): the config, the commit, sample games
    assert (out / "config.yaml").is_file() and len((out / "commit.txt").read_text().strip()) >= 7
    assert len(list((out / "samples").glob("game-*.jsonl"))) == 2


def test_psro_refuses_a_missing_start_file_in_one_line(toy_config_file, tmp_path, capsys):
    assert psro.main(["--config", str(toy_config_file), "--out", str(tmp_path / "r"),
                      "--set", "psro.start=nope.npz"]) == 2
    err = capsys.readouterr().err
    assert "psro.start='nope.npz' is not a policy file" in err and err.count("\n") == 1


def test_a_resumed_psro_run_ends_where_one_uninterrupted_run_does(toy_config_file, tmp_path):
    common = ["--set", "psro.br_steps=128", "--set", "psro.payoff_games=6", "--set", "eval.final_games=4",
              "--set", "eval.count_games=2"]
    whole, split = tmp_path / "whole", tmp_path / "split"
    assert psro.main(["--config", str(toy_config_file), "--out", str(whole), "--set", "psro.iterations=2", *common]) == 0
    assert psro.main(["--config", str(toy_config_file), "--out", str(split), "--set", "psro.iterations=1", *common]) == 0
    assert psro.main(["--resume", str(split), "--set", "psro.iterations=2"]) == 0
    a, b = (read_policy_file(d / "policy.npz") for d in (whole, split))
    assert np.array_equal(a.weights, b.weights) and len(a.members) == len(b.members) == 3
    for (la, ha), (lb, hb) in zip(a.members, b.members):
        assert np.array_equal(ha[0], hb[0]) and all(np.array_equal(x[0], y[0]) for x, y in zip(la, lb))
    assert json.loads((whole / "psro.json").read_text())["table"] == json.loads((split / "psro.json").read_text())["table"]


@pytest.mark.parametrize("extra, says", [
    (["--out", "x"], "drop --config and --out"),
    ([], "no config.yaml and psro.json there"),
])
def test_a_bad_psro_resume_is_one_line(tmp_path, capsys, extra, says):
    assert psro.main(["--resume", str(tmp_path), *extra]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_psro_best_responses_can_start_from_the_start_policy_and_meet_named_bots(toy_config_file, tmp_path, env):
    """psro.br_init=start: the best response's actor is the start's (a near-zero learning rate keeps it
    there); psro.mix seats the named bots beside the mixture."""
    rng = np.random.default_rng(0)
    sizes = [env.unwrapped.observation_layout.size, 16, 16]
    layers = [(rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
              for a, b in zip(sizes, sizes[1:])]
    head = (rng.normal(size=(16, env.unwrapped.num_actions)).astype(np.float32), np.zeros(2, np.float32))
    start = NumpyPolicy(layers, head, meta=META).save(tmp_path / "start.npz")
    common = ["--set", f"psro.start={start}", "--set", "psro.iterations=1", "--set", "psro.br_steps=128",
              "--set", "psro.payoff_games=4", "--set", "eval.final_games=4", "--set", "eval.count_games=4",
              "--set", "ppo.learning_rate=1e-9", "--set", "psro.mix.heuristic=0.5"]
    for init in ("start", "fresh"):
        out = tmp_path / init
        assert psro.main(["--config", str(toy_config_file), "--out", str(out), "--set", f"psro.br_init={init}",
                          *common]) == 0
        br = read_policy_file(out / "members" / "member_01.npz")
        same = all(np.allclose(w, w0, atol=1e-4) for (w, _), (w0, _) in zip(br.layers, layers))
        assert same == (init == "start")
    from training.ppo.exploiter import copies_pool

    field = read_policy_file(start)
    pool = copies_pool(field, {"self": 0.5, "heuristic": 0.5})
    assert pool.kinds == ("self", "heuristic") and pool.snapshots[0].policy is field


def test_psro_can_train_its_start_policy_by_self_play_first(toy_config_file, tmp_path):
    """psro.start=selfplay: one command runs the config's self-play into the run's selfplay/ folder, and
    its policy is member 0 (and the start of each best response with br_init=start)."""
    out = tmp_path / "run"
    assert psro.main(["--config", str(toy_config_file), "--out", str(out), "--set", "psro.start=selfplay",
                      "--set", "psro.br_init=start", "--set", "psro.iterations=1", "--set", "psro.br_steps=128",
                      "--set", "psro.payoff_games=4", "--set", "eval.final_games=4",
                      "--set", "eval.count_games=2"]) == 0
    trained, first = (read_policy_file(p) for p in (out / "selfplay" / "policy.npz", out / "members" / "member_00.npz"))
    assert json.loads((out / "selfplay" / "results.json").read_text())["timesteps"] >= 1024
    assert all(np.array_equal(w, w0) for (w, _), (w0, _) in zip(trained.layers, first.layers))
    assert len(read_policy_file(out / "policy.npz").members) == 2


def test_psro_br_init_start_needs_a_start_file(toy_config_file, tmp_path, capsys):
    assert psro.main(["--config", str(toy_config_file), "--out", str(tmp_path / "r"),
                      "--set", "psro.start=random", "--set", "psro.br_init=start"]) == 2
    assert "psro.br_init='start' needs psro.start to be a policy file" in capsys.readouterr().err
