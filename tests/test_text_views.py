"""Every text a seat is shown is a function of its information set, in every registered game.

The same resample test as the observation's (tests/test_contract.py): redraw all that a seat cannot see
and check that its table (`render_for`), the terminal game's screen (table and move list) and the events it
may read stay the same text. A replay shown from a seat (`play --replay FILE --seat N`) is built from just
these and the seat's own moves (tests/play/test_play.py checks it names no other seat's move).
"""
from __future__ import annotations

import io

import numpy as np
import pytest

import corruption_envs
from corruption_envs.play import Console, legal_moves, show_view

GAMES = corruption_envs.list_games()
RESAMPLES = 3


def seat_texts(env, agent: str) -> dict[str, str]:
    """Each text view of `agent`: its table, its screen when on turn and the events it may read."""
    texts = {
        "render_for": env.render_for(agent),
        "events": "\n".join(env.events_for(agent)),
    }
    if env.agent_selection == agent:
        out = io.StringIO()
        show_view(Console(io.StringIO(), out), env, agent, legal_moves(env))
        texts["screen"] = out.getvalue()
    return texts


def text_points(game: str, games: int = 8, every: int = 4):
    """Envs (with events) at many points of seeded games played by a mix of random and heuristic seats."""
    rules = corruption_envs.get_game(game).rules
    counts = list(range(rules.min_players, rules.max_players + 1))
    for g in range(games):
        env = corruption_envs.env(game, num_players=counts[g % len(counts)], record_events=True)
        env.reset(seed=700 + g)
        rng = np.random.default_rng(g)
        bots = {a: corruption_envs.get_game(game).bots["heuristic"](env, seed=g) for a in env.agents[::2]}
        step = 0
        while not all(env.terminations.values()):
            if step % every == 0:
                yield env
            agent = env.agent_selection
            seen = env.observe(agent)
            if agent in bots:
                action = bots[agent].act(seen["observation"], seen["action_mask"])
            else:
                action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
            env.step(action)
            step += 1
    # (once the game is over the scores are announced and play shows the whole table, so the end is not
    # a point of any seat's hidden information)


@pytest.mark.parametrize("game", GAMES)
def test_every_text_view_of_a_seat_is_unchanged_when_what_it_cannot_see_is_redrawn(game):
    points = 0
    for env in text_points(game):
        for agent in env.possible_agents:
            seen = seat_texts(env, agent)
            for k in range(RESAMPLES):
                other = env.resample_hidden(agent, seed=k)
                for view, text in seat_texts(other, agent).items():
                    assert text == seen[view], f"{agent}'s {view} changed in resample {k}"
                points += 1
    assert points > 300



@pytest.mark.parametrize("game", GAMES)
def test_a_resample_keeps_only_the_events_the_seat_may_read(game):
    """Other seats' private events tell what the seat cannot see, so a resample (what search bots play
    on) must not carry them."""
    checked = 0
    for env in text_points(game, games=3, every=9):
        for agent in env.possible_agents:
            seat = env.agent_name_mapping[agent]
            mine = [e for e in env.game_state.events if e[0] in (-1, seat)]
            other = env.resample_hidden(agent, seed=checked)
            assert other.game_state.events.entries == mine
            # so every event the resampled game holds is one the seat could read
            assert other.events_for(None) == other.events_for(agent) == env.events_for(agent)
            checked += 1
    assert checked > 30
