"""The command line: `python -m benchmarks.tournament` (see the package docstring)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from corruption_envs.core.threads import one_blas_thread
from ..results import add_record_option, command_line, record_name, write
from . import __doc__ as DESCRIPTION
from .games import save_games
from .lookup import player_counts, setup_problem
from .report import render_text, tournament_record, write_outputs
from .scoring import run_tournament
from .seating import make_jobs


def main(argv: Sequence[str] | None = None) -> int:
    one_blas_thread()
    p = argparse.ArgumentParser(prog="python -m benchmarks.tournament", description=DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", required=True, help="registered game, or module:EnvClass")
    p.add_argument("--players", nargs="+", default=None,
                   help="player counts, or 'all' for the game's whole range (default: the game's default)")
    p.add_argument("--agents", nargs="+", required=True,
                   help="random | heuristic | expert | ismcts[:N[:ROLLOUT]][@POLICY] | pimc[:N[:ROLLOUT]] | "
                        "policy path | module:attr")
    p.add_argument("--games", type=int, default=200, help="games per player count (rounded up to whole deals)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="processes (results do not depend on it)")
    p.add_argument("--out", type=Path, default=None, help="folder for summary.json, summary.md, chart.png")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--save-games", type=Path, default=None, metavar="DIR",
                   help="also write the first games as play --log files with HTML replay pages to DIR")
    p.add_argument("--save-count", type=int, default=2, metavar="K", help="games to save (default 2)")
    add_record_option(p)
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
    if args.record is not None:
        name = record_name("tournament", args.game, *map(str, players), *args.agents,
                           f"seed{args.seed}")
        write(tournament_record(result, command_line("benchmarks.tournament", argv)), args.record, name)
    if args.save_games is not None:
        jobs = make_jobs(players, len(args.agents), args.games, args.seed)[: args.save_count]
        saved = save_games(args.game, args.agents, jobs, args.save_games)
        print(f"saved {len(jobs)} games to {args.save_games} ({len(saved)} files)")
    return 0

