"""The generic AEC adapter, checked on a toy game so that failures point at core/ and not a game."""
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from corruption_envs.core import GameOverError, IllegalActionError, NotResetError

from .toy import ToyEnv


@pytest.mark.parametrize("n", [2, 3, 4])
def test_toy_passes_pettingzoo_api_and_seed_tests(n):
    api_test(ToyEnv(num_players=n), num_cycles=50)
    seed_test(lambda: ToyEnv(num_players=n), num_cycles=50)


def play_out(env, actions):
    for a in actions:
        env.step(a)


def test_rewards_arrive_only_at_the_end_and_sum_by_mode():
    env = ToyEnv(num_players=3, reward="win")
    env.reset(seed=1)
    play_out(env, [1, 0, 0, 0, 0])
    assert all(r == 0 for r in env.rewards.values())
    env.step(0)
    assert all(env.terminations.values())
    keys = env.rules.final_keys(env.game_state)
    best = max(keys)
    for a, k in zip(env.possible_agents, keys):
        assert (env.rewards[a] > 0) == (k == best)
    assert sum(env.rewards.values()) == pytest.approx(0.0) or len(set(keys)) == 1


def test_illegal_and_out_of_range_actions_raise_and_leave_the_env_unchanged():
    env = ToyEnv(num_players=3, illegal_action="raise")
    env.reset(seed=2)
    before = env.state().copy(), env.agent_selection
    for bad in (2, -1, "raise", 1.5, None):
        with pytest.raises(IllegalActionError, match="player_0 cannot play"):
            env.step(bad)
    assert np.array_equal(env.state(), before[0]) and env.agent_selection == before[1]


def test_penalize_mode_ends_the_game_with_minus_one_for_the_offender():
    env = ToyEnv(num_players=3, illegal_action="penalize")
    env.reset(seed=3)
    env.step(0)
    env.step(7)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0}


def test_stepping_a_finished_game_names_the_fix():
    env = ToyEnv(num_players=2, num_rounds=1)
    env.reset(seed=4)
    play_out(env, [0, 0])
    with pytest.raises(GameOverError, match="reset"):
        env.step(0)
    while env.agents:
        env.step(None)
    with pytest.raises(GameOverError, match="reset"):
        env.step(None)


def test_step_before_reset_names_the_fix():
    with pytest.raises(GameOverError, match="reset"):
        ToyEnv().step(0)


@pytest.mark.parametrize("use", [
    lambda e: e.last(), lambda e: e.observe("player_0"), lambda e: e.state(), lambda e: e.action_mask(),
    lambda e: e.render_for("player_0"), lambda e: e.clone(), lambda e: e.resample_hidden("player_0", 1),
    lambda e: e.agent_iter(), lambda e: e.step(0),
], ids=["last", "observe", "state", "action_mask", "render_for", "clone", "resample_hidden", "agent_iter",
        "step"])
def test_every_accessor_before_reset_raises_one_error_naming_the_fix(use):
    env = ToyEnv(render_mode="ansi")
    with pytest.raises(NotResetError, match=r"no game yet: call reset\(seed=...\) first"):
        use(env)
    env.reset(seed=0)  # and the env is still usable
    assert env.agent_selection == "player_0" and env.last()[0]["action_mask"].sum() == 2


def test_an_unknown_agent_is_named_with_the_agents_there_are():
    env = ToyEnv(num_players=2)
    env.reset(seed=0)
    for use in (env.observe, env.render_for, env.resample_hidden):
        with pytest.raises(ValueError, match=r"unknown agent 'player_7'; the agents are \['player_0', 'player_1'"):
            use("player_7")


def test_stepping_a_finished_game_leaves_it_unchanged():
    env = ToyEnv(num_players=2, num_rounds=1)
    env.reset(seed=4)
    play_out(env, [1, 0])
    before = env.state().copy(), dict(env.rewards), dict(env.terminations), env.agent_selection
    for action in (0, 1, 5):
        with pytest.raises(GameOverError, match="the game is over"):
            env.step(action)
    assert np.array_equal(env.state(), before[0])
    assert (env.rewards, env.terminations, env.agent_selection) == before[1:]


@pytest.mark.parametrize(
    "config, message",
    [
        ({"num_players": 9}, "num_players=9 is not allowed; num_players must be an integer from 2 to 4"),
        ({"reward": "money"}, "reward='money' is not allowed; choose one of"),
        ({"num_round": 2}, r"unknown config key\(s\) \['num_round'\]"),
        ({"record_events": 0.0}, r"record_events=0.0 is not allowed; choose one of \[True, False\]"),
        ({"record_events": 1}, r"record_events=1 is not allowed; choose one of \[True, False\]"),
        ({"record_events": "true"}, r"record_events='true' is not allowed"),
        ({"num_players": True}, "num_players=True is not allowed"),
        ({"num_players": 3.0}, "num_players=3.0 is not allowed"),
    ],
)
def test_bad_config_names_the_key_and_what_is_allowed(config, message):
    with pytest.raises(ValueError, match=message):
        ToyEnv(**config)


def test_clone_is_independent_and_resample_keeps_the_observers_view():
    env = ToyEnv(num_players=4)
    env.reset(seed=5)
    env.step(1)
    twin = env.clone()
    twin.step(1)
    assert env.agent_selection == "player_1" and twin.agent_selection == "player_2"
    me = env.agent_selection
    seen = env.observe(me)["observation"]
    changed = False
    for seed in range(20):
        other = env.resample_hidden(me, seed)
        assert np.array_equal(other.observe(me)["observation"], seen)
        changed |= other.game_state.cards != env.game_state.cards
    assert changed


def test_mask_is_zero_for_agents_not_on_turn_and_a_copy_the_client_may_write():
    env = ToyEnv(num_players=3)
    env.reset(seed=6)
    assert env.observe("player_1")["action_mask"].sum() == 0
    mask = env.observe("player_0")["action_mask"]
    legal = mask.copy()
    mask[:] = 0
    env.observe("player_1")["action_mask"][:] = 1
    np.testing.assert_array_equal(env.observe("player_0")["action_mask"], legal)
    assert env.observe("player_1")["action_mask"].sum() == 0


def test_state_is_every_seats_observation():
    env = ToyEnv(num_players=3)
    env.reset(seed=7)
    assert env.state().shape == env.state_space.shape
    assert env.state_space.contains(env.state())
