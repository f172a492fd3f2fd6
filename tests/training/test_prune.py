"""training.prune: a mixture loses its members below a minimum weight, the rest renormalised, every other
metadata field kept; the pruned file reads back and plays legal moves; bad input is one clear error with
nothing written."""
import numpy as np
import pytest

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core import PolicyFileError
from corruption_envs.policy import MixturePolicy, NumpyPolicy, mixture_of, read_policy_file
from training.prune import main, prune_mixture

GAME, PLAYERS = "construction", 4
WEIGHTS = [0.5, 0.004, 0.45, 0.046]  # member 1 is under 1%


def member(rng, obs_size, num_actions):
    """A small random actor (obs -> 8 -> actions, tanh), so every member plays differently."""
    return NumpyPolicy([(rng.normal(size=(obs_size, 8)).astype(np.float32), rng.normal(size=8).astype(np.float32))],
                       (rng.normal(size=(8, num_actions)).astype(np.float32),
                        rng.normal(size=num_actions).astype(np.float32)),
                       meta={"game": GAME, "game_version": 0, "min_players": 3, "max_players": 7,
                             "play": "sample", "temperature": 1.0, "timesteps": 1234, "commit": "abc"})


@pytest.fixture
def mixture():
    env = corruption_envs.env(GAME, num_players=PLAYERS).unwrapped
    rng = np.random.default_rng(0)
    members = [member(rng, env.observation_layout.size, env.num_actions) for _ in WEIGHTS]
    return mixture_of(members, WEIGHTS)


def test_members_below_the_minimum_are_dropped_and_the_rest_renormalised(mixture):
    pruned = prune_mixture(mixture, 0.01)
    assert len(pruned.members) == 3
    kept = [0, 2, 3]
    expected = np.array([WEIGHTS[j] for j in kept]) / sum(WEIGHTS[j] for j in kept)
    np.testing.assert_allclose(pruned.weights, expected)
    np.testing.assert_allclose(pruned.meta["mixture"], expected)
    for (layers, head), j in zip(pruned.members, kept):
        (w, b), = layers
        assert np.array_equal(w, mixture.members[j][0][0][0]) and np.array_equal(head[0], mixture.members[j][1][0])
    assert pruned.meta["pruned"] == {"min_weight": 0.01, "kept": kept, "weights_before": mixture.weights.tolist()}
    assert len(prune_mixture(mixture, 0.0).members) == 4
    assert len(prune_mixture(mixture, 0.05).members) == 2


def test_the_pruned_file_reads_back_keeps_its_metadata_and_plays_legal_moves(mixture, tmp_path):
    path = prune_mixture(mixture, 0.01).save(tmp_path / "pruned.npz")
    loaded = read_policy_file(path)
    assert isinstance(loaded, MixturePolicy) and len(loaded.members) == 3
    np.testing.assert_allclose(loaded.weights, np.array([0.5, 0.45, 0.046]) / 0.996)
    for key, value in mixture.meta.items():
        if key != "mixture":
            assert loaded.meta[key] == value, key
    assert loaded.meta["pruned"]["kept"] == [0, 2, 3]

    env = corruption_envs.env(GAME, num_players=PLAYERS)
    agent = make_agent(str(path), env, seed=3)
    assert agent.sample  # the play mode comes from the kept meta
    env.reset(seed=11)
    moves = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = agent.act(observation["observation"], observation["action_mask"])
        assert observation["action_mask"][action] == 1
        env.step(action)
        moves += 1
    assert moves > 10 and not env.agents  # a whole game played to its end


def test_a_single_actor_is_not_a_mixture(mixture):
    single = mixture.draw(np.random.default_rng(0))
    with pytest.raises(PolicyFileError, match="not a mixture"):
        prune_mixture(single)


@pytest.mark.parametrize("min_weight", [-0.01, 1.5, float("nan"), float("inf"), True, "0.01"])
def test_a_minimum_weight_out_of_range_is_named_and_the_policy_unchanged(mixture, min_weight):
    with pytest.raises(ValueError, match="out of range"):
        prune_mixture(mixture, min_weight)
    assert len(mixture.members) == 4 and mixture.weights.tolist() == pytest.approx(WEIGHTS)


def test_pruning_every_member_is_refused(mixture):
    with pytest.raises(ValueError, match="prunes every member.*largest weight is 0.5"):
        prune_mixture(mixture, 0.6)
    assert len(mixture.members) == 4 and "pruned" not in mixture.meta


def test_the_cli_prints_kept_members_and_sizes_and_writes_nothing_on_bad_input(mixture, tmp_path, capsys):
    source = mixture.save(tmp_path / "mix.npz")
    out = tmp_path / "pruned.npz"
    assert main([str(source), "--min-weight", "0.01", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "kept 3 of 4 members" in printed and "member 1:" not in printed
    assert "member 2: weight 0.4500 -> 0.4518" in printed and "dropped [1]: 0.0040" in printed
    assert f"{out.stat().st_size:,} bytes (was {source.stat().st_size:,})" in printed
    assert out.stat().st_size < source.stat().st_size

    single = mixture.draw(np.random.default_rng(0)).save(tmp_path / "single.npz")
    for bad, message in (([str(source), "--min-weight", "2"], "out of range"),
                         ([str(source), "--min-weight", "0.9"], "prunes every member"),
                         ([str(single)], "not a mixture"),
                         ([str(tmp_path / "absent.npz")], "does not exist")):
        target = tmp_path / "never.npz"
        assert main([*bad, "--out", str(target)]) == 2
        assert message in capsys.readouterr().err and not target.exists()
