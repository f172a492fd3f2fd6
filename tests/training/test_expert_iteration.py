"""Expert iteration (training/expert_iteration): the positions are the policy's own decisions, the
student fitted to soft targets reproduces them with no mass on illegal moves and exports as a policy
file, the driver's keys are checked, and a tiny run on Corruption writes its iterations."""
import json

import numpy as np
import pytest

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.policy import NumpyPolicy, load_policy, read_policy_file
from training.config import ConfigError, load
from training.expert_iteration.__main__ import guide_file, main, member_weights, start_policy
from training.expert_iteration.distill import check_targets, fit_soft, sharpened, student_network
from training.expert_iteration.positions import policy_seats, record_positions
from training.expert_iteration.recording import SearchPlay
from training.network.export import export_policy

TOY_META = {"game": "toy", "game_version": 0, "min_players": 2, "max_players": 4, "play": "sample"}


def random_policy(inputs, actions, seed=0, prior=None, meta=None):
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(0, 0.3, (inputs, 8)).astype(np.float32), np.zeros(8, np.float32))]
    head = (rng.normal(0, 0.3, (8, actions)).astype(np.float32), np.zeros(actions, np.float32))
    return NumpyPolicy(layers, head, "tanh", meta or {}, prior=prior, prior_weight=2.0 if prior else 0.0)


def toy_dataset(n=240, width=6, actions=4, seed=0):
    """Two kinds of position (feature 0 says which), each with its own fixed target distribution over
    its legal moves; action 3 is illegal in the second kind."""
    rng = np.random.default_rng(seed)
    kind = rng.integers(2, size=n)
    obs = rng.random((n, width)).astype(np.float32)
    obs[:, 0] = kind
    masks = np.ones((n, actions), bool)
    masks[kind == 1, 3] = False
    table = np.array([[0.1, 0.2, 0.3, 0.4], [0.6, 0.3, 0.1, 0.0]])
    return obs, masks, table[kind], rng.integers(40, size=n), table


@pytest.mark.parametrize("prior", [None, "heuristic"])
def test_a_student_fitted_to_fixed_targets_reproduces_them_and_exports_alike(prior):
    import torch

    obs, masks, targets, games, table = toy_dataset()
    moves = np.random.default_rng(1).integers(3, size=len(obs)) if prior else None  # always legal moves
    network = student_network(random_policy(obs.shape[1], 4, prior=prior), 3e-2)
    stats = fit_soft(network, obs, masks, targets, games, moves, epochs=300, batch_size=256, learning_rate=3e-2,
                     seed=0)
    assert stats["heldout_kl"] < 0.01 < stats["heldout_kl_before"]  # the minimum of the loss: the targets
    tail = np.eye(4, dtype=np.float32)[moves] if prior else np.zeros((len(obs), 0), np.float32)
    with torch.no_grad():
        probs = network.get_distribution(torch.from_numpy(np.hstack([obs, tail])),
                                         action_masks=torch.from_numpy(masks)).distribution.probs.numpy()
    assert np.abs(probs - targets).max() < 0.05
    assert (probs[~masks] == 0).all()  # illegal moves get no mass
    exported = export_policy(network, "tanh", {}, prior)
    logits = exported.logits(obs)
    if prior:
        logits[np.arange(len(obs)), moves] += exported.prior_weight
    z = np.where(masks, logits, -np.inf)
    mine = np.exp(z - z.max(axis=1, keepdims=True))
    assert np.allclose(mine / mine.sum(axis=1, keepdims=True), probs, atol=1e-5)
    assert exported.prior == prior


def test_the_fit_leaves_an_unfitted_target_worse_off():
    """The soft loss tells distributions apart: fitting to one table moves the student away from another."""
    obs, masks, targets, games, table = toy_dataset()
    other = np.where(masks, 1.0, 0.0) / masks.sum(axis=1, keepdims=True)  # uniform over the legal moves
    network = student_network(random_policy(obs.shape[1], 4), 3e-2)
    fit_soft(network, obs, masks, targets, games, None, epochs=300, batch_size=256, learning_rate=3e-2, seed=0)
    to_targets = fit_soft(network, obs, masks, targets, games, None, epochs=1, batch_size=64, learning_rate=1e-9, seed=0)
    to_uniform = fit_soft(network, obs, masks, other, games, None, epochs=1, batch_size=64, learning_rate=1e-9, seed=0)
    assert to_targets["heldout_kl"] < 0.01 < to_uniform["heldout_kl"]


