"""resample_hidden: redraw all that one seat cannot see, consistently with what it has seen.

Hidden from seat `me`: the order of the unseen part of the contract stack, the investigation deck
order, the opponents' cards beyond what `me` knows for sure they hold, the votes already cast in the
running election, and the amounts of secret gifts between two other players (and so the opponents'
cash). Gift amounts are redrawn by a depth-first search over the ledger in time order, each gift's
affordable amounts tried in random order, until the whole money ledger replays consistently (every
payment taking what it took, every revealed cash as shown). The search never reads a hidden amount, so
the draw depends on the seat's information set and the seed alone. Only if it runs out of steps are
single gifts redrawn one at a time from the true amounts (consistent, since the truth is).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import money
from .state import GIFT, INCOME, PAYMENT, REVEAL, VOTE, State
from .tables import CARD_COUNTS, GIFT_AMOUNTS

if TYPE_CHECKING:
    from .rules import ConstructionPlay

SEARCH_STEPS = 300  # amounts tried by the consistent-ledger search before it gives up
SWEEP = 12  # then single gifts redrawn from the true amounts, at most this many


def resample_hidden(rules: "ConstructionPlay", s: State, me: int, rng: np.random.Generator) -> State:
    """A copy of `s` with all that seat `me` cannot see redrawn; future chance comes from `rng`."""
    t = s.copy()
    t.rng = rng
    n = s.n
    if t.events is not None:  # other seats' private events describe the old hidden state
        t.events = t.events.seen_by(me)
    if t.stack_hidden:
        k = t.stack_hidden
        unseen = sorted(t.stack[:k])  # a canonical order: the truth's order must not show through
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
    amounts = _consistent_amounts(t.ledger, hidden, t.n, rng)
    if amounts is not None:
        ledger = t.ledger[:]
        for i, c in zip(hidden, amounts):
            ledger[i] = (GIFT, ledger[i][1], ledger[i][2], c)
        assert money.replay(t, ledger, True)
        return
    # the search ran out of steps: single gifts redrawn from the true amounts (consistent, since the
    # truth is; but no longer a function of `me`'s information alone)
    ledger = t.ledger
    for i in rng.permutation(hidden)[:SWEEP]:
        if money.replay(t, ledger, True, frozenset((int(i),)), rng):
            ledger = t.ledger
    assert money.replay(t, ledger, True)


def _consistent_amounts(
    ledger: list, hidden: list[int], n: int, rng: np.random.Generator
) -> list[int] | None:
    """Amounts for the gifts at `hidden` that replay the public ledger exactly (every payment taking
    what it took, every revealed cash as shown), found depth-first with each gift's affordable
    amounts tried in random order. It reads no hidden amount, so the draw is a function of the
    public ledger, the seat's own gifts and `rng`. None after SEARCH_STEPS tries.

    Two prunings keep the search short: an amount is tried only if the giver's and the receiver's
    next exactly known cash stays reachable with the hidden gifts still to come (each 1..10); and a
    failed check names the player whose cash broke it, so the search jumps back past gifts between
    other players, which cannot mend it (conflict-directed backjumping)."""
    slot = {i: k for k, i in enumerate(hidden)}
    reach = _Reach(ledger, slot, n)
    amounts = [0] * len(hidden)
    steps = 0

    def play_from(i: int, cash: list[int]) -> set[int] | None:
        """None when the ledger from entry i replays; else the players whose cash made it fail."""
        nonlocal steps
        while i < len(ledger):
            kind, a, b, c = ledger[i]
            if kind == GIFT and i in slot:
                conflict = {a, b}
                for x in rng.permutation(GIFT_AMOUNTS).tolist():
                    if x > cash[a]:
                        continue
                    if not (reach.ok(a, i + 1, cash[a] - x) and reach.ok(b, i + 1, cash[b] + x)):
                        continue
                    steps += 1
                    if steps > SEARCH_STEPS:
                        return conflict
                    amounts[slot[i]] = x
                    after = cash[:]
                    after[a] -= x
                    after[b] += x
                    failed = play_from(i + 1, after)
                    if failed is None:
                        return None
                    if a not in failed and b not in failed:
                        return failed
                    conflict |= failed
                return conflict
            if kind == GIFT:
                if c > cash[a]:
                    return {a}
                cash[a] -= c
                cash[b] += c
            elif kind == INCOME:
                cash[a] += b
            elif kind == PAYMENT:
                if c != min(b, cash[a]):
                    return {a}
                cash[a] -= c
            elif b != cash[a]:  # a reveal
                return {a}
            i += 1
        return None

    found = play_from(0, [0] * n) is None
    return amounts if found and steps <= SEARCH_STEPS else None


class _Reach:
    """Per player, prefix sums of the ledger's known cash changes and counts of hidden gifts in and
    out, and the next entry where its cash is known exactly (a reveal, or a payment that took all)."""

    def __init__(self, ledger: list, slot: dict[int, int], n: int) -> None:
        size = len(ledger) + 1
        self.known = [[0] * size for _ in range(n)]
        self.gets = [[0] * size for _ in range(n)]
        self.gives = [[0] * size for _ in range(n)]
        self.exact: list[list[tuple[int, int] | None]] = [[None] * size for _ in range(n)]
        for i, (kind, a, b, c) in enumerate(ledger):
            for q in range(n):
                self.known[q][i + 1] = self.known[q][i]
                self.gets[q][i + 1] = self.gets[q][i]
                self.gives[q][i + 1] = self.gives[q][i]
            if kind == GIFT and i in slot:
                self.gives[a][i + 1] += 1
                self.gets[b][i + 1] += 1
            elif kind == GIFT:
                self.known[a][i + 1] -= c
                self.known[b][i + 1] += c
            elif kind == INCOME:
                self.known[a][i + 1] += b
            elif kind == PAYMENT:
                self.known[a][i + 1] -= c
        for i in range(len(ledger) - 1, -1, -1):
            kind, a, b, c = ledger[i]
            for q in range(n):
                self.exact[q][i] = self.exact[q][i + 1]
            if kind == REVEAL:
                self.exact[a][i] = (i, b)
            elif kind == PAYMENT and c < b:
                self.exact[a][i] = (i, c)

    def ok(self, q: int, i: int, cash: int) -> bool:
        """Can q's cash before entry i be `cash` and still meet q's next exact figure?"""
        nxt = self.exact[q][i]
        if nxt is None:
            return True
        r, target = nxt
        base = cash + self.known[q][r] - self.known[q][i]
        gets = self.gets[q][r] - self.gets[q][i]
        gives = self.gives[q][r] - self.gives[q][i]
        low, high = min(GIFT_AMOUNTS), max(GIFT_AMOUNTS)
        return base + gets * low - gives * high <= target <= base + gets * high - gives * low
