"""A picture of a Construction & Corruption table, as one seat sees it (or everything):
render_mode="rgb_array".

The 18 contracts in a grid, each in its owner's colour (grey while in the stack) with its corruption,
the workers on it (one marker per seat, with its count), city workers and festivals; each seat's
public holdings, its cash as the viewer knows it, and the investigation cards the viewer may see.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.picture import FAINT, INK, PAPER, Canvas, seat_colour, viewer_title
from .state import OVER, PHASE_NAMES, VOTE, State
from .tables import CARD_NAMES, NUM_CONTRACTS, NUM_TURNS, YEARS
from .visibility import cash_view, sees_own

if TYPE_CHECKING:
    from .rules import ConstructionPlay

WIDTH = 1200
COLS = 6
TILE_H = 104
CITY = (200, 30, 30)


def _contract(cv: Canvas, x: float, y: float, w: float, s: State, c: int) -> None:
    owner = s.owner[c]
    if owner < 0:
        cv.box(x, y, w, TILE_H, fill=(225, 225, 225), outline=FAINT)
        cv.text(x + 8, y + 6, f"contract {c}", 14, FAINT)
        cv.text(x + 8, y + 26, "in the stack", 13, FAINT)
        return
    colour = seat_colour(owner)
    cv.box(x, y, w, TILE_H, fill=PAPER, outline=colour, width=3)
    cv.box(x, y, w, 24, fill=colour, outline=colour)
    cv.text(x + 8, y + 4, f"contract {c}: player_{owner}", 14, PAPER)
    cv.text(x + 8, y + 30, f"corruption {s.corruption[c]}", 14)
    if s.festival[c]:
        cv.text(x + w - 8, y + 30, "FESTIVAL", 13, CITY, anchor="ra")
    cx = x + 18
    for p, k in enumerate(s.workers[c]):
        if k:
            cv.token(cx, y + 74, 13, seat_colour(p), str(k), 13)
            cx += 32
    if s.city[c]:
        cv.token(cx, y + 74, 13, CITY, str(s.city[c]), 13)
        cv.text(cx + 16, y + 67, "city", 12, CITY)


def draw_table(rules: ConstructionPlay, s: State, viewer: int | None = None) -> np.ndarray:
    n = s.n
    cv = Canvas(WIDTH, 2000)
    year = YEARS[s.turn] if s.turn < NUM_TURNS else "end"
    acting = s.actor if s.phase != OVER else -1
    to_act = f", player_{s.actor} to act" if acting >= 0 else ""
    y = cv.header(f"Construction & Corruption: {year}, {PHASE_NAMES[s.phase]} phase{to_act}",
                  f"First Player player_{s.first}; stack {len(s.stack)} contracts, investigation deck "
                  f"{len(s.deck)} cards; {viewer_title(viewer)}")
    panels = []
    for p in range(n):
        if sees_own(viewer, p):
            cash = f"cash ${s.cash[p] * 10}k"
        else:
            est, gin, gout = cash_view(s, viewer, p)
            cash = f"cash about ${est * 10}k" + (f" (+{gin}/-{gout} gifts)" if gin or gout else "")
        lines = [f"player_{p}" + (" (you)" if p == viewer else ""), cash,
                 f"keys {s.keys[p]}, contracts {s.contracts_of(p)}",
                 f"workers to place {s.to_place[p]}",
                 "dice " + ("black" if s.merde[p] else "white") + (" + red" if s.red[p] else ""),
                 f"{sum(s.hand[p])} investigation cards"]
        if s.phase == VOTE and s.votes[p] >= 0:
            shown = sees_own(viewer, p)
            lines.append(("votes " + ("Outsider" if s.votes[p] == n else f"player_{s.votes[p]}"))
                         if shown else "has voted")
        panels.append(lines)
    y = cv.seat_panels(y, panels, acting)
    w = (WIDTH - 16 - 8 * (COLS - 1)) / COLS
    for c in range(NUM_CONTRACTS):
        row, col = divmod(c, COLS)
        _contract(cv, 8 + col * (w + 8), y + row * (TILE_H + 8), w, s, c)
    y += (NUM_CONTRACTS // COLS) * (TILE_H + 8) + 4
    if s.phase == OVER:
        y = cv.wrapped(8, y, "Final: " + ", ".join(f"player_{p} ${v * 10}k"
                                                   for p, v in enumerate(rules.scores(s))), WIDTH - 16, 15)
    for p in range(n):
        if sees_own(viewer, p):
            cards = ", ".join(f"{CARD_NAMES[t]} x{k}" for t, k in enumerate(s.hand[p]) if k) or "none"
            y = cv.wrapped(8, y, f"player_{p}'s investigation cards: {cards}", WIDTH - 16, 14,
                           seat_colour(p) if viewer is None else INK)
    return cv.array()
