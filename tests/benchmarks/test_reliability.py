"""The reliability benchmark: counts what it plays, finds planted faults, replays them, rejects bad input."""
from __future__ import annotations

import dataclasses
import importlib
import re
import shlex
import shutil

import numpy as np
import pytest

from benchmarks.reliability import DEFAULT_POLICIES, KINDS, make_setup, main, plan_game, run
from corruption_envs import registry
from corruption_envs.core.aec import GameEnv
from corruption_envs.policy import read_policy_file


def with_invariants(monkeypatch, game, check):
    """`game` registered with `check` as its invariants while the test runs."""
    monkeypatch.setitem(registry.GAMES, game, dataclasses.replace(registry.GAMES[game], invariants=check))


def table_row(out, game):
    """The summary row of `game` as {column: cell}."""
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("game "))
    names = re.split(r"\s{2,}", lines[head].strip())
    row = next(line for line in lines[head + 2:] if line.split()[0] == game)
    return dict(zip(names, re.split(r"\s{2,}", row.strip())))


def test_a_clean_run_counts_every_game_and_checks_the_invariants_after_every_decision(monkeypatch, capsys):
    calls = {}
    for game in ("corruption", "construction"):
        original = registry.GAMES[game].invariants

        def counted(rules, state, game=game, original=original):
            calls[game] = calls.get(game, 0) + 1
            original(rules, state)

        with_invariants(monkeypatch, game, counted)
    code = main(["--game", "corruption", "construction", "--games", "6", "--workers", "1", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0 and "all games passed every check" in out
    for game in ("corruption", "construction"):
        row = table_row(out, game)
        assert row["games"] == "6" and row["failures"] == "0"
        # one check after each reset and one after each decision
        assert int(row["decisions"].replace(",", "")) == calls[game] - 6 > 6 * 50
        assert int(row["probes"]) > 0 and row["champion at"] == "{min_players}-{max_players}".format(
            **read_policy_file(DEFAULT_POLICIES / game / "champion.npz").meta)


def test_seats_mix_every_kind_and_count_and_the_champion_sits_only_where_it_was_trained(tmp_path):
    # a Construction champion trained for 3-5 of the game's 3-7 players (the committed one covers 3-7)
    (tmp_path / "construction").mkdir()
    shutil.copy(DEFAULT_POLICIES / "construction" / "champion-3to5.npz", tmp_path / "construction" / "champion.npz")
    setup = make_setup("construction", 0, None, tmp_path)
    assert setup.counts == (3, 4, 5, 6, 7) and setup.champion_counts == (3, 4, 5)
    plans = [plan_game(setup, i) for i in range(300)]
    assert {p.num_players for p in plans} == {3, 4, 5, 6, 7}
    assert {k for p in plans for k in p.kinds} == set(KINDS)
    assert all(p.num_players in (3, 4, 5) for p in plans if "champion" in p.kinds)
    assert all(len(p.kinds) == len(p.agent_seeds) == p.num_players for p in plans)
    assert plan_game(setup, 7) == plans[7]  # a game's draw depends on (seed, game, index) alone
    assert plan_game(make_setup("construction", 1, None, tmp_path), 7) != plans[7]


def test_corruptia_with_its_champion_and_results_that_do_not_depend_on_the_workers():
    setup = make_setup("corruptia", 0, [4], DEFAULT_POLICIES)
    one, two = run(setup, 4, workers=1), run(setup, 4, workers=2)
    assert one.games == two.games == 4 and not one.failures and not two.failures
    assert (one.decisions, one.probes) == (two.decisions, two.probes)
    assert one.decisions > 4 * 200


@pytest.mark.parametrize("game", ["corruption", "construction"])
def test_games_played_in_one_process_equal_each_game_played_alone(game):
    # reused bots are reseeded per game, so a run splits into chunks (--start) without changing a game
    setup = make_setup(game, 5, None, DEFAULT_POLICIES)
    whole = run(setup, 6)
    alone = [run(setup, 1, start=i) for i in reversed(range(6))]
    assert whole.decisions == sum(r.decisions for r in alone)
    assert whole.probes == sum(r.probes for r in alone)


def planted_invariant(monkeypatch):
    original = registry.GAMES["corruption"].invariants

    def broken(rules, state):
        original(rules, state)
        assert int(state.won_value[0]) < 2500, "planted: player_0 won 2500 or more"

    with_invariants(monkeypatch, "corruption", broken)


def test_a_broken_invariant_fails_the_run_with_a_command_that_replays_the_same_failure(monkeypatch, capsys):
    planted_invariant(monkeypatch)
    assert main(["--game", "corruption", "--games", "12", "--seed", "3", "--workers", "1", "--no-progress"]) == 1
    out = capsys.readouterr().out
    fails = [line for line in out.splitlines() if line.startswith("FAIL")]
    replays = [line.split("replay: ")[1] for line in out.splitlines() if "replay: " in line]
    assert 0 < len(fails) == len(replays) < 12, "the planted fault holds in some games only"
    assert int(table_row(out, "corruption")["failures"]) == len(fails)
    first = re.match(r"FAIL corruption seed 3 game (\d+): (\d) players \(([a-z ]+)\), decision (\d+): "
                     r"AssertionError: planted", fails[0])
    assert first, fails[0]
    failed = {int(re.search(r"game (\d+)", f).group(1)) for f in fails}

    argv = shlex.split(replays[0])
    assert argv[:3] == ["python", "-m", "benchmarks.reliability"]
    assert main(argv[3:]) == 1
    again = [line for line in capsys.readouterr().out.splitlines() if line.startswith("FAIL")]
    assert again == fails[:1]  # same game, player count, seats, decision and error

    passed = min(set(range(12)) - failed)
    assert main(["--game", "corruption", "--seed", "3", "--start", str(passed), "--games", "1",
                 "--workers", "1", "--no-progress"]) == 0


def accept_anything(monkeypatch):
    monkeypatch.setattr(GameEnv, "_check_action", lambda self, action, mask: None)


def observe_float64(monkeypatch):
    rules = importlib.import_module("corruption_envs.construction").ConstructionRules
    original = rules.observe
    monkeypatch.setattr(rules, "observe", lambda self, s, p: original(self, s, p).astype(np.float64))


def empty_masks_late(monkeypatch):
    rules = importlib.import_module("corruption_envs.construction").ConstructionRules
    original = rules.legal_mask

    def mask(self, s):
        m = original(self, s)
        return m * 0 if s.turn >= 2 else m

    monkeypatch.setattr(rules, "legal_mask", mask)


@pytest.mark.parametrize("sabotage, message", [
    (accept_anything, r"masked-out action \d+ .* was accepted"),
    (observe_float64, r"observation is ndarray \(\d+,\) float64, not float32"),
    (empty_masks_late, r"action mask is empty while the game runs"),
])
def test_each_step_check_catches_its_fault(monkeypatch, sabotage, message):
    sabotage(monkeypatch)
    report = run(make_setup("construction", 0, None, DEFAULT_POLICIES), 3)
    assert len(report.failures) == 3
    assert all(re.search(message, f.error) for f in report.failures), report.failures[0].error


@pytest.mark.parametrize("argv, problem", [
    (["--game", "nosuch"], "invalid choice: 'nosuch'"),
    (["--games", "0"], "--games: must be at least 1, not 0"),
    (["--games", "ten"], "--games: must be a whole number, not 'ten'"),
    (["--workers", "0"], "--workers: must be at least 1"),
    (["--seed", "-1"], "--seed: must not be negative"),
    (["--game", "corruptia", "--players", "4", "7"], "corruptia plays 3-5 players, not [7]"),
])
def test_bad_input_gets_one_line_and_exit_code_2(argv, problem, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--no-progress"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert len(err.strip().splitlines()) == 1 and problem in err, err


def test_a_corrupt_champion_file_is_bad_input(tmp_path, capsys):
    (tmp_path / "corruption").mkdir()
    (tmp_path / "corruption" / "champion.npz").write_bytes(b"not a policy")
    with pytest.raises(SystemExit) as exit_:
        main(["--game", "corruption", "--games", "1", "--policies", str(tmp_path), "--no-progress"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and len(err.strip().splitlines()) == 1 and "champion.npz" in err, err


def test_differential_holds_the_batched_engine_to_the_rules(capsys):
    from benchmarks import reliability

    assert reliability.main(["--game", "construction", "--games", "3", "--workers", "1", "--no-progress",
                             "--differential"]) == 0
    out = capsys.readouterr().out
    assert "differential construction, random play: 3 games" in out and "heuristic play: 3 games" in out
