"""How predictable is a search bot's move? Two measures of how far a search-free model of it (a clone,
`training.search_clone`) can be faithful.

    python -m analysis.search_predictability --game construction --search ismcts:1600 \\
        --field clone.npz --lone policies/construction/champion.npz --positions 240 --models clone.npz
    python -m analysis.search_predictability --game construction --recording play.npz --models clone.npz

- **Against itself**: positions from games of `--lone` in one seat (rotating) and `--field` in the others;
  at a random share of the field's decisions with a choice, the search runs twice with independent seeds.
  Its top-move agreement with itself (and the overlap of its two visit-share vectors) is the ceiling of
  any model's top-move agreement with it; each `--models` file's move is compared with the first run.
- **On a recording** (`search_clone --keep`): the mean log-likelihood of the move the search played (its
  most visited) under each `--models` file at several play temperatures, beside uniform play over the
  legal moves. A model below uniform is a confident wrong guess; give a recording the model was not
  fitted to (another `--seed` of the recording's games, or other deals).
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.core import GameEnv
from corruption_envs.core.threads import one_blas_thread
from corruption_envs.policy import NumpyPolicy, load_policy
from corruption_envs.search import root_shares, search_agent
from training.expert_iteration.recording import SearchPlay

TEMPERATURES = (0.3, 0.5, 1.0, 1.5, 2.0)  # play temperatures a model's log-likelihood is read at


def uniform_loglik(masks: np.ndarray) -> float:
    """Mean log-likelihood of any legal move under uniform play over the legal moves."""
    return float(np.mean(-np.log(masks.sum(axis=1))))


def played_move_loglik(policy: NumpyPolicy, play: SearchPlay, temperature: float) -> tuple[float, float]:
    """Mean log-likelihood of the search's most visited move under `policy`'s softmax at `temperature`
    (its prior's bonus included), and the mean collision probability of that softmax (sum of p**2: the
    chance two draws agree)."""
    z = policy.logits_with_prior(play.observations, play.masks).astype(np.float64)
    rows = np.arange(len(play))
    z = np.where(play.masks, z / temperature, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    played = play.visits.argmax(axis=1)
    return float(np.mean(np.log(np.maximum(p[rows, played], 1e-12)))), float(np.mean((p ** 2).sum(axis=1)))


def self_agreement(env: GameEnv, search: str, lone: str, field: str, positions: int, seed: int,
                   models: list[str] = ()) -> dict[str, float]:
    """The search run twice (independent seeds) at `positions` of the field's decisions with a choice, in
    games of `lone` (seat g mod n of game g, dealt from seed * 1000 + g) against `field`: its top-move
    agreement with itself, the mean overlap of its two visit-share vectors, and each of `models`' greedy
    agreement with its first run's top move."""
    if positions < 1:
        raise ValueError(f"positions={positions}: ask for at least 1 position")
    agents = env.possible_agents
    first, second = search_agent(search, env), search_agent(search, env)
    lone_agent, field_agent = make_agent(lone, env), make_agent(field, env)
    judged = [make_agent(m, env, sample=False) for m in models]
    rng = np.random.default_rng(seed)
    tops, overlaps, model_moves = [], [], []
    g = 0
    while len(tops) < positions:
        env.reset(seed=seed * 1000 + g)
        for k, bot in enumerate((lone_agent, field_agent)):
            bot.seed(seed * 7919 + g * 2 + k)
        lone_seat = agents[g % len(agents)]
        g += 1
        for name in env.agent_iter():
            view, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            obs, mask = view["observation"], view["action_mask"]
            if name == lone_seat:
                env.step(int(lone_agent.act(obs, mask)))
                continue
            if mask.sum() > 1 and len(tops) < positions and rng.random() < 0.12:
                first.seed(int(rng.integers(2**31)))
                second.seed(int(rng.integers(2**31)))
                (a, stats_a), (b, stats_b) = first.decide(obs, mask), second.decide(obs, mask)
                shares_a, shares_b = (root_shares(s, len(mask))[0] for s in (stats_a, stats_b))
                tops.append((a, b))
                overlaps.append(float(shares_a @ shares_b))
                model_moves.append([int(m.act(obs, mask)) for m in judged])
            env.step(int(field_agent.act(obs, mask)))
    tops_arr = np.asarray(tops)
    report = {"positions": float(len(tops)), "search_with_itself": float(np.mean(tops_arr[:, 0] == tops_arr[:, 1])),
              "share_overlap": float(np.mean(overlaps))}
    for j, m in enumerate(models):
        report[m] = float(np.mean([row[j] == top for row, top in zip(model_moves, tops_arr[:, 0])]))
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m analysis.search_predictability", description=__doc__.split("\n")[0])
    p.add_argument("--game", required=True)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--search", default="ismcts:1600", help="the search bot measured against itself")
    p.add_argument("--lone", help="the agent in one seat of the games the positions come from")
    p.add_argument("--field", help="the agent in the other seats (its decisions are the positions searched)")
    p.add_argument("--positions", type=int, default=240, help="positions searched twice")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--recording", help="a search_clone --keep file: read the models' log-likelihood on it instead")
    p.add_argument("--models", nargs="*", default=[], help="policy files compared with the search")
    args = p.parse_args(argv)
    try:
        env = corruption_envs.env(args.game, num_players=args.players)
        if args.recording:
            play = SearchPlay.load(args.recording, env)
            print(f"{len(play)} search decisions; uniform play over the legal moves: log-likelihood of the "
                  f"search's move {uniform_loglik(play.masks):.3f}")
            for m in args.models:
                figures = [played_move_loglik(load_policy(m, env), play, t) for t in TEMPERATURES]
                print(f"{m}: " + " | ".join(f"at {t}: {ll:.3f} (collision {c:.2f})"
                                            for t, (ll, c) in zip(TEMPERATURES, figures)))
            return 0
        if not (args.lone and args.field):
            raise ValueError("give --lone and --field (the games the positions come from), or --recording")
        with one_blas_thread():
            report = self_agreement(env, args.search, args.lone, args.field, args.positions, args.seed, args.models)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{int(report.pop('positions'))} positions: {args.search} agrees with itself (another seed) on "
          f"{report.pop('search_with_itself'):.3f} of top moves; visit-share overlap {report.pop('share_overlap'):.3f}")
    for m, agreement in report.items():
        print(f"{m}: its move is the search's top move on {agreement:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
