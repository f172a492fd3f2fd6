"""A picture of a Corruptia table, as one player sees it (or everything): render_mode="rgb_array".

The approved bills as bricks on the wall (department colour, income, officials and cronies on each),
the proposal outlined in gold at its cell, department values, each senator's public holdings, and the
bills the viewer may see: its own hand, the discard zone, and cards everyone saw taken from it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.picture import FAINT, HIGHLIGHT, INK, Canvas, seat_colour, viewer_title
from .state import ITEM_NAMES, OVER, PHASE_NAMES, VOTE, VOTE_NAMES
from .tables import BUDGET, CARDS_PER_DEPT, DEPARTMENTS, INCOME, REVOLUTION
from .visibility import known_hand, sees_own

if TYPE_CHECKING:
    from .rules import CorruptiaPlay
    from .state import CorruptiaState

WIDTH = 1200
WALL_H = 360
BILL_W, BILL_H = 124, 44
DEPT_COLOURS = ((168, 221, 160), (250, 224, 130), (200, 200, 205), (214, 184, 232), (160, 200, 240))


def _bill_lines(card: int) -> list[str]:
    d, k = divmod(card, CARDS_PER_DEPT)
    jobs = "/".join(f"${x}" for x in BUDGET[card])
    return [f"{DEPARTMENTS[d]} #{k} ${INCOME[card]}", f"jobs {jobs}"]


def _bills(cv: Canvas, y: float, title: str, cards: list[int]) -> int:
    """A titled row of bill cards (wrapping); returns the y below it."""
    cv.text(8, y, title, 14)
    y += 20
    per_row = (WIDTH - 16) // (BILL_W + 4)
    for k, card in enumerate(cards):
        row, col = divmod(k, per_row)
        cv.card(8 + col * (BILL_W + 4), y + row * (BILL_H + 4), BILL_W, BILL_H, _bill_lines(card),
                fill=DEPT_COLOURS[card // CARDS_PER_DEPT], size=12)
    return int(y + max(1, -(-len(cards) // per_row)) * (BILL_H + 4) + 4)


def _wall(cv: Canvas, rules: CorruptiaPlay, s: CorruptiaState, top: int) -> int:
    """The brick wall scaled into a band of height WALL_H; returns the y below it."""
    coords = rules.grid.coords
    cells = list(s.placed) + ([s.cell] if s.phase != OVER and s.cell >= 0 else [])
    rows = [coords[c][0] for c in cells]
    cols = [coords[c][1] for c in cells]
    span_c = max(cols) - min(cols) + 2  # in half-bricks
    span_r = max(rows) - min(rows) + 1
    bw = min(150.0, (WIDTH - 16) / (span_c / 2), (WALL_H - 10) / span_r * 2.4)
    bh = bw / 2.4
    x0 = WIDTH / 2 - (min(cols) + max(cols)) / 2 * bw / 2
    y0 = top + (WALL_H - span_r * bh) / 2 - min(rows) * bh
    cv.box(4, top, WIDTH - 8, WALL_H, fill=(235, 225, 210), outline=FAINT)
    size = max(9, int(bh / 4.2))
    for cell in s.placed:
        r, c = coords[cell]
        card = s.cell_card[cell]
        lines = [_bill_lines(card)[0], f"{s.officials[cell]} officials", f"{s.cronies[cell]} cronies"]
        cv.card(x0 + c * bw / 2 - bw / 2 + 1, y0 + r * bh + 1, bw - 2, bh - 2, lines,
                fill=DEPT_COLOURS[card // CARDS_PER_DEPT], size=size)
    if s.phase != OVER and s.cell >= 0 and s.bill >= 0:
        r, c = coords[s.cell]
        lines = [_bill_lines(s.bill)[0], "PROPOSED",
                 f"{sum(s.pending.values())} officials, {s.pending_cronies} cronies"]
        cv.card(x0 + c * bw / 2 - bw / 2 + 1, y0 + r * bh + 1, bw - 2, bh - 2, lines,
                fill=DEPT_COLOURS[s.bill // CARDS_PER_DEPT], outline=HIGHLIGHT, width=4, size=size)
    return top + WALL_H + 8


def draw_table(rules: CorruptiaPlay, s: CorruptiaState, viewer: int | None = None) -> np.ndarray:
    n = s.n
    cv = Canvas(WIDTH, 2400)
    if s.phase == OVER:
        title = "Corruptia: game over, scores " + ", ".join(
            f"player_{p} {v}" for p, v in enumerate(rules.scores(s)))
        sub, acting = viewer_title(viewer), -1
    else:
        face = "R (revolution)" if s.die == REVOLUTION else DEPARTMENTS[s.die]
        title = f"Corruptia: round {s.round + 1}/5, turn {s.turn + 1}, die {face}"
        sub = (f"President player_{s.president}, proposer player_{s.proposer}; player_{s.actor} to "
               f"{PHASE_NAMES[s.phase]}; {viewer_title(viewer)}")
        acting = s.actor
    y = cv.header(title, sub)
    panels = []
    for p in range(n):
        lines = [f"player_{p}" + (" (you)" if p == viewer else "")
                 + (" President" if p == s.president and s.phase != OVER else ""),
                 f"{s.tokens[p]} support tokens, {s.reserve[p]} cronies",
                 f"{sum(s.held[p])} blackmail cards, {len(s.hands[p])} bills in hand"]
        if s.phase == VOTE and s.votes[p] >= 0:
            lines.append("voted " + (VOTE_NAMES[s.votes[p]] if sees_own(viewer, p) else "(secret)"))
        elif any(v >= 0 for v in s.last_votes):
            lines.append(f"last vote: {VOTE_NAMES[s.last_votes[p]]}")
        panels.append(lines)
    y = cv.seat_panels(y, panels, acting)
    x = 8.0
    cv.text(x, y, "Department values:", 14)
    x += cv.text_width("Department values:", 14) + 10
    for d, name in enumerate(DEPARTMENTS):
        label = f"{name} {s.values[d]}"
        w = cv.text_width(label, 14) + 16
        cv.box(x, y - 3, w, 22, fill=DEPT_COLOURS[d], outline=INK)
        cv.text(x + 8, y, label, 14)
        x += w + 8
    y = _wall(cv, rules, s, y + 28)
    if s.phase != OVER:
        for f, t, item, v in s.offers:
            y = cv.wrapped(8, y, f"player_{f} offers player_{t} a {ITEM_NAMES[item]}"
                           f" to vote {VOTE_NAMES[v]}", WIDTH - 16, 13, seat_colour(f))
        for t, bm in enumerate(s.blackmail):
            if bm is not None:
                y = cv.wrapped(8, y, f"player_{bm[0]} blackmails player_{t}: vote {VOTE_NAMES[bm[1]]}",
                               WIDTH - 16, 13, seat_colour(bm[0]))
    y = _bills(cv, y + 4, "Discard zone", list(s.discard))
    for p in range(n):
        known = known_hand(s, viewer, p)
        if sees_own(viewer, p):
            y = _bills(cv, y, f"player_{p}'s hand", known)
        elif known:
            y = _bills(cv, y, f"player_{p} took from the discard zone", known)
    return cv.array()
