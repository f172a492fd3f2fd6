"""Self-play on Ray RLlib: `python -m training.selfplay --game corruption --backend rllib`.

The same config and run folder as the SB3 path. One shared learning module ("learner") plays RLlib agent
`player_0`, which the env seats at a random place at the table; every other agent is mapped per episode,
by the config's `pool.mix`, to a frozen snapshot of the learner ("snapshot_k", exported numpy policies
sampling their masked softmax), the heuristic or the random bot. Snapshot slots start as copies of the
initial learner and are overwritten round robin every `pool.snapshot_every` learner steps (uniform over
the slots: RLlib maps agents in the env runners, so the SB3 path's PFSP weights are not used here).
Env runners sample locally by default, or on a Ray cluster (`rllib.address`).

With `run.vec_env: batched` the runners sample from the batched engine instead: each holds `run.n_envs`
games of the learner's seat with the opponents inside (training/rllib/engine_env.py, the SB3 path's
rollout), and the learner is RLlib's single agent; snapshots join every runner's pool, drawn by PFSP.
"""
from __future__ import annotations

import csv
import os
import time
import zlib
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core import DEFAULT_MODULE_ID
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.tune.registry import register_env
from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
from torch import nn
from torch.utils.tensorboard import SummaryWriter

import corruption_envs
from corruption_envs.bots import make_agent
from corruption_envs.integrations.rllib import TurnBasedEnv
from corruption_envs.policy import NumpyPolicy
from corruption_envs.search import is_search_spec

from .. import config as cfg
from ..ppo.callbacks import METRIC_FIELDS
from ..evaluate import against_baselines, metric_name
from ..network.export import ACTIVATION_MODULES, play_at_temperature, policy_meta
from ..ppo.imitation import warm_start
from ..opponents.pool import SampledPolicy, kind_order
from .engine_env import make_engine_env
from .module import SparsePPOTorchLearner, sparse_module_spec
from .prior import PRIOR, PriorActionMaskingTorchRLModule, prior_module_spec
from ..run_folder import RunFolder

ENV_NAME = "corruption_envs_selfplay"
ENGINE_ENV_NAME = "corruption_envs_engine"
LEARNER = "learner"
UNSUPPORTED = {  # SB3-path features the RLlib loop does not have, with the value that turns each off
    "ppo.reward_baseline": "none", "init.policy": None, "ppo.critic": "own",
}


def check(config: cfg.Config) -> None:
    """Refuse config values the RLlib loop would silently ignore."""
    for dotted, off in UNSUPPORTED.items():
        if config.get(dotted) != off:
            raise cfg.ConfigError(f"config {dotted}={config.get(dotted)!r} is not supported with "
                                  f"--backend rllib; set {dotted}={off!r} or use --backend sb3")
    if config.ppo.prior != "none" and not on_engine(config):
        raise cfg.ConfigError(f"config ppo.prior={config.ppo.prior!r} is not supported with --backend "
                              "rllib turn by turn; set run.vec_env=batched (runners on the engine) or "
                              "ppo.prior=none")
    searches = [k for k in config.pool.mix if is_search_spec(k)]
    if searches:  # a bot module sees observations only; a search plans in the env it plays in
        raise cfg.ConfigError(f"config pool.mix keys {searches} are not supported with --backend rllib: a "
                              "search bot needs the env it plays in, which an RLlib module does not have; "
                              "use --backend sb3")


class SelfPlayTurnBasedEnv(TurnBasedEnv):
    """TurnBasedEnv whose agent `player_0` sits at a random seat (so the learner can always be it) and
    whose observations carry the player count (the bots are built per count)."""

    def __init__(self, game: str, **config: Any) -> None:
        super().__init__(game, **config)
        count = gym.spaces.Box(0.0, float(self.players[1]), (1,), np.float32)
        space = gym.spaces.Dict({**self.observation_spaces["player_0"].spaces, "num_players": count})
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self._shift = 0

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        return {**super()._obs(agent), "num_players": np.array([len(self.env.possible_agents)], np.float32)}

    def _ids(self, d: dict, to_seat: bool) -> dict:
        n, k = len(self.env.possible_agents), self._shift if to_seat else -self._shift
        return {a if a == "__all__" else f"player_{(int(a.split('_')[1]) + k) % n}": v for a, v in d.items()}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        obs, infos = super().reset(seed=seed, options=options)
        self._shift = int(self.rng.integers(len(self.env.possible_agents)))
        return self._ids(obs, False), self._ids(infos, False)

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        out = super().step(self._ids(action_dict, True))
        return tuple(self._ids(d, False) for d in out)  # type: ignore[return-value]


