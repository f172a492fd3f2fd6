"""MaskablePPO's masked categorical distribution, computed over each row's legal actions only.

sb3-contrib's `MaskableCategorical` sets the illegal actions' logits to -1e8 and then normalises,
exponentiates, multiplies and masks every one of them, forward and backward: with Corruptia's 2,154
actions and a few dozen legal ones, those passes over (batch x actions) tensors were most of a PPO
update. `LegalCategorical` gathers each row's legal logits into a (rows x most legal actions) tensor once
and does all its work there: the same log-probabilities, entropies and probabilities (an illegal action's
probability is exactly 0), sampling and greedy choice in action order, so ties go to the lowest action.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
import torch.nn.functional as F
from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution

ILLEGAL_LOGIT = -1e8  # sb3-contrib's value for a masked-out action: its probability underflows to 0


class LegalCategorical:
    """A categorical distribution over `logits` (rows x actions) restricted to `masks` (all if None)."""

    def __init__(self, logits: th.Tensor, masks: Any = None) -> None:
        self.original_logits = logits
        self.apply_masking(masks)

    def apply_masking(self, masks: Any) -> None:
        """Restrict to `masks` (rows x actions, true where legal), or to every action if None; the
        compact form is built when first needed."""
        self.masks = None if masks is None else th.as_tensor(masks, dtype=th.bool).reshape(self.original_logits.shape)
        self._compact: tuple[th.Tensor, th.Tensor, th.Tensor] | None = None

    def compact(self) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """(index, padding, log_probs), each (rows x most legal actions in a row): row r's legal actions in
        increasing order, then padding (index 0, log-probability about -1e8, probability 0)."""
        if self._compact is None:
            logits = self.original_logits
            rows, width = logits.shape
            legal = np.ones((rows, width), bool) if self.masks is None else self.masks.cpu().numpy()
            counts = legal.sum(axis=1)
            found = np.flatnonzero(legal)  # row by row, actions increasing
            row, action = np.divmod(found, width)
            position = np.arange(found.size) - (np.cumsum(counts) - counts)[row]
            index = np.zeros((rows, max(int(counts.max(initial=0)), 1)), np.int64)
            index[row, position] = action
            index = th.from_numpy(index).to(logits.device)
            padding = th.arange(index.shape[1], device=logits.device)[None, :] >= th.from_numpy(counts).to(logits.device)[:, None]
            z = logits.gather(1, index).masked_fill(padding, ILLEGAL_LOGIT)
            self._compact = (index, padding, F.log_softmax(z, dim=-1))
        return self._compact

    @property
    def probs(self) -> th.Tensor:
        """Every action's probability (rows x actions), 0 for the illegal ones."""
        index, _, log_probs = self.compact()
        return th.zeros_like(self.original_logits).scatter_add(1, index, log_probs.exp())

    def log_prob(self, actions: th.Tensor) -> th.Tensor:
        index, padding, log_probs = self.compact()
        hit = (index == actions.long().reshape(-1, 1)) & ~padding
        picked = log_probs.gather(1, hit.to(th.uint8).argmax(dim=1, keepdim=True)).squeeze(1)
        return th.where(hit.any(dim=1), picked, th.full_like(picked, ILLEGAL_LOGIT))

    def entropy(self) -> th.Tensor:
        _, _, log_probs = self.compact()
        return -(log_probs.exp() * log_probs).sum(dim=1)

    def sample(self) -> th.Tensor:
        index, _, log_probs = self.compact()
        return index.gather(1, th.multinomial(log_probs.exp(), 1)).squeeze(1)

    def mode(self) -> th.Tensor:
        index, _, log_probs = self.compact()
        return index.gather(1, log_probs.argmax(dim=1, keepdim=True)).squeeze(1)


class LegalCategoricalDistribution(MaskableCategoricalDistribution):
    """The SB3 distribution wrapper that makes `LegalCategorical`s."""

    def proba_distribution(self, action_logits: th.Tensor) -> LegalCategoricalDistribution:
        self.distribution = LegalCategorical(action_logits.view(-1, self.action_dim))
        return self

    def mode(self) -> th.Tensor:
        return self.distribution.mode()
