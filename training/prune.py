"""Prune a mixture policy: drop the members that carry less than a minimum weight and renormalise the rest.

    python -m training.prune policies/corruption/champion.npz --min-weight 0.01 --out pruned.npz

PSRO's meta-strategy leaves members with a weight of a few thousandths: each still costs a full actor in the
file, while the mixture plays them in under one game in a hundred. The pruned file keeps every metadata field
(game, players, play mode, provenance) and records what was dropped under `meta.pruned`; its members'
arrays are the original ones, so a kept member plays exactly as before. A mixture's draw of its member per
game changes with its weights, so figures measured on the full mixture must be measured again.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from corruption_envs.core import PolicyFileError
from corruption_envs.policy import MixturePolicy, NumpyPolicy, read_policy_file

DEFAULT_MIN_WEIGHT = 0.01


def prune_mixture(policy: NumpyPolicy, min_weight: float = DEFAULT_MIN_WEIGHT) -> MixturePolicy:
    """A mixture of `policy`'s members whose weight is at least `min_weight` (a share in [0, 1]), their
    weights renormalised to sum to 1; `meta.pruned` records the threshold, the kept members' old indices and
    the old weights. Raises ValueError (PolicyFileError for a single actor) on bad input, `policy` unchanged."""
    if not isinstance(policy, MixturePolicy):
        raise PolicyFileError("this policy is a single actor, not a mixture (meta.mixture): there is nothing "
                              "to prune; give a mixture file such as training.psro's champion")
    if isinstance(min_weight, bool) or not isinstance(min_weight, (int, float)) or not 0 <= min_weight <= 1:
        raise ValueError(f"min weight {min_weight!r} is out of range: give a share of the mixture in [0, 1], "
                         f"such as {DEFAULT_MIN_WEIGHT}")
    old = policy.weights.tolist()
    kept = [j for j, w in enumerate(old) if w >= min_weight]
    if not kept:
        raise ValueError(f"min weight {min_weight} prunes every member (the largest weight is {max(old):.4g}); "
                         "give a smaller --min-weight")
    meta = dict(policy.meta)
    meta["pruned"] = {"min_weight": min_weight, "kept": kept, "weights_before": old}
    pruned = MixturePolicy([policy.members[j] for j in kept], [old[j] for j in kept],
                           activation=policy.activation, meta=meta, sample=policy.sample,
                           prior=policy.prior, prior_weight=policy.prior_weight)
    pruned.meta["mixture"] = pruned.weights.tolist()
    return pruned


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.prune", description=__doc__.split("\n\n")[0])
    parser.add_argument("policy", type=Path, help="a mixture policy file (.npz)")
    parser.add_argument("--min-weight", type=float, default=DEFAULT_MIN_WEIGHT,
                        help=f"drop members whose weight is below this share (default {DEFAULT_MIN_WEIGHT})")
    parser.add_argument("--out", type=Path, required=True, help="where to write the pruned mixture (may be the input)")
    args = parser.parse_args(argv)
    size_before = args.policy.stat().st_size if args.policy.is_file() else 0
    try:  # every input checked before anything is written: a bad one is one line, not a traceback
        policy = read_policy_file(args.policy)
        pruned = prune_mixture(policy, args.min_weight)
    except ValueError as e:  # not a mixture, a weight out of range, everything pruned, a corrupt file
        print(f"error: {e}", file=sys.stderr)
        return 2
    kept = pruned.meta["pruned"]["kept"]
    pruned.save(args.out)
    print(f"{args.policy}: kept {len(kept)} of {len(policy.members)} members (weight >= {args.min_weight})")
    for j, new in zip(kept, pruned.weights):
        print(f"  member {j}: weight {policy.weights[j]:.4f} -> {new:.4f}")
    dropped = [j for j in range(len(policy.members)) if j not in kept]
    print(f"  dropped {dropped}: {sum(policy.weights[j] for j in dropped):.4f} of the weight together")
    print(f"{args.out}: {args.out.stat().st_size:,} bytes (was {size_before:,})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
