"""Readable text of the table, as one player sees it (everything when player is None)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .state import ITEM_NAMES, OVER, PHASE_NAMES, VOTE, VOTE_NAMES
from .tables import DEPARTMENTS, REVOLUTION, card_label
from .visibility import known_hand, sees_own

if TYPE_CHECKING:
    from .rules import CorruptiaPlay
    from .state import CorruptiaState


def render_state(rules: "CorruptiaPlay", s: "CorruptiaState", player: int | None = None) -> str:
    grid = rules.grid
    lines = []
    if s.phase == OVER:
        lines.append(f"Game over. Scores: {rules.scores(s)}")
    else:
        face = "R (revolution)" if s.die == REVOLUTION else DEPARTMENTS[s.die]
        lines.append(f"Round {s.round + 1}/5, turn {s.turn + 1}; President player_{s.president}; "
                     f"proposer player_{s.proposer}; die {face}; player_{s.actor} to "
                     f"{PHASE_NAMES[s.phase]}")
    values = ", ".join(f"{d} {v}" for d, v in zip(DEPARTMENTS, s.values))
    lines.append(f"Department values: {values}")
    lines.append("Table:")
    for cell in s.placed:
        r, c = grid.coords[cell]
        lines.append(f"  ({r:3d},{c:3d}) {card_label(s.cell_card[cell])}: "
                     f"{s.officials[cell]} officials, {s.cronies[cell]} cronies")
    if s.phase != OVER and s.bill >= 0:
        where = "" if s.cell < 0 else " at ({}, {})".format(*grid.coords[s.cell])
        interview = ", ".join("({}, {}) x{}".format(*grid.coords[j], k) for j, k in s.pending.items())
        lines.append(f"Proposal: {card_label(s.bill)}{where}; officials from {interview or 'none'}; "
                     f"{s.pending_cronies} cronies")
    lines.append(f"Discard zone: {'; '.join(card_label(c) for c in s.discard)}")
    for p in range(s.n):
        known = "; ".join(card_label(c) for c in known_hand(s, player, p))
        if sees_own(player, p):
            hand = known
        else:
            hand = f"{len(s.hands[p])} cards" + (f" (known: {known})" if known else "")
        vote = ""
        if s.phase == VOTE and s.votes[p] >= 0:
            vote = " [voted" + (f" {VOTE_NAMES[s.votes[p]]}]" if sees_own(player, p) else "]")
        lines.append(f"player_{p}: {s.tokens[p]} tokens, {s.reserve[p]} cronies, "
                     f"{sum(s.held[p])} blackmail cards{vote}; hand: {hand}")
    if any(v >= 0 for v in s.last_votes):
        lines.append("Last vote: " + ", ".join(f"player_{q} {VOTE_NAMES[v]}"
                                               for q, v in enumerate(s.last_votes)))
    if s.phase != OVER:
        for f, t, item, v in s.offers:
            lines.append(f"  player_{f} offered player_{t} a {ITEM_NAMES[item]} to vote {VOTE_NAMES[v]}")
        for t, bm in enumerate(s.blackmail):
            if bm is not None:
                lines.append(f"  player_{bm[0]} blackmailed player_{t}: vote {VOTE_NAMES[bm[1]]}")
    return "\n".join(lines)
