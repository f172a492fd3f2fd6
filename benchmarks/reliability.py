"""Reliability: many seeded games per game, with every invariant checked after every step (not run in CI).

    python -m benchmarks.reliability                                  # 100,000 games per game, 2 workers
    python -m benchmarks.reliability --game corruption --games 1000 --workers 1
    python -m benchmarks.reliability --game corruptia --seed 0 --start 4242 --games 1   # replay game 4242
    python -m benchmarks.reliability --games 100000 --differential   # and the batched engines vs the rules

Game i of game G (i from --start) draws everything from SeedSequence([--seed, G, i]): its player count
(uniform over --players, default the game's whole range), each seat's kind (uniform over random,
heuristic and the game's champion policy; the champion only at the player counts its file was trained
for), the deal, the bots' seeds and when to probe. So a game replays alone, with any --workers.

Checked at every decision: the seat's observation and mask have their space's shape, dtype and range;
the mask is not empty; the bot's action is in it; after the step, the game's own
`corruption_envs/<game>/invariants.py` (cards, money and tokens conserved, whose turn, ...). About one
decision in PROBE_EVERY, a masked-out action is stepped: it must raise IllegalActionError and change
nothing. Every game must end within MAX_DECISIONS and give each seat a score and a rank.

Prints a table per game (games, decisions, probes, failures, decisions/s, wall time) and, for each
failed game, its index, player count, seat kinds, decision and error, with the command that replays it.
Exit code: 0 all passed, 1 a game failed, 2 bad input.
"""
from __future__ import annotations

import argparse
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from corruption_envs.core.threads import one_blas_thread
from corruption_envs.registry import get_game, rules_class

from .results import REPO
from .tournament.games import pool_context, progress_bar
from .tournament.report import text_table

DEFAULT_POLICIES = REPO / "policies"
KINDS = ("random", "heuristic", "champion")
MAX_DECISIONS = 20_000  # a game longer than this is taken as one that never ends (as in test_contract.py)
PROBE_EVERY = 32  # mean decisions between two illegal-action probes
SHOW_FAILURES = 20  # failed games listed per game; all are counted


# --- what one game is ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    """What a run fixes for every game of one game: the counts to draw from and where the champion sits."""

    game: str
    seed: int
    counts: tuple[int, ...]
    champion: str | None  # policy path, or None when the game has no champion
    champion_counts: tuple[int, ...]  # player counts the champion was trained for


@dataclass(frozen=True)
class Plan:
    index: int
    num_players: int
    kinds: tuple[str, ...]
    env_seed: int
    agent_seeds: tuple[int, ...]
    probe_seed: int


def plan_game(setup: Setup, index: int) -> Plan:
    """Game `index` of a run, drawn from (seed, game, index) alone."""
    rng = np.random.default_rng(np.random.SeedSequence([setup.seed, _game_key(setup.game), index]))
    n = int(rng.choice(setup.counts))
    kinds = KINDS if n in setup.champion_counts else KINDS[:2]
    seats = tuple(kinds[k] for k in rng.integers(len(kinds), size=n))
    seeds = [int(s) for s in rng.integers(2**63, size=n + 2)]
    return Plan(index, n, seats, seeds[0], tuple(seeds[2:]), seeds[1])


def _game_key(game: str) -> int:
    return int.from_bytes(game.encode(), "little")


@dataclass(frozen=True)
class Failure:
    plan: Plan
    decision: int  # decisions taken before the failure
    error: str
    where: str  # innermost frame of the traceback


@dataclass(frozen=True)
class Outcome:
    decisions: int
    probes: int
    failure: Failure | None


