"""The gate's paired tests decide correctly on synthetic data and on rigged toy policies."""
import re

import numpy as np
import pytest

from benchmarks import gate
from benchmarks.stats import paired_t_test
from benchmarks.tournament import GameRecord
from tests.benchmarks.toy_agents import CHECK, RAISE, TOY, toy_policy
from tests.crafted import one_line_error

CHECKER = "tests.benchmarks.toy_agents:CheckAgent"
RAISER = "tests.benchmarks.toy_agents:RaiseAgent"


def synthetic_records(n: int, deals: int, tested_points: np.ndarray) -> list[GameRecord]:
    """Games where the tested bot (agent 0, rotated over the seats) gets rank 1 with the given
    probability per game and last place otherwise; the other seats share the remaining places."""
    recs = []
    rng = np.random.default_rng(0)
    for d in range(deals):
        for r in range(n):
            lineup = [1] * n
            lineup[r] = 0
            first = rng.random() < tested_points[d]
            places = iter(range(2, n + 1) if first else range(1, n))
            ranks = [(1.0 if first else float(n)) if s == r else float(next(places)) for s in range(n)]
            recs.append(GameRecord(n, d, r, lineup, ranks, [0.0] * n, [0.0] * n, 1))
    return recs


def test_advantage_is_zero_for_a_bot_as_strong_as_the_field_and_positive_for_a_winner():
    n = 4
    strong = gate.advantage_differences(synthetic_records(n, 50, np.full(50, 0.9)), n)
    even = gate.advantage_differences(synthetic_records(n, 50, np.full(50, 0.25)), n)
    assert paired_t_test(strong).p_greater < 0.01 and paired_t_test(strong).mean > 0
    assert paired_t_test(even).p_greater > 0.01


def test_advantage_is_own_points_minus_the_other_seats_mean_points():
    n = 3
    diffs = gate.advantage_differences(synthetic_records(n, 5, np.ones(5)), n)
    assert diffs == pytest.approx([0.75] * 5)  # 1 point vs the others' mean (0.5 + 0) / 2


def test_paired_differences_detect_a_weaker_candidate_and_need_the_same_deals():
    n = 4
    champ = synthetic_records(n, 60, np.full(60, 0.6))
    weak = synthetic_records(n, 60, np.full(60, 0.2))
    test = paired_t_test(gate.paired_differences(weak, champ))
    assert test.mean < 0 and test.p_less < 0.05
    same = paired_t_test(gate.paired_differences(champ, champ))
    assert same.mean == 0 and same.p_less >= 0.05
    with pytest.raises(ValueError, match="same deals"):
        gate.paired_differences(champ, synthetic_records(n, 10, np.full(10, 0.5)))


def test_seat_jobs_put_the_tested_bot_once_in_every_seat_of_every_deal():
    jobs = gate.seat_jobs(4, deals=3, seed=1)
    assert len(jobs) == 12
    for d in range(3):
        seats = sorted(j.lineup.index(0) for j in jobs if j.deal == d)
        assert seats == [0, 1, 2, 3] and all(sorted(j.lineup) == [0, 1, 1, 1] for j in jobs)


@pytest.fixture
def policies(tmp_path):
    folder = tmp_path / "policies"
    toy_policy(folder / TOY / "champion.npz", RAISE)
    return folder


def champion_checks(folder, **kwargs):
    options = dict(deals=30, alpha=0.01, seed=5, workers=1, baselines=("random",), best=CHECKER)
    return list(gate.check_champion(TOY, folder, **{**options, **kwargs}))


def test_a_champion_stronger_than_every_bot_passes_at_every_count_it_claims(policies):
    checks = champion_checks(policies)
    # the toy policy claims 2-4 players: random at the toy's default (3), the best bot at 2, 3 and 4
    assert [(c.bot, c.players, c.status) for c in checks] == [
        ("random", 3, "PASS"), (CHECKER, 2, "PASS"), (CHECKER, 3, "PASS"), (CHECKER, 4, "PASS")], checks
    assert checks[1].name == f"champion vs {CHECKER} at 2p"


def test_the_best_bot_is_played_at_the_counts_the_file_claims_or_those_asked(policies, tmp_path):
    from corruption_envs.policy import read_policy_file

    policy = read_policy_file(gate.champion_path(TOY, policies))
    policy.meta.update(min_players=4, max_players=4)
    policy.save(gate.champion_path(TOY, tmp_path))
    assert [(c.bot, c.players) for c in champion_checks(tmp_path)] == [("random", 4), (CHECKER, 4)]
    assert [c.players for c in champion_checks(policies, players=[3])] == [3, 3]


