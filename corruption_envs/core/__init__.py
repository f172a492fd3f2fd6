"""What all three games share: the rules contract, the AEC adapter, configs, layouts, errors, bots."""
from .actions import ActionBlock, ActionLayout
from .aec import GameEnv, make_env_class
from .agents import Agent, RandomAgent
from .config import Option, int_range
from .events import EVERYONE, EventLog
from .errors import GameOverError, IllegalActionError, IllegalActionWarning, NotResetError, PolicyFileError
from .layout import Layout
from .rules import GameState, Rules

__all__ = [
    "ActionBlock",
    "ActionLayout",
    "Agent",
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
    "RandomAgent",
    "Rules",
    "int_range",
    "make_env_class",
]
