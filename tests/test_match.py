"""The match loop plays the same games as the AEC env played game by game: the same deals, the same
seats, and (for agents whose choices do not depend on their draws) the same outcomes."""
from __future__ import annotations

import numpy as np
import pytest

import corruption_envs
from corruption_envs.core.agents import Agent
from corruption_envs.core.errors import IllegalActionError
from corruption_envs.match import play_match
from corruption_envs import get_game


class Greedy(Agent):
    """A deterministic agent whose choice depends on the whole observation: the legal action with the
    largest score, a fixed function of one random projection of what it sees."""

    def __init__(self, size: int, num_actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.u = rng.normal(size=size)
        self.v, self.c = rng.normal(size=num_actions), rng.normal(size=num_actions)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        scores = np.sin(float(observation @ self.u) * self.v + self.c)
        return int(np.where(action_mask > 0, scores, -np.inf).argmax())


class Illegal(Agent):
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(action_mask.argmin())


def one_by_one(game, agents, lineups, seeds):
    """(ranks, scores, decisions) of each game played on the AEC env."""
    out = []
    for lineup, seed in zip(lineups, seeds):
        env = corruption_envs.env(game, num_players=len(lineup))
        env.reset(seed=seed)
        decisions = 0
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                break
            seat = env.agent_name_mapping[name]
            env.step(agents[lineup[seat]].act(obs["observation"], obs["action_mask"]))
            decisions += 1
        out.append(([env.infos[a]["rank"] for a in env.possible_agents],
                    [env.infos[a]["score"] for a in env.possible_agents], decisions))
    return out


@pytest.mark.parametrize("game", corruption_envs.list_games())
def test_a_match_is_the_games_played_one_by_one(game):
    probe = corruption_envs.env(game).unwrapped
    agents = [Greedy(probe.observation_layout.size, probe.num_actions, s) for s in range(3)]
    rules = probe.rules_class
    lineups = [[(g + s) % 3 for s in range(rules.min_players + g % 2)] for g in range(12)]
    seeds = [1000 + g for g in range(12)]
    results = play_match(get_game(game), agents, lineups, seeds, batch_size=4, engine="reference")
    for g, (seat_ranks, scores, decisions) in enumerate(one_by_one(game, agents, lineups, seeds)):
        n = len(lineups[g])
        assert results.num_players[g] == n
        assert results.ranks[g, :n].tolist() == seat_ranks and results.scores[g, :n].tolist() == scores
        assert results.decisions[g] == decisions == results.moves[g].sum()


def test_the_observer_sees_every_scored_decision_once():
    probe = corruption_envs.env("corruption").unwrapped
    agents = [Greedy(probe.observation_layout.size, probe.num_actions, 0)]
    seen = []
    results = play_match(get_game("corruption"), agents, [[0] * 4] * 6, list(range(6)), batch_size=4,
                         engine="reference", observer=lambda games, *_: seen.extend(games.tolist()))
    assert np.bincount(seen, minlength=6).tolist() == results.decisions.tolist()


def test_bad_lineups_and_illegal_moves_are_named():
    with pytest.raises(ValueError, match="one seed per game"):
        play_match(get_game("corruption"), [Illegal()], [[0, 0, 0]], [1, 2])
    with pytest.raises(ValueError, match="agent index"):
        play_match(get_game("corruption"), [Illegal()], [[0, 0, 3]], [1])
    with pytest.raises(IllegalActionError, match="illegal actions in games"):
        play_match(get_game("corruption"), [Illegal()], [[0, 0, 0]], [1], engine="reference")


def test_a_mixture_plays_one_member_per_game_and_seat():
    from corruption_envs.policy import MixturePolicy

    probe = corruption_envs.env("corruption").unwrapped
    size, actions = probe.observation_layout.size, probe.num_actions
    rng = np.random.default_rng(0)
    members = [([], (rng.normal(size=(size, actions)).astype(np.float32), np.zeros(actions, np.float32)))
               for _ in range(3)]
    mixture = MixturePolicy(members, [0.5, 0.3, 0.2], seed=4)
    copy = MixturePolicy(members, [0.5, 0.3, 0.2], seed=4)
    lineups = [[0, 1, 1], [1, 0, 0]] * 3
    results = play_match(get_game("corruption"), [mixture, Greedy(size, actions, 1)], lineups, list(range(6)))
    draws = [copy.draw_member() for g, lineup in enumerate(lineups) for s in lineup if s == 0]
    assert len(set(draws)) > 1 and results.decisions.all()
    # each mixture seat was played by its own draw: replay game 0 with member draws[0] in seat 0
    one = MixturePolicy(members, [0.5, 0.3, 0.2], seed=4).member_policies()[draws[0]]
    again = play_match(get_game("corruption"), [one, Greedy(size, actions, 1)], [lineups[0]], [0])
    assert again.ranks[0].tolist() == results.ranks[0].tolist()
