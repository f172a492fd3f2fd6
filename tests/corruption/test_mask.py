"""Mask exactness on hand-built positions: every legal move allowed, every other one refused."""
import numpy as np
import pytest

from corruption_envs.core import IllegalActionError
from corruption_envs.corruption import codec, env
from corruption_envs.corruption.state import HAND, TABLE
from corruption_envs.corruption.tables import CARD_KIND

from .helpers import (
    DA,
    HIT_MAN,
    REPORTER,
    bribe,
    fresh,
    legal,
    phase2,
    play,
    step,
    swiss,
    under,
)


def expected_phase2(s, p):
    kinds = {int(CARD_KIND[c]) for c in range(10) if s.loc[p, c] == HAND}
    table = np.flatnonzero(s.cloc == TABLE)
    out = {codec.ACTIONS.encode("play", kind=k, contract=int(c)) for k in kinds for c in table}
    out |= {codec.ACTIONS.encode("swiss", bribe=b, body=g) for b in range(6) if s.loc[p, b] == HAND for g in range(3)}
    return out


def test_phase_two_mask_is_exactly_hand_kinds_times_table_plus_bribes_on_swiss():
    rules, s = fresh(3)
    c, c2 = under(s, 0)[0], under(s, 1)[1]
    script = [play(REPORTER, c), bribe(10, c2), play(REPORTER, c2), swiss(1, 1), play(DA, c)]
    while s.phase == 0:
        p = s.to_act
        assert legal(rules, s) == expected_phase2(s, p)
        if p == 0 and script:
            step(rules, s, script.pop(0))
        else:
            step(rules, s, int(np.flatnonzero(rules.legal_mask(s))[-1]))
        if p == 0 and s.phase == 0:
            reporters_left = sum(s.loc[0, r] == HAND for r in (7, 8))
            plays = legal(rules, s) if s.to_act == 0 else expected_phase2(s, 0)
            assert any(codec.ACTIONS.decode(a)[0] == "play" and codec.ACTIONS.decode(a)[1]["kind"] == REPORTER for a in plays) == (reporters_left > 0)


def test_hit_man_mask_lists_exactly_the_characters_on_its_contract():
    rules, s = fresh(3)
    c, c2, dump = under(s, 0)[0], under(s, 0)[1], under(s, 2)[0]
    phase2(rules, s, {
        0: [play(HIT_MAN, c), play(REPORTER, c2)],
        1: [play(DA, c), play(REPORTER, c)],
        2: [play(REPORTER, c), play(HIT_MAN, c)],
    }, dump)
    assert s.phase == 2 and s.to_act == 0
    assert legal(rules, s) == {codec.ACTIONS.encode("kill", seat=1, slot=0), codec.ACTIONS.encode("kill", seat=1, slot=1),
                               codec.ACTIONS.encode("kill", seat=2, slot=1), codec.ACTIONS.encode("kill", seat=2, slot=3)}
    step(rules, s, codec.ACTIONS.encode("kill", seat=2, slot=3))  # kill player_2's Hit Man: it will not act
    # then step 3: the DA survives and cancels c; Reporters on c do nothing; player_0's Reporter on
    # c2 finds no bribe; the round ends with nothing more to decide
    assert s.round == 1


def test_reporter_mask_lists_exactly_the_vertical_bribes_on_its_contract():
    rules, s = fresh(4)
    c, c2, dump = under(s, 0)[0], under(s, 0)[1], under(s, 2)[0]
    phase2(rules, s, {
        0: [bribe(6, c), play(REPORTER, c), bribe(8, c2)],
        1: [bribe(2, c), swiss(10, 0)],
        3: [bribe(4, c)],
    }, dump)
    step(rules, s, codec.ACTIONS.encode("assign", contract=c))  # player_1's Swiss bribe joins c, horizontal
    assert s.phase == 3 and s.to_act == 0
    assert legal(rules, s) == {codec.ACTIONS.encode("remove", seat=0, bribe=3), codec.ACTIONS.encode("remove", seat=1, bribe=1),
                               codec.ACTIONS.encode("remove", seat=3, bribe=2), codec.DECLINE}


def test_swiss_assignment_mask_is_the_contracts_under_its_body_including_deferred_ones():
    rules, s = fresh(3)
    c = under(s, 1)[0]
    phase2(rules, s, {0: [play(DA, c)]}, under(s, 2)[0])  # defers both County Seat contracts
    assert len(under(s, 1)) == 4
    phase2(rules, s, {2: [swiss(4, 1)]}, under(s, 2)[0])
    assert s.phase == 1 and s.to_act == 2
    assert legal(rules, s) == {codec.ACTIONS.encode("assign", contract=x) for x in under(s, 1)}


@pytest.mark.parametrize("n", [3, 6])
def test_env_refuses_every_illegal_action_and_accepts_every_legal_one(n):
    e = env(num_players=n, illegal_action="raise")
    e.reset(seed=n)
    rng = np.random.default_rng(n)
    checked = 0
    while e.agents and checked < 40:
        if e.terminations[e.agent_selection]:
            break
        mask = e.action_mask()
        assert mask.any()
        for agent in e.agents:
            if agent != e.agent_selection:
                assert not e.observe(agent)["action_mask"].any()
        for a in rng.choice(codec.NUM_ACTIONS, 25, replace=False):
            if mask[a]:
                e.clone().step(int(a))
            else:
                with pytest.raises(IllegalActionError):
                    e.step(int(a))
        legal_actions = np.flatnonzero(mask)
        e.step(int(legal_actions[rng.integers(legal_actions.size)]))
        checked += 1