class BotModule(RLModule):
    """A module that is not trained: the heuristic or random bot, or a frozen numpy snapshot of the
    learner (`use_policy`); model_config holds the game, its env config and `bot`."""

    def setup(self) -> None:
        self._bots: dict[int, Any] = {}
        self._rng = np.random.default_rng()
        self._policy: NumpyPolicy | None = None

    def use_policy(self, policy: NumpyPolicy) -> None:
        self._policy = policy
        for bot in self._bots.values():
            bot.policy = policy

    def _bot(self, n: int) -> Any:
        if n not in self._bots:
            if self.model_config["bot"] == "snapshot":
                if self._policy is None:
                    raise RuntimeError("a snapshot module acted before share_snapshot() gave it a policy")
                self._bots[n] = SampledPolicy(self._policy, self._rng)
            else:
                env = corruption_envs.env(self.model_config["game"], num_players=n, **self.model_config["env"])
                self._bots[n] = make_agent(self.model_config["bot"], env, seed=int(self._rng.integers(2**31)))
        return self._bots[n]

    def _forward_inference(self, batch: dict, **kwargs: Any) -> dict:
        obs = batch[Columns.OBS]
        seen, masks = np.asarray(obs["observations"]), np.asarray(obs["action_mask"]).astype(np.int8)
        counts = np.asarray(obs["num_players"]).reshape(-1).astype(int)
        return {Columns.ACTIONS: np.array([self._bot(int(n)).act(o, m) for o, m, n in zip(seen, masks, counts)])}

    def _forward_exploration(self, batch: dict, **kwargs: Any) -> dict:
        return self._forward_inference(batch, **kwargs)

    def _forward_train(self, batch: dict, **kwargs: Any) -> dict:
        raise NotImplementedError("a bot module is not trained; keep it out of policies_to_train")

    def get_state(self, *args: Any, **kwargs: Any) -> dict:
        return {}

    def set_state(self, state: dict) -> None:
        pass


def map_agent(agent_id: str, episode: Any, kinds: tuple[str, ...], weights: tuple[float, ...],
              slots: int, **kwargs: Any) -> str:
    """player_0 is the learner; each other seat draws its opponent by the pool mix, seeded by the
    episode and seat so that every call for that seat in that episode agrees."""
    if agent_id == "player_0":
        return LEARNER
    rng = np.random.default_rng(zlib.crc32(f"{episode.id_}/{agent_id}".encode()))
    kind = kinds[int(rng.choice(len(kinds), p=weights))]
    return f"snapshot_{int(rng.integers(slots))}" if kind == "self" else kind


def on_engine(config: cfg.Config) -> bool:
    """Whether the env runners sample from the batched engine (run.vec_env: batched)."""
    return config.run.vec_env == "batched"


def learner_id(config: cfg.Config) -> str:
    """The learner's module: RLlib's single agent on the engine, agent player_0's module otherwise."""
    return DEFAULT_MODULE_ID if on_engine(config) else LEARNER


def register(config: cfg.Config) -> None:
    """Register the env the config's runners sample from (each process that builds them needs it)."""
    if on_engine(config):
        register_env(ENGINE_ENV_NAME, lambda context: make_engine_env(context["config"], context))
    else:
        register_env(ENV_NAME, lambda c: SelfPlayTurnBasedEnv(**c))


def learning_rate(config: cfg.Config) -> float | list[list[float]]:
    """The SB3 path's learning rate: linear from `ppo.learning_rate` to its `lr_final_fraction` at
    `run.timesteps`. RLlib's schedule counts env steps, which are learner steps on the engine only; turn
    by turn (every seat an env step) the rate stays at `ppo.learning_rate`."""
    ppo = config.ppo
    lr, frac = float(ppo.learning_rate), float(ppo.lr_final_fraction)
    if frac == 1.0 or not on_engine(config):
        return lr
    return [[0, lr], [int(config.run.timesteps), lr * frac]]


