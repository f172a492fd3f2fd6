"""The learner: a MaskablePPO model from the config's `ppo`, and the vec env of its games."""
from __future__ import annotations

from pathlib import Path

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from .. import config as cfg
from ..opponents.batched_env import BatchedSelfPlayVecEnv
from ..network.export import ACTIVATION_MODULES
from ..opponents.pool import OpponentPool
from ..network.learner_policy import LearnerPolicy
from ..network.prior import PriorPolicy
from ..network.sparse_buffer import SparseRolloutBuffer
from ..opponents.wrapper import SelfPlayEnv


def build_model(config: cfg.Config, venv: VecEnv, out: Path, plain: bool = False) -> MaskablePPO:
    """A fresh MaskablePPO on `venv` (TensorBoard logs under `out`), seeded by `run.seed`; `plain`: with
    sb3-contrib's own MlpPolicy and rollout buffer (the same network, computed densely: the learner's
    policy is held to it, and benchmarks.learner_speed times both)."""
    ppo = config.ppo
    lr, frac = ppo.learning_rate, ppo.lr_final_fraction
    schedule = lambda remaining: lr * (frac + (1.0 - frac) * remaining)  # noqa: E731 (sb3 wants a callable)
    arch = list(ppo.net_arch)
    policy_kwargs = {"net_arch": {"pi": arch, "vf": arch}, "activation_fn": ACTIVATION_MODULES[ppo.activation]}
    policy: type = MaskableActorCriticPolicy if plain else LearnerPolicy
    if ppo.critic == "privileged":
        if plain:
            raise ValueError("a privileged critic is the learner's own policy's (actor_inputs); plain=True has none")
        policy_kwargs["actor_inputs"] = venv.get_attr("obs_size")[0]  # the learner's own observation
    if cfg.bot_option(config, "prior"):
        if plain:
            raise ValueError("a policy with a prior bot is the learner's own (training.network.prior); plain=True has none")
        policy, policy_kwargs["prior_weight"] = PriorPolicy, ppo.prior_weight
    return MaskablePPO(
        policy, venv,
        learning_rate=schedule, n_steps=ppo.n_steps, batch_size=ppo.batch_size,
        n_epochs=ppo.n_epochs, gamma=ppo.gamma, gae_lambda=ppo.gae_lambda,
        clip_range=ppo.clip_range, ent_coef=ppo.ent_coef, vf_coef=ppo.vf_coef,
        max_grad_norm=ppo.max_grad_norm, rollout_buffer_class=None if plain else SparseRolloutBuffer,
        policy_kwargs=policy_kwargs,
        tensorboard_log=str(out / "tensorboard"), seed=config.run.seed, device="cpu", verbose=0,
    )


def make_venv(config: cfg.Config, pool: OpponentPool) -> VecEnv:
    """run.vec_env 'batched': the n_envs games on one batched engine, opponents deciding in batches
    (training/opponents/batched_env.py); 'dummy': all envs in this process share `pool`; 'subproc': one process
    per env, each with a replica of the pool that the trainer keeps in sync (snapshots, PFSP scores)."""
    run, pool_cfg = config.run, config.pool
    players = tuple(run.players)
    subproc = run.vec_env == "subproc"
    prior = cfg.bot_option(config, "prior")
    if run.vec_env == "batched":
        return VecMonitor(BatchedSelfPlayVecEnv(config.game_def, config.env, players, pool, run.n_envs,
                                                seed=run.seed * 7919, prior=prior,
                                                privileged=config.ppo.critic == "privileged"))

    def maker(i: int):
        def make() -> SelfPlayEnv:
            own = OpponentPool(pool_cfg.mix, pool_cfg.max_snapshots, pool_cfg.pfsp_power) if subproc else pool
            return SelfPlayEnv(config.game_def, config.env, players, own, seed=run.seed * 7919 + i,
                               prior=prior, reward_baseline=cfg.bot_option(config, "reward_baseline"))

        return make

    makers = [maker(i) for i in range(run.n_envs)]
    # fork: workers inherit the game registry and need no torch of their own
    venv = SubprocVecEnv(makers, start_method="fork") if subproc else DummyVecEnv(makers)
    return VecMonitor(venv)
