"""The contract every game keeps, checked the same way for each registered game.

Game-specific rules live in tests/<game>/; here: the PettingZoo API, seeding, a seeded random-play fuzz with
the game's own invariants, the information-set (resample) leak test, clone independence, action names,
rendering and bad input.
"""
from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import corruption_envs
from corruption_envs.core import IllegalActionError

GAMES = corruption_envs.list_games()
FUZZ_GAMES = 2000  # seeded random games per game, spread over every player count
FULL_CHECK_GAMES = 300  # of them, the first are checked after every step; the rest at the start and the end
MAX_DECISIONS = 20_000  # a game longer than this is taken as one that never ends


def rules_class(game):
    return corruption_envs.get_game(game).rules


def player_counts(game):
    cls = rules_class(game)
    return range(cls.min_players, cls.max_players + 1)


def all_counts():
    return [(g, n) for g in GAMES for n in player_counts(g)]


def random_walk(rules, state, rng, on_step=None):
    """Play random legal moves to the end; returns the number of decisions."""
    for steps in range(MAX_DECISIONS):
        if rules.is_over(state):
            return steps
        mask = rules.legal_mask(state)
        legal = np.flatnonzero(mask)
        assert legal.size > 0, f"empty mask while the game runs, at decision {steps}"
        rules.apply(state, int(rng.choice(legal)))
        if on_step is not None:
            on_step(state)
    raise AssertionError(f"game did not end within {MAX_DECISIONS} decisions")


def random_action(env, rng) -> int:
    return int(rng.choice(np.flatnonzero(env.action_mask())))


