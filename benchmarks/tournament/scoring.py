"""A tournament's per-agent figures (win rate, mean rank, score share, rank points, CPU time), its
ratings and head-to-head matrix, overall and per player count."""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

import numpy as np

from corruption_envs.core.rewards import pairwise_points, rank_points, score_shares, win_shares

from ..stats import mean_interval, wilson_interval
from .games import GameRecord, play_jobs
from .lookup import agent_labels
from .ratings import openskill_ratings
from .seating import make_jobs


def summarize(records: Sequence[GameRecord], labels: Sequence[str]) -> dict[str, Any]:
    """Per-agent statistics, ratings and the head-to-head matrix of a list of game records.

    Intervals of means are Student-t over deals (a deal's games are averaged first, since the seat
    rotations of one deal are not independent); win-rate intervals are Wilson over seats played.
    """
    k = len(labels)
    wins = [0.0] * k
    seats = [0] * k
    per_deal: list[dict[tuple[int, int], list[list[float]]]] = [{} for _ in range(k)]
    h2h = np.zeros((k, k))
    h2h_n = np.zeros((k, k), dtype=np.int64)
    cpu, moves = [0.0] * k, [0] * k
    for rec in records:
        n = rec.num_players
        ws, ss = win_shares(rec.ranks), score_shares(rec.scores)
        for s, i in enumerate(rec.lineup):
            wins[i] += ws[s]
            seats[i] += 1
            if rec.moves:
                cpu[i] += rec.cpu_seconds[s]
                moves[i] += rec.moves[s]
            bucket = per_deal[i].setdefault((n, rec.deal), [[], [], []])
            bucket[0].append(rec.ranks[s])
            bucket[1].append(ss[s])
            bucket[2].append(rank_points(rec.ranks[s], n))
            ahead = pairwise_points(rec.ranks, s)
            for t, j in enumerate(rec.lineup):
                if j != i:
                    h2h[i, j] += ahead[t]
                    h2h_n[i, j] += 1
    ratings = openskill_ratings(records, labels)
    agents = {}
    for i, lab in enumerate(labels):
        deals = per_deal[i].values()
        rank = mean_interval([float(np.mean(b[0])) for b in deals])
        share = mean_interval([float(np.mean(b[1])) for b in deals])
        points = mean_interval([float(np.mean(b[2])) for b in deals])
        lo, hi = wilson_interval(wins[i], seats[i])
        agents[lab] = {
            "seats": seats[i],
            "deals": len(per_deal[i]),
            "win_rate": wins[i] / seats[i] if seats[i] else math.nan,
            "win_rate_ci": [lo, hi],
            "mean_rank": rank[0],
            "mean_rank_ci": [rank[1], rank[2]],
            "score_share": share[0],
            "score_share_ci": [share[1], share[2]],
            "rank_points": points[0],
            "rank_points_ci": [points[1], points[2]],
            # CPU time a decision (all decisions, forced ones too); machine- and load-dependent
            "cpu_ms_per_move": 1000 * cpu[i] / moves[i] if moves[i] else math.nan,
            **{f"rating_{key}": v for key, v in ratings[lab].items()},
        }
    matrix = np.where(h2h_n > 0, h2h / np.maximum(h2h_n, 1), np.nan)
    return {
        "games": len(records),
        "decisions": int(sum(r.decisions for r in records)),
        "agents": agents,
        "head_to_head": {
            "rows_beat_columns": [[None if math.isnan(v) else float(v) for v in row] for row in matrix],
            "pairs": h2h_n.tolist(),
            "labels": list(labels),
        },
    }


@dataclass
class TournamentResult:
    game: str
    players: list[int]
    specs: list[str]
    labels: list[str]
    seed: int
    records: list[GameRecord]
    summary: dict[str, Any]
    by_players: dict[int, dict[str, Any]] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "agents": self.specs,
            "labels": self.labels,
            "seed": self.seed,
            "seating": "duplicate: lineup = agent list cycled over the seats, every rotation played on "
            "every deal (k > n agents: every window of n agents, each rotated)",
            "seconds": self.seconds,
            "summary": self.summary,
            "by_players": {str(n): s for n, s in self.by_players.items()},
            "records": [asdict(r) for r in self.records],
        }


def run_tournament(
    game: str,
    players: Sequence[int],
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
) -> TournamentResult:
    """Play a duplicate tournament and summarize it (overall and per player count)."""
    if not specs:
        raise ValueError("give at least one agent spec (e.g. --agents random heuristic)")
    labels = agent_labels(specs)
    jobs = make_jobs(players, len(specs), games, seed)
    start = time.perf_counter()
    records = play_jobs(game, specs, jobs, workers, progress)
    seconds = time.perf_counter() - start
    by_players = {}
    if len(players) > 1:
        by_players = {n: summarize([r for r in records if r.num_players == n], labels) for n in players}
    return TournamentResult(
        game, list(players), list(specs), labels, seed, records, summarize(records, labels), by_players,
        seconds,
    )
