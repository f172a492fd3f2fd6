"""numpy's BLAS on one thread: a batch of small matrix products (a policy deciding for 64 games) costs
5-8 us a decision on one thread and 100-300 us with OpenBLAS's threads fighting over two cores."""
from __future__ import annotations

from typing import Any


def one_blas_thread() -> Any:
    """Cap this process's BLAS at one thread (threadpoolctl, in the train and bench extras); without
    threadpoolctl it changes nothing. Command-line entry points call it; the library never does."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits(1, user_api="blas")
