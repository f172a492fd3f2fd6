"""Small drivers that bring a Construction & Corruption game to the situation a test needs."""
from __future__ import annotations

import numpy as np

import corruption_envs
from corruption_envs.construction import ConstructionRules, codec
from corruption_envs.construction.state import CARDS, MAYOR, PAY, PLACE, VOTE, State


def fresh(n: int = 4, seed: int = 0, **config) -> tuple[ConstructionRules, State]:
    rules = ConstructionRules(ConstructionRules.make_config(num_players=n, **config))
    return rules, rules.new_game(np.random.default_rng(seed))


def legal(rules: ConstructionRules, s: State) -> set[int]:
    return set(int(a) for a in np.flatnonzero(rules.legal_mask(s)))


def act(rules: ConstructionRules, s: State, action: int) -> None:
    assert action in legal(rules, s), f"{rules.action_name(action, s)} is not legal here"
    rules.apply(s, action)


def pass_placing(rules: ConstructionRules, s: State) -> None:
    """Everyone stops placing: the Corruption phase ends."""
    while s.phase == PLACE:
        act(rules, s, codec.PASS)


def offset(s: State, voter: int, target: int) -> int:
    return (target - voter) % s.n


def vote(rules: ConstructionRules, s: State, ballots: dict[int, int]) -> None:
    """Each seat votes for ballots[seat] (a seat, or n for the Outsider); missing seats vote Outsider."""
    assert s.phase == VOTE
    while s.phase == VOTE:
        p = s.actor
        target = ballots.get(p, s.n)
        act(rules, s, codec.OUTSIDER if target == s.n else codec.VOTE + offset(s, p, target))


def to_investigation(rules: ConstructionRules, s: State) -> None:
    pass_placing(rules, s)
    vote(rules, s, {})


def pass_cards(rules: ConstructionRules, s: State) -> None:
    while s.phase == CARDS:
        act(rules, s, codec.PASS)


def pay_fixed(rules: ConstructionRules, s: State) -> None:
    while s.phase == PAY:
        act(rules, s, codec.PAY_FIXED)


def finish_turn(rules: ConstructionRules, s: State) -> None:
    """Play the rest of the turn with passes, Outsider votes and fixed payments."""
    turn = s.turn
    while s.turn == turn and s.phase != 5:
        if s.phase == PLACE:
            act(rules, s, codec.PASS)
        elif s.phase == VOTE:
            act(rules, s, codec.OUTSIDER)
        elif s.phase in (MAYOR, CARDS):
            act(rules, s, codec.PASS)
        else:
            act(rules, s, codec.PAY_FIXED)


def give_cards(s: State, p: int, card: int, k: int = 1) -> None:
    """Move k cards of type `card` from the deck into p's hand."""
    for _ in range(k):
        s.deck.remove(card)
        s.hand[p][card] += 1


def contracts_of(s: State, p: int) -> list[int]:
    return [c for c in range(18) if s.owner[c] == p]


def bot_move(bot_class, rules: ConstructionRules, s: State) -> int:
    """The move a rule bot of `bot_class` makes for the seat to act in `s`."""
    bot = bot_class(corruption_envs.env("construction", num_players=s.n))
    return bot.act(rules.observe(s, s.actor), rules.legal_mask(s).astype(np.int8))


def one_worker_short(s: State) -> tuple[int, int]:
    """A contract of the seat to act and one of the next seat, each one worker short of completion."""
    me, other = s.actor, (s.actor + 1) % s.n
    mine, theirs = contracts_of(s, me)[0], contracts_of(s, other)[0]
    s.workers[mine][me] = s.workers[theirs][other] = 2
    return mine, theirs
