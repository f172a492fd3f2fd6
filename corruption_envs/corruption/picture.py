"""A picture of a Corruption table, as one player sees it (or everything): render_mode="rgb_array".

Three government bodies side by side, each with its Swiss bank account and its contracts; beside each
contract the cards played on it in play order, in their owner's colour: face up when the viewer may
see them (its own, or revealed), else as backs edged in the owner's colour.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.picture import FAINT, PAPER, Canvas, seat_colour, viewer_title
from .render import PHASE_NAMES
from .state import ASSIGNED, CONTRACT, HAND, LOST, OVER, SWISS, TABLE, WON, CorruptionState
from .tables import BODIES, CARD_KIND, CONTRACT_NAMES, CONTRACT_VALUE, BRIBE_VALUES
from .visibility import sees_card, sees_own

if TYPE_CHECKING:
    from .rules import CorruptionPlay

WIDTH = 1200
CARD_W, CARD_H = 46, 58
CONTRACT_W = 138
SHORT_KIND = tuple(f"${v}k" for v in BRIBE_VALUES) + ("DA", "Rep", "Hit")


def _played(s: CorruptionState, place: np.ndarray) -> list[tuple[int, int]]:
    """(seat, card) of the cards where `place` is true, in play order."""
    return sorted(zip(*np.nonzero(place)), key=lambda qc: s.seq[qc[0], qc[1]])


def _draw_card(cv: Canvas, x: float, y: float, s: CorruptionState, q: int, c: int,
               viewer: int | None, note: str = "") -> None:
    if sees_card(s, viewer, q, c):
        lines = [SHORT_KIND[CARD_KIND[c]]] + ([note] if note else [])
        cv.card(x, y, CARD_W, CARD_H, lines, fill=seat_colour(q), ink=PAPER, size=14)
    else:
        cv.back(x, y, CARD_W, CARD_H, edge=seat_colour(q), mark="S" if note else "?")


def _card_row(cv: Canvas, x: float, y: float, width: float, cards: list[tuple[int, int, str]],
              s: CorruptionState, viewer: int | None) -> float:
    """Cards left to right, wrapping within `width`; returns the y below them."""
    per_row = max(1, int((width + 4) // (CARD_W + 4)))
    for k, (q, c, note) in enumerate(cards):
        row, col = divmod(k, per_row)
        _draw_card(cv, x + col * (CARD_W + 4), y + row * (CARD_H + 4), s, q, c, viewer, note)
    rows = max(1, -(-len(cards) // per_row))
    return y + rows * (CARD_H + 4)


def draw_table(rules: CorruptionPlay, s: CorruptionState, viewer: int | None = None) -> np.ndarray:
    n = rules.num_players
    cv = Canvas(WIDTH, 2400)
    acting = -1 if s.phase == OVER else s.to_act
    state = PHASE_NAMES[s.phase] + ("" if s.phase == OVER else f", player_{s.to_act} to act")
    y = cv.header(f"Corruption: round {min(s.round, 3) + 1}/4, {state}",
                  f"first player player_{s.leader}; {viewer_title(viewer)}")
    panels = []
    for p in range(n):
        in_hand = int((s.loc[p] == HAND).sum())
        panels.append([f"player_{p}" + (" (you)" if p == viewer else ""),
                       f"won ${s.won_value[p]}k ({s.won_count[p]} contracts)",
                       f"{in_hand} cards in hand"])
    y = cv.seat_panels(y, panels, acting)
    col_w = (WIDTH - 16 - 16) / 3
    bottoms = []
    for body, name in enumerate(BODIES):
        x = 8 + body * (col_w + 8)
        cv.box(x, y, col_w, 26, fill=(40, 44, 52), outline=(40, 44, 52))
        cv.text(x + col_w / 2, y + 13, name, 16, PAPER, anchor="mm")
        yy = y + 32
        cv.text(x + 4, yy, "Swiss bank account", 13, FAINT)
        swiss = [(q, c, "Swiss") for q, c in _played(s, (s.loc == SWISS) & (s.where == body))]
        yy = _card_row(cv, x + 4, yy + 18, col_w - 8, swiss, s, viewer) + 6
        for c in np.flatnonzero((s.cloc == TABLE) & (s.cbody == body)):
            cards = [(q, k, "") for q, k in _played(s, (s.loc == CONTRACT) & (s.where == c))]
            cards += [(q, k, "Swiss") for q, k in _played(s, (s.loc == ASSIGNED) & (s.where == c))]
            cv.card(x + 4, yy, CONTRACT_W, CARD_H, [CONTRACT_NAMES[c], f"${CONTRACT_VALUE[c]}k"],
                    fill=(255, 250, 205), size=13, width=2)
            below = _card_row(cv, x + CONTRACT_W + 10, yy, col_w - CONTRACT_W - 14, cards, s, viewer)
            yy = max(yy + CARD_H + 4, below) + 4
        bottoms.append(yy)
    y = int(max(bottoms)) + 6
    for label, where in (("Won", WON), ("Lost", LOST)):
        ids = np.flatnonzero(s.cloc == where)
        if ids.size:
            text = ", ".join(CONTRACT_NAMES[c] + (f" -> player_{s.cowner[c]}" if where == WON else "")
                             for c in ids)
            y = cv.wrapped(8, y, f"{label}: {text}", WIDTH - 16, 14) + 4
    for p in range(n):
        if sees_own(viewer, p):
            hand = [(p, int(c), "") for c in np.flatnonzero(s.loc[p] == HAND)]
            cv.text(8, y, f"player_{p}'s hand", 14)
            y = int(_card_row(cv, 8, y + 20, WIDTH - 16, hand, s, viewer)) + 4 if hand else y + 22
    return cv.array()

