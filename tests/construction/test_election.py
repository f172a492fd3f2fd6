"""The Election phase: secret votes, the mayor's Key, city workers and festivals, failed votes."""
import numpy as np
import pytest

from corruption_envs.construction import codec
from corruption_envs.construction.observer import SEAT_FEATURES
from corruption_envs.construction.state import CARDS, MAYOR, PLACE, VOTE
from corruption_envs.construction.tables import BIG_PAPA, CITY_WORKERS, SNITCH, festivals

from .helpers import act, finish_turn, fresh, give_cards, legal, offset, pass_placing, vote


def test_votes_go_to_any_player_myself_included_or_the_outsider():
    rules, s = fresh(5, 0)
    pass_placing(rules, s)
    votes = {a for a in legal(rules, s) if codec.ACTIONS.decode(a)[0] in ("vote", "outsider")}
    assert votes == {codec.VOTE + k for k in range(5)} | {codec.OUTSIDER}
    assert codec.PASS not in legal(rules, s)  # everyone must pick a vote card


def test_a_unique_winner_is_mayor_and_receives_a_key_to_the_city():
    rules, s = fresh(4, 1)
    pass_placing(rules, s)
    winner = (s.first + 2) % 4
    vote(rules, s, {0: winner, 1: winner, 2: 3, 3: 4})
    assert s.phase == MAYOR and s.mayor == winner and s.actor == winner
    assert s.keys[winner] == 1 and sum(s.keys) == 1
    assert s.city_left == CITY_WORKERS[0] and s.fest_left == 1


@pytest.mark.parametrize("n, arches", [(3, 1), (5, 1), (6, 2), (7, 2)])
def test_festivals_per_player_count(n, arches):
    assert festivals(n) == arches
    rules, s = fresh(n, 2)
    pass_placing(rules, s)
    vote(rules, s, {p: 0 for p in range(n)})
    assert s.fest_left == arches


@pytest.mark.parametrize("turn", range(7))
def test_city_workers_per_year(turn):
    rules, s = fresh(3, 3)
    for _ in range(turn):
        finish_turn(rules, s)
    pass_placing(rules, s)
    vote(rules, s, {0: 1, 1: 1, 2: 1})
    assert s.city_left == CITY_WORKERS[turn]


def test_a_tie_for_the_most_votes_fails_cancels_city_and_festival_and_investigates():
    rules, s = fresh(4, 4)
    pass_placing(rules, s)
    vote(rules, s, {0: 1, 1: 1, 2: 2, 3: 2})
    assert s.mayor == -1 and s.city_left == 0 and s.fest_left == 0 and sum(s.keys) == 0
    assert s.investigated and s.phase != MAYOR


def test_a_majority_for_the_outsider_mayor_starts_an_investigation():
    rules, s = fresh(4, 5)
    give_cards(s, 2, SNITCH)  # a card in hand: the investigation's card round waits for it, whatever the dice
    pass_placing(rules, s)
    vote(rules, s, {0: 4, 1: 4, 2: 4, 3: 1})
    assert s.last_mayor == -1 and s.investigated and s.phase == CARDS and sum(s.keys) == 0


def test_the_outsider_tied_for_most_also_fails():
    rules, s = fresh(4, 6)
    give_cards(s, 2, SNITCH)
    pass_placing(rules, s)
    vote(rules, s, {0: 4, 1: 4, 2: 1, 3: 1})
    assert s.last_mayor == -1 and s.investigated and s.phase == CARDS


def test_vote_secrecy_a_cast_vote_never_shows_in_another_seat_observation():
    rules, s = fresh(4, 7)
    pass_placing(rules, s)
    voter = s.actor
    views = []
    for target in range(4):
        t = s.copy()
        act(rules, t, codec.VOTE + offset(t, voter, target))
        views.append([rules.observe(t, q) for q in range(4) if q != voter])
        assert t.phase == VOTE
    for other in views[1:]:
        for a, b in zip(views[0], other):
            np.testing.assert_array_equal(a, b)
    # the voter itself remembers its own vote
    t = s.copy()
    act(rules, t, codec.VOTE + 1)
    mine = rules.observation_layout.view(rules.observe(t, voter), "my_vote")
    assert mine[1] == 1 and mine.sum() == 1


