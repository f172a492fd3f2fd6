"""Result records and the results page: records round-trip, a bad one is refused naming its file and
field, the page shows every figure with its command, the commands write records of what they print, and
the committed docs/results.md is exactly what the committed results/ render."""
from __future__ import annotations

import json
from typing import get_args

import pytest

from benchmarks import report, results
from benchmarks.results import Column, Interval, Record, RecordError


def speed_record() -> Record:
    return Record(section="speed", title="Random play", commands=["python -m benchmarks.speed --seconds 3"],
                  columns=[Column(name="env"), Column(name="decisions/CPU-s", format=",.0f")],
                  rows=[["corruption env()", 31530], ["texas_holdem_v4 env()", None]], source="measured",
                  git_commit="0123456789abcdef", machine_cores=2, load_average=[1.25, 1.0, 0.5])


def strength_record() -> Record:
    return Record(section="strength", title="Champion both ways",
                  commands=["python -m training.evaluate --game corruption --baselines expert --games 1000"],
                  columns=[Column(name="who sits alone"), Column(name="win rate", format=".3f")],
                  rows=[["champion", Interval(value=0.692, low=0.662, high=0.719)],
                        ["one expert", Interval(value=0.328, low=0.299, high=0.358)]],
                  source="transcribed", note="Deal seed 2026.")


@pytest.fixture
def records_dir(tmp_path):
    results.write(strength_record(), tmp_path, "strength-champion")
    results.write(speed_record(), tmp_path, "speed")
    return tmp_path


def test_a_written_record_reads_back_equal(records_dir):
    assert dict((p.name, r) for p, r in results.read_all(records_dir)) == {
        "speed.json": speed_record(), "strength-champion.json": strength_record()}


def test_records_are_read_with_their_numbers_in_number_order(tmp_path):
    for name in ("ablation-10-b", "ablation-9-a", "ablation-1-c"):
        results.write(speed_record(), tmp_path, name)
    assert [p.name for p, _ in results.read_all(tmp_path)] == ["ablation-1-c.json", "ablation-9-a.json",
                                                              "ablation-10-b.json"]


def test_the_page_shows_each_figure_with_its_command_in_section_order(records_dir):
    page = report.render(results.read_all(records_dir))
    assert "| corruption env() | 31,530 |" in page and "| texas_holdem_v4 env() | - |" in page
    assert "| champion | 0.692 [0.662, 0.719] |" in page and "| one expert | 0.328 [0.299, 0.358] |" in page
    assert "python -m benchmarks.speed --seconds 3\n" in page
    assert "python -m training.evaluate --game corruption --baselines expert --games 1000\n" in page
    assert "Measured at `0123456789ab` on 2 cores (load average 1.2)" in page
    assert "Transcribed from the docs" in page and "Deal seed 2026." in page
    assert page.index("## Speed against the anchors") < page.index("## Strength, per game")


def test_every_section_a_record_may_name_has_a_heading():
    assert set(report.SECTIONS) == set(get_args(results.Section))


def write_json(path, data) -> None:
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("change, field", [
    (lambda d: d.pop("commands"), "field commands"),
    (lambda d: d.update(section="gossip"), "field section"),
    (lambda d: d["columns"][1].update(format="{__import__('os')}"), "field columns.1.format"),
    (lambda d: d["rows"][0].__setitem__(1, {"value": 0.5, "low": 0.6, "high": 0.4}), "field rows.0.1"),
    (lambda d: d.update(version=2), "field version"),
    (lambda d: d.update(surprise=1), "field surprise"),
])
def test_a_bad_record_is_refused_naming_its_file_and_field(tmp_path, change, field):
    data = strength_record().model_dump(mode="json")
    change(data)
    write_json(tmp_path / "bad.json", data)
    with pytest.raises(RecordError) as e:
        results.read(tmp_path / "bad.json")
    assert str(tmp_path / "bad.json") in str(e.value) and field in str(e.value)


def test_a_row_of_the_wrong_length_is_named(tmp_path):
    data = strength_record().model_dump(mode="json")
    data["rows"][1].append("extra")
    write_json(tmp_path / "bad.json", data)
    with pytest.raises(RecordError, match=r"rows\[1\] has 3 cells for 2 columns"):
        results.read(tmp_path / "bad.json")


