"""Imitation warm start: before self-play, the learner copies a bot (`imitation.teacher`, the game's
heuristic by default; Corruption's committed config copies its expert).

A strong rule-based bot is a better start than a random network (AlphaStar starts from supervised
play for the same reason): PPO then spends its budget improving on the heuristic rather than
rediscovering it. `imitation.games` teacher games with every seat played by the teacher give
(observation, mask, teacher action, discounted final reward) for every decision; the actor is
fitted by masked cross-entropy to the teacher's actions and the critic by squared error to the
rewards, so the first PPO updates start from a critic that already knows the game's value.
With probability `imitation.explore` the played move is a random legal one (the label stays the
teacher's), so the data also covers positions the teacher would not have reached by itself.
A policy with the heuristic as its prior (`ppo.prior`) plays the teacher's moves from the start, and
an actor started from a policy file (`init.policy`) should keep its moves, so for them the warm start
fits the critic only.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from corruption_envs.bots import make_agent
from corruption_envs.match import play_match
from corruption_envs.core.game import Game

from ..config import Config, bot_option
from ..evaluate import against_baselines
from ..network.sparse_rows import SparseRows


@dataclass
class Demonstrations:
    observations: np.ndarray | SparseRows  # (N, obs) float32 by index
    masks: np.ndarray  # (N, actions) bool
    actions: np.ndarray  # (N,) int64, the teacher's choice
    returns: np.ndarray  # (N,) float32, final reward discounted by the seat's remaining decisions

    def __len__(self) -> int:
        return len(self.actions)


class Recorder:
    """The match loop's observer for a teacher's games: keeps every decision (observations sparse) and
    plays a random legal move instead of the teacher's with probability `explore` (the label stays)."""

    def __init__(self, explore: float, rng: np.random.Generator) -> None:
        self.explore, self.rng = explore, rng
        self.games, self.seats, self.obs, self.masks, self.labels = [], [], [], [], []

    def __call__(self, games: np.ndarray, seats: np.ndarray, observations: np.ndarray, masks: np.ndarray,
                 actions: np.ndarray) -> np.ndarray:
        self.games.append(games)
        self.seats.append(seats)
        self.obs.append(SparseRows.of(observations))
        self.masks.append(masks.astype(bool))
        self.labels.append(actions.copy())
        if not self.explore:
            return actions
        swap = self.rng.random(len(actions)) < self.explore
        legal = masks[swap]
        picks = (self.rng.random(legal.shape) * legal).argmax(axis=1)  # uniform over each row's legal moves
        played = actions.copy()
        played[swap] = picks
        return played


