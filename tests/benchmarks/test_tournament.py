"""Duplicate seating, ratings on a rigged match, output formats and worker-independence."""
import json
from pathlib import Path
from collections import Counter

import numpy as np
import pytest

from benchmarks.tournament import (
    agent_labels,
    deal_seed,
    lineups,
    make_env,
    make_jobs,
    play_jobs,
    render_text,
    run_tournament,
    summarize,
    GameRecord,
    write_outputs,
)
from corruption_envs.core.rewards import win_shares
from tests.benchmarks.toy_agents import TOY

CORRUPTIA_CHAMPION = str(Path(__file__).parents[2] / "policies" / "corruptia" / "champion.npz")

RAISE = "tests.benchmarks.toy_agents:RaiseAgent"


@pytest.mark.parametrize("agents, players", [(1, 3), (2, 3), (2, 4), (3, 4), (4, 4)])
def test_duplicate_rotation_seats_every_lineup_member_in_every_seat(agents, players):
    tables = lineups(agents, players)
    assert len(tables) == players
    base = Counter(tables[0])
    for seat in range(players):
        assert Counter(t[seat] for t in tables) == base  # each seat sees the lineup's whole mix
    assert set(tables[0]) == set(range(agents))


def test_more_agents_than_seats_plays_every_window_and_every_pair_meets():
    tables = lineups(5, 3)
    assert len(tables) == 15
    counts = Counter(i for t in tables for i in t)
    assert set(counts.values()) == {9}  # every agent takes the same number of seats
    met = {frozenset((a, b)) for t in tables for a in t for b in t if a != b}
    assert len(met) == 10  # all 5 * 4 / 2 pairs


def test_cycled_lineup_gives_extra_seats_to_earlier_agents():
    assert lineups(3, 4)[0] == (0, 1, 2, 0)


def test_games_are_rounded_up_to_whole_deals_with_one_seed_per_deal():
    jobs = make_jobs([3, 4], num_agents=2, games=10, seed=7)
    per_n = Counter(j.num_players for j in jobs)
    assert per_n == {3: 12, 4: 12}  # ceil(10 / 3) = 4 deals of 3 games, ceil(10 / 4) = 3 deals of 4
    deals = {(j.num_players, j.deal) for j in jobs}
    assert len({deal_seed(7, n, d) for n, d in deals}) == len(deals)


def test_every_rotation_of_a_deal_replays_the_same_deal():
    env = make_env(TOY, 3)
    cards = []
    for _ in range(3):
        env.reset(seed=deal_seed(0, 3, 5))
        cards.append(list(env.unwrapped.game_state.cards))
    assert cards[0] == cards[1] == cards[2]


def test_duplicate_play_cancels_the_luck_of_the_deal_between_identical_bots():
    result = run_tournament(TOY, [3], [RAISE, RAISE], games=30, seed=1)
    per_deal = {}
    for rec in result.records:
        pts = [(3 - r) / 2 for s, r in enumerate(rec.ranks) if rec.lineup[s] == 1]
        per_deal.setdefault(rec.deal, []).extend(pts)
    # the second bot holds one seat of each rotation: over a deal its mean rank points are exactly 1/2
    assert all(np.mean(p) == pytest.approx(0.5) for p in per_deal.values())


def test_ties_share_the_win():
    assert win_shares([1.5, 1.5, 3.0]) == [0.5, 0.5, 0.0]


def test_labels_are_unique_for_repeated_specs():
    assert agent_labels(["random", "random", "heuristic"]) == ["random", "random#2", "heuristic"]


def test_ratings_rank_a_strong_bot_above_random_in_a_rigged_match():
    s = run_tournament(TOY, [3, 4], [RAISE, "random"], games=120, seed=3).summary
    strong, weak = s["agents"][RAISE], s["agents"]["random"]
    assert strong["rating_ordinal"] > weak["rating_ordinal"]
    assert strong["rating_mu"] > weak["rating_mu"]
    assert strong["win_rate_ci"][0] > weak["win_rate_ci"][1]
    assert strong["mean_rank_ci"][1] < weak["mean_rank_ci"][0]
    assert strong["score_share"] > weak["score_share"]
    assert s["head_to_head"]["rows_beat_columns"][0][1] > 0.5 > s["head_to_head"]["rows_beat_columns"][1][0]


def test_summary_of_a_hand_made_game():
    rec = GameRecord(3, 0, 0, [0, 1, 1], ranks=[1.0, 2.5, 2.5], scores=[6.0, 2.0, 2.0], rewards=[1, -0.5, -0.5],
                     decisions=6)
    s = summarize([rec], ["a", "b"])
    assert s["agents"]["a"]["win_rate"] == 1.0 and s["agents"]["b"]["win_rate"] == 0.0
    assert s["agents"]["a"]["score_share"] == pytest.approx(0.6)
    assert s["agents"]["b"]["mean_rank"] == 2.5
    assert s["head_to_head"]["rows_beat_columns"] == [[None, 1.0], [0.0, None]]
    assert s["head_to_head"]["pairs"] == [[0, 2], [2, 0]]


def test_outputs_are_written_as_json_markdown_and_png(tmp_path):
    result = run_tournament(TOY, [3], [RAISE, "random"], games=12, seed=0)
    paths = write_outputs(result, tmp_path / "out", command="python -m benchmarks.tournament ...")
    data = json.loads(paths["json"].read_text())
    assert data["summary"]["games"] == 12 and len(data["records"]) == 12
    assert set(data["summary"]["agents"]) == {RAISE, "random"}
    md = paths["markdown"].read_text()
    assert "| agent |" in md and "win rate [95% Wilson]" in md and "Head-to-head" in md
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = render_text(result)
    assert "OpenSkill mu" in text and "random" in text


