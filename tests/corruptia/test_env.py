"""The env as a whole: PettingZoo api/seed tests for 3-5 players, bad input, names, events, rendering,
the information set (observation bounds, resample), and the heuristic against random play."""
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import corruption_envs
from corruption_envs.core import IllegalActionError
from corruption_envs.corruptia import CorruptiaRules, HeuristicAgent, env as corruptia_env
from corruption_envs.corruptia.invariants import check_invariants
from corruption_envs.corruptia.slots import (
    S_COL, S_CRONIES, S_DEPT, S_INTERVIEW, S_NEIGHBOURS, S_OFFICIALS, S_PRESENT, S_PROPOSED, S_ROW, cell_at,
)
from corruption_envs.corruptia.state import ABSENT, OVER, SWAP_GIVE
from corruption_envs.evaluation import evaluate
from corruption_envs.corruptia.tables import DEPT
from corruption_envs.corruptia.codec import BLACKMAIL, KEEP_HAND, VOTE0

from .helpers import game, legal, pass_all, propose, swap_cards, vote
from corruption_envs import get_game


@pytest.mark.parametrize("n", [3, 4, 5])
def test_pettingzoo_api_and_seed_tests(n):
    api_test(corruptia_env(num_players=n), num_cycles=200)
    seed_test(lambda: corruptia_env(num_players=n), num_cycles=200)


def test_registry_metadata_and_player_range():
    e = corruption_envs.env("corruptia")
    assert e.metadata["name"] == "corruptia_v0" and e.rules.num_players == 4
    assert (CorruptiaRules.min_players, CorruptiaRules.max_players) == (3, 5)


@pytest.mark.parametrize("config, message", [
    ({"num_players": 2}, "num_players=2 is not allowed"),
    ({"num_players": 6}, "num_players=6 is not allowed"),
    ({"vote_offers": "yes"}, "vote_offers='yes' is not allowed"),
    ({"blackmail": False}, r"unknown config key\(s\) \['blackmail'\]"),
])
def test_bad_config_names_the_key(config, message):
    with pytest.raises(ValueError, match=message):
        corruptia_env(**config)


def test_illegal_actions_raise_naming_the_action_and_change_nothing():
    e = corruptia_env(illegal_action="raise")
    e.reset(seed=0)
    before = e.state().copy()
    mask = e.action_mask()
    for bad in (int(np.flatnonzero(mask == 0)[0]), -3, e.num_actions, 2.5, "vote"):
        with pytest.raises(IllegalActionError, match=e.agent_selection):
            e.step(bad)
    np.testing.assert_array_equal(e.state(), before)


def test_every_action_has_a_distinct_name_and_names_fill_in_seats_and_bills():
    e = corruptia_env(num_players=5)
    e.reset(seed=1)
    names = [e.rules.action_name(i) for i in range(e.num_actions)]
    assert len(set(names)) == len(names)
    rules, s = game(4, seed=1)
    s.tokens = [1, 1, 1, 1]
    propose(rules, s)
    name = rules.action_name(BLACKMAIL[1, 0], s)
    assert f"player_{(s.actor + 1) % 4}" in name and "vote YES" in name


def test_events_are_public_or_private_and_votes_stay_private():
    rules, s = game(4, seed=2, record_events=True)
    propose(rules, s)
    pass_all(rules, s)
    voter = s.actor
    rules.apply(s, VOTE0 + 1)
    public = [t for a, t in s.events if a == -1]
    mine = [t for a, t in s.events if a == voter]
    assert f"player_{voter} has voted" in public[-1] and mine[-1] == "you vote NO"
    assert all(a in range(-1, 4) for a, _ in s.events)
    _, quiet = game(4, seed=2)
    assert quiet.events is None


def test_render_shows_own_hand_but_only_the_size_of_others():
    e = corruptia_env(render_mode="ansi")
    e.reset(seed=3)
    full = e.render()
    view = e.render_for("player_0")
    assert "Department values" in full
    assert view.count("cards") >= 3 and "player_1: 0 tokens" in view
    assert len(view) < len(full)


def test_observations_lie_in_zero_one_and_hands_are_private():
    for n in (3, 5):
        rules, s = game(n, seed=n)
        rng = np.random.default_rng(n)
        lay = rules.observation_layout
        while s.phase != OVER:
            for q in range(n):
                obs = rules.observe(s, q)
                assert obs.min() >= 0 and obs.max() <= 1
                assert set(np.flatnonzero(lay.view(obs, "my_hand"))) == set(s.hands[q])
            moves = legal(rules, s)
            rules.apply(s, moves[rng.integers(len(moves))])


def test_an_opponents_hand_changes_no_observation_of_mine():
    rules, s = game(4, seed=4)
    t = s.copy()
    a, b = t.hands[1][0], t.deck[0]
    swap_cards(rules, t, a, b)
    np.testing.assert_array_equal(rules.observe(s, 0), rules.observe(t, 0))
    assert not np.array_equal(rules.observe(s, 1), rules.observe(t, 1))


def test_resample_keeps_my_view_cards_others_saw_taken_and_setup_cards_out_of_the_box():
    checked = saw_known = 0
    for g in range(4):
        rules, s = game(3, seed=5 + g)
        rng = np.random.default_rng(g)
        while s.phase != OVER:
            for me in range(3):
                other = rules.resample_hidden(s, me, np.random.default_rng(checked))
                np.testing.assert_array_equal(rules.observe(other, me), rules.observe(s, me))
                if me == s.actor:
                    np.testing.assert_array_equal(rules.legal_mask(other), rules.legal_mask(s))
                assert not s.returned & set(other.box)
                assert all(other.loc[c] == q for c, q in enumerate(s.known_at) if q >= 0)
                check_invariants(rules, other)
                checked += 1
            saw_known += bool((s.known_at >= 0).any())
            moves = legal(rules, s)
            rules.apply(s, moves[rng.integers(len(moves))])
    assert checked > 1000 and saw_known > 0


