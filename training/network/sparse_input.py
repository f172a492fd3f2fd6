"""The actor's and the critic's first layer computed from the observation's non-zero entries.

A Corruption observation has 3,391 inputs of which about 120 are non-zero, and the first layer is most
of the network's multiply-adds. `SparseInputLinear` is an `nn.Linear` (the same weight and bias, so
checkpoints, warm starts and the exported policy file are unchanged) that computes x @ W.T + b as the
sum of W's columns at the non-zero inputs (`embedding_bag`), and W's gradient by scattering the output
gradient's rows at those inputs (embedding_bag's own backward, through a transposed copy of W, costs
several times as much). W is held as its transpose, a contiguous (inputs x outputs) parameter: the table
embedding_bag reads, the layout the scatter writes its gradient in, and one on which Adam's fused step runs
three times as fast as on a transposed view. Its state dict still names it `weight`, (outputs x inputs).
The actor and the critic read the same observation: `SparseInputMlpExtractor` finds its non-zeros once
for both.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba as nb
import numpy as np
import torch as th
import torch.nn.functional as F
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn

from .nonzeros import nonzero_entries


@dataclass(frozen=True)
class NonZeros:
    """A batch of observations (rows x inputs) as its non-zero entries, row by row."""

    rows: th.Tensor
    columns: th.Tensor
    values: th.Tensor
    offsets: th.Tensor  # where each row's entries start in `columns`
    shape: tuple[int, int]

    @classmethod
    def of(cls, x: th.Tensor) -> NonZeros:
        rows, columns, values = nonzero_entries(x.detach().cpu().numpy())  # faster than torch.nonzero
        return cls.from_numpy(rows, columns, values, tuple(x.shape), x.device)

    @classmethod
    def from_numpy(cls, rows: np.ndarray, columns: np.ndarray, values: np.ndarray, shape: tuple[int, int],
                   device: Any = "cpu") -> NonZeros:
        """The entries (row by row, columns ascending within a row) of a `shape` batch."""
        counts = np.bincount(rows, minlength=shape[0])
        found = (rows, columns.astype(np.int64, copy=False), values, np.cumsum(counts) - counts)
        return cls(*(th.from_numpy(a).to(device) for a in found), shape)

    @classmethod
    def from_padded(cls, columns: th.Tensor, values: th.Tensor, inputs: int) -> NonZeros:
        """A batch given as each row's entries in a (rows x k) `columns` and `values`, padded with zero
        values (they add nothing to a product or a gradient)."""
        n, k = columns.shape
        rows = th.arange(n, device=columns.device).repeat_interleave(k)
        offsets = th.arange(0, n * k, k, device=columns.device) if k else th.zeros(n, dtype=th.int64)
        return cls(rows, columns.reshape(-1).long(), values.reshape(-1), offsets, (n, inputs))

    def padded(self) -> tuple[th.Tensor, th.Tensor]:
        """(columns, values), each (rows x the most entries of a row), rows padded with zero values: the
        batch as two fixed-width tensors, `from_padded`'s input."""
        n = self.shape[0]
        counts = th.bincount(self.rows, minlength=n)
        k = int(counts.max()) if n else 0
        position = th.arange(self.rows.numel(), device=self.rows.device) - self.offsets[self.rows]
        columns = th.zeros((n, k), dtype=th.int64, device=self.rows.device)
        values = th.zeros((n, k), dtype=self.values.dtype, device=self.rows.device)
        columns[self.rows, position] = self.columns
        values[self.rows, position] = self.values
        return columns, values

    def split(self, at: int) -> tuple[NonZeros, NonZeros]:
        """The entries of the columns before `at`, and those from `at` on (their columns counted from `at`)."""
        rows, columns, values = (a.cpu().numpy() for a in (self.rows, self.columns, self.values))
        head, device = columns < at, self.values.device
        return (NonZeros.from_numpy(rows[head], columns[head], values[head], (self.shape[0], at), device),
                NonZeros.from_numpy(rows[~head], columns[~head] - at, values[~head], (self.shape[0], self.shape[1] - at),
                                    device))

    def transposed(self) -> th.Tensor:
        """X.T as a sparse (inputs x rows) tensor: its entries are distinct, so it needs no coalescing."""
        return th.sparse_coo_tensor(th.stack([self.columns, self.rows]), self.values, self.shape[::-1],
                                    is_coalesced=False, check_invariants=False)


class _SparseProduct(th.autograd.Function):
    """x @ table + b for x given by its NonZeros (table = W.T); the gradients of table and b only."""

    @staticmethod
    def forward(ctx: Any, table: th.Tensor, bias: th.Tensor, x: NonZeros) -> th.Tensor:
        ctx.x = x
        return F.embedding_bag(x.columns, table, x.offsets, mode="sum", per_sample_weights=x.values) + bias

    @staticmethod
    def backward(ctx: Any, grad: th.Tensor) -> tuple[th.Tensor | None, th.Tensor | None, None]:
        table_grad = _table_grad(ctx.x, grad.contiguous()) if ctx.needs_input_grad[0] else None
        bias_grad = grad.sum(0) if ctx.needs_input_grad[1] else None
        return table_grad, bias_grad, None