def test_targets_with_mass_on_an_illegal_move_or_not_summing_to_one_are_refused():
    obs, masks, targets, games, _ = toy_dataset(n=10)
    network = student_network(random_policy(obs.shape[1], 4), 1e-3)
    bad = targets.copy()
    row = int(np.flatnonzero(~masks[:, 3])[0])
    bad[row] = [0.5, 0.0, 0.0, 0.5]
    with pytest.raises(ValueError, match=rf"targets row {row} .*mass 0.5 on illegal ones"):
        fit_soft(network, obs, masks, bad, games, None, 1, 8, 1e-3, 0)
    with pytest.raises(ValueError, match="sum 2"):
        check_targets(targets * 2, masks)
    with pytest.raises(ValueError, match="give prior_moves exactly when"):
        fit_soft(network, obs, masks, targets, games, np.zeros(len(obs), np.int64), 1, 8, 1e-3, 0)


def test_sharpened_targets_lean_to_the_most_visited_move_and_stay_on_the_legal_ones():
    visits = np.array([[0.5, 0.3, 0.2, 0.0], [0.0, 0.0, 1.0, 0.0]])
    assert np.array_equal(sharpened(visits, 1.0), visits)
    sharp = sharpened(visits, 0.5)
    assert np.allclose(sharp[0], np.array([25, 9, 4, 0]) / 38) and np.array_equal(sharp[1], visits[1])
    with pytest.raises(ValueError, match="give a temperature > 0"):
        sharpened(visits, 0.0)


def test_games_alternate_between_the_policy_alone_and_one_opponent_alone():
    assert policy_seats(0, 4).tolist() == [True, False, False, False]
    assert policy_seats(1, 4).tolist() == [False, True, True, True]
    assert policy_seats(2, 4).tolist() == [False, True, False, False]
    assert policy_seats(11, 4).tolist() == [True, False, True, True]


def test_positions_are_the_acting_policy_seats_decisions_copied(tmp_path):
    env = corruption_envs.env("toy", num_players=3)
    u = env.unwrapped
    path = random_policy(u.observation_layout.size, u.num_actions, prior="heuristic", meta=TOY_META).save(
        tmp_path / "toy.npz")
    pos = record_positions(env, path, "heuristic", games=30, keep=0.7, seed=4)
    assert len(pos) > 20 and len(pos.observations) == len(pos.masks) == len(pos.seats) == len(pos.prior_moves)
    rules = u.rules
    for i, state in enumerate(pos.states):
        seat = int(pos.seats[i])
        assert rules.current_player(state) == seat and policy_seats(int(pos.games[i]), 3)[seat]
        # the copy is the state of that decision: it still gives the observation and mask recorded there
        assert np.array_equal(rules.observe(state, seat), pos.observations[i])
        assert np.array_equal(rules.legal_mask(state) != 0, pos.masks[i]) and pos.masks[i].sum() > 1
    assert {0, 1} <= set((pos.games % 2).tolist())  # both kinds of game give positions
    bot = make_agent("heuristic", env, seed=0)
    assert np.array_equal(pos.prior_moves, bot.act_batch(pos.observations[np.arange(len(pos))], pos.masks))
    again = record_positions(env, path, "heuristic", games=30, keep=0.7, seed=4)
    assert np.array_equal(again.games, pos.games) and np.array_equal(again.masks, pos.masks)
    with pytest.raises(ValueError, match="give 0 < keep <= 1"):
        record_positions(env, path, "heuristic", games=3, keep=0.0, seed=4)


