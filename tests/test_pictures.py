"""Pictures (render_mode="rgb_array", picture_for) and the HTML replay viewer, for every game.

The hidden-information checks are the observation's: resample what a seat cannot see and check that
the seat's picture and everything its page view holds (picture, events) are unchanged.
"""
from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import render_test

import corruption_envs
from corruption_envs import play
from corruption_envs.bots import make_agent
from corruption_envs.recording import record_game, save_samples
from corruption_envs.viewer import build_page_data, page, seat_frame

GAMES = corruption_envs.list_games()


def random_points(game, seed, every):
    """A seeded random game with events recorded, yielded every `every` decisions while it runs
    (at the end the final count shows every seat its score, as at the table)."""
    env = corruption_envs.env(game, record_events=True)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    step = 0
    while not all(env.terminations.values()):
        if step % every == 0:
            yield env
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
        step += 1


@pytest.fixture(scope="module", params=GAMES)
def logged_game(request, tmp_path_factory):
    """(game, log path, env) of one heuristic game recorded with record_game."""
    game = request.param
    env = corruption_envs.env(game, record_events=True)
    agents = [make_agent("heuristic", env, seed=p) for p in range(len(env.possible_agents))]
    path = tmp_path_factory.mktemp(game) / "game.jsonl"
    record_game(env, agents, 11, path, game, ["heuristic"] * len(agents))
    return game, path, env


