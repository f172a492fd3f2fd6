"""Playing a tournament's games: one game from its deal seed, a worker process's cached envs and agents,
the jobs spread over worker processes (results in job order, the same for any number of workers), and
the replay of chosen games as `play --log` files."""
from __future__ import annotations

import multiprocessing as mp
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from corruption_envs.core.agents import Agent
from corruption_envs.core.game import game_of
from corruption_envs.match import play_match

from .lookup import agent_labels, build_agent, make_env
from .seating import Job, agent_seed, deal_seed, match_seed


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
            agent.seed(agent_seed(job.seed, n, job.deal, job.table, seat))
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


class _Timed(Agent):
    """An agent whose CPU time in its decisions is counted (a batch call's time shared by its rows) on
    `clock`: itself, or the timed agent whose member it is. It stays one agent to the match loop, which
    seats its members (a mixture's, each timed on its clock) per game and seat."""

    def __init__(self, agent: Any, clock: _Timed | None = None) -> None:
        self.agent, self.seconds, self.moves = agent, 0.0, 0
        self.clock = clock or self

    def act_batch(self, observations: Any, masks: Any) -> Any:
        start = time.process_time()
        actions = self.agent.act_batch(observations, masks)
        self.clock.seconds += time.process_time() - start
        self.clock.moves += len(masks)
        return actions

    def member_policies(self) -> list[_Timed]:
        return [_Timed(member, clock=self) for member in self.agent.member_policies()]

    def draw_member(self) -> int:
        return self.agent.draw_member()


def _batched_records(game: str, specs: Sequence[str], jobs: Sequence[Job]) -> list[GameRecord]:
    """`jobs` on the match loop: one agent per spec and player count, seeded once for the whole run,
    deciding for every game where one of its seats is on turn."""
    counts = sorted({j.num_players for j in jobs})
    timed, index = [], {}
    for n in counts:
        env = make_env(game, n)
        for i, spec in enumerate(specs):
            index[(i, n)] = len(timed)
            timed.append(_Timed(build_agent(spec, env, seed=match_seed(jobs[0].seed, n, i))))
    lineups = [[index[(i, j.num_players)] for i in j.lineup] for j in jobs]
    seeds = [deal_seed(j.seed, j.num_players, j.deal) for j in jobs]
    res = play_match(game_of(env), timed, lineups, seeds)  # env: the game's, a 'module:attr' class's too
    per_move = [t.seconds / max(t.moves, 1) for t in timed]
    records = []
    for g, (job, lineup) in enumerate(zip(jobs, lineups)):
        n = job.num_players
        moves = res.moves[g, :n].tolist()
        records.append(GameRecord(n, job.deal, job.table, list(job.lineup), res.ranks[g, :n].tolist(),
                                  res.scores[g, :n].astype(float).tolist(), res.rewards[g, :n].tolist(),
                                  int(res.decisions[g]), [m * per_move[a] for m, a in zip(moves, lineup)], moves))
    return records


def batchable(game: str, specs: Sequence[str], counts: Sequence[int]) -> bool:
    """Whether every agent can play on the match loop (no search bot, no per-game mixture)."""
    return all(build_agent(spec, make_env(game, n), seed=0).plays_on_batches
               for spec in dict.fromkeys(specs) for n in counts)


def play_jobs(
    game: str, specs: Sequence[str], jobs: Sequence[Job], workers: int = 1, progress: bool = False,
    batched: bool | None = None,
) -> list[GameRecord]:
    """Play `jobs`; records come back in job order. `batched` (None: whenever every agent can) plays
    them on the match loop: the same deals, each agent seeded once for the run, so a run repeats
    exactly but a game's draws depend on the games beside it. Game by game (in `workers` processes
    when > 1), every agent is reseeded per game, so each game is fixed by its own seeds alone."""
    if batched is None:
        batched = bool(jobs) and batchable(game, specs, sorted({j.num_players for j in jobs}))
    if batched:
        records = _batched_records(game, specs, jobs)
        progress_bar(len(jobs), progress).update(len(jobs))
        return records
    bar = progress_bar(len(jobs), progress)
    records: list[GameRecord] = []
    if workers <= 1:
        _init_worker(game, specs)
        for job in jobs:
            records.append(_run_job(job))
            bar.update(1)
    else:
        chunk = max(1, min(32, len(jobs) // (workers * 8)))
        with pool_context().Pool(workers, _init_worker, (game, list(specs))) as pool:
            for rec in pool.imap(_run_job, jobs, chunksize=chunk):
                records.append(rec)
                bar.update(1)
    bar.close()
    return records


def pool_context() -> Any:
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


def progress_bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="game", smoothing=0.05, file=sys.stderr)


def save_games(game: str, specs: Sequence[str], jobs: Sequence[Job], folder: Path) -> list[Path]:
    """`jobs`' games played game by game as `play_jobs(batched=False)` plays them (same deal seeds,
    every agent reseeded per game), each logged as a `play --log` file with its HTML replay page:
    <n>p-deal<d>-table<t>.jsonl / .html."""
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
            agent.seed(agent_seed(job.seed, n, job.deal, job.table, seat))
            agents.append(agent)
        log = folder / f"{n}p-deal{job.deal}-table{job.table}.jsonl"
        record_game(env, agents, deal_seed(job.seed, n, job.deal), log, game,
                    [labels[i] for i in job.lineup])
        paths += [log, write_html(log, log.with_suffix(".html"), env)]
    return paths
