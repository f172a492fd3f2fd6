"""Every Corruption ruling that docs/rules/corruption.md maps in "Rule map: rulings", one test each."""
import numpy as np
import pytest

from corruption_envs.core.rewards import terminal_rewards
from corruption_envs.corruption import CorruptionRules, codec, env
from corruption_envs.corruption.state import (
    CONTRACT,
    HAND,
    LOST,
    OVER,
    REPORTER_STEP,
    TABLE,
    USED,
    WON,
)
from corruption_envs.corruption.tables import CONTRACT_VALUE, CONTRACTS, NUM_ROUNDS

from .helpers import (
    DA,
    HIT_MAN,
    REPORTER,
    bribe,
    fresh,
    legal,
    phase2,
    play,
    quiet_round,
    resolve,
    step,
    under,
)


def test_ruling_four_rounds():
    rules, s = fresh(3)
    for r in range(NUM_ROUNDS):
        assert s.round == r and s.phase == 0
        quiet_round(rules, s)
    assert s.phase == OVER and rules.current_player(s) == -1


def test_ruling_contract_table_has_24_cards_with_published_values():
    values = dict(CONTRACTS)
    assert len(CONTRACTS) == 24 and len(values) == 24
    assert values["Monument"] == 100 and values["Elementary School"] == 100
    assert values["Suspension Bridge"] == 900 and values["Stadium"] == 800
    assert values["Hydro-Electric Dam"] == 1200 and values["Subway System"] == 1000
    assert sorted(values.values()).count(200) == 3


def test_ruling_contract_belongs_to_the_body_it_was_dealt_under_and_deferred_ones_stay():
    rules, s = fresh(3)
    c = under(s, 0)[0]
    phase2(rules, s, {0: [play(DA, c)]}, under(s, 2)[0])
    # the DA's contract and the untouched other City Hall contract are deferred; two new come
    assert s.round == 1 and c in under(s, 0) and len(under(s, 0)) == 4
    assert len(under(s, 1)) == 4  # no bids there either: both deferred, two new


def test_ruling_characters_never_come_back_whatever_happened():
    rules, s = fresh(3)
    c, c2, dump = under(s, 0)[0], under(s, 1)[0], under(s, 2)[0]
    # killed DA, a Hit Man that killed, a Reporter without bribe to remove
    phase2(rules, s, {0: [play(HIT_MAN, c)], 1: [play(DA, c)], 2: [play(REPORTER, c2)]}, dump)
    resolve(rules, s)
    assert s.round == 1
    assert s.loc[0, 9] == USED and s.loc[1, 6] == USED and s.loc[2, 7] == USED


def test_ruling_bribes_come_back_every_round_also_from_won_contracts():
    rules, s = fresh(3)
    c = under(s, 0)[0]
    phase2(rules, s, {0: [bribe(10, c)]}, under(s, 2)[0])
    assert s.cowner[c] == 0
    assert (s.loc[:, :6] == HAND).all()


def test_ruling_hit_man_kills_one_card_and_is_discarded_with_it():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [play(HIT_MAN, c)], 1: [play(DA, c), play(REPORTER, c)]}, dump)
    step(rules, s, codec.ACTIONS.encode("kill", seat=1, slot=1))  # kill player_1's Reporter
    # the Hit Man is gone with its victim; the DA survives and cancels
    assert s.loc[0, 9] == USED and s.loc[1, 7] == USED and s.outcome[c] == 1


def test_ruling_hit_man_may_kill_its_owners_own_character():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [play(DA, c), play(HIT_MAN, c)]}, dump)
    assert legal(rules, s) == {codec.ACTIONS.encode("kill", seat=0, slot=0)}


def test_ruling_hit_man_names_which_of_two_reporters_by_play_order():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [play(HIT_MAN, c)], 1: [play(REPORTER, c), bribe(1, c), play(REPORTER, c)]},
           dump)
    assert legal(rules, s) == {codec.ACTIONS.encode("kill", seat=1, slot=1), codec.ACTIONS.encode("kill", seat=1, slot=2)}
    step(rules, s, codec.ACTIONS.encode("kill", seat=1, slot=2))  # the later one
    # the later-played Reporter (id 8) died; the earlier one still acts in step 4
    assert s.loc[1, 8] == USED and s.loc[1, 7] == CONTRACT
    assert s.phase == REPORTER_STEP and s.to_act == 1


