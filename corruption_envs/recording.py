"""Record bot games as `play --log` files and their replay pages (training samples, tournament games).

    record_game(env, agents, seed, "game.jsonl", seats=[...])   # one game, the log play.py replays
    save_samples(env, agents, seeds, folder, seats=[...])        # a few games: .jsonl + .html each
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from .core import Agent, GameEnv
from .game_log import GameLog, game_over, read_log, results
from .viewer import write_page


def record_game(env: GameEnv, agents: Sequence[Agent], seed: int, path: str | Path, game: str,
                seats: Sequence[str]) -> dict[str, Any]:
    """Play one game from env.reset(seed) with agents[p] in seat p, logged to `path` in play.py's
    --log format (so `play --replay` and `play --replay --html` read it); returns the results.

    `env` must be built with record_events=True (the events are what a replay shows); `game` is its
    registered name and `seats` a label per seat (e.g. the agent specs)."""
    if not env.config.get("record_events"):
        raise ValueError("record_game needs an env built with record_events=True")
    env.reset(seed=seed)
    header = {"game": game, "env": env.metadata.get("name", game), "players": len(env.possible_agents),
              "seed": seed, "config": dict(env.config), "seats": dict(zip(env.possible_agents, seats)),
              "human": None}
    log = GameLog(str(path), header)
    try:
        while not game_over(env):
            agent = env.agent_selection
            obs = env.observe(agent)
            action = int(agents[env.agent_name_mapping[agent]].act(obs["observation"], obs["action_mask"]))
            name, before = env.action_name(action), len(env.public_events())
            env.step(action)
            log.write({"type": "action", "agent": agent, "index": action, "name": name,
                       "events": env.public_events()[before:]})
        res = results(env)
        log.write({"type": "end", **res})
    finally:
        log.close()
    return res


def write_html(log_path: str | Path, html_path: str | Path, env: GameEnv) -> Path:
    """The replay page of a log that `env` (same game and config) can replay, every view."""
    header, actions, _ = read_log(str(log_path))
    return write_page(env, header, actions, html_path, [None, *range(len(env.possible_agents))])


def save_samples(env: GameEnv, agents: Sequence[Agent], seeds: Sequence[int], folder: str | Path,
                 game: str, seats: Sequence[str]) -> list[Path]:
    """One logged game and its page per seed in `folder` (game-<seed>.jsonl / .html); the paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        log = folder / f"game-{seed}.jsonl"
        record_game(env, agents, seed, log, game, seats)
        paths += [log, write_html(log, folder / f"game-{seed}.html", env)]
    return paths