def test_votes_are_revealed_together_once_all_are_cast():
    rules, s = fresh(3, 8)
    pass_placing(rules, s)
    vote(rules, s, {0: 2, 1: 2, 2: 3})
    ballots = rules.observation_layout.view(rules.observe(s, 0), "last_ballots")
    # rows: voters, columns: candidates, both relative to the observer (seat 0)
    assert ballots[0, 2] == 1  # I voted for seat 2
    assert ballots[1, 2] == 1  # seat 1 voted for seat 2 too
    assert ballots[2, 7] == 1  # seat 2 voted for the Outsider
    seats = rules.observation_layout.view(rules.observe(s, 0), "seats")
    assert seats[2, SEAT_FEATURES.index("last_votes_received")] == pytest.approx(2 / 3)


def test_mayor_places_city_workers_and_festivals_on_any_contract_or_stops():
    rules, s = fresh(4, 9)
    pass_placing(rules, s)
    vote(rules, s, {p: 1 for p in range(4)})
    on_board = {c for c in range(18) if s.owner[c] >= 0}
    moves = legal(rules, s)
    assert {a - codec.CITY for a in moves if codec.CITY <= a < codec.FESTIVAL} == on_board
    assert {a - codec.FESTIVAL for a in moves if codec.FESTIVAL <= a < codec.BIG_PAPA} == on_board
    assert codec.PASS in moves
    c = min(on_board)
    act(rules, s, codec.FESTIVAL + c)
    assert s.festival[c] == 1 and s.fest_left == 0
    act(rules, s, codec.CITY + c)
    assert s.phase == PLACE and s.turn == 1  # all placed: Extraction ran and 1998 began
    assert s.owner[c] >= 0  # the festival kept it (only 2 workers anyway)


def test_big_papa_gives_the_mayor_an_extra_festival_and_two_extra_city_workers():
    rules, s = fresh(4, 10)
    pass_placing(rules, s)
    give_cards(s, 2, BIG_PAPA)
    vote(rules, s, {p: 2 for p in range(4)})
    assert codec.BIG_PAPA in legal(rules, s)
    act(rules, s, codec.BIG_PAPA)
    assert s.fest_left == 2 and s.city_left == CITY_WORKERS[0] + 2
    assert s.hand[2][BIG_PAPA] == 0 and s.discard[BIG_PAPA] == 1


def test_big_papa_is_played_only_by_the_mayor_in_the_election():
    rules, s = fresh(4, 11)
    give_cards(s, 0, BIG_PAPA)
    pass_placing(rules, s)
    while s.actor != 0:
        act(rules, s, codec.OUTSIDER)
    assert codec.BIG_PAPA not in legal(rules, s)  # not while voting
    vote(rules, s, {})  # failed: investigation
    assert s.phase == CARDS and s.actor == 0
    assert legal(rules, s) == {codec.PASS}  # not in the investigation either


def test_gifts_are_allowed_in_the_election_instead_of_voting():
    rules, s = fresh(4, 12)
    pass_placing(rules, s)
    p = s.actor
    s.cash[p] = 5
    act(rules, s, codec.ACTIONS.encode("gift", amount=0, seat=1))
    assert s.votes[p] == -1 and s.actor != p  # the vote comes later
    while s.actor != p:
        act(rules, s, codec.OUTSIDER)
    assert not any(codec.ACTIONS.decode(a)[0] == "gift" for a in legal(rules, s))  # max one gift


def test_big_papa_never_puts_more_than_the_3_arches_and_5_city_workers_of_the_box_on_the_board():
    rules, s = fresh(7, 13)
    for _ in range(4):
        finish_turn(rules, s)  # 2009: three city workers, two festivals with 7 players
    pass_placing(rules, s)
    give_cards(s, 3, BIG_PAPA, 3)
    vote(rules, s, {p: 3 for p in range(7)})
    assert (s.city_left, s.fest_left) == (3, 2)
    act(rules, s, codec.BIG_PAPA)
    assert (s.city_left, s.fest_left) == (5, 3)
    act(rules, s, codec.BIG_PAPA)  # the box is empty: nothing more
    assert (s.city_left, s.fest_left) == (5, 3)


def test_a_mayor_holding_cards_is_asked_once_more_so_big_papa_stays_private():
    stops = []
    for card in (BIG_PAPA, SNITCH):
        rules, s = fresh(4, 14)
        pass_placing(rules, s)
        give_cards(s, 2, card)
        vote(rules, s, {p: 2 for p in range(4)})
        on = min(c for c in range(18) if s.owner[c] >= 0)
        act(rules, s, codec.CITY + on)
        act(rules, s, codec.FESTIVAL + on)
        stops.append((s.phase, s.actor))  # nothing left to place, yet the mayor is asked again
        assert (codec.BIG_PAPA in legal(rules, s)) == (card == BIG_PAPA)
    assert stops[0] == stops[1] == (MAYOR, 2)
