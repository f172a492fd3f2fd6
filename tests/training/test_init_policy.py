"""Warm start from a policy file (`init.policy`, training/ppo/init_policy.py) on the toy game: the actor is
copied, inputs new at the added player counts start at zero, play at the file's counts is unchanged."""
from pathlib import Path

import numpy as np
import pytest

import corruption_envs
from corruption_envs.policy import NumpyPolicy
from tests.training.conftest import TOY_YAML
from training import config as cfg
from training.network.export import export_actor
from training.selfplay import main, start


def toy_config(tmp_path, *sets):
    path = tmp_path / "toy.yaml"
    path.write_text(TOY_YAML)
    return cfg.load(None, path, list(sets))


def random_policy(players, arch=(16, 16), seed=0, prior=None, prior_weight=0.0):
    """A policy file's actor with nonzero weights everywhere, for `players` = (min, max)."""
    rng = np.random.default_rng(seed)
    obs = corruption_envs.env("toy", num_players=2).unwrapped.observation_layout.size
    sizes = [obs, *arch]
    layers = [(rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
              for a, b in zip(sizes, sizes[1:])]
    head = (rng.normal(size=(arch[-1], 2)).astype(np.float32), rng.normal(size=2).astype(np.float32))
    return NumpyPolicy(layers, head, "tanh", {"game": "toy", "game_version": 0, "min_players": players[0],
                                             "max_players": players[1]}, prior=prior, prior_weight=prior_weight)


def warm_started(tmp_path, file_players, *sets, prior=None, prior_weight=0.0):
    path = tmp_path / "init.npz"
    source = random_policy(file_players, prior=prior, prior_weight=prior_weight)
    source.save(path)
    config = toy_config(tmp_path, f"init.policy={path}", *sets)
    model, venv, _ = start(config, tmp_path / "run", None)
    venv.close()
    return source, export_actor(model, "tanh", prior=prior)


def observations(n, games=30, seed=0):
    env = corruption_envs.env("toy", num_players=n)
    rng = np.random.default_rng(seed)
    seen = []
    for g in range(games):
        env.reset(seed=seed + g)
        while not env.terminations[env.agent_selection]:
            view = env.observe(env.agent_selection)
            seen.append(view["observation"])
            env.step(int(rng.choice(np.flatnonzero(view["action_mask"]))))
    return np.stack(seen)


def test_a_file_for_the_runs_player_counts_is_copied_exactly(tmp_path):
    source, learner = warm_started(tmp_path, (2, 4))
    for (w, b), (w2, b2) in zip([*source.layers, source.head], [*learner.layers, learner.head]):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)


def test_a_file_that_builds_on_the_runs_prior_bot_is_copied_with_its_learnt_weight(tmp_path):
    """A policy file with a prior (ppo.prior's bot) warm-starts a run with that prior: its layers and
    its learnt weight on the bot's move, so the run starts playing exactly as the file."""
    source, learner = warm_started(tmp_path, (2, 4), "ppo.prior=heuristic", prior="heuristic", prior_weight=2.5)
    assert learner.prior == "heuristic" and learner.prior_weight == pytest.approx(2.5)
    for (w, b), (w2, b2) in zip([*source.layers, source.head], [*learner.layers, learner.head]):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)


def test_inputs_new_at_the_added_counts_start_at_zero_and_play_at_the_files_counts_is_unchanged(tmp_path):
    source, learner = warm_started(tmp_path, (2, 3))
    lay = corruption_envs.env("toy", num_players=4).unwrapped.observation_layout
    zero_rows = np.flatnonzero(~learner.layers[0][0].any(axis=1))
    fourth_seat = lay.slices["chips"].start + 3 * 6  # chips row 3: the seat only a 4-player game has
    # at a decision that seat holds 0 or 1 chips (its second raise is the game's last move)
    assert zero_rows.tolist() == [fourth_seat, fourth_seat + 1]
    for n in (2, 3):
        obs = observations(n)
        assert np.allclose(source.logits(obs), learner.logits(obs), atol=1e-6)
    obs = observations(4)
    assert not np.allclose(source.logits(obs), learner.logits(obs), atol=1e-3)


