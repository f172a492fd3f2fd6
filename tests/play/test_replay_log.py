"""A replay log is untrusted data: whatever it holds, `--replay` imports nothing it names and either shows
a whole, true log or refuses it with one line naming the problem and the fix, exit status 2."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corruption_envs.play import Console, main
from tests.play.eventful_toy import NAME as TOY


def replay(path: Path) -> tuple[int, str, str]:
    """Exit status, output and error output of `--replay path`, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["--replay", str(path)], Console(io.StringIO(), out))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def good_log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "good.jsonl"
    args = ["--game", TOY, "--opponents", "random", "--seed", "3", "--log", str(path)]
    assert main(args, Console(io.StringIO("1\n" * 50), io.StringIO())) == 0
    return path


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write(tmp_path: Path, recs: list, name: str = "bad.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def assert_refused(path: Path, message: str) -> None:
    status, out, err = replay(path)
    assert status == 2, (status, out, err)
    assert out == "", "a refused log showed steps"
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err, err


def test_the_good_log_replays(good_log):
    status, out, err = replay(good_log)
    assert status == 0 and err == "" and "=== Game over ===" in out


def header_change(key, value):
    return lambda recs: recs[0].__setitem__(key, value)


def set_field(line, key, value):
    return lambda recs: recs[line].__setitem__(key, value)


CASES = {
    "module-path-game": (header_change("game", "tests.play.eventful_toy:EventfulToyEnv"),
                         "names game 'tests.play.eventful_toy:EventfulToyEnv', which is not registered"),
    "unknown-game": (header_change("game", "chess"), "corruption_envs.register(Game(...))"),
    "game-not-text": (header_change("game", ["corruption"]), "field 'game' is ['corruption'], not text"),
    "negative-seed": (header_change("seed", -1), "the header's seed -1 is negative"),
    "string-seed": (header_change("seed", "5"), "field 'seed' is '5', not an integer"),
    "bool-seed": (header_change("seed", True), "field 'seed' is True, not an integer"),
    "float-seed": (header_change("seed", 5.0), "field 'seed' is 5.0, not an integer"),
    "config-list": (header_change("config", [1, 2]), "field 'config' is [1, 2], not an object"),
    "config-null": (header_change("config", None), "field 'config' is None, not an object"),
    "config-unknown-key": (header_change("config", {"bogus": 1}), "unknown key(s) ['bogus']"),
    "config-render-mode": (header_change("config", {"render_mode": "human"}),
                           "unknown key(s) ['render_mode']"),
    "config-self": (header_change("config", {"self": 1}), "unknown key(s) ['self']"),
    "config-nested": (header_change("config", {"num_rounds": [2]}), "holds values that are not a number"),
    "config-bad-value": (header_change("config", {"num_players": "3"}), "num_players='3' is not allowed"),
    "config-number-for-bool": (header_change("config", {"record_events": 0}),
                               "record_events=0 is not allowed"),
    "seats-list": (header_change("seats", ["human"]), "field 'seats' is ['human'], not an object"),
    "seats-missing": (header_change("seats", {"player_0": "human"}), "do not give a text spec for each"),
    "seats-escape": (header_change("seats", {"player_0": "human", "player_1": "\x1b[2J", "player_2": "r"}),
                     "do not give a text spec"),
    "players-text": (header_change("players", "3"), "field 'players' is '3', not an integer"),
    "players-wrong": (header_change("players", 9), "the header says 9 players"),
    "human-not-a-seat": (header_change("human", "player_9"), "the header's human 'player_9' is not one of"),
    "header-lacks-seed": (lambda recs: recs[0].pop("seed"), "the header record lacks ['seed']"),
    "index-text": (set_field(1, "index", "1"), "action field 'index' is '1', not an integer"),
    "index-out-of-range": (set_field(1, "index", 99), "logged move 99"),
    "index-negative": (set_field(1, "index", -1), "logged move -1"),
    "name-escape": (set_field(1, "name", "\x1b]0;x\x07"), "action field 'name'"),
    "events-text": (set_field(1, "events", "x"), "action field 'events' is 'x', not a list"),
    "agent-not-on-turn": (set_field(1, "agent", "player_2"), "step 1 is a move by 'player_2'"),
    "result-edited": (lambda recs: recs[-1]["winners"].append("player_9"), "differs from the replayed one"),
    "second-header": (lambda recs: recs.insert(2, dict(recs[0])),
                      "line 3: the header record may only be the first line"),
    "action-after-end": (lambda recs: recs.append(dict(recs[1])), "the end record may only be the last line"),
    "no-end": (lambda recs: recs.pop(), "ends without an end or quit record"),
    "header-only": (lambda recs: recs.__delitem__(slice(1, None)), "ends without an end or quit record"),
    "unknown-type": (set_field(1, "type", "cheat"), "line 2 is not a log record"),
    "record-is-a-list": (lambda recs: recs.__setitem__(1, [1, 2]), "line 2 is not a log record"),
    "header-is-null": (lambda recs: recs.__setitem__(0, None), "line 1 is not a log record"),
    "starts-with-action": (lambda recs: recs.pop(0), "does not start with a header line"),
    "end-before-game-over": (lambda recs: recs.__delitem__(slice(-3, -1)),
                             "ends with a result before the game"),
}


@pytest.mark.parametrize("change, message", CASES.values(), ids=CASES.keys())
def test_a_malformed_log_is_refused_in_one_line_naming_the_problem(good_log, tmp_path, change, message):
    recs = records(good_log)
    change(recs)
    assert_refused(write(tmp_path, recs), message)


@pytest.mark.parametrize("text, message", [
    (b'{"type": "header", "game": "caf\xe9"}\n', "is not UTF-8 text (byte 0xe9 at offset 31)"),
    (b"", "is empty"),
    (b"\n\n", "is empty"),
    (b"[" * 100_000 + b"]" * 100_000 + b"\n", "line 1 is not JSON"),
    (b'{"type": "header", "seed": ' + b"9" * 5000 + b"}\n", "line 1 is not JSON"),
    (b'{"type": "header", "seed": NaN}\n', "line 1 is not JSON (NaN is not a number a log holds)"),
], ids=["not-utf8", "empty", "blank-lines", "deep-nesting", "huge-int", "nan"])
def test_bytes_that_are_not_a_log_are_refused_in_one_line(tmp_path, text, message):
    path = tmp_path / "bytes.jsonl"
    path.write_bytes(text)
    assert_refused(path, message)


def test_a_log_cut_in_the_middle_of_a_line_is_refused(good_log, tmp_path):
    data = good_log.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: len(data) - 10])
    last = data.count(b"\n")
    assert_refused(cut, f"line {last} is not JSON")


def test_a_logged_game_of_a_module_path_is_not_imported(tmp_path, monkeypatch):
    (tmp_path / "planted_log_game.py").write_text(
        f"open({str(tmp_path / 'ran')!r}, 'w').close()\nE = None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    recs = [{"type": "header", "game": "planted_log_game:E", "players": 3, "seed": 0, "config": {},
             "seats": {}}, {"type": "quit", "agent": "player_0"}]
    assert_refused(write(tmp_path, recs), "which is not registered")
    assert not (tmp_path / "ran").exists()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_json_in_any_field_is_replayed_or_refused_in_one_line(good_log, tmp_path, data):
    recs = records(good_log)
    line = data.draw(st.integers(0, len(recs) - 1), label="line")
    key = data.draw(st.sampled_from(sorted(recs[line]) + ["extra"]), label="field")
    recs[line][key] = data.draw(JSON, label="value")
    status, _, err = replay(write(tmp_path, recs, "fuzz.jsonl"))
    assert status in (0, 2)
    if status == 2:
        assert err.startswith("error: ") and err.count("\n") == 1, err
    else:
        assert err == ""
