"""The expert Construction bot's own rules: it keeps its contracts in the last year and completes the
others', keeps Spic 'n Span for a loaded contract. Its spec, legal play, no-peeking and strength
checks: tests/core/test_expert_bots.py."""

from corruption_envs.construction import ExpertAgent, codec
from corruption_envs.construction.tables import NUM_TURNS, SPIC_N_SPAN
from tests.construction.helpers import (
    bot_move,
    contracts_of,
    fresh,
    give_cards,
    one_worker_short,
    to_investigation,
)


def expert_move(rules, s) -> int:
    return bot_move(ExpertAgent, rules, s)


def test_in_the_last_year_it_keeps_its_contract_and_completes_an_opponents():
    rules, s = fresh(4)
    mine, theirs = one_worker_short(s)
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
