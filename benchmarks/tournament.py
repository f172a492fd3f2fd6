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
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing as mp
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .stats import mean_interval, wilson_interval


# --- building envs and agents ------------------------------------------------------------------------
def _import_attr(spec: str) -> Any:
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


def make_env(game: str, num_players: int, **config: Any) -> Any:
    """The env of a registered game, or of an env class named 'module:attr'."""
    if ":" in game:
        return _import_attr(game)(num_players=num_players, **config)
    import corruption_envs

    return corruption_envs.env(game, num_players=num_players, **config)


def env_class(game: str) -> Any:
    """The env class of a registered game or of 'module:attr'."""
    if ":" in game:
        return _import_attr(game)
    import corruption_envs

    return corruption_envs.game_module(game).raw_env


def default_players(game: str) -> int:
    return env_class(game).rules_class.default_players


def player_counts(game: str, asked: Sequence[str] | None) -> list[int]:
    """`asked` as ints ('all' = the game's whole range); the game's default when nothing is asked."""
    rules = env_class(game).rules_class
    if not asked:
        return [rules.default_players]
    if list(asked) == ["all"]:
        return list(range(rules.min_players, rules.max_players + 1))
    bad = [n for n in asked if not n.isdigit()]
    if bad:
        raise ValueError(f"--players {' '.join(bad)}: give player counts as integers, or 'all'")
    return [int(n) for n in asked]


def build_agent(spec: str, env: Any, seed: int | None = None) -> Any:
    """A bot from a spec: 'random', 'heuristic', a policy path, or 'module:attr' (a bot factory)."""
    from corruption_envs.bots import make_agent
    from corruption_envs.search import is_search_spec

    if ":" in spec and not Path(spec).exists() and not is_search_spec(spec):
        return _import_attr(spec)(env, seed=seed)

    return make_agent(spec, env, seed)


def agent_problem(game: str, spec: str, num_players: int) -> str | None:
    """Why `spec` cannot play `game` with `num_players`, or None when it can."""
    try:
        build_agent(spec, make_env(game, num_players), seed=0)
    except Exception as e:  # noqa: BLE001 (any failure to load the agent is the finding we report)
        return f"{type(e).__name__}: {e}"
    return None


def setup_problem(game: str, asked_players: Sequence[str] | None, specs: Sequence[str]) -> str | None:
    """Why a tournament of `specs` at `asked_players` cannot be played (unknown game, player count out
    of the game's range, an agent that does not load), checked before any game; None when it can."""
    try:
        players = player_counts(game, asked_players)
        for n in players:
            make_env(game, n)
    except (ValueError, ImportError, AttributeError) as e:
        return f"{type(e).__name__}: {e}"
    for n in players:
        for spec in dict.fromkeys(specs):
            problem = agent_problem(game, spec, n)
            if problem:
                return f"agent {spec!r} cannot play {game} with {n} players: {problem}"
    return None


def reseed_agent(agent: Any, seed: int) -> None:
    """Put a reused agent in a state fixed by `seed` (seed() or reset() if it has them, else its rng)."""
    if callable(getattr(agent, "reset", None)):
        agent.reset()
    if callable(getattr(agent, "seed", None)):
        agent.seed(seed)
    elif isinstance(getattr(agent, "rng", None), np.random.Generator):
        agent.rng = np.random.default_rng(seed)


def agent_labels(specs: Sequence[str]) -> list[str]:
    """Unique display names: the spec itself, with #2, #3 ... on repeats."""
    seen: dict[str, int] = {}
    labels = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        labels.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return labels


# --- seating -------------------------------------------------------------------------------------------
def lineups(num_agents: int, num_players: int) -> list[tuple[int, ...]]:
    """Agent index per seat for every game of one deal (see the module docstring)."""
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


# --- playing -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    num_players: int
    deal: int
    table: int  # index in lineups(k, n)
    lineup: tuple[int, ...]  # agent index per seat
    seed: int  # tournament seed


@dataclass
class GameRecord:
    num_players: int
    deal: int
    table: int
    lineup: list[int]
    ranks: list[float]  # 1 = best; tied seats share the mean of their places
    scores: list[float]
    rewards: list[float]
    decisions: int
    # per seat: CPU time spent in act(), a measurement that no two runs repeat (so not compared)
    cpu_seconds: list[float] = field(default_factory=list, compare=False)
    moves: list[int] = field(default_factory=list)  # per seat: decisions made


