"""Self-play training for corruption_envs games (needs the [train] extra: torch, sb3-contrib, ...).

    python -m training.selfplay --game corruption
"""
