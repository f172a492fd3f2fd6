"""The opponent pool: frozen snapshots of the learner, picked by prioritised fictitious self-play,
mixed with named bots (random, heuristic, expert, a search) in the config's proportions.

PFSP (AlphaStar's "hard" weighting): snapshot i is drawn with weight (1 - p_i) ** power, where p_i is
the learner's pairwise score against it (1 = finished above it, 1/2 = tied, 0 = below), so the
snapshots the learner still loses to come up more often. Scores start at a prior of 1/2.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from corruption_envs.core import Agent, PolicyFileError
from corruption_envs.policy import NumpyPolicy, read_policy_file

from ..network.checkpoint import RESTART, CheckpointError, is_count, is_number, write_atomically

FIRST_KINDS = ("self", "heuristic", "random")  # drawn in this order, then any other bots by name


def kind_order(mix: dict[str, float]) -> tuple[str, ...]:
    """The mix's kinds in drawing order: a fixed order, so a seed draws the same seats whatever
    order the config lists them in."""
    return (*(k for k in FIRST_KINDS if k in mix), *sorted(k for k in mix if k not in FIRST_KINDS))


PRIOR_GAMES = 2.0  # pseudo-games at score 1/2 before a snapshot has been met


@dataclass
class Snapshot:
    ident: int
    step: int
    policy: NumpyPolicy
    score: float = PRIOR_GAMES / 2  # the learner's pairwise points against it
    games: float = PRIOR_GAMES

    @property
    def learner_score(self) -> float:
        return self.score / self.games


class SampledPolicy(Agent):
    """A frozen snapshot acting by sampling its masked softmax from the caller's generator
    (a snapshot with a prior consults `prior_bot`, the bot of the seat it plays)."""

    __slots__ = ("policy", "rng", "prior_bot")

    def __init__(self, policy: NumpyPolicy, rng: np.random.Generator, prior_bot: Agent | None = None) -> None:
        self.policy, self.rng, self.prior_bot = policy, rng, prior_bot

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        z = self.policy.scores(observation, action_mask, self.prior_bot) / self.policy.temperature
        p = np.exp(z - z.max())
        c = np.cumsum(p)
        return int(np.searchsorted(c, self.rng.random() * c[-1], side="right"))


def index_entry_ok(d: object, next_id: int) -> bool:
    """A pool index entry as `OpponentPool.save` writes it: counts, a score within its games, and the
    file named by its ident (so an index cannot point outside the pool folder)."""
    return (
        isinstance(d, dict) and is_count(d.get("ident")) and d["ident"] < next_id and is_count(d.get("step"))
        and is_number(d.get("score")) and is_number(d.get("games")) and 0 <= d["score"] <= d["games"]
        and d["games"] > 0 and d.get("file") == f"snapshot_{d['ident']:04d}.npz"
    )


class OpponentPool:
    def __init__(self, mix: dict[str, float], max_snapshots: int, pfsp_power: float) -> None:
        self.kinds = kind_order(mix)
        weights = np.array([float(mix[k]) for k in self.kinds])
        self.kind_p = weights / weights.sum()
        self.max_snapshots = max_snapshots
        self.pfsp_power = pfsp_power
        self.snapshots: list[Snapshot] = []
        self._next_id = 0
        self._on_disk: set[int] = set()  # snapshots this pool wrote or read; a killed save's leftovers are not

    def add(self, policy: NumpyPolicy, step: int, ident: int | None = None) -> Snapshot:
        """Add a snapshot (a replica passes the trainer's `ident` so both name it alike)."""
        snap = Snapshot(self._next_id if ident is None else ident, step, policy)
        self._next_id = snap.ident + 1
        self.snapshots.append(snap)
        if len(self.snapshots) > self.max_snapshots:
            self.snapshots.pop(0)  # the oldest is the weakest, so it goes first
        return snap

    def sample_kind(self, rng: np.random.Generator) -> str:
        at = int(np.searchsorted(np.cumsum(self.kind_p), rng.random(), side="right"))
        kind = self.kinds[min(at, len(self.kinds) - 1)]
        if kind == "self" and not self.snapshots:
            return "random"
        return kind

    def pfsp_weights(self) -> np.ndarray:
        p = np.array([s.learner_score for s in self.snapshots])
        w = (1.0 - p) ** self.pfsp_power + 1e-3  # never starve a snapshot completely
        return w / w.sum()

    def sample_snapshot(self, rng: np.random.Generator) -> Snapshot:
        w = np.cumsum(self.pfsp_weights())
        return self.snapshots[min(int(np.searchsorted(w, rng.random() * w[-1], side="right")), len(w) - 1)]

    def record(self, ident: int, learner_points: float) -> None:
        """The learner finished above (1), level with (1/2) or below (0) snapshot `ident`."""
        for s in self.snapshots:
            if s.ident == ident:
                s.score += learner_points
                s.games += 1
                return

    def scores(self) -> dict[int, tuple[float, float]]:
        return {s.ident: (s.score, s.games) for s in self.snapshots}

    # --- persistence (for --resume; the index goes into the checkpoint, training/network/checkpoint.py) ------
    def save(self, folder: Path) -> dict:
        """Write the snapshots this pool has not written yet (never rewritten, so an earlier checkpoint's
        stay whole); returns the pool's index: plain JSON with each snapshot's file and PFSP score."""
        folder.mkdir(parents=True, exist_ok=True)
        index = []
        for s in self.snapshots:
            name = f"snapshot_{s.ident:04d}.npz"
            if s.ident not in self._on_disk:
                write_atomically(folder / name, s.policy.save)
                self._on_disk.add(s.ident)
            index.append({"ident": s.ident, "step": s.step, "score": s.score, "games": s.games, "file": name})
        return {"next_id": self._next_id, "snapshots": index}

    def load(self, folder: Path, index: dict) -> None:
        """Restore the pool from `save`'s index and the snapshot files in `folder` (read with
        allow_pickle=False); raises CheckpointError on anything malformed."""
        snapshots = index.get("snapshots")
        if not is_count(index.get("next_id")) or not isinstance(snapshots, list):
            raise CheckpointError(f"the pool index needs next_id (a count) and a snapshot list; {RESTART}")
        restored = []
        for d in snapshots:
            if not index_entry_ok(d, index["next_id"]):
                raise CheckpointError(f"pool index entry {d!r:.120} is malformed; {RESTART}")
            try:
                policy = read_policy_file(folder / d["file"])
            except PolicyFileError as e:
                raise CheckpointError(f"pool snapshot: {e}") from None
            restored.append(Snapshot(d["ident"], d["step"], policy, float(d["score"]), float(d["games"])))
        self._next_id, self.snapshots = index["next_id"], restored
        self._on_disk = {s.ident for s in restored}
