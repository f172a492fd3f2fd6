"""PSRO: the champion as a mixture of best responses, `python -m training.psro --game corruption`.

Policy-Space Response Oracles (Lanctot et al. 2017) for a symmetric n-player game. The population
starts with one policy (`psro.start`: a uniform policy, a policy file, or `selfplay`: the policy that
the config's self-play sections train first, in the run folder's `selfplay/`, so that one command goes
from the rules and the game's bots to the champion);
each iteration trains a best response (a fresh learner, the config's `ppo`, `psro.br_steps` steps, over
`run.players`) against seats that each draw a member of the current meta-strategy per game, adds it, fills
the new row and column of the meta-game table (A[i][j]: member i's win share against copies of j,
`psro.payoff_games` seeded games at `eval.num_players`), and solves the table for the next meta-strategy
(replicator dynamics). The champion is the last mixture: one policy file holding every member and its
weight (`corruption_envs.policy.MixturePolicy`); each seat draws one member per game, so a best response
must beat the mixture, not one net. What each best response won against the mixture it was trained on
(PSRO's exploitability estimate) goes to `psro.json`. Two options reach beyond the textbook loop:
`psro.mix` seats named bots beside the mixture in each best response's games (the expert, so that every
member must also beat it), and `psro.br_init: start` starts each best response from `psro.start`'s
actor rather than from a random network (each member then refines a strong policy).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from corruption_envs.core.threads import one_blas_thread
from corruption_envs.evaluation import evaluate
from corruption_envs.policy import MixturePolicy, NumpyPolicy, mixture_of, read_policy_file

from . import config as cfg
from .ppo.exploiter import train_best_response
from .network.export import policy_meta
from .run_folder import RunFolder, driver_parser, new_run_path, resume_path

REPLICATOR_STEPS, REPLICATOR_RATE = 2000, 1.0
SELFPLAY = "selfplay"  # psro.start: train the start policy with the config's self-play sections first


def meta_strategy(table: np.ndarray) -> np.ndarray:
    """A symmetric equilibrium estimate of the meta-game (row i vs a field of j: `table[i, j]`): the
    average of discrete replicator dynamics (multiplicative weights) from the uniform mixture."""
    k = table.shape[0]
    sigma, total = np.full(k, 1.0 / k), np.zeros(k)
    for _ in range(REPLICATOR_STEPS):
        u = table @ sigma
        sigma = sigma * np.exp(REPLICATOR_RATE * (u - sigma @ u))
        sigma /= sigma.sum()
        total += sigma
    return total / REPLICATOR_STEPS


def rule_options(config: cfg.Config) -> dict[str, Any]:
    """The game's options for play (the reward mode only matters to training)."""
    return {k: v for k, v in config.env.items() if k != "reward"}


def uniform_policy(config: cfg.Config, meta: dict[str, Any]) -> Any:
    """A policy whose logits are all zero: sampling, it plays uniformly over the legal moves."""
    env = config.game_def.env(num_players=config.eval.num_players,
                              **rule_options(config)).unwrapped
    width = config.ppo.net_arch
    sizes = [env.observation_layout.size, *width]
    layers = [(np.zeros((a, b), np.float32), np.zeros(b, np.float32)) for a, b in zip(sizes, sizes[1:])]
    head = (np.zeros((sizes[-1], env.num_actions), np.float32), np.zeros(env.num_actions, np.float32))
    return NumpyPolicy(layers, head, config.ppo.activation, meta)


def win_share(member: Any, field_path: Path, config: cfg.Config, seed: int) -> float:
    """`member` (sampling) against `eval.num_players - 1` sampling copies of the policy file `field_path`."""
    member.sample = True
    return evaluate(member, config.game_def, str(field_path), config.psro.payoff_games,
                    config.eval.num_players, seed, rule_options(config), baseline_sample=True).rate


def entry_seed(seed: int, row: int, col: int) -> int:
    """The deal seed of table entry (row, col): fixed per entry, so `--resume` recomputes the table exactly."""
    return seed + col + (row < col)


