"""The PPO learner's life: building the model, its callbacks, warm starts and best responses."""
