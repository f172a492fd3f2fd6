"""A search-free clone of a search bot: a policy fitted to the search's own decisions, to train against.

    python -m training.search_clone --game construction --search ismcts:1600 \\
        --lone policies/construction/champion.npz --games 32 --out clone.npz

Training against a search bot costs a search a move (ISMCTS at 1,600 simulations: about half a CPU second
a Construction move), so a learner cannot meet it for the hundreds of thousands of games PPO plays. A clone
is the cheap stand-in: games in which one seat is the `--lone` agent (rotating over the seats) and every
other seat is the search bot, each search decision kept with the share of root visits each move got; then
`--lone`'s actor (a policy file) fitted to those shares (expert iteration's distillation,
`expert_iteration/distill.py`). The clone plays greedy, as the search plays its most visited move, and
decides at engine speed: a best response to three clones is a guess at one to three searches
(`python -m benchmarks.exploit --policy clone.npz`). The recorded observations are the search seats' own
views, and each search draws its determinizations from its seat's information set only.

`--workers 2` shares the games over two processes (the same decisions as one). `--keep play.npz` writes
the decisions; `--add` fits earlier ones beside the new: a clone refitted with the games a best response
to it played against the real search also knows the positions that policy leads the search into (DAgger's
step), and plays more like the search there. Expert iteration's kept targets (`targets_KK.npz` in its run
folder) are recordings too: `--games 0 --add targets_01.npz --lone iteration_00.npz` fits its student again.
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise
from typing import Any

import numpy as np
import torch

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core import GameEnv
from corruption_envs.core.rewards import winners
from corruption_envs.core.threads import one_blas_thread
from corruption_envs.evaluation import wilson_interval
from corruption_envs.policy import NumpyPolicy, read_policy_file
from corruption_envs.search import root_shares, search_agent

from .expert_iteration.distill import distill
from .expert_iteration.recording import PLAY_ARRAYS, SearchPlay, joined
from .run_folder import missing_folder


def check_search(search: str) -> None:
    """Only an unguided ISMCTS bot's visit shares are the search's own to clone."""
    if "@" in search or search.split(":", 1)[0] != "ismcts":
        raise ValueError(f"search {search!r}: give an unguided ISMCTS bot such as ismcts:1600, whose visit "
                         "shares the clone learns")


def record_search_play(env: GameEnv, search: str, lone: str, games: int, seed: int,
                       progress: bool = False, first: int = 0) -> SearchPlay:
    """Play games first .. first + games - 1 of `env` (game g: deal seed seed + g): in game g seat g mod n
    is the `lone` agent (a bot or a policy file), every other seat the ISMCTS bot `search` names; keep each
    search decision that had a choice. The moves played are the bots' own (`decide` is what `act` plays);
    every seed is the game's own, so a game plays alike whichever process plays it."""
    if games < 1:
        raise ValueError(f"games={games}: record at least 1 game")
    check_search(search)
    agents = env.possible_agents
    bots = [search_agent(search, env) for _ in agents]
    lone_agent = make_agent(lone, env)
    obs, masks, visits, played, lone_points = [], [], [], [], []
    t0 = time.monotonic()
    for g in range(first, first + games):
        env.reset(seed=seed + g)
        lone_seat = agents[g % len(agents)]
        for k, bot in enumerate([*bots, lone_agent]):
            bot.seed(seed * 7919 + g * (len(agents) + 1) + k)
        lone_agent.start_game()
        ranks = {}
        for name in env.agent_iter():
            view, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                ranks[name] = info["rank"]
                env.step(None)
                continue
            if name == lone_seat:
                env.step(int(lone_agent.act(view["observation"], view["action_mask"])))
                continue
            action, stats = bots[agents.index(name)].decide(view["observation"], view["action_mask"])
            if stats is not None:
                obs.append(np.asarray(view["observation"], np.float32))
                masks.append(np.asarray(view["action_mask"]) != 0)
                visits.append(root_shares(stats, len(view["action_mask"]))[0])
                played.append(g)
            env.step(action)
        first_place = winners([ranks[a] for a in agents])
        lone_points.append(1 / len(first_place) if agents.index(lone_seat) in first_place else 0.0)
        if progress:
            print(f"game {g + 1 - first} of {games}{'' if first == 0 else f' from game {first}'}: {len(played)} "
                  f"search decisions ({time.monotonic() - t0:.0f} s)", flush=True)
    actions = env.unwrapped.num_actions
    return SearchPlay(np.asarray(obs, np.float32).reshape(-1, env.unwrapped.observation_layout.size),
                      np.asarray(masks, bool).reshape(-1, actions), np.asarray(visits).reshape(-1, actions),
                      np.asarray(played, np.int64), np.asarray(lone_points, np.float64))


def _record_part(game: str, players: int, search: str, lone: str, seed: int, first: int, games: int) -> SearchPlay:
    with one_blas_thread():
        return record_search_play(corruption_envs.env(game, num_players=players), search, lone, games, seed,
                                  progress=True, first=first)


