"""search_policy_targets: the ISMCTS bot's visit distributions and values over a batch of positions, on the engine."""
from __future__ import annotations

import numpy as np
import pytest

import corruption_envs
from corruption_envs.search import search_policy_targets
from tests.test_contract import GAMES, random_action

pytest.importorskip("numba")


def positions(game, k, players=3):
    """k (env, state, seat) along a seeded random game (every 5th decision), restarting when it ends."""
    env = corruption_envs.env(game, num_players=players)
    env.reset(seed=0)
    rng, out, step = np.random.default_rng(0), [], 0
    while len(out) < k:
        if all(env.terminations.values()):
            env.reset(seed=step)
        if step % 5 == 0:
            out.append(env.clone())
        env.step(random_action(env, rng))
        step += 1
    return out


def rules_states(envs):
    u = [e.unwrapped for e in envs]
    return [x.game_state for x in u], [x.rules.current_player(x.game_state) for x in u]


@pytest.mark.parametrize("game", GAMES)
def test_targets_are_visit_shares_over_legal_moves_and_rank_point_values(game):
    envs = positions(game, 6)
    states, seats = rules_states(envs)
    visits, values = search_policy_targets(envs[0], states, seats, simulations=12, seed=0)
    assert visits.shape == (6, envs[0].unwrapped.rules.num_actions) and values.shape == (6,)
    assert np.allclose(visits.sum(axis=1), 1.0)
    searched = np.count_nonzero(visits, axis=1) > 1
    assert searched.any()
    for env, row in zip(envs, visits):
        assert set(np.flatnonzero(row)) <= set(np.flatnonzero(env.action_mask()))
        assert np.allclose(row * 12, np.round(row * 12))  # whole visits of 12 iterations
    assert np.all((0 <= values[searched]) & (values[searched] <= 1))
    assert np.isnan(values[~searched]).all()  # one legal move: played without a search
    again = search_policy_targets(envs[0], states, seats, simulations=12, seed=0)
    assert np.array_equal(again[0], visits) and np.array_equal(again[1], values, equal_nan=True)


@pytest.mark.parametrize("game", GAMES)
def test_targets_read_nothing_the_seat_cannot_see(game):
    envs = positions(game, 5)
    twins = [e.resample_hidden(e.agent_selection, seed=k) for k, e in enumerate(envs)]
    mine = search_policy_targets(envs[0], *rules_states(envs), simulations=8, seed=3)
    theirs = search_policy_targets(envs[0], *rules_states(twins), simulations=8, seed=3)
    assert any(not np.array_equal(t.state(), e.state()) for t, e in zip(twins, envs))
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1], equal_nan=True)


@pytest.mark.parametrize("spec", ["ismcts:16", "ismcts:16@policies/{game}/champion.npz"])
@pytest.mark.parametrize("game", GAMES)
def test_targets_are_the_bots_own_search_its_move_the_most_visited(game, spec):
    """The teacher runs the bot's search: at each position the bot's move (seeded alike, on the engine)
    is the most visited move of the targets, ties to the better value as the bot breaks them."""
    from corruption_envs.policy import load_policy
    from corruption_envs.search import search_agent

    spec = spec.format(game=game)
    envs = [e for e in positions(game, 12) if np.count_nonzero(e.action_mask()) > 1][:4]
    for k, env in enumerate(envs):
        guide = load_policy(spec.split("@")[1], env, seed=k) if "@" in spec else None
        state, seat = env.unwrapped.game_state, env.unwrapped.rules.current_player(env.unwrapped.game_state)
        visits, _ = search_policy_targets(env, [state], [seat], simulations=16, seed=k, guide=guide)
        bot = search_agent(spec, env, seed=k, engine=True)
        move = bot.act(env.observe(env.agent_selection)["observation"], env.action_mask())
        assert visits[0, move] == visits[0].max()


def test_a_seat_that_is_not_to_act_is_refused():
    envs = positions("corruption", 1)
    states, seats = rules_states(envs)
    with pytest.raises(ValueError, match="not the seat to act"):
        search_policy_targets(envs[0], states, [(seats[0] + 1) % 3], simulations=2)
