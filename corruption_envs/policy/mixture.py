"""MixturePolicy: K actors of one shape, one of them drawn by weight to play each game (PSRO's
meta-strategy); `mixture_of` builds one from single actors."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..core import PolicyFileError
from .inference import NumpyPolicy, as_float32, plays_sampling
from .writer import MIXTURE_VERSION, named_arrays, write_policy_file

MAX_MEMBERS = 64


class MixturePolicy(NumpyPolicy):
    """K actors of one shape with a probability each: every game it plays one member, drawn by weight
    from its own generator, at `seed()` (tournaments and the gate reseed an agent per game) and at
    `start_game()` (`evaluate` calls it before every game). A best response must then beat the
    mixture, not one net (PSRO's meta-strategy, `training/psro.py`). `act_batch` plays the member drawn
    last for every row it is given, as `act` does until the next draw: a batched caller that runs one
    game per row and wants a member per game draws per game and batches the rows of each member."""

    def __init__(
        self,
        members: list[tuple[list[tuple[np.ndarray, np.ndarray]], tuple[np.ndarray, np.ndarray]]],
        weights: list[float] | np.ndarray,
        **options: Any,
    ) -> None:
        """`options`: NumpyPolicy's (activation, meta, sample, seed, prior, prior_weight), shared by all."""
        w = np.asarray(weights, np.float64)
        if not (1 <= len(members) == w.size <= MAX_MEMBERS and np.isfinite(w).all() and (w >= 0).all()
                and w.sum() > 0):
            raise PolicyFileError(
                f"a mixture needs 1-{MAX_MEMBERS} members and as many finite weights >= 0 with a positive "
                f"sum; got {len(members)} members and weights {list(weights)!r:.80}"
            )
        super().__init__(*members[0], **options)
        self.members = [as_float32(*m) for m in members]
        self.weights = w / w.sum()
        self.member = 0
        self.start_game()

    def start_game(self) -> None:
        """Draw the member that plays the next game."""
        self.member = self.draw_member()
        self.layers, self.head = self.members[self.member]

    def draw_member(self) -> int:
        """A member's index, drawn by weight from this mixture's generator."""
        return int(self.rng.choice(len(self.members), p=self.weights))

    def single(self, j: int) -> NumpyPolicy:
        """Member `j` as a single-actor policy of its own (its own generator), playing as this mixture
        plays; it saves as a single-actor file, without the mixture's keys."""
        layers, head = self.members[j]
        meta = {k: v for k, v in self.meta.items() if k not in ("mixture", "pruned", "format_version")}
        return NumpyPolicy(layers, head, self.activation, meta, prior=self.prior, prior_weight=self.prior_weight)

    def member_policies(self) -> list[NumpyPolicy]:
        """Each member as a policy that plays as this mixture does (sampling from this mixture's
        generator, with its bound prior bot): the match loop seats member `draw_member()` per game and
        batches each member's rows."""
        policies = []
        for layers, head in self.members:
            p = NumpyPolicy(layers, head, self.activation, self.meta, self.sample, None, self.prior,
                            self.prior_weight)
            p.rng, p.prior_bot, p.temperature = self.rng, self.prior_bot, self.temperature
            policies.append(p)
        return policies

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self.start_game()

    def draw(self, rng: np.random.Generator) -> NumpyPolicy:
        """A member drawn by weight from `rng`, as a policy of its own (the pool's seats share this
        object, so each seat plays its own draw)."""
        layers, head = self.members[int(rng.choice(len(self.members), p=self.weights))]
        return NumpyPolicy(layers, head, self.activation, self.meta, self.sample, None, self.prior,
                           self.prior_weight)

    def save(self, path: str | Path) -> Path:
        weights: dict[str, np.ndarray] = {}
        for j, (layers, head) in enumerate(self.members):
            weights.update(named_arrays(layers, head, f"m{j}_"))
        return write_policy_file(path, {**self.file_meta(), "mixture": self.weights.tolist()}, weights,
                                 MIXTURE_VERSION)


def mixture_of(policies: list[NumpyPolicy], weights: list[float] | np.ndarray,
               meta: dict[str, Any] | None = None) -> MixturePolicy:
    """One mixture of single-actor policies of one shape (activation, layers, prior), playing as `meta`
    says (default: the first one's meta)."""
    first = policies[0]
    for p in policies:
        if isinstance(p, MixturePolicy) or (p.activation, len(p.layers), p.obs_size, p.num_actions, p.prior) != (
                first.activation, len(first.layers), first.obs_size, first.num_actions, first.prior):
            raise PolicyFileError("a mixture's members are single actors of one shape (activation, "
                                  "layers, sizes, prior); export them alike")
    meta = dict(first.meta if meta is None else meta)
    return MixturePolicy([(p.layers, p.head) for p in policies], weights, activation=first.activation, meta=meta,
                         sample=plays_sampling(meta), prior=first.prior, prior_weight=first.prior_weight)
