"""training.search_clone: the search seats' decisions are recorded as the bots play them, each with its
visit shares over the legal moves; the clone fitted to them moves towards the search and plays greedy;
bad input names the fault."""
import numpy as np
import pytest

import corruption_envs
from corruption_envs.policy import read_policy_file
from corruption_envs.search import root_shares, search_agent
from tests.training.legal_play import assert_plays_legal_moves
from training.expert_iteration.recording import SearchPlay, joined
from training.search_clone import fit_clone, main, record_in_processes, record_search_play

pytest.importorskip("numba")
pytestmark = pytest.mark.xdist_group("search_clone")

CHAMPION = "policies/construction/champion.npz"


@pytest.fixture(scope="module")
def play():
    env = corruption_envs.env("construction", num_players=3)
    return env, record_search_play(env, "ismcts:12", "heuristic", games=3, seed=5)


def test_decide_is_the_move_act_plays_with_the_search_it_came_from():
    env = corruption_envs.env("construction", num_players=3)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    checked = 0
    while checked < 4:
        view = env.observe(env.agent_selection)
        if np.count_nonzero(view["action_mask"]) > 1:
            a, b = (search_agent("ismcts:12", env, seed=checked) for _ in range(2))
            move = a.act(view["observation"], view["action_mask"])
            decided, stats = b.decide(view["observation"], view["action_mask"])
            shares, _ = root_shares(stats, len(view["action_mask"]))
            assert decided == move and shares[move] == shares.max()
            checked += 1
        env.step(int(rng.choice(np.flatnonzero(view["action_mask"]))))


def test_only_the_search_seats_choices_are_kept_each_a_distribution_over_its_legal_moves(play):
    env, data = play
    assert len(data) > 20 and set(data.games.tolist()) == {0, 1, 2}
    assert len(data.lone_points) == 3 and set(data.lone_points.tolist()) <= {0.0, 0.5, 1.0 / 3, 1.0}
    assert (data.masks.sum(axis=1) > 1).all()
    assert np.allclose(data.visits.sum(axis=1), 1.0) and not (data.visits * ~data.masks).any()
    assert data.observations.shape == (len(data), env.unwrapped.observation_layout.size)
    # each kept row is the acting seat's own view: its `to_act` one-hot says "me" (offset 0)
    to_act = env.unwrapped.observation_layout.slices["to_act"]
    assert (data.observations[:, to_act][:, 0] == 1).all()


def test_recording_changes_no_move_the_same_seeds_replay_the_same_search_decisions(play):
    env, data = play
    again = record_search_play(env, "ismcts:12", "heuristic", games=3, seed=5)
    assert np.array_equal(again.visits, data.visits) and np.array_equal(again.observations, data.observations)


def test_the_clone_moves_towards_the_search_and_plays_greedy(play, tmp_path):
    env, data = play
    clone, fit = fit_clone(read_policy_file(CHAMPION), data, env, epochs=30, meta={"clone_of": "ismcts:12"})
    assert fit["heldout_kl"] < fit["heldout_kl_before"]
    assert clone.meta["play"] == "greedy" and clone.meta["clone_of"] == "ismcts:12"
    clone.save(tmp_path / "clone.npz")
    assert_plays_legal_moves(tmp_path / "clone.npz", deal=9, moves=40)


@pytest.mark.parametrize("search, fault", [
    ("heuristic", "unguided ISMCTS bot"),
    ("pimc:20", "unguided ISMCTS bot"),
    (f"ismcts:12@{CHAMPION}", "unguided ISMCTS bot"),
])
def test_a_search_that_is_not_plain_ismcts_is_refused(search, fault):
    env = corruption_envs.env("construction", num_players=3)
    with pytest.raises(ValueError, match=fault):
        record_search_play(env, search, "heuristic", games=1, seed=0)


def test_the_command_names_bad_input_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "clone.npz"
    assert main(["--game", "construction", "--players", "3", "--search", "ismcts:4", "--lone", CHAMPION,
                 "--games", "0", "--out", str(out)]) == 2
    assert "--games 0" in capsys.readouterr().err and not out.exists()


def test_one_game_leaves_nothing_held_out_and_still_writes_the_clone(tmp_path, capsys):
    out = tmp_path / "clone.npz"
    assert main(["--game", "construction", "--players", "3", "--search", "ismcts:4", "--lone", CHAMPION,
                 "--games", "1", "--epochs", "1", "--out", str(out)]) == 0
    assert out.exists() and "held-out KL to the search nan -> nan" in capsys.readouterr().out


def test_games_shared_over_processes_are_the_games_one_process_records(play):
    _, data = play
    shared = record_in_processes("construction", 3, "ismcts:12", "heuristic", games=3, seed=5, workers=2)
    for key in ("observations", "masks", "visits", "games", "lone_points"):
        assert np.array_equal(getattr(shared, key), getattr(data, key))


def test_a_kept_recording_reads_back_and_joins_with_its_games_kept_apart(play, tmp_path):
    env, data = play
    data.save(tmp_path / "play.npz")
    back = SearchPlay.load(tmp_path / "play.npz", env)
    assert np.array_equal(back.visits, data.visits) and np.array_equal(back.observations, data.observations)
    both = joined([data, back])
    assert len(both) == 2 * len(data) and len(np.unique(both.games)) == 2 * len(np.unique(data.games))
    assert np.array_equal(both.lone_points, np.r_[data.lone_points, data.lone_points])


def test_a_recording_of_another_game_or_with_broken_shares_is_refused(play, tmp_path):
    env, data = play
    data.save(tmp_path / "play.npz")
    with pytest.raises(ValueError, match="another game than corruption"):
        SearchPlay.load(tmp_path / "play.npz", corruption_envs.env("corruption", num_players=3))
    SearchPlay(data.observations, data.masks, data.visits * 2, data.games, data.lone_points).save(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="not distributions over the legal moves"):
        SearchPlay.load(tmp_path / "bad.npz", env)


def test_kept_recordings_are_added_to_a_later_fit(tmp_path, capsys):
    kept, first, second = tmp_path / "play.npz", tmp_path / "a.npz", tmp_path / "b.npz"
    common = ["--game", "construction", "--players", "3", "--search", "ismcts:4", "--lone", CHAMPION, "--epochs", "1"]
    assert main([*common, "--games", "2", "--keep", str(kept), "--out", str(first)]) == 0
    decisions = len(SearchPlay.load(kept, corruption_envs.env("construction", num_players=3)))
    assert main([*common, "--games", "0", "--add", str(kept), str(kept), "--out", str(second)]) == 0
    printed = capsys.readouterr().out
    assert "--lone won" in printed and f"{2 * decisions} search decisions in 4 games" in printed
    assert read_policy_file(second).meta["clone_games"] == 4
    sampling = tmp_path / "c.npz"
    assert main([*common, "--games", "0", "--add", str(kept), str(kept), "--sample-at", "0.3", "--out", str(sampling)]) == 0
    same, warm = read_policy_file(second), read_policy_file(sampling)
    assert warm.meta["play"] == "sample" and warm.temperature == 0.3 and np.array_equal(warm.head[0], same.head[0])
    assert main([*common, "--games", "0", "--add", str(kept), "--sample-at", "0", "--out", str(tmp_path / "d.npz")]) == 2
    assert "--sample-at 0.0" in capsys.readouterr().err and not (tmp_path / "d.npz").exists()
