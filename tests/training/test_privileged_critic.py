"""A privileged critic (ppo.critic: privileged): the critic reads every seat's information in training,
the actor, and so the exported policy, the acting seat's observation only."""
import numpy as np
import pytest
import torch

import corruption_envs
from corruption_envs import vector
from corruption_envs.construction import engine as construction_engine
from corruption_envs.construction.observer import MONEY_SCALE
from corruption_envs.construction.state import VOTE as CONSTRUCTION_VOTE
from corruption_envs.construction.tables import CARD_COUNTS
from corruption_envs.corruptia import engine as corruptia_engine
from corruption_envs.corruptia.state import VOTE as CORRUPTIA_VOTE
from corruption_envs.corruption.engine import PER_CARD, PLACE_START
from corruption_envs.corruption.state import USED
from corruption_envs.policy import load_policy, read_policy_file
from training import config as cfg
from training.network.export import export_actor
from training.opponents.pool import OpponentPool
from training.ppo.imitation import collect
from training.ppo.learner import build_model, make_venv
from training.selfplay import main
from corruption_envs import get_game

GAMES = ("corruption", "corruptia", "construction")
SMALL = ["run.n_envs=8", "ppo.n_steps=8", "ppo.batch_size=64", "imitation.games=0", "ppo.net_arch=[16, 8]",
         "init.policy=null"]
PRIOR = {"corruption": "expert", "corruptia": "heuristic", "construction": "heuristic"}  # each game's bot


def small_config(*sets, game="corruption"):
    return cfg.load(game, sets=[*SMALL, *sets])


def model_and_obs(tmp_path, *sets, game="corruption"):
    config = small_config(*sets, game=game)
    torch.manual_seed(0)
    venv = make_venv(config, OpponentPool({"random": 1.0}, 3, 2.0))
    return config, build_model(config, venv, tmp_path), venv.reset().copy(), venv


def corruption_features(state, seat):
    """Where each card of each seat lies, seats counted from `seat`, read from an AEC state."""
    out = np.zeros((7, 10, PER_CARD), np.float32)
    for r in range(state.n):
        q = (seat + r) % state.n
        for k in range(10):
            loc, where = int(state.loc[q, k]), int(state.where[q, k])
            if loc != USED:
                out[r, k, PLACE_START[loc] + (where if loc else 0)] = 1.0
    return out.reshape(-1)


def corruptia_features(state, seat):
    """Each seat's hand, the box, the ballots of a running vote, seats counted from `seat`."""
    lay = corruptia_engine.PRIVILEGED
    out = np.zeros(lay.size, np.float32)
    hands, votes = lay.view(out, "hands"), lay.view(out, "votes")
    for r in range(state.n):
        q = (seat + r) % state.n
        hands[r, state.hands[q]] = 1.0
        if state.phase == CORRUPTIA_VOTE and state.votes[q] >= 0:
            votes[r, state.votes[q]] = 1.0
    lay.view(out, "box")[state.box] = 1.0
    return out


def construction_features(state, seat):
    """Each seat's cards and cash, the ballots of a running election, seats counted from `seat`."""
    lay, n = construction_engine.PRIVILEGED, state.n
    out = np.zeros(lay.size, np.float32)
    hands, cash, votes = (lay.view(out, name) for name in ("hands", "cash", "votes"))
    for r in range(n):
        q = (seat + r) % n
        hands[r] = np.array(state.hand[q]) / np.array(CARD_COUNTS)
        cash[r] = min(state.cash[q] / MONEY_SCALE, 1.0)
        v = state.votes[q]
        if state.phase == CONSTRUCTION_VOTE and v >= 0:
            votes[r, 7 if v == n else (v - seat) % n] = 1.0
    return out


EXPECTED = {"corruption": corruption_features, "corruptia": corruptia_features,
            "construction": construction_features}


def seat_blocks(game, out):
    """The features of each seat (rows, seats, features per seat), one array per piece laid out by seat."""
    if game == "corruption":
        return [out.reshape(len(out), 7, -1)]
    lay = {"corruptia": corruptia_engine, "construction": construction_engine}[game].PRIVILEGED
    return [out[:, lay[name]].reshape(len(out), *lay.shapes[name]).reshape(len(out), lay.shapes[name][0], -1)
            for name in lay if name != "box"]


def play_randomly(rules, seed):
    """Every decision of a random AEC game: (state, seat to act) until the game is over."""
    rng = np.random.default_rng(seed)
    s = rules.new_game(np.random.default_rng(seed))
    while not rules.is_over(s):
        yield s, rules.current_player(s)
        rules.apply(s, int(rng.choice(np.flatnonzero(rules.legal_mask(s)))))


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


