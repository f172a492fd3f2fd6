"""The Investigation phase: the 45 cards and every effect, the dice, and the payment choice."""
import numpy as np
import pytest

from corruption_envs.construction import codec
from corruption_envs.construction.observer import MONEY_SCALE, SEAT_FEATURES
from corruption_envs.construction import money
from corruption_envs.construction.state import CARDS, PAY, PAYMENT, REVEAL
from corruption_envs.construction.tables import (
    BIG_PAPA, CARD_COUNTS, CARD_NAMES, CUT_AND_PASTE, DEEP_MERDE, LA_GREVE, LOGO_COST, LOGO_FACES,
    RED_ALERT, REVENUE_QUEBEC, SNITCH, SPIC_N_SPAN,
)

from .helpers import (
    act, contracts_of, finish_turn, fresh, give_cards, legal, offset, pass_cards, pass_placing, pay_fixed,
    to_investigation,
)


def in_investigation(n=4, seed=0, cards=(), **config):
    """A game in its first Investigation; cards = [(seat, card type)] dealt beforehand."""
    rules, s = fresh(n, seed, **config)
    for p, card in cards:
        give_cards(s, p, card)
    to_investigation(rules, s)
    return rules, s


def corruption_of(s, p):
    return sum(s.corruption[c] for c in contracts_of(s, p))


def test_the_deck_is_45_cards_with_the_printed_counts():
    assert dict(zip(CARD_NAMES, CARD_COUNTS)) == {
        "Big Papa": 3, "Cut & Paste": 1, "Deep Merde": 12, "La Greve": 2, "Red Alert": 4,
        "Revenue Quebec": 8, "Spic 'n Span": 4, "Stooleur/Snitch": 11,
    }
    rules, s = fresh(4, 0)
    assert len(s.deck) == 45 and all(s.deck.count(t) == CARD_COUNTS[t] for t in range(8))


def test_cards_are_played_in_seat_order_from_the_first_player_until_all_pass_in_a_row():
    rules, s = fresh(4, 1)
    for p in range(4):
        give_cards(s, p, SNITCH)
    to_investigation(rules, s)
    f = s.first
    seen = []
    while s.phase == CARDS:
        seen.append(s.actor)
        act(rules, s, codec.PASS)
    assert seen == [f, (f + 1) % 4, (f + 2) % 4, (f + 3) % 4]


def test_a_played_card_restarts_the_round_of_passes():
    rules, s = in_investigation(3, 2, [(0, SNITCH), (1, SNITCH), (2, SNITCH)])
    f = s.first
    last = (f + 2) % 3
    order = []
    while s.phase == CARDS:
        p = s.actor
        order.append(p)
        if p == last and s.hand[p][SNITCH]:
            act(rules, s, codec.SNITCH + codec.pair_index(1, 2))
        else:
            act(rules, s, codec.PASS)
    # the two who passed before the card are asked again; the player without cards is skipped
    assert order == [f, (f + 1) % 3, last, f, (f + 1) % 3]


def test_players_without_cards_are_not_asked():
    rules, s = in_investigation(4, 3, [(2, SNITCH)])
    assert s.actor == 2 and s.phase == CARDS
    act(rules, s, codec.PASS)
    assert s.phase != CARDS


def test_no_cards_no_card_round():
    rules, s = in_investigation(4, 4)
    assert s.phase != CARDS


def test_deep_merde_gives_black_dice_for_the_rest_of_the_game_and_one_corruption_per_contract():
    rules, s = in_investigation(4, 5, [(0, DEEP_MERDE), (0, DEEP_MERDE)])
    while s.actor != 0:
        act(rules, s, codec.PASS)
    target = 2
    before = corruption_of(s, target)
    act(rules, s, codec.DEEP_MERDE + offset(s, 0, target) - 1)
    assert s.merde[target] and corruption_of(s, target) == before + len(contracts_of(s, target))
    # Extra Clarification: a second Deep Merde adds Corruption again
    while s.actor != 0:
        act(rules, s, codec.PASS)
    act(rules, s, codec.DEEP_MERDE + offset(s, 0, target) - 1)
    assert corruption_of(s, target) == before + 2 * len(contracts_of(s, target))
    pass_cards(rules, s)
    pay_fixed(rules, s)
    for _ in range(3):
        finish_turn(rules, s)
    assert s.merde[target]  # lasts for the rest of the game