def play(
    env: Any, seat_agents: Sequence[Any], seed: int, clock: list[list[float]] | None = None
) -> tuple[list[float], list[float], list[float], int]:
    """One game from env.reset(seed): (ranks, scores, rewards, decisions) read from the env at the end.
    `clock`, when given, gets [CPU seconds in act(), decisions] added per seat."""
    env.reset(seed=seed)
    agents = env.possible_agents
    seat_of = {a: i for i, a in enumerate(agents)}
    decisions = 0
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        seat = seat_of[name]
        start = time.process_time()
        action = seat_agents[seat].act(obs["observation"], obs["action_mask"])
        if clock is not None:
            clock[seat][0] += time.process_time() - start
            clock[seat][1] += 1
        env.step(action)
        decisions += 1
    infos = env.infos
    missing = [a for a in agents if "rank" not in infos.get(a, {})]
    if missing:
        raise RuntimeError(
            f"game with seed {seed} ended without score/rank for {missing} (infos {infos}); "
            "a bot played an illegal action under illegal_action='penalize'?"
        )
    return (
        [float(infos[a]["rank"]) for a in agents],
        [float(infos[a]["score"]) for a in agents],
        [float(env.rewards[a]) for a in agents],
        decisions,
    )


class _Worker:
    """Per-process caches: one env per player count and one agent per (player count, seat, spec)."""

    def __init__(self, game: str, specs: Sequence[str]) -> None:
        self.game, self.specs = game, list(specs)
        self.envs: dict[int, Any] = {}
        self.agents: dict[tuple[int, int, int], Any] = {}

    def run(self, job: Job) -> GameRecord:
        n = job.num_players
        if n not in self.envs:
            self.envs[n] = make_env(self.game, n)
        env = self.envs[n]
        seat_agents = []
        for seat, idx in enumerate(job.lineup):
            key = (n, seat, idx)
            if key not in self.agents:
                self.agents[key] = build_agent(self.specs[idx], env, seed=0)
            agent = self.agents[key]
            reseed_agent(agent, agent_seed(job.seed, n, job.deal, job.table, seat))
            seat_agents.append(agent)
        clock = [[0.0, 0] for _ in range(n)]
        ranks, scores, rewards, decisions = play(env, seat_agents, deal_seed(job.seed, n, job.deal), clock)
        return GameRecord(n, job.deal, job.table, list(job.lineup), ranks, scores, rewards, decisions,
                          [c[0] for c in clock], [int(c[1]) for c in clock])


_WORKER: _Worker | None = None


def _init_worker(game: str, specs: Sequence[str]) -> None:
    global _WORKER
    _WORKER = _Worker(game, specs)


def _run_job(job: Job) -> GameRecord:
    assert _WORKER is not None
    return _WORKER.run(job)


def make_jobs(players: Sequence[int], num_agents: int, games: int, seed: int) -> list[Job]:
    """Whole deals for each player count, at least `games` games per player count."""
    jobs = []
    for n in players:
        tables = lineups(num_agents, n)
        for deal in range(max(1, math.ceil(games / len(tables)))):
            jobs.extend(Job(n, deal, t, lineup, seed) for t, lineup in enumerate(tables))
    return jobs


