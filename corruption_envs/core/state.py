"""A game state that declares its fields once: the core then copies it, RNG included, and pickles it.

A game's state class subclasses `DeclaredState` and lists every field in `FIELDS` with how it is
copied, and sets `__slots__ = tuple(FIELDS)`:

    class MyState(DeclaredState):
        FIELDS = {"n": SHARED, "hands": NESTED, "deck": LIST, "board": ARRAY, "flat": DERIVED}
        __slots__ = tuple(FIELDS)

Every state also has `rng` (copied generically, whatever its bit generator) and `events` (an EventLog or
None). `copy()` gives an independent state (tests/core/test_state.py mutates every field of a copy and
checks the original is untouched), with no deepcopy.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar

import numpy as np

from .events import EventLog


def SHARED(value: Any) -> Any:
    """Immutable, or never mutated once the game is set up (ints, tuples, frozensets, read-only
    arrays): the copy shares it."""
    return value


def LIST(value: list | None) -> list | None:
    """A flat list (of immutable items)."""
    return None if value is None else value[:]


def NESTED(value: list | None) -> list | None:
    """A list of flat lists."""
    return None if value is None else [row[:] for row in value]


def DEEP(value: list) -> list:
    """Lists nested to any depth."""
    return [DEEP(v) if isinstance(v, list) else v for v in value]


def DICT(value: dict) -> dict:
    """A dict of immutable values."""
    return dict(value)


def ARRAY(value: np.ndarray | None) -> np.ndarray | None:
    """A numpy array."""
    return None if value is None else value.copy()


def DERIVED(value: Any) -> None:
    """Rebuilt from other fields by the state's `derive()` after a copy or unpickling (e.g. a view)."""
    raise AssertionError("a DERIVED field is rebuilt by derive(), never copied")


_SEED = np.random.SeedSequence(0)  # only to build a bit generator whose state is then overwritten


def copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in the same state, for any bit generator type (PCG64, MT19937, ...)."""
    bit_generator = type(rng.bit_generator)(_SEED)
    bit_generator.state = rng.bit_generator.state
    return np.random.Generator(bit_generator)


class DeclaredState:
    """Base of every game's state: `rng`, `events` and the subclass's declared `FIELDS`."""

    __slots__ = ("rng", "events")
    rng: np.random.Generator
    events: EventLog | None
    FIELDS: ClassVar[dict[str, Callable[[Any], Any]]] = {}
    _shared: ClassVar[tuple[str, ...]] = ()
    _copied: ClassVar[tuple[tuple[str, Callable[[Any], Any]], ...]] = ()
    _derived: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if set(cls.__dict__.get("__slots__", ())) != set(cls.FIELDS):
            raise TypeError(f"{cls.__name__} must set __slots__ = tuple(FIELDS), so every field is declared")
        cls._shared = tuple(name for name, how in cls.FIELDS.items() if how is SHARED)
        cls._derived = tuple(name for name, how in cls.FIELDS.items() if how is DERIVED)
        cls._copied = tuple((name, how) for name, how in cls.FIELDS.items() if how not in (SHARED, DERIVED))

    def derive(self) -> None:
        """Rebuild the DERIVED fields from the others (after a copy or unpickling)."""

    def copy(self) -> "DeclaredState":
        """An independent copy: the same game with the same future chance, sharing nothing mutable."""
        new = object.__new__(type(self))
        new.rng = copy_rng(self.rng)
        new.events = None if self.events is None else self.events.copy()
        for name in self._shared:
            setattr(new, name, getattr(self, name))
        for name, how in self._copied:
            setattr(new, name, how(getattr(self, name)))
        if self._derived:
            new.derive()
        return new

    # pickling (e.g. to ship a game to another process): derived fields are rebuilt, not pickled
    def __getstate__(self) -> dict[str, Any]:
        names = ("rng", "events", *(n for n in self.FIELDS if n not in self._derived))
        return {name: getattr(self, name) for name in names}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        if self._derived:
            self.derive()

