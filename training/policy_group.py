"""Several policies of one shape deciding a batch in one call: the training pool's snapshots.

A policy deciding its own rows costs about 200 us a call in numpy whatever their number, and late in a
run a dozen snapshots each decide a few rows per move: one call for them all computes every row's first
layer (the observation's ~120 non-zeros of 3,391 inputs) with its own policy's weights in one compiled
pass, the small dense layers one product per policy, then `choose_rows` chooses as each policy's `act`
does (each sampling from its own generator, its rows in order), so the games play as before.
"""
from __future__ import annotations

from typing import Sequence

import numba as nb
import numpy as np
from numba.typed import List

from corruption_envs.core.agents import legal_counts
from corruption_envs.policy import NumpyPolicy
from corruption_envs.policy.inference import choose_rows

from .nonzeros import nonzero_entries


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
        # the first layers as typed lists over the policies (references, no copies) for the compiled pass
        self.first = (List([p.layers[0][0] for p in policies]), List([p.layers[0][1] for p in policies]))
        self.dense = [[*p.layers[1:], p.head] for p in policies]

    def logits(self, which: np.ndarray, observations: np.ndarray) -> np.ndarray:
        """Row i's logits by policies[which[i]] (float32 products, rounded unlike one row's): the sparse
        first layer in one compiled pass over every row, the dense ones one product per policy."""
        rows, columns, values = nonzero_entries(np.asarray(observations, np.float32))
        counts = np.bincount(rows, minlength=len(observations))
        starts = np.concatenate([[0], np.cumsum(counts)])
        x = np.empty((len(observations), self.first[0][0].shape[1]), np.float32)
        _sparse_layer(which, starts, columns, values, *self.first, x)
        present = np.unique(which).tolist()
        for layer in range(len(self.dense[0])):
            np.maximum(x, 0.0, out=x) if self.relu else np.tanh(x, out=x)
            if len(present) == 1:
                w, b = self.dense[present[0]][layer]
                x = x @ w + b
                continue
            out = np.empty((len(x), self.dense[0][layer][0].shape[1]), np.float32)
            for p in present:
                mine = which == p
                w, b = self.dense[p][layer]
                out[mine] = x[mine] @ w + b
            x = out
        return x

    def act_batch(self, which: np.ndarray, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Row i's action by policies[which[i]]: what that policy's `act` plays."""
        legal_counts(action_masks, "the policy")  # refuses a row with no legal action, as act does
        legal = np.asarray(action_masks) != 0
        return choose_rows(self.policies, which, self.logits(which, observations), observations, legal)


@nb.njit(cache=True)
def _sparse_layer(which, starts, columns, values, weights, biases, out):  # pragma: no cover - compiled
    """out[r] = bias + x[r] @ w of row r's policy, x[r] given by its non-zeros."""
    acc = np.empty(out.shape[1], np.float32)  # a row's sum: a local array the loops vectorise over
    for r in range(out.shape[0]):
        w = weights[which[r]]
        acc[:] = biases[which[r]]
        for e in range(starts[r], starts[r + 1]):
            wc, v = w[columns[e]], values[e]
            for h in range(acc.size):
                acc[h] += v * wc[h]
        out[r] = acc
