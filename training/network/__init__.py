"""The learner's network on sb3-contrib's MaskablePPO: the sparse first layer, the masked
distribution, the bot prior, export to numpy and checkpoints that are never pickles."""