def test_a_policy_file_opponent_plays_the_other_seats(tmp_path, monkeypatch):
    """ei.opponent may be a policy file (a best response): it plays every seat the policy does not, and
    the positions stay the policy's own; a file of another game is refused in one line."""
    env = corruption_envs.env("toy", num_players=3)
    u = env.unwrapped
    path = random_policy(u.observation_layout.size, u.num_actions, prior="heuristic", meta=TOY_META).save(
        tmp_path / "toy.npz")
    other = random_policy(u.observation_layout.size, u.num_actions, seed=7, meta=TOY_META).save(tmp_path / "o.npz")
    from training.expert_iteration import positions

    built = []
    monkeypatch.setattr(positions, "make_agent", lambda spec, *a, **k: built.append(spec) or make_agent(spec, *a, **k))
    pos = record_positions(env, path, str(other), games=20, keep=0.7, seed=4)
    assert len(pos) > 10 and all(policy_seats(int(g), 3)[int(s)] for g, s in zip(pos.games, pos.seats))
    assert built.count(str(other)) == 3  # a copy of the opponent file for every seat it may take
    assert load("corruption", sets=["ei.opponent=policies/corruption/selfplay.npz"]).ei.opponent.endswith(".npz")
    with pytest.raises(ConfigError, match="ei.opponent='policies/corruptia/champion.npz' is not allowed"):
        load("corruption", sets=["ei.opponent=policies/corruptia/champion.npz"])


def test_a_mixture_starts_from_its_highest_weight_member():
    champion = read_policy_file("policies/corruption/psro.npz")
    start = start_policy("policies/corruption/psro.npz")
    best = int(np.argmax(champion.weights))
    assert all(np.array_equal(a, b) for a, b in zip(start.layers[0], champion.members[best][0][0]))
    assert start.prior == champion.prior and start.prior_weight == champion.prior_weight
    assert start.meta["play"] == "sample" and "mixture" not in start.meta


def test_the_search_is_guided_by_the_student_or_by_the_start_file_as_asked(tmp_path):
    current = tmp_path / "iteration_01.npz"
    assert guide_file(load("corruption"), current) == current
    assert guide_file(load("corruption", sets=["ei.guide=start"]), current) == "policies/corruption/psro.npz"


@pytest.mark.parametrize("setting, says", [
    ("ei.keep=0", "ei.keep=0 is not allowed"),
    ("ei.iterations=0", "ei.iterations=0 is not allowed"),
    ("ei.simulations=0", "ei.simulations=0 is not allowed"),
    ("ei.rollout=expert", "ei.rollout='expert' is not allowed"),
    ("ei.temperature=0", "ei.temperature=0 is not allowed"),
    ("ei.opponent=nobody", "ei.opponent='nobody' is not allowed"),
    ("ei.learning_rate=0", "ei.learning_rate=0 is not allowed"),
    ("ei.target_temperature=0", "ei.target_temperature=0 is not allowed"),
    ("ei.guide=champion", "ei.guide='champion' is not allowed"),
    ("ei.answers=3", "ei.answers=3 is not allowed; ei.answers must be a list of answer groups"),
    ("ei.answers=[{count: 0}]", r"ei.answers\[0\].count=0 is not allowed"),
    ("ei.answers=[{steps: 10}]", r"ei.answers\[0\] needs count"),
    ("ei.answers=[{count: 1, steps: 0}]", r"ei.answers\[0\].steps=0 is not allowed"),
    ("ei.answers=[{count: 1, mix: {expert: 1.0}}]", r"ei.answers\[0\].mix={'expert': 1.0} is not allowed"),
    ("ei.answers=[{count: 1, mix: {self: 1, nobody: 1}}]", r"ei.answers\[0\].mix="),
    ("ei.answers=[{count: 1}, {count: 1, players: [2, 4]}]", r"ei.answers\[1\].players=\[2, 4\] is not allowed; "
                                                             "corruption takes 3 to 7"),
    ("ei.answers=[{count: 1, size: 2}]", r"unknown config key 'size' in ei.answers\[0\]"),
    ("ei.answers=[{count: 2}, {count: 1, players: [4, 4]}, {count: 3}]",
     r"ei.answers\[0\] and ei.answers\[2\] are alike .* make them one group"),
])
def test_bad_ei_keys_are_one_line(setting, says):
    with pytest.raises(ConfigError, match=says):
        load("corruption", sets=[setting])


