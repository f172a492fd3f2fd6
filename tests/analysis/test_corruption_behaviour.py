"""The behaviour table of a Corruption policy: its counts add up to the rules' six placements a round."""
import pytest

from analysis import corruption_behaviour as cb


def test_every_player_places_six_cards_a_round_on_contracts_or_swiss_accounts():
    result = cb.tally("heuristic", "random", games=8, seed=3, greedy=False)
    c = result["counts"]
    for who, players in (("me", 8), ("field", 24)):
        for r in range(4):
            assert c[who, r, "on contracts"] + c[who, r, "Swiss"] == 6 * players
            assert sum(c[who, r, k] for k in cb.KIND_NAMES) == c[who, r, "on contracts"]
    assert 0 <= result["win_rate"] <= 1
    assert "round 4: on contracts" in cb.report(result, "heuristic", "random")


@pytest.mark.parametrize("args, says", [
    (["--games", "0"], "--games 0 is not allowed"),
    (["--field", "nope"], "unknown agent 'nope'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, says):
    base = {"--policy": "heuristic", "--field": "random", "--games": "2"}
    given = dict(zip(args[::2], args[1::2]))
    assert cb.main([x for k, v in {**base, **given}.items() for x in (k, v)]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
