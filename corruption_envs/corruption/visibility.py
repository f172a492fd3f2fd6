"""What a seat may see in Corruption, the one rule the observation, the text view and the picture follow.

A seat sees its own hand and knows its own cards wherever they lie; a card's identity becomes everyone's
once it is public (played face-up, or turned over in Phase III). Where cards lie, face up or down, is
public.
"""
from __future__ import annotations

import numpy as np

from ..core.visibility import sees_own
from .state import CorruptionState

__all__ = ["known_cards", "sees_card", "sees_own"]


def sees_card(s: CorruptionState, viewer: int | None, seat: int, card: int) -> bool:
    """Whether `viewer` knows the identity of `seat`'s card `card`."""
    return sees_own(viewer, seat) or bool(s.public[seat, card])


def known_cards(s: CorruptionState, viewer: int | None) -> np.ndarray:
    """(seats, 10) bool: the cards whose identity `viewer` knows (`sees_card` for every card at once)."""
    if viewer is None:
        return np.ones_like(s.public)
    known = s.public.copy()
    known[viewer] = True
    return known
