"""MaskablePPO's masked categorical distribution, normalised with one log_softmax.

sb3-contrib sets the illegal actions' logits to -1e8 and normalises with `logsumexp`, whose exp (forward
and backward) takes a slow path on every input that underflows: with Corruptia's 2,154 actions and a
few legal ones, that was a quarter of each PPO update. `log_softmax` computes the same normalised
logits (the illegal actions' probabilities still exactly 0) with a kernel that has no slow path.
The distribution is built without torch's argument validation (a pass over every logit per build).
"""
from __future__ import annotations

from typing import Any

import torch as th
import torch.nn.functional as F
from sb3_contrib.common.maskable.distributions import MaskableCategorical, MaskableCategoricalDistribution

ILLEGAL_LOGIT = -1e8  # sb3-contrib's value for a masked-out action


class LegalCategorical(MaskableCategorical):
    """MaskableCategorical whose masking normalises the logits with `log_softmax`."""

    def apply_masking(self, masks: Any) -> None:
        if masks is None:
            super().apply_masking(None)
            return
        original = self._original_logits
        self.masks = th.as_tensor(masks, dtype=th.bool, device=original.device).reshape(original.shape)
        masked = th.where(self.masks, original, th.tensor(ILLEGAL_LOGIT, dtype=original.dtype, device=original.device))
        self.__dict__.pop("probs", None)  # computed again from the new logits when read
        self.logits = F.log_softmax(masked, dim=-1)
        self._param = self.logits


class LegalCategoricalDistribution(MaskableCategoricalDistribution):
    """The SB3 distribution wrapper that makes `LegalCategorical`s."""

    def proba_distribution(self, action_logits: th.Tensor) -> LegalCategoricalDistribution:
        # no argument validation: its pass over every logit costs about what the normalisation does
        self.distribution = LegalCategorical(logits=action_logits.view(-1, self.action_dim), validate_args=False)
        return self