@pytest.mark.parametrize("game", GAMES)
def test_the_config_accepts_a_privileged_critic_for_every_game(game):
    assert cfg.load(game, sets=["ppo.critic=privileged"]).ppo.critic == "privileged"
    assert vector.engine_class(game).privileged_size > 0


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_writes_every_seats_hidden_information_as_the_aec_state_holds_it(game):
    """Positions of random AEC games, loaded into the engine: the features name every seat's hidden
    holdings, the other seats' included, seats counted from the one on turn."""
    rules_class = vector.engine_class(game).rules_class
    counts = (rules_class.min_players, rules_class.max_players)
    engine = vector.make(game, num_envs=2, num_players=list(counts), seed=0)
    engine.reset()
    out = np.zeros((1, engine.privileged_size), np.float32)
    checked = 0
    for n in counts:
        for s, seat in play_randomly(engine.rules[n], seed=n):
            engine.load(1, s)
            engine.write_privileged(out, np.array([1]))
            assert np.array_equal(out[0], EXPECTED[game](s, seat))
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("game", GAMES)
def test_the_features_change_with_what_the_seat_on_turn_cannot_see(game):
    """A position and the acting seat's redraw of all it cannot see: the same observation, other
    privileged features in most positions (the hidden part differs), equal ones where nothing is hidden."""
    n = 4
    engine = vector.make(game, num_envs=2, num_players=n, seed=0)
    engine.reset()
    rules = engine.rules[n]
    out = np.zeros((2, engine.privileged_size), np.float32)
    positions = changed = 0
    for k, (s, seat) in enumerate(play_randomly(rules, seed=1)):
        redrawn = rules.resample_hidden(s, seat, np.random.default_rng(k))
        engine.load(0, s)
        engine.load(1, redrawn)
        assert np.array_equal(engine.batch.observation[0], engine.batch.observation[1])
        engine.write_privileged(out, np.arange(2))
        hidden_differs = not np.array_equal(EXPECTED[game](s, seat), EXPECTED[game](redrawn, seat))
        assert hidden_differs == (not np.array_equal(out[0], out[1]))
        positions += 1
        changed += hidden_differs
    assert changed > positions // 2


@pytest.mark.parametrize("game", GAMES)
def test_seats_beyond_the_player_count_leave_their_features_zero(game):
    engine = vector.make(game, num_envs=8, num_players=3, seed=0)
    batch = engine.reset()
    rng = np.random.default_rng(0)
    out = np.zeros((8, engine.privileged_size), np.float32)
    played = np.zeros(7, bool)  # any feature of the seat k places after the one on turn, at any step
    for _ in range(60):
        engine.write_privileged(out, np.arange(8))
        for block in seat_blocks(game, out):
            assert not block[:, 3:].any()
            played[:3] |= block[:, :3].any(axis=(0, 2))
        batch = engine.step((rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1))
    assert played[:3].all()


@pytest.mark.parametrize("game", GAMES)
def test_the_training_input_is_the_observation_then_the_features_then_the_priors_tail(game):
    """The same games with an own and a privileged critic: the features sit between the observation and
    the prior's one-hot, both as before, and are the engine's."""
    inputs = {}
    for critic in ("own", "privileged"):
        venv = make_venv(small_config(f"ppo.critic={critic}", f"ppo.prior={PRIOR[game]}", game=game),
                         OpponentPool({"random": 1.0}, 3, 2.0))
        inputs[critic] = venv.reset().copy()
    inner = venv.venv
    size, extra = inner.obs_size, inner.engine.privileged_size
    own, full = inputs["own"], inputs["privileged"]
    assert full.shape[1] == own.shape[1] + extra
    assert np.array_equal(full[:, :size], own[:, :size])
    assert np.array_equal(full[:, size + extra:], own[:, size:])
    features = np.zeros((len(full), extra), np.float32)
    inner.engine.write_privileged(features, np.arange(len(full)))
    assert np.array_equal(full[:, size:size + extra], features) and features.any(axis=1).all()


@pytest.mark.parametrize("game, prior", [("corruption", "expert"), ("corruption", "none"),
                                         ("corruptia", "heuristic"), ("construction", "none")])
def test_the_actor_ignores_the_privileged_part_and_the_critic_reads_it(tmp_path, game, prior):
    config, model, obs, venv = model_and_obs(tmp_path, "ppo.critic=privileged", f"ppo.prior={prior}", game=game)
    size, extra = venv.get_attr("obs_size")[0], vector.engine_class(game).privileged_size
    tail = venv.action_space.n if prior != "none" else 0
    assert obs.shape[1] == size + extra + tail
    changed = obs.copy()
    changed[:, size:size + extra] = np.random.default_rng(0).random((len(obs), extra)) < 0.02
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
        _, model, _, _ = model_and_obs(tmp_path / critic, f"ppo.critic={critic}")
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


@pytest.mark.parametrize("game", GAMES)
def test_the_warm_starts_games_carry_the_privileged_part_after_the_observation(game):
    plain = collect(get_game(game), {}, (3, 5), 3, seed=2, explore=0.1, gamma=0.99, teacher="heuristic")
    full = collect(get_game(game), {}, (3, 5), 3, seed=2, explore=0.1, gamma=0.99, teacher="heuristic",
                   privileged=True)
    size = plain.observations.width
    assert full.observations.width == size + vector.engine_class(game).privileged_size
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
