"""The batched Construction engine is the AEC rules: the same games, decision by decision.

Each game is dealt from the same seed on both sides, its dice and cards drawn on from that seed's numpy
Generator on both, and the same action is fed to both; benchmarks/differential.py
compares every observation, mask and player, and every end's rewards, scores and ranks.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from benchmarks.differential import check_decision, compare_games, compare_positions  # noqa: E402
from corruption_envs.construction import codec  # noqa: E402
from corruption_envs.construction.state import OVER  # noqa: E402
from corruption_envs.core.errors import NotResetError  # noqa: E402
from corruption_envs.construction.tables import (  # noqa: E402
    BIG_PAPA, CUT_AND_PASTE, DEEP_MERDE, LA_GREVE, RED_ALERT, REVENUE_QUEBEC, SNITCH,
    SPIC_N_SPAN,
)
from corruption_envs.construction import ConstructionRules  # noqa: E402
from corruption_envs.vector import numpy_rng  # noqa: E402
from corruption_envs.vector.numpy_rng import pcg64_words  # noqa: E402
from corruption_envs.construction.engine import (  # noqa: E402
    C, D, G_DECK_CARDS, ConstructionEngine, _deal, _game_table,
)
from tests.construction.helpers import (  # noqa: E402
    finish_turn, fresh, give_cards, pass_placing, to_investigation, vote,
)

COUNTS = (3, 4, 5, 6, 7)


@pytest.mark.parametrize("n", COUNTS)
def test_random_games_are_the_aec_games_at_every_player_count(n):
    assert compare_games("construction", 150, n, seed=n) > 150 * 100


def test_random_games_in_a_batch_of_mixed_player_counts():
    assert compare_games("construction", 400, list(COUNTS), seed=11, num_envs=128) > 400 * 100


@pytest.mark.parametrize("n", COUNTS)
def test_heuristic_games_are_the_aec_games_at_every_player_count(n):
    assert compare_games("construction", 50, n, seed=20 + n, play="heuristic", num_envs=25) > 50 * 100


def test_heuristic_games_in_a_batch_of_mixed_player_counts():
    compared = compare_games("construction", 100, list(COUNTS), seed=30, play="heuristic", num_envs=50)
    assert compared > 100 * 100


@pytest.mark.parametrize("config", [
    {"completion": "more_than_three"},
    {"red_alert": "all_dice"},
    {"secret_gifts": False, "max_gifts": 3},
    {"max_gifts": 0},
    {"investigation_gifts": True, "max_gifts": 2},
    {"first_player_passes": True},
    {"reward": "rank"},
    {"reward": "score"},
], ids=lambda config: ",".join(f"{k}={v}" for k, v in config.items()))
def test_every_rule_option_plays_the_aec_games(config):
    assert compare_games("construction", 60, [3, 5, 7], seed=40, num_envs=30, **config) > 60 * 100


# --- positions the rule tests build, loaded into the engine and played to the end on both sides ---------
def every_card_in_hand(n, seed, **config):
    """The first Investigation with every seat holding cards of every kind (tests/construction)."""
    kinds = (DEEP_MERDE, LA_GREVE, RED_ALERT, REVENUE_QUEBEC, SPIC_N_SPAN, SNITCH, BIG_PAPA)
    cards = [(p, kinds[(2 * p + k) % len(kinds)]) for p in range(n) for k in range(2)] + [(0, CUT_AND_PASTE)]
    rules, s = fresh(n, seed, **config)
    for p, card in cards:
        give_cards(s, p, card)
    to_investigation(rules, s)
    return s


def empty_deck(n, seed):
    """No card left to draw: the next completion reshuffles the discard pile (test_extraction)."""
    _, s = fresh(n, seed)
    for t in range(8):
        s.discard[t] = s.deck.count(t)
    s.deck = []
    return s


def mayor_with_big_papas(n, seed):
    """2009, a unanimous mayor holding three Big Papas: the box's limits (test_election)."""
    rules, s = fresh(n, seed)
    for _ in range(4):
        finish_turn(rules, s)
    pass_placing(rules, s)
    give_cards(s, 1, BIG_PAPA, 3)
    vote(rules, s, {p: 1 for p in range(n)})
    return s


