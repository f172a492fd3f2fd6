"""Tianshou's recipe (docs/recipes/tianshou_dqn.py), in its own venv: tianshou requires pandas<3 and numba,
so it is not installed beside ray[rllib]. Not part of the default `python -m pytest` (pyproject's
norecursedirs); run it as README's "Use it from your RL library" says:

    python -m venv .venv-tianshou && .venv-tianshou/bin/pip install torch==2.13.0
    .venv-tianshou/bin/pip install tianshou pytest -e . && .venv-tianshou/bin/python -m pytest tests/optional
"""
import importlib.util
import re

from tests.test_recipes import run_recipe


def test_tianshou_dqn_recipe_trains_and_plays_a_greedy_game_of_legal_moves():
    assert importlib.util.find_spec("tianshou"), (
        "tianshou is not installed in this interpreter: run this test with .venv-tianshou/bin/python "
        "(README, 'Use it from your RL library')")
    out = run_recipe("tianshou_dqn.py", "--steps", "400")
    assert re.search(r"trained 400 env steps \(\d+ games\), [1-9]\d* updates", out), out
    assert re.search(r"greedy game: \d+ legal moves, final rewards \{'player_0'", out), out