def algo_config(config: cfg.Config) -> PPOConfig:
    run, ppo, rl = config.run, config.ppo, config.rllib
    base = (
        PPOConfig()
        .learners(num_learners=rl.num_learners, num_gpus_per_learner=rl.num_gpus_per_learner,
                  learner_class=SparsePPOTorchLearner)
        # the SB3 path's PPO: its learning-rate schedule, no KL term in the loss
        .training(lr=learning_rate(config), gamma=ppo.gamma, lambda_=ppo.gae_lambda,
                  clip_param=ppo.clip_range, entropy_coeff=ppo.ent_coef, vf_loss_coeff=ppo.vf_coef,
                  grad_clip=ppo.max_grad_norm, train_batch_size_per_learner=rl.train_batch_size,
                  minibatch_size=ppo.batch_size, num_epochs=ppo.n_epochs, use_kl_loss=False)
        .debugging(seed=run.seed)
    )
    if on_engine(config):
        spec = (sparse_module_spec(ppo.net_arch, ppo.activation) if ppo.prior == "none"
                else prior_module_spec(ppo.net_arch, ppo.activation, ppo.prior_weight))
        # a Discrete action needs no unsquashing or clipping: without them RLlib does not copy and walk
        # every env's action each step
        return (base.environment(ENGINE_ENV_NAME, env_config={"config": config}, normalize_actions=False,
                                 clip_actions=False)
                .env_runners(num_env_runners=rl.num_env_runners, num_envs_per_env_runner=run.n_envs,
                             gym_env_vectorize_mode="vector_entry_point")
                .rl_module(rl_module_spec=spec))
    return turn_based_config(base, config)


