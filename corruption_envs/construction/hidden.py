"""resample_hidden: redraw all that one seat cannot see, consistently with what it has seen.

Hidden from seat `me`: the order of the unseen part of the contract stack, the investigation deck
order, the opponents' cards beyond what `me` knows for sure they hold, the votes already cast in the
running election, and the amounts of secret gifts between two other players (and so the opponents'
cash). Gift amounts are redrawn forward in time, each uniform among the amounts the giver could then afford,
and kept only if the whole money ledger replays consistently (every payment taking what it took, every
revealed cash as shown); after a few failed tries, single gifts are redrawn one at a time from the true
amounts, which always ends in a consistent draw (the truth is one).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import money
from .state import GIFT, VOTE, State
from .tables import CARD_COUNTS

if TYPE_CHECKING:
    from .rules import ConstructionRules

FRESH_TRIES = 4  # draws of all hidden gift amounts at once
SWEEP = 12  # then single gifts redrawn, at most this many


def resample_hidden(rules: "ConstructionRules", s: State, me: int, rng: np.random.Generator) -> State:
    """A copy of `s` with all that seat `me` cannot see redrawn; future chance comes from `rng`."""
    t = s.copy()
    t.rng = rng
    n = s.n
    if t.events is not None:  # other seats' private events describe the old hidden state
        t.events = [(a, text) for a, text in t.events if a in (-1, me)]
    if t.stack_hidden:
        k = t.stack_hidden
        unseen = t.stack[:k]
        t.stack[:k] = [unseen[i] for i in rng.permutation(k)]
    _redeal_cards(t, me, rng)
    if t.phase == VOTE:
        for q in range(n):
            if q != me and t.votes[q] >= 0:
                t.votes[q] = int(rng.integers(n + 1))
    if rules.secret:
        _redraw_gifts(t, me, rng)
    return t


def _redeal_cards(t: State, me: int, rng: np.random.Generator) -> None:
    n = t.n
    pool = list(CARD_COUNTS)
    for ty in range(8):
        pool[ty] -= t.hand[me][ty] + t.discard[ty]
        for q in range(n):
            if q != me:
                pool[ty] -= t.known[me][q][ty]
    cards = [ty for ty in range(8) for _ in range(pool[ty])]
    cards = [cards[i] for i in rng.permutation(len(cards))]
    for q in range(n):
        if q == me:
            continue
        size = sum(t.hand[q])
        hand = t.known[me][q][:]
        for _ in range(size - sum(hand)):
            hand[cards.pop()] += 1
        t.hand[q] = hand
    t.deck = cards
    # the other seats' certainties must hold in the new hands
    for o in range(n):
        if o == me:
            continue
        for q in range(n):
            k = t.known[o][q]
            h = t.hand[q]
            for ty in range(8):
                if k[ty] > h[ty]:
                    k[ty] = h[ty]


def _redraw_gifts(t: State, me: int, rng: np.random.Generator) -> None:
    hidden = [i for i, (kind, a, b, _) in enumerate(t.ledger) if kind == GIFT and a != me and b != me]
    if not hidden:
        return
    truth = t.ledger
    for _ in range(FRESH_TRIES):  # every hidden amount redrawn, forward in time
        if money.replay(t, truth, True, frozenset(hidden), rng):
            return
    # one gift at a time from the true amounts: always ends consistent (the truth is)
    ledger = truth
    for i in rng.permutation(hidden)[:SWEEP]:
        if money.replay(t, ledger, True, frozenset((int(i),)), rng):
            ledger = t.ledger
    assert money.replay(t, ledger, True)
