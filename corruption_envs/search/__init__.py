"""Search bots that plan from the acting seat's information set: ISMCTS and determinized Monte Carlo.

Specs (see `corruption_envs.bots.make_agent`): `ismcts`, `ismcts:400`, `ismcts:400:heuristic`,
`pimc:200`, `pimc:200:heuristic`: the algorithm, simulations a move, and the playout policy
(random by default); `ismcts:1s`, `pimc:0.25s:heuristic`: as many simulations as a move's time budget
(wall seconds) allows instead, so the move depends on the machine's speed as well as the seed. Where the game has a compiled engine (numba installed) the simulations run in
waves of engine rows (`waves.py`), else one game at a time on the rules. `ismcts:400@policies/corruption/champion.npz` is ISMCTS guided by a policy
file's move probabilities (PUCT, `guided.py`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core import GameEnv
from ..policy import load_policy
from .guided import GuidedISMCTSAgent
from .ismcts import ISMCTSAgent
from .pimc import PIMCAgent
from .base import ROLLOUTS
from .teacher import root_shares, search_policy_targets

SEARCHES = {"ismcts": ISMCTSAgent, "pimc": PIMCAgent}
DEFAULT_SIMULATIONS = 200
SPEC_FORM = ("ismcts[:BUDGET[:ROLLOUT]][@POLICY_FILE] or pimc[:BUDGET[:ROLLOUT]], BUDGET simulations or "
             "seconds a move, e.g. ismcts:400:heuristic, ismcts:1s or ismcts:400@policies/corruption/champion.npz")
TIMED_SIMULATIONS = 10**9  # the simulation cap of a timed budget: the clock ends the move first


def is_search_spec(spec: str) -> bool:
    return spec.split("@", 1)[0].split(":", 1)[0] in SEARCHES


GUIDED = "ismcts"  # the one search a policy can guide


def can_be_guided(spec: str) -> bool:
    """A search spec without a guide yet, whose search takes one (`spec@POLICY_FILE` then works)."""
    return "@" not in spec and spec.split(":", 1)[0] == GUIDED


def search_agent(spec: str, env: GameEnv, seed: int | None = None, engine: bool | None = None) -> Any:
    """The search bot a spec names; ValueError naming the fault and the form otherwise (and
    PolicyFileError for a guiding policy file that does not load). `engine`: where it plays its
    simulations (`SearchAgent`): None the batched engine where the game has one, False one game at a
    time, True the engine or a ValueError."""
    spec, guide = spec.split("@", 1) if "@" in spec else (spec, None)
    name, *rest = spec.split(":")
    if len(rest) > 2:
        raise ValueError(f"agent spec {spec!r} has too many parts: use {SPEC_FORM}")
    sims = rest[0] if rest else str(DEFAULT_SIMULATIONS)
    rollout = rest[1] if len(rest) > 1 else "random"
    if rollout not in ROLLOUTS:
        raise ValueError(
            f"agent spec {spec!r}: rollout {rollout!r} is not one of {ROLLOUTS}; use {SPEC_FORM}"
        )
    simulations, seconds = _budget(spec, sims)
    budget = {"simulations": simulations, "time_limit": seconds, "rollout": rollout, "engine": engine}
    if guide is None:
        return SEARCHES[name](env, seed=seed, **budget)
    if name != GUIDED:
        raise ValueError(f"agent spec {spec}@...: only {GUIDED} takes a guiding policy; use {SPEC_FORM}")
    if not Path(guide).is_file():
        raise ValueError(f"agent spec {spec}@{guide}: the guiding policy {guide!r} is not a file; use {SPEC_FORM}")
    return GuidedISMCTSAgent(env, load_policy(guide, env, seed=seed), seed=seed, **budget)


def _budget(spec: str, budget: str) -> tuple[int, float | None]:
    """(simulations a move, time limit in seconds or None) of a spec's BUDGET: '400', or '1s', '0.25s'
    (then the simulations are only a cap the clock reaches first)."""
    if budget.endswith("s"):
        try:
            seconds = float(budget[:-1])
        except ValueError:
            seconds = -1.0
        if not 0 < seconds < float("inf"):
            raise ValueError(f"agent spec {spec!r}: time budget {budget!r} must be seconds > 0 such as 1s or "
                             f"0.5s; use {SPEC_FORM}")
        return TIMED_SIMULATIONS, seconds
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(
            f"agent spec {spec!r}: simulations {budget!r} must be a whole number >= 1 (or seconds such as 1s); "
            f"use {SPEC_FORM}"
        )
    return int(budget), None


__all__ = ["GuidedISMCTSAgent", "ISMCTSAgent", "PIMCAgent", "SEARCHES", "can_be_guided", "is_search_spec",
           "root_shares", "search_agent", "search_policy_targets"]
