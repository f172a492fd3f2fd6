"""Pick the final policy among the run's last snapshots by a validation tournament (SB3's "best model").

Fine-tuning moves the policy along a noisy path: two runs of one config end at policies whose strength
differs by more than the gain PPO made. Scoring the final policy and the last `eval.select_from`
snapshots on `eval.select_games` validation deals per baseline (seed `eval.seed + 1`, distinct from the
periodic and final evaluations, the evaluation CLI and the gate) and keeping the best makes the result
depend less on where the path stopped. The score is the mean, over `eval.baselines`, of the win rate
against n-1 of each, and over `eval.reverse`, of the share of games that one of that bot does not win
against n-1 copies: a policy that beats the bots only as the odd one out scores no higher for it. The
final evaluation then measures the pick on other deals, so the selection does not bias it.
"""
from __future__ import annotations

from typing import Any

from .config import Config
from .evaluate import VALIDATION_DEALS, against_baselines


def select_best(candidates: list[tuple[int, Any]], config: Config) -> tuple[Any, list[dict[str, Any]]]:
    """`candidates`: (learner steps, policy) pairs. Returns the best policy and every candidate's scores."""
    ev = config.eval
    scored = []
    seed = ev.seed + VALIDATION_DEALS
    for step, policy in candidates:
        rates = {f"win_rate_vs_{r.baseline}": r.rate
                 for r in against_baselines(policy, config, ev.select_games, seed)}
        rates.update({f"one_{r.baseline}_vs_copies": r.rate
                      for r in against_baselines(policy, config, ev.select_games, seed, reverse=True,
                                                 baselines=ev.reverse)})
        terms = [1.0 - r if name.startswith("one_") else r for name, r in rates.items()]
        scored.append({"timesteps": step, "score": sum(terms) / len(terms), **rates})
    best = max(range(len(scored)), key=lambda i: (scored[i]["score"], scored[i]["timesteps"]))
    for i, row in enumerate(scored):
        row["picked"] = i == best
    return candidates[best][1], scored
