"""The expert Construction bot: the heuristic's guide with the expert's numbers, legal at every count
and clearly stronger than the heuristic both ways (its figures: docs/results.md, the ablation tables)."""
import numpy as np

import corruption_envs
from corruption_envs import get_game
from corruption_envs.bots import make_agent
from corruption_envs.construction import ExpertAgent, HeuristicAgent
from corruption_envs.construction.heuristic import EXPERT, HEURISTIC
from corruption_envs.evaluation import evaluate
from corruption_envs.construction import codec
from corruption_envs.construction.tables import NUM_TURNS, SPIC_N_SPAN
from tests.construction.helpers import contracts_of, fresh, give_cards, to_investigation
from tests.test_contract import leak_points

GAME = get_game("construction")


def test_the_spec_builds_it():
    assert type(make_agent("expert", corruption_envs.env("construction"), seed=0)) is ExpertAgent


def test_it_differs_from_the_heuristic_only_in_its_numbers():
    assert ExpertAgent.style == EXPERT and HeuristicAgent.style == HEURISTIC
    assert EXPERT != HEURISTIC and EXPERT._fields == HEURISTIC._fields


def expert_move(rules, s) -> int:
    bot = ExpertAgent(corruption_envs.env("construction", num_players=s.n))
    return bot.act(rules.observe(s, s.actor), rules.legal_mask(s).astype(np.int8))


def test_in_the_last_year_it_keeps_its_contract_and_completes_an_opponents():
    rules, s = fresh(4)
    me, other = s.actor, (s.actor + 1) % 4
    mine, theirs = contracts_of(s, me)[0], contracts_of(s, other)[0]
    s.workers[mine][me] = s.workers[theirs][other] = 2  # one more worker completes either
    s.turn = NUM_TURNS - 2
    assert expert_move(rules, s) == codec.PLACE + mine  # sheds its Corruption before another investigation
    s.turn = NUM_TURNS - 1
    assert expert_move(rules, s) == codec.PLACE + theirs  # the final pay is the owner's only if kept


def test_it_keeps_spic_n_span_for_a_contract_with_3_corruption():
    rules, s = fresh(4)
    give_cards(s, 0, SPIC_N_SPAN)
    to_investigation(rules, s)
    assert s.actor == 0  # the only seat with a card
    mine = contracts_of(s, 0)[0]
    for corruption, move in ((1, codec.PASS), (2, codec.PASS), (3, codec.SPIC_N_SPAN + mine)):
        s.corruption[mine] = corruption
        assert expert_move(rules, s) == move, corruption


def test_fuzz_every_move_is_legal_and_every_game_ends():
    rng = np.random.default_rng(0)
    for g in range(60):
        n = int(rng.integers(3, 8))
        env = corruption_envs.env("construction", num_players=n)
        env.reset(seed=g)
        kinds = ["expert"] * n if g % 2 else list(rng.choice(["expert", "heuristic", "random"], n))
        bots = [make_agent(kind, env, seed=g * 10 + i) for i, kind in enumerate(kinds)]
        while not all(env.terminations.values()):
            seen = env.observe(env.agent_selection)
            action = bots[env.possible_agents.index(env.agent_selection)].act(seen["observation"], seen["action_mask"])
            assert seen["action_mask"][action] == 1, (g, env.agent_selection, action)
            env.step(action)
        assert sum(env.infos[a]["rank"] for a in env.possible_agents) == n * (n + 1) / 2  # every seat ranked


def disagreements(bot_class) -> tuple[int, int, int]:
    """(decisions, states changed by the resample, decisions that changed with it) of `bot_class` at
    seeded positions and their resamples, which redraw everything the acting seat cannot see."""
    decisions = changed = differ = 0
    for k, env in enumerate(leak_points("construction", games=6, every=5)):
        if np.count_nonzero(env.action_mask()) < 2:
            continue
        agent = env.agent_selection
        twin = env.resample_hidden(agent, seed=k)
        changed += not np.array_equal(twin.state(), env.state())
        seen, twin_seen = env.observe(agent), twin.observe(agent)
        differ += (bot_class(env, seed=k).act(seen["observation"], seen["action_mask"])
                   != bot_class(twin, seed=k).act(twin_seen["observation"], twin_seen["action_mask"]))
        decisions += 1
    return decisions, changed, differ


class PeekingExpert(ExpertAgent):
    """A bad bot for the check below: it picks by the true state, hidden parts included."""

    def __init__(self, env, seed=None):
        super().__init__(env, seed)
        self.env = env

    def act(self, observation, action_mask):
        legal = np.flatnonzero(action_mask)
        return int(legal[int(np.asarray(self.env.state()).sum()) % len(legal)])


def test_it_decides_alike_from_states_the_seat_cannot_tell_apart():
    decisions, changed, differ = disagreements(ExpertAgent)
    assert decisions > 20 and changed > 0 and differ == 0


def test_the_check_catches_a_bot_that_reads_the_hidden_state():
    assert disagreements(PeekingExpert)[2] > 0


def test_it_beats_the_heuristic_both_ways():
    ahead = evaluate(ExpertAgent(corruption_envs.env("construction", num_players=4)), GAME, "heuristic", 300, 4, seed=5)
    assert ahead.interval[0] > 0.25, f"the expert won {ahead.wins}/{ahead.games} against 3 heuristic bots"
    alone = evaluate(ExpertAgent(corruption_envs.env("construction", num_players=4)), GAME, "heuristic", 300, 4, seed=5,
                     reverse=True)
    assert alone.interval[1] < 0.25, f"one heuristic won {alone.wins}/{alone.games} against 3 experts"
