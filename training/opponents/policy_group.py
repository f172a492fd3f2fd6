"""Several policies of one shape deciding a batch in one call: the training pool's snapshots.

A policy deciding its own rows costs about 200 us a call in numpy whatever their number, and late in a
run a dozen snapshots each decide a few rows per move (with a prior bot bound per player count, one
snapshot is already several policies). One call for them all computes each policy's first layer over
its rows' non-zero inputs (about 120 of Corruption's 3,391) in a compiled pass straight from the
batch's observations and its small dense layers by BLAS, asks each policy's prior bot (if any) for its
rows' moves, then chooses every row at once (`choose_rows`) as each policy's `act` does, each sampling
from its own generator, so the games play as before.
"""
from __future__ import annotations

from typing import Sequence

import numba as nb
import numpy as np

from corruption_envs.core.agents import rows_by
from corruption_envs.policy import NumpyPolicy
from corruption_envs.policy.inference import choose_rows, legal_moves


def kind_of(policy: object) -> tuple | None:
    """What policies must share to decide in one `PolicyGroup` (their layer shapes, activation, play
    mode and prior); None for an agent no group takes: not an MLP policy, or one whose prior bot is not
    bound yet."""
    if type(policy) is not NumpyPolicy or not policy.layers or (policy.prior and policy.prior_bot is None):
        return None
    return tuple(w.shape for w, _ in policy.layers), policy.head[0].shape, policy.activation, policy.sample, policy.prior


class PolicyGroup:
    """`policies` (of one `kind_of`) deciding rows of a batch together."""

    def __init__(self, policies: Sequence[NumpyPolicy]) -> None:
        first = policies[0]
        if kind_of(first) is None or any(kind_of(p) != kind_of(first) for p in policies):
            raise ValueError("a PolicyGroup takes MLP policies (priors bound) of one shape, activation, play and prior")
        self.policies = list(policies)
        self.relu = first.activation == "relu"
        # policies holding the same weight arrays (a snapshot's copies, one per player count its prior bot
        # is built for) compute their rows' logits in one pass: policies[p] computes as nets[net[p]]
        keys = [tuple(id(a) for layer in (*p.layers, p.head) for a in layer) for p in self.policies]
        ids: dict[tuple, int] = {}
        self.net = np.array([ids.setdefault(key, len(ids)) for key in keys], np.int64)
        self.nets = [self.policies[keys.index(key)] for key in ids]

    def logits(self, which: np.ndarray, observations: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """Logits of observations[rows[i]] (rows None: of row i) by policies[which[i]] (float32 products,
        rounded unlike one row's): per network, the first layer over its rows' non-zeros in one compiled
        pass, the dense layers by BLAS."""
        observations = np.asarray(observations, np.float32)
        rows = np.arange(len(which)) if rows is None else rows
        z = np.empty((len(which), self.policies[0].num_actions), np.float32)
        for n, mine in _rows_of(self.net[which], len(self.nets)):
            (w, b), *dense = [*self.nets[n].layers, self.nets[n].head]
            x = np.empty((len(z) if mine is None else mine.size, w.shape[1]), np.float32)
            _first_layer(rows if mine is None else rows[mine], observations, w, b, x)
            for w, b in dense:
                np.maximum(x, 0.0, out=x) if self.relu else np.tanh(x, out=x)
                x = x @ w + b
            if mine is None:
                return x
            z[mine] = x
        return z

    def act_batch(self, which: np.ndarray, observations: np.ndarray, action_masks: np.ndarray,
                  rows: np.ndarray | None = None) -> np.ndarray:
        """The action for observations[rows[i]] (rows None: for row i) by policies[which[i]]: what that
        policy's `act` plays. `rows` spares the caller copying the rows of a batch others decide."""
        rows = np.arange(len(which)) if rows is None else rows
        masks = np.asarray(action_masks)[rows]
        legal = legal_moves(masks)
        moves = None
        if self.policies[0].prior:  # each policy's bot decides its rows, in order, as in its own act_batch
            moves = np.empty(len(which), np.int64)
            for p, mine in _rows_of(which, len(self.policies)):
                at = slice(None) if mine is None else mine
                moves[at] = self.policies[p].prior_moves(observations[rows[at]], masks[at])
        return choose_rows(self.policies, which, self.logits(which, observations, rows), observations,
                           legal, moves, rows=rows)


def _rows_of(which: np.ndarray, count: int) -> list[tuple[int, np.ndarray | None]]:
    """(k, the rows where which == k) for each k present, in order; rows None: all of them (count 1)."""
    if count == 1:
        return [(0, None)]
    return rows_by(which)


@nb.njit(cache=True)
def _first_layer(rows, observations, w, b, out):  # pragma: no cover - compiled
    """out[i] = b + observations[rows[i]] @ w, summed over that row's non-zero inputs in column order."""
    acc = np.empty(out.shape[1], np.float32)  # a row's sum: a local array the loop vectorises over
    nonzero = np.empty(observations.shape[1], np.int64)
    for i in range(rows.size):
        x = observations[rows[i]]
        k = 0
        for c in range(x.size):  # branch-free: every column written, the count moved past the non-zeros
            nonzero[k] = c
            k += x[c] != 0
        acc[:] = b
        for e in range(k):
            wc, v = w[nonzero[e]], x[nonzero[e]]
            for h in range(acc.size):
                acc[h] += v * wc[h]
        out[i] = acc
