"""resample_hidden: redraw all that one seat cannot see, consistently with what it has seen.

Hidden from seat `me`: the order of the unseen part of the contract stack, the investigation deck
order, the opponents' cards beyond what `me` knows for sure they hold, the votes already cast in the
running election, and the amounts of secret gifts between two other players (and so the opponents'
cash). Gift amounts are redrawn by a depth-first search over the ledger in time order
(`consistent_amounts`), each gift's possible amounts tried in random order, until the whole money
ledger replays consistently (every gift affordable, every payment taking what it took, every revealed
cash as shown). The search never reads a hidden amount, in every case, so the whole resample is a
function of the seat's information set and `rng` alone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import ResampleError
from . import money
from .state import GIFT, INCOME, PAYMENT, VOTE, State
from .tables import CARD_COUNTS, GIFT_AMOUNTS

if TYPE_CHECKING:
    from .rules import ConstructionPlay

SEARCH_STEPS = 50  # amounts the first search for consistent gift amounts tries before a restart
RESTARTS = 9  # searches, each in a fresh random order with twice the last's steps


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
    # the other seats' certainties must hold in the new hands and come from `me`'s information alone:
    # what o knows of me's hand `me` saw happen, but what o learnt of a third seat q's hand (the card q
    # took from o with Cut & Paste) `me` did not see, so o is given `me`'s own certainties about q there
    for o in range(n):
        if o == me:
            continue
        for q in range(n):
            k = t.known[o][q]
            if q != me and q != o:
                k[:] = t.known[me][q]
            h = t.hand[q]
            for ty in range(8):
                if k[ty] > h[ty]:
                    k[ty] = h[ty]


def _redraw_gifts(t: State, me: int, rng: np.random.Generator) -> None:
    hidden = [i for i, (kind, a, b, _) in enumerate(t.ledger) if kind == GIFT and a != me and b != me]
    if not hidden:
        return
    amounts = consistent_amounts(t.ledger, hidden, t.n, rng)
    ledger = t.ledger[:]
    for i, c in zip(hidden, amounts):
        ledger[i] = (GIFT, ledger[i][1], ledger[i][2], c)
    assert money.replay(t, ledger, True)


class NoConsistentAmounts(ResampleError):
    """The search for secret gift amounts found none within its budget."""


def consistent_amounts(ledger: list, hidden: list[int], n: int, rng: np.random.Generator) -> list[int]:
    """Amounts for the gifts at `hidden` that replay the ledger exactly (every gift affordable, every
    payment taking what it took, every revealed cash as shown), drawn from `rng`. The amounts at
    `hidden` are never read, so the draw is a function of the public ledger, the seat's own gifts and
    `rng` alone.

    A constraint search: each hidden gift's possible amounts (its domain) are kept arc consistent with
    every player's own ledger (`_Ledgers.prune`); the gift with the fewest amounts left (ties in a
    random order) takes one of them at random, and the pruning runs again from its two players, until
    every gift has one amount, backtracking on a dead end. A search that wanders into a barren subtree
    is restarted in a fresh random order with twice the steps (SEARCH_STEPS, then 2x, ..., RESTARTS
    searches). NoConsistentAmounts when none succeeds: a ledger that contradicts itself, or (in about
    1 of 1,000 draws of random play that gives whenever it can) one too tangled for the budget; the
    truth is never used instead."""
    ledgers = _Ledgers(ledger, hidden, n)
    domain = {i: GIFT_AMOUNTS for i in hidden}
    if ledgers.prune(domain, set(range(n))):
        for budget in [SEARCH_STEPS << k for k in range(RESTARTS)]:
            found = _search(ledgers, domain, hidden, rng, budget)
            if found is not None:
                return [found[i][0] for i in hidden]
    raise NoConsistentAmounts(
        f"no amounts of the {len(hidden)} secret gifts found that replay this ledger within {RESTARTS} "
        "searches: the ledger contradicts itself, or raise RESTARTS in construction/hidden.py")


def _search(ledgers: "_Ledgers", domain: dict[int, tuple[int, ...]], hidden: list[int],
            rng: np.random.Generator, budget: int | None) -> dict[int, tuple[int, ...]] | None:
    """One search of at most `budget` steps (None: no limit; see consistent_amounts): every domain
    down to one amount, or None."""
    rank = dict(zip(hidden, rng.permutation(len(hidden)).tolist()))  # the tie-break order
    steps = 0

    def solve(domain: dict[int, tuple[int, ...]]) -> dict[int, tuple[int, ...]] | None:
        nonlocal steps
        open_gifts = [i for i in hidden if len(domain[i]) > 1]
        if not open_gifts:
            return domain
        i = min(open_gifts, key=lambda g: (len(domain[g]), rank[g]))
        choices = domain[i]
        for k in rng.permutation(len(choices)).tolist():
            steps += 1
            if budget is not None and steps > budget:
                return None
            tried = dict(domain)
            tried[i] = (choices[k],)
            _, a, b, _ = ledgers.ledger[i]
            if ledgers.prune(tried, {a, b}):
                found = solve(tried)
                if found is not None or (budget is not None and steps > budget):
                    return found
        return None

    return solve(domain)


class _Ledgers:
    """Each player's own part of the ledger, replayed over sets of cash values without reading a
    hidden amount: a set is a Python int, bit c set when cash c is possible; cash never exceeds all
    the income in the ledger."""

    def __init__(self, ledger: list, hidden: list[int], n: int) -> None:
        self.ledger = ledger
        self.full = (1 << (sum(b for kind, _, b, _ in ledger if kind == INCOME) + 1)) - 1
        self.rows = [[i for i, (kind, a, b, _) in enumerate(ledger) if a == q or (kind == GIFT and b == q)]
                     for q in range(n)]
        secret = set(hidden)
        self.gifts_of = [[i for i in self.rows[q] if i in secret] for q in range(n)]

    def prune(self, domain: dict[int, tuple[int, ...]], players: set[int]) -> bool:
        """Drop from `domain` (in place) every amount with which the giver's or the receiver's ledger
        cannot replay, the other hidden gifts taking amounts of their domains, starting from
        `players` and following each change to the gift's other player; False on an empty domain.
        (An amount dropped for q leaves q's other amounts their support, so only the partner is
        looked at again.)"""
        queue = set(players)
        while queue:
            q = queue.pop()
            before, behind = self._sets(q, domain)
            for i in self.gifts_of[q]:
                _, a, b, _ = self.ledger[i]
                if a == q:
                    kept = tuple(x for x in domain[i] if (before[i] >> x) & behind[i])
                else:
                    kept = tuple(x for x in domain[i] if (before[i] << x) & behind[i])
                if not kept:
                    return False
                if kept != domain[i]:
                    domain[i] = kept
                    queue.add(b if a == q else a)
        return True

    def _sets(self, q: int, domain: dict[int, tuple[int, ...]]) -> tuple[dict[int, int], dict[int, int]]:
        """For q's hidden gifts at entry i: q's possible cash just before it (from the start), and the
        cash just after it from which q's ledger can still replay to the end."""
        before, behind = {}, {}
        can = 1  # everyone starts at $0
        for i in self.rows[q]:
            if i in domain:
                before[i] = can
            can = self._forward(q, i, can, domain)
        can = self.full
        for i in reversed(self.rows[q]):
            if i in domain:
                behind[i] = can
            can = self._backward(q, i, can, domain)
        return before, behind

    def _forward(self, q: int, i: int, can: int, domain: dict[int, tuple[int, ...]]) -> int:
        """The cash after entry i from the cash `can` before it."""
        kind, a, b, c = self.ledger[i]
        if kind == GIFT:
            out = 0
            for x in domain.get(i, (c,)):
                out |= can >> x if a == q else (can << x) & self.full
            return out
        if kind == INCOME:
            return (can << b) & self.full
        if kind == PAYMENT and c == b:  # paid in full: q held at least the due
            return can >> c
        if kind == PAYMENT:  # the city took all q had: exactly c, then $0
            return 1 if (can >> c) & 1 else 0
        return 1 << b if (can >> b) & 1 else 0  # a reveal: exactly b

    def _backward(self, q: int, i: int, can: int, domain: dict[int, tuple[int, ...]]) -> int:
        """The cash before entry i from which the cash `can` after it is reached."""
        kind, a, b, c = self.ledger[i]
        if kind == GIFT:
            out = 0
            for x in domain.get(i, (c,)):
                out |= (can << x) & self.full if a == q else can >> x
            return out
        if kind == INCOME:
            return can >> b
        if kind == PAYMENT and c == b:
            return (can << c) & self.full
        if kind == PAYMENT:
            return 1 << c if can & 1 else 0
        return 1 << b if (can >> b) & 1 else 0
