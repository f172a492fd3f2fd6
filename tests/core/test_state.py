"""core.DeclaredState: every game's state declares its fields once and the core copies it.

A copy must be independent: mutating every declared field of a copy (and drawing from its RNG, and
logging to its events) leaves the original exactly as it was, in every game.
"""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import corruption_envs
from corruption_envs.core import DERIVED, LIST, SHARED, DeclaredState, EventLog, copy_rng

GAMES = corruption_envs.list_games()


def mid_game_states(game: str, seed: int = 3):
    """States (with events) of seeded random games, at a few points, at the smallest and largest counts."""
    rules_class = corruption_envs.get_game(game).rules
    for n in (rules_class.min_players, rules_class.max_players):
        env = corruption_envs.env(game, num_players=n, record_events=True)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for step in range(400):
            if all(env.terminations.values()):
                break
            if step % 37 == 20:
                yield env.rules, env.game_state
            env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))


def snapshot(value):
    """A comparable picture of a value, down to array bytes."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [snapshot(v) for v in value])
    if isinstance(value, dict):
        return ("dict", sorted((repr(k), snapshot(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", sorted(value))
    if isinstance(value, EventLog):
        return ("events", list(value.entries))
    if isinstance(value, np.random.Generator):
        return ("rng", repr(value.bit_generator.state))
    if isinstance(value, memoryview):
        return ("view", value.tobytes())
    return ("value", value)


def state_snapshot(state: DeclaredState) -> dict:
    return {name: snapshot(getattr(state, name)) for name in ("rng", "events", *state.FIELDS)}


def mutate(value) -> None:
    """Change `value` in place, at every depth."""
    if isinstance(value, np.ndarray):
        if value.dtype == bool:
            np.logical_not(value, out=value)
        else:
            value += 1
    elif isinstance(value, list):
        for v in value:
            mutate(v)
        value.append(("mutated",))
    elif isinstance(value, dict):
        for v in value.values():
            mutate(v)
        value["mutated"] = 1
    elif isinstance(value, EventLog):
        value.say(-1, "mutated")
    elif isinstance(value, np.random.Generator):
        value.random(10)


def immutable(value) -> bool:
    if isinstance(value, np.ndarray):
        return not value.flags.writeable
    if isinstance(value, (tuple, frozenset)):
        return all(immutable(v) for v in value)
    return value is None or isinstance(value, (bool, int, float, str, np.integer, np.floating))


@pytest.mark.parametrize("game", GAMES)
def test_mutating_every_field_of_a_copy_leaves_the_original_unchanged(game):
    checked = 0
    for rules, state in mid_game_states(game):
        before = state_snapshot(state)
        copy = rules.copy_state(state)
        assert state_snapshot(copy) == before  # the same game
        for name in ("rng", "events", *state.FIELDS):
            how = state.FIELDS.get(name)
            if how is SHARED:
                assert immutable(getattr(state, name)), f"{name} is declared SHARED but can be mutated"
            elif how is not DERIVED:
                mutate(getattr(copy, name))
                changed = snapshot(getattr(copy, name)) != before[name]
                assert changed or np.size(getattr(state, name)) == 0, f"mutating {name} had no effect"
        assert state_snapshot(state) == before, "a copy shares a mutable part with the original"
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("game", GAMES)
def test_a_copy_has_the_same_future_chance_whatever_the_bit_generator(game):
    rules, state = next(mid_game_states(game))
    for bit_generator in (np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64):
        state.rng = np.random.Generator(bit_generator(11))
        twin = rules.copy_state(state)
        assert type(twin.rng.bit_generator) is bit_generator
        np.testing.assert_array_equal(twin.rng.integers(1 << 40, size=8), state.rng.integers(1 << 40, size=8))


def test_copy_rng_is_independent():
    rng = np.random.default_rng(5)
    twin = copy_rng(rng)
    twin.random(3)
    assert copy_rng(rng).random() == rng.random() != twin.random()


@pytest.mark.parametrize("game", GAMES)
def test_a_state_pickles_with_its_derived_fields_rebuilt(game):
    rules, state = next(mid_game_states(game))
    again = pickle.loads(pickle.dumps(state))
    assert state_snapshot(again) == state_snapshot(state)
    np.testing.assert_array_equal(rules.observe(again, 0), rules.observe(state, 0))


def test_a_field_left_undeclared_is_refused():
    with pytest.raises(TypeError, match="__slots__ = tuple"):
        class Sloppy(DeclaredState):  # noqa: F841  (defining it is the test)
            FIELDS = {"deck": LIST}
            __slots__ = ("deck", "hand")
