"""The CI strength gate: every champion policy must beat random and heuristic bots, significantly.

    python -m benchmarks.gate                                   # all games, fixed seeds
    python -m benchmarks.gate --candidate runs/x/policy.npz     # a new policy vs the champion

Champion check, per game with policies/<game>/champion.npz, at the game's default player count (or
the smallest count the policy was trained for, when that excludes the default; --players overrides): on
`--deals` fixed deals, the champion sits in one seat and the baseline bot (random, then heuristic) in
all others; every deal is played once per seat rotation (duplicate play). The score of a game is the
champion's rank points, (n - rank) / (n - 1): 1 first, 0 last, ties shared; the seats' points always
average 0.5, so a champion no better than the bots it sits with expects 0.5.
Test: one-sided paired t-test over deals of (champion points - mean points of the other seats), which
is n/(n-1) * (champion points - 0.5); the champion passes when p < `--alpha` (0.01) and the mean is
positive.

Candidate check: the candidate and the champion each play every deal in every seat against the same
field (`--field`; by default expert bots in Corruption, whose champions beat heuristic bots almost
always, and heuristic bots elsewhere) with the same bot seeds, so the two runs differ only in the
policy. Test: one-sided paired t-test over deals of (candidate points - champion points); the gate
fails (exit 1) when the candidate is weaker with p < `--candidate-alpha` (0.05).

Search report: after its checks, each champion plays one seat against ISMCTS bots in all others
(`--search`, a small budget per game, two deals): one REPORT line (win rate with its interval, mean
rank points, the search's CPU ms a move) that does not fail the gate. Where that search is ISMCTS, a
second REPORT line seats the champion guiding the same search (`ismcts:N@champion.npz`, PUCT with the
champion's move probabilities as the prior) against the same bots: how far searching with the policy
takes it.

A game without a champion file is reported as NO CHAMPION and does not fail the gate; a champion file
that exists but does not load for its game fails it. Exit codes: 0 pass, 1 a check failed, 2 a
policy could not be loaded or a game could not be played.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from corruption_envs.core.threads import one_blas_thread
from corruption_envs.core.rewards import rank_points, win_shares
from corruption_envs import registry
from corruption_envs.registry import env_class
from corruption_envs.search import can_be_guided

from .stats import PairedTest, paired_t_test, wilson_interval
from .tournament import GameRecord, Job, agent_problem, default_players, play_jobs, rotations

REPO = Path(__file__).resolve().parent.parent
GATE_SEED = 20261130  # fixed: the gate plays the same deals on every run
BASELINES = ("random", "heuristic")
# A game with a stronger bot gates its champion against that too: Corruption's champion beats the expert
# since it trained against it (policies/corruption/README.md).
GAME_BASELINES = {"corruption": ("random", "heuristic", "expert")}
# Fixed deals per check, sized so that the whole gate stays under 5 minutes on 2 cores. Measured with
# 2x128 MLP champions, 2026-11-30: the whole gate took 93 CPU-seconds with 30 corruptia deals (its
# games are ~3x longer and its observation 5x wider than the others').
DEALS = {"corruption": 100, "corruptia": 50, "construction": 100}
# The checks play game by game, every agent reseeded per game, so each game is fixed by its own seeds and a
# verdict does not move with the draws of the games beside it (on the match loop, agents are seeded once
# per run: the Construction champion's narrow edge over the heuristic, p = 0.0017 game by game, read p = 0.1)
BATCHED = False  # play_jobs(batched=...) for the checks
DEFAULT_DEALS = 60
# The candidate test's field per game. The Corruption champions beat heuristic seats almost always
# (0.77-0.99), so that field calls them level; the expert bot's field tells them apart
# (benchmarks/README.md, "The strength gate").
FIELDS = {"corruption": "expert"}
DEFAULT_FIELD = "heuristic"
# Champion vs three ISMCTS seats: a report line per game, not a pass/fail check. Budget and deals are
# sized so that .ci/run's gate grows by about a minute on 2 cores (figures in benchmarks/README.md).
SEARCH = {"corruption": ("ismcts:40", 2), "corruptia": ("ismcts:10", 2), "construction": ("ismcts:80", 2)}
DEFAULT_SEARCH = ("ismcts:40", 2)


@dataclass
class Check:
    game: str
    name: str  # e.g. "champion vs random"
    status: str  # PASS | FAIL | ERROR | NO CHAMPION
    detail: str
    test: PairedTest | None = None

    def line(self) -> str:
        return f"{self.status:<12} {self.game:<13} {self.name:<26} {self.detail}"


def seat_jobs(num_players: int, deals: int, seed: int) -> list[Job]:
    """The tested bot (agent 0) in each seat in turn, agent 1 in all others, on every deal."""
    base = [0] + [1] * (num_players - 1)
    return [
        Job(num_players, d, t, table, seed)
        for d in range(deals)
        for t, table in enumerate(rotations(base))
    ]


def per_deal_points(records: Sequence[GameRecord], agent: int = 0) -> dict[int, list[float]]:
    """Per deal, the rank points of `agent`'s seats in each of its games."""
    out: dict[int, list[float]] = {}
    for rec in records:
        n = rec.num_players
        out.setdefault(rec.deal, []).extend(
            rank_points(rec.ranks[s], n) for s, i in enumerate(rec.lineup) if i == agent
        )
    return out


