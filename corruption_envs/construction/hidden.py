"""resample_hidden: redraw all that one seat cannot see, consistently with what it has seen.

Hidden from seat `me`: the order of the unseen part of the contract stack, the investigation deck
order, the opponents' cards beyond what `me` knows for sure they hold, the votes already cast in the
running election, and the amounts of secret gifts between two other players (and so the opponents'
cash). Redrawn gift amounts are kept only if the whole money ledger replays consistently (no gift above
the giver's cash, every payment taking what it took, every revealed cash as shown); after a bounded
number of tries, single gifts are redrawn one at a time, so a draw always exists (the true one).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import money
from .state import GIFT, VOTE, State
from .tables import CARD_COUNTS, GIFT_AMOUNTS

if TYPE_CHECKING:
    from .rules import ConstructionRules

FRESH_TRIES = 4


def resample_hidden(rules: "ConstructionRules", s: State, me: int, rng: np.random.Generator) -> State:
    t = s.copy()
    t.rng = rng
    n = s.n
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
    hidden = [i for i, (kind, a, b, _) in enumerate(t.ledger)
              if kind == GIFT and a != me and b != me]
    if not hidden:
        return
    truth = t.ledger
    for _ in range(FRESH_TRIES):
        ledger = truth[:]
        for i in hidden:
            _, a, b, _ = ledger[i]
            ledger[i] = (GIFT, a, b, GIFT_AMOUNTS[int(rng.integers(len(GIFT_AMOUNTS)))])
        if money.replay(t, ledger, True):
            return
    ledger = truth[:]
    for i in [hidden[j] for j in rng.permutation(len(hidden))]:
        _, a, b, amount = ledger[i]
        ledger[i] = (GIFT, a, b, GIFT_AMOUNTS[int(rng.integers(len(GIFT_AMOUNTS)))])
        if not money.replay(t, ledger, True):
            ledger[i] = (GIFT, a, b, amount)
    assert money.replay(t, ledger, True)
