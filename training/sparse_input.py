"""The actor's and the critic's first layer computed from the observation's non-zero entries.

A Corruption observation has 3,391 inputs of which about 120 are non-zero, and the first layer is most
of the network's multiply-adds. `SparseInputLinear` is an `nn.Linear` (the same weight and bias, so
checkpoints, warm starts and the exported policy file are unchanged) that computes x @ W.T + b as the
sum of W's columns at the non-zero inputs, forward and backward (`embedding_bag`). The actor and the
critic read the same observation: `SparseInputMlpExtractor` finds its non-zeros once for both.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch as th
import torch.nn.functional as F
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn


@dataclass(frozen=True)
class NonZeros:
    """A batch of observations (rows x inputs) as its non-zero entries, row by row."""

    columns: th.Tensor
    values: th.Tensor
    offsets: th.Tensor  # where each row's entries start in `columns`

    @classmethod
    def of(cls, x: th.Tensor) -> NonZeros:
        rows, columns = x.nonzero(as_tuple=True)
        counts = th.bincount(rows, minlength=x.shape[0])
        return cls(columns, x[rows, columns], th.cumsum(counts, 0) - counts)


class SparseInputLinear(nn.Linear):
    """nn.Linear over a 2-D batch of mostly-zero inputs (or their `NonZeros`)."""

    def forward(self, x: th.Tensor | NonZeros) -> th.Tensor:
        if isinstance(x, th.Tensor):
            if x.dim() != 2:
                return super().forward(x)
            x = NonZeros.of(x)
        # embedding_bag reads rows of an (inputs x outputs) table: W transposed, made contiguous
        table = self.weight.t().contiguous()
        return F.embedding_bag(x.columns, table, x.offsets, mode="sum", per_sample_weights=x.values) + self.bias

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

