"""A privileged critic (ppo.critic: privileged): the critic reads every seat's information in training,
the actor, and so the exported policy, the acting seat's observation only."""
import numpy as np
import pytest
import torch

import corruption_envs
from corruption_envs import vector
from corruption_envs.corruption.state import OVER, USED
from corruption_envs.policy import load_policy, read_policy_file
from corruption_envs.corruption.engine import PER_CARD, PLACE_START, PRIVILEGED_SIZE
from training import config as cfg
from training.network.export import export_actor
from training.ppo.imitation import collect
from training.ppo.learner import build_model, make_venv
from training.opponents.pool import OpponentPool
from training.selfplay import main
from corruption_envs import get_game

SMALL = ["run.n_envs=8", "ppo.n_steps=8", "ppo.batch_size=64", "imitation.games=0", "ppo.net_arch=[16, 8]"]


def small_config(*sets):
    return cfg.load("corruption", sets=[*SMALL, *sets])


def model_and_obs(tmp_path, *sets):
    config = small_config(*sets)
    torch.manual_seed(0)
    venv = make_venv(config, OpponentPool({"random": 1.0}, 3, 2.0))
    return config, build_model(config, venv, tmp_path), venv.reset().copy(), venv


def expected_features(state, seat):
    """Where each card of each seat lies, seats counted from `seat`, read from an AEC state."""
    out = np.zeros((7, 10, PER_CARD), np.float32)
    for r in range(state.n):
        q = (seat + r) % state.n
        for k in range(10):
            loc, where = int(state.loc[q, k]), int(state.where[q, k])
            if loc != USED:
                out[r, k, PLACE_START[loc] + (where if loc else 0)] = 1.0
    return out.reshape(-1)


def test_the_option_is_own_by_default_and_refuses_other_values():
    assert cfg.load("corruption").ppo.critic == "own"
    allowed = r"ppo.critic='perfect' is not allowed; choose one of \['own', 'privileged'\]"
    with pytest.raises(cfg.ConfigError, match=allowed):
        cfg.load("corruption", sets=["ppo.critic=perfect"])