# --- playing one game with every check -------------------------------------------------------------
class Runner:
    """Plays the games of one Setup in one process: envs and bots are built once and reseeded per game."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.check: Callable[[Any, Any], None] = get_game(setup.game).invariants
        self.envs: dict[int, Any] = {}
        self.bots: dict[tuple[int, int, str], Any] = {}

    def env(self, n: int) -> Any:
        if n not in self.envs:
            import corruption_envs

            self.envs[n] = corruption_envs.env(self.setup.game, num_players=n, illegal_action="raise")
        return self.envs[n]

    def bot(self, n: int, seat: int, kind: str, seed: int) -> Any:
        key = (n, seat, kind)
        if key not in self.bots:
            from corruption_envs.bots import make_agent

            self.bots[key] = make_agent(self.setup.champion if kind == "champion" else kind, self.env(n), 0)
        self.bots[key].seed(seed)
        return self.bots[key]

    def play(self, index: int) -> Outcome:
        plan = plan_game(self.setup, index)
        decisions = probes = 0
        try:
            env = self.env(plan.num_players)
            bots = [self.bot(plan.num_players, s, k, seed)
                    for s, (k, seed) in enumerate(zip(plan.kinds, plan.agent_seeds))]
            probe_rng = np.random.default_rng(plan.probe_seed)
            env.reset(seed=plan.env_seed)
            rules, space = env.rules, env.observation_space(env.possible_agents[0])
            self.check(rules, env.game_state)
            while not all(env.terminations.values()):
                if decisions >= MAX_DECISIONS:
                    raise AssertionError(f"the game did not end within {MAX_DECISIONS} decisions")
                agent = env.agent_selection
                obs = env.observe(agent)
                check_observation(obs, space)
                mask = obs["action_mask"]
                if not mask.any():
                    raise AssertionError(f"{agent}'s action mask is empty while the game runs")
                if probe_rng.integers(PROBE_EVERY) == 0:
                    probes += probe_illegal_action(env, mask, probe_rng)
                action = bots[env.agent_name_mapping[agent]].act(obs["observation"], mask)
                if not mask[action]:
                    raise AssertionError(f"{agent}'s bot chose {action}, which its mask forbids")
                env.step(action)
                decisions += 1
                self.check(rules, env.game_state)
            check_final(env)
        except Exception as e:  # any error is a finding about this game: report it, play on
            frame = traceback.extract_tb(e.__traceback__)[-1]
            where = f"{Path(frame.filename).name}:{frame.lineno} in {frame.name}"
            return Outcome(decisions, probes, Failure(plan, decisions, f"{type(e).__name__}: {e}", where))
        return Outcome(decisions, probes, None)


def check_observation(obs: dict[str, np.ndarray], space: Any) -> None:
    """Shape, dtype and range of one observation against its space (a cheap space.contains)."""
    for key in ("observation", "action_mask"):
        value, box = obs[key], space[key]
        assert isinstance(value, np.ndarray) and value.shape == box.shape and value.dtype == box.dtype, \
            f"{key} is {type(value).__name__} {getattr(value, 'shape', '')} {getattr(value, 'dtype', '')}, " \
            f"not {box.dtype} {box.shape}"
        assert value.min() >= box.low.flat[0] and value.max() <= box.high.flat[0], \
            f"{key} leaves [{box.low.flat[0]}, {box.high.flat[0]}]: [{value.min()}, {value.max()}]"
    assert np.isfinite(obs["observation"]).all(), "observation is not finite"


def probe_illegal_action(env: Any, mask: np.ndarray, rng: np.random.Generator) -> int:
    """Step one masked-out action: it must raise IllegalActionError and leave the env as it was.
    Returns 1 if probed, 0 when every action is legal."""
    from corruption_envs import IllegalActionError

    illegal = np.flatnonzero(mask == 0)
    if illegal.size == 0:
        return 0
    action = int(illegal[rng.integers(illegal.size)])
    before = env.state(), env.agent_selection, dict(env.terminations), dict(env.rewards)
    try:
        env.step(action)
    except IllegalActionError:
        pass
    else:
        raise AssertionError(f"the masked-out action {action} ({env.action_name(action)}) was accepted")
    after = env.state(), env.agent_selection, dict(env.terminations), dict(env.rewards)
    assert np.array_equal(before[0], after[0]) and before[1:] == after[1:], \
        f"the rejected action {action} changed the env"
    assert np.array_equal(env.rules.legal_mask(env.game_state), mask), \
        f"the rejected action {action} changed the legal moves"
    return 1


def check_final(env: Any) -> None:
    n = env.rules.num_players
    assert len(env.rules.final_keys(env.game_state)) == len(env.rules.scores(env.game_state)) == n, \
        "final keys or scores are not one per seat"
    for a in env.possible_agents:
        info = env.infos[a]
        assert "score" in info and 1 <= info.get("rank", 0) <= n, f"{a} ended without a score and rank"


# --- running many games ----------------------------------------------------------------------------
@dataclass
class Report:
    setup: Setup
    start: int
    games: int = 0
    decisions: int = 0
    probes: int = 0
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.games += 1
        self.decisions += outcome.decisions
        self.probes += outcome.probes
        if outcome.failure is not None:
            self.failures.append(outcome.failure)


_RUNNER: Runner | None = None


def _init_worker(setup: Setup) -> None:
    global _RUNNER
    _RUNNER = Runner(setup)


def _play(index: int) -> Outcome:
    assert _RUNNER is not None
    return _RUNNER.play(index)


def run(setup: Setup, games: int, start: int = 0, workers: int = 1, progress: bool = False) -> Report:
    """Play games start .. start+games-1 of `setup` (in `workers` processes when > 1)."""
    report = Report(setup, start)
    indices = range(start, start + games)
    bar = progress_bar(games, progress)
    if hasattr(bar, "set_description"):
        bar.set_description(setup.game)
    t0 = time.perf_counter()
    if workers <= 1:
        _init_worker(setup)
        outcomes: Any = map(_play, indices)
        pool = None
    else:
        pool = pool_context().Pool(workers, _init_worker, (setup,))
        outcomes = pool.imap(_play, indices, chunksize=max(1, min(64, games // (workers * 16))))
    try:
        for outcome in outcomes:
            report.add(outcome)
            bar.update(1)
    finally:
        if pool is not None:
            pool.terminate()
        bar.close()
    report.seconds = time.perf_counter() - t0
    return report


def make_setup(game: str, seed: int, players: Sequence[int] | None, policies: Path) -> Setup:
    """The Setup of `game`; raises ValueError naming the problem for an unknown game, a player count out
    of the game's range or an unreadable champion file."""
    from corruption_envs.policy import read_policy_file

    rules = rules_class(game)
    lo, hi = rules.min_players, rules.max_players
    counts = tuple(players) if players else tuple(range(lo, hi + 1))
    bad = [n for n in counts if not lo <= n <= hi]
    if bad:
        raise ValueError(f"{game} plays {lo}-{hi} players, not {bad}; give --players within that range")
    path = policies / game / "champion.npz"
    if not path.exists():
        return Setup(game, seed, counts, None, ())
    meta = read_policy_file(path).meta  # PolicyFileError (a ValueError) names what is wrong
    trained = range(int(meta.get("min_players", lo)), int(meta.get("max_players", hi)) + 1)
    return Setup(game, seed, counts, str(path), tuple(n for n in counts if n in trained))


