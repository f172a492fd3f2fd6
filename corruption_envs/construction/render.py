"""Readable text of the table as one seat sees it (everything when the seat is None)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .state import OVER, PHASE_NAMES, VOTE, State
from .tables import CARD_NAMES, NUM_TURNS, YEARS
from .visibility import cash_view, sees_own

if TYPE_CHECKING:
    from .rules import ConstructionPlay


def render(rules: "ConstructionPlay", s: State, player: int | None = None) -> str:
    n = s.n
    year = YEARS[s.turn] if s.turn < NUM_TURNS else "Fin"
    who = "everything" if player is None else f"as player_{player} sees it"
    lines = [f"Construction & Corruption, {year}, {PHASE_NAMES[s.phase]} phase ({who})"]
    if s.actor >= 0:
        lines.append(f"to act: player_{s.actor}; First Player: player_{s.first}")
    for p in range(n):
        if sees_own(player, p):
            cash = f"${s.cash[p] * 10}k"
            hand = ", ".join(f"{CARD_NAMES[t]} x{k}" for t, k in enumerate(s.hand[p]) if k) or "none"
        else:
            est, gin, gout = cash_view(s, player, p)
            cash = f"about ${est * 10}k" + (f" (+{gin}/-{gout} secret gifts)" if gin or gout else "")
            hand = f"{sum(s.hand[p])} card(s)"
        vote = ""
        if s.phase == VOTE and s.votes[p] >= 0:
            if sees_own(player, p):
                vote = "; votes " + ("Outsider" if s.votes[p] == n else f"player_{s.votes[p]}")
            else:
                vote = "; has voted"
        dice = ("black" if s.merde[p] else "white") + (" + red" if s.red[p] else "")
        lines.append(f"player_{p}: cash {cash}, keys {s.keys[p]}, contracts {s.contracts_of(p)}, "
                     f"workers to place {s.to_place[p]}, dice {dice}, cards: {hand}{vote}")
    for c in range(18):
        if s.owner[c] >= 0:
            crew = ", ".join(f"player_{p} x{k}" for p, k in enumerate(s.workers[c]) if k)
            extra = (f", city x{s.city[c]}" if s.city[c] else "") + (", FESTIVAL" if s.festival[c] else "")
            lines.append(f"  contract {c:2d} of player_{s.owner[c]}: corruption {s.corruption[c]}, "
                         f"workers {crew}{extra}")
    lines.append(f"stack {len(s.stack)} contract(s); investigation deck {len(s.deck)} card(s)")
    if s.phase == OVER:
        scores = rules.scores(s)
        lines.append("final: " + ", ".join(f"player_{p} ${v * 10}k" for p, v in enumerate(scores)))
    return "\n".join(lines)