def turn_based_config(base: PPOConfig, config: cfg.Config) -> PPOConfig:
    """Every seat an RLlib agent: the learner's module plays player_0, bot and snapshot modules the rest."""
    run, ppo, pool, rl = config.run, config.ppo, config.pool, config.rllib
    game, env_cfg = config.game, config.env
    slots = pool.max_snapshots
    kinds = kind_order(pool.mix)
    total = sum(float(pool.mix[k]) for k in kinds)
    bot = lambda kind: RLModuleSpec(module_class=BotModule,  # noqa: E731
                                    model_config={"game": game, "env": env_cfg, "bot": kind})
    modules = {LEARNER: sparse_module_spec(ppo.net_arch, ppo.activation),
               **{k: bot(k) for k in kinds if k != "self"},
               **{f"snapshot_{i}": bot("snapshot") for i in range(slots)}}
    mapping = partial(map_agent, kinds=kinds, weights=tuple(float(pool.mix[k]) / total for k in kinds),
                      slots=slots)
    return (
        base.environment(ENV_NAME, env_config={"game": game, "players": list(run.players), **env_cfg})
        .env_runners(num_env_runners=rl.num_env_runners, num_envs_per_env_runner=rl.num_envs_per_env_runner)
        .multi_agent(policies=set(modules), policy_mapping_fn=mapping, policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
    )


def export_module(module: Any, activation: str, meta: dict[str, Any], prior: str | None = None) -> NumpyPolicy:
    """The actor of an action-masking PPO module (separate actor encoder MLP + linear head) as numpy; a
    module with a prior (`prior` names its bot) exports its learnt weight with it."""
    act = ACTIVATION_MODULES[activation]
    hidden = [m for m in module.encoder.actor_encoder.modules() if isinstance(m, nn.Linear)]
    head = [m for m in module.pi.modules() if isinstance(m, nn.Linear)]
    odd = [m for m in module.encoder.actor_encoder.modules()
           if not list(m.children()) and not isinstance(m, (nn.Linear, act))]
    if len(head) != 1 or odd:
        raise TypeError(f"only an MLP actor with {activation} layers and a linear head exports to numpy; "
                        f"found head {head} and layers {odd}")
    if (prior is not None) != isinstance(module, PriorActionMaskingTorchRLModule):
        raise TypeError(f"prior={prior!r} does not match the module {type(module).__name__}")
    weight = float(module.prior_weight.detach()) if prior is not None else 0.0
    pair = lambda m: (m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())  # noqa: E731
    return NumpyPolicy([pair(m) for m in hidden], pair(head[0]), activation, meta, prior=prior, prior_weight=weight)


def export_learner(module: Any, config: cfg.Config, meta: dict[str, Any]) -> NumpyPolicy:
    """The learner's module as the config trains it (its activation, its prior bot) exported as numpy."""
    return export_module(module, config.ppo.activation, meta, cfg.bot_option(config, "prior"))


class ModuleAsPolicy:
    """An action-masking PPO module with the calls `imitation.fit` makes on an SB3 actor-critic, so the
    warm start fits RLlib's learner as it fits SB3's policy (the same masked distribution RLlib samples)."""

    def __init__(self, module: Any) -> None:
        self.module = module
        # a module with a prior gets the SB3 path's observations: the bot's move as a one-hot tail
        self.tail = int(module.action_space.n) if isinstance(module, PriorActionMaskingTorchRLModule) else 0

    def _split(self, obs: torch.Tensor) -> dict[str, torch.Tensor]:
        if not self.tail:
            return {Columns.OBS: obs}
        return {Columns.OBS: obs[:, :-self.tail], PRIOR: obs[:, -self.tail:]}

    def parameters(self) -> Any:
        return self.module.parameters()

    def set_training_mode(self, mode: bool) -> None:
        self.module.train(mode)

    def get_distribution(self, obs: torch.Tensor, action_masks: torch.Tensor) -> MaskableCategoricalDistribution:
        out = self.module.forward_train({**self._split(obs), "action_mask": action_masks.float()})
        logits = out[Columns.ACTION_DIST_INPUTS]
        return MaskableCategoricalDistribution(logits.shape[1]).proba_distribution(logits)

    def predict_values(self, obs: torch.Tensor) -> torch.Tensor:
        return self.module.compute_values({Columns.OBS: self._split(obs)[Columns.OBS]})

    def evaluate_actions(self, obs: torch.Tensor, actions: torch.Tensor, action_masks: torch.Tensor
                         ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        dist = self.get_distribution(obs, action_masks)
        return self.predict_values(obs), dist.log_prob(actions), dist.entropy()


def imitate(algo: Any, config: cfg.Config, meta: dict[str, Any], out: Path) -> None:
    """The SB3 path's warm start on the learner's module, in every learner (each fits the same seeded data,
    so they stay alike), then its weights to the env runners, which sample with their own copies."""
    name = learner_id(config)

    def fit_learner(learner: Any) -> None:
        module = learner.module[name]
        warm_start(ModuleAsPolicy(module), config, lambda: export_learner(module, config, meta), out)

    algo.learner_group.foreach_learner(fit_learner)
    algo.env_runner_group.sync_weights(from_worker_or_learner_group=algo.learner_group, inference_only=True)


def share_snapshot(algo: Any, slots: Any, policy: NumpyPolicy) -> None:
    """Put `policy` into the snapshot modules `slots` of every env runner (the local one included)."""
    names = [f"snapshot_{i}" for i in slots]
    algo.env_runner_group.foreach_env_runner(lambda runner: [runner.module[m].use_policy(policy) for m in names])


def add_engine_snapshot(algo: Any, policy: NumpyPolicy, step: int) -> None:
    """`policy` joins the opponent pool of every env runner that samples (a driver with remote runners
    has no env)."""
    def add(runner: Any) -> None:
        if getattr(runner, "env", None) is not None:
            runner.env.unwrapped.add_snapshot(policy, step)

    algo.env_runner_group.foreach_env_runner(add)


class Snapshots:
    """When and where the learner's frozen copies go: every runner's pool on the engine, the snapshot
    modules' slots round robin otherwise."""

    def __init__(self, algo: Any, config: cfg.Config) -> None:
        self.algo, self.engine, self.slots, self.slot = algo, on_engine(config), config.pool.max_snapshots, 0

    def start(self, policy: NumpyPolicy) -> None:
        if self.engine:
            add_engine_snapshot(self.algo, policy, 0)
        else:
            share_snapshot(self.algo, range(self.slots), policy)

    def add(self, policy: NumpyPolicy, step: int) -> None:
        if self.engine:
            add_engine_snapshot(self.algo, policy, step)
        else:
            share_snapshot(self.algo, [self.slot], policy)
            self.slot = (self.slot + 1) % self.slots


def connect(address: str | None) -> None:
    """Join the cluster at `address`, or start a local Ray listening on 127.0.0.1 only."""
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    if ray.is_initialized():
        return
    if address:
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)


def write_metrics(out: Path, writer: Any, steps: int, seconds: float, results: list[Any]) -> None:
    """Append evaluation rows to metrics.csv (the SB3 path's columns) and TensorBoard."""
    path = out / "metrics.csv"
    new = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, METRIC_FIELDS, restval="")
        if new:
            w.writeheader()
        for r in results:
            w.writerow({"timesteps": steps, "wall_seconds": round(seconds, 1),
                        "learner_steps_per_s": round(steps / max(seconds, 1e-9), 1),
                        **{k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.as_dict().items()}})
            writer.add_scalar(f"eval/win_rate_{metric_name(r)}", r.rate, steps)
            writer.add_scalar(f"eval/ci_low_{metric_name(r)}", r.interval[0], steps)


