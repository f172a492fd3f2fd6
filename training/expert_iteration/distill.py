"""Distillation: a student network fitted to a search's move distributions (expert iteration's step).

The student is the learner's own network (`LearnerPolicy`, a `PriorPolicy` when the policy builds on a
bot) started as a policy file's actor, so it exports to the same policy-file format. Its loss at a
position is the cross-entropy of its move distribution over the legal moves to the search's visit shares,
-sum_a p_search(a) log p_student(a), minimised exactly by p_student = p_search (the soft targets keep
what the search thinks of every move, not only its pick). Illegal moves have probability 0 in the
student (its distribution is over the legal moves only) and may have no target mass.
"""
from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from corruption_envs.policy import NumpyPolicy

from ..network.export import ACTIVATION_MODULES, export_policy
from ..network.sparse_rows import SparseRows

HOLDOUT = 0.1  # share of the games whose positions are held out to measure the fit


def student_network(start: NumpyPolicy, learning_rate: float) -> Any:
    """The learner's network shaped as `start`'s actor (with its prior bot's one-hot input when it has
    one), its actor a copy of `start`'s; the critic is fresh (a policy file has none; the fit skips it)."""
    from ..network.learner_policy import LearnerPolicy
    from ..network.prior import PriorPolicy
    from ..ppo.init_policy import copy_actor

    actions = start.num_actions
    tail = actions if start.prior is not None else 0
    space = gym.spaces.Box(0.0, 1.0, (start.obs_size + tail,), np.float32)
    widths = [w.shape[1] for w, _ in start.layers]
    kwargs: dict[str, Any] = {"net_arch": {"pi": widths, "vf": widths},
                              "activation_fn": ACTIVATION_MODULES[start.activation]}
    cls = LearnerPolicy if start.prior is None else PriorPolicy
    if start.prior is not None:
        kwargs["prior_weight"] = start.prior_weight
    network = cls(space, gym.spaces.Discrete(actions), lambda _: learning_rate, **kwargs)
    copy_actor(start, network)
    return network


def sharpened(visits: np.ndarray, temperature: float) -> np.ndarray:
    """Visit shares raised to 1 / `temperature` and renormalised per row (AlphaZero's move temperature):
    below 1 they lean to the most visited move, the one the search itself plays, and away from the
    visits its exploration spent on moves the policy rated."""
    if not temperature > 0:
        raise ValueError(f"temperature={temperature}: give a temperature > 0")
    weights = np.power(visits, 1.0 / temperature)
    return weights / weights.sum(axis=1, keepdims=True)


def check_targets(targets: np.ndarray, masks: np.ndarray) -> None:
    """Targets are distributions over each row's legal moves (ValueError naming the first bad row)."""
    if targets.shape != masks.shape:
        raise ValueError(f"targets {targets.shape} and masks {masks.shape}: give one target row per position")
    bad = ~np.isfinite(targets).all(axis=1) | (targets < 0).any(axis=1) | ~np.isclose(targets.sum(axis=1), 1.0)
    bad |= (targets * ~masks).any(axis=1)
    if bad.any():
        r = int(np.flatnonzero(bad)[0])
        raise ValueError(f"targets row {r} is not a distribution over that position's legal moves (mass "
                         f"{targets[r][~masks[r]].sum():.3g} on illegal ones, sum {targets[r].sum():.3g}); "
                         "give shares >= 0 summing to 1 on legal moves only")


