"""Self-play on Ray RLlib (`python -m training.selfplay --backend rllib`)."""