def learner_steps(result: dict[str, Any], name: str) -> int:
    return int(result["env_runners"]["num_module_steps_sampled_lifetime"].get(name, 0))


def train(config: cfg.Config, out: Path, progress: bool = True) -> dict[str, Any]:
    """Run self-play on RLlib; returns the final evaluation summary (as the SB3 path's `train`)."""
    check(config)
    run, pool, ev = config.run, config.pool, config.eval
    torch.set_num_threads(run.torch_threads)
    folder = RunFolder.begin(config, out, plan=cfg.plan(config, backend="rllib"))
    commit = folder.commit
    connect(config.rllib.address)
    register(config)
    algo = algo_config(config).build_algo()
    writer = SummaryWriter(str(out / "tensorboard"))
    name = learner_id(config)
    export = lambda steps: export_learner(algo.get_module(name), config, policy_meta(config, steps, commit))  # noqa: E731

    if config.imitation.games:
        imitate(algo, config, policy_meta(config, 0, commit), out)
    snapshots = Snapshots(algo, config)
    snapshots.start(export(0))
    t0, steps, result = time.monotonic(), 0, {}
    next_snap, next_eval, next_ckpt = pool.snapshot_every, ev.every, run.checkpoint_every
    stop = "timesteps reached"
    while steps < run.timesteps:
        result = algo.train()
        steps = learner_steps(result, name)
        returns = result["env_runners"].get("module_episode_returns_mean", {})
        writer.add_scalar("train/learner_return_mean", returns.get(name, float("nan")), steps)
        writer.add_scalar("train/env_steps_per_s", result["env_runners"].get("num_env_steps_sampled", 0)
                          / max(result.get("time_this_iter_s", 1e-9), 1e-9), steps)
        if progress:
            print(f"{steps} learner steps, return {returns.get(name, float('nan')):+.3f}", flush=True)
        if steps >= next_snap:
            next_snap += pool.snapshot_every
            snapshots.add(export(steps), steps)
        if steps >= next_eval:
            next_eval += ev.every
            write_metrics(out, writer, steps, time.monotonic() - t0, against_baselines(export(steps), config, ev.games))
        if steps >= next_ckpt:
            next_ckpt += run.checkpoint_every
            algo.save_to_path(str((out / "checkpoints" / "rllib").resolve()))
        limit = run.time_limit_minutes
        if limit and time.monotonic() - t0 > 60 * limit:
            stop = f"time limit of {limit} min reached at {steps} steps"
            break
    train_seconds = time.monotonic() - t0
    algo.save_to_path(str((out / "checkpoints" / "rllib").resolve()))
    final = export(steps)
    play_at_temperature(final, config)
    summary = folder.finish(
        final, timesteps=steps, learner_steps_per_s=round(steps / train_seconds, 1), stopped=stop,
        log=lambda results: write_metrics(out, writer, steps, train_seconds, results), backend="rllib",
        train_seconds=round(train_seconds, 1), env_steps=int(result["env_runners"]["num_env_steps_sampled_lifetime"]),
        load_average=list(os.getloadavg()), players=run.players, pool_mix=pool.mix, rllib=config.rllib.model_dump())
    writer.close()
    algo.stop()
    return summary
