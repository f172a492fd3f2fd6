"""The learner's single-agent view: turn logic, terminal reward, masks reaching MaskablePPO."""
import numpy as np
import pytest

from corruption_envs.core.agents import Agent
from corruption_envs.core.rewards import pairwise_points, terminal_rewards, win_shares
from training.opponents.pool import OpponentPool
from training.opponents.wrapper import SelfPlayEnv
from corruption_envs import get_game


def bots_only(mix=None):
    return OpponentPool(mix or {"random": 1.0}, max_snapshots=3, pfsp_power=2.0)


class Spy(Agent):
    """A random opponent that records what it was shown."""

    def __init__(self, wrapper):
        self.wrapper, self.seen, self.rng = wrapper, [], np.random.default_rng(0)

    def act(self, observation, action_mask):
        env = self.wrapper.env
        agent = env.agent_selection
        assert agent != self.wrapper.learner
        expected = env.observe(agent)
        assert np.array_equal(observation, expected["observation"])
        assert np.array_equal(action_mask, expected["action_mask"]) and action_mask.any()
        self.seen.append(agent)
        return int(self.rng.choice(np.flatnonzero(action_mask)))


def test_reset_hands_the_learner_its_turn_with_its_own_observation():
    for seed in range(20):
        w = SelfPlayEnv(get_game("toy"), {}, (2, 4), bots_only(), seed=seed)
        obs, _ = w.reset()
        env = w.env
        assert env.agent_selection == w.learner
        assert np.array_equal(obs, env.observe(w.learner)["observation"])
        assert np.array_equal(w.action_masks(), env.action_mask())


def test_player_count_and_learner_seat_are_drawn_over_the_whole_range():
    w = SelfPlayEnv(get_game("toy"), {}, (2, 4), bots_only(), seed=3)
    seen = set()
    for _ in range(200):
        w.reset()
        seen.add((w.env.num_agents, w.learner))
    assert {n for n, _ in seen} == {2, 3, 4}
    assert {a for n, a in seen if n == 4} == {f"player_{i}" for i in range(4)}


def test_opponents_act_from_their_own_observation_and_mask():
    w = SelfPlayEnv(get_game("toy"), {}, (3, 3), bots_only(), seed=5)
    spy = Spy(w)
    w.random_agent = spy
    w.reset(seed=None)
    done = False
    while not done:
        _, _, done, _, _ = w.step(int(np.flatnonzero(w.action_masks())[0]))
    assert len(spy.seen) == 2 * 2  # two opponents, num_rounds=2 laps each


def test_named_bots_from_the_mix_take_the_opponent_seats_each_in_its_own_env():
    w = SelfPlayEnv(get_game("corruption"), {}, (3, 5), bots_only({"expert": 0.5, "ismcts:2": 0.5}), seed=2)
    seen = set()
    for _ in range(6):
        w.reset()
        done = False
        while not done:
            _, _, done, _, info = w.step(int(np.flatnonzero(w.action_masks())[0]))
        seen.update(info["opponents"])
    assert seen == {"expert", "ismcts:2"}
    kinds = {type(bot).__name__ for bot in w._bots.values()}
    assert kinds == {"ExpertAgent", "ISMCTSAgent"}
    assert all(bot.view.env is w._envs[n] for (spec, n, _), bot in w._bots.items() if spec == "ismcts:2")


def test_game_ending_on_an_opponents_move_still_pays_the_learner():
    """Toy with 1 lap and the learner in seat 0: the last move is an opponent's."""
    checked = 0
    for seed in range(40):
        w = SelfPlayEnv(get_game("toy"), {"num_rounds": 1}, (3, 3), bots_only(), seed=seed)
        w.reset()
        if w.learner != "player_0":
            continue
        _, reward, terminated, truncated, info = w.step(1)
        env = w.env
        assert terminated and not truncated
        assert env.agent_selection != w.learner  # an opponent made the final move
        keys = env.rules.final_keys(env.game_state)
        expected = terminal_rewards("win", keys, env.rules.scores(env.game_state))[0]
        assert reward == pytest.approx(expected) and reward != 0.0
        assert info["win"] == win_shares([env.infos[a]["rank"] for a in env.possible_agents])[0]
        checked += 1
    assert checked >= 5


def test_reward_mode_reaches_the_learner():
    w = SelfPlayEnv(get_game("toy"), {"num_rounds": 1, "reward": "rank"}, (4, 4), bots_only(), seed=11)
    rewards = set()
    for _ in range(60):
        w.reset()
        done = False
        while not done:
            _, r, done, _, _ = w.step(0)
        rewards.add(round(r, 3))
    assert rewards <= {1.0, 0.333, -0.333, -1.0, 0.667, 0.0, -0.667, 0.111, -0.111, 0.5, -0.5}
    assert len(rewards) >= 3  # rank rewards are graded, not just win/lose


def test_episode_end_reports_the_learners_points_against_each_snapshot_seat():
    from corruption_envs.policy import NumpyPolicy

    pool = OpponentPool({"self": 1.0}, max_snapshots=3, pfsp_power=2.0)
    policy = NumpyPolicy([], (np.zeros((5 + 24 + 1, 2), np.float32), np.zeros(2, np.float32)))
    snap = pool.add(policy, 0)
    w = SelfPlayEnv(get_game("toy"), {"num_rounds": 1}, (3, 3), pool, seed=2)
    for _ in range(10):
        w.reset()
        done = False
        while not done:
            _, _, done, _, info = w.step(int(np.flatnonzero(w.action_masks())[-1]))
        env = w.env
        me = env.agent_name_mapping[w.learner]
        ranks = [env.infos[a]["rank"] for a in env.possible_agents]
        expected = [(snap.ident, p) for seat, p in enumerate(pairwise_points(ranks, me)) if seat != me]
        assert info["pool_points"] == expected


def test_pairwise_points_and_shared_wins():
    assert pairwise_points([1.0, 2.0, 3.0], 1) == [0.0, 0.5, 1.0]
    assert win_shares([1.5, 1.5, 3.0])[0] == 0.5
    assert win_shares([1.0, 2.0, 3.0])[2] == 0.0


def test_the_mask_reaches_maskable_ppo_and_it_never_plays_an_illegal_action():
    """The masked toy raises IllegalActionError on an illegal move: a short learn() must not."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv

    pool = bots_only({"random": 1.0, "heuristic": 1.0})
    venv = DummyVecEnv([lambda i=i: SelfPlayEnv(get_game("toy"), {"illegal_action": "raise"}, (2, 4), pool, seed=i)
                          for i in range(2)])
    venv.reset()
    masks = get_action_masks(venv)
    assert np.array_equal(masks, np.stack([e.action_masks() for e in venv.envs]).astype(bool))
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [8]}, device="cpu")
    model.learn(512)  # would raise IllegalActionError if a mask were ignored
    assert model.rollout_buffer.action_masks.reshape(-1, 2)[:, 1].min() == 0  # forbidden raises were seen