def fit_soft(network: Any, observations: SparseRows | np.ndarray, masks: np.ndarray, targets: np.ndarray,
             games: np.ndarray, prior_moves: np.ndarray | None, epochs: int, batch_size: int,
             learning_rate: float, seed: int, fit_prior_weight: bool = True) -> dict[str, float]:
    """Fit `network`'s actor (from `student_network`) to `targets` (N, actions) at the positions
    (`observations`, `masks`, each position's game in `games`, the prior bot's moves if it has one) by
    soft cross-entropy with Adam; the positions of a seeded `HOLDOUT` share of the games are held out.
    `fit_prior_weight` False keeps the prior's weight as it is (a mixture's members share one).
    Returns the held-out cross-entropy, KL divergence and top-move agreement, before and after."""
    import torch

    check_targets(targets, masks)
    if (prior_moves is not None) != hasattr(network, "prior_weight"):
        raise ValueError("give prior_moves exactly when the network builds on a prior bot")
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    ids = np.unique(games)
    held = rng.choice(ids, max(1, round(len(ids) * HOLDOUT)), replace=False) if len(ids) > 1 else ids[:0]
    test = np.isin(games, held)
    train_rows, test_rows = np.flatnonzero(~test), np.flatnonzero(test)

    def batch(idx: np.ndarray) -> tuple[Any, Any, Any]:
        obs = torch.from_numpy(np.asarray(observations[idx], np.float32))
        if prior_moves is not None:  # the prior's move as a one-hot tail, as the learner's env appends it
            tail = torch.nn.functional.one_hot(torch.from_numpy(prior_moves[idx]), masks.shape[1]).float()
            obs = torch.cat([obs, tail], dim=1)
        return obs, torch.from_numpy(masks[idx]), torch.from_numpy(targets[idx]).float()

    def cross_entropy(obs: Any, mask: Any, target: Any) -> Any:
        """Per row: -sum over legal moves of target x log student probability."""
        index, padding, log_probs = network.get_distribution(obs, action_masks=mask).distribution.compact()
        return -(target.gather(1, index).masked_fill(padding, 0.0) * log_probs).sum(dim=1)

    def measure() -> dict[str, float]:
        if not len(test_rows):
            return {}
        with torch.no_grad():
            obs, mask, target = batch(test_rows)
            ce = cross_entropy(obs, mask, target)
            entropy = -(target * torch.log(target.clamp_min(1e-12))).sum(dim=1)
            probs = network.get_distribution(obs, action_masks=mask).distribution.probs
            agree = (probs.argmax(dim=1) == target.argmax(dim=1)).float()
        return {"cross_entropy": float(ce.mean()), "kl": float((ce - entropy).mean()),
                "top_move_agreement": float(agree.mean())}

    network.set_training_mode(False)
    before = measure()
    actor = [*network.mlp_extractor.policy_net.parameters(), *network.action_net.parameters()]
    if prior_moves is not None and fit_prior_weight:
        actor.append(network.prior_weight)
    optimizer = torch.optim.Adam(actor, lr=learning_rate)
    network.set_training_mode(True)
    for _ in range(epochs):
        for idx in torch.from_numpy(train_rows)[torch.randperm(len(train_rows), generator=gen)].split(batch_size):
            loss = cross_entropy(*batch(idx.numpy())).mean()
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(actor, 0.5)
            optimizer.step()
    network.set_training_mode(False)
    after = measure()
    return {"train_positions": int(len(train_rows)), "heldout_positions": int(len(test_rows)),
            **{f"heldout_{k}_before": v for k, v in before.items()}, **{f"heldout_{k}": v for k, v in after.items()}}


def distill(start: NumpyPolicy, observations: SparseRows | np.ndarray, masks: np.ndarray, visits: np.ndarray,
            games: np.ndarray, prior_moves: np.ndarray | None, target_temperature: float, epochs: int,
            batch_size: int, learning_rate: float, seed: int, meta: dict[str, Any],
            fit_prior_weight: bool = True) -> tuple[NumpyPolicy, dict[str, float]]:
    """A policy file's actor `start` fitted to a search's visit shares (`sharpened` at `target_temperature`)
    by `fit_soft`: (the student as a policy with `meta` and `start`'s prior, the fit's figures)."""
    network = student_network(start, learning_rate)
    fit = fit_soft(network, observations, masks, sharpened(visits, target_temperature), games, prior_moves,
                   epochs, batch_size, learning_rate, seed, fit_prior_weight=fit_prior_weight)
    return export_policy(network, start.activation, meta, start.prior), fit