def test_faq_deep_merde_and_red_alert_dice_effects_remain_for_the_rest_of_the_game():
    rules, s = in_investigation(4, 6, [(1, RED_ALERT)])
    act(rules, s, codec.RED_ALERT + offset(s, 1, 3) - 1)
    assert s.red[1] and s.red[3]  # "You must do the same"
    pass_cards(rules, s)
    pay_fixed(rules, s)
    while s.phase != 5:
        finish_turn(rules, s)
    assert s.red[1] and s.red[3] and not s.red[0] and not s.red[2]


def test_la_greve_does_nothing():
    rules, s = in_investigation(4, 7, [(0, LA_GREVE), (1, LA_GREVE)])  # seat 1's card keeps the round on
    while s.actor != 0:
        act(rules, s, codec.PASS)
    t = s.copy()
    act(rules, s, codec.LA_GREVE)
    assert s.corruption == t.corruption and s.cash == t.cash and s.merde == t.merde
    assert s.red == t.red and s.discard[LA_GREVE] == 1 and s.hand[0][LA_GREVE] == 0


def test_revenue_quebec_counts_two_players_money_and_adds_corruption_to_their_contracts():
    rules, s = in_investigation(4, 8, [(0, REVENUE_QUEBEC), (3, LA_GREVE)])  # the round goes on after it
    while s.actor != 0:
        act(rules, s, codec.PASS)
    s.cash[1] += 7  # money the table does not know about
    before = [corruption_of(s, p) for p in range(4)]
    layout = rules.observation_layout
    cash_col = SEAT_FEATURES.index("cash_known")
    act(rules, s, codec.REVENUE_QUEBEC + codec.pair_index(1, 2))
    seats = layout.view(rules.observe(s, 3), "seats")  # seat 3 sees seats 1, 2 at rows 2, 3
    assert seats[2, cash_col] == pytest.approx(s.cash[1] / MONEY_SCALE)
    assert seats[3, cash_col] == pytest.approx(s.cash[2] / MONEY_SCALE)
    assert s.revealed[1] == s.cash[1] and s.revealed[2] == s.cash[2]
    for p in range(4):
        assert corruption_of(s, p) == before[p] + (1 if p in (1, 2) else 0)


def test_stooleur_snitch_adds_one_corruption_to_each_contract_of_two_players():
    rules, s = in_investigation(5, 9, [(3, SNITCH), (3, LA_GREVE)])
    while s.actor != 3:
        act(rules, s, codec.PASS)
    before = [corruption_of(s, p) for p in range(5)]
    act(rules, s, codec.SNITCH + codec.pair_index(1, 3))  # seats 4 and 1
    for p in range(5):
        assert corruption_of(s, p) == before[p] + (1 if p in (4, 1) else 0)
    targets = {a for a in legal(rules, s)} if s.phase == CARDS else set()
    assert not any(codec.SNITCH <= a < codec.PAY_FIXED for a in targets)


def test_two_target_cards_name_two_different_opponents():
    rules, s = in_investigation(3, 10, [(0, SNITCH), (0, REVENUE_QUEBEC)])
    while s.actor != 0:
        act(rules, s, codec.PASS)
    moves = legal(rules, s)
    both = codec.pair_index(1, 2)
    assert {a for a in moves if codec.SNITCH <= a < codec.PAY_FIXED} == {codec.SNITCH + both}
    assert {a for a in moves if codec.REVENUE_QUEBEC <= a < codec.SPIC_N_SPAN} == {
        codec.REVENUE_QUEBEC + codec.pair_index(1, 2)}