def replay_command(setup: Setup, index: int, players: Sequence[int] | None, policies: Path) -> str:
    """The command that plays game `index` of this run alone."""
    cmd = f"python -m benchmarks.reliability --game {setup.game} --seed {setup.seed} --start {index} --games 1"
    if players:
        cmd += " --players " + " ".join(map(str, players))
    if policies != DEFAULT_POLICIES:
        cmd += f" --policies {policies}"
    return cmd + " --workers 1 --no-progress"


def summary_rows(reports: Sequence[Report]) -> tuple[list[str], list[list[str]]]:
    head = ["game", "players", "champion at", "games", "decisions", "probes", "failures", "decisions/s",
            "wall time"]
    rows = [[r.setup.game, _counts(r.setup.counts), _counts(r.setup.champion_counts) or "-",
             f"{r.games:,}", f"{r.decisions:,}", f"{r.probes:,}", f"{len(r.failures):,}",
             f"{r.decisions / max(r.seconds, 1e-9):,.0f}", f"{r.seconds:,.1f}s"] for r in reports]
    return head, rows


def _counts(counts: Sequence[int]) -> str:
    if not counts:
        return ""
    contiguous = list(counts) == list(range(counts[0], counts[-1] + 1)) and len(counts) > 1
    return f"{counts[0]}-{counts[-1]}" if contiguous else ",".join(map(str, counts))


