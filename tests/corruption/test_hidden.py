"""Hidden information: what a seat may and may not learn, and resampling what it cannot see."""
import numpy as np
import pytest

from corruption_envs.corruption import env
from corruption_envs.corruption.invariants import check_invariants
from corruption_envs.corruption.state import CONTRACT, HAND, SWISS
from corruption_envs.corruption.tables import IS_BRIBE

from .helpers import bribe, fresh, step, swiss, under


def random_position(n, seed, plays):
    e = env(num_players=n)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(plays):
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))
    return e


def swap_cards(s, q, a, b):
    for arr in (s.loc, s.where, s.seq, s.public):
        arr[q, a], arr[q, b] = arr[q, b], arr[q, a]


@pytest.mark.parametrize("seed", range(6))
def test_an_opponents_face_down_card_never_changes_my_observation(seed):
    n = 4
    e = random_position(n, seed, plays=4 * n + 2)
    rules, s = e.rules, e.game_state
    swapped = 0
    for q in range(n):
        hidden = [c for c in range(10) if s.loc[q, c] in (CONTRACT, SWISS) and not s.public[q, c]]
        hand = [c for c in range(10) if s.loc[q, c] == HAND]
        for a in hidden:
            for b in hand:
                if s.loc[q, a] == SWISS and not IS_BRIBE[b]:
                    continue
                if {a, b} == {7, 8}:
                    continue  # the two Reporters look alike anyway
                before = [rules.observer.full(s, p) for p in range(n)]
                swap_cards(s, q, a, b)
                after = [rules.observer.full(s, p) for p in range(n)]
                for p in range(n):
                    if p != q:
                        assert np.array_equal(before[p], after[p]), f"seat {p} saw player_{q}'s card"
                assert not np.array_equal(before[q], after[q])  # the owner does see it
                swap_cards(s, q, a, b)
                swapped += 1
    assert swapped > 0


def test_a_face_up_card_is_seen_by_everyone_by_identity():
    rules, s = fresh(4)
    c = under(s, 1)[0]
    step(rules, s, bribe(8, c))
    for p in range(4):
        cards = rules.observation_layout.view(rules.observe(s, p), "cards")
        assert cards[c, (0 - p) % 4, 4] == 1
        facedown = rules.observation_layout.view(rules.observe(s, p), "facedown")
        assert facedown[c].sum() == 0


def test_a_swiss_card_shows_only_its_owner_and_place_to_others():
    rules, s = fresh(3)
    step(rules, s, swiss(10, 2))
    lay = rules.observation_layout
    other = rules.observe(s, 1)
    assert lay.view(other, "swiss").sum() == 0
    assert lay.view(other, "swiss_facedown")[2, 2] == pytest.approx(1 / 6)
    assert lay.view(rules.observe(s, 0), "swiss")[2, 0, 5] == 1


@pytest.mark.parametrize("n, plays", [(3, 5), (4, 20), (5, 31), (4, 60), (7, 100), (3, 90)])
def test_resample_keeps_what_the_player_saw_and_redraws_the_rest(n, plays):
    e = random_position(n, n * 100 + plays, plays)
    rules, s = e.rules, e.game_state
    for p in range(n):
        seen = rules.observer.full(s, p)
        mask = rules.legal_mask(s) if s.to_act == p else None
        changed = False
        for k in range(8):
            new = rules.resample_hidden(s, p, np.random.default_rng(k))
            check_invariants(rules, new)
            assert np.array_equal(rules.observe(new, p), seen)
            for q in range(n):  # every seat's kept observation is right in the resample
                assert np.array_equal(rules.observe(new, q), rules.observer.full(new, q))
            if mask is not None:
                assert np.array_equal(rules.legal_mask(new), mask)
            others = [q for q in range(n) if q != p]
            changed |= not np.array_equal(new.loc[others], s.loc[others]) or \
                not np.array_equal(new.where[others], s.where[others])
            assert np.array_equal(new.loc[p], s.loc[p]) and np.array_equal(new.where[p], s.where[p])
        hidden = any(not s.public[q, c] for q in range(n) if q != p for c in range(10)
                     if s.loc[q, c] in (CONTRACT, SWISS))
        if hidden:
            assert changed, "opponents' face-down cards were never redrawn"


def test_resample_reshuffles_the_undealt_contracts_and_draws_future_chance_from_the_new_rng():
    e = random_position(4, 3, 10)
    rules, s = e.rules, e.game_state
    decks = {tuple(rules.resample_hidden(s, 0, np.random.default_rng(k)).deck) for k in range(6)}
    assert len(decks) > 1 and all(sorted(d) == sorted(s.deck) for d in decks)
    a = rules.resample_hidden(s, 0, np.random.default_rng(9))
    b = rules.resample_hidden(s, 0, np.random.default_rng(9))
    assert a.deck == b.deck and a.rng.integers(1 << 30) == b.rng.integers(1 << 30)


def test_env_resample_hidden_gives_an_independent_env_with_the_same_view():
    e = random_position(5, 8, 17)
    agent = e.agent_selection
    twin = e.resample_hidden(agent, seed=3)
    assert np.array_equal(twin.observe(agent)["observation"], e.observe(agent)["observation"])
    assert np.array_equal(twin.action_mask(), e.action_mask())
    legal = np.flatnonzero(twin.action_mask())
    before = e.state().copy()
    twin.step(int(legal[0]))
    assert np.array_equal(e.state(), before)
