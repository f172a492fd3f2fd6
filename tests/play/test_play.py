"""The terminal game, driven through a subprocess with scripted input, for every registered game and a
toy game with an event log (so the generic parts are checked even before any game is registered)."""
from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import corruption_envs
from corruption_envs.play import Console, build_env, main, pick, read_log
from tests.play.eventful_toy import NAME as TOY

REPO = Path(__file__).resolve().parents[2]
# (game spec, opponents): registered games against their heuristic bots, the toy against random ones
TABLES = [pytest.param(g, "heuristic", id=g) for g in corruption_envs.list_games()] + [
    pytest.param(TOY, "random", id="toy")
]
SEED = 5
ALWAYS_FIRST = "1\n" * 5000  # more answers than any game asks for
GAME_OVER = "=== Game over ==="
MOVE_CELL = re.compile(r"(\d+)\. (.+?)(?= {2,}\d+\. |$)")  # one of the columns of a move list


WIDTH = "100"  # terminal width for laying out move lists, fixed so runs compare equal


def run(args: list[str], stdin: str = "", game: str | None = None) -> subprocess.CompletedProcess:
    """The terminal game in a subprocess; for the toy, the entry point that registers it first."""
    cli = "tests.play.toy_cli" if game == TOY else "corruption_envs.play"
    done = subprocess.run(
        [sys.executable, "-m", cli, *args],
        input=stdin, capture_output=True, text=True, cwd=REPO, timeout=120,
        env={**os.environ, "COLUMNS": WIDTH},
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def game_args(game: str, opponents: str, *extra: str) -> list[str]:
    return ["--game", game, "--opponents", opponents, "--seed", str(SEED), *extra]


def first_moves(out: str) -> list[str]:
    """The names in the first move list printed, by their numbers (the list may be in columns)."""
    lines = out.splitlines()
    cells = {}
    for line in lines[lines.index("Your moves:") + 1:]:
        found = MOVE_CELL.findall(line.strip()) if line.startswith("  ") else []
        if not found:
            break
        cells.update((int(k), name) for k, name in found)
    assert sorted(cells) == list(range(1, len(cells) + 1)), cells
    return [cells[k] for k in sorted(cells)]


def replay_env(log: Path):
    """The logged game's env after reset, and the log's records."""
    header, actions, end = read_log(str(log))
    env = build_env(header["game"], header["config"])
    env.reset(seed=header["seed"])
    return env, header, actions, end


@pytest.fixture(scope="module")
def full_games(tmp_path_factory):
    """Per game: (completed process, log path) of a whole game where the human always picks move 1."""
    cache = {}

    def get(game, opponents):
        if game not in cache:
            log = tmp_path_factory.mktemp("logs") / "game.jsonl"
            cache[game] = run(game_args(game, opponents, "--log", str(log)), ALWAYS_FIRST, game), log
        return cache[game]

    return get


# --- a whole game, its log and its replay ------------------------------------------------------------
@pytest.mark.parametrize("game, opponents", TABLES)
def test_full_game_choosing_the_first_move_ends_with_scores_winner_and_reveal(full_games, game, opponents):
    done, _ = full_games(game, opponents)
    assert done.returncode == 0
    end = done.stdout[done.stdout.index(GAME_OVER):]
    assert "Final scores:" in end and re.search(r"^Winners? ?(\(shared\))?: ", end, re.M)
    assert "Everything revealed:" in end
    env = build_env(game, {})
    for agent in env.possible_agents:
        assert re.search(rf"^  {agent} \(.*\) +score +-?\d+ +rank [\d.]+$", end, re.M), agent


@pytest.mark.parametrize("game, opponents", TABLES)
def test_log_has_header_and_every_action_and_the_human_always_chose_move_one(full_games, game, opponents):
    _, log = full_games(game, opponents)
    env, header, actions, end = replay_env(log)
    assert header["game"] == game and header["seed"] == SEED
    assert header["players"] == len(env.possible_agents)
    assert list(header["seats"].values()).count("human") == 1
    assert header["seats"][header["human"]] == "human"
    assert end is not None
    for rec in actions:
        assert rec["agent"] == env.agent_selection
        mask = env.action_mask()
        if rec["agent"] == header["human"]:
            assert rec["index"] == np.flatnonzero(mask)[0]
        assert mask[rec["index"]] and rec["name"] == env.action_name(rec["index"])
        before = len(env.game_state.events)
        env.step(rec["index"])
        public = [t for a, t in env.game_state.events.entries[before:] if a == -1]
        assert rec["events"] == public
    assert all(env.terminations.values())
    keys, scores = env.rules.final_keys(env.game_state), env.rules.scores(env.game_state)
    assert end["winners"] == [a for a, k in zip(env.possible_agents, keys) if k == max(keys)]
    assert list(end["scores"].values()) == scores


@pytest.mark.parametrize("game, opponents", TABLES)
def test_replay_shows_every_step_and_the_same_result(full_games, game, opponents):
    done, log = full_games(game, opponents)
    shown = run(["--replay", str(log)], game=game)
    assert shown.returncode == 0
    _, actions, _ = read_log(str(log))
    steps = re.findall(r"^ *(\d+)\. player_\d+ \(.*?\): ", shown.stdout, re.M)
    assert [int(s) for s in steps] == list(range(1, len(actions) + 1))
    assert shown.stdout[shown.stdout.index(GAME_OVER):] == done.stdout[done.stdout.index(GAME_OVER):]


@pytest.mark.parametrize("game, opponents", TABLES)
def test_replay_from_a_seat_names_only_its_moves_and_shows_only_the_events_it_may_read(
    full_games, game, opponents
):
    _, log = full_games(game, opponents)
    env, header, actions, _ = replay_env(log)
    seat = env.agent_name_mapping[header["human"]]
    shown = run(["--replay", str(log), "--seat", str(seat)], game=game)
    assert shown.returncode == 0 and f"(as player_{seat} saw it)" in shown.stdout
    played = shown.stdout[: shown.stdout.index(GAME_OVER)].splitlines()
    steps = [line for line in played if re.match(r"^ *\d+\. player_\d+ ", line)]
    assert len(steps) == len(actions)
    for line, rec in zip(steps, actions):
        if rec["agent"] == header["human"]:
            assert line.endswith(f"(you): {rec['name']}")
        else:
            assert line.endswith(")"), f"another seat's move is named: {line}"
        env.step(rec["index"])
    mine = [t for a, t in env.game_state.events if a in (-1, seat)]
    assert [line[6:] for line in played if line.startswith("      ")] == mine


def run_here(args: list[str], stdin: str = "") -> tuple[int, str]:
    """Exit status and output of the terminal game run in this process (cheaper than a subprocess)."""
    out = io.StringIO()
    return main(args, Console(io.StringIO(stdin), out)), out.getvalue()


@pytest.mark.parametrize("game, opponents", TABLES)
def test_same_seed_and_same_moves_replay_the_same_game(full_games, game, opponents, monkeypatch):
    done, _ = full_games(game, opponents)
    monkeypatch.setenv("COLUMNS", WIDTH)
    assert run_here(game_args(game, opponents), ALWAYS_FIRST) == (0, done.stdout)


@pytest.mark.parametrize("game, opponents", TABLES)
def test_replay_rejects_a_logged_move_that_is_not_legal(full_games, game, opponents, tmp_path, capsys):
    _, log = full_games(game, opponents)
    env, _, actions, _ = replay_env(log)
    illegal = np.flatnonzero(env.action_mask() == 0)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    first = next(r for r in records if r["type"] == "action")
    first["index"] = int(illegal[0]) if illegal.size else env.num_actions
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in records))
    status, out = run_here(["--replay", str(bad)])
    assert status == 2 and out == ""  # refused before any step is shown
    err = capsys.readouterr().err
    assert "step 1: " in err and "is not legal in the replayed game" in err and err.count("\n") == 1