@pytest.mark.parametrize("champion, best", [
    ("heuristic", "heuristic"),  # level: the best bot itself
    ("random", "heuristic"),  # weaker
])
def test_a_champion_level_with_or_weaker_than_the_best_bot_fails(champion, best):
    check = gate.strength_check("construction", champion, best, 3, deals=30, alpha=0.01, seed=1)
    assert check.status == "FAIL" and check.test.p_greater > 0.01, check.line()
    if champion == "random":
        assert check.test.mean < 0 and check.test.p_less < 0.01


def test_a_bot_stronger_than_the_field_passes():
    check = gate.strength_check("construction", "heuristic", "random", 3, deals=30, alpha=0.01, seed=1)
    assert check.status == "PASS" and check.test.mean > 0, check.line()


def test_a_champion_that_plays_as_the_best_bot_fails_at_every_count(policies):
    # the raising champion against raising bots: every deal's advantage is exactly 0
    checks = champion_checks(policies, best=RAISER)
    assert [c.status for c in checks if c.bot == RAISER] == ["FAIL"] * 3
    assert all(c.test.mean == pytest.approx(0, abs=1e-12) for c in checks if c.bot == RAISER)


def test_a_level_policy_with_noise_passes_on_almost_no_seeds(tmp_path):
    # a uniform sampling policy against random bots plays as they do: the check asks for significantly
    # better, so it passes on about alpha (1%) of seeds, never on most
    from corruption_envs.policy import read_policy_file

    uniform = read_policy_file(toy_policy(tmp_path / "raise.npz", RAISE))
    uniform.head[1][:] = 0.0  # equal logits
    uniform.meta["play"] = "sample"
    uniform = uniform.save(tmp_path / "uniform.npz")
    checks = [gate.strength_check(TOY, str(uniform), "random", 3, deals=20, alpha=0.01, seed=s) for s in range(20)]
    assert sum(c.status == "PASS" for c in checks) <= 1
    assert 0 < sum(c.test.mean > 0 for c in checks) < 20  # the noise is real: both signs occur


def test_a_weaker_champion_fails_at_every_count(tmp_path):
    folder = tmp_path / "policies"
    toy_policy(folder / TOY / "champion.npz", CHECK)
    checks = champion_checks(folder, best=RAISER)
    assert [c.status for c in checks] == ["FAIL"] * 4 and all(c.test.mean < 0 for c in checks), checks
    assert "p(>0)" in checks[0].detail