def test_text_that_is_not_json_is_refused_naming_the_file(tmp_path):
    (tmp_path / "broken.json").write_text("{\"section\": ")
    with pytest.raises(RecordError, match="broken.json: not a readable JSON record"):
        results.read(tmp_path / "broken.json")


def test_the_report_command_refuses_a_bad_record_in_one_line(records_dir, tmp_path, capsys):
    write_json(records_dir / "zz.json", {"section": "speed"})
    out = tmp_path / "page.md"
    assert report.main(["--results", str(records_dir), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "zz.json: field" in err and err.count("\n") == 1
    assert not out.exists()


def test_check_says_whether_the_page_is_up_to_date(records_dir, tmp_path):
    page = tmp_path / "page.md"
    args = ["--results", str(records_dir), "--out", str(page)]
    assert report.main([*args, "--check"]) == 1
    assert report.main(args) == 0
    assert report.main([*args, "--check"]) == 0
    results.write(speed_record().model_copy(update={"title": "Random play, again"}), records_dir, "speed")
    assert report.main([*args, "--check"]) == 1


def test_the_committed_page_is_what_the_committed_records_render():
    assert report.PAGE.read_text() == report.render(results.read_all(report.RESULTS)), (
        "docs/results.md differs from results/: run python -m benchmarks.report")


def test_a_record_names_the_command_without_its_record_option():
    assert results.command_line("benchmarks.speed", ["--seconds", "3", "--record", "out", "--only", "a b"]) == (
        "python -m benchmarks.speed --seconds 3 --only 'a b'")
    assert results.command_line("benchmarks.gate", ["--record=out"]) == "python -m benchmarks.gate"


def test_a_record_name_is_a_plain_file_name(tmp_path):
    assert results.record_name("search", "speed", "ismcts:700@policies/{game}/champion.npz") == (
        "search-speed-ismcts-700-policies-game-champion-npz")
    with pytest.raises(RecordError, match="record name"):
        results.write(speed_record(), tmp_path, "../escape")


def only_record(directory) -> Record:
    [(_, record)] = results.read_all(directory)
    return record


def test_evaluate_records_both_directions_as_it_prints_them(toy_game, tmp_path, capsys):
    from training import evaluate

    assert evaluate.main(["--game", toy_game, "--policy", "random", "--baselines", "heuristic", "--games", "12",
                          "--players", "3", "--record", str(tmp_path)]) == 0
    printed = json.loads(capsys.readouterr().out.splitlines()[-2])
    record = only_record(tmp_path)
    assert record.section == "strength" and record.source == "measured" and record.players == [3]
    assert record.commands == [f"python -m training.evaluate --game {toy_game} --policy random --baselines heuristic "
                               "--games 12 --players 3"]
    assert [(r[0], r[4].value, r[4].low) for r in record.rows] == [
        ("random" if not p["reverse"] else "heuristic", p["win_rate"], p["ci_low"]) for p in printed]


def test_a_tournament_records_each_agent_at_each_count(toy_game, tmp_path, capsys):
    from benchmarks.tournament import main

    assert main(["--game", toy_game, "--players", "3", "4", "--agents", "heuristic", "random", "--games", "8",
                 "--no-progress", "--record", str(tmp_path)]) == 0
    record = only_record(tmp_path)
    assert sorted((r[0], r[1]) for r in record.rows) == [(3, "heuristic"), (3, "random"), (4, "heuristic"),
                                                          (4, "random")]
    assert all(isinstance(r[3], Interval) and 0 <= r[3].value <= 1 for r in record.rows)


def test_the_speed_table_is_recorded_as_printed(tmp_path, capsys):
    from benchmarks import speed

    assert speed.main(["--seconds", "0.1", "--rounds", "1", "--only", "tictactoe", "--record", str(tmp_path)]) == 0
    record = only_record(tmp_path)
    printed = capsys.readouterr().out
    for row in record.rows:
        assert f"| {row[0]} " in printed and (row[1] is None or f"{row[1]:,.0f}" in printed)
    names = [r[0] for r in record.rows]
    # the anchor is measured where pettingzoo[classic] is installed (the bench extra), else named as missing
    assert "texas_holdem_v4 env()" in names or "texas_holdem_v4 / tictactoe_v3" in names


def test_the_gate_records_each_check_with_its_verdict_and_figures(tmp_path, capsys):
    from benchmarks import gate
    from tests.benchmarks.toy_agents import CHECK, TOY, toy_policy

    toy_policy(tmp_path / "policies" / TOY / "champion.npz", CHECK)
    checker = "tests.benchmarks.toy_agents:CheckAgent"
    assert gate.main(["--games", TOY, "--policies", str(tmp_path / "policies"), "--deals", "4", "--workers", "1",
                      "--players", "3", "--best-bot", checker, "--baselines", "random", "--search", "none",
                      "--record", str(tmp_path / "results")]) == 1
    printed = [line for line in capsys.readouterr().out.splitlines() if "champion vs" in line]
    record = only_record(tmp_path / "results")
    assert len(record.rows) == len(printed) == 2
    for row, line in zip(record.rows, printed):
        status, _, check, win, points, deals, p_greater, p_less = row
        assert line.startswith(status) and check in line and deals == 4
        assert f"win rate {win.value:.3f} [{win.low:.3f}, {win.high:.3f}]" in line
        assert f"mean diff {points.value:+.4f}" in line and f"p(>0)={p_greater:.2g}, p(<0)={p_less:.2g}" in line


def test_an_exploit_probe_records_the_best_responses_win_rate(toy_game, tmp_path, capsys):
    from benchmarks import exploit

    assert exploit.main(["--game", toy_game, "--policy", "heuristic", "--steps", "64", "--players", "3",
                         "--games", "12", "--record", str(tmp_path)]) == 0
    [row] = only_record(tmp_path).rows
    assert row[:4] == ["heuristic", "(its own)", 0, None]
    assert f"vs 2 heuristic bots: win rate {row[4].value:.3f}" in capsys.readouterr().out


def run_summary() -> dict:
    """A run's results.json as training.selfplay writes it (the fields the record reads, and others)."""
    return {"game": "corruption", "timesteps": 301056, "commit": "abc123", "learn_cpu_seconds": 126.0,
            "load_average": [1.5, 1.2, 1.0], "vec_env": "batched", "final_eval": [
                {"baseline": "expert", "num_players": 4, "games": 400, "win_rate": 0.748, "ci_low": 0.703,
                 "ci_high": 0.788, "reverse": False},
                {"baseline": "expert", "num_players": 4, "games": 400, "win_rate": 0.505, "ci_low": 0.456,
                 "ci_high": 0.553, "reverse": True}]}


def test_a_run_folders_final_table_becomes_a_training_record(tmp_path):
    from benchmarks import run_record

    run = tmp_path / "corruption-20261205"
    run.mkdir()
    write_json(run / "results.json", run_summary())
    assert run_record.main([str(run), "--command", "python -m training.selfplay --game corruption",
                            "--record", str(tmp_path / "results")]) == 0
    record = only_record(tmp_path / "results")
    assert record.section == "training" and record.git_commit == "abc123" and record.players == [4]
    assert [(r[0], r[1], round(r[4].value, 3)) for r in record.rows] == [
        ("policy", "3 x expert", 0.748), ("expert", "3 x policy", 0.505)]
    assert "0.748 [0.703, 0.788]" in report.render(results.read_all(tmp_path / "results"))


def test_a_run_folder_without_a_valid_results_json_is_refused_in_one_line(tmp_path, capsys):
    from benchmarks import run_record

    summary = run_summary()
    del summary["final_eval"][0]["win_rate"]
    write_json(tmp_path / "results.json", summary)
    assert run_record.main([str(tmp_path), "--command", "x", "--record", str(tmp_path / "r")]) == 2
    assert "results.json: field final_eval.0.win_rate" in capsys.readouterr().err
    assert run_record.main([str(tmp_path / "missing"), "--command", "x"]) == 2
    assert "not a readable results.json" in capsys.readouterr().err


def test_search_speed_records_its_rows(tmp_path, capsys):
    pytest.importorskip("numba")
    from benchmarks import search_speed

    search_speed.main(["--spec", "ismcts:3", "--decisions", "1", "--games", "construction", "--record", str(tmp_path)])
    record = only_record(tmp_path)
    [printed] = [line for line in capsys.readouterr().out.splitlines() if line.startswith("construction")]
    [(game, one, engine, ratio, _)] = record.rows
    assert record.section == "search" and game == "construction" and printed.split()[1:4] == [
        f"{one:.0f}", f"{engine:.0f}", f"{ratio:.1f}x"]