@pytest.mark.parametrize("game, opponents", TABLES)
def test_human_sees_public_and_own_events_but_no_other_seats_private_ones(full_games, game, opponents):
    done, log = full_games(game, opponents)
    env, header, actions, _ = replay_env(log)
    for rec in actions:
        env.step(rec["index"])
    seat = env.agent_name_mapping[header["human"]]
    events = env.game_state.events
    assert events, "a game played with record_events=True logged no events"
    mine = {t for a, t in events if a in (-1, seat)}
    others = {t for a, t in events if a not in (-1, seat)} - mine
    played = done.stdout[: done.stdout.index(GAME_OVER)]
    shown = {line[2:] for line in played.splitlines() if line.startswith("  ")}
    assert not others & shown
    # every event the human may see is shown once it happened (the last ones after the final move)
    assert mine <= {line[2:] for line in done.stdout.splitlines() if line.startswith("  ")}


# --- talking to the player -----------------------------------------------------------------------------
def common_fragment(names: list[str]) -> str | None:
    """A text found in two or more names and equal to none of them (so it is ambiguous)."""
    lowered = [n.lower() for n in names]
    for size in range(max(map(len, names), default=0), 0, -1):
        for name in lowered:
            for i in range(len(name) - size + 1):
                frag = name[i:i + size]
                if (frag.strip() == frag and frag and not frag.isdigit() and frag not in lowered
                        and frag.strip() not in ("q", "?", "quit", "exit", "help")
                        and sum(frag in n for n in lowered) >= 2):
                    return frag
    return None