def start_file(config: cfg.Config, out: Path) -> Path:
    """The start policy's file: `psro.start`'s, or with `selfplay` the policy of a self-play run of this
    config (its run, pool, imitation and eval sections, as `training.selfplay` trains it) in `out/selfplay`."""
    if config.psro.start != SELFPLAY:
        return Path(config.psro.start)
    from . import selfplay  # the self-play driver only when it runs

    folder = out / SELFPLAY
    print(f"psro: the start policy, trained by self-play in {folder}", flush=True)
    model, venv, pool = selfplay.start(config, folder, None)
    selfplay.train(config, folder, model, venv, pool, progress=False)
    return folder / "policy.npz"


def join_best_responses(config: cfg.Config, policy: NumpyPolicy, groups: list[cfg.AnswerGroup],
                        out: Path) -> tuple[MixturePolicy, list[dict[str, Any]]]:
    """PSRO with a uniform meta-strategy from `policy` (a mixture's members, or one actor), group by group
    (`ei.answers`): each answer is a fresh learner on the config's `ppo` (as `benchmarks.exploit` trains
    its probe: the group's `steps`, seed run.seed + 500 + its number in the group) in seats drawn by the
    group's `mix` ('self': `policy` joined by the group's earlier answers, as in psro.mix), at the group's
    `players`. Every answer joins the result at an equal share, playing as `policy`'s members play. Answer
    K (numbered over all groups) is saved in `out` as answer_KK.npz beside the mixture it answered,
    answered_KK.npz; returns the result and each answer's timing."""
    start = policy if isinstance(policy, MixturePolicy) else mixture_of([policy], [1.0])
    base = [start.single(j) for j in range(len(start.members))]
    meta, answers, history = dict(base[0].meta), [], []

    def joined(extra: list[NumpyPolicy]) -> MixturePolicy:  # `policy` and `extra`, each answer at an equal share
        m = len(base)
        weights = np.concatenate([start.weights * m / (m + len(extra)), np.full(len(extra), 1 / (m + len(extra)))])
        return mixture_of(base + extra, weights, meta)

    for group in groups:
        own: list[NumpyPolicy] = []
        for k in range(1, group.count + 1):
            number = len(answers) + 1
            field = out / f"answered_{number:02d}.npz"
            joined(own).save(field)
            changes = {"run.timesteps": group.steps, "run.seed": config.run.seed + 500 + k}
            if group.players is not None:
                changes["run.players"] = group.players
            br, timing = train_best_response(config.updated(changes), read_policy_file(field), meta, group.mix)
            br.meta["temperature"] = br.temperature = start.temperature
            br.save(out / f"answer_{number:02d}.npz")
            own.append(read_policy_file(out / f"answer_{number:02d}.npz"))
            answers.append(own[-1])
            history.append({"answer": number, **timing})
            print(f"answer {number}: a best response of {timing['learner_steps']:,} steps joins the mixture "
                  f"({timing['train_cpu_seconds']:.0f} CPU s)", flush=True)
    return joined(answers), history


