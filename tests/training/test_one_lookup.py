"""A run looks its game's name up once, in its config, and hands the `Game` down to every layer."""
import sys

import pytest

from corruption_envs import game_log, registry
from training.selfplay import main


def name_lookups(argv):
    """The callers of `get_game` with a name during `main(argv)`, leaving out the replay logs the run reads
    back (a name read from a file is looked up where it comes in)."""
    callers = []

    def hook(frame, event, arg):
        if event == "call" and frame.f_code is registry.get_game.__code__ and isinstance(frame.f_locals["game"], str):
            outer = frame.f_back
            while outer is not None and outer.f_code is not game_log.read_log.__code__:
                outer = outer.f_back
            if outer is None:
                callers.append(f"{frame.f_back.f_code.co_filename}:{frame.f_back.f_code.co_name}")

    sys.setprofile(hook)
    try:
        assert main(argv) == 0
    finally:
        sys.setprofile(None)
    return callers


@pytest.mark.parametrize("vec_env", ["dummy", "batched"])
def test_a_run_looks_its_game_up_once(toy_config_file, tmp_path, vec_env):
    argv = ["--config", str(toy_config_file), "--out", str(tmp_path / "run"), "--no-progress",
            "--set", f"run.vec_env={vec_env}"]
    callers = name_lookups(argv)
    assert len(callers) == 1 and callers[0].endswith("config.py:_resolve_game"), callers


def test_the_count_sees_a_layer_that_looks_the_name_up_again(toy_config_file, tmp_path, monkeypatch):
    from training import run_folder

    # the bad case: a layer below the config that turns the name back into a game
    monkeypatch.setattr(run_folder, "save_samples", lambda env, agents, seeds, folder, game, seats:
                        registry.get_game(game) and [])
    callers = name_lookups(["--config", str(toy_config_file), "--out", str(tmp_path / "run"), "--no-progress"])
    assert len(callers) == 2 and callers[1].endswith("test_one_lookup.py:<lambda>"), callers
