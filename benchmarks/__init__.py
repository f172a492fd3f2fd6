"""Policy-strength tournaments, the CI strength gate and the speed table.

    python -m benchmarks.tournament --game corruption --players 4 --agents random heuristic --games 400
    python -m benchmarks.gate
    python -m benchmarks.speed
"""
import os

# Games run one per worker process: BLAS threads inside a policy's matrix-vector product only fight the
# other workers (measured: a 16802x128 product took 7 ms of CPU multi-threaded on a busy 2-core machine,
# 0.9 ms single-threaded). Takes effect when numpy is first imported through this package; a value the
# user set wins.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
