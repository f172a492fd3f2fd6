"""How predictable a search is: the log-likelihood of its move under a model against uniform play, and
its agreement with itself under another seed, seeded and bounded; bad input is one line (exit 2)."""
import numpy as np
import pytest

import corruption_envs
from analysis import search_predictability as sp
from corruption_envs.policy import load_policy
from training.expert_iteration.recording import SearchPlay

CHAMPION = "policies/construction/champion.npz"


@pytest.fixture(scope="module")
def env():
    return corruption_envs.env("construction", num_players=4)


@pytest.fixture(scope="module")
def positions(env):
    """Observations and masks of the first decisions with a choice of a seeded random game."""
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    obs, masks = [], []
    for _ in env.agent_iter():
        view, _, terminated, truncated, _ = env.last()
        if terminated or truncated or len(obs) == 12:
            break
        mask = view["action_mask"].astype(bool)
        if mask.sum() > 1:
            obs.append(view["observation"].astype(np.float32))
            masks.append(mask)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return np.asarray(obs), np.asarray(masks)


def recording(obs, masks, played):
    visits = np.where(masks, 0.5 / (masks.sum(axis=1, keepdims=True) - 1), 0.0)
    visits[np.arange(len(played)), played] = 0.5
    return SearchPlay(obs, masks, visits, np.zeros(len(obs), np.int64), np.zeros(0))


def test_uniform_loglik_is_minus_the_log_of_the_legal_count():
    masks = np.zeros((2, 5), bool)
    masks[0, :2] = masks[1, :4] = True
    assert sp.uniform_loglik(masks) == pytest.approx(-(np.log(2) + np.log(4)) / 2)


def test_a_model_that_plays_the_searchs_move_beats_uniform_and_one_that_avoids_it_falls_below(env, positions):
    obs, masks = positions
    policy = load_policy(CHAMPION, env, sample=False)
    greedy = policy.act_batch(obs, masks)
    uniform = sp.uniform_loglik(masks)
    agreeing, collision = sp.played_move_loglik(policy, recording(obs, masks, greedy), 0.3)
    other = np.array([next(a for a in np.flatnonzero(m) if a != g) for m, g in zip(masks, greedy)])
    avoiding, _ = sp.played_move_loglik(policy, recording(obs, masks, other), 0.3)
    assert avoiding < uniform < agreeing <= 0
    assert 0 < collision <= 1
    hotter, _ = sp.played_move_loglik(policy, recording(obs, masks, other), 100.0)
    assert hotter == pytest.approx(uniform, abs=0.1)  # a very hot softmax is uniform play


def test_self_agreement_is_a_seeded_share(env):
    args = (env, "ismcts:8", CHAMPION, "heuristic", 4, 3, [CHAMPION])
    report = sp.self_agreement(*args)
    assert report == sp.self_agreement(*args)
    assert report["positions"] == 4
    assert all(0 <= report[k] <= 1 for k in ("search_with_itself", "share_overlap", CHAMPION))


def test_bad_input_is_one_line(env, capsys):
    with pytest.raises(ValueError, match="positions=0"):
        sp.self_agreement(env, "ismcts:8", CHAMPION, "heuristic", 0, 3)
    assert sp.main(["--game", "construction", "--lone", CHAMPION]) == 2
    assert "--field" in capsys.readouterr().err