def test_spic_n_span_removes_four_corruption_from_any_contract():
    rules, s = in_investigation(4, 11, [(0, SPIC_N_SPAN), (0, SPIC_N_SPAN), (0, LA_GREVE)])
    while s.actor != 0:
        act(rules, s, codec.PASS)
    c = contracts_of(s, 2)[0]
    s.corruption[c] = 6
    act(rules, s, codec.SPIC_N_SPAN + c)
    assert s.corruption[c] == 2
    while s.actor != 0:
        act(rules, s, codec.PASS)
    act(rules, s, codec.SPIC_N_SPAN + c)
    assert s.corruption[c] == 0  # never below zero
    assert codec.SPIC_N_SPAN + c not in legal(rules, s)


def test_cut_and_paste_swaps_itself_for_a_random_card_of_the_target():
    taken = set()
    for seed in range(12):
        rules, s = in_investigation(4, seed, [(0, CUT_AND_PASTE), (2, SNITCH), (2, LA_GREVE)])
        while s.actor != 0:
            act(rules, s, codec.PASS)
        act(rules, s, codec.CUT_AND_PASTE + offset(s, 0, 2) - 1)
        assert s.hand[2][CUT_AND_PASTE] == 1 and s.hand[0][CUT_AND_PASTE] == 0
        assert sum(s.hand[0]) == 1 and sum(s.hand[2]) == 2
        got = next(t for t in range(8) if s.hand[0][t])
        taken.add(got)
        # the target knows what it lost; everybody sees where the Cut & Paste went
        assert s.known[2][0][got] == 1 and s.known[1][2][CUT_AND_PASTE] == 1
        # Extra Clarification: the target cannot dodge by playing its cards first: it is immediate
    assert taken == {SNITCH, LA_GREVE}


def test_cut_and_paste_can_be_played_only_once_each_turn():
    rules, s = in_investigation(3, 12, [(0, CUT_AND_PASTE), (1, SNITCH), (1, SNITCH)])
    while s.actor != 0:
        act(rules, s, codec.PASS)
    act(rules, s, codec.CUT_AND_PASTE + offset(s, 0, 1) - 1)
    while s.phase == CARDS and s.actor != 1:
        act(rules, s, codec.PASS)
    assert s.hand[1][CUT_AND_PASTE] == 1
    assert not any(codec.CUT_AND_PASTE <= a < codec.DEEP_MERDE for a in legal(rules, s))


def test_cut_and_paste_needs_a_target_with_cards():
    rules, s = in_investigation(3, 13, [(0, CUT_AND_PASTE)])
    assert s.phase == CARDS and s.actor == 0
    assert legal(rules, s) == {codec.PASS}  # nobody else holds a card: nothing to take


def test_dice_faces_white_1_black_2_red_3_logos_of_6():
    assert LOGO_FACES == (1, 2, 3)
    rules, s = fresh(3, 14, red_alert="all_dice")
    c = contracts_of(s, 0)[0]
    s.corruption[c] = 6000
    for colour, (merde, red) in enumerate(((False, False), (True, False), (False, True))):
        s.merde[0], s.red[0] = merde, red
        dice, reds, logos = rules.roll_dice(s, 0)
        assert dice == 6000 and reds == (6000 if red else 0)
        p = LOGO_FACES[colour] / 6
        assert abs(logos - 6000 * p) < 5 * np.sqrt(6000 * p * (1 - p)), colour


def test_one_die_per_corruption_token_on_a_players_contracts():
    rules, s = fresh(3, 15)
    for c in contracts_of(s, 0):
        s.corruption[c] = 0
    assert rules.roll_dice(s, 0) == (0, 0, 0)  # no Corruption, no dice
    c = contracts_of(s, 0)[0]
    s.corruption[c] = 7
    dice, red, logos = rules.roll_dice(s, 0)
    assert dice == 7 and red == 0 and 0 <= logos <= 7


def test_red_alert_per_contract_makes_as_many_dice_red_as_contracts_owned():
    rules, s = fresh(3, 16, red_alert="per_contract")
    c = contracts_of(s, 0)[0]
    s.corruption[c] = 4
    s.red[0] = True
    assert rules.roll_dice(s, 0)[:2] == (4, 1)  # one contract: one red die, three white
    s.merde[0] = True
    hits = sum(rules.roll_dice(s, 0)[2] for _ in range(3000))
    p = 3 / 6 + 3 * 2 / 6  # one red die and three black ones
    assert abs(hits - 3000 * p) < 5 * np.sqrt(3000 * 1.2)


