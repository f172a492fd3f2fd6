"""The CI strength gate: every champion policy must be significantly stronger than the game's bots.

    python -m benchmarks.gate                                   # all games, fixed seeds
    python -m benchmarks.gate --candidate runs/x/policy.npz     # a new policy vs the champion

Champion checks, per registered game: `policies/<game>/champion.npz` against the game's best bot
(`expert` in Corruption, `heuristic` elsewhere; `--best-bot`) at every player count the file claims
(meta min_players..max_players, what `load_policy` accepts; `--players` overrides), and against the
weaker bots (`random`, `heuristic`; `--baselines`) at the game's default count. Each check plays
`--deals` fixed deals with the champion in one seat and the bot in all others, every deal once per
seat rotation (duplicate play), all on one dealing mode: the batched match loop (each agent seeded
once per run, so a run repeats exactly); a search bot, which the match loop cannot seat, plays game
by game. The score of a game is the champion's rank points, (n - rank) / (n - 1): 1 first, 0 last,
ties shared; the seats' points always average 0.5, so a champion no better than the bots it sits
with expects 0.5.
Test: one-sided paired t-test over deals of (champion points - mean points of the other seats), which
is n/(n-1) * (champion points - 0.5); the check passes only when the champion is significantly better,
p(>0) < `--alpha` (0.01) with a positive mean. A champion level with the bot fails (it shows p < 0.01
by chance once in 100 seeds), as does a weaker one.
A check that fails and is listed in KNOWN_SHORT (game, player count, bot) prints as KNOWN SHORT with
the listed reason and does not fail the run: a shortfall the maintainers have seen and accepted for
now, not a pass. A listed check that passes says its entry can go.

Candidate check: the candidate and the champion each play every deal in every seat against the same
field (`--field`; by default expert bots in Corruption, whose champions beat heuristic bots almost
always, and heuristic bots elsewhere) with the same bot seeds, so the two runs differ only in the
policy; at the champion's default count (or each `--players`). Test: one-sided paired t-test over
deals of (candidate points - champion points); the gate fails (exit 1) when the candidate is weaker
with p < `--candidate-alpha` (0.05).

Search report: after its checks, each champion plays one seat against ISMCTS bots in all others
(`--search`, a small budget per game, two deals, game by game): one REPORT line (win rate with its
interval, mean rank points, the search's CPU ms a move) that does not fail the gate. Where that
search is ISMCTS, a second REPORT line seats the champion guiding the same search
(`ismcts:N@champion.npz`, PUCT with the champion's move probabilities as the prior) against the same
bots: how far searching with the policy takes it.

A game without a champion file FAILS the gate (NO CHAMPION): a champion that is missing must not pass
silently; gate the games that have one with `--games`. A champion file that exists but does not load
for its game is an ERROR. Exit codes: 0 pass, 1 a check failed or a champion is missing, 2 a policy
could not be loaded or a game could not be played.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from corruption_envs.core.threads import one_blas_thread
from corruption_envs.core.rewards import rank_points, win_shares
from corruption_envs import registry
from corruption_envs.registry import env_class
from corruption_envs.search import can_be_guided

from .results import REPO, Interval, Record, add_record_option, command_line, measured, record_name, write
from .stats import PairedTest, paired_t_test, wilson_interval
from .tournament import GameRecord, Job, agent_problem, default_players, play_jobs, rotations

GATE_SEED = 20261130  # fixed: the gate plays the same deals on every run
# The bot each champion must beat at every player count it claims: the game's strongest, but in
# Construction and Corruptia the heuristic their targets name, since their champions build on their
# experts (and are level with them)
BEST_BOTS = {"corruption": "expert"}
DEFAULT_BEST_BOT = "heuristic"
# Weaker bots, checked at the game's default player count only (far below the best bot, and cheap)
BASELINES = ("random", "heuristic")
# Fixed deals per check. On the match loop the gate's 17 checks of the committed champions take about
# 35 CPU-seconds (docs/results.md, the gate's checks).
DEALS = {"corruption": 100, "corruptia": 50, "construction": 100}
DEFAULT_DEALS = 60
# Checks that fail on the committed champions and that the maintainers accept for now: (game, player
# count, bot) -> why. Such a check prints KNOWN SHORT and does not fail the run; the check itself is
# unchanged, so deleting an entry makes it fail again.
KNOWN_SHORT: dict[tuple[str, int, str], str] = {}
# The candidate test's field per game. The Corruption champions beat heuristic seats almost always
# (0.77-0.99), so that field calls them level; the expert bot's field tells them apart
# (benchmarks/README.md, "The strength gate").
FIELDS = {"corruption": "expert"}
DEFAULT_FIELD = "heuristic"
# Champion vs three ISMCTS seats: a report line per game, not a pass/fail check. Budget and deals are
# sized so that .ci/run's gate grows by about a minute on 2 cores (figures in docs/results.md).
SEARCH = {"corruption": ("ismcts:40", 2), "corruptia": ("ismcts:10", 2), "construction": ("ismcts:80", 2)}
DEFAULT_SEARCH = ("ismcts:40", 2)


@dataclass
class Check:
    game: str
    name: str  # e.g. "champion vs expert at 4p"
    status: str  # PASS | FAIL | KNOWN SHORT | NO CHAMPION | ERROR | REPORT
    detail: str
    test: PairedTest | None = None
    players: int | None = None
    bot: str | None = None
    win: tuple[float, float, float] | None = None  # the seat's win rate and its 95% Wilson interval

    def line(self) -> str:
        return f"{self.status:<12} {self.game:<13} {self.name:<28} {self.detail}"

    @property
    def fails(self) -> bool:
        """Whether this check fails the run (exit 1): a FAIL, or a game without a champion."""
        return self.status in ("FAIL", "NO CHAMPION")


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


def claimed_counts(game: str, path: Path) -> list[int]:
    """Every player count the policy file was trained for (meta min_players..max_players, the game's
    range where absent: what `load_policy` accepts), within the game's range; the game's default when
    the file is unreadable (agent_problem then reports why)."""
    from corruption_envs.policy import read_policy_file

    rules = registry.rules_class(game)
    try:
        meta = read_policy_file(path).meta
    except Exception:
        return [rules.default_players]
    lo = max(int(meta.get("min_players", rules.min_players)), rules.min_players)
    hi = min(int(meta.get("max_players", rules.max_players)), rules.max_players)
    return list(range(lo, hi + 1)) or [rules.default_players]


def home_count(game: str, counts: Sequence[int]) -> int:
    """The game's default player count when it is among `counts`, else the first of them."""
    n = default_players(game)
    return n if n in counts else counts[0]