def test_a_missing_start_file_is_refused_in_one_line(tmp_path, capsys):
    assert main(["--game", "corruption", "--out", str(tmp_path / "r"), "--set", "ei.start=nope.npz"]) == 2
    err = capsys.readouterr().err
    assert "ei.start='nope.npz' is not a policy file" in err and err.count("\n") == 1


def tiny_run(tmp_path, *sets):
    """A run of a few games and simulations on Corruption, with `sets` on top; its folder."""
    out = tmp_path / "run"
    tiny = ["ei.games=2", "ei.keep=0.3", "ei.simulations=4", "ei.epochs=1", "run.players=[4, 4]", "ei.answers=[]",
            "eval.final_games=4", "eval.baselines=[random]", "eval.reverse=[]", *sets]
    assert main(["--game", "corruption", "--out", str(out), *(a for s in tiny for a in ("--set", s))]) == 0
    return out


def test_a_tiny_run_on_corruption_writes_each_iterations_policy(tmp_path, monkeypatch):
    pytest.importorskip("numba")
    from training.expert_iteration import __main__ as driver

    rollouts = []
    search = driver.search_policy_targets
    monkeypatch.setattr(driver, "search_policy_targets",
                        lambda *a, **k: rollouts.append(a[4]) or search(*a, **k))
    fitted = []  # each iteration's search targets, as the fit received them
    fit = driver.distill
    monkeypatch.setattr(driver, "distill", lambda *a, **k: fitted.append(a[1:4]) or fit(*a, **k))
    out = tiny_run(tmp_path, "ei.iterations=2", "ei.rollout=heuristic", "ei.members=top", "ei.temperature=0.5")
    report = json.loads((out / "ei.json").read_text())
    assert [r["iteration"] for r in report["iterations"]] == [1, 2]
    assert all(r["positions"] > 5 and r["heldout_positions"] > 0 for r in report["iterations"])
    env = corruption_envs.env("corruption", num_players=4)
    first, second = (load_policy(out / f"iteration_0{k}.npz", env) for k in (1, 2))
    assert first.prior == second.prior == "expert" and first.meta["expert_iteration"] == 1
    assert not np.array_equal(first.head[0], read_policy_file(out / "iteration_00.npz").head[0])  # it learnt
    assert json.loads((out / "results.json").read_text())["positions"] == sum(
        r["positions"] for r in report["iterations"])
    assert rollouts and set(rollouts) == {"heuristic"}  # the search plays out as ei.rollout says
    # the final policy plays at ei.temperature; the iterations' students as their start does
    assert read_policy_file(out / "policy.npz").temperature == 0.5 and second.temperature == 1.0
    for k, (observations, masks, visits) in enumerate(fitted, 1):  # each iteration's targets are kept as fitted
        kept = SearchPlay.load(out / f"targets_0{k}.npz", env)
        assert len(kept) == report["iterations"][k - 1]["positions"] and kept.lone_points.size == 0
        assert np.array_equal(kept.observations, observations[np.arange(len(kept))])
        assert np.array_equal(kept.masks, masks) and np.array_equal(kept.visits, visits)


def test_kept_targets_fit_again_without_a_search(tmp_path, monkeypatch):
    pytest.importorskip("numba")
    from training import search_clone

    out = tiny_run(tmp_path, "ei.members=top")
    monkeypatch.setattr(search_clone, "record_in_processes", None)  # --games 0: nothing is played or searched
    refit = tmp_path / "refit.npz"
    assert search_clone.main(["--game", "corruption", "--lone", str(out / "iteration_00.npz"), "--games", "0",
                              "--add", str(out / "targets_01.npz"), "--epochs", "3", "--out", str(refit)]) == 0
    start, student = read_policy_file(out / "iteration_00.npz"), read_policy_file(refit)
    assert student.prior == start.prior and not np.array_equal(student.head[0], start.head[0])


