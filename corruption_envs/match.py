"""Many seeded games between agents on a batched engine: the one match loop that evaluation, the
tournament and data collection share.

Game g is the deal `env.reset(seed=env_seeds[g])` at `num_players[g]` seats, with `lineups[g][seat]` the
index of the agent in that seat: the same deals as playing the games one by one on the AEC env. The
batch holds up to `batch_size` games at once; at each step every agent decides, in one call, for all the
games where one of its seats is on turn (`act_batch`, or `act` row by row for an agent without it).
A mixture policy plays one member per game and seat (drawn in game order from its generator), each
member's rows batched. Agents that plan on the AEC game itself (search bots) are played game by game by
their callers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from . import vector
from .core.agents import Agent
from .core.game import Game, expect_game

# called at each step with (game indices, the seats on turn, observations, masks, the agents' actions);
# it may return other legal actions to play instead (exploration), or None
Observer = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], "np.ndarray | None"]


@dataclass
class MatchResults:
    """Per game (row g = game g): its player count and, per seat, the outcome (seats past the count: 0)."""

    num_players: np.ndarray  # (G,) int64
    ranks: np.ndarray  # (G, P) float64, 1 = best, ties share the mean place
    scores: np.ndarray  # (G, P) int64
    rewards: np.ndarray  # (G, P) float32, the config's terminal reward
    decisions: np.ndarray  # (G,) int64
    moves: np.ndarray  # (G, P) int64: decisions per seat




def seat_members(agents: list[Agent], table: np.ndarray) -> list[Agent]:
    """Agents with each one's members added (`member_policies`: a mixture's, else itself), `table` (game x
    seat -> agent index) pointing every seat at the member its agent draws for that game."""
    out = list(agents)
    for k, agent in enumerate(agents):
        first = len(out)
        out.extend(agent.member_policies())
        for g, s in zip(*np.nonzero(table == k)):  # row-major: game by game, seat by seat
            table[g, s] = first + agent.draw_member()
    return out


def play_match(
    game: Game,
    agents: Sequence[Agent],
    lineups: Sequence[Sequence[int]],
    env_seeds: Sequence[int],
    env_config: dict[str, Any] | None = None,
    batch_size: int = 256,
    engine: str = "auto",
    observer: Observer | None = None,
    privileged: bool = False,
) -> MatchResults:
    """Play every game to its end (see the module docstring); `observer`, when given, sees every
    decision of the scored games and may replace the moves played. `privileged`: the observations the
    observer sees end with every seat's hidden information (`write_privileged`), data for a privileged
    critic; the agents see their own observations only."""
    expect_game(game, "play_match")
    counts = np.array([len(lineup) for lineup in lineups], np.int64)
    G, P = len(counts), int(counts.max())
    if len(env_seeds) != G:
        raise ValueError(f"{len(env_seeds)} deal seeds for {G} lineups: give one seed per game")
    table = np.full((G, P), -1, np.int64)
    for g, lineup in enumerate(lineups):
        table[g, : len(lineup)] = lineup
    if table.max() >= len(agents) or (table[table >= 0] < 0).any():
        raise ValueError(f"a lineup names an agent index outside 0..{len(agents) - 1}")
    agents = seat_members(list(agents), table)
    eng = vector.build(game, num_envs=min(batch_size, G), num_players=sorted(set(counts.tolist())),
                      engine=engine, **(env_config or {}))
    eng.queue_deals(env_seeds, counts)
    batch = eng.reset(seed=0)  # the seed only fills rows once the queued deals run out (never scored)
    out = MatchResults(counts, np.zeros((G, P)), np.zeros((G, P), np.int64), np.zeros((G, P), np.float32),
                       np.zeros(G, np.int64), np.zeros((G, P), np.int64))
    finished = 0
    hidden = np.zeros((eng.num_envs, eng.privileged_size if privileged else 0), np.float32)
    while finished < G:
        deal = eng.deal_index.copy()
        live = deal >= 0
        seat = batch.current_player
        who = np.where(live, table[deal.clip(0), seat.clip(0, P - 1)], -1)
        actions = batch.action_mask.argmax(axis=1)  # a legal move for the unscored filler games
        for k, agent in enumerate(agents):
            rows = np.flatnonzero(who == k)
            if rows.size:
                actions[rows] = agent.act_batch(batch.observation[rows], batch.action_mask[rows])
        rows = np.flatnonzero(live)
        if observer is not None:
            seen = batch.observation[rows]
            if privileged:
                eng.write_privileged(hidden[: len(rows)], rows)
                seen = np.concatenate([seen, hidden[: len(rows)]], axis=1)
            played = observer(deal[rows], seat[rows], seen, batch.action_mask[rows], actions[rows])
            if played is not None:
                actions[rows] = played
        np.add.at(out.decisions, deal[rows], 1)
        np.add.at(out.moves, (deal[rows], seat[rows]), 1)
        batch = eng.step(actions)
        for r in np.flatnonzero(batch.terminated & live):
            g, n = deal[r], batch.ended_players[r]
            out.ranks[g, :n] = batch.ranks[r, :n]
            out.scores[g, :n] = batch.scores[r, :n]
            out.rewards[g, :n] = batch.rewards[r, :n]
            finished += 1
    return out