def gate_players(game: str, path: Path, players: int | None) -> int:
    """The asked player count, else the game's default when the policy was trained for it, else the
    smallest count it was trained for."""
    return players or home_count(game, claimed_counts(game, path))


def strength_check(game: str, spec: str, bot: str, num_players: int, deals: int, alpha: float, seed: int,
                   workers: int = 1) -> Check:
    """`spec` in one seat, `bot` in all others, on `deals` deals in every seat: PASS only when `spec`
    is significantly better (one-sided p(>0) < alpha, positive mean). On the match loop, unless a
    search agent needs game-by-game play (in `workers` processes)."""
    n = num_players
    name = f"champion vs {bot} at {n}p"
    try:
        records = play_jobs(game, [spec, bot], seat_jobs(n, deals, seed), workers)
    except Exception as e:  # noqa: BLE001 (any failure to play is the finding we report)
        return Check(game, name, "ERROR", f"{type(e).__name__}: {e}", players=n, bot=bot)
    test = paired_t_test(advantage_differences(records, n))
    wr, lo, hi = win_rate(records)
    ok = test.mean > 0 and test.p_greater < alpha
    detail = (
        f"win rate {wr:.3f} [{lo:.3f}, {hi:.3f}] (1/n = {1 / n:.3f}); points advantage "
        f"{test.describe()}; needs p(>0) < {alpha}"
    )
    return Check(game, name, "PASS" if ok else "FAIL", detail, test, n, bot, (wr, lo, hi))