def advantage_differences(records: Sequence[GameRecord], num_players: int) -> list[float]:
    """Per deal: the tested bot's mean rank points minus the other seats' mean (paired within a deal)."""
    n = num_players
    return [
        n / (n - 1) * (sum(pts) / len(pts) - 0.5)
        for _, pts in sorted(per_deal_points(records).items())
    ]


def paired_differences(a: Sequence[GameRecord], b: Sequence[GameRecord]) -> list[float]:
    """Per deal: mean rank points of agent 0 in run `a` minus in run `b` (same deals and seats)."""
    pa, pb = per_deal_points(a), per_deal_points(b)
    if pa.keys() != pb.keys():
        raise ValueError("paired runs must cover the same deals")
    return [sum(pa[d]) / len(pa[d]) - sum(pb[d]) / len(pb[d]) for d in sorted(pa)]


def win_rate(records: Sequence[GameRecord], agent: int = 0) -> tuple[float, float, float]:
    wins, seats = 0.0, 0
    for rec in records:
        ws = win_shares(rec.ranks)
        for s, i in enumerate(rec.lineup):
            if i == agent:
                wins += ws[s]
                seats += 1
    lo, hi = wilson_interval(wins, seats)
    return wins / seats, lo, hi


def champion_path(game: str, policies: Path) -> Path:
    return policies / game / "champion.npz"


def gate_players(game: str, path: Path, players: int | None) -> int:
    """The asked player count, else the game's default when the policy was trained for it, else the
    smallest count it was trained for (an unreadable file keeps the default; agent_problem reports it)."""
    if players:
        return players
    n = default_players(game)
    try:
        from corruption_envs.policy import read_policy_file

        meta = read_policy_file(path).meta
    except Exception:
        return n
    lo, hi = int(meta.get("min_players", n)), int(meta.get("max_players", n))
    return n if lo <= n <= hi else lo


def check_champion(
    game: str,
    policies: Path,
    deals: int,
    alpha: float,
    seed: int,
    workers: int,
    players: int | None,
    baselines: Sequence[str] = BASELINES,
) -> list[Check]:
    path = champion_path(game, policies)
    if not path.exists():
        return [Check(game, "champion", "NO CHAMPION", f"{path} does not exist yet: skipped, not a failure")]
    n = gate_players(game, path, players)
    problem = agent_problem(game, str(path), n)
    if problem:
        return [Check(game, "champion loads", "ERROR", f"{path}: {problem}")]
    checks = []
    for opponent in baselines:
        name = f"champion vs {opponent}"
        try:
            records = play_jobs(game, [str(path), opponent], seat_jobs(n, deals, seed), workers, batched=BATCHED)
        except Exception as e:
            checks.append(Check(game, name, "ERROR", f"{type(e).__name__}: {e}"))
            continue
        test = paired_t_test(advantage_differences(records, n))
        wr, lo, hi = win_rate(records)
        ok = test.mean > 0 and test.p_greater < alpha
        detail = (
            f"{n}p, win rate {wr:.3f} [{lo:.3f}, {hi:.3f}] (1/n = {1 / n:.3f}); points advantage "
            f"{test.describe()}; needs p(>0) < {alpha}"
        )
        checks.append(Check(game, name, "PASS" if ok else "FAIL", detail, test))
    return checks


