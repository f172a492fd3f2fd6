"""Every bot's `act_batch` decides a batch of real rows exactly as its `act` decides them one by one, and
leaves its generators as the row-by-row decisions leave them (the Agent protocol's contract)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core.agents import draws_below
from corruption_envs.construction import heuristic as construction_heuristic
from corruption_envs.corruption import expert, heuristic
from corruption_envs.corruptia import heuristic as corruptia_heuristic
from corruption_envs.policy import NumpyPolicy, check_compatible, read_policy_file

POLICIES = Path(__file__).resolve().parents[2] / "policies"
PLAYER_COUNTS = {"corruption": (3, 5, 7), "corruptia": (3, 4, 5), "construction": (3, 5, 7)}
NAMED = {"corruption": ("random", "heuristic", "expert"), "corruptia": ("random", "heuristic", "expert"),
         "construction": ("random", "heuristic", "expert", "raider", "adaptive")}
MIN_ROWS = 600  # seeded games are played until at least this many decisions are seen
# uneven batches: one row, a few, a block, the rest
CHUNKS = (1, 7, 64, 500)


@lru_cache(maxsize=None)
def rows(game: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(observations, masks) of every decision of seeded games, heuristic and random seats mixed."""
    env = corruption_envs.env(game, num_players=n)
    observations, masks = [], []
    g = 0
    while len(observations) < MIN_ROWS:
        env.reset(seed=100 * n + g)
        seats = {a: make_agent(("heuristic", "random")[(i + g) % 2], env, seed=10 * g + i)
                 for i, a in enumerate(env.possible_agents)}
        for agent in env.agent_iter():
            seen, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            observations.append(seen["observation"])
            masks.append(seen["action_mask"])
            env.step(seats[agent].act(seen["observation"], seen["action_mask"]))
        g += 1
    return np.array(observations), np.array(masks)


def generator_states(bot) -> list:
    """The bit-generator states of a bot and of the prior bot it consults."""
    found = []
    for b in (bot, getattr(bot, "prior_bot", None)):
        if isinstance(getattr(b, "rng", None), np.random.Generator):
            found.append(b.rng.bit_generator.state)
    return found


