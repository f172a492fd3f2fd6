"""The learner's network: MaskablePPO's MlpPolicy (separate actor and critic MLPs) with the same
parameters and math, computed faster: first layers over the observation's non-zeros
(`sparse_input`), read from a rollout buffer that keeps only those (`sparse_buffer`), masked logits
normalised by one log_softmax (`legal_categorical`), fused Adam."""
from __future__ import annotations

from typing import Any

import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from .legal_categorical import LegalCategoricalDistribution
from .sparse_input import NonZeros, SparseInputMlpExtractor


class LearnerPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's MlpPolicy, computed faster (see the module)."""

    def __init__(self, *args: Any, actor_inputs: int | None = None, **kwargs: Any) -> None:
        # a privileged critic (ppo.critic): the actor reads the observation's first `actor_inputs` entries
        self.actor_inputs = actor_inputs
        # SB3's Adam eps for PPO; fused: one kernel for the whole update instead of one per tensor
        kwargs.setdefault("optimizer_kwargs", {"eps": 1e-5, "fused": True})
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = SparseInputMlpExtractor(self.features_dim, self.net_arch, self.activation_fn,
                                                     self.device, self.actor_inputs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "actor_inputs": self.actor_inputs}

    def _build(self, lr_schedule: Any) -> None:
        self.action_dist = LegalCategoricalDistribution(int(self.action_space.n))
        super()._build(lr_schedule)

    def extract_features(self, obs: th.Tensor | NonZeros, features_extractor: Any = None) -> th.Tensor | NonZeros:
        """Observations from the sparse rollout buffer (`training.network.sparse_buffer`) arrive as their non-zeros
        and go to the MLPs as they are: the Box observation's preprocessing and flattening are identities."""
        if isinstance(obs, NonZeros):
            return obs
        return super().extract_features(obs, features_extractor)
