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
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core import GameEnv
from corruption_envs.core.threads import one_blas_thread
from corruption_envs.policy import NumpyPolicy, read_policy_file
from corruption_envs.search import root_shares, search_agent

from .expert_iteration.distill import distill


@dataclass
class SearchPlay:
    """The search seats' decisions with more than one legal move, in play order."""

    observations: np.ndarray  # (N, obs) float32, the deciding seat's own observation
    masks: np.ndarray  # (N, actions) bool
    visits: np.ndarray  # (N, actions) float64, the share of root visits each move got
    games: np.ndarray  # (N,) int64, the game each decision was made in

    def __len__(self) -> int:
        return len(self.games)


def record_search_play(env: GameEnv, search: str, lone: str, games: int, seed: int,
                       progress: bool = False) -> SearchPlay:
    """Play `games` games of `env` (deal seeds seed, seed + 1, ...): in game g seat g mod n is the `lone`
    agent (a bot or a policy file), every other seat the ISMCTS bot `search` names; keep each search
    decision that had a choice. The moves played are the bots' own (`decide` is what `act` plays)."""
    if games < 1:
        raise ValueError(f"games={games}: record at least 1 game")
    if "@" in search or search.split(":", 1)[0] != "ismcts":
        raise ValueError(f"search {search!r}: give an unguided ISMCTS bot such as ismcts:1600, whose visit "
                         "shares the clone learns")
    agents = env.possible_agents
    bots = [search_agent(search, env) for _ in agents]
    lone_agent = make_agent(lone, env)
    obs, masks, visits, played = [], [], [], []
    t0 = time.monotonic()
    for g in range(games):
        env.reset(seed=seed + g)
        lone_seat = agents[g % len(agents)]
        for k, bot in enumerate([*bots, lone_agent]):
            bot.seed(seed * 7919 + g * (len(agents) + 1) + k)
        lone_agent.start_game()
        for name in env.agent_iter():
            view, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
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
        if progress:
            print(f"game {g + 1} of {games}: {len(played)} search decisions ({time.monotonic() - t0:.0f} s)",
                  flush=True)
    actions = env.unwrapped.num_actions
    return SearchPlay(np.asarray(obs, np.float32).reshape(-1, env.unwrapped.observation_layout.size),
                      np.asarray(masks, bool).reshape(-1, actions), np.asarray(visits).reshape(-1, actions),
                      np.asarray(played, np.int64))


def fit_clone(start: NumpyPolicy, play: SearchPlay, env: GameEnv, target_temperature: float = 0.25,
              epochs: int = 80, batch_size: int = 128, learning_rate: float = 1e-3, seed: int = 0,
              meta: dict[str, Any] | None = None) -> tuple[NumpyPolicy, dict[str, float]]:
    """`start`'s actor fitted to the search's visit shares in `play` (a held-out tenth of the games
    measures the fit); the clone plays greedy. Returns the clone and the fit's figures."""
    prior_moves = None
    if start.prior is not None:  # the start's prior bot's move at each position, as its actor reads it
        prior_bot = make_agent(start.prior, env, seed=seed)
        prior_moves = np.asarray(prior_bot.act_batch(play.observations, play.masks), np.int64)
    meta = {"timesteps": 0, **start.meta, **(meta or {}), "play": "greedy"}
    return distill(start, play.observations, play.masks, play.visits, play.games, prior_moves,
                   target_temperature, epochs, batch_size, learning_rate, seed, meta)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.search_clone", description=__doc__.split("\n")[0])
    p.add_argument("--game", required=True)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--search", default="ismcts:1600", help="the ISMCTS bot to clone (default ismcts:1600)")
    p.add_argument("--lone", required=True,
                   help="the policy file the clone starts from; it also plays the one seat that is not the search")
    p.add_argument("--games", type=int, default=32, help="games recorded (about 85 search decisions each)")
    p.add_argument("--seed", type=int, default=0, help="deal seeds seed, seed + 1, ...; the bots' and the fit's seeds")
    p.add_argument("--temperature", type=float, default=0.25, help="visit shares sharpened by 1 / temperature")
    p.add_argument("--epochs", type=int, default=80)
    p.add_argument("--out", required=True, help="the clone's policy file")
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    try:
        env = corruption_envs.env(args.game, num_players=args.players)
        start = read_policy_file(args.lone)
        with one_blas_thread():
            play = record_search_play(env, args.search, args.lone, args.games, args.seed, progress=True)
        clone, fit = fit_clone(start, play, env, args.temperature, args.epochs, seed=args.seed,
                               meta={"clone_of": args.search, "clone_games": args.games})
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    clone.save(args.out)
    nan = float("nan")  # one game leaves none held out to measure the fit on
    print(f"{len(play)} search decisions in {args.games} games; held-out KL to the search "
          f"{fit.get('heldout_kl_before', nan):.3f} -> {fit.get('heldout_kl', nan):.3f}, top-move agreement "
          f"{fit.get('heldout_top_move_agreement_before', nan):.3f} -> "
          f"{fit.get('heldout_top_move_agreement', nan):.3f}; the clone is {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
