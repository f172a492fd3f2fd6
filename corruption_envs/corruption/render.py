"""Readable text of a Corruption table, as one player sees it (or everything)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .state import (
    ASSIGNED,
    CONTRACT,
    HAND,
    LOST,
    OVER,
    SWISS,
    TABLE,
    WON,
    CorruptionState,
)
from .tables import BODIES, CARD_KIND, CONTRACT_NAMES, CONTRACT_VALUE, KIND_NAMES
from .visibility import known_cards, sees_own

if TYPE_CHECKING:
    from .rules import CorruptionPlay

PHASE_NAMES = ("Phase II (corruption)", "Phase III step 1 (Swiss bribes)", "Phase III step 2 (Hit Men)",
               "Phase III step 4 (Reporters)", "game over")


def _cards_text(s: CorruptionState, at: np.ndarray, viewer: int | None, suffix: str = "") -> list[str]:
    """The cards at one place (`at`: player x card), owner by owner: the cards `viewer` sees in card
    order, then a `?` for each face-down one, so where a `?` sits tells nothing of what it hides."""
    seen = at & known_cards(s, viewer)
    texts = []
    for q in range(at.shape[0]):
        texts += [f"p{q}:{KIND_NAMES[CARD_KIND[c]]}{suffix}" for c in np.flatnonzero(seen[q])]
        texts += [f"p{q}:?{suffix}"] * int((at[q] & ~seen[q]).sum())
    return texts


def render_state(rules: CorruptionPlay, s: CorruptionState, viewer: int | None = None) -> str:
    n = rules.num_players
    lines = [f"Round {min(s.round, 3) + 1}/4, {PHASE_NAMES[s.phase]}"
             + ("" if s.phase == OVER else f", player_{s.to_act} to act")
             + f", first player player_{s.leader}"]
    lines.append("Scores: " + ", ".join(f"player_{p} ${s.won_value[p]}k ({s.won_count[p]})"
                                        for p in range(n)))
    for body in range(len(BODIES)):
        swiss = _cards_text(s, (s.loc == SWISS) & (s.where == body), viewer)
        lines.append(f"{BODIES[body]}  Swiss account: {' '.join(swiss) or '-'}")
        for c in np.flatnonzero((s.cloc == TABLE) & (s.cbody == body)):
            here = _cards_text(s, (s.loc == CONTRACT) & (s.where == c), viewer)
            here += _cards_text(s, (s.loc == ASSIGNED) & (s.where == c), viewer, "(Swiss)")
            lines.append(f"  {CONTRACT_NAMES[c]} ${CONTRACT_VALUE[c]}k: {' '.join(here) or '-'}")
    won = [f"{CONTRACT_NAMES[c]}->player_{s.cowner[c]}" for c in np.flatnonzero(s.cloc == WON)]
    if won:
        lines.append("Won: " + ", ".join(won))
    lost = [CONTRACT_NAMES[c] for c in np.flatnonzero(s.cloc == LOST)]
    if lost:
        lines.append("Lost: " + ", ".join(lost))
    for p in range(n):
        if sees_own(viewer, p):
            hand = [KIND_NAMES[CARD_KIND[c]] for c in np.flatnonzero(s.loc[p] == HAND)]
            lines.append(f"player_{p} hand: {', '.join(hand)}")
        else:
            lines.append(f"player_{p} hand: {int((s.loc[p] == HAND).sum())} cards")
    return "\n".join(lines)
