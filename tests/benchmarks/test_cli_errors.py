"""The tournament, gate and learner_speed command lines: bad input is one line on stderr and exit 2, before
any game."""
import numpy as np
import pytest

from benchmarks import gate, learner_speed, tournament
from tests.benchmarks.toy_agents import RAISE, TOY, toy_policy
from tests.crafted import Payload, one_line_error


@pytest.fixture
def files(tmp_path):
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"PK\x03\x04 half a zip")
    pickled = tmp_path / "pickled.npz"
    with open(pickled, "wb") as f:
        np.savez(f, meta=np.array([Payload(tmp_path / "pwned")], dtype=object))
    return {"GARBAGE": str(garbage), "PICKLED": str(pickled)}


@pytest.mark.parametrize("args, message", [
    (["--game", "chess", "--agents", "random"], "unknown game 'chess'; choose one of"),
    (["--game", "corruption", "--agents", "random", "GARBAGE"], "is corrupt or not a policy .npz"),
    (["--game", "corruption", "--agents", "PICKLED", "random"], "PolicyFileError: policy file"),
    (["--game", "corruption", "--agents", "random", "nobody"], "unknown agent 'nobody'"),
    (["--game", TOY, "--players", "9", "--agents", "random"], "num_players"),
    (["--game", TOY, "--players", "three", "--agents", "random"], "--players three: give player counts as integers"),
])
def test_tournament_reports_bad_input_in_one_line(files, tmp_path, capsys, args, message):
    args = [files.get(a, a) for a in args]
    assert tournament.main([*args, "--games", "4", "--no-progress", "--out", str(tmp_path / "out")]) == 2
    assert "win rate" not in one_line_error(capsys, message)  # no game was played
    assert not (tmp_path / "out").exists() and not (tmp_path / "pwned").exists()


def test_gate_refuses_an_unknown_game_instead_of_skipping_it(capsys):
    assert gate.main(["--games", "chess"]) == 2
    one_line_error(capsys, "--games chess", "unknown game 'chess'")


def test_gate_reports_an_unknown_field_bot_as_an_error_before_playing(tmp_path, capsys):
    toy_policy(tmp_path / TOY / "champion.npz", RAISE)
    candidate = toy_policy(tmp_path / "candidate.npz", RAISE)
    assert gate.main(["--games", TOY, "--policies", str(tmp_path), "--candidate", str(candidate),
                      "--field", "champ", "--deals", "2", "--workers", "1"]) == 2
    lines = [line for line in capsys.readouterr().out.splitlines() if "--field champ:" in line]
    assert len(lines) == 1 and lines[0].startswith("ERROR") and "unknown agent 'champ'" in lines[0]


@pytest.mark.parametrize("args, message", [
    (["--game", "corruption", "--set", "ppo.n_epoch=2"], "unknown config key 'ppo.n_epoch'"),
    (["--game", "corruption", "--set", "ppo.batch_size=300"], "batch_size=300 must divide"),
])
def test_learner_speed_checks_its_overrides_before_timing(capsys, args, message):
    assert learner_speed.main(args) == 2
    assert "|" not in one_line_error(capsys, message)  # no table was started
