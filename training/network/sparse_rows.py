"""Rows of mostly-zero float32 observations kept as their non-zero entries (a Corruption observation
has about 120 of 3,391): imitation's demonstrations and the rollout buffer store them this way."""
from __future__ import annotations

import numpy as np

from .nonzeros import nonzero_entries


class SparseRows:
    """Float32 rows kept as their nonzero entries (an observation is mostly zeros: a Corruption one has
    about 120 of 3,391), handed out dense by index: `rows[idx]` is a (len(idx), width) array."""

    def __init__(self, start: np.ndarray, cols: np.ndarray, values: np.ndarray, width: int) -> None:
        self.start, self.cols, self.values, self.width = start, cols, values, width  # row i: start[i]:start[i+1]

    @classmethod
    def of(cls, dense: np.ndarray) -> SparseRows:
        r, c, values = nonzero_entries(dense)
        return cls(np.searchsorted(r, np.arange(len(dense) + 1)), c.astype(np.int32), values, dense.shape[1])

    @classmethod
    def merge(cls, parts: list[SparseRows], width: int) -> SparseRows:
        """The rows of `parts`, in order."""
        if not parts:
            return cls(np.zeros(1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.float32), width)
        offsets = np.cumsum([0] + [len(p.values) for p in parts[:-1]])
        start = np.concatenate([[0]] + [p.start[1:] + o for p, o in zip(parts, offsets)])
        return cls(start, np.concatenate([p.cols for p in parts]), np.concatenate([p.values for p in parts]), width)

    def __len__(self) -> int:
        return len(self.start) - 1

    def entries(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rows, columns, values) of the rows `idx` (row i of the selection is row idx[i]), in order."""
        lo, hi = self.start[idx], self.start[idx + 1]
        counts = hi - lo
        at = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        return np.repeat(np.arange(len(idx)), counts), self.cols[at], self.values[at]

    def __getitem__(self, idx: np.ndarray | int) -> np.ndarray:
        idx = np.asarray(idx)
        if idx.ndim == 0:
            return self[idx[None]][0]
        if idx.dtype == bool:
            idx = np.flatnonzero(idx)
        rows, cols, values = self.entries(idx)
        out = np.zeros((len(idx), self.width), np.float32)
        out[rows, cols] = values
        return out