def test_heuristic_beats_three_random_players_clearly():
    result = evaluate(HeuristicAgent(corruptia_env(num_players=4)), get_game("corruptia"), "random", 120, 4, seed=7)
    lo, _ = result.interval
    assert lo > 0.5, f"heuristic won {result.wins}/{result.games}; a random seat wins 1/4"


def test_the_observation_has_one_size_for_every_player_count():
    sizes = {game(n)[0].observation_layout.size for n in (3, 4, 5)}
    assert len(sizes) == 1, sizes


def test_the_bill_slots_show_the_table_in_the_order_placed_then_the_proposed_bill():
    rules, s = game(4, seed=2)
    propose(rules, s)
    obs = rules.observe(s, (s.proposer + 1) % 4)
    slots = rules.observation_layout.view(obs, "bills")
    assert slots[:, S_PRESENT].sum() == 4 and slots[:, S_PROPOSED].tolist().index(1) == 3
    for k, cell in enumerate([*rules.grid.triangle, s.cell]):
        assert rules.grid.index[cell_at(slots[k, S_ROW], slots[k, S_COL])] == cell
    assert slots[3, S_DEPT + DEPT[s.bill]] == 1
    # the officials proposed as workers show on the bills they come from
    interviewed = sum(round(x * 3) for x in slots[:3, S_INTERVIEW])
    assert interviewed == sum(s.pending.values()) == 3 - s.pending_cronies
    new, cronies = s.cell, s.pending_cronies
    pass_all(rules, s)
    vote(rules, s, {})  # everyone YES: the bill joins the table in the same slot
    assert s.placed[3] == new
    slots = rules.observation_layout.view(rules.observe(s, 0), "bills")
    assert slots[:, S_PRESENT].sum() == 4 and not slots[:, S_PROPOSED].any()
    assert not slots[:, S_INTERVIEW].any()
    assert round(slots[3, S_CRONIES] * 3) == s.cronies[new] == cronies
    assert round(slots[3, S_OFFICIALS] * 18) == s.officials[new] == 3 - cronies
    # each neighbour of the new bill now shows a bill on the new bill's side
    for d, j in enumerate(rules.neighbours[new]):
        if j in rules.grid.triangle:
            assert slots[3, S_NEIGHBOURS + d] == 1
            assert slots[s.placed.index(j), S_NEIGHBOURS + (d + 3) % 6] == 1


def test_an_absent_heuristic_gives_up_its_weakest_card_only_for_a_stronger_one_in_the_discard_zone():
    rules, s = game(4, seed=3)
    s.tokens = [1, 1, 1, 1]
    propose(rules, s)
    pass_all(rules, s)
    a = (s.proposer + 1) % 4
    vote(rules, s, {a: ABSENT})
    assert s.phase == SWAP_GIVE and s.actor == a
    lay, mask = rules.observation_layout, rules.legal_mask(s)
    obs = rules.observe(s, a)
    hand = np.flatnonzero(obs[lay["my_hand"]]).tolist()
    weak = DEPT[hand[0]]
    assert any(DEPT[c] != weak for c in hand)
    values, zone = obs[lay["department_values"]], obs[lay["discard_zone"]]
    values[:] = 0.1
    values[weak] = 0.0
    stronger = next(c for c in range(90) if DEPT[c] != weak and c not in hand)
    weaker = next(c for c in range(90) if DEPT[c] == weak and c not in hand)
    bot = HeuristicAgent(corruptia_env(num_players=4), seed=0)
    zone[:] = 0
    zone[stronger] = 1
    assert DEPT[bot.act(obs, mask)] == weak
    zone[:] = 0
    zone[weaker] = 1
    assert bot.act(obs, mask) == KEEP_HAND


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_committed_champion_plays_every_player_count(n):
    # one action layout for 3-5 players: the champion loads at each count and plays a whole legal game
    from pathlib import Path

    from corruption_envs.bots import make_agent

    path = Path(__file__).resolve().parents[2] / "policies" / "corruptia" / "champion.npz"
    e = corruptia_env(num_players=n, illegal_action="raise")
    e.reset(seed=n)
    agent = make_agent(str(path), e, seed=n)
    for _ in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"]))
    assert e.unwrapped.rules.is_over(e.unwrapped.game_state)


def test_the_heuristic_draws_a_row_of_a_phase_without_a_rule_in_its_place_among_the_batch():
    # such a row draws one integer (any legal action) where the others draw uniforms: the batch must
    # make every draw in row order, as row by row
    e = corruptia_env(num_players=4)
    e.reset(seed=5)
    player = HeuristicAgent(e, seed=0)
    observations, masks = [], []
    for agent in e.agent_iter(max_iter=300):
        seen, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        if np.count_nonzero(seen["action_mask"]) > 1:
            observations.append(seen["observation"].copy())
            masks.append(seen["action_mask"])
        e.step(player.act(seen["observation"], seen["action_mask"]))
    observations, masks = np.array(observations), np.array(masks)
    phase = e.unwrapped.observation_layout["phase"]
    observations[::3, phase] = 0.0
    observations[::3, phase.start + OVER] = 1.0
    one, batched = HeuristicAgent(e, seed=1), HeuristicAgent(e, seed=1)
    expected = [one.act(o, m) for o, m in zip(observations, masks)]
    assert batched.act_batch(observations, masks).tolist() == expected
    assert batched.rng.bit_generator.state == one.rng.bit_generator.state
    assert all(masks[r, a] for r, a in enumerate(expected))
