"""Warm start from a policy file (`init.policy`): the learner's actor starts as an exported policy.

The file is read with the pickle-free reader (`corruption_envs.policy.read_policy_file`) and must fit
the run: same game, observation and action sizes, hidden layers (`ppo.net_arch`) and activation, and the
same prior bot as `ppo.prior` (none, or the bot whose move the file's actor adds to, with its learnt weight).
When the run covers player counts the file was not trained for, network surgery readies it for them.
Inputs used only there (a sixth seat's cash, its workers on a contract, ...) were zero throughout the
file's training, and actions legal only there (a gift to seat +5) were always masked, so their weights
are whatever the initialisation left. Untouched, those actions' near-zero logits beat the trained
ones' (mostly well below zero): the 3-5-player Construction champion picks them at 13% of its 6-player
decisions and wins 0.03 of 6-player games against heuristic bots (chance 0.17); after the surgery
0.18-0.19. So the new inputs get zero weights (the policy starts by ignoring them and PPO learns their
use from zero) and the new actions the constant logit `NEW_ACTION_LOGIT` (rare, but still sampled in
training). At the file's own counts those inputs are zero and those actions masked, so the policy plays
there exactly as the file does. Which inputs and actions are new is measured on seeded probe games at
both sets of counts. The critic is not in a policy file: `imitation.games` fits it (critic only).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from corruption_envs.bots import make_agent
from corruption_envs.core import PolicyFileError
from corruption_envs.core.game import Game
from corruption_envs.policy import NumpyPolicy, read_policy_file

from ..config import Config, ConfigError, bot_option

# seeded games per player count, to find what is used only at the run's new counts (100 missed two contract
# entries that Construction's 3-5-player games reach only rarely)
PROBE_GAMES = 200
PROBE_EXPLORE = 0.1  # share of random moves in them, so rarely reached positions show up too
NEW_ACTION_LOGIT = -5.0  # an action new at the added counts starts rare (measured: -3 and -10 play alike)


def load_init_policy(config: Config) -> NumpyPolicy:
    """The file `init.policy` names, checked against the run's config (a ConfigError names the misfit)."""
    path = config.init.policy
    try:
        policy = read_policy_file(path)
    except PolicyFileError as e:
        raise ConfigError(f"config init.policy: {e}") from None
    meta, ppo = policy.meta, config.ppo
    env = config.game_def.env(num_players=config.run.players[0], **config.env)
    widths = [w.shape[1] for w, _ in policy.layers]
    found = (meta.get("game"), policy.obs_size, policy.num_actions, widths, policy.activation, policy.prior)
    wanted = (config.game, env.unwrapped.observation_layout.size, env.unwrapped.num_actions,
              list(ppo.net_arch), ppo.activation, bot_option(config, "prior"))
    if found != wanted:
        names = ("game", "inputs", "actions", "net_arch", "activation", "prior (ppo.prior)")
        diff = ", ".join(f"{n} {f!r} (run: {w!r})" for n, f, w in zip(names, found, wanted) if f != w)
        raise ConfigError(f"config init.policy={path!r} does not fit the run: {diff}; give a policy "
                          "trained with the same game and network, or set init.policy=null")
    return policy


def used(game: Game, env_config: dict[str, Any], counts: list[int], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Which observation entries are nonzero, and which actions legal, at some decision of
    `PROBE_GAMES` seeded games per player count in `counts` (heuristic seats, `PROBE_EXPLORE` random moves)."""
    rng = np.random.default_rng(seed)
    inputs = actions = None
    for n in counts:
        env = game.env(num_players=n, **env_config)
        bots = [make_agent("heuristic", env, seed=int(rng.integers(2**31))) for _ in range(n)]
        for _ in range(PROBE_GAMES):
            env.reset(seed=int(rng.integers(2**63)))
            while not env.terminations[env.agent_selection]:
                name = env.agent_selection
                view = env.observe(name)
                nonzero, mask = view["observation"] != 0, view["action_mask"]
                inputs = nonzero if inputs is None else inputs | nonzero
                actions = mask != 0 if actions is None else actions | (mask != 0)
                if rng.random() < PROBE_EXPLORE:
                    legal = np.flatnonzero(mask)
                    action = int(legal[rng.integers(legal.size)])
                else:
                    action = bots[env.agent_name_mapping[name]].act(view["observation"], mask)
                env.step(action)
    return inputs, actions


def new_at_added_counts(config: Config, trained: tuple[int, int]) -> tuple[np.ndarray, np.ndarray] | None:
    """(inputs, actions) used at the run's player counts outside `trained` but never at the `trained`
    counts, or None when the run adds no count."""
    (lo, hi), (run_lo, run_hi) = trained, config.run.players
    added = [n for n in range(run_lo, run_hi + 1) if not lo <= n <= hi]
    if not added:
        return None
    game, env_config, seed = config.game_def, config.env, config.run.seed
    new_inputs, new_actions = used(game, env_config, added, seed)
    old_inputs, old_actions = used(game, env_config, list(range(lo, hi + 1)), seed)
    return new_inputs & ~old_inputs, new_actions & ~old_actions


def ready_for_run(policy: NumpyPolicy, config: Config) -> tuple[NumpyPolicy, dict[str, Any]]:
    """`policy` with the surgery for the run's added player counts (a copy), and what was changed."""
    run_lo, run_hi = config.run.players  # a file without its player range: taken as the run's
    lo, hi = policy.meta.get("min_players", run_lo), policy.meta.get("max_players", run_hi)
    (w0, b0), (w_out, b_out) = [a.copy() for a in policy.layers[0]], [a.copy() for a in policy.head]
    new = new_at_added_counts(config, (lo, hi))
    if new is not None:
        w0[new[0]] = 0.0
        w_out[:, new[1]], b_out[new[1]] = 0.0, NEW_ACTION_LOGIT
    meta = {**policy.meta, "min_players": run_lo, "max_players": run_hi}
    ready = NumpyPolicy([(w0, b0), *policy.layers[1:]], (w_out, b_out), policy.activation, meta,
                        prior=policy.prior, prior_weight=policy.prior_weight)
    return ready, {"trained_players": [lo, hi], "zeroed_inputs": 0 if new is None else int(new[0].sum()),
                   "new_actions": 0 if new is None else int(new[1].sum())}


def warm_start_actor(model: Any, config: Config) -> dict[str, Any]:
    """Copy `init.policy`'s actor, readied for the run's player counts, into `model` (an sb3
    MaskablePPO); returns what was done."""
    policy, done = ready_for_run(load_init_policy(config), config)
    copy_actor(policy, model.policy)
    return {"policy": config.init.policy, **done}


def copy_actor(policy: NumpyPolicy, network: Any) -> None:
    """Copy `policy`'s actor (its layers, head and prior weight) into `network`, an sb3 actor-critic
    policy of the same shape (a `PriorPolicy` when `policy` has a prior)."""
    # torch only to copy into a network: readying a policy file for a run needs none
    import torch
    from torch import nn

    linears = [m for m in network.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    with torch.no_grad():
        for layer, (w, b) in zip([*linears, network.action_net], [*policy.layers, policy.head]):
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T)))
            layer.bias.copy_(torch.from_numpy(b))
        if policy.prior is not None:  # the file's learnt weight on its bot's move (ppo.prior names the same bot)
            network.prior_weight.fill_(policy.prior_weight)