def assert_batch_matches_rows(make, game: str, n: int) -> None:
    observations, masks = rows(game, n)
    one, batched = make(), make()
    expected = [one.act(o, m) for o, m in zip(observations, masks)]
    got, start = [], 0
    for size in CHUNKS * (len(observations) // sum(CHUNKS) + 1):
        got.extend(batched.act_batch(observations[start:start + size], masks[start:start + size]).tolist())
        start += size
        if start >= len(observations):
            break
    assert got == expected
    assert generator_states(batched) == generator_states(one)


CASES = [(game, n, bot) for game, counts in PLAYER_COUNTS.items() for n in counts for bot in NAMED[game]]


@pytest.mark.parametrize("game,n,bot", CASES, ids=lambda c: str(c))
def test_a_named_bot_decides_a_batch_as_row_by_row(game, n, bot):
    env = corruption_envs.env(game, num_players=n)
    assert_batch_matches_rows(lambda: make_agent(bot, env, seed=7), game, n)


def mixed_count_rows(game: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of every tested count of `game`, shuffled together, and each row's count."""
    parts = [rows(game, n) for n in PLAYER_COUNTS[game]]
    counts = np.concatenate([np.full(len(o), n) for n, (o, _) in zip(PLAYER_COUNTS[game], parts)])
    order = np.random.default_rng(0).permutation(len(counts))
    return (np.concatenate([o for o, _ in parts])[order], np.concatenate([m for _, m in parts])[order],
            counts[order])


ANY_COUNT_BOTS = {"corruption": ("random", "heuristic", "expert"), "corruptia": ("random",),
                  "construction": ("random",)}


@pytest.mark.parametrize("game,bot", [(g, b) for g, bots in NAMED.items() for b in bots])
def test_which_named_bots_play_every_player_count(game, bot):
    """Corruption's rule bots read each row's seats; Corruptia's heuristic is built for one count's
    grid, and Construction's for one count's seats."""
    env = corruption_envs.env(game, num_players=PLAYER_COUNTS[game][0])
    assert make_agent(bot, env, seed=0).any_player_count == (bot in ANY_COUNT_BOTS[game])


@pytest.mark.parametrize("game,bot", [(g, b) for g, bots in ANY_COUNT_BOTS.items() for b in bots])
def test_a_bot_of_any_count_decides_mixed_counts_as_each_count_bot(game, bot):
    """Built at one count, it decides each row of a batch of mixed counts as the bot built for that row's
    count would, from the same generator state; and its batch decides as its rows one by one."""
    observations, masks, counts = mixed_count_rows(game)
    mixed = make_agent(bot, corruption_envs.env(game, num_players=PLAYER_COUNTS[game][0]), seed=11)
    own = {n: make_agent(bot, corruption_envs.env(game, num_players=n), seed=0) for n in PLAYER_COUNTS[game]}
    expected = []
    for o, m, n in zip(observations, masks, counts.tolist()):
        own[n].rng.bit_generator.state = mixed.rng.bit_generator.state
        expected.append(own[n].act(o, m))
        assert mixed.act(o, m) == expected[-1]
    batched = make_agent(bot, corruption_envs.env(game, num_players=PLAYER_COUNTS[game][-1]), seed=11)
    assert batched.act_batch(observations, masks).tolist() == expected


# each compiled rule bot and the modules holding its kernels
COMPILED_BOTS = {("corruption", "heuristic"): (heuristic,), ("corruption", "expert"): (heuristic, expert),
                 ("corruptia", "heuristic"): (corruptia_heuristic,), ("corruptia", "expert"): (corruptia_heuristic,),
                 ("construction", "heuristic"): (construction_heuristic,),
                 ("construction", "expert"): (construction_heuristic,),
                 ("construction", "raider"): (construction_heuristic,),
                 ("construction", "adaptive"): (construction_heuristic,)}


@pytest.mark.parametrize("game,bot", list(COMPILED_BOTS))
def test_the_rule_bots_decide_alike_without_numba(game, bot, monkeypatch):
    """Without numba their kernels run as the plain Python functions (core/jit.py), as in the core
    install: rows of every count and phase decide as the compiled kernels decide them."""
    pytest.importorskip("numba")
    n = PLAYER_COUNTS[game][0]  # a bot made for one count decides that count's rows
    observations, masks = mixed_count_rows(game)[:2] if bot in ANY_COUNT_BOTS[game] else rows(game, n)
    observations, masks = observations[:60], masks[:60]
    env = corruption_envs.env(game, num_players=n)
    compiled = make_agent(bot, env, seed=5).act_batch(observations, masks).tolist()
    patched = [(module, name, kernel.py_func) for module in COMPILED_BOTS[game, bot]
               for name, kernel in vars(module).items() if hasattr(kernel, "py_func")]
    assert patched, "the bot's modules hold no compiled kernel"
    for module, name, function in patched:
        monkeypatch.setattr(module, name, function)
    assert make_agent(bot, env, seed=5).act_batch(observations, masks).tolist() == compiled


def committed_policies() -> list[tuple[str, int, Path]]:
    cases = []
    for path in sorted(POLICIES.glob("*/*.npz")):
        policy = read_policy_file(path)
        for n in PLAYER_COUNTS[path.parent.name]:
            if policy.meta.get("min_players", 3) <= n <= policy.meta.get("max_players", 7):
                cases.append((path.parent.name, n, path))
    return cases


@pytest.mark.parametrize("game,n,path", committed_policies(), ids=lambda c: str(getattr(c, "name", c)))
@pytest.mark.parametrize("sample", [False, True])
def test_a_committed_policy_decides_a_batch_as_row_by_row(game, n, path, sample):
    env = corruption_envs.env(game, num_players=n)
    assert_batch_matches_rows(lambda: make_agent(str(path), env, seed=3, sample=sample), game, n)


def small_policy(env, seed: int, activation: str, prior: bool, tied: bool, sample: bool,
                 temperature: float) -> NumpyPolicy:
    """A random MLP for `env` (`tied`: a zero head, so every legal action ties on its bias)."""
    env = env.unwrapped
    rng = np.random.default_rng(seed)
    size, actions = env.observation_layout.size, env.num_actions
    layers = [(rng.normal(0, 0.3, (size, 16)), rng.normal(0, 0.1, 16))]
    head = (np.zeros((16, actions)) if tied else rng.normal(0, 1.0, (16, actions)), np.zeros(actions))
    meta = {"game": env.rules.name, "temperature": temperature}
    policy = NumpyPolicy(layers, head, activation, meta, sample=sample, seed=seed,
                         prior="heuristic" if prior else None, prior_weight=1.5)
    check_compatible(policy, env)
    return policy.bind(env, seed=seed)


SMALL = [("relu", False, False, False, 1.0), ("tanh", True, False, True, 1.0), ("tanh", False, True, False, 1.0),
         ("relu", False, True, True, 1.0), ("tanh", False, False, True, 0.25)]


@pytest.mark.parametrize("game", PLAYER_COUNTS)
@pytest.mark.parametrize("activation,prior,tied,sample,temperature", SMALL)
def test_a_small_random_policy_decides_a_batch_as_row_by_row(game, activation, prior, tied, sample, temperature):
    n = PLAYER_COUNTS[game][1]
    env = corruption_envs.env(game, num_players=n)
    assert_batch_matches_rows(lambda: small_policy(env, 5, activation, prior, tied, sample, temperature), game, n)


def test_a_sampling_policy_draws_as_rng_choice_over_its_softmax():
    """act's sampling is rng.choice(A, p=softmax(scores / temperature)), one uniform a row."""
    observations, masks = rows("construction", 5)
    policy = small_policy(corruption_envs.env("construction", num_players=5), 9, "tanh", False, False, True, 0.5)
    reference = np.random.default_rng(9)
    for o, m in zip(observations[:300], masks[:300]):
        z = policy.scores(o, m) / policy.temperature
        p = np.exp(z - z.max())
        assert policy.act(o, m) == reference.choice(p.size, p=p / p.sum())
    assert policy.rng.bit_generator.state == reference.bit_generator.state


@pytest.mark.parametrize("bot", ["random", "heuristic", "expert", "policy"])
def test_an_all_zero_mask_row_is_refused(bot):
    env = corruption_envs.env("corruption", num_players=3)
    agent = small_policy(env, 1, "tanh", False, False, False, 1.0) if bot == "policy" else make_agent(bot, env, seed=1)
    observations, masks = rows("corruption", 3)
    masks = masks[:4].copy()
    masks[2] = 0
    with pytest.raises(ValueError, match="all-zero action mask"):
        agent.act_batch(observations[:4], masks)


@pytest.mark.parametrize("tied,sample", [(True, False), (False, True), (True, True)])
def test_a_batch_rounding_unlike_one_row_still_chooses_as_one_row(tied, sample):
    """A batch's matrix products round unlike one row's: logits off by far less than the allowance (here
    made so on purpose, and on every row) must not change a choice, tied logits included."""
    game, n = "corruption", 5
    env = corruption_envs.env(game, num_players=n)
    jitter = np.random.default_rng(0)

    def make() -> NumpyPolicy:
        policy = small_policy(env, 2, "tanh", False, tied, sample, 1.0)
        exact = policy.logits

        def rounded_unlike_one_row(observation: np.ndarray) -> np.ndarray:
            z = exact(observation)
            return z + jitter.uniform(-1e-6, 1e-6, z.shape).astype(np.float32) * (1 + np.abs(z)) if z.ndim == 2 else z

        policy.logits = rounded_unlike_one_row
        return policy

    assert_batch_matches_rows(make, game, n)


@pytest.mark.parametrize("high", [3, 300, 2**31 + 5])
def test_one_call_with_an_array_of_bounds_draws_as_that_many_calls(high):
    """What the bots' batched draws rest on (numpy does not promise it): rng.integers(bounds) equals one
    rng.integers(bound) per bound in order, and leaves the generator where those calls leave it."""
    bounds = np.random.default_rng(high).integers(1, high, size=1001)
    one_by_one, at_once = np.random.default_rng(4), np.random.default_rng(4)
    assert [one_by_one.integers(b) for b in bounds] == draws_below(at_once, bounds).tolist()
    assert at_once.bit_generator.state == one_by_one.bit_generator.state
    assert draws_below(at_once, bounds[:3]).tolist() == [one_by_one.integers(b) for b in bounds[:3]]
    assert at_once.bit_generator.state == one_by_one.bit_generator.state