def known_short(check: Check) -> Check:
    """`check` as KNOWN_SHORT has it: a listed FAIL becomes KNOWN SHORT (with the listed reason), a
    listed PASS says the entry can go; anything else is unchanged."""
    reason = KNOWN_SHORT.get((check.game, check.players, check.bot))
    if reason is None or check.status not in ("PASS", "FAIL"):
        return check
    if check.status == "PASS":
        check.detail += "; listed in gate.KNOWN_SHORT but passes now: remove the entry"
    else:
        check.status, check.detail = "KNOWN SHORT", f"{check.detail}; known short: {reason}"
    return check


def champion_plan(game: str, counts: Sequence[int], best: str, baselines: Sequence[str]) -> list[tuple[str, int]]:
    """(bot, player count) of every champion check: each weaker baseline at the game's default count
    (the first of `counts` when that is not among them), then the best bot at every count."""
    home = home_count(game, counts)
    return [(bot, home) for bot in baselines if bot != best] + [(best, n) for n in counts]


def check_champion(
    game: str,
    policies: Path,
    deals: int,
    alpha: float,
    seed: int,
    workers: int,
    players: Sequence[int] | None = None,
    baselines: Sequence[str] = BASELINES,
    best: str | None = None,
) -> Iterator[Check]:
    """The champion's checks (module docstring), each as it is decided: the best bot (`best`, else
    BEST_BOTS) at each of `players` (default: every count the champion claims), the baselines at the
    default count. A missing champion is a failing NO CHAMPION check."""
    path = champion_path(game, policies)
    if not path.exists():
        yield Check(game, "champion", "NO CHAMPION",
                    f"{path} does not exist: a game without a champion fails the gate (--games picks games)")
        return
    counts = list(players) if players else claimed_counts(game, path)
    for n in counts:
        problem = agent_problem(game, str(path), n)
        if problem:
            yield Check(game, "champion loads", "ERROR", f"{path} at {n}p: {problem}", players=n)
            return
    best = best or BEST_BOTS.get(game, DEFAULT_BEST_BOT)
    for bot, n in champion_plan(game, counts, best, baselines):
        yield known_short(strength_check(game, str(path), bot, n, deals, alpha, seed, workers))


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
    return Check(game, name, "REPORT", detail, players=n, bot=search, win=(wr, lo, hi))


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
    cand = play_jobs(game, [str(candidate), field], jobs, workers)
    champ_records = play_jobs(game, [str(champ), field], jobs, workers)
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
    p.add_argument("--players", type=int, nargs="+", default=None,
                   help="player counts (default: the champion checks at every count the champion claims, "
                   "the candidate check and search report at the game's default)")
    p.add_argument("--deals", type=int, default=None,
                   help=f"fixed deals per check, each played in every seat "
                   f"(default {DEALS}, else {DEFAULT_DEALS})")
    p.add_argument("--alpha", type=float, default=0.01, help="significance for champion vs baselines")
    p.add_argument("--candidate", type=Path, default=None, help="policy file to compare with the champion")
    p.add_argument("--candidate-alpha", type=float, default=0.05)
    p.add_argument("--best-bot", default=None,
                   help=f"the bot each champion must beat at every count (default {BEST_BOTS}, else "
                   f"{DEFAULT_BEST_BOT})")
    p.add_argument("--baselines", nargs="+", default=None,
                   help=f"weaker bots each champion must beat at the default count (default {list(BASELINES)})")
    p.add_argument("--field", default=None,
                   help=f"bots that fill the other seats in --candidate mode (default {FIELDS}, else "
                   f"{DEFAULT_FIELD})")
    p.add_argument("--search", default=None,
                   help=f"search bot each champion is reported against (default per game {SEARCH}); 'none' skips")
    p.add_argument("--search-deals", type=int, default=None, help="deals of that report (default per game)")
    p.add_argument("--policies", type=Path, default=REPO / "policies", help="folder of <game>/champion.npz")
    p.add_argument("--seed", type=int, default=GATE_SEED)
    p.add_argument("--workers", type=int, default=2, help="processes for the games played game by game")
    p.add_argument("--json", type=Path, default=None, help="also write the checks as JSON")
    add_record_option(p)
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

    def report(new: Iterable[Check], since: float) -> list[Check]:
        """Print each check with the seconds since the one before it, as it comes."""
        done = []
        for c in new:
            print(f"{c.line()} ({time.perf_counter() - since:.0f}s)", flush=True)
            since = time.perf_counter()
            done.append(c)
        checks.extend(done)
        return done

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
            for n in args.players or [None]:
                t = time.perf_counter()
                report([check_candidate(game, args.candidate, args.policies,
                                        args.field or FIELDS.get(game, DEFAULT_FIELD),
                                        args.deals or DEALS.get(game, DEFAULT_DEALS), args.candidate_alpha,
                                        args.seed, args.workers, n)], t)
    else:
        for game in args.games or corruption_envs.list_games():
            t = time.perf_counter()
            new = report(check_champion(game, args.policies, args.deals or DEALS.get(game, DEFAULT_DEALS),
                                        args.alpha, args.seed, args.workers, args.players,
                                        args.baselines or BASELINES, args.best_bot), t)
            if args.search == "none" or new[0].status in ("NO CHAMPION", "ERROR"):
                continue
            search, deals = SEARCH.get(game, DEFAULT_SEARCH)
            search, deals = args.search or search, args.search_deals or deals
            for n in args.players or [None]:
                for guided in (False, True) if can_be_guided(search) else (False,):
                    t = time.perf_counter()
                    report([report_search(game, args.policies, search, deals, args.seed, args.workers,
                                          n, guided)], t)
    seconds = time.perf_counter() - start
    count = {status: sum(c.status == status for c in checks)
             for status in ("PASS", "FAIL", "KNOWN SHORT", "NO CHAMPION", "ERROR", "REPORT")}
    missing = [c.game for c in checks if c.status == "NO CHAMPION"]
    short = [c for c in checks if c.status == "KNOWN SHORT"]
    if missing:
        print(f"FAIL: no champion for {', '.join(missing)}: a game without one fails the gate")
    if short:
        print(f"NOTE: {len(short)} known-short checks (gate.KNOWN_SHORT) failed without failing the run")
    print(f"gate: {count['PASS']} passed, {count['FAIL']} failed, {count['NO CHAMPION']} without a champion, "
          f"{count['KNOWN SHORT']} known short, {count['ERROR']} errors, {count['REPORT']} reports "
          f"in {seconds:.0f}s")
    if args.json is not None:
        args.json.write_text(json.dumps(
            [{"game": c.game, "check": c.name, "status": c.status, "players": c.players, "bot": c.bot,
              "detail": c.detail, "test": None if c.test is None else c.test.__dict__} for c in checks],
            indent=1))
    if args.record is not None:
        name = "gate" if args.candidate is None else record_name("gate-candidate", args.candidate.stem)
        title = ("The strength gate's checks" if args.candidate is None
                 else f"The strength gate: {args.candidate} against the champion")
        write(gate_record(checks, command_line("benchmarks.gate", argv), args.seed, title), args.record, name)
    return 2 if count["ERROR"] else 1 if any(c.fails for c in checks) else 0


