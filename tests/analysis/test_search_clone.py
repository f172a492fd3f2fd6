"""Search clones: a search bot's recorded moves, checked on reading, fitted into a sampling policy file
that a training pool and an evaluation can seat by its path."""
import json

import numpy as np
import pytest

import corruption_envs
from corruption_envs.bots import make_agent
from training import config as cfg
from analysis import search_clone as sc
from training.pool import OpponentPool
from training.wrapper import SelfPlayEnv

GAME = "construction"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """Two seeded games: a cheap search in three seats against a random bot."""
    out = tmp_path_factory.mktemp("clone") / "data.npz"
    summary = sc.collect(GAME, "ismcts:2", "random", games=2, seed=3, out=out)
    return out, summary


def test_collect_records_only_the_search_seats_and_every_move_is_legal(recorded):
    out, summary = recorded
    probe = corruption_envs.env(GAME).unwrapped
    data = sc.load_data([out], probe.observation_layout.size, probe.num_actions)
    assert len(data) == summary["decisions"] > 0
    assert data.masks[np.arange(len(data)), data.actions].all()
    # the random seat's decisions are left out: the search seats play about 3/4 of a game's moves
    per_game = []
    for g in range(2):
        _, _, actions, result = sc.play_one(GAME, "ismcts:2", "random", 3, g, 4)
        per_game.append(len(actions))
        assert result["against_seat"] == g % 4
    assert sum(per_game) == len(data)  # the same seeded games again: the same decisions
    assert json.loads(out.with_suffix(".json").read_text())["search"] == "ismcts:2"


def untimed(result: dict) -> dict:
    """A game record without its CPU timings, which differ from run to run."""
    return {k: v for k, v in result.items() if k != "cpu_ms_per_move"}


def test_a_recorded_game_is_the_same_game_when_played_again():
    first = sc.play_one(GAME, "ismcts:2", "heuristic", 5, 1, 4)
    again = sc.play_one(GAME, "ismcts:2", "heuristic", 5, 1, 4)
    assert first[2] == again[2] and untimed(first[3]) == untimed(again[3])
    assert all(np.array_equal(a, b) for a, b in zip(first[0], again[0]))


@pytest.mark.parametrize("change, says", [
    (lambda d: d.pop("masks"), r"no \['masks'\] arrays"),
    (lambda d: d.update(observations=d["observations"][:, :10]), r"arrays shaped .* this game needs"),
    (lambda d: d.update(actions=np.full_like(d["actions"], 150)), r"a recorded move is outside its mask"),
])
def test_a_damaged_data_file_is_refused_naming_the_fault(recorded, tmp_path, change, says):
    out, _ = recorded
    arrays = dict(np.load(out))
    change(arrays)
    bad = tmp_path / "bad.npz"
    np.savez(bad, **arrays)
    probe = corruption_envs.env(GAME).unwrapped
    with pytest.raises(ValueError, match=says):
        sc.load_data([bad], probe.observation_layout.size, probe.num_actions)


def test_a_pickled_data_file_is_refused(tmp_path):
    bad = tmp_path / "pickled.npz"
    np.savez(bad, observations=np.array([object()], dtype=object))
    with pytest.raises(ValueError, match="not a search-clone data file"):
        sc.load_data([bad], 650, 151)


def test_the_clone_learns_its_teachers_moves_and_samples_them(tmp_path):
    """Fitted to a deterministic bot's moves, the clone agrees with it far above chance, and its file
    loads as a sampling bot wherever a policy file is taken."""
    from training.imitation import collect

    data = collect(GAME, {}, (4, 4), games=30, seed=0, explore=0.0, gamma=1.0, teacher="heuristic")
    policy, stats = sc.fit_clone(GAME, data, "heuristic", epochs=6)
    chance = float(np.mean(1.0 / data.masks.sum(axis=1)))  # a uniform pick among the legal moves
    assert chance < 0.3 and stats["heldout_accuracy"] > 0.5
    path = policy.save(tmp_path / "clone.npz")
    env = corruption_envs.env(GAME, num_players=4)
    bot = make_agent(str(path), env, seed=0)
    assert bot.sample and bot.meta["clone_of"] == "heuristic" and bot.meta["decisions"] == len(data)


def test_the_cli_names_a_bad_data_file_and_exits_2(tmp_path, capsys):
    missing = tmp_path / "none.npz"
    assert sc.main(["fit", "--game", GAME, "--data", str(missing), "--out", str(tmp_path / "c.npz")]) == 2
    assert "not a search-clone data file" in capsys.readouterr().err


def test_a_pool_and_the_baselines_take_a_policy_file_by_its_path(tmp_path):
    from corruption_envs.policy import NumpyPolicy

    probe = corruption_envs.env(GAME).unwrapped
    size = probe.observation_layout.size
    path = str(NumpyPolicy([], (np.zeros((size, probe.num_actions), np.float32), np.zeros(probe.num_actions, np.float32)),
                           meta={"game": GAME, "play": "sample"}).save(tmp_path / "clone.npz"))
    c = cfg.load(GAME, sets=[f"pool.mix={{self: 0.5, {path}: 0.5}}", f"eval.baselines=[random, {path}]"])
    assert c["pool"]["mix"][path] == 0.5 and c["eval"]["baselines"][1] == path
    with pytest.raises(cfg.ConfigError, match=r"pool.mix key '.*missing.npz' is not allowed"):
        cfg.load(GAME, sets=[f"pool.mix={{self: 1, {tmp_path / 'missing.npz'}: 1}}"])
    w = SelfPlayEnv(GAME, {}, (4, 4), OpponentPool({path: 1.0}, 3, 2.0), seed=1)
    w.reset()
    done = False
    while not done:
        _, _, done, _, info = w.step(int(np.flatnonzero(w.action_masks())[0]))
    assert set(info["opponents"]) == {path}
    assert all(bot.sample for bot in w._bots.values())


def test_a_run_played_in_parts_records_the_same_games(recorded, tmp_path):
    out, summary = recorded
    part = sc.collect(GAME, "ismcts:2", "random", games=1, seed=3, out=tmp_path / "part.npz", first=1)
    assert part["games"][0]["ranks"] == summary["games"][1]["ranks"]
    probe = corruption_envs.env(GAME).unwrapped
    whole = sc.load_data([out], probe.observation_layout.size, probe.num_actions)
    tail = sc.load_data([tmp_path / "part.npz"], probe.observation_layout.size, probe.num_actions)
    assert np.array_equal(whole.actions[-len(tail):], tail.actions)
    assert len(part["games"][0]["cpu_ms_per_move"]) == 4