def unique_fragment(names: list[str]) -> tuple[int, str] | None:
    """(position, text) of a short text found in exactly one name."""
    lowered = [n.lower() for n in names]
    for size in range(3, max(map(len, names), default=0) + 1):
        for k, name in enumerate(lowered):
            for i in range(len(name) - size + 1):
                frag = name[i:i + size]
                if frag.strip() == frag and not frag.isdigit() and sum(frag in n for n in lowered) == 1:
                    return k, frag
    return None


@pytest.fixture(scope="module")
def opening_moves(full_games):
    """The human's first move list: the same in every run with SEED, whatever the human then types."""
    return lambda game, opponents: first_moves(full_games(game, opponents)[0].stdout)


@pytest.mark.parametrize("game, opponents", TABLES)
def test_bad_input_gets_a_message_and_the_prompt_again_then_q_quits(opening_moves, game, opponents, tmp_path):
    names = opening_moves(game, opponents)
    ambiguous = common_fragment(names)
    assert ambiguous is not None, f"no two opening moves share a text: {names}"
    log = tmp_path / "quit.jsonl"
    script = f"{len(names) + 1}\n0\nzz#qx%\n{ambiguous}\n\n?\nq\n"
    done = run(game_args(game, opponents, "--log", str(log)), script, game)
    out = done.stdout
    assert done.returncode == 0
    assert f"there is no move {len(names) + 1}: choose a number from 1 to {len(names)}" in out
    assert "there is no move 0" in out
    assert "no legal move matches 'zz#qx%'" in out
    assert f"{ambiguous!r} is ambiguous: it matches" in out
    assert out.count("Your moves:") == 2  # the view, and again for '?'
    assert out.rstrip().endswith("You left the game before the end.")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    human = records[0]["human"]
    assert not [r for r in records if r["type"] == "action" and r["agent"] == human]
    assert records[-1] == {"type": "quit", "agent": human}


@pytest.mark.parametrize("game, opponents", TABLES)
def test_an_unambiguous_part_of_a_name_in_any_case_plays_that_move(opening_moves, game, opponents, tmp_path):
    names = opening_moves(game, opponents)
    k, frag = unique_fragment(names)
    log = tmp_path / "one.jsonl"
    run(game_args(game, opponents, "--log", str(log)), f"{frag.upper()}\nq\n", game)
    header, actions, _ = read_log(str(log))
    mine = [r for r in actions if r["agent"] == header["human"]]
    assert [r["name"] for r in mine] == [names[k]]