@pytest.mark.parametrize("game", GAMES)
def test_rgb_array_render_is_an_hxwx3_uint8_picture_of_the_whole_table(game):
    env = corruption_envs.env(game, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(25):
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.shape[0] > 300 and picture.shape[1] == 1200
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 20  # drawn, not a blank page
    np.testing.assert_array_equal(picture, env.picture_for(None))
    # a seat sees less than everything: its picture differs from the all-seeing one
    assert any(not np.array_equal(env.picture_for(a), picture) for a in env.possible_agents)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_render_test_passes_in_every_mode(game, capsys):
    # human mode prints the table at every step: captured, then checked to be there
    render_test(lambda render_mode: corruption_envs.env(game, render_mode=render_mode))
    assert capsys.readouterr().out


@pytest.mark.parametrize("game", GAMES)
def test_a_seats_picture_and_page_view_depend_only_on_its_information_set(game):
    points = changed = 0
    for env in random_points(game, seed=7, every=9):
        truth = env.picture_for(None)
        for p, agent in enumerate(env.possible_agents):
            picture, events = seat_frame(env, p)
            np.testing.assert_array_equal(picture, env.picture_for(agent))
            for seed in range(2):
                other = env.resample_hidden(agent, seed)
                again = seat_frame(other, p)
                np.testing.assert_array_equal(again[0], picture)
                assert again[1] == events
                changed += not np.array_equal(other.picture_for(None), truth)
                points += 1
    assert points > 40
    # the all-seeing picture does show what was redrawn: the check above has teeth
    assert changed > 0


@pytest.mark.parametrize("game", GAMES)
def test_the_rgb_array_mode_needs_pillow_and_says_how_to_install_it(game, monkeypatch):
    from corruption_envs.core import picture

    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now fails
    picture.font.cache_clear()
    with pytest.raises(ImportError, match=r"pip install corruption-envs\[render\]"):
        corruption_envs.env(game, render_mode="rgb_array")
    env = corruption_envs.env(game, render_mode="ansi")  # the other modes do not need it
    env.reset(seed=0)
    assert isinstance(env.render(), str)
    with pytest.raises(ImportError, match=r"corruption-envs\[render\]"):
        env.picture_for(env.possible_agents[0])


def test_the_envs_import_and_play_without_pillow():
    code = ("import sys; sys.modules['PIL'] = None\n"
            "import corruption_envs, numpy as np\n"
            "for g in corruption_envs.list_games():\n"
            "    env = corruption_envs.env(g); env.reset(seed=0)\n"
            "    env.step(int(np.flatnonzero(env.action_mask())[0]))\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def page_data(html: str) -> dict:
    start = html.index('id="data">') + len('id="data">')
    return json.loads(html[start:html.index("</script>", start)].replace("<\\/", "</"))


def test_the_page_is_one_offline_file_with_a_frame_per_position_and_view(logged_game, tmp_path):
    game, log, _ = logged_game
    out = tmp_path / "game.html"
    assert play.main(["--replay", str(log), "--html", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "http://" not in html and "https://" not in html and "<link" not in html
    data = page_data(html)
    header, actions, _ = play.read_log(str(log))
    players = header["players"]
    assert [v["key"] for v in data["views"]] == ["all"] + [f"player_{p}" for p in range(players)]
    for frames in data["frames"].values():
        assert len(frames) == len(actions) + 1
        for f in frames:
            assert all(0 <= i < len(data["strips"]) for i in f["picture"])
            assert data["strips"][f["picture"][0]].startswith("data:image/png;base64,")
    # everything names every move; a seat names its own and shows others' only as who moved
    assert [f["caption"] for f in data["frames"]["all"][1:]] == [
        f"{r['agent']}: {r['name']}" for r in actions]
    seat_caps = [f["caption"] for f in data["frames"]["player_1"][1:]]
    assert seat_caps == [f"{r['agent']}: {r['name']}" if r["agent"] == "player_1" else f"{r['agent']} moved"
                         for r in actions]


def test_a_one_seat_page_holds_no_other_seats_private_events(logged_game, tmp_path):
    game, log, env = logged_game
    header, actions, _ = play.read_log(str(log))
    html = page(build_page_data(env, header, actions, [1]))
    events = env.game_state.events
    seen = {text for audience, text in events if audience in (-1, 1)}
    private = {text for audience, text in events if audience not in (-1, 1)} - seen
    assert private, "the game has private events of other seats to leak"
    assert not [text for text in private if json.dumps(text)[1:-1] in html]
    assert set(page_data(html)["frames"]) == {"player_1"}


def test_html_bad_use_and_a_log_that_does_not_replay_exit_2_without_a_page(logged_game, tmp_path, capsys):
    game, log, _ = logged_game
    assert play.main(["--html", str(tmp_path / "x.html")]) == 2
    assert "--replay" in capsys.readouterr().err
    assert play.main(["--replay", str(log), "--html", str(tmp_path / "x.html"), "--html-views", "9"]) == 2
    assert "seat number" in capsys.readouterr().err
    lines = log.read_text().splitlines()
    moves = [k for k, line in enumerate(lines) if json.loads(line)["type"] == "action"]
    first, second = json.loads(lines[moves[0]]), json.loads(lines[moves[1]])
    second["index"] = first["index"] if first["index"] != second["index"] else second["index"] + 1
    lines[moves[1]] = json.dumps(second)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n")
    assert play.main(["--replay", str(broken), "--html", str(tmp_path / "y.html")]) == 2
    err = capsys.readouterr().err
    assert "step 2" in err and err.count("\n") == 1
    assert not (tmp_path / "y.html").exists()


def test_a_recorded_game_replays_to_its_logged_result(logged_game):
    _, log, _ = logged_game
    out = io.StringIO()
    assert play.main(["--replay", str(log)], play.Console(io.StringIO(), out)) == 0
    assert "Game over" in out.getvalue() and "differs" not in out.getvalue()


def test_save_samples_writes_a_log_and_a_page_per_seed(tmp_path):
    env = corruption_envs.env("corruption", num_players=3, record_events=True)
    agents = [make_agent("random", env, seed=p) for p in range(3)]
    paths = save_samples(env, agents, [1, 2], tmp_path / "samples", "corruption", ["random"] * 3)
    assert sorted(p.name for p in paths) == ["game-1.html", "game-1.jsonl", "game-2.html", "game-2.jsonl"]
    assert all(p.stat().st_size > 0 for p in paths)
    with pytest.raises(ValueError, match="record_events=True"):
        record_game(corruption_envs.env("corruption"), agents, 1, tmp_path / "x.jsonl", "corruption",
                    ["random"] * 3)
