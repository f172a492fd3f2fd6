"""ISMCTS and determinized Monte Carlo (corruption_envs.search): no peeking, seeded, budgets, specs."""
from __future__ import annotations

import numpy as np
import pytest

import corruption_envs
from benchmarks.tournament import build_agent, run_tournament
from corruption_envs.bots import make_agent
from corruption_envs.evaluation import evaluate
from corruption_envs.search import ISMCTSAgent, PIMCAgent
from tests.core.toy import ToyEnv
from tests.search.twins import seat_twins
from tests.test_contract import GAMES, leak_points
from corruption_envs import get_game

RAISE = 1  # the toy game's dominant move: a chip more never lowers your final key


def decide(bot, env):
    seen = env.observe(env.agent_selection)
    return bot.act(seen["observation"], seen["action_mask"])


@pytest.mark.parametrize("spec", ["ismcts:6", "pimc:6"])
@pytest.mark.parametrize("game", GAMES)
def test_search_decides_alike_from_states_the_seat_cannot_tell_apart(game, spec):
    # the twin differs in everything the acting seat cannot see; a bot that read it would differ
    decisions = changed = 0
    for k, env, twin, differs in seat_twins(game, games=2, every=9):
        changed += differs
        assert decide(make_agent(spec, env, seed=k), env) == decide(make_agent(spec, twin, seed=k), twin)
        decisions += 1
    assert decisions > 10 and changed > 0


def test_heuristic_playouts_decide_alike_from_indistinguishable_states():
    for k, env in enumerate(leak_points("corruption", games=1, every=15)):
        twin = env.resample_hidden(env.agent_selection, seed=k)
        mine = decide(make_agent("ismcts:4:heuristic", env, seed=k), env)
        assert mine == decide(make_agent("ismcts:4:heuristic", twin, seed=k), twin)


@pytest.mark.parametrize("engine", [False, True], ids=["one-game", "engine"])
@pytest.mark.parametrize("game", GAMES)
def test_a_seed_fixes_every_decision(game, engine):
    def moves(seed):
        env = corruption_envs.env(game, num_players=3)
        env.reset(seed=1)
        bot = ISMCTSAgent(env, seed=seed, simulations=12, engine=engine, wave=5)
        out = []
        for _ in range(25):
            out.append(decide(bot, env))
            env.step(out[-1])
        return out

    first = moves(7)
    assert moves(7) == first
    assert any(moves(s) != first for s in (8, 9, 10)), "the seed changes nothing"


def toy_raises(spec, decisions=40):
    env = ToyEnv(num_players=3, num_rounds=2)
    raised = 0
    for g in range(decisions // 6 + 1):
        env.reset(seed=g)
        bot = make_agent(spec, env, seed=g)
        while not all(env.terminations.values()) and decisions:
            action = decide(bot, env)
            raised += action == RAISE
            decisions -= 1
            env.step(action)
    return raised


def test_more_simulations_find_the_toy_games_dominant_move():
    # one simulation expands one random child, so it is a coin flip; 64 always find the raise
    assert toy_raises("ismcts:64") == 40
    assert toy_raises("pimc:64") == 40
    assert toy_raises("ismcts:1") < 32


def test_the_simulation_budget_is_spent_exactly():
    env = corruption_envs.env("corruption")
    env.reset(seed=3)
    bot = ISMCTSAgent(env, seed=0, simulations=17)
    decide(bot, env)
    assert bot.last_iterations == 17


@pytest.mark.parametrize("search", [ISMCTSAgent, PIMCAgent])
@pytest.mark.parametrize("engine, wave", [(False, 1), (True, 8)])
def test_a_spent_time_limit_stops_the_search_after_one_simulation_or_wave(search, engine, wave):
    env = corruption_envs.env("corruption")
    env.reset(seed=3)
    bot = search(env, seed=0, simulations=10**9, time_limit=0.0, engine=engine, wave=wave)
    assert env.action_mask()[decide(bot, env)]
    assert bot.last_iterations == wave


def test_specs_give_the_budget_and_playout_asked_for():
    env = corruption_envs.env("construction")
    assert make_agent("ismcts", env, seed=0).simulations == 200
    bot = make_agent("ismcts:400:heuristic", env, seed=0)
    assert (type(bot), bot.simulations, bot.playout.policy) == (ISMCTSAgent, 400, "heuristic")
    assert type(make_agent("pimc:30", env)) is PIMCAgent
    assert type(build_agent("ismcts:30", env, seed=0)) is ISMCTSAgent  # not taken as module:attr
    assert bot.time_limit is None


@pytest.mark.parametrize("spec", ["ismcts:0.05s", "pimc:0.05s:heuristic"])
def test_a_time_budget_spec_searches_until_its_seconds_run_out(spec):
    env = corruption_envs.env("corruption")
    env.reset(seed=0)
    bot = make_agent(spec, env, seed=0)
    assert bot.time_limit == 0.05 and bot.simulations > 10**6
    while np.count_nonzero(env.action_mask()) < 2:
        env.step(int(np.flatnonzero(env.action_mask())[0]))
    decide(bot, env)
    assert 0 < bot.last_iterations < bot.simulations  # the clock ended the move, not the count


@pytest.mark.parametrize("spec, words", [
    ("ismcts:0", "simulations '0'"), ("ismcts:many", "simulations 'many'"),
    ("ismcts:10:greedy", "rollout 'greedy'"), ("pimc:1:random:x", "too many parts"),
    ("ismcts:0s", "time budget '0s'"), ("ismcts:soons", "time budget 'soons'"), ("pimc:-1s", "time budget '-1s'"),
    ("ismcts:infs", "time budget 'infs'"),
])
def test_a_bad_search_spec_names_the_fault_and_the_form(spec, words):
    with pytest.raises(ValueError, match="ismcts\\[:BUDGET") as err:
        make_agent(spec, corruption_envs.env("corruption"))
    assert words in str(err.value)


def test_a_search_bot_refuses_an_observation_from_another_env():
    env, other = corruption_envs.env("corruption"), corruption_envs.env("corruption")
    env.reset(seed=0)
    other.reset(seed=1)
    bot = make_agent("ismcts:3", env, seed=0)
    seen = other.observe(other.agent_selection)
    with pytest.raises(ValueError, match="the env it was built for"):
        bot.act(seen["observation"], seen["action_mask"])


def test_tournament_reports_cpu_ms_per_move_of_each_agent():
    result = run_tournament("tests.core.toy:ToyEnv", [3], ["ismcts:16", "random", "random"], games=12, seed=0)
    agents = result.summary["agents"]
    # reported for every agent (how large is a benchmark's question, never a test's)
    assert all(isinstance(agents[a]["cpu_ms_per_move"], float) for a in ("ismcts:16", "random"))
    # the searcher finishes ahead of random players more often than not (it always raises)
    beats = result.summary["head_to_head"]["rows_beat_columns"][0]
    assert beats[1] > 0.5 and beats[2] > 0.5


def test_evaluate_binds_a_search_bot_to_the_env_it_plays_in():
    # without bind, the bot would see observations of an env it was not built for, and refuse them
    bot = make_agent("ismcts:2", corruption_envs.env("construction"), seed=0)
    assert evaluate(bot, get_game("construction"), "random", games=1).games == 1