def last_turn(n, seed):
    """2017, with the final pay ahead (test_extraction)."""
    rules, s = fresh(n, seed)
    for _ in range(6):
        finish_turn(rules, s)
    return s


def rich_and_known(n, seed):
    """Cash revealed, secret gifts in flight and cards known in other hands, mid-game."""
    rules, s = fresh(n, seed)
    finish_turn(rules, s)
    s.cash = [40 + 7 * p for p in range(n)]
    s.pub_cash = s.cash[:]
    give_cards(s, 0, CUT_AND_PASTE)
    give_cards(s, 1, DEEP_MERDE, 2)
    s.known[0][1][DEEP_MERDE] = 1
    s.known[2][1][DEEP_MERDE] = 2
    for giver in range(n):  # each seat in turn gives to the next, secretly
        gift = codec.ACTIONS.encode("gift", amount=giver % 3, seat=1)
        rules.apply(s, gift if rules.legal_mask(s)[gift] else codec.PASS)
    return s


POSITIONS = {
    "every card in hand": lambda n, seed: every_card_in_hand(n, seed),
    "empty deck": empty_deck,
    "mayor with Big Papas": mayor_with_big_papas,
    "last turn": last_turn,
    "cash known, gifts unseen": rich_and_known,
}


@pytest.mark.parametrize("name", POSITIONS)
def test_crafted_positions_play_on_as_the_aec_rules(name):
    states = [POSITIONS[name](n, seed) for n in COUNTS for seed in range(4)]
    assert all(s.phase != OVER for s in states)
    for play in ("random", "heuristic"):
        assert compare_positions("construction", states, seed=5, play=play) >= len(states)


def test_investigation_gifts_positions_with_the_option():
    states = [every_card_in_hand(n, seed, investigation_gifts=True) for n in COUNTS for seed in range(3)]
    assert compare_positions("construction", states, seed=6, investigation_gifts=True) >= len(states)


# --- the pieces the comparison rests on --------------------------------------------------------------
@pytest.mark.parametrize("n", COUNTS)
def test_the_kernel_deals_what_new_game_draws_from_numpy(n):
    """The stack, deck, First Player and Generator after the deal of every new row are
    rules.new_game(default_rng(seed))'s."""
    rules = ConstructionRules(ConstructionRules.make_config(num_players=n))
    tab = _game_table(rules.config, 0)
    dealt, gen = np.zeros(C + D + 1, np.int64), np.zeros(numpy_rng.GENERATOR_SIZE, np.uint64)
    for seed in [*range(60), 2**32 - 1, 2**32, 2**62 + 5, 2**63 - 1]:
        _deal(tab, seed, n, dealt, gen)
        s = rules.new_game(np.random.default_rng(seed))
        assert s.first == dealt[-1], seed
        assert s.deck == [tab[G_DECK_CARDS + j] for j in dealt[C: C + D]], seed
        assert s.stack == [c for c in dealt[:C] if s.owner[c] < 0], seed
        assert gen.tolist() == pcg64_words(s.rng).tolist(), seed  # the row rolls on from here


def test_a_difference_is_reported_by_row_decision_and_layout_name():
    _, s = fresh(4, 3)
    engine = ConstructionEngine(2, num_players=4, seed=0)
    engine.reset()
    engine.load(1, s)
    rules = engine.rules[4]
    check_decision(engine, 1, rules, s, 0)  # loaded: equal
    k = engine.observation_layout["my_cash"].start
    engine._batch.observation[1, k] += 0.5
    named = r"row 1, decision 0, 4 players: observation differs at my_cash\[0\]"
    with pytest.raises(AssertionError, match=named):
        check_decision(engine, 1, rules, s, 0)


def test_load_names_what_does_not_fit():
    _, s = fresh(5, 0)
    engine = ConstructionEngine(2, num_players=[3, 4], seed=0)
    with pytest.raises(NotResetError, match="reset"):
        engine.load(0, s)
    engine.reset()
    with pytest.raises(ValueError, match="5-player game"):
        engine.load(0, s)
    rules, s = fresh(3, 0)
    while s.phase != OVER:
        finish_turn(rules, s)
    with pytest.raises(ValueError, match="over"):
        engine.load(0, s)

