"""The information rule every game starts from: a seat sees its own private things, and the all-seeing
view (viewer None, for render() and replays) sees everyone's. Each game's `visibility.py` adds what else
a seat may see, and its observer, text and picture all ask it."""
from __future__ import annotations


def sees_own(viewer: int | None, seat: int) -> bool:
    """Whether `viewer` (None: the all-seeing view) sees `seat`'s private things (its hand, its vote...)."""
    return viewer is None or viewer == seat
