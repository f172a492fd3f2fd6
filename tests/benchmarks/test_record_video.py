"""benchmarks.record_video: the README's recipe for a GIF of a game (MP4 when imageio is installed)."""
from __future__ import annotations

import sys

import numpy as np
from PIL import Image

from benchmarks import record_video


def test_a_gif_of_a_game_has_one_frame_per_kept_position_all_of_one_size(tmp_path, capsys):
    frames = record_video.game_frames("corruption", ["random"], seed=3, seat=1, every=10, num_players=3)
    out = tmp_path / "game.gif"
    assert record_video.main(["--game", "corruption", "--players", "3", "--agents", "random",
                              "--seed", "3", "--seat", "1", "--every", "10", "--out", str(out)]) == 0
    assert f"{len(frames)} frames" in capsys.readouterr().out
    gif = Image.open(out)
    assert gif.n_frames == len(frames) > 3
    assert gif.size == (1200, max(f.shape[0] for f in frames))
    gif.seek(len(frames) - 1)
    last = np.asarray(gif.convert("RGB"))
    # the last frame is the finished table as seat 1 sees it (padded to the tallest frame)
    assert np.abs(last[: frames[-1].shape[0]].astype(int) - frames[-1]).mean() < 8


def test_frames_are_padded_to_the_tallest():
    small, tall = np.zeros((10, 4, 3), np.uint8), np.ones((25, 4, 3), np.uint8)
    padded = record_video.pad([small, tall])
    assert [f.shape for f in padded] == [(25, 4, 3), (25, 4, 3)]
    np.testing.assert_array_equal(padded[0][:10], small)
    assert (padded[0][10:] == record_video.BACKGROUND).all()
    assert [f.shape[0] for f in record_video.pad([small, tall], multiple=16)] == [32, 32]


def test_bad_arguments_and_a_missing_mp4_writer_exit_2_naming_the_fix(tmp_path, capsys, monkeypatch):
    assert record_video.main(["--out", str(tmp_path / "x.png")]) == 2
    assert ".gif or .mp4" in capsys.readouterr().err
    assert record_video.main(["--players", "3", "--seat", "5", "--out", str(tmp_path / "x.gif")]) == 2
    assert "--seat 5" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "imageio", None)
    monkeypatch.setitem(sys.modules, "imageio.v3", None)
    assert record_video.main(["--out", str(tmp_path / "x.mp4")]) == 2
    assert 'pip install "imageio[ffmpeg]"' in capsys.readouterr().err
    assert not (tmp_path / "x.mp4").exists()
