"""Determinizations drawn inside the engines (`load_resampled`): the same draw as the rules'
`resample_hidden` for the same seed, reading nothing the seat cannot see, legal to play on, and
distributed as the rules' sampler draws; Construction's wherever no secret gift amount is to be redrawn
(`can_resample`)."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

pytest.importorskip("numba")

import corruption_envs  # noqa: E402
from corruption_envs.corruption.state import CONTRACT, CORRUPTION, HAND  # noqa: E402
from corruption_envs.corruption.state import SWISS as ON_SWISS  # noqa: E402
from corruption_envs.search import ISMCTSAgent, PIMCAgent  # noqa: E402
from corruption_envs.construction.state import VOTE as CONSTRUCTION_VOTE  # noqa: E402
from corruption_envs.corruptia.state import VOTE  # noqa: E402
from corruption_envs.vector import WAIT, make  # noqa: E402
from corruption_envs.construction.engine import ConstructionEngine  # noqa: E402
from corruption_envs.corruption.engine import GAME_SIZE, CorruptionEngine  # noqa: E402
from corruption_envs.vector.sampling import random_legal  # noqa: E402

COUNTS = {"corruption": (3, 4, 7), "corruptia": (3, 4, 5), "construction": (3, 5, 7)}
# every rule option of each game, each way; Construction's gift amounts public, or no gifts at all
# (secret amounts are redrawn by the rules' search, not the engine)
PUBLIC_GIFTS = {"secret_gifts": False}
OPTIONS = {
    "corruption": [{"reporter_may_decline": True}, {"reporter_may_decline": False}],
    "corruptia": [{"vote_offers": True}, {"vote_offers": False}],
    "construction": [PUBLIC_GIFTS, {"max_gifts": 0},
                     {"secret_gifts": False, "max_gifts": 3, "investigation_gifts": True,
                      "first_player_passes": True, "completion": "more_than_three", "red_alert": "all_dice"}],
}
CASES = [(game, n, options) for game, ways in OPTIONS.items() for n in COUNTS[game] for options in ways]
CASE_IDS = [f"{game}-{n}-" + ",".join(f"{k}={v}" for k, v in o.items()) for game, n, o in CASES]
PLAYABLE = {"corruption": {}, "corruptia": {}, "construction": PUBLIC_GIFTS}  # options drawn everywhere
ROWS = 6  # determinizations drawn per position


def positions(n: int, options: dict, games: int = 2, every: int = 7, envs: bool = False,
              forced: bool = False, game: str = "corruption"):
    """(rules, state, acting seat) at every `every`-th decision with a choice (or any, with `forced`) of
    seeded random games (with `envs`, the env first: it plays on after the caller's turn)."""
    for g in range(games):
        env = corruption_envs.env(game, num_players=n, **options)
        env.reset(seed=900 + 10 * n + g)
        rng = np.random.default_rng(g)
        step = 0
        while not all(env.terminations.values()):
            legal = np.flatnonzero(env.action_mask())
            if step % every == 0 and (legal.size > 1 or forced):
                u = env.unwrapped
                point = u.rules, u.game_state, u.rules.current_player(u.game_state)
                yield (env, *point) if envs else point
            env.step(int(rng.choice(legal)))
            step += 1


def engine(n: int, options: dict, width: int = ROWS, game: str = "corruption"):
    e = make(game, width, num_players=n, seed=0, engine="compiled", **options)
    e.reset()
    return e


def rows(e, count: int) -> list[np.ndarray]:
    """What the first `count` rows hold: the games (every array of a row, Generators included) and the
    decisions they show."""
    b = e.batch
    if isinstance(e, CorruptionEngine):
        games = [e._state[:count, :GAME_SIZE]]
    elif isinstance(e, ConstructionEngine):  # the game and its Generator
        games = [e._rows[:count], e._chance[:count]]
    else:  # Corruptia's per-row arrays (the rest is scratch)
        games = [a[:count] for a in e._state if a.ndim >= 2 and a.shape[0] == e.num_envs]
    return [a.copy() for a in (*games, b.observation[:count], b.action_mask[:count], b.current_player[:count])]


@pytest.mark.parametrize("game, n, options", CASES, ids=CASE_IDS)
def test_each_row_is_the_rules_resample_of_its_seed_bit_for_bit(game, n, options):
    compiled, loaded = engine(n, options, game=game), engine(n, options, game=game)
    seeds = np.arange(ROWS, dtype=np.int64) * 7919 + 11
    checked = phases = 0
    for rules, state, me in positions(n, options, games=3, every=3, forced=True, game=game):
        compiled.load_resampled(state, me, seeds)
        for k, seed in enumerate(seeds.tolist()):
            loaded.load(k, rules.resample_hidden(state, me, np.random.default_rng(seed)))
        for got, want in zip(rows(compiled, ROWS), rows(loaded, ROWS)):
            np.testing.assert_array_equal(got, want)
        checked += 1
        phases |= 1 << int(state.phase)
    if game == "corruption":
        assert checked > 10 and phases == 0b1111  # Phase II and Phase III's three decision steps
    else:  # votes to redraw among them
        assert checked > 10 and phases >> (VOTE if game == "corruptia" else CONSTRUCTION_VOTE) & 1


@pytest.mark.parametrize("game, n, options", CASES, ids=CASE_IDS)
def test_states_the_seat_cannot_tell_apart_give_the_same_rows(game, n, options):
    mine, theirs = engine(n, options, game=game), engine(n, options, game=game)
    seeds = np.arange(ROWS, dtype=np.int64) + 5
    changed = 0
    for k, (rules, state, me) in enumerate(positions(n, options, game=game)):
        twin = rules.resample_hidden(state, me, np.random.default_rng(10_000 + k))  # all it cannot see redrawn
        changed += differs(game, twin, state)
        mine.load_resampled(state, me, seeds)
        theirs.load_resampled(twin, me, seeds)
        for got, want in zip(rows(mine, ROWS), rows(theirs, ROWS)):
            np.testing.assert_array_equal(got, want)
    assert changed > 5


def differs(game: str, a, b) -> bool:
    """Whether two states differ in where the cards (and Construction's contracts) are."""
    if game == "construction":
        return a.hand != b.hand or a.deck != b.deck or a.stack != b.stack
    return not (np.array_equal(a.loc, b.loc) and a.deck == b.deck)


@pytest.mark.parametrize("game, n", [(game, n) for game in OPTIONS for n in COUNTS[game]])
def test_a_resampled_row_keeps_what_the_seat_knows_and_plays_on_to_the_end(game, n):
    options = PLAYABLE[game]
    e, truth = engine(n, options, game=game), engine(n, options, width=1, game=game)
    keeps = {"corruption": keeps_corruption, "corruptia": keeps_corruptia,
             "construction": keeps_construction}[game]
    rng = np.random.default_rng(n)
    ended = 0
    for rules, state, me in positions(n, options, games=1, every=11, game=game):
        truth.load(0, state)
        e.load_resampled(state, me, rng.integers(2**63, size=ROWS))
        b, t = e.batch, truth.batch
        for k in range(ROWS):  # the seat's view and choices are the truth's
            np.testing.assert_array_equal(b.observation[k], t.observation[0])
            np.testing.assert_array_equal(b.action_mask[k], t.action_mask[0])
            assert b.current_player[k] == me
            keeps(e, k, state, me)
        ended += play_out(e, rng)
    assert ended >= ROWS * 3


def keeps_corruption(e, k: int, state, me: int) -> None:
    """Row k holds the seat's own cards and the public ones where they are, as many cards of each seat
    in each kind of place, bribes alone on Swiss accounts, and the undealt contracts."""
    s = resampled_state(e, k, state.n)
    np.testing.assert_array_equal(s["loc"][me], state.loc[me])
    np.testing.assert_array_equal(s["where"][me], state.where[me])
    np.testing.assert_array_equal(s["public"], state.public)
    shown = state.public
    np.testing.assert_array_equal(s["loc"][shown], state.loc[shown])
    np.testing.assert_array_equal(s["where"][shown], state.where[shown])
    for q in range(state.n):
        for place in (HAND, CONTRACT, ON_SWISS):
            assert (s["loc"][q] == place).sum() == (state.loc[q] == place).sum()
        assert all(c < 6 for c in np.flatnonzero(s["loc"][q] == ON_SWISS))
    assert sorted(s["deck"]) == sorted(state.deck)


def keeps_corruptia(e, k: int, state, me: int) -> None:
    """Row k holds the seat's hand, the cards seen taken and every card on the table or discarded
    where they are, as many cards in each hand, the pile and the box, and the seat's own ballot."""
    from corruption_envs.corruptia.state import IN_BOX, IN_DECK
    from corruption_envs.corruptia import engine as v

    loc = e._state[4][k, v.C_LOC].astype(np.int64)
    hidden_places = [*range(state.n), IN_DECK, IN_BOX]
    seen = (state.loc == me) | (state.known_at == state.loc) | ~np.isin(state.loc, hidden_places)
    np.testing.assert_array_equal(loc[seen], state.loc[seen])
    for place in (*range(state.n), IN_DECK, IN_BOX):
        assert (loc == place).sum() == (state.loc == place).sum()
    pile = e._state[5][k, :len(state.deck)]
    assert sorted(pile.tolist()) == sorted(np.flatnonzero(loc == IN_DECK).tolist())
    assert e._state[1][k, v.SE_VOTE, me] == state.votes[me]


def keeps_construction(e, k: int, state, me: int) -> None:
    """Row k holds the seat's hand and the discards, as many cards in each hand and the deck, every
    card the seat knows a seat holds in that seat's hand, and the contracts on the stack."""
    from corruption_envs.construction import engine as v

    s, n, t = e._rows[k].astype(np.int64), state.n, v.T
    hands = s[v.HAND:v.HAND + n * t].reshape(n, t)
    np.testing.assert_array_equal(hands[me], state.hand[me])
    np.testing.assert_array_equal(s[v.DISCARD:v.DISCARD + t], state.discard)
    np.testing.assert_array_equal(hands.sum(axis=1), [sum(h) for h in state.hand])
    assert s[v.DECK_LEN] == len(state.deck)
    for q in range(n):
        assert (hands[q] >= state.known[me][q]).all()
    stack = s[v.STACK:v.STACK + s[v.STACK_LEN]].tolist()
    assert sorted(stack) == sorted(state.stack) and stack[state.stack_hidden:] == state.stack[state.stack_hidden:]


def resampled_state(e: CorruptionEngine, row: int, n: int) -> dict:
    """Row `row`'s cards and deck as AEC-shaped arrays."""
    from corruption_envs.corruption import engine as v

    s = e._state[row]
    cards = slice(0, n * 10)
    return {
        "loc": s[v.LOC:v.LOC + v.SEAT_CARDS][cards].reshape(n, 10),
        "where": s[v.WHERE:v.WHERE + v.SEAT_CARDS][cards].reshape(n, 10),
        "public": s[v.PUBLIC:v.PUBLIC + v.SEAT_CARDS][cards].reshape(n, 10).astype(bool),
        "deck": s[v.DECK_CARDS:v.DECK_CARDS + s[v.DECK_LEN]].tolist(),
    }


def play_out(e: CorruptionEngine, rng: np.random.Generator) -> int:
    """Random legal moves in every row until each row's game has ended once; how many ended."""
    playing = np.ones(e.num_envs, bool)
    actions = np.empty(e.num_envs, np.int64)
    ended = 0
    while playing.any():
        random_legal(e.batch.action_mask, rng, out=actions)
        actions[~playing] = WAIT
        batch = e.step(actions)
        done = batch.terminated & playing
        assert (batch.ranks[done, :e.max_players] >= 1).all()
        ended += int(done.sum())
        playing &= ~done
    return ended


def test_where_the_cards_fall_matches_the_rules_sampler():
    # a fixed Phase II position with face-down cards on contracts and bribes on Swiss accounts: which
    # card of a seat lies at each of its unseen places, and the deck's top, over independent draws of
    # both samplers (different seeds), compared by a chi-square test of homogeneity
    from scipy.stats import chi2_contingency

    rules, state, me = mid_round_position()
    e = engine(4, {}, width=500)
    engine_counts, rules_counts = Counter(), Counter()
    for batch in range(6):
        e.load_resampled(state, me, np.arange(500, dtype=np.int64) + 500 * batch)
        for k in range(500):
            s = resampled_state(e, k, 4)
            engine_counts.update(places(s["loc"], s["where"], s["deck"], me))
    for seed in range(10_000, 13_000):
        other = rules.resample_hidden(state, me, np.random.default_rng(seed))
        rules_counts.update(places(other.loc, other.where, other.deck, me))
    keys = sorted(set(engine_counts) | set(rules_counts))
    by_place: dict = {}
    for key in keys:
        by_place.setdefault(key[:2], []).append(key)
    tested = 0
    for place, cells in by_place.items():
        if len(cells) < 2:
            continue
        table = [[engine_counts[c] for c in cells], [rules_counts[c] for c in cells]]
        assert chi2_contingency(table).pvalue > 1e-3, (place, table)
        tested += 1
    assert tested >= 4


def test_corruptias_unseen_cards_fall_as_the_rules_sampler_deals_them():
    # after a few turns: the department of the pile's top card, of the box's lowest card and of each
    # opponent's lowest card not seen taken, over independent draws of both samplers (a chi-square
    # test of homogeneity each)
    from scipy.stats import chi2_contingency

    from corruption_envs.corruptia.state import IN_BOX
    from corruption_envs.corruptia.tables import CARDS_PER_DEPT
    from corruption_envs.corruptia import engine as v

    env = corruption_envs.env("corruptia", num_players=4)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    u = env.unwrapped
    rules, state = u.rules, u.game_state
    me = rules.current_player(state)

    def features(loc: np.ndarray, known: np.ndarray, top: int) -> list[tuple]:
        out = [("top", top // CARDS_PER_DEPT), ("box", np.flatnonzero(loc == IN_BOX).min() // CARDS_PER_DEPT)]
        for q in range(4):
            unseen = np.flatnonzero((loc == q) & (known != q))
            if q != me and unseen.size:
                out.append((q, unseen.min() // CARDS_PER_DEPT))
        return out

    e = engine(4, {}, width=500, game="corruptia")
    engine_counts, rules_counts = Counter(), Counter()
    for batch in range(6):
        e.load_resampled(state, me, np.arange(500, dtype=np.int64) + 500 * batch)
        cards, pile = e._state[4], e._state[5]
        for k in range(500):
            top = int(pile[k, len(state.deck) - 1])
            engine_counts.update(features(cards[k, v.C_LOC], cards[k, v.C_KNOWN], top))
    for seed in range(10_000, 13_000):
        other = rules.resample_hidden(state, me, np.random.default_rng(seed))
        rules_counts.update(features(other.loc, other.known_at, other.deck[-1]))
    assert sum(engine_counts.values()) == sum(rules_counts.values())
    tested = 0
    for name in {key[0] for key in engine_counts}:
        cells = sorted(key for key in set(engine_counts) | set(rules_counts) if key[0] == name)
        table = [[engine_counts[c] for c in cells], [rules_counts[c] for c in cells]]
        assert chi2_contingency(table).pvalue > 1e-3, (name, table)
        tested += len(cells) > 1
    assert tested >= 3


def places(loc: np.ndarray, where: np.ndarray, deck: list, me: int) -> list[tuple]:
    """(seat, place, card) for every opponent card away from home (a hand is one place), and the top of
    the deck."""
    out = [(-1, "deck top", deck[-1])]
    for q in range(loc.shape[0]):
        if q != me:
            out += [(q, (int(loc[q, c]), int(where[q, c])), c) for c in range(10) if loc[q, c] != HAND]
    return out


def mid_round_position():
    """A 4-player game after a round and most of a second round's plays (seeded random play)."""
    env = corruption_envs.env("corruption", num_players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while True:
        u = env.unwrapped
        s = u.game_state
        if s.round == 1 and s.phase == CORRUPTION and s.turn == 20:
            return u.rules, s, u.rules.current_player(s)
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))


@pytest.mark.parametrize("search", [ISMCTSAgent, PIMCAgent])
@pytest.mark.parametrize("game", OPTIONS)
def test_search_with_the_engines_draw_decides_as_with_the_rules_draw(game, search):
    # the same determinizations either way (one seed each from the bot's generator): the same moves
    decisions = 0
    for env, *_ in positions(4, PLAYABLE[game], games=1, every=13, envs=True, game=game):
        moves = []
        for compiled in (True, False):
            bot = search(env, seed=decisions, simulations=12, engine=True, wave=4)
            bot.ready_engine()
            bot._rows.resamples = compiled
            seen = env.observe(env.agent_selection)
            moves.append(bot.act(seen["observation"], seen["action_mask"]))
        assert moves[0] == moves[1]
        decisions += 1
    assert decisions > 5