def test_red_alert_all_dice_option_makes_every_die_red():
    rules, s = fresh(3, 16, red_alert="all_dice")
    c = contracts_of(s, 0)[0]
    s.corruption[c] = 4
    s.red[0] = True
    assert rules.roll_dice(s, 0)[:2] == (4, 4)


def test_logo_cost_by_year_50k_80k_120k():
    assert LOGO_COST == (5, 5, 8, 8, 12, 12, 12)


def at_payment(seat, logos, cash, seed=17):
    """A game in which `seat` must pay for `logos` with `cash` ($10k units) in 1994."""
    rules, s = fresh(4, seed)
    pass_placing(rules, s)
    money.income(s, seat, cash - s.cash[seat])
    s.investigated = True
    s.phase, s.payments_left, s.actor = PAY, [seat], seat
    s.logos[seat] = logos
    return rules, s


def test_example_three_logos_cost_three_times_the_amount():
    rules, s = at_payment(1, 3, 40)
    act(rules, s, codec.PAY_FIXED)
    assert (PAYMENT, 1, 3 * LOGO_COST[0], 15) in s.ledger


def test_a_payment_takes_what_there_is_and_cash_never_goes_below_zero():
    rules, s = at_payment(1, 5, 10)
    act(rules, s, codec.PAY_FIXED)
    assert (PAYMENT, 1, 25, 10) in s.ledger and min(s.cash) >= 0


