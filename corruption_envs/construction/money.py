"""Money moves and what the table knows of each player's cash.

Every move is written to `state.ledger`. Income, payments to the city and revealed cash are public; a
gift's amount is seen only by giver and receiver when config secret_gifts is on (everyone sees that a
gift was made). So each seat knows an opponent's cash up to the secret gifts it was not party to since
that opponent's cash was last revealed; `replay` rebuilds all of it from the ledger, which is how
`resample_hidden` checks redrawn gift amounts against everything public.
"""
from __future__ import annotations

from .state import GIFT, INCOME, PAYMENT, REVEAL, State


def income(s: State, p: int, amount: int) -> None:
    entry = (INCOME, p, amount, 0)
    s.ledger.append(entry)
    _apply(s, entry, True)


def pay(s: State, p: int, due: int) -> int:
    """`p` pays `due` to the city, or all it has (rulings: cash never goes below $0); returns the paid."""
    entry = (PAYMENT, p, due, min(due, s.cash[p]))
    s.ledger.append(entry)
    _apply(s, entry, True)
    return entry[3]


def gift(s: State, giver: int, receiver: int, amount: int, secret: bool) -> None:
    entry = (GIFT, giver, receiver, amount)
    s.ledger.append(entry)
    _apply(s, entry, secret)


def reveal(s: State, p: int) -> None:
    """`p` shows its cash to everyone (the 10% payment, Revenue Quebec)."""
    entry = (REVEAL, p, s.cash[p], 0)
    s.ledger.append(entry)
    _apply(s, entry, True)


def _known_now(s: State, p: int, value: int) -> None:
    s.revealed[p] = value
    s.pub_cash[p] = value
    s.gift_cnt[p] = [0] * (2 * s.n)
    s.gift_amt[p] = [0] * (2 * s.n)


def _apply(s: State, entry: tuple[int, int, int, int], secret: bool) -> None:
    kind, a, b, c = entry
    if kind == INCOME:
        s.cash[a] += b
        s.pub_cash[a] += b
    elif kind == PAYMENT:
        s.cash[a] -= c
        s.pub_cash[a] -= c
        if c < b:  # the city took everything: everyone now knows the cash is $0
            _known_now(s, a, 0)
    elif kind == GIFT:
        s.cash[a] -= c
        s.cash[b] += c
        if secret:
            n = s.n
            s.gift_cnt[b][a] += 1
            s.gift_amt[b][a] += c
            s.gift_cnt[a][n + b] += 1
            s.gift_amt[a][n + b] += c
        else:
            s.pub_cash[a] -= c
            s.pub_cash[b] += c
    else:
        _known_now(s, a, b)


def replay(s: State, ledger: list, secret: bool) -> bool:
    """Rebuild the cash fields of `s` from `ledger` (kept as `s.ledger`); False if the ledger
    contradicts itself (a gift larger than the giver's cash, a payment that took a different amount,
    a wrong revealed cash)."""
    n = s.n
    s.cash = [0] * n
    s.pub_cash = [0] * n
    s.revealed = [0] * n
    s.gift_cnt = [[0] * (2 * n) for _ in range(n)]
    s.gift_amt = [[0] * (2 * n) for _ in range(n)]
    cash = s.cash
    out = []
    for entry in ledger:
        kind, a, b, c = entry
        if kind == GIFT:
            if c > cash[a]:
                return False
        elif kind == PAYMENT and c != min(b, cash[a]):
            return False
        elif kind == REVEAL and b != cash[a]:
            return False
        _apply(s, entry, secret)
        out.append(entry)
    s.ledger = out
    return True


def view_of(s: State, observer: int, q: int) -> tuple[int, int, int]:
    """What `observer` knows of q's cash: (public cash + gifts with the observer since q's last
    reveal, secret gifts q received from others since, secret gifts q gave to others since)."""
    if observer == q:
        return s.cash[q], 0, 0
    n = s.n
    cnt = s.gift_cnt[q]
    amt = s.gift_amt[q]
    estimate = s.pub_cash[q] + amt[observer] - amt[n + observer]
    unseen_in = sum(cnt[:n]) - cnt[observer]
    unseen_out = sum(cnt[n:]) - cnt[n + observer]
    return estimate, unseen_in, unseen_out