def test_ruling_killed_hit_man_does_not_act():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [play(HIT_MAN, c)], 1: [play(HIT_MAN, c), play(DA, c)]}, dump)
    assert s.to_act == 0
    assert legal(rules, s) == {codec.ACTIONS.encode("kill", seat=1, slot=0), codec.ACTIONS.encode("kill", seat=1, slot=3)}
    step(rules, s, codec.ACTIONS.encode("kill", seat=1, slot=3))  # player_0 kills player_1's Hit Man
    # player_1's Hit Man is never asked; the DA survives and cancels
    assert s.round == 1 and s.outcome[c] == 1


def test_ruling_hit_men_resolve_in_play_order():
    rules, s = fresh(3, leader=1)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [play(HIT_MAN, c)], 1: [play(HIT_MAN, c)], 2: [play(DA, c)]}, dump)
    assert s.to_act == 1  # player_1 led this round, so its Hit Man came first


def test_ruling_reporter_may_remove_its_owners_own_bribe():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [bribe(2, c), play(REPORTER, c)], 1: [bribe(1, c)]}, dump)
    assert codec.ACTIONS.encode("remove", seat=0, bribe=1) in legal(rules, s)
    step(rules, s, codec.ACTIONS.encode("remove", seat=0, bribe=1))
    assert s.cowner[c] == 1


def test_ruling_reporter_may_decline_by_default_and_not_when_configured():
    for may, expected in ((True, True), (False, False)):
        rules, s = fresh(3, reporter_may_decline=may)
        c, dump = under(s, 0)[0], under(s, 2)[0]
        phase2(rules, s, {0: [bribe(2, c), play(REPORTER, c)]}, dump)
        assert (codec.DECLINE in legal(rules, s)) == expected


@pytest.mark.parametrize(
    "values, counts, last_first, expected",
    [
        ([500, 900, 100, 0], [1, 1, 1, 0], 0, 1),  # most total value
        ([900, 900, 100, 0], [1, 2, 1, 0], 0, 1),  # tie on value: most contracts
        ([900, 0, 900, 0], [2, 0, 2, 0], 1, 2),  # tie on both: earliest seat after last first player
        ([900, 0, 900, 0], [2, 0, 2, 0], 2, 0),  # ... wrapping around the table
        ([0, 0, 0, 0], [0, 0, 0, 0], 3, 0),
    ],
)
def test_ruling_leader_order_tie_breaks(values, counts, last_first, expected):
    rules, s = fresh(4)
    s.won_value[:] = values
    s.won_count[:] = counts
    s.leader = last_first
    assert rules._next_leader(s) == expected


def test_ruling_leader_of_later_rounds_is_the_richest_player():
    rules, s = fresh(3, leader=0)
    c = max(under(s, 0), key=lambda c: CONTRACT_VALUE[c])
    phase2(rules, s, {2: [bribe(10, c)]}, under(s, 2)[0])
    assert s.round == 1 and s.cowner[c] == 2 and s.leader == 2 and s.to_act == 2


def test_ruling_round_one_leader_is_drawn_from_the_seeded_rng():
    rules = CorruptionRules(CorruptionRules.make_config(num_players=5))
    leaders = [rules.new_game(np.random.default_rng(seed)).leader for seed in range(40)]
    assert set(leaders) == set(range(5))
    assert leaders == [rules.new_game(np.random.default_rng(seed)).leader for seed in range(40)]


def test_ruling_final_tie_on_total_value_is_a_shared_win():
    rules, s = fresh(3)
    s.won_value[:] = [900, 900, 100]
    s.won_count[:] = [1, 3, 1]  # contract count does not break the final tie
    keys = rules.final_keys(s)
    assert keys[0] == keys[1]
    assert terminal_rewards("win", keys, rules.scores(s)) == [0.5, 0.5, -1.0]


def test_ruling_contracts_unawarded_after_round_four_are_lost():
    rules, s = fresh(3)
    for _ in range(3):
        quiet_round(rules, s)
    c = under(s, 1)[0]
    phase2(rules, s, {0: [play(DA, c)]}, under(s, 0)[0])
    resolve(rules, s)
    assert s.phase == OVER and s.cloc[c] == LOST and s.cowner[c] == -1
    assert not (s.cloc == TABLE).any() and ((s.cloc == WON) | (s.cloc == LOST)).all()


def test_ruling_shared_win_through_the_env():
    e = env(num_players=3)
    e.reset(seed=3)
    # everyone mirrors everyone (the first legal card each time): every contract ties and is lost
    while not all(e.terminations.values()):
        e.step(int(np.flatnonzero(e.action_mask())[0]))
    assert e.rules.scores(e.game_state) == [0, 0, 0]
    assert all(r == pytest.approx(1 / 3) for r in e.rewards.values())