def test_paying_10_percent_of_cash_per_logo_reveals_the_cash():
    rules, s = at_payment(1, 2, 57)
    layout = rules.observation_layout
    col = SEAT_FEATURES.index("cash_known")
    s.cash[1] += 3  # as if a secret gift reached seat 1: the table does not know it
    s.cash[2] -= 3
    hidden = layout.view(rules.observe(s, 0), "seats")[1, col]
    assert hidden == pytest.approx(57 / MONEY_SCALE)
    s.cash[1] -= 3
    s.cash[2] += 3
    act(rules, s, codec.PAY_PERCENT)
    assert (REVEAL, 1, 57, 0) in s.ledger
    assert (PAYMENT, 1, 57 * 2 // 10, 11) in s.ledger  # 20% of $570k rounded down: $110k
    paid = s.ledger.index((PAYMENT, 1, 11, 11))
    assert s.ledger[paid - 1] == (REVEAL, 1, 57, 0)


def test_the_revealed_cash_shows_in_every_observation():
    rules, s = at_payment(1, 2, 57)
    act(rules, s, codec.PAY_PERCENT)
    # the game moved on to 1998; seat 1's cash is known to all from the reveal and public income
    col = SEAT_FEATURES.index("cash_known")
    for observer in range(4):
        row = (1 - observer) % 4
        seen = rules.observation_layout.view(rules.observe(s, observer), "seats")[row, col]
        assert seen == pytest.approx(s.cash[1] / MONEY_SCALE)
    assert s.paid_percent[1]


def test_the_choice_comes_after_the_roll_and_only_with_logos():
    rules, s = fresh(4, 19)
    for c in range(18):
        if s.owner[c] >= 0:
            s.corruption[c] = 30
    to_investigation(rules, s)
    assert s.phase == PAY
    assert all(s.logos[p] > 0 for p in s.payments_left)
    assert legal(rules, s) == {codec.PAY_FIXED, codec.PAY_PERCENT}
    order = []
    while s.phase == PAY:
        order.append(s.actor)
        act(rules, s, codec.PAY_FIXED)
    f = s.first
    assert order == [p for p in [(f + k) % 4 for k in range(4)] if p in order]


def test_corruption_stays_on_contracts_after_the_roll():
    rules, s = fresh(4, 20)
    for c in range(18):
        if s.owner[c] >= 0:
            s.corruption[c] = 5
    to_investigation(rules, s)
    assert s.phase == PAY
    pay_fixed(rules, s)
    # nothing was completed; 1998 added one more to each old contract (6) and dealt new ones (1)
    assert s.turn == 1
    assert sorted(s.corruption[c] for c in range(18) if s.owner[c] >= 0) == [1] * 4 + [6] * 4


def test_faq_no_preemptive_rolling_cards_come_before_the_dice():
    rules, s = in_investigation(4, 21, [(3, SNITCH)])
    assert s.phase == CARDS and s.logos == [0, 0, 0, 0]  # nobody has rolled while cards may come
    act(rules, s, codec.PASS)
    assert s.phase != CARDS  # the roll started; no card can be played any more


def test_big_papa_is_not_an_investigation_card():
    rules, s = in_investigation(4, 22, [(0, BIG_PAPA)])
    assert s.phase == CARDS and s.actor == 0
    assert legal(rules, s) == {codec.PASS}


def test_the_card_round_order_never_gives_a_hand_away():
    """Whoever holds a card is asked, playable or not: the table sees only who holds cards."""
    orders = []
    for card in (BIG_PAPA, SNITCH):
        rules, s = in_investigation(4, 27, [(1, card), (3, LA_GREVE)])
        seen = []
        while s.phase == CARDS:
            seen.append(s.actor)
            act(rules, s, codec.PASS)
        orders.append(seen)
    assert orders[0] == orders[1] and sorted(orders[0]) == [1, 3]


def test_faq_multiple_deep_merde_cards_add_corruption_each_time():
    rules, s = in_investigation(3, 23, [(0, DEEP_MERDE), (0, DEEP_MERDE), (0, LA_GREVE)])
    while s.actor != 0:
        act(rules, s, codec.PASS)
    before = corruption_of(s, 1)
    act(rules, s, codec.DEEP_MERDE + offset(s, 0, 1) - 1)
    while s.actor != 0:
        act(rules, s, codec.PASS)
    act(rules, s, codec.DEEP_MERDE + offset(s, 0, 1) - 1)
    assert corruption_of(s, 1) == before + 2 * len(contracts_of(s, 1))


def test_faq_card_corruption_remains_until_the_contract_is_completed():
    rules, s = in_investigation(3, 24, [(0, SNITCH), (2, LA_GREVE)])  # seat 2's card: no roll yet
    while s.actor != 0:
        act(rules, s, codec.PASS)
    c = contracts_of(s, 1)[0]
    act(rules, s, codec.SNITCH + codec.pair_index(1, 2))
    added = s.corruption[c]
    assert s.phase == CARDS
    pass_cards(rules, s)
    pay_fixed(rules, s)
    assert s.turn == 1 and s.corruption[c] == added + 1  # kept, plus the 1998 Corruption
    s.workers[c][0] += 2  # completed at the next Extraction: its Corruption goes
    rules._extraction(s)
    assert s.owner[c] == -1 and s.corruption[c] == 0


def test_faq_cut_and_paste_target_cannot_play_cards_to_dodge_it():
    rules, s = in_investigation(3, 25, [(0, CUT_AND_PASTE), (1, SNITCH)])
    while s.actor != 0:
        act(rules, s, codec.PASS)
    act(rules, s, codec.CUT_AND_PASTE + offset(s, 0, 1) - 1)
    # the exchange is done before seat 1 acts again: its Snitch is already gone
    assert s.hand[0][SNITCH] == 1 and s.hand[1] == [0, 1, 0, 0, 0, 0, 0, 0]


def test_faq_players_may_bribe_during_an_investigation_with_the_option():
    rules, s = in_investigation(4, 26, investigation_gifts=True)
    assert s.phase == CARDS  # everyone may still give money, so the round runs
    p = s.actor
    assert codec.ACTIONS.encode("gift", amount=0, seat=1) in legal(rules, s)
    act(rules, s, codec.ACTIONS.encode("gift", amount=0, seat=1))
    assert s.passes == 0 and s.gifts_left[p] == 0
    rules, s = in_investigation(4, 26)
    assert s.phase != CARDS  # the rulings' default: no gifts, no cards, no card round