def test_with_imitation_only_the_critic_is_fitted(tmp_path):
    """The warm start's critic fit leaves the copied actor as the file has it."""
    from training.ppo.imitation import warm_start

    path = tmp_path / "init.npz"
    source = random_policy((2, 4))
    source.save(path)
    config = toy_config(tmp_path, f"init.policy={path}", "imitation.games=20")
    model, venv, _ = start(config, tmp_path / "run", None)
    critic = [p.detach().clone() for p in model.policy.value_net.parameters()]
    (tmp_path / "run").mkdir()
    warm_start(model.policy, config, lambda: export_actor(model, "tanh"), tmp_path / "run")
    venv.close()
    learner = export_actor(model, "tanh")
    assert all(np.array_equal(w, w2) for (w, _), (w2, _) in zip(source.layers, learner.layers))
    assert not all(np.array_equal(a.numpy(), b.detach().numpy())
                   for a, b in zip(critic, model.policy.value_net.parameters()))


@pytest.mark.parametrize("sets, named", [
    (["ppo.net_arch=[8,8]"], "net_arch [16, 16] (run: [8, 8])"),
    (["ppo.activation=relu"], "activation 'tanh' (run: 'relu')"),
    (["ppo.prior=heuristic"], "prior (ppo.prior) None (run: 'heuristic')"),
])
def test_a_file_that_does_not_fit_the_run_is_one_line_naming_the_misfit(tmp_path, capsys, sets, named):
    path = tmp_path / "init.npz"
    random_policy((2, 4)).save(path)
    (tmp_path / "toy.yaml").write_text(TOY_YAML)
    out = tmp_path / "run"
    argv = ["--config", str(tmp_path / "toy.yaml"), "--out", str(out), "--no-progress",
            "--set", f"init.policy={path}", *[a for s in sets for a in ("--set", s)]]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "init.policy" in err and named in err
    assert not out.exists()


def test_a_missing_or_pickled_file_is_refused_without_unpickling(tmp_path):
    with pytest.raises(cfg.ConfigError, match="does not exist"):
        start(toy_config(tmp_path, f"init.policy={tmp_path / 'none.npz'}"), tmp_path / "run", None)
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, meta=np.array([{"game": "toy"}], dtype=object))
    with pytest.raises(cfg.ConfigError, match="init.policy"):
        start(toy_config(tmp_path, f"init.policy={pickled}"), tmp_path / "run", None)


@pytest.mark.parametrize("value", ["3", "''"])
def test_init_policy_must_be_null_or_a_path(tmp_path, value):
    with pytest.raises(cfg.ConfigError, match="init.policy"):
        toy_config(tmp_path, f"init.policy={value}")


def test_on_construction_the_surgery_touches_only_the_sixth_and_seventh_seats_and_keeps_3_to_5_play():
    """The committed 3-5-player champion readied for 3-7: exactly the inputs and actions of relative seats
    +5 and +6 (and the 6/7 count flags) change, and seeded 3-5-player games are played move for move
    as before."""
    from corruption_envs.bots import make_agent
    from corruption_envs.policy import read_policy_file
    from training.ppo.init_policy import ready_for_run

    champion = read_policy_file(Path(__file__).parents[2] / "policies/construction/champion-3to5.npz")
    ready, done = ready_for_run(champion, cfg.load("construction", sets=["run.players=[3,7]"]))
    lay = corruption_envs.env("construction", num_players=7).unwrapped.observation_layout
    seat_6_7 = np.zeros(lay.size, bool)
    for name, index in [("num_players", np.s_[3:]), ("first_player", np.s_[5:]), ("known_cards", np.s_[4:]),
                        ("seats", np.s_[5:]), ("contracts", np.s_[:, 6:8]), ("contract_workers", np.s_[:, 5:]),
                        ("last_ballots", np.s_[5:]), ("last_ballots", np.s_[:, 5:7])]:
        lay.view(seat_6_7, name)[index] = True
    assert np.array_equal(~ready.layers[0][0].any(axis=1), seat_6_7 | ~champion.layers[0][0].any(axis=1))
    rules = corruption_envs.env("construction", num_players=7).unwrapped.rules
    new_actions = np.flatnonzero(ready.head[1] != champion.head[1])
    assert done["new_actions"] == len(new_actions) > 0
    assert all(" +5" in rules.action_name(int(a)) or " +6" in rules.action_name(int(a)) for a in new_actions)
    for n in (3, 4, 5):
        env = corruption_envs.env("construction", num_players=n)
        bots = [make_agent("heuristic", env, seed=s) for s in range(n)]
        for g in range(2):
            env.reset(seed=g)
            while not env.terminations[env.agent_selection]:
                view = env.observe(env.agent_selection)
                seat = env.agent_name_mapping[env.agent_selection]
                if seat == g % n:
                    action = champion.act(view["observation"], view["action_mask"])
                    assert ready.act(view["observation"], view["action_mask"]) == action
                else:
                    action = bots[seat].act(view["observation"], view["action_mask"])
                env.step(action)