def mean_cpu_ms(records: Sequence[GameRecord], agent: int) -> float:
    """CPU milliseconds per decision of `agent`'s seats (forced decisions included)."""
    seconds = moves = 0.0
    for rec in records:
        for s, i in enumerate(rec.lineup):
            if i == agent and rec.moves:
                seconds, moves = seconds + rec.cpu_seconds[s], moves + rec.moves[s]
    return 1000 * seconds / max(moves, 1)


def report_search(
    game: str, policies: Path, search: str, deals: int, seed: int, workers: int, players: int | None,
    guided: bool = False,
) -> Check:
    """The champion in one seat, `search` bots in all others, every deal once per seat: a REPORT line
    (win rate, points advantage, the search's CPU ms a move) that does not fail the gate. `guided`
    seats the champion guiding that search (`search@champion`) instead."""
    path = champion_path(game, policies)
    seated = f"{search}@{path}" if guided else str(path)
    name = f"champion guiding {search} vs {search}" if guided else f"champion vs {search}"
    n = gate_players(game, path, players)
    for spec in (search, seated) if guided else (search,):  # the champion itself loaded in its checks
        problem = agent_problem(game, spec, n)
        if problem:
            return Check(game, name, "ERROR", f"--search {spec}: {problem}")
    records = play_jobs(game, [seated, search], seat_jobs(n, deals, seed), workers)
    wr, lo, hi = win_rate(records)
    points = [p for pts in per_deal_points(records).values() for p in pts]
    cpu = f"{search} {mean_cpu_ms(records, 1):.0f} CPU ms/move"
    if guided:
        cpu += f", the guided seat {mean_cpu_ms(records, 0):.0f}"
    detail = (f"{n}p, win rate {wr:.3f} [{lo:.3f}, {hi:.3f}] (1/n = {1 / n:.3f}), mean rank points "
              f"{sum(points) / len(points):.3f} (0.5 = par) over {len(records)} games; {cpu}; a report, not a check")
    return Check(game, name, "REPORT", detail)


def check_candidate(
    game: str,
    candidate: Path,
    policies: Path,
    field: str,
    deals: int,
    alpha: float,
    seed: int,
    workers: int,
    players: int | None,
) -> Check:
    name = f"candidate vs champion ({field} field)"
    champ = champion_path(game, policies)
    if not champ.exists():
        return Check(game, name, "NO CHAMPION", f"{champ} does not exist yet: nothing to compare with")
    n = gate_players(game, champ, players)
    for label, spec in (("candidate", str(candidate)), ("champion", str(champ)), ("--field", field)):
        problem = agent_problem(game, spec, n) if label == "--field" or Path(spec).exists() else "does not exist"
        if problem:
            return Check(game, name, "ERROR", f"{label} {spec}: {problem}")
    jobs = seat_jobs(n, deals, seed)
    cand = play_jobs(game, [str(candidate), field], jobs, workers, batched=BATCHED)
    champ_records = play_jobs(game, [str(champ), field], jobs, workers, batched=BATCHED)
    test = paired_t_test(paired_differences(cand, champ_records))
    weaker = test.mean < 0 and test.p_less < alpha
    stronger = test.mean > 0 and test.p_greater < alpha
    verdict = (
        "significantly weaker" if weaker
        else "significantly stronger" if stronger
        else "no significant difference"
    )
    cw, champw = win_rate(cand), win_rate(champ_records)
    detail = (
        f"{n}p: {verdict}; candidate - champion rank points {test.describe()}; win rate vs field "
        f"{cw[0]:.3f} vs {champw[0]:.3f}; fails when p(<0) < {alpha}"
    )
    return Check(game, name, "FAIL" if weaker else "PASS", detail, test)


class UnregisteredGame(ValueError):
    """A policy file names a game that is not registered."""


def candidate_game(path: Path) -> str:
    """The game a policy file says it was trained for: only a registered game's name is accepted, since
    a name read from a file must never reach `registry.import_attr` (a 'module:attr' would be imported)."""
    from corruption_envs.policy import read_policy_file

    game = read_policy_file(path).meta.get("game")
    if not isinstance(game, str) or game not in registry.GAMES:
        raise UnregisteredGame(f"policy file {path} names game {game!r}, which is not registered; "
                               f"registered games: {list(registry.GAMES)} (or give --games)")
    return game


