"""Duplicate play (ppo.reward_baseline): the learner is paid its reward minus what the heuristic earned
in its seat on the same deal against the same opponents, whose random streams are rewound."""
import numpy as np
import pytest

from corruption_envs.policy import NumpyPolicy
from tests.training.toygame import HeuristicAgent
from training.config import ConfigError
from training.config import load as load_config
from training.opponents.pool import OpponentPool
from training.opponents.wrapper import SelfPlayEnv
from corruption_envs import get_game

MIX = {"self": 0.3, "heuristic": 0.3, "random": 0.4}  # every kind of opponent and random stream


def wrapper(reward_baseline, seed=4):
    pool = OpponentPool(MIX, 3, 2.0)
    pool.add(NumpyPolicy([], (np.zeros((30, 2), np.float32), np.array([0.3, 0.0], np.float32))), 0)
    return SelfPlayEnv(get_game("toy"), {}, (2, 4), pool, seed=seed, reward_baseline=reward_baseline)


def play(reward_baseline, choose, seeds=range(30)):
    """(reward, observations, baseline) of the first episode of fresh wrappers seeded by `seeds`, the
    learner's moves picked by `choose(w, obs)`."""
    out = []
    for seed in seeds:
        w = wrapper(reward_baseline, seed)
        obs, _ = w.reset()
        seen, done = [obs.copy()], False
        while not done:
            obs, r, done, _, _ = w.step(choose(w, obs))
            seen.append(obs.copy())
        out.append((r, seen, w.baseline_reward))
    return out


def heuristic_move(w, obs):
    return HeuristicAgent(None).act(obs, w.action_masks())


def fold_move(w, obs):
    return int(np.flatnonzero(w.action_masks())[0])


def test_playing_the_heuristics_moves_earns_exactly_zero():
    games = play("heuristic", heuristic_move)
    assert all(r == 0.0 for r, _, _ in games)
    assert len({b for _, _, b in games}) > 1  # the deals differ; only the difference is zero


@pytest.mark.parametrize("choose", [heuristic_move, fold_move])
def test_the_replay_leaves_the_learners_game_as_it_would_have_been(choose):
    for (_, seen_dup, _), (_, seen, _) in zip(play("heuristic", choose), play(None, choose)):
        assert len(seen_dup) == len(seen) and all(np.array_equal(a, b) for a, b in zip(seen_dup, seen))


def test_the_reward_is_the_raw_reward_minus_the_heuristics_on_that_deal():
    games = zip(play("heuristic", fold_move), play(None, fold_move), play(None, heuristic_move))
    diffs = []
    for (r_dup, _, baseline), (r, _, _), (r_heur, _, _) in games:
        assert baseline == r_heur and r_dup == pytest.approx(r - r_heur)
        diffs.append(r_dup)
    assert any(d != 0.0 for d in diffs)  # departing from the heuristic is measured


def test_config_names_a_bad_reward_baseline(toy_config_file):
    with pytest.raises(ConfigError, match="ppo.reward_baseline='random' is not allowed"):
        load_config(path=toy_config_file, sets=["ppo.reward_baseline=random"])
    with pytest.raises(ConfigError, match="duplicate play pays differences; set imitation.games=0"):
        load_config(path=toy_config_file, sets=["ppo.reward_baseline=heuristic", "imitation.games=10"])
