"""Glue for RL libraries; each submodule imports its library itself (an optional extra), never the envs."""
