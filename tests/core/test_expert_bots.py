"""Corruptia's and Construction's expert bots, the heuristic's guide played with other numbers: built by
their spec, blind to what their seat cannot see (and a bot that peeks is caught), and clearly stronger than
the heuristic both ways (their figures: docs/results.md, the ablation tables). Each game's own rules for
its expert are tested beside the game (tests/<game>/test_expert.py)."""
import numpy as np
import pytest

import corruption_envs
from corruption_envs import get_game
from corruption_envs.bots import make_agent
from corruption_envs.construction import codec as construction_codec
from corruption_envs.construction import heuristic as construction_guide
from corruption_envs.construction.tables import NUM_CONTRACTS
from corruption_envs.corruptia import heuristic as corruptia_guide
from corruption_envs.corruptia.codec import VOTE0
from corruption_envs.corruptia.state import ABSENT
from corruption_envs.evaluation import evaluate
from tests.no_peek_bots import disagreements, peeking

GUIDES = {"construction": construction_guide, "corruptia": corruptia_guide}
# seeded positions to resample (games, every k-th decision) and games against the heuristic each way
POSITIONS = {"construction": (6, 5), "corruptia": (4, 7)}
MATCH_GAMES = {"construction": 300, "corruptia": 200}
# fuzz games per game, and moves only the expert's own rules make (Spic 'n Span kept for a loaded
# contract; absence for a swap), which must arise in them
FUZZ_GAMES = {"construction": 60, "corruptia": 24}
OWN_RULE_MOVES = {"construction": range(construction_codec.SPIC_N_SPAN, construction_codec.SPIC_N_SPAN + NUM_CONTRACTS),
                  "corruptia": (VOTE0 + ABSENT,)}


@pytest.mark.parametrize("game", GUIDES)
def test_the_spec_builds_it(game):
    assert type(make_agent("expert", corruption_envs.env(game), seed=0)) is GUIDES[game].ExpertAgent


@pytest.mark.parametrize("game", GUIDES)
def test_it_differs_from_the_heuristic_only_in_its_numbers(game):
    guide = GUIDES[game]
    assert guide.ExpertAgent.style == guide.EXPERT and guide.HeuristicAgent.style == guide.HEURISTIC
    assert guide.EXPERT != guide.HEURISTIC and guide.EXPERT._fields == guide.HEURISTIC._fields


@pytest.mark.parametrize("game", GUIDES)
def test_fuzz_every_move_is_legal_and_every_game_ends(game):
    rng, counts, own_rule = np.random.default_rng(0), list(get_game(game).players), 0
    for g in range(FUZZ_GAMES[game]):
        n = int(rng.choice(counts))
        env = corruption_envs.env(game, num_players=n)
        env.reset(seed=g)
        kinds = ["expert"] * n if g % 2 else list(rng.choice(["expert", "heuristic", "random"], n))
        bots = [make_agent(kind, env, seed=g * 10 + i) for i, kind in enumerate(kinds)]
        while not all(env.terminations.values()):
            seat = env.possible_agents.index(env.agent_selection)
            seen = env.observe(env.agent_selection)
            action = bots[seat].act(seen["observation"], seen["action_mask"])
            assert seen["action_mask"][action] == 1, (g, env.agent_selection, action)
            own_rule += kinds[seat] == "expert" and action in OWN_RULE_MOVES[game]
            env.step(action)
        assert sum(env.infos[a]["rank"] for a in env.possible_agents) == n * (n + 1) / 2  # every seat ranked
    assert own_rule > 0


@pytest.mark.parametrize("game", GUIDES)
def test_it_decides_alike_from_states_the_seat_cannot_tell_apart(game):
    decisions, changed, differ = disagreements(game, GUIDES[game].ExpertAgent, *POSITIONS[game])
    assert decisions > 20 and changed > 0 and differ == 0


@pytest.mark.parametrize("game", GUIDES)
def test_the_check_catches_a_bot_that_reads_the_hidden_state(game):
    assert disagreements(game, peeking(GUIDES[game].ExpertAgent), *POSITIONS[game])[2] > 0


@pytest.mark.parametrize("game", GUIDES)
def test_it_beats_the_heuristic_both_ways(game):
    expert, games = GUIDES[game].ExpertAgent(corruption_envs.env(game, num_players=4)), MATCH_GAMES[game]
    ahead = evaluate(expert, get_game(game), "heuristic", games, 4, seed=5)
    assert ahead.interval[0] > 0.25, f"the expert won {ahead.wins}/{ahead.games} against 3 heuristic bots"
    alone = evaluate(expert, get_game(game), "heuristic", games, 4, seed=5, reverse=True)
    assert alone.interval[1] < 0.25, f"one heuristic won {alone.wins}/{alone.games} against 3 experts"
