"""The raider Construction bot's own rules: before the last year it keeps its contracts, completes
opponents' and puts a spare worker on an opponent's contract rather than pay its vacation; in the last
year it is the expert.
Batched and plain-Python play: tests/core/test_batched_bots.py."""

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.construction import ExpertAgent, RaiderAgent, codec
from corruption_envs.construction.tables import NUM_TURNS
from tests.construction.helpers import bot_move, contracts_of, fresh, one_worker_short
from tests.no_peek_bots import disagreements, peeking


def test_it_completes_an_opponents_contract_where_the_expert_completes_its_own():
    rules, s = fresh(4)
    mine, theirs = one_worker_short(s)
    assert bot_move(ExpertAgent, rules, s) == codec.PLACE + mine
    assert bot_move(RaiderAgent, rules, s) == codec.PLACE + theirs


def test_a_spare_worker_goes_on_an_opponents_contract_and_never_on_its_own():
    rules, s = fresh(4)
    mine = contracts_of(s, s.actor)[0]
    s.workers[mine][s.actor] = 2  # its own would complete; no opponent's completes with the one worker left
    s.to_place[s.actor] = 1
    spare = bot_move(RaiderAgent, rules, s)
    assert spare - codec.PLACE in [c for seat in range(4) if seat != s.actor for c in contracts_of(s, seat)]
    assert bot_move(ExpertAgent, rules, s) == codec.PLACE + mine


def test_it_passes_only_when_every_opponents_contract_has_a_festival():
    rules, s = fresh(4)
    mine = contracts_of(s, s.actor)[0]
    s.workers[mine][s.actor] = 2
    for seat in range(4):
        if seat != s.actor:
            for c in contracts_of(s, seat):
                s.festival[c] = 1
    assert bot_move(RaiderAgent, rules, s) == codec.PASS
    assert bot_move(ExpertAgent, rules, s) == codec.PLACE + mine


def test_in_the_last_year_it_plays_as_the_expert():
    for seed in range(3):
        rules, s = fresh(4, seed=seed)
        one_worker_short(s)
        s.turn = NUM_TURNS - 1
        assert bot_move(RaiderAgent, rules, s) == bot_move(ExpertAgent, rules, s)


def test_the_spec_builds_it_and_every_move_is_legal():
    for g in range(12):
        env = corruption_envs.env("construction", num_players=3 + g % 5)
        env.reset(seed=g)
        bots = [make_agent("raider" if i % 2 == 0 else "heuristic", env, seed=i) for i in range(env.num_agents)]
        assert type(bots[0]) is RaiderAgent
        while not all(env.terminations.values()):
            seen = env.observe(env.agent_selection)
            action = bots[env.possible_agents.index(env.agent_selection)].act(seen["observation"], seen["action_mask"])
            assert seen["action_mask"][action] == 1
            env.step(action)


def test_it_decides_alike_from_states_the_seat_cannot_tell_apart_and_a_peeking_one_is_caught():
    decisions, changed, differ = disagreements("construction", RaiderAgent, 6, 5)
    assert decisions > 20 and changed > 0 and differ == 0
    assert disagreements("construction", peeking(RaiderAgent), 6, 5)[2] > 0