def run(config: cfg.Config, out: Path, commit: str, resume: bool = False) -> dict[str, Any]:
    """The PSRO loop in `out` (from its members and psro.json with `resume`); returns the champion (not
    yet saved) with the last table, meta-strategy, history and timing."""
    ps, seed = config.psro, config.run.seed
    members_dir = out / "members"
    members_dir.mkdir(parents=True, exist_ok=True)
    meta = {**policy_meta(config, 0, commit), "play": "sample", "temperature": ps.temperature}
    member_path = lambda j: members_dir / f"member_{j:02d}.npz"  # noqa: E731
    history: list[dict[str, Any]] = []
    if resume:
        members = [read_policy_file(member_path(j)) for j in range(len(list(members_dir.glob("member_*.npz"))))]
        history = json.loads((out / "psro.json").read_text())["iterations"][:len(members) - 1]
    else:
        start = uniform_policy(config, meta) if ps.start == "random" else read_policy_file(start_file(config, out))
        start.meta["temperature"] = start.temperature = ps.temperature  # as it plays in the mixture
        start.save(member_path(0))
        members = [start]
    # the start member's own entry is 1/n (a lone policy against copies of itself) and never played;
    # every later entry is played, so a resumed run recomputes the table it stopped with
    k, n = len(members), config.eval.num_players
    table = np.array([[1.0 / n if a == b == 0 else win_share(read_policy_file(member_path(a)), member_path(b),
                                                                config, entry_seed(seed, a, b))
                       for b in range(k)] for a in range(k)])
    sigma = meta_strategy(table)
    t0, cpu0 = time.monotonic(), time.process_time()

    def mixture(weights: np.ndarray) -> Any:
        return mixture_of(members, weights, {**meta, "timesteps": ps.br_steps * (len(members) - 1)})

    for it in range(len(members), ps.iterations + 1):
        field = out / f"mixture_{it - 1:02d}.npz"
        mixture(sigma).save(field)
        br_config = config.updated({"run.timesteps": ps.br_steps, "run.seed": seed + it})
        br, timing = train_best_response(br_config, read_policy_file(field), meta, ps.mix,
                                         str(member_path(0)) if ps.br_init == "start" else None)
        br.save(member_path(it))
        # PSRO's exploitability estimate: the new best response (greedy, as the probe plays) vs the field
        br.sample = False
        vs_field = evaluate(br, config.game_def, str(field), ps.payoff_games, config.eval.num_players,
                            seed + 10_000 + it, rule_options(config), baseline_sample=True)
        members.append(br)
        k = len(members)
        grown = np.zeros((k, k))
        grown[:-1, :-1] = table
        for j in range(k):
            grown[-1, j] = win_share(read_policy_file(member_path(k - 1)), member_path(j), config,
                                     entry_seed(seed, k - 1, j))
            grown[j, -1] = win_share(read_policy_file(member_path(j)), member_path(k - 1), config,
                                     entry_seed(seed, j, k - 1)) if j < k - 1 else grown[-1, j]
        table, sigma = grown, meta_strategy(grown)
        history.append({"iteration": it, **timing, "br_vs_field": vs_field.as_dict(),
                        "meta_strategy": sigma.round(4).tolist()})
        print(f"iteration {it}: best response wins {vs_field.rate:.3f} {tuple(round(x, 3) for x in vs_field.interval)} "
              f"against the mixture it answers; meta-strategy {np.round(sigma, 3).tolist()}", flush=True)
        (out / "psro.json").write_text(json.dumps({"commit": commit, "table": table.tolist(),
                                                   "iterations": history}, indent=1))
    return {"table": table, "sigma": sigma, "history": history, "policy": mixture(sigma),
            "seconds": round(time.monotonic() - t0, 1), "cpu_seconds": round(time.process_time() - cpu0, 1)}


def main(argv: list[str] | None = None) -> int:
    one_blas_thread()
    p = driver_parser("python -m training.psro", __doc__.split("\n")[0], "psro", "psro.iterations=2")
    p.add_argument("--resume", metavar="DIR", help="continue the run in DIR (its config.yaml and members) up "
                   "to psro.iterations, e.g. --resume DIR --set psro.iterations=8; the same result as one run")
    args = p.parse_args(argv)
    try:
        if args.resume:
            if args.config or args.out:
                raise cfg.ConfigError(f"--resume {Path(args.resume)} reads the run's own config.yaml and writes "
                                      "there; drop --config and --out")
            out = resume_path(args.resume, ("config.yaml", "psro.json"),
                              "a training.psro run that finished an iteration")
            config = cfg.load(args.game, out / "config.yaml", args.set)
        else:
            config = cfg.load(args.game, args.config, args.set)
            out = new_run_path(args.out, config.game, "psro")
        start = config.psro.start
        if not args.resume and start not in ("random", SELFPLAY) and not Path(start).is_file():
            raise cfg.ConfigError(f"config psro.start={start!r} is not a policy file; give one, 'random' or "
                                  f"'{SELFPLAY}'")
        if config.psro.br_init == "start" and start == "random":
            raise cfg.ConfigError("config psro.br_init='start' needs psro.start to be a policy file or "
                                  f"'{SELFPLAY}', not 'random'")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    torch.set_num_threads(config.run.torch_threads)
    folder = RunFolder.begin(config, out)
    result = run(config, out, folder.commit, resume=bool(args.resume))
    steps = result["policy"].meta["timesteps"]
    folder.finish(result["policy"], timesteps=steps, learner_steps_per_s=steps / max(result["seconds"], 1e-9),
                  stopped=f"{config.psro.iterations} iterations", train_seconds=result["seconds"],
                  train_cpu_seconds=result["cpu_seconds"], meta_strategy=result["sigma"].tolist())
    return 0


if __name__ == "__main__":
    sys.exit(main())
