"""Search bots that plan from the acting seat's information set: ISMCTS and determinized Monte Carlo.

Specs (see `corruption_envs.bots.make_agent`): `ismcts`, `ismcts:400`, `ismcts:400:heuristic`,
`pimc:200`, `pimc:200:heuristic`: the algorithm, simulations a move, and the playout policy
(random by default).
"""
from __future__ import annotations

from typing import Any

from ..core import GameEnv
from .ismcts import ISMCTSAgent
from .pimc import PIMCAgent
from .base import ROLLOUTS

SEARCHES = {"ismcts": ISMCTSAgent, "pimc": PIMCAgent}
DEFAULT_SIMULATIONS = 200
SPEC_FORM = "ismcts[:SIMULATIONS[:ROLLOUT]] or pimc[:SIMULATIONS[:ROLLOUT]], e.g. ismcts:400:heuristic"


def is_search_spec(spec: str) -> bool:
    return spec.split(":", 1)[0] in SEARCHES


def search_agent(spec: str, env: GameEnv, seed: int | None = None) -> Any:
    """The search bot a spec names; ValueError naming the fault and the form otherwise."""
    name, *rest = spec.split(":")
    if len(rest) > 2:
        raise ValueError(f"agent spec {spec!r} has too many parts: use {SPEC_FORM}")
    sims = rest[0] if rest else str(DEFAULT_SIMULATIONS)
    if not sims.isdigit() or int(sims) < 1:
        raise ValueError(
            f"agent spec {spec!r}: simulations {sims!r} must be a whole number >= 1; use {SPEC_FORM}"
        )
    rollout = rest[1] if len(rest) > 1 else "random"
    if rollout not in ROLLOUTS:
        raise ValueError(
            f"agent spec {spec!r}: rollout {rollout!r} is not one of {ROLLOUTS}; use {SPEC_FORM}"
        )
    return SEARCHES[name](env, seed=seed, simulations=int(sims), rollout=rollout)


__all__ = ["ISMCTSAgent", "PIMCAgent", "SEARCHES", "is_search_spec", "search_agent"]