def play_jobs(
    game: str, specs: Sequence[str], jobs: Sequence[Job], workers: int = 1, progress: bool = False
) -> list[GameRecord]:
    """Play `jobs` in order (in `workers` processes when > 1); records come back in job order."""
    bar = _progress(len(jobs), progress)
    records: list[GameRecord] = []
    if workers <= 1:
        _init_worker(game, specs)
        for job in jobs:
            records.append(_run_job(job))
            bar.update(1)
    else:
        chunk = max(1, min(32, len(jobs) // (workers * 8)))
        with _pool_context().Pool(workers, _init_worker, (game, list(specs))) as pool:
            for rec in pool.imap(_run_job, jobs, chunksize=chunk):
                records.append(rec)
                bar.update(1)
    bar.close()
    return records


def _pool_context() -> Any:
    """Workers come from a fork server: a clean single-threaded process, not a fork of a parent that
    may hold torch or BLAS threads (fork after threads can hang a child); it starts once per run."""
    if "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["numpy", "corruption_envs"])
    return ctx


class _NoBar:
    def update(self, _: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="game", smoothing=0.05, file=sys.stderr)


# --- scoring -------------------------------------------------------------------------------------------
def win_shares(ranks: Sequence[float]) -> list[float]:
    """1 / (number of winners) for the seats ranked first (ties shared), 0 for the rest."""
    best = min(ranks)
    winners = sum(1 for r in ranks if r == best)
    return [1.0 / winners if r == best else 0.0 for r in ranks]


def rank_points(rank: float, num_players: int) -> float:
    """1 for first place down to 0 for last (ties share), so players of any table size compare."""
    return (num_players - rank) / (num_players - 1)


def score_shares(scores: Sequence[float]) -> list[float]:
    """Each seat's share of the table's total score (an equal share when the total is not positive)."""
    total = sum(scores)
    return [s / total for s in scores] if total > 0 else [1.0 / len(scores)] * len(scores)


def openskill_ratings(records: Sequence[GameRecord], labels: Sequence[str]) -> dict[str, dict[str, float]]:
    """Plackett-Luce ratings updated game by game in record order.

    Each seat is a one-member team; when an agent holds several seats at a table, it moves by the
    mean of its seats' updates (its copies are not independent players).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=lab) for lab in labels]
    for rec in records:
        if len(set(rec.lineup)) < 2:
            continue
        teams = [[model.rating(mu=ratings[i].mu, sigma=ratings[i].sigma)] for i in rec.lineup]
        new = model.rate(teams, ranks=list(rec.ranks))
        for i in set(rec.lineup):
            seats = [s for s, j in enumerate(rec.lineup) if j == i]
            mu = sum(new[s][0].mu for s in seats) / len(seats)
            sigma = sum(new[s][0].sigma for s in seats) / len(seats)
            ratings[i] = model.rating(mu=mu, sigma=sigma, name=labels[i])
    return {
        lab: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for lab, r in zip(labels, ratings)
    }


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
            for t, j in enumerate(rec.lineup):
                if j != i:
                    r_i, r_j = rec.ranks[s], rec.ranks[t]
                    h2h[i, j] += 1.0 if r_i < r_j else 0.5 if r_i == r_j else 0.0
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


def save_games(game: str, specs: Sequence[str], jobs: Sequence[Job], folder: Path) -> list[Path]:
    """`jobs`' games played again exactly (same deal seeds and agent seeds), each logged as a
    `play --log` file with its HTML replay page: <n>p-deal<d>-table<t>.jsonl / .html."""
    from corruption_envs.recording import record_game, write_html

    folder.mkdir(parents=True, exist_ok=True)
    labels = agent_labels(specs)
    paths = []
    for job in jobs:
        n = job.num_players
        env = make_env(game, n, record_events=True)
        agents = []
        for seat, idx in enumerate(job.lineup):
            agent = build_agent(specs[idx], env, seed=0)
            reseed_agent(agent, agent_seed(job.seed, n, job.deal, job.table, seat))
            agents.append(agent)
        log = folder / f"{n}p-deal{job.deal}-table{job.table}.jsonl"
        record_game(env, agents, deal_seed(job.seed, n, job.deal), log, game,
                    [labels[i] for i in job.lineup])
        paths += [log, write_html(log, log.with_suffix(".html"), env)]
    return paths


# --- output ----------------------------------------------------------------------------------------------
def _ci(v: float, ci: Sequence[float], fmt: str = "{:.3f}") -> str:
    if any(math.isnan(x) for x in ci):
        return fmt.format(v)
    return f"{fmt.format(v)} [{fmt.format(ci[0])}, {fmt.format(ci[1])}]"


def table_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    head = ["agent", "seats", "win rate [95% Wilson]", "mean rank [95% CI]", "score share [95% CI]",
            "OpenSkill mu", "sigma", "ordinal", "CPU ms/move"]
    rows = []
    ordered = sorted(summary["agents"].items(), key=lambda kv: -kv[1]["rating_ordinal"])
    for lab, a in ordered:
        rows.append([
            lab, str(a["seats"]), _ci(a["win_rate"], a["win_rate_ci"]),
            _ci(a["mean_rank"], a["mean_rank_ci"], "{:.2f}"), _ci(a["score_share"], a["score_share_ci"]),
            f"{a['rating_mu']:.2f}", f"{a['rating_sigma']:.2f}", f"{a['rating_ordinal']:.2f}",
            f"{a.get('cpu_ms_per_move', math.nan):.1f}",
        ])
    return head, rows


def h2h_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    h = summary["head_to_head"]
    labels = h["labels"]
    rows = [
        [lab] + ["-" if v is None else f"{v:.3f}" for v in row]
        for lab, row in zip(labels, h["rows_beat_columns"])
    ]
    return ["row beats column"] + labels, rows


def text_table(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths))  # noqa: E731
    return "\n".join([line(head), line(["-" * w for w in widths]), *map(line, rows)])


def markdown_table(head: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def _header(result: TournamentResult) -> str:
    s = result.summary
    return (
        f"{result.game}, players {result.players}, seed {result.seed}: {s['games']} games "
        f"({s['decisions']} decisions) in {result.seconds:.1f}s"
    )


def render_text(result: TournamentResult) -> str:
    parts = [_header(result), "", text_table(*table_rows(result.summary)), "",
             "head-to-head (share of seat pairs at one table where the row agent finished ahead; ties 1/2)",
             text_table(*h2h_rows(result.summary))]
    for n, s in result.by_players.items():
        parts += ["", f"{n} players:", text_table(*table_rows(s))]
    return "\n".join(parts)


def render_markdown(result: TournamentResult, command: str | None = None) -> str:
    parts = [f"### {_header(result)}", ""]
    if command:
        parts += [f"`{command}`", ""]
    parts += [markdown_table(*table_rows(result.summary)), "", "Head-to-head (row finished ahead of column):",
              "", markdown_table(*h2h_rows(result.summary))]
    for n, s in result.by_players.items():
        parts += ["", f"{n} players:", "", markdown_table(*table_rows(s))]
    return "\n".join(parts) + "\n"


def plot(result: TournamentResult, path: Path) -> None:
    """Win rates with Wilson bars, rating ordinals, and the head-to-head heat map, in one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = result.summary
    labels = list(s["agents"])
    a = [s["agents"][lab] for lab in labels]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    x = np.arange(len(labels))
    wr = np.array([v["win_rate"] for v in a])
    err = np.array([[v["win_rate"] - v["win_rate_ci"][0], v["win_rate_ci"][1] - v["win_rate"]] for v in a]).T
    axes[0].bar(x, wr, yerr=err, capsize=4, color="tab:blue")
    for n in result.players:
        axes[0].axhline(1 / n, ls="--", lw=0.8, color="grey")
    axes[0].set(title="win rate (95% Wilson; dashed: 1/n)", xticks=x, ylim=(0, 1))
    axes[0].set_xticklabels(labels, rotation=20, ha="right")
    axes[1].bar(x, [v["rating_mu"] for v in a], yerr=[3 * v["rating_sigma"] for v in a], capsize=4,
                color="tab:green")
    axes[1].set(title="OpenSkill Plackett-Luce mu +- 3 sigma (ordinal = lower end)", xticks=x)
    axes[1].set_xticklabels(labels, rotation=20, ha="right")
    m = np.array([[np.nan if v is None else v for v in row] for row in s["head_to_head"]["rows_beat_columns"]])
    im = axes[2].imshow(m, vmin=0, vmax=1, cmap="RdYlGn")
    axes[2].set(title="head-to-head: row ahead of column", xticks=x, yticks=x)
    axes[2].set_xticklabels(labels, rotation=20, ha="right")
    axes[2].set_yticklabels(labels)
    for i in range(len(labels)):
        for j in range(len(labels)):
            if not np.isnan(m[i, j]):
                axes[2].text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(im, ax=axes[2], fraction=0.046)
    fig.suptitle(_header(result), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_outputs(result: TournamentResult, out: Path, command: str | None = None) -> dict[str, Path]:
    """summary.json, summary.md and chart.png in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "summary.json", "markdown": out / "summary.md", "png": out / "chart.png"}
    paths["json"].write_text(json.dumps(result.to_json(), indent=1))
    paths["markdown"].write_text(render_markdown(result, command))
    plot(result, paths["png"])
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.tournament", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", required=True, help="registered game, or module:EnvClass")
    p.add_argument("--players", nargs="+", default=None,
                   help="player counts, or 'all' for the game's whole range (default: the game's default)")
    p.add_argument("--agents", nargs="+", required=True, help="random | heuristic | policy path | module:attr")
    p.add_argument("--games", type=int, default=200, help="games per player count (rounded up to whole deals)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="processes (results do not depend on it)")
    p.add_argument("--out", type=Path, default=None, help="folder for summary.json, summary.md, chart.png")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--save-games", type=Path, default=None, metavar="DIR",
                   help="also write the first games as play --log files with HTML replay pages to DIR")
    p.add_argument("--save-count", type=int, default=2, metavar="K", help="games to save (default 2)")
    args = p.parse_args(argv)
    if args.save_count < 1:
        p.error(f"--save-count {args.save_count}: give at least 1 (or leave out --save-games)")
    problem = setup_problem(args.game, args.players, args.agents)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    players = player_counts(args.game, args.players)
    result = run_tournament(args.game, players, args.agents, args.games, args.seed, args.workers,
                            progress=not args.no_progress)
    print(render_text(result))
    if args.out is not None:
        command = "python -m benchmarks.tournament " + " ".join(sys.argv[1:] if argv is None else argv)
        paths = write_outputs(result, args.out, command)
        print("\nwrote " + ", ".join(str(v) for v in paths.values()))
    if args.save_games is not None:
        jobs = make_jobs(players, len(args.agents), args.games, args.seed)[: args.save_count]
        saved = save_games(args.game, args.agents, jobs, args.save_games)
        print(f"saved {len(jobs)} games to {args.save_games} ({len(saved)} files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
