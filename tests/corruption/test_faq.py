"""Every FAQ case of the seed (000_994f818130654574), one test each, named for the case."""
import numpy as np
import pytest

from corruption_envs.core import IllegalActionError
from corruption_envs.corruption import codec, env
from corruption_envs.corruption.state import (
    CANCELLED,
    HAND,
    HIT_STEP,
    NO_AWARD,
    REPORTER_STEP,
    SWISS_STEP,
    TABLE,
    USED,
    WON,
)

from .helpers import (
    DA,
    HIT_MAN,
    REPORTER,
    bribe,
    fresh,
    legal,
    phase2,
    play,
    resolve,
    step,
    swiss,
    under,
)


def test_faq_hit_man_kills_da_before_da_cancels():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [bribe(10, c), play(HIT_MAN, c)], 1: [play(DA, c)]}, dump)
    assert s.phase == HIT_STEP and s.to_act == 0
    assert legal(rules, s) == {codec.ACTIONS.encode("kill", seat=1, slot=0)}  # player_1's DA, one seat after me
    step(rules, s, codec.ACTIONS.encode("kill", seat=1, slot=0))
    assert s.cowner[c] == 0 and s.cloc[c] == WON  # the DA died first: the contract proceeds
    assert s.loc[1, 6] == USED and s.loc[0, 9] == USED


def test_faq_da_that_survives_hit_men_cancels_the_contract():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [bribe(10, c), play(HIT_MAN, c)], 1: [play(DA, c)], 2: [play(REPORTER, c)]},
           dump)
    assert legal(rules, s) == {codec.ACTIONS.encode("kill", seat=1, slot=0), codec.ACTIONS.encode("kill", seat=2, slot=1)}
    step(rules, s, codec.ACTIONS.encode("kill", seat=2, slot=1))  # kill player_2's Reporter instead of the DA
    assert s.cloc[c] == TABLE and s.outcome[c] == CANCELLED and s.cowner[c] == -1


def test_faq_reporter_cannot_remove_swiss_bank_bribe():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [swiss(10, 0)], 1: [play(REPORTER, c)], 2: [bribe(1, c)]}, dump)
    assert s.phase == SWISS_STEP and s.to_act == 0
    step(rules, s, codec.ACTIONS.encode("assign", contract=c))
    assert s.phase == REPORTER_STEP and s.to_act == 1
    # player_2's vertical $1k (two seats after player_1) or nothing; never player_0's Swiss $10k
    assert legal(rules, s) == {codec.ACTIONS.encode("remove", seat=1, bribe=0), codec.DECLINE}
    step(rules, s, codec.ACTIONS.encode("remove", seat=1, bribe=0))
    assert s.cowner[c] == 0  # the Swiss $10k at half value still counts


def test_faq_reporter_with_only_swiss_bribes_on_its_contract_is_not_asked():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [swiss(10, 0)], 1: [play(REPORTER, c)]}, dump)
    step(rules, s, codec.ACTIONS.encode("assign", contract=c))
    assert s.round == 1 and s.cowner[c] == 0 and s.loc[1, 7] == USED


def test_faq_tie_with_half_values_is_no_award_and_deferred():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [bribe(4, c)], 1: [swiss(8, 0)]}, dump)  # $4k vs $8k / 2
    step(rules, s, codec.ACTIONS.encode("assign", contract=c))
    assert s.round == 1 and s.cloc[c] == TABLE and s.cbody[c] == 0
    assert s.outcome[c] == NO_AWARD and s.cowner[c] == -1
    assert s.loc[0, 2] == HAND and s.loc[1, 4] == HAND  # bribes back


def test_faq_da_cancel_returns_bribes_and_contract_stays_for_next_round():
    rules, s = fresh(3, record_events=True)
    c, dump = under(s, 1)[0], under(s, 2)[0]
    phase2(rules, s, {0: [bribe(10, c)], 1: [bribe(8, c)], 2: [play(DA, c)]}, dump)
    assert s.round == 1  # nothing to decide: the DA cancels on its own
    assert s.cloc[c] == TABLE and s.cbody[c] == 1 and s.outcome[c] == CANCELLED
    assert s.loc[0, 5] == HAND and s.loc[1, 4] == HAND
    assert s.loc[2, 6] == USED  # the DA is removed for good
    assert any("District Attorney cancels" in text for _, text in s.events)


