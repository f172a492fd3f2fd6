"""Export MaskablePPO's actor to a plain numpy policy (cheap opponents, torch-free policy files)."""
from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.torch_layers import FlattenExtractor
from torch import nn

from corruption_envs.policy import NumpyPolicy, plays_sampling

from ..config import Config
from .prior import PriorPolicy

ACTIVATION_MODULES = {"tanh": nn.Tanh, "relu": nn.ReLU}


def export_actor(
    model: Any, activation: str, meta: dict[str, Any] | None = None, prior: str | None = None
) -> NumpyPolicy:
    """The actor of `model` (an sb3 MaskablePPO with an MLP policy over a flat Box observation; a
    `PriorPolicy` when `prior` names the bot it builds on)."""
    return export_policy(model.policy, activation, meta, prior)


def export_policy(
    policy: Any, activation: str, meta: dict[str, Any] | None = None, prior: str | None = None
) -> NumpyPolicy:
    """The actor of `policy` (an sb3 MaskableActorCriticPolicy, e.g. the learner's, with or without a
    model around it) as a numpy policy; see `export_actor`."""
    if not isinstance(policy.features_extractor, FlattenExtractor):
        raise TypeError("only the default FlattenExtractor (a flat Box observation) exports to numpy")
    layers = []
    for module in policy.mlp_extractor.policy_net:
        if isinstance(module, nn.Linear):
            layers.append(_linear(module))
        elif not isinstance(module, ACTIVATION_MODULES[activation]):
            raise TypeError(f"unexpected layer {module} in the actor (activation {activation!r})")
    if (prior is not None) != isinstance(policy, PriorPolicy):
        raise TypeError(f"prior={prior!r} does not match the model's policy {type(policy).__name__}")
    weight = float(policy.prior_weight.detach()) if prior is not None else 0.0
    return NumpyPolicy(layers, _linear(policy.action_net), activation, meta, sample=plays_sampling(meta or {}),
                       prior=prior, prior_weight=weight)


def _linear(layer: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
    w = layer.weight.detach().cpu().numpy().T.astype(np.float32)
    return np.ascontiguousarray(w), layer.bias.detach().cpu().numpy().astype(np.float32)


def policy_meta(config: Config, steps: int, commit: str) -> dict[str, Any]:
    """The meta of a policy file a run exports: its game and player counts, how it plays, its config."""
    rules = config.game_def.rules
    lo, hi = config.run.players
    return {
        "game": rules.name, "game_version": rules.version, "min_players": lo, "max_players": hi,
        "timesteps": steps, "commit": commit, "play": config.eval.play, "env_config": config.env, "training_config": config.dump(),
    }


def play_at_temperature(policy: NumpyPolicy, config: Config) -> None:
    """The exported policy samples at eval.temperature; the pool's snapshots and the evaluations during
    training sample at 1, so the temperature does not change what is learnt."""
    policy.meta["temperature"] = policy.temperature = config.eval.temperature
