"""The env through PettingZoo: api/seed tests, config and action errors, names, events, clones, and
the incremental observation against the from-scratch encoder."""
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import corruption_envs
from corruption_envs.core import IllegalActionError
from corruption_envs.corruption import codec, env, raw_env
from corruption_envs.corruption.invariants import check_invariants


def random_steps(e, rng, check=None):
    while e.agents:
        if e.terminations[e.agent_selection]:
            e.step(None)
            continue
        if check:
            check(e)
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_pettingzoo_api_and_seed_tests(n):
    api_test(env(num_players=n), num_cycles=60)
    seed_test(lambda: env(num_players=n), num_cycles=60)


def test_registry_and_metadata():
    e = corruption_envs.env("corruption")
    assert e.metadata["name"] == "corruption_v0" and len(e.possible_agents) == 4
    assert isinstance(raw_env(num_players=3), type(e))
    assert e.action_space("player_0").n == codec.NUM_ACTIONS == 329


@pytest.mark.parametrize(
    "config, message",
    [
        ({"num_players": 2}, "num_players=2 is not allowed; num_players must be an integer from 3 to 7"),
        ({"num_players": 8}, "an integer from 3 to 7"),
        ({"reporter_may_decline": "yes"}, "reporter_may_decline='yes' is not allowed"),
        ({"rounds": 3}, r"unknown config key\(s\) \['rounds'\]"),
    ],
)
def test_bad_config_names_the_key_and_what_is_allowed(config, message):
    with pytest.raises(ValueError, match=message):
        env(**config)


def test_illegal_action_is_refused_with_names_and_leaves_the_env_unchanged():
    e = env(num_players=3, illegal_action="raise")
    e.reset(seed=1)
    before = e.state().copy()
    agent = e.agent_selection
    for bad in (codec.ASSIGN, codec.DECLINE, -1, codec.NUM_ACTIONS, "x", None):
        with pytest.raises(IllegalActionError, match=f"{agent} cannot play"):
            e.step(bad)
    assert np.array_equal(e.state(), before) and e.agent_selection == agent


def test_penalize_mode_ends_the_game_for_an_illegal_action():
    e = env(num_players=3, illegal_action="penalize")
    e.reset(seed=1)
    offender = e.agent_selection
    e.step(codec.DECLINE)
    assert all(e.terminations.values()) and e.rewards[offender] == -1


def test_every_action_index_has_a_name_with_and_without_state():
    e = env(num_players=5)
    e.reset(seed=0)
    names = {e.rules.action_name(a) for a in range(codec.NUM_ACTIONS)}
    assert len(names) == codec.NUM_ACTIONS
    for a in range(codec.NUM_ACTIONS):
        assert e.action_name(a)
    c = 23
    assert e.rules.action_name(codec.ACTIONS.encode("play", kind=3, contract=c)) == "place Bribe $6k on Hydro-Electric Dam"
    assert e.rules.action_name(codec.ACTIONS.encode("kill", seat=2, slot=1)) == "Hit Man kills seat +2's earlier Reporter"
    assert codec.ACTIONS.decode(codec.ACTIONS.encode("remove", seat=6, bribe=5)) == ("remove", {"seat": 6, "bribe": 5})


def test_observation_is_in_the_unit_box_and_incremental_equals_from_scratch():
    for n in (3, 5, 7):
        e = env(num_players=n)
        rng = np.random.default_rng(n)

        def check(e, n=n):
            s = e.game_state
            for p in range(n):
                obs = e.rules.observe(s, p)
                assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1
                assert np.array_equal(obs, e.rules.observer.full(s, p))

        for g in range(4):
            e.reset(seed=g)
            random_steps(e, rng, check)
            check(e)


def test_invariants_hold_under_seeded_random_play():
    for n in (3, 4, 7):
        e = env(num_players=n)
        rng = np.random.default_rng(10 + n)
        for g in range(12):
            e.reset(seed=g)
            random_steps(e, rng, lambda e: check_invariants(e.rules, e.game_state))
            check_invariants(e.rules, e.game_state)


