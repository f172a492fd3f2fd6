"""The RLlib learner's module and PPO learner, computed as the SB3 path's learner policy is.

`SparseActionMaskingTorchRLModule` is RLlib's action-masking PPO module (separate actor and critic MLPs)
whose first layers, actor and critic, are `SparseInputLinear` (training/network/sparse_input.py): the same
`nn.Linear` parameters, computed from the observation's non-zeros, found once a batch for both. Its state
dict names W `weight` as before, so RLlib checkpoints, the weights the learner sends its env runners and
the exported `policy.npz` are unchanged.

`SparsePPOTorchLearner` is RLlib's PPO learner with the SB3 path's optimizer (Adam, eps 1e-5, fused:
one kernel a step) and one finiteness test of the gradients a step instead of two a parameter; a step whose
gradients are not finite goes RLlib's own way (its `nan` gradients set to zero). Without a KL term in the
loss (`use_kl_loss=False`, as on the SB3 path) it does not build the sampling policy's distribution.
"""
from __future__ import annotations

from typing import Any, Sequence

import torch
import tree
from ray.rllib.algorithms.ppo.ppo import (LEARNER_RESULTS_KL_KEY, LEARNER_RESULTS_VF_EXPLAINED_VAR_KEY,
                                          LEARNER_RESULTS_VF_LOSS_UNCLIPPED_KEY)
from ray.rllib.algorithms.ppo.torch.ppo_torch_learner import PPOTorchLearner
from ray.rllib.connectors.connector_v2 import ConnectorV2
from ray.rllib.core.columns import Columns
from ray.rllib.core.distribution.torch.torch_distribution import TorchCategorical
from ray.rllib.core.learner.learner import ENTROPY_KEY, POLICY_LOSS_KEY, VF_LOSS_KEY
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.evaluation.postprocessing import Postprocessing
from ray.rllib.utils.torch_utils import FLOAT_MIN, explained_variance
from torch import nn

from corruption_envs.integrations.rllib import ActionMaskingTorchRLModule, rl_module_spec

from ..network.sparse_input import NonZeros, SparseInputLinear


class SparseActionMaskingTorchRLModule(ActionMaskingTorchRLModule):
    """Action-masking PPO with first layers computed from the observation's non-zeros (see the module)."""

    def setup(self) -> None:
        super().setup()
        encoders = [self.encoder.actor_encoder, getattr(self.encoder, "critic_encoder", None)]
        for encoder in encoders:
            if encoder is None:  # an inference-only copy (an env runner's) has no critic
                continue
            mlp = encoder.net.mlp
            if not isinstance(mlp[0], nn.Linear):
                raise TypeError(f"the encoder's first layer is {type(mlp[0]).__name__}, not nn.Linear")
            mlp[0] = SparseInputLinear.sharing(mlp[0])

    def _sparse(self, batch: dict) -> dict:
        """The batch with its observations as their non-zeros (one search for actor and critic); a train
        batch brings them so already (`CompactTrainBatch`)."""
        if Columns.OBS not in batch:
            inputs = self.encoder.actor_encoder.net.mlp[0].in_features
            return {**batch, Columns.OBS: NonZeros.from_padded(batch[NZ_COLUMNS], batch[NZ_VALUES], inputs)}
        obs = batch[Columns.OBS]
        if isinstance(obs, torch.Tensor) and obs.dim() == 2:
            return {**batch, Columns.OBS: NonZeros.of(obs)}
        return batch

    def _forward(self, batch: dict, **kwargs: Any) -> dict:
        return super()._forward(self._sparse(batch), **kwargs)

    def _train_batch(self, batch: dict) -> dict:
        """A train batch split into observation and mask (compute_values, the advantages' pass, splits it
        first; the warm start's calls come unsplit), its observations as their non-zeros."""
        if isinstance(batch.get(Columns.OBS), dict):
            action_mask, batch = self._preprocess_batch(batch)
            batch["action_mask"] = action_mask
        return self._sparse(batch)

    def _forward_train(self, batch: dict, **kwargs: Any) -> dict:
        return super()._forward_train(self._train_batch(batch), **kwargs)

    def _mask_action_logits(self, batch: dict, action_mask: torch.Tensor) -> dict:
        """RLlib's mask, clamp(log(mask), FLOAT_MIN) added to the logits, for a 0/1 mask: the same sums
        without log's slow path at 0 (1.7 ms for 512 x 329 entries, against 0.05 ms)."""
        batch[Columns.ACTION_DIST_INPUTS] = batch[Columns.ACTION_DIST_INPUTS] + (1.0 - action_mask) * FLOAT_MIN
        return batch

    def compute_values(self, batch: dict, embeddings: Any = None) -> torch.Tensor:
        if Columns.OBS not in batch:  # a compact train batch
            batch = self._sparse(batch)
        return super().compute_values(batch, embeddings)


NZ_COLUMNS, NZ_VALUES = "obs_nonzero_columns", "obs_nonzero_values"  # a compact train batch's observations


