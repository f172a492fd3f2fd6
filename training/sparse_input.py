"""The actor's and the critic's first layer computed from the observation's non-zero entries.

A Corruption observation has 3,391 inputs of which about 120 are non-zero, and the first layer is most
of the network's multiply-adds. `SparseInputLinear` is an `nn.Linear` (the same weight and bias, so
checkpoints, warm starts and the exported policy file are unchanged) that computes x @ W.T + b as the
sum of W's columns at the non-zero inputs (`embedding_bag`), and W's gradient by scattering the output
gradient's rows at those inputs (embedding_bag's own backward, through a transposed copy of W, costs
several times as much).
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
        counts = np.bincount(rows, minlength=x.shape[0])
        found = (rows, columns, values, np.cumsum(counts) - counts)
        return cls(*(th.from_numpy(a).to(x.device) for a in found), tuple(x.shape))

    def transposed(self) -> th.Tensor:
        """X.T as a sparse (inputs x rows) tensor: its entries are distinct, so it needs no coalescing."""
        return th.sparse_coo_tensor(th.stack([self.columns, self.rows]), self.values, self.shape[::-1],
                                    is_coalesced=False, check_invariants=False)


class _SparseProduct(th.autograd.Function):
    """x @ W.T + b for x given by its NonZeros; the gradients of W and b only (x is data)."""

    @staticmethod
    def forward(ctx: Any, weight: th.Tensor, bias: th.Tensor, x: NonZeros) -> th.Tensor:
        ctx.x = x
        # embedding_bag reads rows of an (inputs x outputs) table: W transposed, made contiguous
        table = weight.t().contiguous()
        return F.embedding_bag(x.columns, table, x.offsets, mode="sum", per_sample_weights=x.values) + bias

    @staticmethod
    def backward(ctx: Any, grad: th.Tensor) -> tuple[th.Tensor | None, th.Tensor | None, None]:
        weight_grad = _weight_grad(ctx.x, grad.contiguous()) if ctx.needs_input_grad[0] else None
        bias_grad = grad.sum(0) if ctx.needs_input_grad[1] else None
        return weight_grad, bias_grad, None


def _weight_grad(x: NonZeros, grad: th.Tensor) -> th.Tensor:
    """grad.T @ x, W's gradient: on the CPU a compiled scatter of grad's rows into W.T's rows (a quarter
    of torch's sparse product's time), elsewhere that product."""
    if grad.device.type != "cpu":
        return th.sparse.mm(x.transposed(), grad).t()
    table = np.zeros((x.shape[1], grad.shape[1]), np.float32)
    _scatter_rows(x.rows.numpy(), x.columns.numpy(), x.values.numpy(), grad.numpy(), table)
    return th.from_numpy(table).t()


@nb.njit(cache=True)
def _scatter_rows(rows, columns, values, grad, table):  # pragma: no cover - compiled
    """table[c] += v * grad[r] for each non-zero (r, c, v)."""
    for e in range(rows.shape[0]):
        c, r, v = columns[e], rows[e], values[e]
        for h in range(grad.shape[1]):
            table[c, h] += v * grad[r, h]


class SparseInputLinear(nn.Linear):
    """nn.Linear over a 2-D batch of mostly-zero inputs (or their `NonZeros`)."""

    def forward(self, x: th.Tensor | NonZeros) -> th.Tensor:
        if isinstance(x, th.Tensor):
            if x.dim() != 2:
                return super().forward(x)
            x = NonZeros.of(x)
        return _SparseProduct.apply(self.weight, self.bias, x)

    @classmethod
    def sharing(cls, layer: nn.Linear) -> SparseInputLinear:
        """A SparseInputLinear holding `layer`'s own parameters (no new ones drawn)."""
        sparse = nn.utils.skip_init(cls, layer.in_features, layer.out_features, bias=layer.bias is not None)
        sparse.weight, sparse.bias = layer.weight, layer.bias
        return sparse


class SparseInputMlpExtractor(MlpExtractor):
    """SB3's actor and critic MLPs with `SparseInputLinear` first layers and one non-zero search."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for net in (self.policy_net, self.value_net):
            if len(net) and isinstance(net[0], nn.Linear):
                net[0] = SparseInputLinear.sharing(net[0])

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        if features.dim() != 2 or not len(self.policy_net) or not len(self.value_net):
            return super().forward(features)
        rows = NonZeros.of(features)
        return self.policy_net(rows), self.value_net(rows)

