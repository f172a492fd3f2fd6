"""Expert iteration, `python -m training.expert_iteration --game corruption` (the config's `ei:` section).

From `ei.start` (a policy file; of a mixture, its highest-weight member), each of `ei.iterations`:
`ei.games` games of the current policy (`positions.py`: half against `ei.opponent` bots, half one
opponent against copies) at `eval.num_players`, a share `ei.keep` of its decisions searched by ISMCTS
(`ei.simulations` per position, `corruption_envs.search.search_policy_targets`) guided by `ei.guide`
(the current policy, or the `ei.start` file as it is: a mixture whole), and a student started as the
current policy fitted to the search's visit shares (sharpened by `ei.target_temperature`, `distill.py`).
The student is the next current policy. The run folder holds each iteration's policy (`iteration_KK.npz`,
00 the start), `ei.json` (each iteration's positions, times and held-out fit) and the final table.
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
from corruption_envs.policy import MixturePolicy, NumpyPolicy, load_policy, read_policy_file
from corruption_envs.search import search_policy_targets

from .. import config as cfg
from ..network.export import export_policy
from ..psro import rule_options
from ..run_folder import RunFolder, driver_parser, new_run_path
from .distill import fit_soft, sharpened, student_network
from .positions import record_positions

SEARCH_CHUNK = 500  # positions searched between progress lines


def start_policy(path: str) -> NumpyPolicy:
    """The policy file at `path`; of a mixture, its highest-weight member as a policy of its own."""
    policy = read_policy_file(path)
    if not isinstance(policy, MixturePolicy):
        return policy
    layers, head = policy.members[int(np.argmax(policy.weights))]
    meta = {k: v for k, v in policy.meta.items() if k not in ("mixture", "pruned", "format_version")}
    return NumpyPolicy(layers, head, policy.activation, meta, prior=policy.prior, prior_weight=policy.prior_weight)


def guide_file(config: cfg.Config, current: Path) -> str | Path:
    """The policy file whose move probabilities guide the search from the policy file `current`."""
    return current if config.ei.guide == "student" else config.ei.start


def iteration(config: cfg.Config, current: Path, it: int) -> tuple[NumpyPolicy, dict[str, Any]]:
    """One step from the policy file `current`: its positions, their search targets, the fitted student."""
    ei, seed = config.ei, config.run.seed + it
    env = config.game_def.env(num_players=config.eval.num_players, **rule_options(config))
    cpu0 = time.process_time()
    positions = record_positions(env, current, ei.opponent, ei.games, ei.keep, seed)
    cpu1 = time.process_time()
    guide = load_policy(guide_file(config, current), env, seed=seed)
    visits, values = [], []
    for start in range(0, len(positions), SEARCH_CHUNK):
        part = slice(start, start + SEARCH_CHUNK)
        v, val = search_policy_targets(env, positions.states[part], positions.seats[part], ei.simulations,
                                       seed=seed + start, guide=guide)
        visits.append(v)
        values.append(val)
        print(f"iteration {it}: searched {min(start + SEARCH_CHUNK, len(positions))} of {len(positions)} "
              f"positions ({time.process_time() - cpu1:.0f} CPU s)", flush=True)
    cpu2 = time.process_time()
    start_actor = read_policy_file(current)
    network = student_network(start_actor, ei.learning_rate)
    targets = sharpened(np.concatenate(visits), ei.target_temperature)
    fit = fit_soft(network, positions.observations, positions.masks, targets, positions.games,
                   positions.prior_moves, ei.epochs, ei.batch_size, ei.learning_rate, seed)
    cpu3 = time.process_time()
    # the start's meta (how it plays, its game, counts and learner steps; 0 steps where it names none)
    meta = {"timesteps": 0, **start_actor.meta, "expert_iteration": it}
    student = export_policy(network, start_actor.activation, meta, start_actor.prior)
    values = np.concatenate(values)
    record = {"iteration": it, "games": ei.games, "positions": len(positions),
              "search_value_mean": float(np.nanmean(values)), "play_cpu_seconds": round(cpu1 - cpu0, 1),
              "search_cpu_seconds": round(cpu2 - cpu1, 1), "fit_cpu_seconds": round(cpu3 - cpu2, 1),
              "positions_per_search_cpu_second": round(len(positions) / max(cpu2 - cpu1, 1e-9), 1), **fit}
    print(f"iteration {it}: {len(positions)} positions, held-out KL to the search "
          f"{fit.get('heldout_kl_before', float('nan')):.3f} -> {fit.get('heldout_kl', float('nan')):.3f}, "
          f"top move agreement {fit.get('heldout_top_move_agreement_before', float('nan')):.3f} -> "
          f"{fit.get('heldout_top_move_agreement', float('nan')):.3f}", flush=True)
    return student, record


def run(config: cfg.Config, out: Path) -> tuple[NumpyPolicy, list[dict[str, Any]], float, float]:
    """The loop in `out`; returns the last student, each iteration's record, wall and CPU seconds."""
    t0, cpu0 = time.monotonic(), time.process_time()
    policy = start_policy(config.ei.start)
    current = out / "iteration_00.npz"
    policy.save(current)
    history = []
    for it in range(1, config.ei.iterations + 1):
        policy, record = iteration(config, current, it)
        current = out / f"iteration_{it:02d}.npz"
        policy.save(current)
        history.append(record)
        (out / "ei.json").write_text(json.dumps({"start": config.ei.start, "guide": config.ei.guide, "iterations": history}, indent=1))
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
    folder.finish(policy, timesteps=policy.meta.get("timesteps", 0), learner_steps_per_s=0.0,
                  stopped=f"{config.ei.iterations} iterations", train_seconds=round(seconds, 1),
                  train_cpu_seconds=round(cpu, 1), positions=sum(r["positions"] for r in history))
    return 0


if __name__ == "__main__":
    sys.exit(main())