def test_the_command_names_a_bad_value_in_one_line_and_exits_2(tmp_path, capsys):
    assert main(["--game", "corruption", "--set", "ppo.critic=both", "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ppo.critic='both' is not allowed; choose one of ['own', 'privileged']" in err
    assert not (tmp_path / "run").exists()


def test_the_rllib_backend_refuses_a_privileged_critic(tmp_path, capsys):
    pytest.importorskip("ray")
    argv = ["--game", "corruption", "--backend", "rllib", "--out", str(tmp_path / "run")]
    for item in ("ppo.critic=privileged", "ppo.prior=none", "imitation.games=0"):
        argv += ["--set", item]
    assert main(argv) == 2
    assert "ppo.critic='privileged' is not supported with --backend rllib" in capsys.readouterr().err


def test_a_privileged_critic_needs_the_batched_engine_of_a_game_that_has_the_features(toy_config_file):
    with pytest.raises(cfg.ConfigError, match="ppo.critic='privileged' with run.vec_env='dummy' is not allowed"):
        cfg.load("corruption", sets=["ppo.critic=privileged", "run.vec_env=dummy"])
    with pytest.raises(cfg.ConfigError, match="ppo.critic='privileged' is not allowed for toy"):
        cfg.load(path=toy_config_file, sets=["ppo.critic=privileged", "run.vec_env=batched"])


def test_the_engine_writes_every_seats_cards_as_the_aec_state_holds_them():
    """Positions of random AEC games, loaded into the engine: the features name each card's place,
    the other seats' hands and face-down cards included, seats counted from the one on turn."""
    engine = vector.make("corruption", num_envs=2, num_players=[3, 5, 7], seed=0)
    engine.reset()
    rng = np.random.default_rng(4)
    out = np.zeros((1, PRIVILEGED_SIZE), np.float32)
    checked = 0
    for n in (3, 5, 7):
        rules = engine.rules[n]
        s = rules.new_game(np.random.default_rng(n))
        while s.phase != OVER:
            engine.load(1, s)
            engine.write_privileged(out, np.array([1]))
            assert np.array_equal(out[0], expected_features(s, rules.current_player(s)))
            checked += 1
            rules.apply(s, int(rng.choice(np.flatnonzero(rules.legal_mask(s)))))
    assert checked > 100


@pytest.mark.parametrize("prior", ["expert", "none"])
def test_the_actor_ignores_the_privileged_part_and_the_critic_reads_it(tmp_path, prior):
    config, model, obs, venv = model_and_obs(tmp_path, "ppo.critic=privileged", f"ppo.prior={prior}")
    size = venv.get_attr("obs_size")[0]
    tail = venv.action_space.n if prior != "none" else 0
    assert obs.shape[1] == size + PRIVILEGED_SIZE + tail
    changed = obs.copy()
    changed[:, size:size + PRIVILEGED_SIZE] = np.random.default_rng(0).random((len(obs), PRIVILEGED_SIZE)) < 0.02
    policy, masks = model.policy, torch.from_numpy(np.stack(venv.env_method("action_masks")))
    with torch.no_grad():
        logits = [policy.get_distribution(torch.from_numpy(o), action_masks=masks).distribution.original_logits
                  for o in (obs, changed)]
        values = [policy.predict_values(torch.from_numpy(o)) for o in (obs, changed)]
        actions = masks.long().argmax(1)
        train = [policy.evaluate_actions(torch.from_numpy(o), actions, action_masks=masks) for o in (obs, changed)]
    assert torch.equal(logits[0], logits[1])
    assert torch.equal(train[0][1], train[1][1])  # the log-probabilities PPO trains on
    assert not torch.allclose(values[0], values[1])
    assert not torch.allclose(train[0][0], train[1][0])
    exported = export_actor(model, "tanh", prior=cfg.bot_option(config, "prior"))
    assert exported.obs_size == size  # the actor's first layer takes the observation alone


def test_the_exported_policy_has_the_format_and_sizes_of_an_own_critics(tmp_path):
    files = {}
    for critic in ("own", "privileged"):
        config, model, _, _ = model_and_obs(tmp_path / critic, f"ppo.critic={critic}")
        files[critic] = tmp_path / f"{critic}.npz"
        export_actor(model, "tanh", {"game": "corruption"}, prior="expert").save(files[critic])
    arrays = {k: np.load(f, allow_pickle=False) for k, f in files.items()}
    assert sorted(arrays["own"].files) == sorted(arrays["privileged"].files)
    for name in arrays["own"].files:
        assert arrays["own"][name].shape == arrays["privileged"][name].shape, name
    own, privileged = (read_policy_file(f) for f in files.values())
    assert (own.obs_size, own.num_actions, own.prior) == (privileged.obs_size, privileged.num_actions,
                                                          privileged.prior)


def test_an_own_critic_reads_the_observation_as_before(tmp_path):
    _, model, obs, venv = model_and_obs(tmp_path, "ppo.critic=own")
    assert obs.shape[1] == venv.get_attr("obs_size")[0] + venv.action_space.n  # the observation, the prior's tail
    assert model.policy.mlp_extractor.actor_inputs is None


def test_the_warm_starts_games_carry_the_privileged_part_after_the_observation():
    plain = collect(get_game("corruption"), {}, (3, 5), 3, seed=2, explore=0.1, gamma=0.99, teacher="heuristic")
    full = collect(get_game("corruption"), {}, (3, 5), 3, seed=2, explore=0.1, gamma=0.99, teacher="heuristic",
                   privileged=True)
    size = plain.observations.width
    assert full.observations.width == size + PRIVILEGED_SIZE
    rows = np.arange(len(plain))
    dense = full.observations[rows]
    assert np.array_equal(dense[:, :size], plain.observations[rows])
    assert dense[:, size:].any(axis=1).all()
    assert np.array_equal(full.actions, plain.actions) and np.array_equal(full.returns, plain.returns)


def test_a_tiny_run_with_a_privileged_critic_trains_and_exports_a_plain_policy(tmp_path):
    out = tmp_path / "run"
    sets = [*SMALL, "imitation.games=20", "ppo.critic=privileged", "pool.exploiter_every=0",
            "eval.baselines=[random]", "eval.reverse=[]", "run.players=[4, 4]"]
    argv = ["--game", "corruption", "--timesteps", "256", "--out", str(out), "--no-progress"]
    for item in sets:
        argv += ["--set", item]
    assert main(argv) == 0
    env = corruption_envs.env("corruption", num_players=4)
    policy = load_policy(str(out / "policy.npz"), env)
    assert policy.obs_size == env.unwrapped.observation_layout.size
    assert (out / "imitation.json").is_file() and (out / "results.json").is_file()
