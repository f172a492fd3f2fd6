"""A policy file that plays like a search bot: an MLP fitted to the search's own moves.

ISMCTS at a strong budget (`ismcts:1600`, about a second a move) cannot sit in a training run's
opponent pool: 600k learner steps meet about two million opponent moves. Its moves are data, though.
`collect` plays seeded games of one `--against` seat (the champion) and search seats, and records
every search decision (observation, mask, move); `fit` fits a fresh actor to them by masked
cross-entropy (`imitation.fit`) and exports a sampling policy file. Sampled, the copy plays moves
like the search's at the cost of one forward pass, so a pool can seat it (`pool.mix` takes policy
files) and the learner trains against a stand-in for the search field it is measured against: behaviour
cloning of the opponent, then a best response to the clone.

    python -m analysis.search_clone collect --game construction --search ismcts:1600 \\
        --against policies/construction/champion.npz --games 12 --seed 101 --out runs/clone/s101.npz
    python -m analysis.search_clone fit --game construction --data runs/clone/*.npz \\
        --out policies/construction/ismcts-clone.npz

Data files hold plain arrays only (read with `allow_pickle=False`).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Sequence

import numpy as np

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.safe_npz import NpzError, read_npz

from training.imitation import Demonstrations

DATA_ARRAYS = ("observations", "masks", "actions")
DATA_MAX_BYTES = 1 << 31  # a data file's arrays: ~60k decisions a GiB


def game_seeds(seed: int, game: int, num_players: int) -> tuple[int, list[int], int]:
    """(deal seed, agent seed per seat, the `--against` seat) of game number `game` of a run: every
    game stands alone, so a run split into parts records the same games."""
    return seed * 100000 + game, [seed * 1000 + game * 10 + s for s in range(num_players)], game % num_players


def play_one(game: str, search: str, against: str, seed: int, index: int, num_players: int,
             env: Any = None) -> tuple[list[np.ndarray], list[np.ndarray], list[int], dict[str, Any]]:
    """One recorded game: the search seats' (observations, masks, moves) and the game's result."""
    env = env or corruption_envs.env(game, num_players=num_players)
    deal, agent_seeds, hero = game_seeds(seed, index, num_players)
    agents = [make_agent(against if s == hero else search, env, seed=agent_seeds[s]) for s in range(num_players)]
    env.reset(seed=deal)
    seat_of = {a: i for i, a in enumerate(env.possible_agents)}
    obs, masks, actions = [], [], []
    cpu, moves = [0.0] * num_players, [0] * num_players
    for name in env.agent_iter():
        seen, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        seat = seat_of[name]
        start = time.process_time()
        action = agents[seat].act(seen["observation"], seen["action_mask"])
        cpu[seat] += time.process_time() - start
        moves[seat] += 1
        if seat != hero:
            obs.append(np.array(seen["observation"], np.float32))
            masks.append(seen["action_mask"].astype(bool))
            actions.append(int(action))
        env.step(action)
    result = {"game": index, "against_seat": hero,
              "ranks": [float(env.infos[a]["rank"]) for a in env.possible_agents],
              "scores": [float(env.infos[a]["score"]) for a in env.possible_agents],
              "cpu_ms_per_move": [round(1000 * c / max(m, 1)) for c, m in zip(cpu, moves)]}
    return obs, masks, actions, result


def collect(game: str, search: str, against: str, games: int, seed: int, out: Path,
            num_players: int = 4, first: int = 0) -> dict[str, Any]:
    """Play recorded games `first` .. `first + games - 1`; writes `out` (the search decisions, rewritten
    after every game so a stopped run keeps what it played) and `out`.json (each game's result)."""
    env = corruption_envs.env(game, num_players=num_players)
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    results = []
    for index in range(first, first + games):
        t0 = time.monotonic()
        o, m, a, result = play_one(game, search, against, seed, index, num_players, env)
        obs += o
        masks += m
        actions += a
        results.append({**result, "seconds": round(time.monotonic() - t0, 1)})
        save_data(out, Demonstrations(np.stack(obs), np.stack(masks), np.array(actions, np.int64),
                                      np.zeros(len(actions), np.float32)))
        summary = {"game": game, "search": search, "against": against, "seed": seed,
                   "num_players": num_players, "decisions": len(actions), "games": results}
        out.with_suffix(".json").write_text(json.dumps(summary, indent=1))
        print(f"game {index}: {len(a)} search decisions, ranks {result['ranks']} "
              f"({results[-1]['seconds']} s)", flush=True)
    return summary


def save_data(path: Path, data: Demonstrations) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        np.savez_compressed(f, observations=data.observations, masks=data.masks, actions=data.actions)


def load_data(paths: Sequence[Path], obs_size: int, num_actions: int) -> Demonstrations:
    """The decisions of `paths`, checked: plain arrays of the env's shapes, every move legal."""
    parts = []
    for path in paths:
        try:
            arrays = read_npz(path, DATA_MAX_BYTES)
        except (OSError, NpzError) as e:
            raise ValueError(f"{path}: not a search-clone data file ({e}); write it with "
                             "`python -m analysis.search_clone collect`") from None
        missing = [k for k in DATA_ARRAYS if k not in arrays]
        if missing:
            raise ValueError(f"{path}: no {missing} arrays; write it with `python -m analysis.search_clone collect`")
        o, m, a = (arrays[k] for k in DATA_ARRAYS)
        rows = len(a)
        if o.shape != (rows, obs_size) or m.shape != (rows, num_actions) or a.ndim != 1:
            raise ValueError(f"{path}: arrays shaped {o.shape}, {m.shape}, {a.shape}; this game needs "
                             f"(N, {obs_size}), (N, {num_actions}), (N,)")
        if rows and not (((0 <= a) & (a < num_actions)).all() and m[np.arange(rows), a].all()):
            raise ValueError(f"{path}: a recorded move is outside its mask; the file is corrupt")
        parts.append((o.astype(np.float32), m.astype(bool), a.astype(np.int64)))
    if not parts or not sum(len(p[2]) for p in parts):
        raise ValueError("no decisions in the data files given")
    o, m, a = (np.concatenate(x) for x in zip(*parts))
    return Demonstrations(o, m, a, np.zeros(len(a), np.float32))


def fit_clone(game: str, data: Demonstrations, source: str, epochs: int = 10, batch_size: int = 256,
              learning_rate: float = 1e-3, seed: int = 0, net_arch: Sequence[int] = (128, 128)) -> tuple[Any, dict]:
    """A fresh actor (tanh MLP) fitted to `data`; returns the sampling NumpyPolicy and the fit's
    held-out figures."""
    import gymnasium as gym
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from training.export import ACTIVATION_MODULES, export_actor
    from training.imitation import fit

    torch.manual_seed(seed)
    probe = corruption_envs.env(game)
    space = gym.spaces.Box(0.0, 1.0, (probe.unwrapped.observation_layout.size,), np.float32)
    arch = list(net_arch)
    policy = MaskableActorCriticPolicy(space, gym.spaces.Discrete(probe.unwrapped.num_actions), lambda _: learning_rate,
                                       net_arch={"pi": arch, "vf": arch}, activation_fn=ACTIVATION_MODULES["tanh"])
    stats = fit(policy, data, epochs, batch_size, learning_rate, seed)
    rules = probe.unwrapped.rules
    # observations are padded to the largest table, so the clone plays at every count (what it does at
    # counts it was not recorded at is its 4-player habit, which is all a pool seat needs)
    meta = {"game": game, "game_version": rules.version, "min_players": rules.min_players,
            "max_players": rules.max_players, "play": "sample",
            "clone_of": source, "decisions": len(data), **{k: round(v, 4) for k, v in stats.items()}}
    return export_actor(SimpleNamespace(policy=policy), "tanh", meta), stats  # it reads model.policy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.search_clone", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="record a search bot's moves in seeded games")
    c.add_argument("--game", required=True, choices=corruption_envs.list_games())
    c.add_argument("--search", required=True, help="the search spec to record, e.g. ismcts:1600")
    c.add_argument("--against", required=True, help="the agent in the one other seat, e.g. a champion file")
    c.add_argument("--games", type=int, required=True)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--first", type=int, default=0, help="the first game's number (to play a run in parts)")
    c.add_argument("--players", type=int, default=4)
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit", help="fit a sampling policy file to recorded moves")
    f.add_argument("--game", required=True, choices=corruption_envs.list_games())
    f.add_argument("--data", type=Path, nargs="+", required=True)
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--epochs", type=int, default=10)
    f.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        if args.command == "collect":
            for spec in (args.search, args.against):
                make_agent(spec, corruption_envs.env(args.game, num_players=args.players), seed=0)
            collect(args.game, args.search, args.against, args.games, args.seed, args.out, args.players, args.first)
            return 0
        import torch

        torch.set_num_threads(1)
        probe = corruption_envs.env(args.game).unwrapped
        data = load_data(args.data, probe.observation_layout.size, probe.num_actions)
        sources = sorted({json.loads(p.with_suffix(".json").read_text())["search"]
                          for p in args.data if p.with_suffix(".json").is_file()})
        policy, stats = fit_clone(args.game, data, " + ".join(sources) or "unknown", args.epochs, seed=args.seed)
        policy.save(args.out)
        print(f"{len(data)} decisions; held-out accuracy {stats['heldout_accuracy']:.3f}, cross-entropy "
              f"{stats['heldout_cross_entropy']:.3f}; wrote {args.out}")
        return 0
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
