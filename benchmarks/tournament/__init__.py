"""Duplicate-play tournaments between bots, with win rates, ranks, score shares and OpenSkill ratings.

    python -m benchmarks.tournament --game corruption --players 4 --agents random heuristic \
        policies/corruption/champion.npz --games 600 --workers 2 --out runs/bench/corruption

Seating scheme (duplicate play, so the luck of the deal cancels). For every player count n and every
deal (one env seed), with k agents:

- k <= n: the lineup is the agent list cycled to fill n seats (agents earlier in the list take the
  extra seats, e.g. 3 agents at 4 seats -> A B C A), and the deal is played n times, the lineup
  rotated one seat each time, so every lineup member sits in every seat on that deal.
- k > n: every window of n consecutive agents of the cyclic list (k windows) is a lineup, each rotated
  over the n seats: k * n games a deal, every agent meeting every other.

`--games N` asks for N games per player count, rounded up to whole deals (one deal = all its
rotations). Every game's chance comes from its deal seed; every agent is reseeded before every game
from (seed, n, deal, lineup, seat), so the results are the same with any number of workers.

An agent spec is 'random', 'heuristic', a policy file path (see corruption_envs.bots.make_agent), or
'module:attr' naming a callable attr(env, seed=...) -> agent. `--game` is a registered game or
'module:attr' naming an env class (used by the tests with tests/core/toy.py).

The package, one module a job: lookup (games, player counts, agents, pre-game checks), seating
(lineups and seeds), games (playing, worker processes, saved games), scoring, ratings, report
(tables, chart, files) and cli.
"""

from __future__ import annotations

from .cli import main
from .games import GameRecord, play, play_jobs, save_games
from .lookup import (
    agent_labels,
    agent_problem,
    build_agent,
    default_players,
    make_env,
    player_counts,
    setup_problem,
)
from .ratings import openskill_ratings
from .report import render_markdown, render_text, write_outputs
from .scoring import TournamentResult, run_tournament, summarize
from .seating import Job, agent_seed, deal_seed, lineups, make_jobs, rotations

__all__ = [
    "GameRecord", "Job", "TournamentResult", "agent_labels", "agent_problem", "agent_seed", "build_agent",
    "deal_seed", "default_players", "lineups", "main", "make_env", "make_jobs", "openskill_ratings", "play",
    "play_jobs", "player_counts", "render_markdown", "render_text", "rotations",
    "run_tournament", "save_games", "setup_problem", "summarize", "write_outputs",
]
