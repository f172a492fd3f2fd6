"""The adaptive Construction bot: the expert at a table that plays as rule bots do, the raider once an
opponent does in public what no rule bot does. Batched and plain-Python play: tests/core/test_batched_bots.py."""

import pytest

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.construction import AdaptiveAgent, ExpertAgent, RaiderAgent, codec
from tests.construction.helpers import bot_move, fresh, one_worker_short
from tests.no_peek_bots import disagreements, peeking


def _departures(field: str, games: int = 10) -> tuple[int, int]:
    """(decisions, moves where the adaptive bot and the expert differ) for one adaptive seat among `field` bots."""
    decisions = differ = 0
    for g in range(games):
        env = corruption_envs.env("construction", num_players=3 + g % 5)
        env.reset(seed=g)
        me = env.possible_agents[g % env.num_agents]
        adaptive, expert = make_agent("adaptive", env), make_agent("expert", env)
        others = {a: make_agent(field, env, seed=i) for i, a in enumerate(env.possible_agents)}
        while not all(env.terminations.values()):
            seat = env.agent_selection
            seen = env.observe(seat)
            move = others[seat].act(seen["observation"], seen["action_mask"])
            if seat == me:
                move = adaptive.act(seen["observation"], seen["action_mask"])
                assert seen["action_mask"][move] == 1
                decisions += 1
                differ += move != expert.act(seen["observation"], seen["action_mask"])
            env.step(move)
    return decisions, differ


def test_at_a_table_of_rule_bots_it_plays_every_move_as_the_expert():
    for field in ("heuristic", "expert"):
        decisions, differ = _departures(field)
        assert decisions > 200 and differ == 0


def test_at_a_table_that_gives_gifts_and_votes_for_others_it_departs_from_the_expert():
    assert _departures("random")[1] > 0


def _opponent_gives_a_gift(s):
    s.gifts_left[(s.actor + 1) % s.n] -= 1


def _opponent_held_a_key(s):
    s.keys[(s.actor + 2) % s.n] = 1


def _opponent_voted_for_another_seat(s):
    s.last_ballots[(s.actor + 1) % s.n] = (s.actor + 2) % s.n


def _opponent_gave_a_gift_the_seat_did_not_see(s):
    giver, taker = (s.actor + 1) % s.n, (s.actor + 2) % s.n
    s.gift_cnt[taker][giver] += 1
    s.gift_cnt[giver][s.n + taker] += 1


def _opponent_passed_with_workers_left(s):
    p = (s.actor + 3) % s.n
    s.passed[p], s.to_place[p] = True, 1


@pytest.mark.parametrize("sign", [_opponent_gives_a_gift, _opponent_held_a_key, _opponent_voted_for_another_seat,
                                  _opponent_gave_a_gift_the_seat_did_not_see, _opponent_passed_with_workers_left])
def test_each_public_sign_of_a_table_unlike_rule_bots_makes_it_the_raider(sign):
    rules, s = fresh(4)
    mine, _ = one_worker_short(s)
    assert bot_move(AdaptiveAgent, rules, s) == bot_move(ExpertAgent, rules, s) == codec.PLACE + mine
    sign(s)
    raid = bot_move(RaiderAgent, rules, s)
    assert bot_move(AdaptiveAgent, rules, s) == raid and raid != codec.PLACE + mine


def test_a_vote_for_oneself_is_what_rule_bots_do_and_changes_nothing():
    rules, s = fresh(4)
    mine, _ = one_worker_short(s)
    for p in range(s.n):
        s.last_ballots[p] = p
    assert bot_move(AdaptiveAgent, rules, s) == codec.PLACE + mine


def test_it_decides_alike_from_states_the_seat_cannot_tell_apart_and_a_peeking_one_is_caught():
    decisions, changed, differ = disagreements("construction", AdaptiveAgent, 6, 5)
    assert decisions > 20 and changed > 0 and differ == 0
    assert disagreements("construction", peeking(AdaptiveAgent), 6, 5)[2] > 0
