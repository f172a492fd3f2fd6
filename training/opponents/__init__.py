"""The learner's games and who sits across: the opponent pool and the envs that step it."""
