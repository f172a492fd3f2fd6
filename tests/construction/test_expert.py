"""The expert Construction bot's own rules: it keeps its contracts in the last year and completes the
others', keeps Spic 'n Span for a loaded contract. Its spec, legal play, no-peeking and strength
checks: tests/core/test_expert_bots.py."""
import numpy as np

import corruption_envs
from corruption_envs.construction import ExpertAgent, codec
from corruption_envs.construction.tables import NUM_TURNS, SPIC_N_SPAN
from tests.construction.helpers import contracts_of, fresh, give_cards, to_investigation


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
