"""Seeded evaluation of an agent against baseline bots, seats rotated, with 95% Wilson intervals."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from corruption_envs.core.threads import one_blas_thread
from corruption_envs.core import PolicyFileError
from corruption_envs.bots import make_agent
from corruption_envs.evaluation import Result, evaluate, wilson_interval
from corruption_envs.registry import get_game

from .config import Config

__all__ = ["Result", "evaluate", "against_baselines", "final_evaluation", "wilson_interval", "results_rows",
           "metric_name", "trained_env_config", "main"]


# deal seeds, as offsets from eval.seed: each set of deals is used for one purpose only, so neither the
# periodic evaluations nor the validation pick (training/selection.py) has seen the final table's deals
PERIODIC_DEALS, VALIDATION_DEALS, FINAL_DEALS = 0, 1, 2


def against_baselines(policy: Any, config: Config, games: int, seed: int | None = None,
                      num_players: int | None = None, reverse: bool = False,
                      baselines: list[str] | None = None) -> list[Result]:
    """`policy` against each of `baselines` (default the training config's `eval.baselines`), on the
    deals of `seed` (default `eval.seed`), at `num_players` (default `eval.num_players`); with `reverse`,
    one of each baseline against copies of `policy`."""
    ev = config.eval
    seed = ev.seed + PERIODIC_DEALS if seed is None else seed
    n = ev.num_players if num_players is None else num_players
    return [evaluate(policy, config.game_def, b, games, n, seed, config.env, reverse=reverse)
            for b in (ev.baselines if baselines is None else baselines)]


def final_evaluation(policy: Any, config: Config) -> list[Result]:
    """On deals used for nothing else: `eval.final_games` per baseline at `eval.num_players` in both
    directions (the policy against n-1 of the baseline, and one baseline against n-1 copies of the
    policy), and `eval.count_games` at each other player count of `run.players`, so the results table
    shows every count trained for."""
    ev, (lo, hi) = config.eval, config.run.players
    seed, main = ev.seed + FINAL_DEALS, ev.num_players
    return [r for n in sorted({main, *range(lo, hi + 1)})
            for r in against_baselines(policy, config, ev.final_games if n == main else ev.count_games,
                                       seed, n)
            ] + against_baselines(policy, config, ev.final_games, seed, main, reverse=True)


def metric_name(result: Result) -> str:
    """The result's name in logs: `vs_expert`, or `one_expert_vs_copies` for the other direction."""
    return f"one_{result.baseline}_vs_copies" if result.reverse else f"vs_{result.baseline}"


def results_rows(results: list[Result]) -> list[list[str]]:
    """Rows for a results table: who sits alone against whom, players, games, the lone seat's win
    rate and its 95% interval."""
    rows = []
    for r in results:
        lo, hi = r.interval
        k = r.num_players - 1
        table = f"one {r.baseline} vs {k} x policy" if r.reverse else f"policy vs {k} x {r.baseline}"
        rows.append([table, str(r.num_players), str(r.games), f"{r.rate:.3f}", f"[{lo:.3f}, {hi:.3f}]"])
    return rows


def trained_env_config(policy: Any) -> dict[str, Any]:
    """The rule options a policy was trained with (its file's meta), so it plays under them; the
    reward mode does not matter for evaluation."""
    env_config = getattr(policy, "meta", {}).get("env_config", {})
    if not isinstance(env_config, dict):
        raise PolicyFileError(f"policy meta env_config={env_config!r} is not a mapping of rule options; "
                              "re-export the policy with `python -m training.selfplay`")
    return {k: v for k, v in env_config.items() if k != "reward"}


def main(argv: list[str] | None = None) -> int:
    """python -m training.evaluate --game corruption --policy policies/corruption/champion.npz"""
    one_blas_thread()
    p = argparse.ArgumentParser(prog="python -m training.evaluate",
                                description="Win rate of an agent against baseline bots and of one of each "
                                            "baseline against copies of the agent, seats rotated.")
    p.add_argument("--game", required=True)
    p.add_argument("--policy", required=True, help="an exported policy .npz, or 'heuristic' / 'random'")
    p.add_argument("--baselines", nargs="+", default=["random", "heuristic"])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--players", type=int, nargs="+", default=[4], help="player counts, each on its own deals")
    p.add_argument("--seed", type=int, default=2026, help="deal seed (differs from training's eval seed)")
    p.add_argument("--record", type=Path, default=None, metavar="DIR",
                   help="also write the table as a JSON record to DIR (benchmarks/results.py; needs the bench extra)")
    args = p.parse_args(argv)
    policies, env_configs = {}, {}
    try:  # every input checked before the first game: a bad one is one line, not a traceback
        game = get_game(args.game)
        for n in args.players:
            env = game.env(num_players=n)
            policies[n] = make_agent(args.policy, env, seed=args.seed)
            env_configs[n] = trained_env_config(policies[n])
            game.env(num_players=n, **env_configs[n])
            for baseline in args.baselines:
                make_agent(baseline, env)
        if args.games < 1:
            raise ValueError(f"--games {args.games}: give at least 1 game")
    except ValueError as e:  # an unknown game or agent, a bad player count, a corrupt policy file
        print(f"error: {e}", file=sys.stderr)
        return 2
    rows, results = [], []
    for n, policy in policies.items():
        k, env_config = n - 1, env_configs[n]
        for baseline in args.baselines:
            for reverse in (False, True):
                r = evaluate(policy, game, baseline, args.games, n, args.seed, env_config, reverse=reverse)
                results.append(r)
                rows.append(r.as_dict())
                lo, hi = r.interval
                who = f"one {baseline} vs {k} x {args.policy}" if reverse else f"{args.policy} vs {k} x {baseline}"
                print(f"{args.game}: {who}: win rate {r.rate:.3f} (95% Wilson [{lo:.3f}, {hi:.3f}], "
                      f"{r.games} games, seed {args.seed})", flush=True)
    print(json.dumps(rows))
    if args.record is not None:
        from benchmarks.results import command_line, record_name, write

        record = strength_record(args.policy, args.game, results, command_line("training.evaluate", argv),
                                 args.seed)
        counts = "-".join(map(str, policies))
        name = record_name("strength", args.game, Path(args.policy).stem, f"{counts}p", *args.baselines,
                           f"seed{args.seed}")
        write(record, args.record, name)
    return 0


RECORD_COLUMNS = (("who sits alone", ""), ("against", ""), ("players", ""), ("games", ","),
                  ("win rate [95% Wilson]", ".3f"), ("chance", ".3f"))


def strength_rows(policy: str, results: list[Result]) -> list[list[Any]]:
    """Rows under RECORD_COLUMNS: who sits alone against whom, the lone seat's win rate and interval."""
    rows = []
    for r in results:
        alone, others = (r.baseline, f"{r.num_players - 1} x {policy}") if r.reverse else (
            policy, f"{r.num_players - 1} x {r.baseline}")
        lo, hi = r.interval
        rows.append([alone, others, r.num_players, r.games, {"value": r.rate, "low": lo, "high": hi},
                     1 / r.num_players])
    return rows


def strength_record(policy: str, game: str, results: list[Result], command: str, seed: int) -> Any:
    """Both directions as a results record (benchmarks.results.Record): the policy alone against copies
    of each baseline, and one of each baseline alone against copies of the policy."""
    from benchmarks.results import measured

    counts = sorted({r.num_players for r in results})
    return measured("strength", f"{game}, {'/'.join(map(str, counts))} players: {policy} against bots, both ways",
                    command, RECORD_COLUMNS, strength_rows(policy, results), games=[game], players=counts, seed=seed)

if __name__ == "__main__":
    raise SystemExit(main())