def test_workers_give_the_same_results_as_one_worker():
    one = run_tournament(TOY, [3, 4], ["random", RAISE, "random"], games=40, seed=11, workers=1)
    two = run_tournament(TOY, [3, 4], ["random", RAISE, "random"], games=40, seed=11, workers=2)
    assert one.records == two.records  # CPU times are measurements, left out of the comparison
    def untimed(summary):
        return {**summary, "agents": {k: {**a, "cpu_ms_per_move": 0} for k, a in summary["agents"].items()}}

    assert untimed(one.summary) == untimed(two.summary)


def test_a_policy_with_a_prior_plays_each_game_as_its_seed_says_whatever_came_before():
    # the champion consults a heuristic bot that breaks ties with its own generator: a fresh load and
    # a reused agent must both play a game exactly as the game's seeds say, or the gate would not repeat
    specs = [CORRUPTIA_CHAMPION, "heuristic"]
    jobs = make_jobs([4], len(specs), games=8, seed=3)
    one_by_one = play_jobs("corruptia", specs, jobs, batched=False)
    assert one_by_one == play_jobs("corruptia", specs, jobs, batched=False)
    assert one_by_one[4:] == play_jobs("corruptia", specs, jobs[4:], batched=False)


def test_a_batched_run_repeats_and_meets_the_same_deals():
    specs = [CORRUPTIA_CHAMPION, "heuristic"]
    jobs = make_jobs([4], len(specs), games=8, seed=3)
    batched = play_jobs("corruptia", specs, jobs, batched=True)
    assert batched == play_jobs("corruptia", specs, jobs)  # the default when every agent can batch
    one_by_one = play_jobs("corruptia", specs, jobs, batched=False)
    assert [(r.deal, r.table, r.lineup) for r in batched] == [(r.deal, r.table, r.lineup) for r in one_by_one]
    assert all(sum(r.moves) == r.decisions for r in batched)


def test_command_line_prints_the_table_and_writes_the_files(tmp_path, capsys):
    from benchmarks.tournament import main

    assert main(["--game", TOY, "--players", "3", "4", "--agents", RAISE, "random", "--games", "8",
                 "--out", str(tmp_path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "3 players:" in out and "4 players:" in out and "win rate" in out
    assert {p.name for p in tmp_path.iterdir()} == {"summary.json", "summary.md", "chart.png"}


def test_players_all_means_the_games_whole_range():
    from benchmarks.tournament import player_counts

    assert player_counts(TOY, ["all"]) == [2, 3, 4]
    assert player_counts(TOY, None) == [3]
    assert player_counts(TOY, ["4", "2"]) == [4, 2]


def test_save_games_writes_the_tournaments_own_first_games_with_their_pages(tmp_path, capsys, toy_game):
    # the registered toy game: a log may name only a registered game, and its pages are quick to draw
    # (every real game's page is tested in tests/test_pictures.py)
    from benchmarks.tournament import main
    from corruption_envs import play

    saved = tmp_path / "games"
    assert main(["--game", toy_game, "--players", "3", "--agents", "random", "heuristic",
                 "--games", "3", "--out", str(tmp_path / "out"), "--no-progress",
                 "--save-games", str(saved), "--save-count", "2"]) == 0
    assert "saved 2 games" in capsys.readouterr().out
    assert sorted(p.name for p in saved.iterdir()) == [
        "3p-deal0-table0.html", "3p-deal0-table0.jsonl", "3p-deal0-table1.html", "3p-deal0-table1.jsonl"]
    records = json.loads((tmp_path / "out" / "summary.json").read_text())["records"]
    for table in (0, 1):
        header, _, end = play.read_log(str(saved / f"3p-deal0-table{table}.jsonl"))
        rec = records[table]
        # the saved game is the one the tournament played: same seating and the same result
        labels = ["random", "heuristic"]
        assert list(header["seats"].values()) == [labels[i] for i in rec["lineup"]]
        assert [end["ranks"][f"player_{p}"] for p in range(3)] == rec["ranks"]
        assert [end["scores"][f"player_{p}"] for p in range(3)] == rec["scores"]


def test_save_count_below_one_is_refused(tmp_path, capsys):
    from benchmarks.tournament import main

    with pytest.raises(SystemExit) as stop:
        main(["--game", TOY, "--agents", "random", "--save-games", str(tmp_path), "--save-count", "0"])
    assert stop.value.code == 2 and "--save-count 0" in capsys.readouterr().err


def test_a_mixture_on_the_batched_loop_draws_a_member_for_every_game_it_plays(tmp_path, monkeypatch):
    # one member for all games would make a mixture's batched figures a single member's
    import corruption_envs.match as match
    from corruption_envs.policy import mixture_of, read_policy_file
    from tests.benchmarks.toy_agents import CHECK, RAISE, toy_policy

    members = [read_policy_file(toy_policy(tmp_path / f"{a}.npz", a)) for a in (RAISE, CHECK)]
    path = mixture_of(members, [0.5, 0.5]).save(tmp_path / "mix.npz")
    tables = []
    seat_members = match.seat_members
    monkeypatch.setattr(match, "seat_members", lambda agents, table: (
        seat_members(agents, table), tables.append(table.copy()))[0])
    records = play_jobs(TOY, [str(path), "random"], make_jobs([3], 2, games=30, seed=5), batched=True)
    (table,) = tables
    # the tournament's agents at 3 players: the specs in order (0 the mixture, 1 random), then each one's
    # members (the mixture's two, 2 and 3; random's, itself, 4)
    assert not np.isin(table, [0, 1]).any()  # every seat points at the member its agent drew for its game
    assert {int(k) for k in np.unique(table)} == {2, 3, 4}
    assert all(sum(r.moves) == r.decisions for r in records)
