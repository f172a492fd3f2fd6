"""Each rule sentence of the seed, checked through real moves."""
import numpy as np
import pytest

from corruption_envs.corruption import codec
from corruption_envs.corruption.state import CONTRACT, HAND, SWISS, TABLE
from corruption_envs.corruption.tables import CARD_KIND, CARD_VALUE, NUM_CONTRACTS

from .helpers import (
    DA,
    HIT_MAN,
    REPORTER,
    bribe,
    fresh,
    legal,
    phase2,
    quiet_round,
    step,
    swiss,
    under,
)


@pytest.mark.parametrize("n", [3, 7])
def test_setup_each_player_holds_ten_cards_six_bribes_da_two_reporters_hit_man(n):
    _, s = fresh(n)
    assert (s.loc == HAND).all()
    assert sorted(CARD_VALUE[:6].tolist()) == [1, 2, 4, 6, 8, 10]
    assert sorted(CARD_KIND[6:].tolist()) == [DA, REPORTER, REPORTER, HIT_MAN]


def test_setup_deck_of_24_shuffled_from_the_game_rng():
    decks = [fresh(3, seed=k)[1].deck for k in range(3)]
    assert all(len(d) == 18 for d in decks) and decks[0] != decks[1]
    assert decks[0] == fresh(3, seed=0)[1].deck


def test_phase_one_deals_six_contracts_two_under_each_body_each_round():
    rules, s = fresh(3)
    for r in range(4):
        new = np.flatnonzero((s.cloc == TABLE) & (s.dealt_round == r))
        assert len(new) == 6 and np.bincount(s.cbody[new], minlength=3).tolist() == [2, 2, 2]
        quiet_round(rules, s)


@pytest.mark.parametrize("n, leader", [(3, 0), (5, 3), (7, 6)])
def test_phase_two_clockwise_from_leader_one_card_each_until_six_each(n, leader):
    rules, s = fresh(n, leader=leader)
    order = []
    while s.phase == 0 and s.round == 0:
        order.append(s.to_act)
        step(rules, s, bribe(1, under(s, 0)[0]) if s.loc[s.to_act, 0] == HAND
             else int(np.flatnonzero(rules.legal_mask(s))[0]))
    assert order == [(leader + t) % n for t in range(6 * n)]


def test_characters_only_on_contracts_and_swiss_only_bribes():
    rules, s = fresh(3)
    actions = legal(rules, s)
    swiss_actions = {a for a in actions if codec.SWISS <= a < codec.ASSIGN}
    assert swiss_actions == {codec.ACTIONS.encode("swiss", bribe=b, body=g) for b in range(6) for g in range(3)}
    on_table = [c for g in range(3) for c in under(s, g)]
    for kind in (DA, REPORTER, HIT_MAN):
        assert {codec.ACTIONS.encode("play", kind=kind, contract=c) for c in on_table} <= actions


@pytest.mark.parametrize("rnd", [0, 1, 2, 3])
def test_in_round_r_each_players_first_r_contract_cards_are_face_up(rnd):
    rules, s = fresh(3)
    for _ in range(rnd):
        quiet_round(rules, s)
    c, dump = under(s, 1)[0], under(s, 0)[0]
    script = [swiss(10, 2)] + [bribe(v, c) for v in (1, 2, 4, 6, 8)]
    while s.phase == 0:
        p = s.to_act
        if p == 1:
            step(rules, s, script[int(s.placed[1])])
            if s.phase == 0:
                up = [bool(s.public[1, b]) for b in range(5) if s.loc[1, b] == CONTRACT]
                assert up == [i < rnd + 1 for i in range(len(up))]
                assert not s.public[1, 5]  # the Swiss card stays face-down and is not counted
        else:
            step(rules, s, bribe(1, dump) if s.loc[p, 0] == HAND
                 else int(np.flatnonzero(rules.legal_mask(s))[0]))


def test_phase_three_reveals_every_card():
    rules, s = fresh(3)
    c = under(s, 0)[0]
    phase2(rules, s, {0: [swiss(4, 0), bribe(10, c), bribe(8, c)]}, under(s, 2)[0])
    assert s.phase == 1
    played = (s.loc == CONTRACT) | (s.loc == SWISS)
    assert s.public[played].all()


def test_award_goes_to_highest_total_with_swiss_at_half_value():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    # player_0: $4k + Swiss $6k / 2 = $7k beats player_1's $6k vertical
    phase2(rules, s, {0: [bribe(4, c), swiss(6, 0)], 1: [bribe(6, c)]}, dump)
    step(rules, s, codec.ACTIONS.encode("assign", contract=c))
    assert s.cowner[c] == 0


def test_swiss_bribe_at_half_value_loses_to_a_larger_vertical_total():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    # player_0: Swiss $10k / 2 = $5k loses to player_1's $6k
    phase2(rules, s, {0: [swiss(10, 0)], 1: [bribe(6, c)]}, dump)
    step(rules, s, codec.ACTIONS.encode("assign", contract=c))
    assert s.cowner[c] == 1


def test_bribe_totals_are_integers_in_half_thousands():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [bribe(1, c), swiss(2, 0)], 1: [swiss(1, 0)]}, dump)
    assert s.to_act == 1  # Swiss bribes are assigned in play order: player_1's came first
    step(rules, s, codec.ACTIONS.encode("assign", contract=c))
    totals = rules.bribe_totals(s)
    assert totals.dtype.kind == "i"
    assert totals[0, c] == 2 and totals[1, c] == 1  # $1k vertical = 2 halves; $1k Swiss = 1 half
    step(rules, s, codec.ACTIONS.encode("assign", contract=c))  # player_0's Swiss $2k: 2 halves more, 4 against 1
    assert s.cowner[c] == 0


def test_contract_without_any_bribe_is_not_awarded():
    rules, s = fresh(3)
    quiet_round(rules, s)
    assert (s.cowner[[c for c in range(NUM_CONTRACTS) if s.dealt_round[c] == 0]] == -1).all()


def test_score_is_the_total_value_of_contracts_won():
    rules, s = fresh(3)
    c, c2 = under(s, 0)[0], under(s, 1)[0]
    phase2(rules, s, {2: [bribe(10, c), bribe(8, c2)]}, under(s, 2)[0])
    from corruption_envs.corruption.tables import CONTRACT_VALUE
    assert rules.scores(s)[2] == CONTRACT_VALUE[c] + CONTRACT_VALUE[c2]
    assert rules.final_keys(s)[2] == (int(CONTRACT_VALUE[c] + CONTRACT_VALUE[c2]),)


def test_game_ends_after_round_four_with_no_player_to_act():
    rules, s = fresh(4)
    for _ in range(4):
        quiet_round(rules, s)
    assert rules.is_over(s) and not s.deck
    assert (s.loc[:, :6] == HAND).all() and (s.loc[:, 6:] != CONTRACT).all()