def env_in_play(game, seed, steps, **config):
    """An env `steps` random decisions into a seeded game, and the generator that chose them."""
    env = corruption_envs.env(game, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        env.step(random_action(env, rng))
    return env, rng


def assert_play_on_identically(a, b, rng, decisions=40):
    """The same actions from two copies of one game give the same states."""
    for _ in range(decisions):
        if all(a.terminations.values()):
            break
        action = random_action(a, rng)
        a.step(action)
        b.step(action)
        np.testing.assert_array_equal(a.state(), b.state())


@pytest.mark.parametrize("game, n", all_counts())
def test_pettingzoo_api_test(game, n):
    api_test(corruption_envs.env(game, num_players=n), num_cycles=300)


@pytest.mark.parametrize("game, n", all_counts())
def test_pettingzoo_seed_test(game, n):
    seed_test(lambda: corruption_envs.env(game, num_players=n), num_cycles=300)


@pytest.mark.parametrize("game", GAMES)
def test_metadata_and_registry(game):
    env = corruption_envs.env(game)
    assert env.metadata["name"] == f"{game}_v{env.rules.version}"
    assert set(env.metadata["render_modes"]) == {"ansi", "human", "rgb_array"}
    described = corruption_envs.get_game(game)
    assert described.name == game and described.rules is env.rules_class
    assert isinstance(described.raw_env(), type(env))
    assert described.bot_names[:2] == ("random", "heuristic") and described.engine is not None


@pytest.mark.parametrize("game", GAMES)
def test_random_play_fuzz_keeps_invariants_and_every_game_ends(game):
    check = corruption_envs.get_game(game).invariants
    counts = list(player_counts(game))
    lengths = []
    for i in range(FUZZ_GAMES):
        n = counts[i % len(counts)]
        rules = rules_class(game)(rules_class(game).make_config(num_players=n))
        state = rules.new_game(np.random.default_rng(i))
        check(rules, state)
        rng = np.random.default_rng(10_000 + i)
        every_step = (lambda s: check(rules, s)) if i < FULL_CHECK_GAMES else None
        lengths.append(random_walk(rules, state, rng, every_step))
        check(rules, state)
        keys, scores = rules.final_keys(state), rules.scores(state)
        assert len(keys) == len(scores) == n
    assert min(lengths) > 0


@pytest.mark.parametrize("game", GAMES)
def test_observations_lie_in_the_space_at_every_step(game):
    for n in player_counts(game):
        env = corruption_envs.env(game, num_players=n)
        env.reset(seed=n)
        rng = np.random.default_rng(n)
        space = env.observation_space(env.agent_selection)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            assert space.contains(obs), f"observation out of its space at {n} players"
            for other in env.possible_agents:
                assert space["observation"].contains(env.observe(other)["observation"])
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def leak_points(game, games=12, every=3, **config):
    """(env, agent) at many points of seeded random games."""
    for g in range(games):
        n = list(player_counts(game))[g % len(list(player_counts(game)))]
        env = corruption_envs.env(game, num_players=n, **config)
        env.reset(seed=500 + g)
        rng = np.random.default_rng(g)
        step = 0
        while not all(env.terminations.values()):
            if step % every == 0:
                yield env
            env.step(random_action(env, rng))
            step += 1


@pytest.mark.parametrize("game", GAMES)
def test_resample_hidden_keeps_every_observation_of_the_observer_and_changes_the_rest(game):
    points = changed = 0
    for env in leak_points(game):
        for observer in env.possible_agents:
            seen = env.observe(observer)
            truth = env.state()
            for seed in range(3):
                other = env.resample_hidden(observer, seed)
                view = other.observe(observer)
                np.testing.assert_array_equal(view["observation"], seen["observation"])
                np.testing.assert_array_equal(view["action_mask"], seen["action_mask"])
                assert other.agent_selection == env.agent_selection
                changed += not np.array_equal(other.state(), truth)
                points += 1
            # the resample is a copy: the original game is untouched
            np.testing.assert_array_equal(env.state(), truth)
    assert points > 100
    # some seat's information set differs in some resample: the hidden part really is redrawn
    assert changed > 0, "resample_hidden never changed anything another seat can see"


@pytest.mark.parametrize("game", GAMES)
def test_resample_hidden_draws_from_the_information_set_alone(game):
    # a resample of the truth and a resample of a twin the seat cannot tell from it, with the same
    # seed, are the same game: the pool of unseen cards is built in a canonical order, so a seeded
    # search (corruption_envs.search) decides alike from both
    for k, env in enumerate(leak_points(game, games=4, every=11)):
        agent = env.agent_selection
        twin = env.resample_hidden(agent, seed=1000 + k)
        a, b = env.resample_hidden(agent, seed=k), twin.resample_hidden(agent, seed=k)
        np.testing.assert_array_equal(a.state(), b.state())
        assert_play_on_identically(a, b, np.random.default_rng(k), decisions=400)


@pytest.mark.parametrize("game", GAMES)
def test_resampled_games_play_on_legally_to_the_end(game):
    check = corruption_envs.get_game(game).invariants
    for k, env in enumerate(leak_points(game, games=4, every=17)):
        other = env.resample_hidden(env.agent_selection, k)
        check(other.rules, other.game_state)
        random_walk(other.rules, other.game_state, np.random.default_rng(k),
                    lambda s: check(other.rules, s))


@pytest.mark.parametrize("game", GAMES)
def test_clone_is_independent_of_the_original(game):
    env, rng = env_in_play(game, seed=3, steps=10)
    before = env.state().copy(), env.agent_selection, env.action_mask().copy()
    twin = env.clone()
    random_walk(twin.rules, twin.game_state, rng)
    np.testing.assert_array_equal(env.state(), before[0])
    assert env.agent_selection == before[1]
    np.testing.assert_array_equal(env.action_mask(), before[2])
    # a clone replays the same future: same actions give the same states
    assert_play_on_identically(env.clone(), env.clone(), rng, decisions=30)


@pytest.mark.parametrize("game,n", all_counts())
def test_the_action_layout_round_trips_and_names_every_index_once_at_every_count(game, n):
    rules = rules_class(game)(rules_class(game).make_config(num_players=n))
    layout = rules.actions
    assert layout.size == rules.num_actions  # one layout, the same indices at every count
    for i in range(layout.size):
        block, fields = layout.decode(i)
        assert layout.encode(block, **fields) == i
        assert i in layout[block]
    state = rules.new_game(np.random.default_rng(n))
    rng = np.random.default_rng(0)
    for _ in range(4):  # names filled in from live states at several points of a game, and without one
        for s in (state, None):
            names = [rules.action_name(i, s) for i in range(layout.size)]
            assert len(set(names)) == len(names), f"{len(names) - len(set(names))} names repeat at {n} players"
        for _ in range(25):
            if rules.is_over(state):
                break
            rules.apply(state, int(rng.choice(np.flatnonzero(rules.legal_mask(state)))))


@pytest.mark.parametrize("game", GAMES)
def test_every_action_has_a_distinct_readable_name(game):
    env = corruption_envs.env(game)
    env.reset(seed=0)
    names = [env.rules.action_name(i) for i in range(env.num_actions)]
    assert all(isinstance(s, str) and s.strip() for s in names)
    assert len(set(names)) == len(names), "two actions share a name"
    rng = np.random.default_rng(0)
    for _ in range(60):
        if all(env.terminations.values()):
            break
        legal = np.flatnonzero(env.action_mask())
        assert all(env.action_name(i).strip() for i in legal)
        env.step(int(rng.choice(legal)))


@pytest.mark.parametrize("game", GAMES)
def test_observation_layout_names_every_feature_once(game):
    env = corruption_envs.env(game)
    layout = env.observation_layout
    covered = np.zeros(layout.size, int)
    for name in layout:
        covered[layout[name]] += 1
    assert (covered == 1).all()
    assert layout.size == env.observation_space("player_0")["observation"].shape[0]


@pytest.mark.parametrize("game", GAMES)
def test_illegal_or_out_of_range_actions_raise_and_change_nothing(game):
    env = corruption_envs.env(game, illegal_action="raise")
    env.reset(seed=1)
    mask = env.action_mask()
    illegal = np.flatnonzero(mask == 0)
    before = env.state().copy()
    bad = [-1, env.num_actions, "x", None] + ([int(illegal[0])] if illegal.size else [])
    for action in bad:
        with pytest.raises(IllegalActionError, match=env.agent_selection):
            env.step(action)
    np.testing.assert_array_equal(env.state(), before)
    np.testing.assert_array_equal(env.action_mask(), mask)


@pytest.mark.parametrize("game", GAMES)
def test_penalize_mode_ends_the_game_against_the_offender(game):
    env = corruption_envs.env(game, illegal_action="penalize")
    env.reset(seed=2)
    offender = env.agent_selection
    env.step(env.num_actions + 5)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0
    assert all(r == 0.0 for a, r in env.rewards.items() if a != offender)


@pytest.mark.parametrize("game", GAMES)
def test_bad_config_names_the_key(game):
    with pytest.raises(ValueError, match="num_players"):
        corruption_envs.env(game, num_players=99)
    with pytest.raises(ValueError, match="no_such_option"):
        corruption_envs.env(game, no_such_option=1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", ["win", "rank", "score"])
def test_terminal_rewards_by_mode(game, mode):
    env = corruption_envs.env(game, reward=mode)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    while not all(env.terminations.values()):
        assert all(r == 0 for r in env.rewards.values())
        env.step(random_action(env, rng))
    total = sum(env.rewards.values())
    if mode == "score":
        assert total == pytest.approx(1.0)
    elif len({env.infos[a]["rank"] for a in env.agents}) > 1:
        assert total == pytest.approx(0.0)
    best = min(env.infos[a]["rank"] for a in env.agents)
    for a in env.agents:
        if env.infos[a]["rank"] == best:
            assert env.rewards[a] == max(env.rewards.values())


@pytest.mark.parametrize("game", GAMES)
def test_render_shows_text_and_a_seat_view(game):
    env = corruption_envs.env(game, render_mode="ansi")
    env.reset(seed=5)
    assert isinstance(env.render(), str) and env.render().strip()
    assert isinstance(env.render_for("player_0"), str)


@pytest.mark.parametrize("game", GAMES)
def test_events_are_recorded_only_when_asked(game):
    quiet = corruption_envs.env(game)
    quiet.reset(seed=6)
    assert quiet.game_state.events is None
    loud = corruption_envs.env(game, record_events=True)
    loud.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(20):
        loud.step(random_action(loud, rng))
    events = loud.game_state.events
    assert events and all(isinstance(t, str) and -1 <= a < loud.rules.num_players for a, t in events)


@pytest.mark.parametrize("game", GAMES)
def test_an_env_in_play_pickles_and_plays_on_identically(game):
    import pickle

    env, rng = env_in_play(game, seed=8, steps=15)
    assert_play_on_identically(env, pickle.loads(pickle.dumps(env)), rng)


@pytest.mark.parametrize("game, n", all_counts())
def test_heuristic_plays_only_legal_moves_from_every_seat(game, n):
    env = corruption_envs.env(game, num_players=n)
    env.reset(seed=n)
    bot_class = corruption_envs.get_game(game).bots["heuristic"]
    bots = [bot_class(env, seed=p) for p in range(n)]
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = bots[env.agent_name_mapping[agent]].act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][action] == 1
        env.step(action)


@pytest.mark.parametrize("game", GAMES)
def test_heuristic_decides_from_the_observation_alone(game):
    # in a resample everything the seat cannot see differs, so its decision must not
    bot_class = corruption_envs.get_game(game).bots["heuristic"]
    decisions = 0
    for k, env in enumerate(leak_points(game, games=4, every=5)):
        agent = env.agent_selection
        twin = env.resample_hidden(agent, seed=k)
        seen, twin_seen = env.observe(agent), twin.observe(agent)
        mine = bot_class(env, seed=0).act(seen["observation"], seen["action_mask"])
        theirs = bot_class(twin, seed=0).act(twin_seen["observation"], twin_seen["action_mask"])
        assert mine == theirs
        decisions += 1
    assert decisions > 20