def test_each_member_of_a_mixture_is_its_own_student_and_the_weights_are_solved(tmp_path):
    pytest.importorskip("numba")
    out = tiny_run(tmp_path, "ei.members=each", "ei.weights=solve", "psro.payoff_games=4")
    start = read_policy_file("policies/corruption/psro.npz")
    mixture = read_policy_file(out / "policy.npz")
    report = json.loads((out / "ei.json").read_text())
    assert [r["member"] for r in report["iterations"]] == list(range(len(start.members)))
    assert np.allclose(mixture.weights, report["weights"], atol=1e-4) and np.isclose(mixture.weights.sum(), 1)
    assert np.array(report["table"]).shape == (len(start.members),) * 2
    assert mixture.prior_weight == start.prior_weight  # the members still share the start's
    for j, (layers, head) in enumerate(mixture.members):
        student = read_policy_file(out / f"member_{j}" / "iteration_01.npz")
        assert np.array_equal(head[0], student.head[0]) and student.prior_weight == start.prior_weight
        assert not np.array_equal(head[0], start.members[j][1][0])  # each member learnt
    assert json.loads((out / "results.json").read_text())["timesteps"] == 0  # the fit takes no learner steps


@pytest.mark.parametrize("weights", ["start", "uniform"])
def test_the_students_weights_are_the_starts_or_uniform_as_asked(weights):
    start = read_policy_file("policies/corruption/psro.npz")
    got, table = member_weights(load("corruption", sets=[f"ei.weights={weights}"]), start, ["a", "b", "c", "d"])
    assert table is None
    assert np.allclose(got, start.weights if weights == "start" else np.full(4, 0.25))


def test_groups_of_best_responses_join_the_final_policy_at_equal_shares(tmp_path, monkeypatch):
    """ei.answers: each answer of a group is trained against the policy and the group's earlier answers
    (answered_KK.npz) in seats drawn by the group's mix, at its players, seeded by its number in the group;
    the final mixture weighs the student and every answer alike and plays at ei.temperature."""
    pytest.importorskip("numba")
    from training import psro

    calls = []
    train = psro.train_best_response
    monkeypatch.setattr(psro, "train_best_response", lambda *a: calls.append(a) or train(*a))
    groups = "[{count: 2, steps: 128, mix: {self: 0.5, random: 0.5}}, {count: 1, steps: 128, players: [3, 3]}]"
    out = tiny_run(tmp_path, "ei.members=top", f"ei.answers={groups}", "run.n_envs=16",
                   "ppo.n_steps=8", "ppo.batch_size=64", "ei.temperature=0.5")
    mixture = read_policy_file(out / "policy.npz")
    student = read_policy_file(out / "iteration_01.npz")
    answers = [read_policy_file(out / f"answer_0{k}.npz") for k in (1, 2, 3)]
    answered = [read_policy_file(out / f"answered_0{k}.npz") for k in (1, 2, 3)]
    assert [len(m.members) for m in answered] == [1, 2, 1]  # the second group answers the student alone
    assert np.array_equal(answered[1].members[1][1][0], answers[0].head[0])
    assert np.allclose(mixture.weights, [1 / 4] * 4) and mixture.temperature == 0.5
    for (layers, head), member in zip(mixture.members, [student, *answers]):
        assert np.array_equal(head[0], member.head[0])
    assert not np.array_equal(answers[0].head[0], answers[1].head[0])  # two learners, two seeds
    assert all(a.temperature == 0.5 and a.prior == "expert" for a in answers)
    report = json.loads((out / "ei.json").read_text())
    assert [a["answer"] for a in report["answers"]] == [1, 2, 3]
    assert all(a["learner_steps"] >= 128 for a in report["answers"])
    assert [c[3] for c in calls] == [{"self": 0.5, "random": 0.5}] * 2 + [{"self": 1.0}]
    assert [(c[0].run.seed, c[0].run.players) for c in calls] == [(501, [4, 4]), (502, [4, 4]), (501, [3, 3])]
