"""Declared, validated configs: a bad key or value fails at once with one line naming the key, the value
and what is accepted. The games declare their options here and training declares its keys
(training/config.py) with the same `Option`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping


class ConfigError(ValueError):
    """A config key or value that is not allowed."""


@dataclass(frozen=True)
class Option:
    """One config key: its default, and either the allowed values or a check with its description."""

    default: Any
    doc: str = ""
    choices: tuple | None = None
    check: Callable[[Any], bool] | None = None
    allowed: str = ""  # human description of what `check` accepts

    def validate(self, key: str, value: Any) -> None:
        """ConfigError naming `key`, `value` and what is accepted when `value` is not allowed."""
        # of the choice's own type too: 0, 1 and 0.0 equal False/True but are not a yes/no answer
        if self.choices is not None and not any(
            type(value) is type(c) and value == c for c in self.choices
        ):
            raise ConfigError(
                f"config {key}={value!r} is not allowed; choose one of {list(self.choices)}"
            )
        if self.check is not None and not self.check(value):
            raise ConfigError(f"config {key}={value!r} is not allowed; {key} must be {self.allowed}")


def int_range(lo: int, hi: int) -> dict:
    """Keyword arguments for an Option that takes an integer in [lo, hi]."""
    return {
        "check": lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi,
        "allowed": f"an integer from {lo} to {hi}",
    }


# Options every game has; a game adds its own rule variants.
COMMON_OPTIONS: dict[str, Option] = {
    "reward": Option(
        "win",
        "terminal reward: 'win' (+1 shared by the winners, -1 shared by the rest), "
        "'rank' (+1 first .. -1 last, ties averaged) or 'score' (share of the table's total score)",
        choices=("win", "rank", "score"),
    ),
    # 'penalize' by default, PettingZoo's classic convention: checkers (RLlib's env pre-check, SB3's
    # check_env, PettingZoo's api/state/seed tests) step unmasked samples and must see a game, not a crash
    "illegal_action": Option(
        "penalize",
        "'penalize': end the game with -1 for the offender and 0 for everyone else, warning with the "
        "move's name (PettingZoo's classic convention); or 'raise' an IllegalActionError and leave the "
        "env unchanged (for debugging)",
        choices=("penalize", "raise"),
    ),
    "record_events": Option(
        False,
        "keep a readable log of public and private events (for rendering and the terminal game)",
        choices=(True, False),
    ),
}


def resolve_config(
    game: str, options: Mapping[str, Option], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Defaults overlaid with `given`, every key and value checked."""
    unknown = sorted(set(given) - set(options))
    if unknown:
        raise ConfigError(
            f"unknown config key(s) {unknown} for game {game!r}; known keys: {sorted(options)}"
        )
    config = {key: opt.default for key, opt in options.items()}
    for key, value in given.items():
        options[key].validate(key, value)
        config[key] = value
    return config
