"""Duplicate seating (see the package docstring): the lineups of one deal, and the seeds of every deal
and every agent, so results do not depend on the number of workers."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class Job:
    num_players: int
    deal: int
    table: int  # index in lineups(k, n)
    lineup: tuple[int, ...]  # agent index per seat
    seed: int  # tournament seed


def lineups(num_agents: int, num_players: int) -> list[tuple[int, ...]]:
    """Agent index per seat for every game of one deal (see the package docstring)."""
    k, n = num_agents, num_players
    windows = range(k) if k > n else range(1)
    return [table for o in windows for table in rotations([(o + s) % k for s in range(n)])]


def rotations(base: Sequence[int]) -> list[tuple[int, ...]]:
    """`base` (agent index per seat) rotated over every seat: the games of one deal."""
    n = len(base)
    return [tuple(base[(s + r) % n] for s in range(n)) for r in range(n)]


def deal_seed(seed: int, num_players: int, deal: int) -> int:
    return int(np.random.SeedSequence([seed, num_players, deal]).generate_state(1)[0])


def agent_seed(seed: int, num_players: int, deal: int, table: int, seat: int) -> int:
    return int(np.random.SeedSequence([seed, num_players, deal, table, seat, 1]).generate_state(1)[0])


def match_seed(seed: int, num_players: int, agent: int) -> int:
    """The seed of agent `agent` at `num_players` seats for a whole match on the batched loop."""
    return int(np.random.SeedSequence([seed, num_players, agent, 2]).generate_state(1)[0])


def make_jobs(players: Sequence[int], num_agents: int, games: int, seed: int) -> list[Job]:
    """Whole deals for each player count, at least `games` games per player count."""
    jobs = []
    for n in players:
        tables = lineups(num_agents, n)
        for deal in range(max(1, math.ceil(games / len(tables)))):
            jobs.extend(Job(n, deal, t, lineup, seed) for t, lineup in enumerate(tables))
    return jobs