def test_a_missing_champion_fails_the_gate(tmp_path, capsys):
    code = gate.main(["--games", TOY, "--policies", str(tmp_path), "--deals", "5", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 1 and "NO CHAMPION" in out and "without a champion fails" in out


def test_champion_file_that_does_not_load_fails_the_gate(tmp_path, capsys):
    (tmp_path / TOY).mkdir()
    (tmp_path / TOY / "champion.npz").write_bytes(b"not a policy")
    code = gate.main(["--games", TOY, "--policies", str(tmp_path), "--deals", "5", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 2 and "ERROR" in out and "PolicyFileError" in out


def test_a_known_short_check_does_not_fail_the_run_and_fails_it_when_not_listed(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "policies"
    toy_policy(folder / TOY / "champion.npz", CHECK)
    argv = ["--games", TOY, "--policies", str(folder), "--deals", "10", "--workers", "1", "--players", "3",
            "--baselines", CHECKER, "--best-bot", CHECKER, "--search", "none"]
    assert gate.main(argv) == 1
    assert capsys.readouterr().out.splitlines()[1].startswith(f"FAIL         {TOY}")
    monkeypatch.setitem(gate.KNOWN_SHORT, (TOY, 3, CHECKER), "a toy that only checks")
    assert gate.main(argv) == 0
    out = capsys.readouterr().out
    line = out.splitlines()[1]
    assert line.startswith("KNOWN SHORT") and "known short: a toy that only checks" in line and "p(>0)=" in line
    assert "0 failed" in out and "1 known short" in out
    # listed for another count or bot: still a failure
    monkeypatch.setattr(gate, "KNOWN_SHORT", {(TOY, 4, CHECKER): "x", (TOY, 3, "random"): "x"})
    assert gate.main(argv) == 1


def test_a_listed_check_that_passes_says_its_entry_can_go(policies, monkeypatch):
    monkeypatch.setitem(gate.KNOWN_SHORT, (TOY, 3, CHECKER), "was short once")
    check = champion_checks(policies, players=[3])[1]
    assert check.status == "PASS" and "remove the entry" in check.detail


def test_the_committed_known_short_checks_are_champion_checks_of_registered_games():
    import corruption_envs

    for (game, n, bot), reason in gate.KNOWN_SHORT.items():
        assert game in corruption_envs.list_games() and bot == gate.BEST_BOTS.get(game, gate.DEFAULT_BEST_BOT)
        assert n in gate.claimed_counts(game, gate.champion_path(game, gate.REPO / "policies")) and reason


def test_weaker_candidate_exits_non_zero_with_the_evidence(policies, tmp_path, capsys):
    weak = toy_policy(tmp_path / "weak.npz", CHECK)
    code = gate.main(["--games", TOY, "--policies", str(policies), "--candidate", str(weak), "--field",
                      "random", "--deals", "30", "--workers", "1", "--players", "3"])
    out = capsys.readouterr().out
    assert code == 1 and "significantly weaker" in out and "t=" in out


def test_candidate_equal_to_the_champion_passes(policies, tmp_path, capsys):
    same = toy_policy(tmp_path / "same.npz", RAISE)
    code = gate.main(["--games", TOY, "--policies", str(policies), "--candidate", str(same), "--field",
                      "random", "--deals", "10", "--workers", "1", "--players", "3"])
    assert code == 0 and "no significant difference" in capsys.readouterr().out


def test_gate_plays_a_player_count_the_champion_was_trained_for(tmp_path):
    path = toy_policy(tmp_path / "c.npz", RAISE)  # trained for 2-4 players; the toy's default is 3
    assert gate.gate_players(TOY, path, None) == 3
    assert gate.gate_players(TOY, path, 4) == 4
    from corruption_envs.policy import read_policy_file

    policy = read_policy_file(path)
    policy.meta.update(min_players=4, max_players=4)
    assert gate.gate_players(TOY, policy.save(tmp_path / "four.npz"), None) == 4


def test_candidate_and_champion_meet_the_same_field_with_the_same_seeds(policies, tmp_path):
    # a copy of the champion against a random field: every deal's difference is exactly 0, which holds
    # only if the field bots drew the same moves in both runs
    same = toy_policy(tmp_path / "same.npz", RAISE)
    check = gate.check_candidate(TOY, same, policies, "random", deals=12, alpha=0.05, seed=3, workers=1,
                                 players=4)
    assert check.status == "PASS" and check.test.mean == 0 and check.test.low == check.test.high == 0


def rank_points_of(report: str) -> float:
    return float(re.search(r"mean rank points (\d\.\d+)", report).group(1))


def test_search_report_is_one_line_per_champion_that_does_not_fail_the_gate(tmp_path, capsys):
    # a champion that only checks loses to its baselines and to the search bots; the report line
    # shows that, and only the baseline checks fail the gate
    folder = tmp_path / "policies"
    toy_policy(folder / TOY / "champion.npz", CHECK)
    code = gate.main(["--games", TOY, "--policies", str(folder), "--deals", "4", "--workers", "1",
                      "--players", "3", "--best-bot", CHECKER, "--baselines", CHECKER, "--search", "ismcts:16",
                      "--search-deals", "3"])
    out = capsys.readouterr().out.splitlines()
    lines = [line for line in out if "champion vs" in line]
    assert code == 1 and len(lines) == 2, lines
    assert lines[1].startswith("REPORT") and "champion vs ismcts:16" in lines[1] and "over 9 games" in lines[1]
    assert rank_points_of(lines[1]) < 0.5 and "CPU ms/move" in lines[1]
    # then the champion guiding the same search, against the same bots
    guided = [line for line in out if "champion guiding ismcts:16 vs ismcts:16" in line]
    assert len(guided) == 1 and guided[0].startswith("REPORT") and "over 9 games" in guided[0], out
    assert "the guided seat" in guided[0]


def test_the_guided_report_seats_the_champion_guiding_the_search(policies):
    # with one simulation the guided search plays the prior's favourite, the greedy champion's own move
    # (tests/search/test_guided.py), so on the same deals against the same bots it scores exactly what
    # the champion scores; a plain one-simulation search in that seat would not
    alone = gate.report_search(TOY, policies, "ismcts:1", deals=3, seed=1, workers=1, players=3)
    guided = gate.report_search(TOY, policies, "ismcts:1", deals=3, seed=1, workers=1, players=3, guided=True)
    assert guided.status == "REPORT" and guided.name == "champion guiding ismcts:1 vs ismcts:1", guided.line()
    assert guided.detail.split(";")[0] == alone.detail.split(";")[0]
    coin = gate.play_jobs(TOY, ["ismcts:1", "ismcts:1"], gate.seat_jobs(3, 3, 1), 1)
    assert sum(gate.per_deal_points(coin)[0]) != pytest.approx(sum(gate.per_deal_points(
        gate.play_jobs(TOY, [f"ismcts:1@{gate.champion_path(TOY, policies)}", "ismcts:1"],
                       gate.seat_jobs(3, 3, 1), 1))[0]))


def test_only_an_unguided_ismcts_search_gets_a_guided_report(policies, capsys):
    assert gate.main(["--games", TOY, "--policies", str(policies), "--deals", "30", "--workers", "1",
                      "--players", "3", "--best-bot", "random", "--baselines", "random", "--search", "pimc:2",
                      "--search-deals", "1"]) == 0
    out = capsys.readouterr().out
    assert "champion vs pimc:2" in out and "guiding" not in out


def test_search_report_of_a_winning_champion_and_its_opt_out(policies, capsys):
    # one simulation a move is a coin flip between raising and checking: the raising champion is ahead
    check = gate.report_search(TOY, policies, "ismcts:1", deals=3, seed=1, workers=1, players=3)
    assert check.status == "REPORT" and rank_points_of(check.detail) > 0.5, check.line()
    assert gate.main(["--games", TOY, "--policies", str(policies), "--deals", "30", "--workers", "1",
                      "--best-bot", "random", "--baselines", "random", "--search", "none"]) == 0
    assert "REPORT" not in capsys.readouterr().out


def test_a_search_spec_that_does_not_load_is_an_error(policies):
    check = gate.report_search(TOY, policies, "ismcts:0", deals=1, seed=1, workers=1, players=3)
    assert check.status == "ERROR" and "simulations '0'" in check.detail


def test_mean_cpu_ms_counts_only_the_agents_seats():
    recs = [GameRecord(3, 0, 0, [0, 1, 1], [1.0, 2.0, 3.0], [0.0] * 3, [0.0] * 3, 9,
                       cpu_seconds=[0.9, 0.02, 0.04], moves=[3, 3, 3])]
    assert gate.mean_cpu_ms(recs, 0) == pytest.approx(300.0)
    assert gate.mean_cpu_ms(recs, 1) == pytest.approx(10.0)


def test_corruption_candidates_meet_an_expert_field_by_default(capsys):
    # the champion as its own candidate: the expert field is used, and the two runs are the same games
    champion = str(gate.champion_path("corruption", gate.REPO / "policies"))
    code = gate.main(["--candidate", champion, "--deals", "2", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "candidate vs champion (expert field)" in out and "mean diff +0.0000" in out


def test_without_bots_given_a_game_is_gated_against_its_best_bot_and_the_baselines(policies, capsys,
                                                                                     monkeypatch):
    monkeypatch.setitem(gate.BEST_BOTS, TOY, CHECKER)
    monkeypatch.setattr(gate, "BASELINES", ("random", CHECKER))
    assert gate.main(["--games", TOY, "--policies", str(policies), "--deals", "6", "--workers", "1",
                      "--search", "none"]) == 0
    lines = [line.split()[:7] for line in capsys.readouterr().out.splitlines() if "champion vs" in line]
    assert [words[-3:] for words in lines] == [
        ["random", "at", "3p"], [CHECKER, "at", "2p"], [CHECKER, "at", "3p"], [CHECKER, "at", "4p"]], lines


def test_gate_looks_a_candidates_game_up_among_registered_games_only(tmp_path, capsys, monkeypatch):
    # the file names 'os:system' and a champion sits at that game's path, so a gate that trusted the
    # name would reach registry.import_attr and import os
    import importlib

    from corruption_envs import registry
    from corruption_envs.policy import read_policy_file

    real_import = importlib.import_module

    def refuse(name, *args, **kwargs):
        assert name != "os", "the gate imported a module named in a file"
        return real_import(name, *args, **kwargs)

    def no_import_attr(spec):
        raise AssertionError(f"the gate passed {spec!r} from a file to import_attr")

    policy = read_policy_file(toy_policy(tmp_path / "c.npz", RAISE))
    policy.meta["game"] = "os:system"
    candidate = policy.save(tmp_path / "candidate.npz")
    toy_policy(tmp_path / "policies" / "os:system" / "champion.npz", RAISE)
    monkeypatch.setattr(registry, "import_attr", no_import_attr)
    monkeypatch.setattr(importlib, "import_module", refuse)
    assert gate.main(["--candidate", str(candidate), "--policies", str(tmp_path / "policies"),
                      "--deals", "2", "--workers", "1"]) == 2
    one_line_error(capsys, str(candidate), "'os:system'", "not registered", "'corruption'", "'construction'")
