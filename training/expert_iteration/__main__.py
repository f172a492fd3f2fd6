"""Expert iteration, `python -m training.expert_iteration --game corruption` (the config's `ei:` section).

From `ei.start` (a policy file; of a mixture, its highest-weight member, or with `ei.members: each`
every member as a student of its own, weighted as `ei.weights` says, each member's prior weight held so
that the members still share one), each of `ei.iterations`: `ei.games` games of the current policy
(`positions.py`: half against `ei.opponent`, a bot or a policy file, half one opponent against copies) at
`eval.num_players`, a share `ei.keep` of its decisions searched by ISMCTS (`ei.simulations` per position,
played out by `ei.rollout`, `corruption_envs.search.search_policy_targets`) guided by `ei.guide` (the
current policy, or the `ei.start` file as it is: a mixture whole), and a student started as the current
policy fitted to the search's visit shares (sharpened by `ei.target_temperature`, `distill.py`). The student is the next
current policy. With `ei.answers`, groups of best responses to the result then join it at equal
shares (`training.psro.join_best_responses`). The run folder holds each iteration's policy
(`iteration_KK.npz`, 00 the start; `member_J/iteration_KK.npz` per member), the searched positions it
was fitted to (`targets_KK.npz`, written before the fit: `python -m training.search_clone --games 0 --add
targets_KK.npz --lone iteration_JJ.npz` fits them again with other settings), each answer
(`answer_KK.npz`), `ei.json` (each iteration's positions, times and held-out fit; each answer's
training time) and the final table.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from corruption_envs.core.threads import one_blas_thread
from corruption_envs.policy import MixturePolicy, NumpyPolicy, load_policy, mixture_of, read_policy_file
from corruption_envs.search import search_policy_targets

from .. import config as cfg
from ..psro import entry_seed, join_best_responses, meta_strategy, rule_options, win_share
from ..run_folder import RunFolder, driver_parser, new_run_path
from .distill import distill
from .positions import record_positions
from .recording import SearchPlay

SEARCH_CHUNK = 500  # positions searched between progress lines


def start_policy(path: str) -> NumpyPolicy:
    """The policy file at `path`; of a mixture, its highest-weight member as a policy of its own."""
    policy = read_policy_file(path)
    if not isinstance(policy, MixturePolicy):
        return policy
    return policy.single(int(np.argmax(policy.weights)))


def guide_file(config: cfg.Config, current: Path) -> str | Path:
    """The policy file whose move probabilities guide the search from the policy file `current`."""
    return current if config.ei.guide == "student" else config.ei.start


def iteration(config: cfg.Config, current: Path, it: int, member: int | None = None) -> tuple[NumpyPolicy, dict[str, Any]]:
    """One step from the policy file `current`: its positions, their search targets (kept beside
    `current` as `targets_KK.npz`), the fitted student. `member`: which member of the start mixture
    `current` descends from (None: the one student)."""
    ei, seed = config.ei, config.run.seed + it + 1000 * (member or 0)
    env = config.game_def.env(num_players=config.eval.num_players, **rule_options(config))
    cpu0 = time.process_time()
    positions = record_positions(env, current, ei.opponent, ei.games, ei.keep, seed)
    cpu1 = time.process_time()
    guide = load_policy(guide_file(config, current), env, seed=seed)
    visits, values = [], []
    for start in range(0, len(positions), SEARCH_CHUNK):
        part = slice(start, start + SEARCH_CHUNK)
        v, val = search_policy_targets(env, positions.states[part], positions.seats[part], ei.simulations,
                                       ei.rollout, seed=seed + start, guide=guide)
        visits.append(v)
        values.append(val)
        print(f"{label(it, member)}: searched {min(start + SEARCH_CHUNK, len(positions))} of {len(positions)} "
              f"positions ({time.process_time() - cpu1:.0f} CPU s)", flush=True)
    cpu2 = time.process_time()
    visits = np.concatenate(visits)
    # the search is the costly part: kept, a refit with other settings needs no search
    SearchPlay(positions.observations[np.arange(len(positions))], positions.masks, visits, positions.games,
               np.zeros(0)).save(current.parent / f"targets_{it:02d}.npz")
    start_actor = read_policy_file(current)
    # the start's meta (how it plays, its game, counts and learner steps; 0 steps where it names none)
    meta = {"timesteps": 0, **start_actor.meta, "expert_iteration": it}
    student, fit = distill(start_actor, positions.observations, positions.masks, visits,
                           positions.games, positions.prior_moves, ei.target_temperature, ei.epochs,
                           ei.batch_size, ei.learning_rate, seed, meta, fit_prior_weight=member is None)
    cpu3 = time.process_time()
    values = np.concatenate(values)
    record = {"iteration": it, **({} if member is None else {"member": member}), "games": ei.games, "positions": len(positions),
              "search_value_mean": float(np.nanmean(values)), "play_cpu_seconds": round(cpu1 - cpu0, 1),
              "search_cpu_seconds": round(cpu2 - cpu1, 1), "fit_cpu_seconds": round(cpu3 - cpu2, 1),
              "positions_per_search_cpu_second": round(len(positions) / max(cpu2 - cpu1, 1e-9), 1), **fit}
    print(f"{label(it, member)}: {len(positions)} positions, held-out KL to the search "
          f"{fit.get('heldout_kl_before', float('nan')):.3f} -> {fit.get('heldout_kl', float('nan')):.3f}, "
          f"top move agreement {fit.get('heldout_top_move_agreement_before', float('nan')):.3f} -> "
          f"{fit.get('heldout_top_move_agreement', float('nan')):.3f}", flush=True)
    return student, record


def label(it: int, member: int | None) -> str:
    return f"iteration {it}" if member is None else f"member {member}, iteration {it}"


def write_report(config: cfg.Config, out: Path, history: list[dict[str, Any]], **extra: Any) -> None:
    """ei.json: the run's start and options, each iteration's record so far, and `extra`."""
    report = {"start": config.ei.start, "guide": config.ei.guide, "members": config.ei.members,
              "iterations": history, **extra}
    (out / "ei.json").write_text(json.dumps(report, indent=1))


def students(config: cfg.Config, policy: NumpyPolicy, out: Path, history: list[dict[str, Any]],
             member: int | None = None) -> tuple[NumpyPolicy, Path]:
    """`ei.iterations` steps from `policy`, each student saved in the run folder `out` (a member's in
    its `member_J`) and its record added to `history` and ei.json; returns the last student and its file."""
    folder = out if member is None else out / f"member_{member}"
    folder.mkdir(exist_ok=True)
    current = folder / "iteration_00.npz"
    policy.save(current)
    for it in range(1, config.ei.iterations + 1):
        policy, record = iteration(config, current, it, member)
        current = folder / f"iteration_{it:02d}.npz"
        policy.save(current)
        history.append(record)
        write_report(config, out, history)
    return policy, current


def member_weights(config: cfg.Config, start: MixturePolicy, files: list[Path]) -> tuple[np.ndarray, list[list[float]] | None]:
    """The weights of the students in `files` (one per member of `start`) as `ei.weights` says, and
    with 'solve' the meta-game table it solved (row a: student a's win share against copies of b)."""
    if config.ei.weights == "start":
        return start.weights, None
    if config.ei.weights == "uniform":
        return np.full(len(files), 1.0 / len(files)), None
    table = np.array([[win_share(read_policy_file(a), b, config, entry_seed(config.run.seed, i, j))
                       for j, b in enumerate(files)] for i, a in enumerate(files)])
    return meta_strategy(table), table.round(4).tolist()


def run(config: cfg.Config, out: Path) -> tuple[NumpyPolicy, list[dict[str, Any]], float, float]:
    """The loop in `out`; returns the last student (with `ei.members: each`, the mixture of every
    member's last student, weighted as `ei.weights` says; with `ei.answers`, joined by that many best
    responses), each iteration's record, wall and CPU seconds."""
    t0, cpu0, ei = time.monotonic(), time.process_time(), config.ei
    start, history, extra = read_policy_file(ei.start), [], {}
    if ei.members == "each" and isinstance(start, MixturePolicy):
        last, files = zip(*(students(config, start.single(j), out, history, j) for j in range(len(start.members))))
        weights, table = member_weights(config, start, list(files))
        policy: NumpyPolicy = mixture_of(list(last), weights)
        extra = {"weights": weights.round(4).tolist(), "table": table}
        write_report(config, out, history, **extra)
    else:
        policy, _ = students(config, start_policy(ei.start), out, history)
    if ei.temperature is not None:  # the students learnt sharpened targets: they may play sharper
        policy.meta["temperature"] = policy.temperature = ei.temperature
    if ei.answers:  # what a fresh learner finds against the policy becomes part of it
        policy, extra["answers"] = join_best_responses(config, policy, ei.answers, out)
        write_report(config, out, history, **extra)
    return policy, history, time.monotonic() - t0, time.process_time() - cpu0


def main(argv: list[str] | None = None) -> int:
    one_blas_thread()
    p = driver_parser("python -m training.expert_iteration", __doc__.split("\n")[0], "ei", "ei.iterations=2")
    args = p.parse_args(argv)
    try:
        config = cfg.load(args.game, args.config, args.set)
        start = config.ei.start
        if start is None or not Path(start).is_file():
            raise cfg.ConfigError(f"config ei.start={start!r} is not a policy file; give the policy to start from")
        out = new_run_path(args.out, config.game, "ei")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    torch.set_num_threads(config.run.torch_threads)
    folder = RunFolder.begin(config, out)
    policy, history, seconds, cpu = run(config, out)
    # no learner steps: the policy's own count (its start's) is results.json's policy_timesteps
    folder.finish(policy, timesteps=0, learner_steps_per_s=0.0,
                  stopped=f"{config.ei.iterations} iterations", train_seconds=round(seconds, 1),
                  train_cpu_seconds=round(cpu, 1), positions=sum(r["positions"] for r in history))
    return 0


if __name__ == "__main__":
    sys.exit(main())
