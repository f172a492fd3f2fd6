"""The SB3 path's residual prior (training/network/prior.py) as an RLlib module: logits = actor MLP(observation)
+ prior_weight * one-hot(the prior bot's move), with `prior_weight` learnt from `ppo.prior_weight`.

On the engine the runners' observations carry the bot's move as a third key, `prior` (a one-hot over the
actions, training/rllib/engine_env.py); the actor and critic MLPs read `observations` only, as on the SB3
path, and the exported `policy.npz` names the bot and its weight, so it plays the same sum in numpy.
"""
from __future__ import annotations

from typing import Any, Sequence

import torch
from ray.rllib.algorithms.ppo.torch.ppo_torch_rl_module import PPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from torch import nn

from .engine_env import PRIOR  # the observation key, and the batch column once split off
from .module import SparseActionMaskingTorchRLModule, sparse_module_spec


class PriorActionMaskingTorchRLModule(SparseActionMaskingTorchRLModule):
    """Action-masking PPO whose logits add `prior_weight` on the prior bot's move."""

    def setup(self) -> None:
        super().setup()
        self.prior_weight = nn.Parameter(torch.tensor(float(self.model_config["prior_weight"])))

    def _preprocess_batch(self, batch: dict, **kwargs: Any) -> tuple[Any, dict]:
        prior = batch[Columns.OBS].pop(PRIOR)
        action_mask, batch = super()._preprocess_batch(batch, **kwargs)
        batch[PRIOR] = prior
        return action_mask, batch

    def _with_prior(self, outs: dict, prior: torch.Tensor) -> dict:
        outs[Columns.ACTION_DIST_INPUTS] = outs[Columns.ACTION_DIST_INPUTS] + self.prior_weight * prior
        return outs

    def _forward_inference(self, batch: dict, **kwargs: Any) -> dict:
        action_mask, batch = self._preprocess_batch(batch)
        outs = PPOTorchRLModule._forward_inference(self, batch, **kwargs)
        return self._mask_action_logits(self._with_prior(outs, batch[PRIOR]), action_mask)

    def _forward_exploration(self, batch: dict, **kwargs: Any) -> dict:
        action_mask, batch = self._preprocess_batch(batch)
        outs = PPOTorchRLModule._forward_exploration(self, batch, **kwargs)
        return self._mask_action_logits(self._with_prior(outs, batch[PRIOR]), action_mask)

    def _forward_train(self, batch: dict, **kwargs: Any) -> dict:
        batch = self._train_batch(batch)
        outs = PPOTorchRLModule._forward_train(self, batch, **kwargs)
        return self._mask_action_logits(self._with_prior(outs, batch[PRIOR]), batch["action_mask"])


def prior_module_spec(hidden: Sequence[int], activation: str, prior_weight: float) -> RLModuleSpec:
    """`sparse_module_spec`'s module with the prior's bonus, starting at `prior_weight`."""
    spec = sparse_module_spec(hidden, activation, {"prior_weight": float(prior_weight)})
    spec.module_class = PriorActionMaskingTorchRLModule
    return spec
