"""The opponent pool (PFSP, mix, size limit) and the seeded evaluation with Wilson intervals."""
import json

import numpy as np
import pytest

from corruption_envs.core.agents import Agent
from corruption_envs.policy import NumpyPolicy
from training.evaluate import evaluate, wilson_interval as wilson
from training.opponents.pool import OpponentPool
from corruption_envs import get_game


def dummy_policy():
    return NumpyPolicy([], (np.zeros((30, 2), np.float32), np.zeros(2, np.float32)))


def test_pfsp_draws_the_snapshots_the_learner_loses_to_more_often():
    pool = OpponentPool({"self": 1.0}, max_snapshots=5, pfsp_power=2.0)
    easy, hard = pool.add(dummy_policy(), 0), pool.add(dummy_policy(), 1)
    for _ in range(30):
        pool.record(easy.ident, 1.0)
        pool.record(hard.ident, 0.0)
    rng = np.random.default_rng(0)
    draws = [pool.sample_snapshot(rng).ident for _ in range(2000)]
    assert draws.count(hard.ident) > 0.95 * len(draws)
    assert draws.count(easy.ident) > 0  # never starved completely


def test_mix_proportions_are_followed_and_self_needs_a_snapshot():
    pool = OpponentPool({"self": 0.5, "heuristic": 0.3, "random": 0.2}, 5, 2.0)
    rng = np.random.default_rng(1)
    assert {pool.sample_kind(rng) for _ in range(200)} == {"heuristic", "random"}  # no snapshot yet
    pool.add(dummy_policy(), 0)
    kinds = [pool.sample_kind(rng) for _ in range(20000)]
    for kind, p in (("self", 0.5), ("heuristic", 0.3), ("random", 0.2)):
        assert kinds.count(kind) / len(kinds) == pytest.approx(p, abs=0.02)


def test_any_named_bot_is_a_kind_and_the_order_a_config_lists_them_in_draws_nothing_else():
    mix = {"expert": 0.2, "random": 0.3, "ismcts:20": 0.1, "heuristic": 0.4}
    pool, listed_otherwise = OpponentPool(mix, 5, 2.0), OpponentPool(dict(reversed(mix.items())), 5, 2.0)
    assert pool.kinds == listed_otherwise.kinds == ("heuristic", "random", "expert", "ismcts:20")
    a, b = np.random.default_rng(4), np.random.default_rng(4)
    kinds = [pool.sample_kind(a) for _ in range(20000)]
    assert kinds == [listed_otherwise.sample_kind(b) for _ in range(20000)]
    for kind, p in mix.items():
        assert kinds.count(kind) / len(kinds) == pytest.approx(p, abs=0.02)


def test_pool_keeps_only_the_newest_snapshots():
    pool = OpponentPool({"self": 1.0}, max_snapshots=3, pfsp_power=1.0)
    for step in range(5):
        pool.add(dummy_policy(), step)
    assert [s.step for s in pool.snapshots] == [2, 3, 4]


def test_pool_saves_and_reloads_snapshots_and_scores(tmp_path):
    pool = OpponentPool({"self": 1.0}, 3, 2.0)
    snap = pool.add(dummy_policy(), 7)
    pool.record(snap.ident, 1.0)
    index = pool.save(tmp_path)
    again = OpponentPool({"self": 1.0}, 3, 2.0)
    again.load(tmp_path, json.loads(json.dumps(index)))  # the index is plain JSON
    assert [(s.ident, s.step, s.score, s.games) for s in again.snapshots] == [(0, 7, 2.0, 3.0)]
    assert again.add(dummy_policy(), 8).ident == 1


def test_pool_overwrites_a_snapshot_file_a_killed_save_left_behind(tmp_path):
    """A save killed after writing snapshot 0 but before its checkpoint: the resumed run makes a new
    snapshot 0, and that is the one its checkpoint must point to."""
    from corruption_envs.policy import read_policy_file

    dummy_policy().save(tmp_path / "snapshot_0000.npz")  # the killed run's snapshot 0
    pool = OpponentPool({"self": 1.0}, 3, 2.0)
    policy = dummy_policy()
    policy.head[1][:] = 7.0
    pool.add(policy, 0)
    pool.save(tmp_path)
    assert (read_policy_file(tmp_path / "snapshot_0000.npz").head[1] == 7.0).all()


def test_wilson_interval_matches_known_values():
    lo, hi = wilson(60, 100)
    assert lo == pytest.approx(0.5020, abs=1e-4) and hi == pytest.approx(0.6906, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)


class SeatRecorder(Agent):
    """Reads its seat from the toy observation: on lap one the turn index is the seat."""

    def __init__(self, num_players, num_rounds=2):
        self.total = num_players * num_rounds
        self.n = num_players
        self.seats = []

    def act(self, observation, action_mask):
        self.seats.append(round(float(observation[-1]) * self.total) % self.n)
        return 1 if action_mask[1] else 0


def test_evaluation_rotates_the_seat_evenly_and_is_seeded():
    spy = SeatRecorder(4)
    a = evaluate(spy, get_game("toy"), "random", 40, num_players=4, seed=5)
    assert a.games == 40
    assert [spy.seats.count(s) for s in range(4)] == [20, 20, 20, 20]  # 10 games x 2 laps per seat
    b = evaluate(SeatRecorder(4), get_game("toy"), "random", 40, num_players=4, seed=5)
    assert a.wins == b.wins


def test_evaluation_of_equal_strategies_gives_about_one_in_n():
    from tests.training.toygame import HeuristicAgent

    level = evaluate(HeuristicAgent(None), get_game("toy"), "heuristic", 200, num_players=4, seed=5)
    lo, hi = level.interval
    assert lo < 0.25 < hi
