"""Policy-strength tournaments, the CI strength gate and the speed table.

    python -m benchmarks.tournament --game corruption --players 4 --agents random heuristic --games 400
    python -m benchmarks.gate
    python -m benchmarks.speed
"""
