"""resample_hidden: redraw all that one seat cannot see, consistently with what it has seen.

Hidden from a seat: the identity of each opponent's cards that were never public (in hand, or played
face down), and the order of the undealt contracts. Each opponent's unseen cards are dealt again over the
same places (a Swiss account takes bribes only), the places taken in a canonical order so the redraw
depends on what the seat knows and the seed alone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .state import CONTRACT, CORRUPTION, USED, CorruptionState
from .state import SWISS as ON_SWISS
from .tables import IS_BRIBE, KIND_CARDS, REPORTER

if TYPE_CHECKING:
    from .rules import CorruptionPlay

IS_BRIBE_T = tuple(bool(b) for b in IS_BRIBE)
REPORTER_CARDS = KIND_CARDS[REPORTER]


def resample_hidden(rules: "CorruptionPlay", s: CorruptionState, player: int,
                    rng: np.random.Generator) -> CorruptionState:
    """A copy of `s` with all that `player` cannot see redrawn; future chance comes from `rng`."""
    new = s.copy()
    new.rng = rng
    if new.events is not None:  # other seats' private events describe the old hidden state
        new.events = new.events.seen_by(player)
    for q in range(rules.num_players):
        if q != player:
            _redeal(rules, s, new, q, rng)
    deck = sorted(new.deck)  # the unseen order of the truth must not show through
    new.deck = [deck[i] for i in rng.permutation(len(deck))]
    return new


def _redeal(rules: "CorruptionPlay", s: CorruptionState, new: CorruptionState, q: int,
            rng: np.random.Generator) -> None:
    """Seat q's never-public cards dealt again over their places in `new` (observations refreshed)."""
    loc, where, seq = s.loc[q].tolist(), s.where[q].tolist(), s.seq[q].tolist()
    public = s.public[q].tolist()
    pool = [c for c in range(10) if not public[c] and loc[c] != USED]
    # places in a canonical order (where they are, not which card the truth put there), so
    # the redraw is a function of what `player` knows and the seed alone
    place = lambda c: (loc[c], where[c], seq[c])  # noqa: E731
    swiss_places = sorted((c for c in pool if loc[c] == ON_SWISS), key=place)
    if len(pool) < 2:
        return
    # Swiss places get bribes only; then the rest of the pool over the remaining places
    bribes = [c for c in pool if IS_BRIBE_T[c]]
    chosen = [bribes[i] for i in rng.permutation(len(bribes))[: len(swiss_places)]]
    rest = [c for c in pool if c not in chosen]
    rest = [rest[i] for i in rng.permutation(len(rest))]
    others = sorted((c for c in pool if loc[c] != ON_SWISS), key=place)
    new_loc, new_where, new_seq, new_public = loc[:], where[:], seq[:], public[:]
    for card, place in zip(chosen + rest, swiss_places + others):
        new_loc[card], new_where[card], new_seq[card] = loc[place], where[place], seq[place]
    # Reporters are played lowest id first: keep id 7 the earlier one (they look alike)
    a, b = REPORTER_CARDS
    if _play_key(new_loc[a], new_seq[a]) > _play_key(new_loc[b], new_seq[b]):
        for arr in (new_loc, new_where, new_seq, new_public):
            arr[a], arr[b] = arr[b], arr[a]
    new.loc[q], new.where[q], new.seq[q], new.public[q] = new_loc, new_where, new_seq, new_public
    # refresh the observations of every place a card left or entered, and q's Phase II mask
    for card in range(10):
        if (new_loc[card], new_where[card]) == (loc[card], where[card]):
            continue
        for place_loc, at in ((loc[card], where[card]), (new_loc[card], new_where[card])):
            if place_loc == CONTRACT or place_loc == ON_SWISS:
                rules.observer.card_place(new, q, card, place_loc, at)
        rules.observer.hand(new, q, card)
    if s.phase == CORRUPTION:
        rules._rebuild_mask(new, q)


def _play_key(loc: int, seq: int) -> int:
    """When a Reporter was played: before this round (gone), at `seq`, or not yet (in hand)."""
    if loc == USED:
        return -1
    return seq if seq >= 0 else 1 << 20
