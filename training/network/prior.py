"""A MaskablePPO policy that builds on a bot: residual policy learning (Silver et al. 2018).

The learner's observation carries the prior bot's move as a one-hot tail over the actions
(`SelfPlayEnv(prior=...)` appends it). The actor reads the game observation through its MLP and
adds a learned `prior_weight` times that one-hot to its logits, so at the start (logits near 0) it
plays the bot's move most of the time and PPO learns where to depart from it. The critic reads the
game observation only (a privileged critic: every seat's information too), not the one-hot. Exported,
the same sum runs in numpy (`NumpyPolicy(prior=...)`).

Why the private SB3 hooks (`_build_mlp_extractor`, `_build`, `_get_action_dist_from_latent`; read in
sb3-contrib 2.9.2 `common/maskable/policies.py`): the policy builds its MLP, `action_net` and optimizer
inside its private `_build`, called from `__init__`, and turns the latent into logits in the private
`_get_action_dist_from_latent` as `action_net(latent_pi)`, a plain Linear. The public knobs
(`features_extractor_class`, `net_arch`, `activation_fn`, `share_features_extractor`, optimizer
arguments) all act before that Linear, so none can add `prior_weight * one-hot` to the logits: routing
the one-hot through `action_net` would learn a full matrix initialised near 0 (gain 0.01), not a bonus
of `prior_weight` from the start; replacing `action_net` or the MLP after `__init__` would draw the
initial weights in another order (other numbers for the same seed) and rename state-dict entries, so
checkpoints written before would no longer load. `prior_weight` is created at the start of `_build` so
that the optimizer SB3 builds there trains it (made after `__init__`, it would need a second optimizer).
"""
from __future__ import annotations

from typing import Any

import torch as th
from sb3_contrib.common.maskable.distributions import MaskableDistribution
from torch import nn

from .learner_policy import LearnerPolicy
from .sparse_input import NonZeros, SparseInputMlpExtractor


class PriorMlpExtractor(SparseInputMlpExtractor):
    """The usual actor and critic MLPs over the game observation; the actor's latent carries the prior's
    move from the observation's one-hot tail (the last `num_actions` features) as two more columns, the
    move and its one-hot value (0 for a row with no move), rather than the whole tail: every pass over a
    (batch x actions) tensor costs as much as the network itself with Corruptia's 2,154 actions."""

    def __init__(self, feature_dim: int, net_arch: Any, activation_fn: type[nn.Module], device: Any,
                 num_actions: int, actor_inputs: int | None = None) -> None:
        super().__init__(feature_dim - num_actions, net_arch, activation_fn, device, actor_inputs)
        self.num_actions = num_actions

    def _split(self, features: th.Tensor | NonZeros) -> tuple[NonZeros, th.Tensor]:
        """The game observation's non-zeros, and the prior's (move, value) per row (k, 2)."""
        k = self.num_actions
        if isinstance(features, NonZeros):
            rows, hint = features.split(features.shape[1] - k)
        else:
            rows, hint = NonZeros.of(features[..., :-k]), NonZeros.of(features[..., -k:])
        move = th.zeros(rows.shape[0], 2, dtype=hint.values.dtype, device=hint.values.device)
        if th.unique(hint.rows).numel() != hint.rows.numel():
            raise ValueError("the prior's tail of an observation must be a one-hot: a row has two moves")
        move[hint.rows, 0], move[hint.rows, 1] = hint.columns.to(move.dtype), hint.values
        return rows, move

    def forward(self, features: th.Tensor | NonZeros) -> tuple[th.Tensor, th.Tensor]:
        rows, move = self._split(features)
        return th.cat([self.policy_net(self.actor_view(rows)), move], dim=-1), self.value_net(rows)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        rows, move = self._split(features)
        return th.cat([self.policy_net(self.actor_view(rows)), move], dim=-1)

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return self.value_net(features[..., :-self.num_actions])


class PriorPolicy(LearnerPolicy):
    """logits = action_net(actor MLP(observation)) + prior_weight * one-hot(prior bot's move)."""

    def __init__(self, *args: Any, prior_weight: float = 3.0, **kwargs: Any) -> None:
        self.initial_prior_weight = float(prior_weight)
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = PriorMlpExtractor(
            self.features_dim, self.net_arch, self.activation_fn, self.device, int(self.action_space.n),
            self.actor_inputs,
        )

    def _build(self, lr_schedule: Any) -> None:
        # created before the optimizer (built in super()._build) so that it is trained too
        self.prior_weight = nn.Parameter(th.tensor(self.initial_prior_weight))
        super()._build(lr_schedule)

    def _get_action_dist_from_latent(self, latent_pi: th.Tensor) -> MaskableDistribution:
        move, value = latent_pi[:, -2:-1].long(), latent_pi[:, -1:]  # PriorMlpExtractor's last two columns
        logits = self.action_net(latent_pi[:, :-2]).scatter_add(1, move, self.prior_weight * value)
        return self.action_dist.proba_distribution(action_logits=logits)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "prior_weight": self.initial_prior_weight}
