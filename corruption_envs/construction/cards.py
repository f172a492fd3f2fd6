"""Investigation cards: drawing, playing, and what each seat knows for sure of the others' hands.

`state.known[o][q][t]` is a lower bound, true in every state consistent with o's information: o knows q
holds at least that many cards of type t (q received Cut & Paste in public; o received a card from q
through Cut & Paste, or o gave q one).
"""
from __future__ import annotations

from .state import State
from .tables import CUT_AND_PASTE


def draw(s: State, p: int) -> int:
    """`p` draws the top investigation card (privately); -1 when deck and discard are both empty.

    Ours: an empty deck is refilled by shuffling the discard pile."""
    if not s.deck:
        pile = [t for t, k in enumerate(s.discard) for _ in range(k)]
        if not pile:
            return -1
        s.deck = [pile[i] for i in s.rng.permutation(len(pile))]
        s.discard = [0] * 8
    card = s.deck.pop(0)
    s.hand[p][card] += 1
    return card


def _forget_one(s: State, q: int, card: int) -> None:
    """q lost one card of type `card` in public: every lower bound on it drops by one."""
    for o in range(s.n):
        k = s.known[o][q]
        if k[card]:
            k[card] -= 1


def discard(s: State, p: int, card: int) -> None:
    """`p` plays `card` face up; it goes to the discard pile."""
    s.hand[p][card] -= 1
    s.discard[card] += 1
    _forget_one(s, p, card)


def cut_and_paste(s: State, p: int, target: int) -> int:
    """Seed: "Exchange this card with a random card from another player." Returns the card taken."""
    hand = s.hand[target]
    pick = int(s.rng.integers(sum(hand)))
    card = 0
    while pick >= hand[card]:
        pick -= hand[card]
        card += 1
    hand[card] -= 1
    s.hand[p][card] += 1
    s.hand[p][CUT_AND_PASTE] -= 1
    hand[CUT_AND_PASTE] += 1
    _forget_one(s, p, CUT_AND_PASTE)
    for o in range(s.n):
        if o == target:
            s.known[target][p][card] += 1  # the target saw which card it lost
            continue
        k = s.known[o][target]
        if o == p:
            if k[card]:
                k[card] -= 1
        else:  # a random card left the target's hand: any bound on it may have gone with it
            for t in range(8):
                if k[t]:
                    k[t] -= 1
        k[CUT_AND_PASTE] += 1  # everyone sees the Cut & Paste card change hands
    return card
