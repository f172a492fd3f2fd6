"""Errors raised by every env: each names the problem and the fix."""


class IllegalActionError(ValueError):
    """An action that is out of range or not legal for the agent on turn.

    Raised before anything changes, so the env is left exactly as it was.
    """


class IllegalActionWarning(UserWarning):
    """An illegal action ended the game (illegal_action='penalize', the default)."""


class GameOverError(RuntimeError):
    """A live action was passed to a game that has ended (call reset() to start a new one)."""


class NotResetError(GameOverError):
    """The env was used before reset(): there is no game yet (call reset(seed=...) first)."""


class PolicyFileError(ValueError):
    """An exported policy file is corrupt or does not match the env it is loaded for."""


class ResampleError(RuntimeError):
    """A draw of the hidden information from a seat's information set found no consistent state within
    its budget; a fresh draw (another generator) may still find one."""
