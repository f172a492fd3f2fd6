"""The envs in other clients' hands, unmodified: PettingZoo's checkers, SB3's check_env, writable masks,
the parallel API, and the classic illegal-move convention those checkers rely on."""
import importlib

import numpy as np
import pytest
from pettingzoo import ParallelEnv
from pettingzoo.test import max_cycles_test, parallel_api_test, parallel_seed_test, state_test

import corruption_envs
from corruption_envs import IllegalActionWarning
from corruption_envs import get_game

GAMES = list(corruption_envs.GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_move_ends_the_game_by_default_with_a_warning_naming_it(game):
    env = corruption_envs.env(game)
    env.reset(seed=3)
    offender = env.agent_selection
    bad = int(np.flatnonzero(env.action_mask() == 0)[0])
    name = env.unwrapped.action_name(bad)
    with pytest.warns(IllegalActionWarning, match=rf"{offender} played {bad}: '.*' is not legal now"):
        env.step(bad)
    assert name and all(env.terminations.values())
    assert env.rewards[offender] == -1.0 and sum(env.rewards.values()) == -1.0


@pytest.mark.parametrize("game", GAMES)
def test_masks_handed_out_are_writable_and_writing_them_changes_nothing(game):
    env = corruption_envs.env(game)
    env.reset(seed=4)
    agent = env.agent_selection
    mask = env.action_mask()
    legal = mask.copy()
    seen = {a: env.observe(a)["action_mask"] for a in env.agents}
    for m in (mask, *seen.values()):
        assert m.flags.writeable
        m[:] = 1 - m  # a client scribbling on its copy
    np.testing.assert_array_equal(env.action_mask(), legal)
    np.testing.assert_array_equal(env.observe(agent)["action_mask"], legal)
    other = next(a for a in env.agents if a != agent)
    assert not env.observe(other)["action_mask"].any()
    env.step(int(np.flatnonzero(legal)[0]))  # the env still takes its own legal move
    assert not env.terminations[agent]


def test_torch_takes_a_mask_without_the_not_writable_warning():
    torch = pytest.importorskip("torch")
    env = corruption_envs.env("corruption")
    env.reset(seed=0)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.as_tensor(env.action_mask())
        torch.as_tensor(env.observe(env.agent_selection)["action_mask"])


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_state_and_parallel_tests_pass_on_the_default_env(game):
    with pytest.warns(IllegalActionWarning):  # the checkers step unmasked samples
        state_test(corruption_envs.env(game), corruption_envs.parallel_env(game), num_cycles=30)
    parallel_api_test(corruption_envs.parallel_env(game), num_cycles=200)
    parallel_seed_test(lambda: corruption_envs.parallel_env(game), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_module_has_the_parallel_env_the_registry_hands_out(game):
    module = importlib.import_module(f"corruption_envs.{game}")
    for par in (module.parallel_env(num_players=3, reward="rank"),
                corruption_envs.parallel_env(game, num_players=3, reward="rank")):
        assert isinstance(par, ParallelEnv) and isinstance(par.unwrapped, module.raw_env)
        assert par.unwrapped.config["reward"] == "rank"
        assert par.possible_agents == [f"player_{i}" for i in range(3)]


@pytest.mark.parametrize("game", GAMES)
def test_max_cycles_test_finds_the_parallel_env_and_stops_at_the_unknown_max_cycles(game):
    # as on PettingZoo's classic envs, which it skips: it counts a parallel step per cycle of every
    # agent, but a turn-based step is one move, so no max_cycles option could pass it
    with pytest.raises(ValueError, match=r"unknown config key\(s\) \['max_cycles'\]"):
        max_cycles_test(corruption_envs.get_game(game))


def test_the_parallel_env_plays_a_whole_game_by_the_agent_on_turn():
    env = corruption_envs.parallel_env("corruption", num_players=4)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=7)
    while env.agents:
        assert sum(o["action_mask"].any() for o in obs.values()) == 1  # one agent on turn
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
                   for a, o in obs.items()}
        obs, rewards, terminations, truncations, infos = env.step(actions)
    assert sorted(info["rank"] for info in infos.values())[0] == 1  # a real ending, not a penalty


@pytest.mark.parametrize("game", GAMES)
def test_sb3_check_env_passes_on_the_training_wrapper(game):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    from training.opponents.pool import OpponentPool
    from training.opponents.wrapper import SelfPlayEnv

    pool = OpponentPool({"heuristic": 1.0, "random": 1.0}, max_snapshots=2, pfsp_power=2.0)
    rules = corruption_envs.get_game(game).rules
    n = rules.default_players
    env = SelfPlayEnv(get_game(game), {}, (n, n), pool, seed=0)
    with pytest.warns(IllegalActionWarning):
        check_env(env, warn=True)