def main(argv: Sequence[str] | None = None) -> int:
    one_blas_thread()
    p = argparse.ArgumentParser(prog="python -m benchmarks.gate", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", nargs="+", default=None, help="games to gate (default: every registered game)")
    p.add_argument("--players", type=int, default=None, help="player count (default: each game's default)")
    p.add_argument("--deals", type=int, default=None,
                   help=f"fixed deals per check, each played in every seat "
                   f"(default {DEALS}, else {DEFAULT_DEALS})")
    p.add_argument("--alpha", type=float, default=0.01, help="significance for champion vs baselines")
    p.add_argument("--candidate", type=Path, default=None, help="policy file to compare with the champion")
    p.add_argument("--candidate-alpha", type=float, default=0.05)
    p.add_argument("--baselines", nargs="+", default=None,
                   help=f"bots each champion must beat (default {GAME_BASELINES}, else {list(BASELINES)})")
    p.add_argument("--field", default=None,
                   help=f"bots that fill the other seats in --candidate mode (default {FIELDS}, else "
                   f"{DEFAULT_FIELD})")
    p.add_argument("--search", default=None,
                   help=f"search bot each champion is reported against (default per game {SEARCH}); 'none' skips")
    p.add_argument("--search-deals", type=int, default=None, help="deals of that report (default per game)")
    p.add_argument("--policies", type=Path, default=REPO / "policies", help="folder of <game>/champion.npz")
    p.add_argument("--seed", type=int, default=GATE_SEED)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--json", type=Path, default=None, help="also write the checks as JSON")
    args = p.parse_args(argv)

    import corruption_envs

    for game in args.games or ():
        try:
            env_class(game)
        except (ValueError, ImportError, AttributeError) as e:
            print(f"error: --games {game}: {type(e).__name__}: {e}", file=sys.stderr)
            return 2
    start = time.perf_counter()
    print("strength gate (one-sided paired t-tests over fixed deals; see python -m benchmarks.gate -h)",
          flush=True)
    checks: list[Check] = []

    def report(new: Sequence[Check], since: float) -> None:
        for c in new:
            print(f"{c.line()} ({time.perf_counter() - since:.0f}s)", flush=True)
        checks.extend(new)

    if args.candidate is not None:
        try:
            games = args.games or [candidate_game(args.candidate)]
        except UnregisteredGame as e:
            print(f"error: --candidate: {e}", file=sys.stderr)
            return 2
        except Exception as e:
            print(f"ERROR cannot read candidate {args.candidate}: {type(e).__name__}: {e}")
            return 2
        for game in games:
            t = time.perf_counter()
            report([check_candidate(game, args.candidate, args.policies, args.field or FIELDS.get(game, DEFAULT_FIELD),
                                    args.deals or DEALS.get(game, DEFAULT_DEALS), args.candidate_alpha,
                                    args.seed, args.workers, args.players)], t)
    else:
        for game in args.games or corruption_envs.list_games():
            t = time.perf_counter()
            report(check_champion(game, args.policies, args.deals or DEALS.get(game, DEFAULT_DEALS),
                                  args.alpha, args.seed, args.workers, args.players,
                                  args.baselines or GAME_BASELINES.get(game, BASELINES)), t)
            if args.search != "none" and checks[-1].status in ("PASS", "FAIL"):
                search, deals = SEARCH.get(game, DEFAULT_SEARCH)
                search, deals = args.search or search, args.search_deals or deals
                for guided in (False, True) if can_be_guided(search) else (False,):
                    t = time.perf_counter()
                    report([report_search(game, args.policies, search, deals, args.seed, args.workers,
                                          args.players, guided)], t)
    seconds = time.perf_counter() - start
    failed = [c for c in checks if c.status == "FAIL"]
    errors = [c for c in checks if c.status == "ERROR"]
    missing = [c.game for c in checks if c.status == "NO CHAMPION"]
    reports = [c for c in checks if c.status == "REPORT"]
    if missing:
        print(f"NOTE: no champion yet for {', '.join(missing)}: those games are not gated")
    print(f"gate: {len(checks) - len(failed) - len(errors) - len(missing) - len(reports)} passed, "
          f"{len(failed)} failed, {len(errors)} errors, {len(reports)} reports in {seconds:.0f}s")
    if args.json is not None:
        args.json.write_text(json.dumps(
            [{"game": c.game, "check": c.name, "status": c.status, "detail": c.detail,
              "test": None if c.test is None else c.test.__dict__} for c in checks], indent=1))
    return 2 if errors else 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
