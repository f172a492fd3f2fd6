"""What a seat may see in Corruptia, the one rule the observation, the text view and the picture follow.

A seat sees its own hand and its own vote (ballots stay secret until everyone has voted; the resolved
vote is public); of another seat's hand it knows only the cards everyone saw it take from the face-up
discard zone. The table, the discard zone, tokens, reserves, offers and blackmail are public.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.visibility import sees_own

if TYPE_CHECKING:
    from .state import CorruptiaState

__all__ = ["known_hand", "seen_taken", "sees_own"]


def seen_taken(s: "CorruptiaState", seats: np.ndarray) -> np.ndarray:
    """bool (len(seats), cards): the cards everyone saw each of `seats` (a column) take into its hand."""
    return s.known_at == seats


def known_hand(s: "CorruptiaState", viewer: int | None, seat: int) -> list[int]:
    """The cards of `seat`'s hand that `viewer` knows: all of them (sorted) if it sees `seat`'s own,
    else those everyone saw it take, in hand order."""
    if sees_own(viewer, seat):
        return sorted(s.hands[seat])
    taken = seen_taken(s, np.array([[seat]]))[0]
    return [c for c in s.hands[seat] if taken[c]]
