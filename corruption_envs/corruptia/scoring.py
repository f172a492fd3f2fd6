"""Final scoring (seed, Scoring and End of the Game)."""
from __future__ import annotations

from typing import Sequence

from .tables import CRONY_POINTS, DEPT, NUM_DEPTS, TOKEN_POINTS


def department_values(
    cell_card: Sequence[int],
    officials: Sequence[int],
    cronies: Sequence[int],
    placed: Sequence[int],
    neighbours: Sequence[Sequence[int]],
) -> list[int]:
    """Per department, the sum over its blocks of adjacent bills of (bills in block) x (workers on them).

    `cell_card[i]` is the card on cell i (-1 empty); officials[i] + cronies[i] are its workers.
    """
    values = [0] * NUM_DEPTS
    seen = set()
    for start in placed:
        if start in seen:
            continue
        dept = DEPT[cell_card[start]]
        seen.add(start)
        stack = [start]
        bills = staff = 0
        while stack:
            i = stack.pop()
            bills += 1
            staff += officials[i] + cronies[i]
            for j in neighbours[i]:
                if j >= 0 and j not in seen and cell_card[j] >= 0 and DEPT[cell_card[j]] == dept:
                    seen.add(j)
                    stack.append(j)
        values[dept] += bills * staff
    return values


def player_score(hand: Sequence[int], values: Sequence[int], tokens: int, reserve: int) -> int:
    """(cards in hand x value of their department) + 5 x tokens + 5 x Cronies in reserve."""
    return sum(values[DEPT[c]] for c in hand) + TOKEN_POINTS * tokens + CRONY_POINTS * reserve
