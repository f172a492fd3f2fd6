"""Record a game between bots as an animated GIF (Pillow) or an MP4 (imageio, if installed).

    python -m benchmarks.record_video --game corruption --agents heuristic --seed 1 --out game.gif
    python -m benchmarks.record_video --game corruptia --players 4 --agents heuristic random heuristic random --seat 0 \
        --every 2 --fps 4 --out corruptia.gif
    pip install "imageio[ffmpeg]" && python -m benchmarks.record_video --game construction --out game.mp4

One frame per position (every `--every`-th, and always the last) of the table as `--seat` sees it
(default: everything), from `env.render()` with render_mode="rgb_array" or `env.picture_for(agent)`.
Pictures grow with the table, so frames are padded at the bottom to the tallest one.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

import numpy as np

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core.picture import BACKGROUND

MP4_HINT = 'pip install "imageio[ffmpeg]"'


def game_frames(game: str, specs: Sequence[str], seed: int, seat: int | None = None,
                every: int = 1, **config: object) -> list[np.ndarray]:
    """The pictures of one seeded game between bots `specs` (one for all, or one per seat)."""
    env = corruption_envs.env(game, render_mode="rgb_array", **config)
    env.reset(seed=seed)
    n = len(env.possible_agents)
    specs = list(specs) * n if len(specs) == 1 else list(specs)
    if len(specs) != n:
        raise ValueError(f"--agents takes one spec for all or {n} (one per seat); got {len(specs)}")
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"--seat {seat} is not a seat of a {n}-player game (0..{n - 1})")
    bots = [make_agent(spec, env, seed=seed * 100 + p) for p, spec in enumerate(specs)]
    view = None if seat is None else env.possible_agents[seat]
    frames, step = [], 0
    while not any(env.terminations.values()):
        if step % every == 0:
            frames.append(env.picture_for(view))
        obs = env.observe(env.agent_selection)
        env.step(int(bots[env.agent_name_mapping[env.agent_selection]].act(obs["observation"],
                                                                           obs["action_mask"])))
        step += 1
    frames.append(env.picture_for(view))
    return frames


def pad(frames: Sequence[np.ndarray], multiple: int = 1) -> list[np.ndarray]:
    """Frames of one size: each padded at the bottom (background colour) to the tallest, rounded up
    to a multiple of `multiple` rows (video codecs work in 16-pixel blocks)."""
    height = -(-max(f.shape[0] for f in frames) // multiple) * multiple
    out = []
    for f in frames:
        extra = np.empty((height - f.shape[0], f.shape[1], 3), np.uint8)
        extra[:] = BACKGROUND
        out.append(np.concatenate([f, extra]))
    return out


def imageio():
    """imageio's v3 API, or ImportError naming the install (MP4 is optional)."""
    try:
        import imageio.v3 as iio
    except ImportError:
        raise ImportError(f"writing MP4 needs imageio with ffmpeg: {MP4_HINT}") from None
    return iio


def save(frames: Sequence[np.ndarray], path: Path, fps: float) -> None:
    """A GIF (Pillow) or, for .mp4, a video through imageio (ImportError naming the install)."""
    if path.suffix.lower() == ".mp4":
        imageio().imwrite(path, np.stack(pad(frames, 16)), fps=fps, codec="libx264")
        return
    frames = pad(frames)
    from PIL import Image

    images = [Image.fromarray(f) for f in frames]
    images[0].save(path, save_all=True, append_images=images[1:], duration=int(1000 / fps), loop=0,
                   optimize=True)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.record_video", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="corruption", choices=corruption_envs.list_games())
    p.add_argument("--players", type=int, help="number of players (default: the game's)")
    p.add_argument("--agents", nargs="+", default=["heuristic"],
                   help="random, heuristic or a policy file: one for all or one per seat")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--seat", type=int, help="draw the table as this seat sees it (default: everything)")
    p.add_argument("--every", type=int, default=1, help="keep every k-th position (default 1)")
    p.add_argument("--fps", type=float, default=2.0, help="frames per second (default 2)")
    p.add_argument("--out", type=Path, required=True, help="a .gif, or a .mp4 (needs imageio)")
    args = p.parse_args(argv)
    if args.every < 1 or args.fps <= 0:
        print("error: --every must be >= 1 and --fps > 0", file=sys.stderr)
        return 2
    if args.out.suffix.lower() not in (".gif", ".mp4"):
        print(f"error: --out {args.out} must end in .gif or .mp4", file=sys.stderr)
        return 2
    config = {} if args.players is None else {"num_players": args.players}
    try:
        if args.out.suffix.lower() == ".mp4":
            imageio()  # before playing the game, not after
        frames = game_frames(args.game, args.agents, args.seed, args.seat, args.every, **config)
        save(frames, args.out, args.fps)
    except (ValueError, ImportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {len(frames)} frames of {frames[0].shape[1]} px wide")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
