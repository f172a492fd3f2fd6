"""Several policies of one shape deciding a batch in one call: the training pool's snapshots.

A policy deciding its own rows costs about 200 us a call in numpy whatever their number, and late in a
run a dozen snapshots each decide a few rows per move. One call for them all finds the observations'
non-zeros once, computes each policy's first layer over its rows' non-zeros (about 120 of Corruption's
3,391 inputs) in a compiled pass and its small dense layers by BLAS, then chooses every row at once
(`choose_rows`) as each policy's `act` does, each sampling from its own generator, so the games play
as before.
"""
from __future__ import annotations

from typing import Sequence

import numba as nb
import numpy as np

from corruption_envs.policy import NumpyPolicy
from corruption_envs.policy.inference import choose_rows, legal_moves

from .sparse_rows import SparseRows


def kind_of(policy: object) -> tuple | None:
    """What policies must share to decide in one `PolicyGroup` (their layer shapes, activation and play
    mode); None for an agent no group takes: not a plain MLP policy, or one with a prior bot to consult."""
    if type(policy) is not NumpyPolicy or policy.prior is not None or not policy.layers:
        return None
    return tuple(w.shape for w, _ in policy.layers), policy.head[0].shape, policy.activation, policy.sample


class PolicyGroup:
    """`policies` (of one `kind_of`) deciding rows of a batch together."""

    def __init__(self, policies: Sequence[NumpyPolicy]) -> None:
        first = policies[0]
        if kind_of(first) is None or any(kind_of(p) != kind_of(first) for p in policies):
            raise ValueError("a PolicyGroup takes plain MLP policies (no prior) of one shape, activation and play")
        self.policies = list(policies)
        self.relu = first.activation == "relu"

    def logits(self, which: np.ndarray, observations: np.ndarray) -> np.ndarray:
        """Row i's logits by policies[which[i]] (float32 products, rounded unlike one row's): per policy,
        the sparse first layer over its rows' non-zeros in one compiled pass, the dense layers by BLAS."""
        x_rows = SparseRows.of(np.asarray(observations, np.float32))
        z = np.empty((len(observations), self.policies[0].num_actions), np.float32)
        for p in np.unique(which).tolist():
            policy = self.policies[p]
            mine = np.flatnonzero(which == p)
            (w, b), *dense = [*policy.layers, policy.head]
            x = np.empty((mine.size, w.shape[1]), np.float32)
            _sparse_layer(mine, x_rows.start, x_rows.cols, x_rows.values, w, b, x)
            for w, b in dense:
                np.maximum(x, 0.0, out=x) if self.relu else np.tanh(x, out=x)
                x = x @ w + b
            z[mine] = x
        return z

    def act_batch(self, which: np.ndarray, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Row i's action by policies[which[i]]: what that policy's `act` plays."""
        legal = legal_moves(action_masks)
        return choose_rows(self.policies, which, self.logits(which, observations), observations, legal)


@nb.njit(cache=True)
def _sparse_layer(rows, starts, columns, values, w, b, out):  # pragma: no cover - compiled
    """out[i] = b + x[rows[i]] @ w, each x row given by its non-zeros (row r's: starts[r]:starts[r + 1])."""
    acc = np.empty(out.shape[1], np.float32)  # a row's sum: a local array the loop vectorises over
    for i in range(rows.size):
        acc[:] = b
        for e in range(starts[rows[i]], starts[rows[i] + 1]):
            wc, v = w[columns[e]], values[e]
            for h in range(acc.size):
                acc[h] += v * wc[h]
        out[i] = acc
