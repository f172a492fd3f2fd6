"""`njit` for the bots' kernels: numba's when it is installed (the vector, train and bench extras), else the
plain Python function, which decides the same, only slower, so the core install needs no numba."""
from __future__ import annotations

from typing import Any, Callable

try:
    from numba import njit as _numba_njit
except ImportError:  # pragma: no cover - every extra that trains or benchmarks installs numba
    _numba_njit = None


def njit(function: Callable[..., Any]) -> Callable[..., Any]:
    """Compile `function` in nopython mode, cached on disk; without numba, return it unchanged."""
    return function if _numba_njit is None else _numba_njit(cache=True)(function)