class CompactTrainBatch(ConnectorV2):
    """The last piece of the learner's connector, after the advantages: the rows of the train batch that
    PPO's loss counts, their observations as fixed-width non-zeros.

    RLlib's PPO adds an artificial last step to each episode chunk for its bootstrap value and masks it
    out of the loss; once the advantages are computed those rows are dropped, so that every minibatch
    holds `minibatch_size` steps the loss counts, as on the SB3 path. The observations (3,391 floats a
    row in Corruption, about 120 of them non-zero) become two (rows x the most non-zeros of a row)
    columns, `NZ_COLUMNS` and `NZ_VALUES`: each epoch's shuffle moves those instead of the dense rows,
    and the module's first layers read them without searching again."""

    def __call__(self, *, rl_module: Any, batch: dict, episodes: Any, **kwargs: Any) -> dict:
        for module_id, columns in batch.items():
            module = rl_module[module_id]
            module = module.unwrapped() if hasattr(module, "unwrapped") else module  # under DDP: the module
            obs = columns.get(Columns.OBS)
            if (not isinstance(module, SparseActionMaskingTorchRLModule) or module.is_stateful()
                    or not isinstance(obs, torch.Tensor) or obs.dim() != 2):
                continue
            columns[NZ_COLUMNS], columns[NZ_VALUES] = NonZeros.of(columns.pop(Columns.OBS)).padded()
            mask = columns.pop(Columns.LOSS_MASK, None)
            if mask is not None:
                keep = mask.nonzero().reshape(-1)
                for key, value in columns.items():
                    columns[key] = tree.map_structure(lambda v: v[keep], value)
        return batch


def sparse_module_spec(hidden: Sequence[int], activation: str,
                       model_config: dict[str, Any] | None = None) -> RLModuleSpec:
    """`rl_module_spec`'s network as a `SparseActionMaskingTorchRLModule`."""
    spec = rl_module_spec(hidden, activation, model_config)
    spec.module_class = SparseActionMaskingTorchRLModule
    return spec


class SparsePPOTorchLearner(PPOTorchLearner):
    """RLlib's PPO learner with the SB3 path's Adam and fewer passes over the gradients (see the module)."""

    def configure_optimizers_for_module(self, module_id: str, config: Any = None) -> None:
        params = self.get_parameters(self._module[module_id])
        # SB3's Adam eps for PPO; fused: one kernel for the whole step instead of one per tensor
        optimizer = torch.optim.Adam(params, eps=1e-5, fused=True)
        self.register_optimizer(module_id=module_id, optimizer=optimizer, params=params,
                                lr_or_lr_schedule=config.lr)

    def build(self) -> None:
        super().build()  # PPO's learner appends the advantages' piece to the connector
        if self._learner_connector is not None:
            self._learner_connector.append(CompactTrainBatch())

    def apply_gradients(self, gradients_dict: dict) -> None:
        grads = [g for g in gradients_dict.values() if g is not None]
        if (self._grad_scalers is not None or self._lr_scheduler_classes is not None or not grads
                or not bool(torch.isfinite(torch.stack(torch._foreach_norm(grads))).all())):
            return super().apply_gradients(gradients_dict)  # RLlib's own way: nan/inf gradients to zero
        for pid, grad in gradients_dict.items():
            self._params[pid].grad = grad
        for module_id, names in self._module_optimizers.items():
            for name in names:
                self.get_optimizer(module_id, name).step()

    def compute_loss_for_module(self, *, module_id: str, config: Any, batch: dict, fwd_out: dict) -> torch.Tensor:
        """PPO's loss as RLlib's PPO learner computes it (over the rows its loss mask keeps: not the
        artificial last step it adds to each episode chunk for the bootstrap value), the categorical's
        log-probabilities from one log_softmax; RLlib's own (which also builds the sampling policy's
        distribution) for a KL term or another distribution."""
        module = self.module[module_id].unwrapped()
        if (config.use_kl_loss or not config.use_critic
                or module.get_train_action_dist_cls() is not TorchCategorical):
            return super().compute_loss_for_module(module_id=module_id, config=config, batch=batch, fwd_out=fwd_out)
        if Columns.LOSS_MASK in batch:
            mask = batch[Columns.LOSS_MASK]
            valid = torch.sum(mask)
            mean = lambda x: torch.sum(x[mask]) / valid  # noqa: E731
        else:
            mean = torch.mean
        logp_all = torch.log_softmax(fwd_out[Columns.ACTION_DIST_INPUTS], dim=-1)
        logp = logp_all.gather(-1, batch[Columns.ACTIONS].long().unsqueeze(-1)).squeeze(-1)
        # torch's Categorical.entropy: masked actions' log-probabilities are the float minimum, p = 0
        # (softmax, not exp(logp_all): exp takes a slow path below -88, where masked entries are)
        probs = torch.softmax(fwd_out[Columns.ACTION_DIST_INPUTS], dim=-1)
        entropy = -(probs * logp_all.clamp(min=torch.finfo(logp_all.dtype).min)).sum(-1)
        ratio = torch.exp(logp - batch[Columns.ACTION_LOGP])
        advantages = batch[Postprocessing.ADVANTAGES]
        surrogate = torch.min(advantages * ratio,
                              advantages * torch.clamp(ratio, 1 - config.clip_param, 1 + config.clip_param))
        values = module.compute_values(batch, embeddings=fwd_out.get(Columns.EMBEDDINGS))
        vf_loss = torch.pow(values - batch[Postprocessing.VALUE_TARGETS], 2.0)
        vf_loss_clipped = torch.clamp(vf_loss, 0, config.vf_clip_param)
        coeff = self.entropy_coeff_schedulers_per_module[module_id].get_current_value()
        total = mean(-surrogate + config.vf_loss_coeff * vf_loss_clipped - coeff * entropy)
        self.metrics.log_dict({
            POLICY_LOSS_KEY: -mean(surrogate), VF_LOSS_KEY: mean(vf_loss_clipped),
            LEARNER_RESULTS_VF_LOSS_UNCLIPPED_KEY: mean(vf_loss),
            LEARNER_RESULTS_VF_EXPLAINED_VAR_KEY: explained_variance(batch[Postprocessing.VALUE_TARGETS], values),
            ENTROPY_KEY: mean(entropy), LEARNER_RESULTS_KL_KEY: torch.tensor(0.0, device=total.device),
        }, key=module_id, window=1)
        return total
