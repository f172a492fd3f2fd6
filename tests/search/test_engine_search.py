"""Search on the batched engine (corruption_envs.search.waves): legal, no peeking, seeded, budgets."""
from __future__ import annotations

import numpy as np
import pytest

import corruption_envs
from corruption_envs.search import ISMCTSAgent, PIMCAgent
from corruption_envs.search.ismcts import Node
from corruption_envs.search.waves import EngineRows, WavePlayout, run_wave
from tests.core.toy import ToyEnv
from tests.search.twins import seat_twins
from tests.test_contract import GAMES, leak_points

pytest.importorskip("numba")


def decide(bot, env):
    seen = env.observe(env.agent_selection)
    return bot.act(seen["observation"], seen["action_mask"])


def counts(game):
    r = corruption_envs.get_game(game).rules
    return sorted({r.min_players, r.max_players})


@pytest.mark.parametrize("search, rollout", [(ISMCTSAgent, "random"), (ISMCTSAgent, "heuristic"),
                                             (PIMCAgent, "random")])
@pytest.mark.parametrize("game", GAMES)
def test_engine_search_plays_legal_moves_at_every_table_size(game, search, rollout):
    for n in counts(game):
        env = corruption_envs.env(game, num_players=n)
        env.reset(seed=n)
        bot = search(env, seed=n, simulations=10, rollout=rollout, engine=True, wave=4)
        assert bot.uses_engine
        for _ in range(12):
            if all(env.terminations.values()):
                break
            action = decide(bot, env)
            assert env.action_mask()[action], (n, env.unwrapped.rules.action_name(action))
            assert bot.last_iterations in (0, 10)  # 0: a forced move, decided without search
            env.step(action)


@pytest.mark.parametrize("search", [ISMCTSAgent, PIMCAgent])
@pytest.mark.parametrize("game", GAMES)
def test_engine_search_decides_alike_from_states_the_seat_cannot_tell_apart(game, search):
    # the twin differs in everything the acting seat cannot see; several waves a move
    decisions = changed = 0
    for k, env, twin, differs in seat_twins(game, games=2, every=11):
        changed += differs
        mine, theirs = (search(e, seed=k, simulations=9, engine=True, wave=4) for e in (env, twin))
        assert decide(mine, env) == decide(theirs, twin)
        decisions += 1
    assert decisions > 8 and changed > 0


def test_the_engine_spends_the_simulations_asked_for_across_waves():
    env = corruption_envs.env("corruption")
    env.reset(seed=3)
    bot = ISMCTSAgent(env, seed=0, simulations=17, engine=True, wave=8)
    decide(bot, env)
    assert bot.last_iterations == 17


def test_a_wave_spreads_its_descents_and_backs_up_every_playout():
    env = corruption_envs.env("corruption", num_players=4)
    env.reset(seed=0)
    rules, state = env.unwrapped.rules, env.unwrapped.game_state
    me, rng = rules.current_player(state), np.random.default_rng(0)
    legal = np.flatnonzero(rules.legal_mask(state))
    game = corruption_envs.get_game("corruption")
    rows = EngineRows(game, rules, 16, seed=0)
    bot = ISMCTSAgent(env, seed=0, engine=True)
    states = [rules.resample_hidden(state, me, np.random.default_rng(i)) for i in range(16)]
    root = Node(me)
    batch = rows.engine.batch
    rows.load(states)
    run_wave(rows, WavePlayout(game, env, "random", rng), [root] * 16,
             lambda node, row, p: bot._select(node, p, batch.action_mask[row], lambda: None), Node)
    # 16 descents, each through a different untried root move (the virtual visits keep them apart)
    assert len(root.children) == min(16, legal.size) and set(root.children) <= set(legal.tolist())
    assert sum(c.visits for c in root.children.values()) == 16
    # every child's total is a rank point in [0, 1] per visit, and some playout scored
    assert all(0 <= c.total <= c.visits for c in root.children.values())
    assert sum(c.total for c in root.children.values()) > 0


def test_engine_true_without_an_engine_names_the_fix():
    with pytest.raises(ValueError, match="no compiled engine"):
        ISMCTSAgent(ToyEnv(num_players=3), seed=0, engine=True)
    assert not ISMCTSAgent(ToyEnv(num_players=3), seed=0).uses_engine  # the default falls back


def test_engine_false_searches_one_game_at_a_time():
    env = corruption_envs.env("construction")
    env.reset(seed=0)
    bot = ISMCTSAgent(env, seed=0, simulations=5, engine=False)
    assert not bot.uses_engine
    assert env.action_mask()[decide(bot, env)] and bot._rows is None


def test_guided_engine_search_sets_priors_in_one_call_and_reads_nothing_hidden():
    spec_file = "policies/corruption/champion.npz"
    from corruption_envs.policy import load_policy
    from corruption_envs.search import GuidedISMCTSAgent

    decisions = 0
    for k, env in enumerate(leak_points("corruption", games=1, every=13)):
        if np.count_nonzero(env.action_mask()) < 2:
            continue
        twin = env.resample_hidden(env.agent_selection, seed=k)
        mine, theirs = (GuidedISMCTSAgent(e, load_policy(spec_file, e, seed=k), seed=k, simulations=9,
                                          engine=True, wave=4) for e in (env, twin))
        calls = []
        logits = mine.policy.logits
        mine.policy.logits = lambda x: calls.append(np.ndim(x)) or logits(x)
        assert decide(mine, env) == decide(theirs, twin)
        assert calls and all(d == 2 for d in calls)  # batched: never one observation at a time
        decisions += 1
    assert decisions > 3


def test_a_reseeded_engine_bot_plays_as_a_fresh_one():
    env = corruption_envs.env("construction", num_players=4)
    env.reset(seed=2)
    used = ISMCTSAgent(env, seed=1, simulations=12, engine=True, wave=4)
    decide(used, env)  # makes and uses its engine rows
    used.seed(5)
    assert decide(used, env) == decide(ISMCTSAgent(env, seed=5, simulations=12, engine=True, wave=4), env)