@pytest.mark.parametrize("stdin", ["", "1\n"], ids=["at-once", "after-a-move"])
def test_end_of_input_quits_cleanly(stdin):
    done = run(game_args(TOY, "random"), stdin, TOY)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.rstrip().endswith("You left the game before the end.")


def test_an_exact_name_wins_over_names_that_contain_it():
    moves = [(4, "raise"), (9, "raise twice"), (11, "check")]
    assert pick("Raise", moves) == 4
    assert pick("TWICE", moves) == 9
    assert pick("3", moves) == 11
    with pytest.raises(ValueError, match="ambiguous: it matches 2 moves"):
        pick("rai", moves)


def test_each_opponent_can_be_given_per_seat_and_the_seat_is_yours():
    done = run(["--game", TOY, "--players", "4", "--seat", "2", "--opponents", "random", "random,random"],
               game=TOY)
    assert "Seats: player_0 (random), player_1 (random), player_2 (you), player_3 (random)" in done.stdout
    assert "--- your turn, player_2 ---" in done.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--opponents", "random", "random", "random"], "--opponents takes one spec for all or 2"),
        (["--opponents", "random", "--seat", "3"], "--seat 3 is not a seat of a 3-player game"),
        (["--opponents", "nonsense"], "cannot build opponent 'nonsense' for player_1"),
        (["--opponents", "random", "--config", "num_rounds=9"], "num_rounds=9 is not allowed"),
        (["--opponents", "random", "--config", "oops"], "is not KEY=VALUE"),
        (["--opponents", "random", "--seed", "-3"], "--seed -3 is negative"),
        (["--replay", "/nonexistent/game.jsonl"], "No such file"),
    ],
    ids=["opponent-count", "seat", "opponent-spec", "config-value", "config-form", "seed", "replay-file"],
)
def test_bad_arguments_exit_2_with_a_message_naming_the_fix(args, message, capsys):
    assert main(["--game", TOY, *args], Console(io.StringIO(), io.StringIO())) == 2
    assert message in capsys.readouterr().err


def test_unknown_game_names_the_installed_ones(capsys):
    assert main(["--game", "chess"], Console(io.StringIO(), io.StringIO())) == 2
    assert "unknown or not installed game 'chess'" in capsys.readouterr().err