def collect(
    game: Game,
    env_config: dict[str, Any],
    players: tuple[int, int],
    games: int,
    seed: int,
    explore: float,
    gamma: float,
    teacher: str = "heuristic",
    privileged: bool = False,
) -> Demonstrations:
    """Play `games` seeded games with `teacher` in every seat (all at once, on the match loop) and
    record every decision (`privileged`: each observation followed by every seat's information, the
    input of a privileged critic)."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(players[0], players[1] + 1, size=games)
    deals = rng.integers(2**63, size=games)
    present = sorted(set(counts.tolist()))
    envs = [game.env(num_players=n, **env_config) for n in present]
    agents = [make_agent(teacher, env, seed=int(rng.integers(2**31))) for env in envs]
    lineups = [[present.index(n)] * n for n in counts.tolist()]
    rec = Recorder(explore, rng)
    # 1,024 games at once, not 256: a teacher bot's cost is much per call, and it decides 4x the rows a call
    results = play_match(game, agents, lineups, deals, env_config, batch_size=1024, observer=rec,
                         privileged=privileged)
    g, seats = np.concatenate(rec.games), np.concatenate(rec.seats)
    # each decision's return: its seat's final reward, discounted by that seat's decisions after it
    order = np.lexsort((np.arange(len(g)), seats, g))
    key = g[order] * results.rewards.shape[1] + seats[order]
    first = np.r_[0, np.flatnonzero(np.diff(key)) + 1]
    size = np.diff(np.r_[first, len(key)])
    after = np.repeat(first + size, size) - np.arange(len(key)) - 1
    returns = np.empty(len(g), np.float32)
    returns[order] = results.rewards[g[order], seats[order]] * gamma ** after
    width = envs[0].unwrapped.observation_layout.size
    if privileged:
        width += game.engine_class().privileged_size
    obs = SparseRows.merge(rec.obs, width)
    return Demonstrations(obs, np.concatenate(rec.masks), np.concatenate(rec.labels), returns)


def fit(
    policy: Any, data: Demonstrations, epochs: int, batch_size: int, learning_rate: float, seed: int,
    holdout: float = 0.05, critic_only: bool = False, prior: bool = False,
) -> dict[str, float]:
    """Fit an sb3 MaskableActorCriticPolicy to `data`; returns held-out accuracy and losses.
    `critic_only` trains the value loss only (an actor started from a policy file, or a `PriorPolicy`,
    which plays the teacher's moves already); a `prior` policy's observations get the teacher's move
    as the prior's one-hot."""
    # torch only to fit: collecting games imports this module without it
    import torch
    import torch.nn.functional as F

    gen = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(data), generator=gen)
    n_test = max(1, int(len(data) * holdout))
    test, train = order[:n_test], order[n_test:]
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)

    from ..network.learner_policy import LearnerPolicy
    from ..network.sparse_input import NonZeros

    # the learner's policy trains on stored rows as their non-zeros, with no dense copy to search again
    # (evaluate_actions reads them; SB3's get_distribution and predict_values take dense rows only)
    sparse_training = isinstance(policy, LearnerPolicy) and isinstance(data.observations, SparseRows) and not prior

    def batch(idx: torch.Tensor, sparse: bool = False) -> tuple[Any, ...]:
        i = idx.numpy()
        act = torch.from_numpy(data.actions[i])
        if sparse:
            obs = NonZeros.from_numpy(*data.observations.entries(i), (len(i), data.observations.width))
        else:
            obs = torch.from_numpy(data.observations[i])
        if prior:  # the prior's one-hot, built per batch (a stored copy would double the data)
            obs = torch.cat([obs, F.one_hot(act, data.masks.shape[1]).float()], dim=1)
        return obs, act, torch.from_numpy(data.masks[i]), torch.from_numpy(data.returns[i])

    policy.set_training_mode(True)
    for _ in range(epochs):
        for idx in train[torch.randperm(len(train), generator=gen)].split(batch_size):
            obs, act, mask, ret = batch(idx, sparse_training)
            values, log_prob, _ = policy.evaluate_actions(obs, act, action_masks=mask)
            loss = 0.5 * F.mse_loss(values.flatten(), ret)
            if not critic_only:
                loss = loss - log_prob.mean()
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        obs, act, mask, ret = batch(test)
        dist = policy.get_distribution(obs, action_masks=mask)
        values = policy.predict_values(obs)
        greedy = dist.distribution.probs.argmax(dim=1)
        return {
            "heldout_accuracy": float((greedy == act).float().mean()),
            "heldout_cross_entropy": float(-dist.log_prob(act).mean()),
            "heldout_value_mse": float(F.mse_loss(values.flatten(), ret)),
        }


def warm_start(policy: Any, config: Config, export: Callable[[], Any], out: Path) -> dict[str, Any]:
    """Collect the teacher's games, fit `policy` (an SB3 actor-critic, or anything with the calls `fit`
    makes on one) to them, measure the copy (`export()`) against
    the baselines; writes and returns what was measured (`out/imitation.json`)."""
    im, run = config.imitation, config.run
    print(f"imitation: {im.games} {im.teacher} games, fitting the policy ...", flush=True)
    t0 = time.monotonic()
    data = collect(config.game_def, config.env, tuple(run.players), im.games, run.seed,
                   im.explore, config.ppo.gamma, im.teacher, config.ppo.critic == "privileged")
    t1 = time.monotonic()
    prior = bot_option(config, "prior") is not None
    stats = fit(policy, data, im.epochs, im.batch_size, im.learning_rate, run.seed,
                critic_only=prior or config.init.policy is not None, prior=prior)
    stats = {"teacher": im.teacher, "games": im.games, "decisions": len(data),
             "collect_seconds": round(t1 - t0, 1), "fit_seconds": round(time.monotonic() - t1, 1), **stats,
             "eval": [r.as_dict() for r in against_baselines(export(), config, config.eval.games)]}
    (out / "imitation.json").write_text(json.dumps(stats, indent=1))
    rates = ", ".join(f"vs {e['baseline']} {e['win_rate']:.2f}" for e in stats["eval"])
    print(f"imitation: {stats['decisions']} decisions in {stats['collect_seconds']} s, fitted in "
          f"{stats['fit_seconds']} s, held-out accuracy {stats['heldout_accuracy']:.3f}; {rates}", flush=True)
    return stats
