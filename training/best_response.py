"""A best response to a fixed field: `python -m training.best_response --game construction --against clone.npz`.

MaskablePPO with the game's config (`--config`, `--set` as in training.selfplay: its `ppo` keys, its prior
and its reward) learns one seat of `--players`-player games whose other seats are copies of `--against` (a
policy file sampling its softmax, or a bot) or, with `--mix`, drawn per seat and game from those copies
(`self`) and named bots. `--init` starts the actor from a policy file, and `--critic-warmup` lets the new
critic learn that actor's values alone for its first steps. The best response is written to `--out` and
plays greedy. A field of search clones (`training.search_clone`) beside heuristic and expert bots is how
the Construction policies of results ablations 20-21 were made:

    python -m training.best_response --game construction --against clone.npz \\
        --init policies/construction/champion.npz --mix "{self: 0.5, heuristic: 0.3, expert: 0.2}" \\
        --steps 600000 --out br.npz

`benchmarks.exploit` is the probe: a fresh learner with the probe's fixed settings, measured afterwards.
"""
from __future__ import annotations

import argparse
import sys

from corruption_envs.core.threads import one_blas_thread
from corruption_envs.policy import read_policy_file

from . import config as cfg
from .ppo.exploiter import train_best_response
from .run_folder import missing_folder


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m training.best_response", description=__doc__.split("\n")[0])
    p.add_argument("--game", required=True)
    p.add_argument("--against", required=True, help="the copies: a policy file (.npz) or a bot ('expert', ...)")
    p.add_argument("--mix", help="each opponent seat drawn per game: 'self' (the copies) beside named bots, "
                                 "e.g. \"{self: 0.5, heuristic: 0.3, expert: 0.2}\" (default: all copies)")
    p.add_argument("--init", metavar="POLICY", help="start the actor from this policy file (default: a new network)")
    p.add_argument("--critic-warmup", type=int, default=0, metavar="STEPS",
                   help="the first STEPS learner steps train the critic only (with --init)")
    p.add_argument("--steps", type=int, required=True, help="learner steps in total")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--config", help="YAML config (default: configs/<game>.yaml)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config value, dotted (e.g. --set ppo.learning_rate=1e-4); repeatable")
    p.add_argument("--out", required=True, help="the best response's policy file")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    one_blas_thread()
    args = parse_args(argv)
    try:
        if problem := missing_folder("--out", args.out):
            raise cfg.ConfigError(problem)
        if args.critic_warmup and args.init is None:
            raise cfg.ConfigError("--critic-warmup needs --init: a new network has no actor worth keeping still")
        mix = None if args.mix is None else cfg.parse_mix(args.mix, "--mix")
        config = cfg.load(args.game, args.config, args.set, **{
            "run.timesteps": args.steps, "run.seed": args.seed, "run.players": [args.players, args.players]})
        against = read_policy_file(args.against) if args.against.endswith(".npz") else args.against
        br, trained = train_best_response(config, against, {"game": config.game}, mix, args.init, args.critic_warmup)
    except ValueError as e:  # a ConfigError, a policy file that does not load or fit, an unknown bot
        print(f"error: {e}", file=sys.stderr)
        return 2
    br.meta["play"] = "greedy"
    br.save(args.out)
    print(f"{trained['learner_steps']} learner steps in {trained['train_seconds']} s; the best response is {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
