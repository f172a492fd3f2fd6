"""CorruptionEngine against CorruptionRules, decision by decision: the same games (each engine game is
the AEC game of its seed), the same actions, identical observations, masks, seats on turn and
outcomes, at every player count, in batches that mix counts, under random and heuristic play, and
from the crafted positions of the rule tests loaded into the engine."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from benchmarks.differential import check_decision, compare_games, compare_positions  # noqa: E402
from corruption_envs.core.errors import NotResetError  # noqa: E402
from corruption_envs.corruption import codec  # noqa: E402
from corruption_envs.corruption.state import HIT_STEP, REPORTER_STEP, SWISS_STEP  # noqa: E402
from corruption_envs.corruption.engine import CorruptionEngine  # noqa: E402

from ..corruption.helpers import (  # noqa: E402
    DA,
    HIT_MAN,
    REPORTER,
    bribe,
    fresh,
    phase2,
    play,
    quiet_round,
    step,
    swiss,
    under,
)

COUNTS = (3, 4, 5, 6, 7)


@pytest.mark.parametrize("n", COUNTS)
def test_random_games_match_the_rules_at_every_count(n):
    assert compare_games("corruption", 400, n, seed=n, play="random", num_envs=48) > 400 * 24 * n


@pytest.mark.parametrize("n", COUNTS)
def test_heuristic_games_match_the_rules_at_every_count(n):
    assert compare_games("corruption", 80, n, seed=10 + n, play="heuristic", num_envs=16) > 80 * 24 * n


@pytest.mark.parametrize("play", ["random", "heuristic"])
def test_batches_mixing_every_count_match_the_rules(play):
    compare_games("corruption", 400 if play == "random" else 80, COUNTS, seed=20, play=play, num_envs=32)


@pytest.mark.parametrize("config", [
    {"reporter_may_decline": False},
    {"reward": "rank"},
    {"reward": "score", "reporter_may_decline": False},
])
def test_rule_variants_and_reward_modes_match_the_rules(config):
    compare_games("corruption", 120, (3, 5, 7), seed=30, play="random", num_envs=24, **config)


# --- crafted positions, loaded into the engine and played out both ways ------------------------------
def hit_man_between_da_and_reporter():
    """Phase III step 2: a Hit Man on a contract with an opponent's DA and Reporter (test_faq)."""
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [bribe(10, c), play(HIT_MAN, c)], 1: [play(DA, c)], 2: [play(REPORTER, c)]}, dump)
    assert s.phase == HIT_STEP
    return rules, s


def two_hit_men_and_two_reporters_of_one_seat():
    """Two Hit Men in play order on a contract where one seat has both Reporters (kill slots 1, 2)."""
    rules, s = fresh(4)
    c, dump = under(s, 1)[0], under(s, 2)[1]
    phase2(rules, s, {0: [bribe(8, c), play(HIT_MAN, c)], 1: [play(HIT_MAN, c)],
                      2: [bribe(6, c), play(REPORTER, c), play(REPORTER, c)]}, dump)
    assert s.phase == HIT_STEP
    return rules, s


def swiss_bribes_and_a_reporter():
    """Step 1 with Swiss bribes of two seats to assign, a Reporter waiting in step 4."""
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [swiss(10, 0), swiss(2, 0)], 1: [play(REPORTER, c), bribe(4, c)], 2: [swiss(8, 0)]},
           dump)
    assert s.phase == SWISS_STEP
    return rules, s


def reporter_to_decide():
    """Step 4: a Reporter's owner chooses among vertical bribes (after a Swiss assignment)."""
    rules, s = fresh(3)
    c, dump = under(s, 0)[0], under(s, 2)[0]
    phase2(rules, s, {0: [swiss(10, 0)], 1: [play(REPORTER, c)], 2: [bribe(1, c), bribe(2, c)]}, dump)
    step(rules, s, codec.ACTIONS.encode("assign", contract=c))
    assert s.phase == REPORTER_STEP
    return rules, s


def five_face_down_cards_of_one_seat():
    """Round 1 at 7 players: one seat's five face-down cards on one contract (5/6 is not five 1/6 sums
    in float32) and face-down Swiss cards, mid Phase II."""
    rules, s = fresh(7)
    c = under(s, 0)[0]
    values = (1, 2, 4, 6, 8, 10)
    while s.placed[0] < 6:  # seat 0: six bribes on c, the first face up; seat 1: five on a Swiss account
        p = s.to_act
        if p == 0:
            step(rules, s, bribe(values[int(s.placed[0])], c))
        elif p == 1 and s.placed[1] < 5:
            step(rules, s, swiss(values[int(s.placed[1])], 2))
        else:
            step(rules, s, int(np.flatnonzero(rules.legal_mask(s))[0]))
    assert s.hidden[0][c] == 5 and s.hidden[1][-1] == 5
    return rules, s


def third_round_with_contracts_won_and_deferred():
    """Round 3 after two quiet rounds: won, deferred and new contracts, a leader by value."""
    rules, s = fresh(5)
    quiet_round(rules, s)
    quiet_round(rules, s)
    assert s.round == 2
    return rules, s


POSITIONS = [hit_man_between_da_and_reporter, two_hit_men_and_two_reporters_of_one_seat,
             swiss_bribes_and_a_reporter, reporter_to_decide, five_face_down_cards_of_one_seat,
             third_round_with_contracts_won_and_deferred]


@pytest.mark.parametrize("position", POSITIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("play", ["random", "heuristic"])
def test_crafted_positions_play_out_as_the_rules(position, play):
    for seed in range(4):
        rules, s = position()
        assert compare_positions("corruption", [s], seed=seed, play=play) > 0


# --- the driver and load() fail loudly -------------------------------------------------------------
def test_a_difference_is_named_by_its_layout_piece():
    rules, s = reporter_to_decide()
    engine = CorruptionEngine(1, num_players=3)
    engine.reset(seed=0)
    engine.load(0, s)
    check_decision(engine, 0, rules, s, 0)
    engine._batch.observation[0, engine.observation_layout["decision_contract"].start + 3] += 1
    with pytest.raises(AssertionError, match=r"row 0, decision 0, 3 players: observation differs at "
                                             r"decision_contract\[3\]"):
        check_decision(engine, 0, rules, s, 0)


def test_load_refuses_what_does_not_fit():
    rules, s = fresh(7)
    with pytest.raises(NotResetError, match="reset"):
        CorruptionEngine(1, num_players=7).load(0, s)
    small = CorruptionEngine(1, num_players=[3, 4])
    small.reset(seed=0)
    with pytest.raises(ValueError, match="num_players including 7"):
        small.load(0, s)
    rules, s = fresh(3)
    while rules.current_player(s) >= 0:
        step(rules, s, int(np.flatnonzero(rules.legal_mask(s))[0]))
    with pytest.raises(ValueError, match="game is over"):
        small.load(0, s)