def _table_grad(x: NonZeros, grad: th.Tensor) -> th.Tensor:
    """x.T @ grad, W.T's gradient: on the CPU a compiled scatter of grad's rows into its rows (a quarter
    of torch's sparse product's time), elsewhere that product."""
    if grad.device.type != "cpu":
        return th.sparse.mm(x.transposed(), grad)
    table = np.zeros((x.shape[1], grad.shape[1]), np.float32)
    _scatter_rows(x.rows.numpy(), x.columns.numpy(), x.values.numpy(), grad.numpy(), table)
    return th.from_numpy(table)


@nb.njit(cache=True)
def _scatter_rows(rows, columns, values, grad, table):  # pragma: no cover - compiled
    """table[c] += v * grad[r] for each non-zero (r, c, v)."""
    for e in range(rows.shape[0]):
        c, r, v = columns[e], rows[e], values[e]
        for h in range(grad.shape[1]):
            table[c, h] += v * grad[r, h]


class SparseInputLinear(nn.Linear):
    """nn.Linear over a 2-D batch of mostly-zero inputs (or their `NonZeros`), W held as `weight_t` = W.T."""

    @property
    def weight(self) -> th.Tensor:  # type: ignore[override]
        """W (outputs x inputs), a view of `weight_t`: what every nn.Linear reader expects."""
        return self.weight_t.t()

    def forward(self, x: th.Tensor | NonZeros) -> th.Tensor:
        if isinstance(x, th.Tensor):
            if x.dim() != 2:
                return super().forward(x)
            x = NonZeros.of(x)
        return _SparseProduct.apply(self.weight_t, self.bias, x)

    @classmethod
    def sharing(cls, layer: nn.Linear) -> SparseInputLinear:
        """A SparseInputLinear with `layer`'s parameter values (no new ones drawn): its bias, and its
        weight copied once into `weight_t`, in the parameter order of `layer` (the optimizer's)."""
        sparse = cls.__new__(cls)
        nn.Module.__init__(sparse)
        sparse.in_features, sparse.out_features = layer.in_features, layer.out_features
        sparse.weight_t = nn.Parameter(layer.weight.detach().t().contiguous(), layer.weight.requires_grad)
        sparse.bias = layer.bias
        return sparse

    # checkpoints and warm starts read and write W as nn.Linear's `weight`
    def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
        for name, t in (("weight", self.weight), ("bias", self.bias)):
            if t is not None:
                destination[prefix + name] = t if keep_vars else t.detach()

    def _load_from_state_dict(self, state_dict: dict, prefix: str, *args: Any) -> None:
        if prefix + "weight" in state_dict:
            state_dict[prefix + "weight_t"] = state_dict.pop(prefix + "weight").t()
        super()._load_from_state_dict(state_dict, prefix, *args)


class SparseInputMlpExtractor(MlpExtractor):
    """SB3's actor and critic MLPs with `SparseInputLinear` first layers and one non-zero search.

    `actor_inputs` (a privileged critic): the actor reads only the features' first `actor_inputs`
    columns (the acting seat's observation), the critic all of them (every seat's information too)."""

    def __init__(self, feature_dim: int, net_arch: Any, activation_fn: type[nn.Module], device: Any,
                 actor_inputs: int | None = None) -> None:
        super().__init__(feature_dim, net_arch, activation_fn, device)
        self.actor_inputs = actor_inputs
        if actor_inputs is not None:  # SB3's orthogonal init, after this, draws the new layer's weights
            if not len(self.policy_net) or not 0 < actor_inputs < feature_dim:
                raise ValueError(f"actor_inputs={actor_inputs} needs an actor MLP and 0 < it < {feature_dim}")
            first = self.policy_net[0]
            self.policy_net[0] = nn.Linear(actor_inputs, first.out_features, device=first.weight.device)
        for net in (self.policy_net, self.value_net):
            if len(net) and isinstance(net[0], nn.Linear):
                net[0] = SparseInputLinear.sharing(net[0])

    def actor_view(self, features: th.Tensor | NonZeros) -> th.Tensor | NonZeros:
        """The columns the actor reads."""
        if self.actor_inputs is None:
            return features
        if isinstance(features, NonZeros):
            return features.split(self.actor_inputs)[0]
        return features[..., : self.actor_inputs]

    def forward(self, features: th.Tensor | NonZeros) -> tuple[th.Tensor, th.Tensor]:
        if isinstance(features, th.Tensor):
            if features.dim() != 2 or not len(self.policy_net) or not len(self.value_net):
                return self.forward_actor(features), self.forward_critic(features)
            features = NonZeros.of(features)
        return self.policy_net(self.actor_view(features)), self.value_net(features)

    def forward_actor(self, features: th.Tensor | NonZeros) -> th.Tensor:
        return self.policy_net(self.actor_view(features))

