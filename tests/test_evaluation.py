"""corruption_envs.evaluation: the evaluated agent alone against bots, and the other way round."""
import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.evaluation import evaluate
from corruption_envs import get_game


def test_reverse_counts_the_lone_bots_wins_against_copies_of_the_agent():
    env = corruption_envs.env("corruption", num_players=4)
    weak = make_agent("random", env, seed=3)
    forward = evaluate(weak, get_game("corruption"), "expert", 80, 4, seed=5)
    reverse = evaluate(weak, get_game("corruption"), "expert", 80, 4, seed=5, reverse=True)
    assert not forward.reverse and reverse.reverse and reverse.as_dict()["reverse"] is True
    assert forward.interval[1] < 0.2  # random alone against three experts
    assert reverse.interval[0] > 0.6  # one expert against three random copies