def test_faq_hit_man_with_no_target_is_removed_without_effect():
    rules, s = fresh(3)
    c, c2, dump = under(s, 0)[0], under(s, 0)[1], under(s, 2)[0]
    phase2(rules, s, {0: [bribe(10, c2), play(HIT_MAN, c)], 1: [play(DA, c2)]}, dump)
    # no decision: the Hit Man cannot reach the DA on another contract, which cancels c2
    assert s.round == 1 and s.loc[0, 9] == USED
    assert s.outcome[c2] == CANCELLED and s.cloc[c2] == TABLE


def test_faq_two_reporters_resolve_in_play_order():
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [bribe(10, c)], 1: [bribe(8, c), play(REPORTER, c)],
                      2: [bribe(6, c), play(REPORTER, c)]}, dump)
    assert s.phase == REPORTER_STEP and s.to_act == 1  # player_1's Reporter was played first
    step(rules, s, codec.ACTIONS.encode("remove", seat=2, bribe=5))  # player_1 removes player_0's $10k
    assert s.to_act == 2
    step(rules, s, codec.ACTIONS.encode("remove", seat=2, bribe=4))  # player_2 removes player_1's $8k
    assert s.cowner[c] == 2


def test_faq_characters_are_not_reusable_in_later_rounds():
    rules, s = fresh(3)
    c, c2, dump = under(s, 0)[0], under(s, 1)[0], under(s, 2)[0]
    phase2(rules, s, {0: [play(DA, c), play(HIT_MAN, c2), play(REPORTER, c2)]}, dump)
    resolve(rules, s)
    assert s.round == 1
    for card in (6, 7, 9):
        assert s.loc[0, card] == USED
    while s.to_act != 0:
        step(rules, s, int(np.flatnonzero(rules.legal_mask(s))[0]))
    kinds = {codec.ACTIONS.decode(a)[1]["kind"] for a in legal(rules, s) if codec.ACTIONS.decode(a)[0] == "play"}
    assert kinds == {0, 1, 2, 3, 4, 5, REPORTER}  # the second Reporter is still in hand


def test_faq_swiss_bribe_cannot_go_to_another_body():
    e = env(num_players=3, illegal_action="raise")
    e.reset(seed=0)
    rules, s = e.rules, e.game_state
    s.leader = s.to_act = 0
    rules.observer.rebuild_empty_table(s)
    e.agent_selection = "player_0"
    phase2(rules, s, {0: [swiss(6, 0)]}, under(s, 2)[0])
    e._mask = None
    assert s.phase == SWISS_STEP
    assert legal(rules, s) == {codec.ACTIONS.encode("assign", contract=c) for c in under(s, 0)}
    with pytest.raises(IllegalActionError, match="not legal"):
        e.step(codec.ACTIONS.encode("assign", contract=under(s, 1)[0]))


def test_faq_swiss_play_does_not_count_toward_face_up():
    rules2, s2 = fresh(3)
    c, c2 = under(s2, 0)[0], under(s2, 1)[0]
    step(rules2, s2, swiss(1, 0))
    for _ in range(2):
        step(rules2, s2, bribe(1, under(s2, 2)[0]))
    step(rules2, s2, bribe(10, c))
    assert s2.public[0, 5] and not s2.public[0, 0]  # round 1: first contract card face-up
    obs1 = rules2.observe(s2, 1)
    cards = rules2.observation_layout.view(obs1, "cards")
    assert cards[c, 2, 5] == 1  # player_1 sees player_0 (two seats on) with $10k on c
    for _ in range(2):
        step(rules2, s2, bribe(2, under(s2, 2)[0]))
    step(rules2, s2, bribe(8, c2))
    assert not s2.public[0, 4]  # the second card on a contract is face-down in round 1