def failure_lines(report: Report, players: Sequence[int] | None, policies: Path) -> list[str]:
    lines = []
    for f in report.failures[:SHOW_FAILURES]:
        p = f.plan
        lines.append(f"FAIL {report.setup.game} seed {report.setup.seed} game {p.index}: {p.num_players} players "
                     f"({' '.join(p.kinds)}), decision {f.decision}: {f.error} [{f.where}]")
        lines.append(f"  replay: {replay_command(report.setup, p.index, players, policies)}")
    if len(report.failures) > SHOW_FAILURES:
        lines.append(f"... and {len(report.failures) - SHOW_FAILURES} more failed {report.setup.game} games")
    return lines


# --- command line ----------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """Bad input: one line naming the problem, exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def _positive(text: str) -> int:
    value = _non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    one_blas_thread()
    import corruption_envs

    p = _Parser(prog="python -m benchmarks.reliability", description=__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", nargs="+", default=None, choices=corruption_envs.list_games(),
                   metavar="GAME", help=f"games to run (default: all of {corruption_envs.list_games()})")
    p.add_argument("--games", type=_positive, default=100_000, help="games per game (default 100000)")
    p.add_argument("--start", type=_non_negative, default=0, help="index of the first game (to replay one)")
    p.add_argument("--players", nargs="+", type=_positive, default=None,
                   help="player counts to draw from (default: each game's whole range)")
    p.add_argument("--seed", type=_non_negative, default=0)
    p.add_argument("--workers", type=_positive, default=2, help="processes (results do not depend on it)")
    p.add_argument("--policies", type=Path, default=DEFAULT_POLICIES, help="folder of <game>/champion.npz")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--differential", action="store_true",
                   help="also hold each game's batched engine to its AEC rules on --games random and --games "
                        "heuristic games (benchmarks.differential)")
    args = p.parse_args(argv)

    try:
        setups = [make_setup(g, args.seed, args.players, args.policies)
                  for g in args.game or corruption_envs.list_games()]
    except ValueError as e:
        p.error(str(e))
    reports = []
    for setup in setups:
        report = run(setup, args.games, args.start, args.workers, progress=not args.no_progress)
        reports.append(report)
        for line in failure_lines(report, args.players, args.policies):
            print(line, flush=True)
    print(f"reliability, seed {args.seed}, games {args.start}..{args.start + args.games - 1} per game, "
          f"{args.workers} worker(s); seats drawn from {', '.join(KINDS)}")
    print(text_table(*summary_rows(reports)))
    failed = sum(len(r.failures) for r in reports)
    print(f"{failed} failed game(s)" if failed else "all games passed every check")
    if args.differential:
        failed += differential(setups, args.games, args.seed)
    return 1 if failed else 0


def differential(setups: Sequence[Setup], games: int, seed: int) -> int:
    """Each batched engine against its AEC rules, decision by decision; the number of mismatches."""
    from corruption_envs import vector

    from . import differential as diff

    mismatches = 0
    for setup in setups:
        if setup.game not in vector.list_games():
            continue
        for play in diff.PLAYS:
            try:
                decisions = diff.compare_games(setup.game, games, setup.counts, seed, play)
                print(f"differential {setup.game}, {play} play: {games} games, {decisions} decisions agree")
            except AssertionError as mismatch:
                print(f"differential {setup.game}, {play} play: MISMATCH {mismatch}")
                mismatches += 1
    return mismatches


if __name__ == "__main__":
    sys.exit(main())
