"""ISMCTS guided by a policy file (`ismcts:N@FILE`, corruption_envs.search.guided): the prior steers the
search, it reads nothing the seat cannot see, it is seeded, and its specs fail clearly."""
from __future__ import annotations

import pytest

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core import PolicyFileError
from corruption_envs.policy import load_policy
from corruption_envs.search import GuidedISMCTSAgent, ISMCTSAgent
from tests.search.twins import seat_twins
from tests.test_contract import GAMES

CHAMPION = "policies/{}/champion.npz"


def decide(bot, env):
    seen = env.observe(env.agent_selection)
    return bot.act(seen["observation"], seen["action_mask"])


@pytest.mark.parametrize("game", GAMES)
def test_guided_search_decides_alike_from_states_the_seat_cannot_tell_apart(game):
    # the prior is read from observations in determinizations, never from the true state
    spec = f"ismcts:6@{CHAMPION.format(game)}"
    decisions = changed = 0
    for k, env, twin, differs in seat_twins(game, games=2, every=9):
        changed += differs
        assert decide(make_agent(spec, env, seed=k), env) == decide(make_agent(spec, twin, seed=k), twin)
        decisions += 1
    assert decisions > 10 and changed > 0


def test_one_simulation_plays_the_policys_own_move():
    # with nothing visited, PUCT ranks the moves by the prior alone: the greedy policy's move
    path = CHAMPION.format("construction")
    env = corruption_envs.env("construction", num_players=4)
    env.reset(seed=2)
    greedy = load_policy(path, env, sample=False)
    guided = make_agent(f"ismcts:1@{path}", env, seed=0)
    plain_differs = 0
    for _ in range(40):
        move = decide(greedy, env)
        assert decide(guided, env) == move
        plain_differs += decide(make_agent("ismcts:1", env, seed=0), env) != move
        env.step(move)
    assert plain_differs > 0, "unguided, one simulation plays a random untried move"


def test_a_seed_fixes_every_decision_and_the_mixture_member():
    def moves(seed):
        env = corruption_envs.env("corruption", num_players=4)
        env.reset(seed=1)
        bot = make_agent(f"ismcts:8@{CHAMPION.format('corruption')}", env, seed=seed)
        out = []
        for _ in range(20):
            out.append(decide(bot, env))
            env.step(out[-1])
        return out, bot.policy.member

    first = moves(7)
    assert moves(7) == first
    assert any(moves(s)[0] != first[0] for s in (8, 9, 10)), "the seed changes nothing"


def test_the_spec_gives_the_budget_the_playout_and_the_guide():
    env = corruption_envs.env("corruption")
    bot = make_agent(f"ismcts:30:heuristic@{CHAMPION.format('corruption')}", env, seed=0)
    assert (type(bot), bot.simulations, bot.playout.policy) == (GuidedISMCTSAgent, 30, "heuristic")
    assert bot.policy.meta["game"] == "corruption"
    assert type(make_agent("ismcts:30", env, seed=0)) is ISMCTSAgent


@pytest.mark.parametrize("spec, error, words", [
    ("pimc:5@policies/corruption/champion.npz", ValueError, "only ismcts takes a guiding policy"),
    ("ismcts:5@policies/nowhere.npz", ValueError, "is not a file"),
    ("ismcts:0@policies/corruption/champion.npz", ValueError, "simulations '0'"),
    ("ismcts:5@policies/construction/champion.npz", PolicyFileError, "construction"),
])
def test_a_bad_guided_spec_names_the_fault(spec, error, words):
    with pytest.raises(error, match=words):
        make_agent(spec, corruption_envs.env("corruption"))


def test_a_corrupt_guiding_file_is_a_policy_file_error(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not an npz archive")
    with pytest.raises(PolicyFileError):
        make_agent(f"ismcts:5@{bad}", corruption_envs.env("corruption"))


def test_c_puct_must_be_positive():
    env = corruption_envs.env("corruption")
    with pytest.raises(ValueError, match="c_puct"):
        GuidedISMCTSAgent(env, load_policy(CHAMPION.format("corruption"), env), c_puct=0.0)
