"""Corruptia's batched engine is the AEC rules: the same games, decision by decision, from seeds and from
the positions the rule tests build (driver: benchmarks/differential.py)."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from benchmarks.differential import TWINS, check_decision, compare_games, compare_positions  # noqa: E402
from corruption_envs.core.errors import NotResetError  # noqa: E402
from corruption_envs.corruptia.codec import BLACKMAIL, OFFER, VOTE0  # noqa: E402
from corruption_envs.corruptia.state import (  # noqa: E402
    ABSENT, CRONY, DISCARD, NEGOTIATE, NO, SWAP_GIVE, SWAP_TAKE, TOKEN, VOTE, WORKER, YES,
)
from corruption_envs.corruptia.tables import REVOLUTION  # noqa: E402
from corruption_envs.vector import numpy_rng  # noqa: E402
from corruption_envs.vector.numpy_rng import pcg64_words  # noqa: E402
from corruption_envs.corruptia.engine import CorruptiaEngine, _shuffle  # noqa: E402
from tests.corruptia.helpers import cell_action, game, legal, pass_all, propose, worker_from  # noqa: E402
from tests.corruptia.test_proposal import NEW_CULTURE, culture_example  # noqa: E402


def test_the_kernels_shuffle_and_go_on_drawing_as_a_loaded_generator_does():
    for seed in range(20):
        rng = np.random.default_rng(seed)
        rng.permutation(90)  # leaves a buffered 32-bit half-word, as a game's setup can
        words = pcg64_words(rng)
        pile, kernel_pile = list(range(40)), np.arange(40, dtype=np.int16)
        rng.shuffle(pile)  # a list, as the rules shuffle the pile
        _shuffle(words, kernel_pile, 40)
        assert kernel_pile.tolist() == pile, seed
        for k in range(50):
            high = (6, 2, 3, 5)[k % 4]  # the die, the coin, the starting President
            assert numpy_rng.integers(words, high) == rng.integers(high), (seed, k)
        assert np.array_equal(words, pcg64_words(rng))


@pytest.mark.parametrize("players", [3, 4, 5, (3, 4, 5)])
def test_random_play_is_the_aec_game(players):
    assert compare_games("corruptia", 80, players, seed=11, play="random") > 80 * 100


@pytest.mark.parametrize("players", [3, 4, 5, (3, 4, 5)])
def test_heuristic_play_is_the_aec_game(players):
    assert compare_games("corruptia", 40, players, seed=12, play="heuristic") > 40 * 100


@pytest.mark.parametrize("reward", ["win", "rank", "score"])
def test_games_without_vote_offers_and_every_reward_mode_are_the_aec_games(reward):
    random = compare_games("corruptia", 200, (3, 4, 5), seed=13, play="random", vote_offers=False, reward=reward)
    assert random > 200 * 100
    heuristic = compare_games("corruptia", 20, (3, 4, 5), seed=14, play="heuristic", vote_offers=False,
                              reward=reward)
    assert heuristic > 20 * 100


def crafted_states() -> list:
    """Positions the rule tests build (tests/corruptia/), at every phase that decides."""
    states = []
    rules, s = culture_example()  # the seed's example table and hand
    states.append(s.copy())
    rules.apply(s, NEW_CULTURE)
    rules.apply(s, cell_action(rules, 0, -2))
    rules.apply(s, worker_from(rules, s, 1, -1))  # an official proposed: its bill shows the interview
    assert s.phase == WORKER
    states.append(s)
    for n in (3, 4, 5):
        rules, s = game(n, seed=n)
        s.tokens = [40, 0, 1, 29, 2][:n]  # tokens past the observation's cap, none, one
        propose(rules, s)
        assert s.phase == NEGOTIATE
        states.append(s.copy())
        if BLACKMAIL[1, NO] in legal(rules, s):
            rules.apply(s, BLACKMAIL[1, NO])
        offers = [a for a in (OFFER[1, CRONY, YES], OFFER[2, TOKEN, NO]) if a in legal(rules, s)]
        rules.apply(s, offers[0])
        states.append(s.copy())
        pass_all(rules, s)
        assert s.phase == VOTE
        s.die = REVOLUTION
        rules.apply(s, VOTE0 + YES)
        while VOTE0 + ABSENT not in legal(rules, s):  # a seat without tokens cannot stay away
            rules.apply(s, VOTE0 + NO)
            assert s.phase == VOTE
        rules.apply(s, VOTE0 + ABSENT)
        states.append(s.copy())  # a vote under way, one seat absent
    rules, s = game(4, seed=5)
    s.tokens = [1, 1, 1, 1]
    propose(rules, s)
    pass_all(rules, s)
    q = s.proposer
    for v in (YES, NO, YES):
        rules.apply(s, VOTE0 + v)
    states.append(s.copy())  # the last voter can tie the vote: the coin decides
    rules.apply(s, VOTE0 + ABSENT)
    assert s.phase == SWAP_GIVE and s.actor == (q + 3) % 4
    states.append(s.copy())
    rules.apply(s, s.hands[s.actor][0])
    assert s.phase == SWAP_TAKE
    states.append(s)
    rules, s = game(4, seed=7)  # no legal proposal (test_proposal.py)
    s.reserve[s.proposer] = 0
    for c in rules.grid.triangle:
        s.officials[c] = 0
    rules._start_turn(s)
    assert s.phase == DISCARD
    states.append(s)
    return states


@pytest.mark.parametrize("play", ["random", "heuristic"])
def test_crafted_positions_play_on_as_the_aec_games(play):
    states = crafted_states()
    assert compare_positions("corruptia", states, seed=15, play=play) > len(states) * 20


def test_positions_from_the_middle_of_random_games_play_on_as_the_aec_games():
    states = []
    rng = np.random.default_rng(16)
    for k in range(30):
        rules, s = game(3 + k % 3, seed=100 + k)
        for _ in range(int(rng.integers(1, 250))):
            moves = legal(rules, s)
            rules.apply(s, moves[rng.integers(len(moves))])
            if rules.current_player(s) < 0:
                break
        if rules.current_player(s) >= 0:
            states.append(s)
    assert compare_positions("corruptia", states, seed=16) > 0


def test_a_difference_is_named_by_row_decision_count_and_feature():
    rules, s = game(4, seed=3)
    richer = s.copy()
    richer.tokens[2] += 1  # one more token for seat 2, on the AEC side only
    engine = CorruptiaEngine(2, num_players=4, seed=0)
    engine.reset()
    engine.load(1, s)
    k = (2 - s.actor) % 4  # seat 2 as the acting seat sees it
    where = rf"row 1, decision 0, 4 players: observation differs at players\[{k}, 1\]"
    with pytest.raises(AssertionError, match=where):
        check_decision(engine, 1, rules, richer, 0)
    check_decision(engine, 1, rules, s, 0)
    check_decision(engine, 0, rules, TWINS["corruptia"].dealt(engine, 0), 0)  # the dealt row beside it


def test_load_refuses_what_it_cannot_play_on():
    engine = CorruptiaEngine(1, num_players=4, seed=0)
    rules, s = game(4, seed=3)
    with pytest.raises(NotResetError, match="call reset"):  # as the other engines: no games yet
        engine.load(0, s)
    assert not engine._started  # nothing was dealt on the way
    engine.reset()
    before = engine.batch.observation.copy()
    with pytest.raises(ValueError, match="this engine plays"):
        engine.load(0, game(5)[1])
    assert np.array_equal(engine.batch.observation, before)