def test_a_module_path_as_game_is_refused_without_importing_it(tmp_path):
    (tmp_path / "planted.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\nE = None\n")
    done = subprocess.run(
        [sys.executable, "-m", "corruption_envs.play", "--game", "planted:E"], capture_output=True,
        text=True, cwd=REPO, timeout=60, env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode == 2 and "unknown or not installed game 'planted:E'" in done.stderr
    assert not (tmp_path / "ran").exists()


def test_register_refuses_a_name_taken_by_another_game_and_a_name_that_is_not_one():
    from tests.play.eventful_toy import GAME

    with pytest.raises(ValueError, match="'corruption' is already registered \\(Corruption .*\\); pick another"):
        corruption_envs.register(dataclasses.replace(GAME, name="corruption"))
    with pytest.raises(ValueError, match="must be an identifier"):
        dataclasses.replace(GAME, name="a:b")
    corruption_envs.register(corruption_envs.get_game("corruption"))  # the same again is fine


def test_replay_step_by_step_waits_shows_the_table_on_question_mark_and_stops_on_q(full_games):
    _, log = full_games(TOY, "random")
    shown = run(["--replay", str(log), "--step"], "\n?\nq\n", TOY)
    assert shown.returncode == 0
    assert re.findall(r"^ *(\d+)\. ", shown.stdout, re.M) == ["1", "2"]
    assert re.search(r"^cards \[\d, \d, \d\] chips", shown.stdout, re.M)  # the whole table, no '?'
    assert GAME_OVER not in shown.stdout


def test_replay_from_a_seat_shows_that_seats_table_on_question_mark(full_games):
    _, log = full_games(TOY, "random")
    shown = run(["--replay", str(log), "--step", "--seat", "1"], "\n?\nq\n", TOY)
    assert shown.returncode == 0
    assert re.search(r"^cards \['\?', \d, '\?'\] chips", shown.stdout, re.M)  # player_1's own card only


def test_replay_from_a_seat_that_is_not_in_the_game_is_refused(full_games, capsys):
    _, log = full_games(TOY, "random")
    assert main(["--replay", str(log), "--seat", "7"], Console(io.StringIO(), io.StringIO())) == 2
    assert "--seat 7 is not a seat of this 3-player game (0..2)" in capsys.readouterr().err


def test_replay_of_a_file_that_is_not_a_log_is_refused(tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"type": "action"}\n')
    done = run(["--replay", str(bad)])
    assert done.returncode == 2 and "does not start with a header line" in done.stderr


def toy_policy(path: Path, game: str = "eventful_toy") -> Path:
    """A small exported policy file for the toy (random weights: only loading and acting matter)."""
    from corruption_envs.policy import NumpyPolicy

    env = build_env(TOY, {})
    rng = np.random.default_rng(0)
    obs, actions = env.observation_layout.size, env.num_actions
    meta = {"game": game, "game_version": 0, "min_players": 2, "max_players": 4}
    layer = (rng.normal(size=(obs, 8)), np.zeros(8))
    head = (rng.normal(size=(8, actions)), np.zeros(actions))
    return NumpyPolicy([layer], head, "tanh", meta).save(path)


def test_a_policy_file_can_sit_in_one_seat_beside_another_kind_of_bot(tmp_path):
    policy = toy_policy(tmp_path / "toy.npz")
    done = run(["--game", TOY, "--seed", "1", "--opponents", f"random,{policy}"], ALWAYS_FIRST, TOY)
    assert done.returncode == 0
    assert f"player_1 (random), player_2 ({policy})" in done.stdout
    assert GAME_OVER in done.stdout


def test_a_policy_file_for_another_game_is_refused_with_the_reason(tmp_path, capsys):
    policy = toy_policy(tmp_path / "other.npz", game="corruption")
    assert main(["--game", TOY, "--opponents", str(policy)], Console(io.StringIO(), io.StringIO())) == 2
    assert "was trained for game 'corruption', not 'eventful_toy'" in capsys.readouterr().err


def test_a_bot_choosing_an_illegal_move_stops_the_game_with_exit_1(monkeypatch, capsys):
    class Cheat:
        def act(self, observation, action_mask):
            return len(action_mask)

    monkeypatch.setattr("corruption_envs.play.make_agent", lambda spec, env, seed: Cheat())
    script = Console(io.StringIO("1\n" * 50), io.StringIO())
    assert main(["--game", TOY, "--opponents", "random", "--seed", "0"], script) == 1
    assert "player_1 (random) chose the illegal action 2" in capsys.readouterr().err


@pytest.mark.parametrize("stop", [KeyboardInterrupt, "illegal"], ids=["ctrl-c", "illegal-bot-move"])
def test_a_game_stopped_during_a_bots_turn_leaves_a_log_that_replays(stop, monkeypatch, tmp_path, capsys):
    class Stopper:
        def act(self, observation, action_mask):
            if stop == "illegal":
                return len(action_mask)
            raise stop

    monkeypatch.setattr("corruption_envs.play.make_agent", lambda spec, env, seed: Stopper())
    log = tmp_path / "stopped.jsonl"
    script = Console(io.StringIO("1\n" * 50), io.StringIO())
    assert main(["--game", TOY, "--opponents", "random", "--seed", "0", "--log", str(log)], script) in (1, 130)
    capsys.readouterr()
    assert json.loads(log.read_text().splitlines()[-1])["type"] == "quit"
    assert main(["--replay", str(log)], Console(io.StringIO(), io.StringIO())) == 0
