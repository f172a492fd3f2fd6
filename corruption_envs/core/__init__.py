"""What all three games share: the rules contract, the AEC adapter, configs, layouts, errors, bots."""
from .actions import ActionBlock, ActionLayout
from .aec import GameEnv, make_env_class, parallel_env_fn
from .agents import Agent, RandomAgent
from .config import Option, int_range
from .errors import GameOverError, IllegalActionError, IllegalActionWarning, NotResetError, PolicyFileError, ResampleError
from .events import EVERYONE, EventLog
from .layout import Layout
from .rules import GameState, Rules
from .state import ARRAY, DEEP, DERIVED, DICT, LIST, NESTED, SHARED, DeclaredState, copy_rng
from .visibility import sees_own

__all__ = [
    "ARRAY",
    "DEEP",
    "DERIVED",
    "DICT",
    "LIST",
    "NESTED",
    "SHARED",
    "ActionBlock",
    "ActionLayout",
    "Agent",
    "DeclaredState",
    "EVERYONE",
    "EventLog",
    "GameEnv",
    "GameOverError",
    "GameState",
    "IllegalActionError",
    "IllegalActionWarning",
    "Layout",
    "NotResetError",
    "Option",
    "PolicyFileError",
    "ResampleError",
    "RandomAgent",
    "Rules",
    "copy_rng",
    "int_range",
    "sees_own",
    "make_env_class",
    "parallel_env_fn",
]
