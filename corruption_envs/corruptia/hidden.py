"""resample_hidden: redraw all that one seat cannot see, consistently with what it has seen.

Hidden from a seat: the cards of the pile and the box, the opponents' hand cards it did not see them
take (visibility.known_hand), and the ballots already cast in a running vote. The unseen cards are
pooled in a canonical order and dealt again (cards seen at setup and shuffled back cannot be in the box),
so the redraw depends on the seat's information set and the seed alone.
"""
from __future__ import annotations

import numpy as np

from .state import IN_BOX, IN_DECK, VOTE, CorruptiaState
from .visibility import known_hand


def resample_hidden(s: CorruptiaState, player: int, rng: np.random.Generator) -> CorruptiaState:
    """A copy of `s` with all that `player` cannot see redrawn; future chance comes from `rng`."""
    new = s.copy()
    new.rng = rng
    if new.events is not None:  # other seats' private events describe what `player` cannot see
        new.events = new.events.seen_by(player)
    others = [q for q in range(s.n) if q != player]
    kept = {q: known_hand(s, player, q) for q in others}
    pool = s.deck + s.box
    for q in others:
        pool.extend(c for c in s.hands[q] if c not in kept[q])
    pool.sort()  # a canonical order: the truth's order of unseen cards must not show through
    # cards seen at setup and shuffled back are known not to be in the box
    free = [c for c in pool if c not in s.returned]
    bound = [c for c in pool if c in s.returned]
    rng.shuffle(free)
    k = len(s.box)
    new.box = free[:k]
    rest = free[k:] + bound
    rng.shuffle(rest)
    for q in others:
        draw = len(s.hands[q]) - len(kept[q])
        new.hands[q] = kept[q] + rest[len(rest) - draw:] if draw else kept[q]
        if draw:
            del rest[len(rest) - draw:]
        new.loc[new.hands[q]] = q
    new.deck = rest
    new.loc[rest] = IN_DECK
    new.loc[new.box] = IN_BOX
    if s.phase == VOTE:  # votes cast so far are secret
        for q in others:
            if s.votes[q] >= 0:
                choices = 3 if s.tokens[q] > 0 else 2
                new.votes[q] = int(rng.integers(choices))
    return new