RECORD_COLUMNS = (("verdict", ""), ("game", ""), ("check", ""), ("win rate [95% Wilson]", ".3f"),
                  ("rank-point advantage [95% CI]", "+.4f"), ("deals", ""), ("p(>0)", ".2g"), ("p(<0)", ".2g"))


def gate_record(checks: Sequence[Check], command: str, seed: int, title: str) -> Record:
    """The checks as a results record: each one's verdict, win rate and paired test."""
    rows = []
    for c in checks:
        win = None if c.win is None else Interval(value=c.win[0], low=c.win[1], high=c.win[2])
        t = c.test
        points = None if t is None else Interval(value=t.mean, low=t.low, high=t.high)
        rows.append([c.status, c.game, c.name, win, points,
                     *((None, None, None) if t is None else (t.n, t.p_greater, t.p_less))])
    return measured("strength", title, command, RECORD_COLUMNS, rows,
                    games=sorted({c.game for c in checks}), players=sorted({c.players for c in checks if c.players}),
                    seed=seed, note="A check passes when the champion is significantly better, p(>0) < 0.01 "
                    "(a candidate: fails when significantly weaker than the champion); KNOWN SHORT checks "
                    "(gate.KNOWN_SHORT) do not fail the run.")


if __name__ == "__main__":
    sys.exit(main())
