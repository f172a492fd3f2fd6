"""Deep Monte-Carlo's learner (DouZero, Zha et al. 2021): a Q network regressed on episode returns.

Q(s, .) = V(s) + A(s, .) has one output per action of the game's flat action space (DouZero feeds each
legal move to the network instead; with a legal mask, a head over every action is the same function for
our games). The targets are each episode's final return, undiscounted: every move of the learner's seat
in a game is paired with what that seat was paid at its end (no bootstrapping). The learner plays the
masked argmax of Q plus, with a prior bot, a fixed `margin` on the bot's move: a fresh network (every A
near 0) plays the bot, and the learner leaves the bot's move only where another one is estimated to return
more than `margin` above it, so a move seen a few times with lucky returns does not take over. The network
exports to a greedy `NumpyPolicy` with the margin as its prior weight, which plays exactly that argmax
(V(s) adds the same to every move of a state and moves no argmax, so the file holds A's head).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from torch import nn

from corruption_envs.policy import NumpyPolicy

from .export import ACTIVATION_MODULES


class QNetwork(nn.Module):
    """obs -> hidden layers -> V(s) + A(s, a), one Q per action."""

    def __init__(self, obs_size: int, num_actions: int, net_arch: list[int], activation: str) -> None:
        super().__init__()
        sizes, layers = [obs_size, *net_arch], []
        for a, b in zip(sizes, sizes[1:]):
            layers += [nn.Linear(a, b), ACTIVATION_MODULES[activation]()]
        self.body = nn.Sequential(*layers)
        # a move never tried sits at the state's value, not at 0, so a losing state's value does not make
        # every untried move look better than the one played
        self.value = nn.Linear(sizes[-1], 1)
        self.head = nn.Linear(sizes[-1], num_actions)
        # a small A head: every action starts at V, so the prior's margin decides the first moves
        nn.init.uniform_(self.head.weight, -1e-3, 1e-3)
        nn.init.zeros_(self.head.bias)
        self.activation = activation

    def forward(self, obs: th.Tensor) -> th.Tensor:
        h = self.body(obs)
        return self.value(h) + self.head(h)

    def export(self, meta: dict[str, Any], prior: str | None, margin: float) -> NumpyPolicy:
        """The greedy policy file of this Q with `margin` on the `prior` bot's move (the layers as
        `training.export` writes an actor; A's head: V moves no argmax)."""
        linears = [m for m in self.body if isinstance(m, nn.Linear)]
        return NumpyPolicy([_arrays(m) for m in linears], _arrays(self.head), self.activation,
                           {**meta, "play": "greedy"}, sample=False, prior=prior,
                           prior_weight=margin if prior else 0.0)


def _arrays(layer: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
    return (np.ascontiguousarray(layer.weight.detach().numpy().T.astype(np.float32)),
            layer.bias.detach().numpy().astype(np.float32))


def choose(q: th.Tensor, masks: np.ndarray, epsilon: float, rng: np.random.Generator,
           prior_moves: np.ndarray | None = None, margin: float = 0.0) -> np.ndarray:
    """Epsilon-greedy: per row the legal action of highest Q (plus `margin` on the prior's move, if
    given) or, with probability `epsilon`, a legal action drawn uniformly."""
    if prior_moves is not None:
        q = q.clone()
        q[th.arange(len(q)), th.from_numpy(prior_moves)] += margin
    greedy = q.masked_fill(~th.from_numpy(masks), -th.inf).argmax(1).numpy()
    explore = rng.random(len(masks)) < epsilon
    if explore.any():
        greedy[explore] = (rng.random((int(explore.sum()), masks.shape[1])) * masks[explore]).argmax(1)
    return greedy


MIXED_BATCHES = 8  # batches drawn together from the samples ready (their order shuffled)


class EpisodeStore:
    """The learner's moves of each of `num_envs` open games; a game's moves become training samples
    (observation, action, the episode's return) when it ends. Observations are kept as
    float16 (they lie in [0, 1]; the rounding is far below what the network resolves)."""

    def __init__(self, num_envs: int) -> None:
        self.open: list[list[tuple[np.ndarray, int]]] = [[] for _ in range(num_envs)]
        self.ready: list[tuple[np.ndarray, int, float]] = []

    def add(self, obs: np.ndarray, actions: np.ndarray) -> None:
        """One move in every game (row i: game i)."""
        for row, moves in enumerate(self.open):
            moves.append((obs[row].astype(np.float16), int(actions[row])))

    def end(self, row: int, episode_return: float) -> None:
        """Game `row` ended paying its learner `episode_return`: its moves become samples."""
        self.ready += [(o, a, float(episode_return)) for o, a in self.open[row]]
        self.open[row] = []

    def take(self, k: int, rng: np.random.Generator) -> list[tuple[th.Tensor, th.Tensor, th.Tensor]]:
        """Once MIXED_BATCHES x `k` samples are ready, every whole batch of `k` of them (tensors: obs,
        actions, returns) drawn in random order, so a batch mixes moves of many games rather than a few
        games' runs of moves sharing one return; else nothing."""
        if len(self.ready) < MIXED_BATCHES * k:
            return []
        used = len(self.ready) // k * k
        order = rng.permutation(used)
        batches = []
        for at in range(0, len(order), k):
            obs, act, ret = zip(*(self.ready[i] for i in order[at:at + k]))
            batches.append((th.from_numpy(np.stack(obs).astype(np.float32)), th.tensor(act),
                            th.tensor(ret, dtype=th.float32)))
        self.ready = self.ready[used:]
        return batches


def update(net: QNetwork, optimizer: th.optim.Optimizer, batch: tuple[th.Tensor, ...], epochs: int,
           max_grad_norm: float) -> float:
    """`epochs` gradient steps of MSE between Q(s, a) and the returns on one batch; the last loss."""
    obs, act, ret = batch
    loss = th.zeros(())
    for _ in range(epochs):
        q = net(obs).gather(1, act[:, None])[:, 0]
        loss = nn.functional.mse_loss(q, ret)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), max_grad_norm)
        optimizer.step()
    return float(loss.detach())
