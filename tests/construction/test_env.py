"""The env as PettingZoo sees it, bad input, and the heuristic bot."""
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import corruption_envs
from corruption_envs.construction import ConstructionRules, HeuristicAgent, codec, env, raw_env
from corruption_envs.evaluation import evaluate
from corruption_envs.core import IllegalActionError
from corruption_envs import get_game


@pytest.mark.parametrize("n", range(3, 8))
def test_pettingzoo_api_test(n):
    api_test(env(num_players=n), num_cycles=100)


@pytest.mark.parametrize("n", range(3, 8))
def test_pettingzoo_seed_test(n):
    seed_test(lambda: env(num_players=n), num_cycles=100)


def test_registry_name_version_and_players():
    e = corruption_envs.env("construction")
    assert e.metadata["name"] == "construction_v0"
    assert ConstructionRules.name == "construction" and ConstructionRules.version == 0
    assert (ConstructionRules.min_players, ConstructionRules.max_players) == (3, 7)
    assert e.possible_agents == [f"player_{i}" for i in range(4)]
    assert isinstance(raw_env(), type(e))


@pytest.mark.parametrize(
    "config, message",
    [
        ({"num_players": 2}, "num_players=2 is not allowed"),
        ({"num_players": 8}, "num_players=8 is not allowed"),
        ({"completion": "four"}, "completion='four' is not allowed"),
        ({"red_alert": "none"}, "red_alert='none' is not allowed"),
        ({"max_gifts": 9}, "max_gifts=9 is not allowed"),
        ({"secret_gifts": "yes"}, "secret_gifts='yes' is not allowed"),
        ({"festivals": 2}, "unknown config key"),
    ],
)
def test_bad_config_names_the_key_and_what_is_allowed(config, message):
    with pytest.raises(ValueError, match=message):
        env(**config)


def test_illegal_actions_raise_naming_the_action_and_change_nothing():
    e = env(illegal_action="raise")
    e.reset(seed=0)
    before = e.state().copy()
    agent = e.agent_selection
    with pytest.raises(IllegalActionError, match=f"{agent} cannot play 44"):
        e.step(codec.OUTSIDER)  # a vote in the Corruption phase
    with pytest.raises(IllegalActionError, match="out of range"):
        e.step(codec.NUM_ACTIONS)
    with pytest.raises(IllegalActionError):
        e.step("pass")
    np.testing.assert_array_equal(e.state(), before)


def test_action_names_are_readable_and_name_the_seats():
    e = env(num_players=4)
    e.reset(seed=1)
    p = e.agent_name_mapping[e.agent_selection]
    assert e.action_name(codec.ACTIONS.encode("gift", amount=1, seat=2)) == f"give $50k to player_{(p + 2) % 4}"
    assert e.action_name(codec.PLACE + 3) == "place a worker on contract 3"
    assert "Outsider" in e.action_name(codec.OUTSIDER)
    assert e.unwrapped.rules.action_name(codec.SNITCH) == "play Stooleur/Snitch against seat +1 and seat +2"


def test_rendering_hides_what_the_seat_cannot_see():
    e = env(num_players=3, render_mode="ansi")
    e.reset(seed=2)
    s = e.game_state
    s.hand[1][2] += 1
    s.deck.remove(2)
    mine = e.render_for("player_1")
    theirs = e.render_for("player_0")
    assert "Deep Merde x1" in mine and "Deep Merde" not in theirs
    assert "about $" in theirs and "cash $100k" in e.render()


def test_heuristic_beats_random_play_clearly():
    result = evaluate(HeuristicAgent(env(num_players=4)), get_game("construction"), "random", 240, 4, seed=7)
    low, high = result.interval
    assert low > 0.5, f"heuristic won {result.wins}/{result.games} against 3 random bots (chance 0.25)"
