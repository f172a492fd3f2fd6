"""The Construction money account: every seat's score is its income, payments, gifts and keys, the
figures are seeded, and bad input is one line (exit 2)."""
import numpy as np
import pytest

from analysis import construction_economy as eco
from corruption_envs.construction.codec import ACTIONS
from corruption_envs.construction.tables import NUM_TURNS, keys_value

GAMES = 12


@pytest.fixture(scope="module")
def random_games():
    # random bots give gifts, get elected and pay investigations: every term of the account moves
    return eco.play(["random"], 4, GAMES, seed=3)


def test_every_score_is_income_minus_payments_plus_gifts_plus_keys(random_games):
    rows = np.array(random_games.rows)
    score, income, paid, gifts, keys = rows.T
    assert np.array_equal(score, income - paid + gifts + np.vectorize(keys_value)(keys))
    assert (gifts != 0).any() and (paid > 0).any() and (keys > 0).any()
    per_game = rows.reshape(GAMES, 4, len(eco.SEAT_FIGURES))
    assert (per_game[:, :, 3].sum(axis=1) == 0).all()  # a gift leaves one seat and reaches another


class Always:
    def __init__(self, action):
        self.action = action

    def act(self, observation, action_mask):
        return self.action


@pytest.mark.parametrize("block, fields, kind", [
    ("place", {"contract": 3}, "placed"), ("gift", {"amount": 1, "seat": 2}, "gave"),
    ("vote", {"seat": 0}, "vote_self"), ("vote", {"seat": 2}, "vote_other"), ("outsider", {}, "vote_outsider"),
    ("pass", {}, None), ("city", {"contract": 1}, None),
])
def test_each_decision_is_counted_under_its_kind(block, fields, kind):
    counted = eco.Counted(Always(ACTIONS.encode(block, **fields)))
    counted.act(None, None)
    assert counted.counts == {name: int(name == kind) for name in eco.DECISIONS}


def test_every_seat_votes_at_most_once_a_turn_and_random_bots_make_every_decision(random_games):
    decisions = np.array(random_games.decisions)
    votes = decisions[:, [eco.DECISIONS.index(k) for k in ("vote_self", "vote_other", "vote_outsider")]]
    assert (votes.sum(axis=1) <= NUM_TURNS).all()
    assert (decisions > 0).any(axis=0).all()
    text = eco.report(random_games, ["random"])
    m = random_games.means("random")
    assert f"| random | {m['placed']:.2f} | {m['gave']:.2f} | {m['vote_self']:.2f} / " in text


def test_each_turn_elects_a_mayor_or_investigates(random_games):
    per_game = np.array(random_games.rows).reshape(GAMES, 4, len(eco.SEAT_FIGURES))
    assert random_games.mayors == per_game[:, :, 4].sum(axis=1).tolist()
    assert all(0 <= m <= NUM_TURNS for m in random_games.mayors)
    text = eco.report(random_games, ["random"])
    mean = np.mean(random_games.mayors)
    assert f"{mean:.2f} mayors elected and {NUM_TURNS - mean:.2f} investigations a game" in text


def test_winners_are_the_seats_with_the_top_score(random_games):
    scores = np.array(random_games.rows)[:, 0].reshape(GAMES, 4)
    won = np.array(random_games.won).reshape(GAMES, 4)
    assert np.array_equal(won, scores == scores.max(axis=1, keepdims=True))
    assert random_games.means(winners=True)["score"] > random_games.means()["score"]


def test_the_same_seed_gives_the_same_figures_and_another_seed_other_ones(random_games):
    assert eco.play(["random"], 4, GAMES, seed=3).rows == random_games.rows
    assert eco.play(["random"], 4, GAMES, seed=4).rows != random_games.rows


def test_the_lineup_is_cycled_over_the_seats():
    mixed = eco.play(["heuristic", "random"], 4, 4, seed=0)
    assert mixed.agents.count("heuristic") == mixed.agents.count("random") == 8
    # the heuristic never gives money away: its gifts net is only ever what it received
    heuristic = [row for a, row in zip(mixed.agents, mixed.rows) if a == "heuristic"]
    assert all(row[3] >= 0 for row in heuristic)
    text = eco.report(mixed, ["heuristic", "random"])
    assert "| heuristic | 8 |" in text and "| random | 8 |" in text


@pytest.mark.parametrize("argv, named", [
    (["--agents", "nope"], "unknown agent 'nope'"),
    (["--agents", "random", "--players", "9"], "num_players"),
])
def test_bad_input_is_one_line_naming_the_problem(capsys, argv, named):
    assert eco.main([*argv, "--games", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and named in err


def test_no_games_is_refused(capsys):
    with pytest.raises(SystemExit):
        eco.main(["--agents", "random", "--games", "0"])
    assert "--games 0: give at least 1 game" in capsys.readouterr().err