def record_in_processes(game: str, players: int, search: str, lone: str, games: int, seed: int,
                        workers: int) -> SearchPlay:
    """`record_search_play`'s games 0 .. games - 1 split over `workers` processes; the same decisions
    in the same order as one process records them."""
    if workers < 1:
        raise ValueError(f"workers={workers}: give at least 1 process")
    if games < 1:
        raise ValueError(f"games={games}: record at least 1 game")
    check_search(search)
    bounds = np.linspace(0, games, min(workers, games) + 1).astype(int)
    parts = [(game, players, search, lone, seed, int(a), int(b - a)) for a, b in pairwise(bounds)]
    if len(parts) == 1:
        return _record_part(*parts[0])
    with ProcessPoolExecutor(len(parts)) as pool:
        plays = list(pool.map(_record_part, *zip(*parts)))
    return SearchPlay(*(np.concatenate([getattr(p, k) for p in plays]) for k in PLAY_ARRAYS))


def fit_clone(start: NumpyPolicy, play: SearchPlay, env: GameEnv, target_temperature: float = 0.25,
              epochs: int = 80, batch_size: int = 128, learning_rate: float = 1e-3, seed: int = 0,
              meta: dict[str, Any] | None = None,
              sample_at: float | None = None) -> tuple[NumpyPolicy, dict[str, float]]:
    """`start`'s actor fitted to the search's visit shares in `play` (a held-out tenth of the games
    measures the fit); the clone plays greedy, or samples its softmax at temperature `sample_at`.
    Returns the clone and the fit's figures."""
    prior_moves = None
    if start.prior is not None:  # the start's prior bot's move at each position, as its actor reads it
        prior_bot = make_agent(start.prior, env, seed=seed)
        prior_moves = np.asarray(prior_bot.act_batch(play.observations, play.masks), np.int64)
    plays = {"play": "greedy"} if sample_at is None else {"play": "sample", "temperature": sample_at}
    meta = {"timesteps": 0, **start.meta, **(meta or {}), **plays}
    return distill(start, play.observations, play.masks, play.visits, play.games, prior_moves,
                   target_temperature, epochs, batch_size, learning_rate, seed, meta)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.search_clone", description=__doc__.split("\n")[0])
    p.add_argument("--game", required=True)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--search", default="ismcts:1600", help="the ISMCTS bot to clone (default ismcts:1600)")
    p.add_argument("--lone", required=True,
                   help="the policy file the clone starts from; it also plays the one seat that is not the search")
    p.add_argument("--games", type=int, default=32,
                   help="games recorded (about 85 search decisions each); 0 with --add: fit the added ones only")
    p.add_argument("--seed", type=int, default=0, help="deal seeds seed, seed + 1, ...; the bots' and the fit's seeds")
    p.add_argument("--workers", type=int, default=1, help="processes the games are shared over (one per core)")
    p.add_argument("--keep", metavar="PATH", help="also write this run's search decisions (.npz), to --add later")
    p.add_argument("--add", metavar="PATH", nargs="+", default=[],
                   help="earlier recordings (--keep) fitted together with this run's: of other deals, or of another "
                        "--lone, so that the clone also knows the positions that policy leads the search into")
    p.add_argument("--temperature", type=float, default=0.25, help="visit shares sharpened by 1 / temperature")
    p.add_argument("--epochs", type=int, default=80)
    p.add_argument("--sample-at", type=float, metavar="T",
                   help="the clone samples its softmax at temperature T (default: it plays greedy); 0.3 met "
                        "Construction's best responses most like the search does (results ablation 21)")
    p.add_argument("--out", required=True, help="the clone's policy file")
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    try:
        for flag, path in (("--out", args.out), ("--keep", args.keep)):
            if problem := missing_folder(flag, path):
                raise ValueError(problem)
        if args.sample_at is not None and not args.sample_at > 0:
            raise ValueError(f"--sample-at {args.sample_at}: give a temperature above 0, or leave it out to play greedy")
        if args.games < 0 or (args.games == 0 and not args.add):
            raise ValueError(f"--games {args.games}: record at least 1 game, or give 0 with --add to fit earlier "
                             "recordings only")
        env = corruption_envs.env(args.game, num_players=args.players)
        start = read_policy_file(args.lone)
        plays = [SearchPlay.load(path, env) for path in args.add]
        if args.games:
            recorded = record_in_processes(args.game, args.players, args.search, args.lone, args.games, args.seed,
                                           args.workers)
            if args.keep:
                recorded.save(args.keep)
            plays.append(recorded)
            low, high = wilson_interval(recorded.lone_points.sum(), args.games)
            print(f"--lone won {recorded.lone_points.mean():.3f} [{low:.3f}, {high:.3f}] of its {args.games} games "
                  f"against the search (one seat in {args.players}, rotated)", flush=True)
        play = joined(plays)
        clone, fit = fit_clone(start, play, env, args.temperature, args.epochs, seed=args.seed,
                               meta={"clone_of": args.search, "clone_games": len(np.unique(play.games))},
                               sample_at=args.sample_at)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    clone.save(args.out)
    nan = float("nan")  # one game leaves none held out to measure the fit on
    print(f"{len(play)} search decisions in {len(np.unique(play.games))} games; held-out KL to the search "
          f"{fit.get('heldout_kl_before', nan):.3f} -> {fit.get('heldout_kl', nan):.3f}, top-move agreement "
          f"{fit.get('heldout_top_move_agreement_before', nan):.3f} -> "
          f"{fit.get('heldout_top_move_agreement', nan):.3f}; the clone is {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