def test_clone_is_independent_and_replays_the_same_future():
    e = env(num_players=4)
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(30):
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))
    twin = e.clone()
    state = e.state().copy()
    moves = []
    for _ in range(60):
        if not e.agents or e.terminations[e.agent_selection]:
            break
        legal = np.flatnonzero(e.action_mask())
        moves.append(int(legal[rng.integers(legal.size)]))
        e.step(moves[-1])
    assert np.array_equal(twin.state(), state)  # the twin did not move
    for a in moves:
        twin.step(a)
    assert np.array_equal(twin.state(), e.state())


def test_events_are_recorded_only_when_asked_with_private_face_down_identities():
    e = env(num_players=3, record_events=True)
    e.reset(seed=2)
    random_steps(e, np.random.default_rng(1))
    events = e.game_state.events
    assert any(a == -1 and "plays a face-down card" in t for a, t in events)
    assert any(a >= 0 and t.startswith("you play") for a, t in events)
    assert not any(a >= 0 and "face-up" in t for a, t in events)
    assert any("wins" in t for _, t in events) and events.entries[-1][1].startswith("game over")
    quiet = env(num_players=3)
    quiet.reset(seed=2)
    assert quiet.game_state.events is None


def test_render_hides_opponents_face_down_cards():
    e = env(num_players=3, render_mode="ansi")
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(8):
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))
    full = e.render()
    mine = e.render_for("player_0")
    assert "?" not in full and "Round 1/4" in full
    assert "?" in mine and "player_0 hand: " in mine and "player_1 hand: " in mine
    assert "cards" in mine.split("player_1 hand: ")[1].splitlines()[0]


@pytest.mark.parametrize(
    "corrupt, message",
    [
        (lambda s: s.loc.__setitem__((1, 3), 4), "bribe left the game"),
        (lambda s: s.won_value.__setitem__(0, s.won_value[0] + 100), "total value"),
        (lambda s: s.deck.append(s.deck[0]), "twice in the deck"),
        (lambda s: s.hidden[2].__setitem__(0, s.hidden[2][0] + 1), "face-down counter"),
        (lambda s: s.public.__setitem__((0, 9), True), "first r on contracts"),
    ],
)
def test_invariants_name_what_broke(corrupt, message):
    e = env(num_players=3)
    e.reset(seed=0)
    rules, s = e.rules, e.game_state
    # player_0: a face-up $1k, then the Hit Man face-down; the others bribe another contract
    table = [int(c) for c in np.flatnonzero(s.cloc == 1)]
    while s.placed[0] < 2:
        p = s.to_act
        if p == 0:
            e.step(codec.ACTIONS.encode("play", kind=8 if s.placed[0] else 0, contract=table[0]))
        else:
            e.step(codec.ACTIONS.encode("play", kind=int(s.placed[p]), contract=table[1]))
    check_invariants(rules, s)
    corrupt(s)
    with pytest.raises(AssertionError, match=message):
        check_invariants(rules, s)


def test_a_game_state_in_progress_pickles_and_plays_on_identically():
    import pickle

    e = env(num_players=4)
    e.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(40):
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))
    rules, s = e.rules, e.game_state
    twin = pickle.loads(pickle.dumps(s))
    while not rules.is_over(s):
        legal = np.flatnonzero(rules.legal_mask(s))
        a = int(legal[rng.integers(legal.size)])
        rules.apply(s, a)
        rules.apply(twin, a)
        for p in range(4):
            assert np.array_equal(rules.observe(twin, p), rules.observe(s, p))
    assert rules.scores(twin) == rules.scores(s)


def test_the_env_pickles_mid_game():
    import pickle

    e = env(num_players=3)
    e.reset(seed=2)
    for _ in range(10):
        e.step(int(np.flatnonzero(e.action_mask())[0]))
    twin = pickle.loads(pickle.dumps(e))
    assert np.array_equal(twin.state(), e.state()) and twin.agent_selection == e.agent_selection
