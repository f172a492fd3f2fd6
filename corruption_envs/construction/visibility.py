"""What a seat may see in Construction & Corruption, the one rule the observation, the text view and the
picture follow.

A seat sees its own cash, investigation cards and vote. Of another seat it knows: the cash the table
knows of (`cash_view`: the last amount revealed, the public income and payments since, and how many
secret gifts went in and out), the cards it knows for sure are in that hand (`state.known`), and only
that it has voted. Contracts, workers, corruption, keys, dice and logos are public.
"""
from __future__ import annotations

from ..core.visibility import sees_own
from .money import view_of as cash_view

__all__ = ["cash_view", "sees_own"]
