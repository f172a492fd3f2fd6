"""Trained policies as plain numpy: load an exported policy file and play it as a bot, without torch.

A policy file is an `.npz` archive read with `allow_pickle=False`:

- `meta`: a 0-d unicode array holding JSON: format, format_version, game, game_version, min_players,
  max_players (the player counts it was trained for), obs_size, num_actions, activation, num_layers,
  prior and prior_weight (version 2: a bot whose move gets `prior_weight` added to its logit, or
  null), and free-form provenance (training config, git commit, steps).
- `w0, b0, ..., w{k-1}, b{k-1}`: the hidden layers of the actor, `w` shaped (inputs, outputs).
- `w_out, b_out`: the action head (logits).

Anything else (a pickled object, a missing key, a wrong shape, NaN weights) fails with a
`PolicyFileError` naming the problem and the fix.
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from .core import Agent, GameEnv, PolicyFileError

FORMAT = "corruption_envs.policy"
FORMAT_VERSION = 2
READS_VERSIONS = (1, 2)  # version 1 files predate the prior and have none
ACTIVATIONS = ("tanh", "relu")
PRIORS = ("heuristic",)  # bots a policy may build on (`corruption_envs.bots.make_agent` specs)


class NumpyPolicy:
    """An MLP actor: obs -> hidden layers -> logits; illegal actions masked out.

    With a `prior` bot (residual policy learning), the logit of the bot's move gets `prior_weight`
    added, so the network learns corrections to the bot rather than the whole game; such a policy
    builds its bot for an env with `bind(env)` (`load_policy` and `evaluate` do).
    Greedy (argmax of the legal logits) by default; with `sample=True` it draws from the masked
    softmax using its own generator seeded by `seed`.
    """

    def __init__(
        self,
        weights: list[tuple[np.ndarray, np.ndarray]],
        head: tuple[np.ndarray, np.ndarray],
        activation: str = "tanh",
        meta: dict[str, Any] | None = None,
        sample: bool = False,
        seed: int | None = None,
        prior: str | None = None,
        prior_weight: float = 0.0,
    ) -> None:
        if activation not in ACTIVATIONS:
            raise PolicyFileError(
                f"unknown activation {activation!r}; a policy file must use one of {ACTIVATIONS}"
            )
        if prior is not None and prior not in PRIORS:
            raise PolicyFileError(f"unknown prior {prior!r}; a policy file may build on one of {PRIORS}")
        self.layers = [(np.ascontiguousarray(w, np.float32), np.asarray(b, np.float32)) for w, b in weights]
        self.head = (np.ascontiguousarray(head[0], np.float32), np.asarray(head[1], np.float32))
        self.activation = activation
        self.meta = dict(meta or {})
        self.sample = sample
        self.rng = np.random.default_rng(seed)
        self.prior, self.prior_weight = prior, float(prior_weight)
        self.prior_bot: Agent | None = None  # built for one env by bind()

    def bind(self, env: GameEnv, seed: int | None = None) -> NumpyPolicy:
        """Ready this policy for `env`: a policy with a prior builds its bot there (seeded by `seed`)."""
        if self.prior is not None:
            from .bots import make_agent

            self.prior_bot = make_agent(self.prior, env, seed=seed)
        return self

    def seed(self, seed: int | None) -> None:
        """Reseed the sampling generator and the prior's bot, so a reused policy plays a game as a fresh
        one seeded alike would (tournaments and the gate reseed every agent per game)."""
        self.rng = np.random.default_rng(seed)
        if isinstance(getattr(self.prior_bot, "rng", None), np.random.Generator):
            self.prior_bot.rng = np.random.default_rng(seed)

    @property
    def obs_size(self) -> int:
        return (self.layers[0][0] if self.layers else self.head[0]).shape[0]

    @property
    def num_actions(self) -> int:
        return self.head[0].shape[1]

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Raw logits for one observation (1-D) or a batch (2-D), before masking."""
        x = np.asarray(observation, np.float32)
        relu = self.activation == "relu"
        for i, (w, b) in enumerate(self.layers):
            if i == 0 and x.ndim == 1:
                # observations are mostly one-hot zeros: reading only the rows of the nonzero inputs
                # is up to 15x faster than the dense product on wide observations
                nz = np.flatnonzero(x)
                x = x[nz] @ w[nz] if 4 * nz.size < x.size else x @ w
            else:
                x = x @ w
            x += b
            if relu:
                np.maximum(x, 0.0, out=x)
            else:
                np.tanh(x, out=x)
        return x @ self.head[0] + self.head[1]

    def scores(self, observation: np.ndarray, action_mask: np.ndarray, prior_bot: Agent | None = None) -> np.ndarray:
        """Logits of one observation with the prior's bonus on its bot's move and -inf on illegal actions.
        `prior_bot` overrides the bound bot (the training pool gives each seat its own)."""
        z = self.logits(observation)
        legal = np.asarray(action_mask, bool)
        if not legal.any():
            raise ValueError("the policy was asked to act with an all-zero action mask")
        if self.prior is not None:
            bot = prior_bot or self.prior_bot
            if bot is None:
                raise RuntimeError(
                    f"this policy builds on the {self.prior} bot, which is made per env: call "
                    "policy.bind(env) first (load_policy and evaluate do it for you)"
                )
            z[bot.act(observation, action_mask)] += self.prior_weight
        return np.where(legal, z, -np.inf)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        z = self.scores(observation, action_mask)
        if not self.sample:
            return int(np.argmax(z))
        p = np.exp(z - z.max())
        p /= p.sum()
        return int(self.rng.choice(p.size, p=p))

    def save(self, path: str | Path) -> Path:
        """Write this policy as a pickle-free .npz (the format `load_policy` reads)."""
        meta = {
            **self.meta,
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "activation": self.activation,
            "num_layers": len(self.layers),
            "obs_size": self.obs_size,
            "num_actions": self.num_actions,
            "prior": self.prior,
            "prior_weight": self.prior_weight,
        }
        arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        arrays["w_out"], arrays["b_out"] = self.head
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:  # a file object keeps numpy from appending a second .npz
            np.savez_compressed(f, **arrays)
        return path


def plays_sampling(meta: dict[str, Any]) -> bool:
    """A policy file's play mode: `meta.play` is "sample" or "greedy" (absent: greedy)."""
    return meta.get("play", "greedy") == "sample"


def read_policy_file(path: str | Path) -> NumpyPolicy:
    """Parse a policy file without checking it against any env (raises PolicyFileError)."""
    path = Path(path)
    fix = "re-export it with `python -m training.selfplay` or pick another file"
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise PolicyFileError(f"policy file {str(path)!r} does not exist") from None
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError) as e:
        raise PolicyFileError(
            f"policy file {str(path)!r} is corrupt or not a policy .npz ({e}); {fix}"
        ) from None
    if "meta" not in arrays or arrays["meta"].dtype.kind != "U" or arrays["meta"].ndim != 0:
        raise PolicyFileError(f"policy file {str(path)!r} has no 'meta' record; {fix}")
    try:
        meta = json.loads(str(arrays["meta"]))
    except json.JSONDecodeError as e:
        raise PolicyFileError(f"policy file {str(path)!r} has unreadable metadata ({e}); {fix}") from None
    if meta.get("format") != FORMAT or meta.get("format_version") not in READS_VERSIONS:
        raise PolicyFileError(
            f"policy file {str(path)!r} has format {meta.get('format')!r} version "
            f"{meta.get('format_version')!r}; this corruption_envs reads {FORMAT!r} versions "
            f"{list(READS_VERSIONS)}; {fix}"
        )
    prior, weight = meta.get("prior"), meta.get("prior_weight", 0.0)
    if prior is not None and (prior not in PRIORS or not isinstance(weight, (int, float))
                              or not np.isfinite(weight)):
        raise PolicyFileError(
            f"policy file {str(path)!r} names prior {prior!r} with weight {weight!r}; a prior must be one "
            f"of {PRIORS} with a finite weight; {fix}"
        )
    try:
        n = int(meta["num_layers"])
        layers = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(n)]
        head = (arrays["w_out"], arrays["b_out"])
    except KeyError as e:
        raise PolicyFileError(f"policy file {str(path)!r} lacks the weight array {e}; {fix}") from None
    width = int(meta.get("obs_size", -1))
    for name, (w, b) in [*((f"layer {i}", lb) for i, lb in enumerate(layers)), ("action head", head)]:
        if w.ndim != 2 or b.shape != (w.shape[1],) or w.shape[0] != width:
            raise PolicyFileError(
                f"policy file {str(path)!r}: {name} has weights {w.shape} and bias {b.shape}, which do "
                f"not chain from width {width}; {fix}"
            )
        if w.dtype.kind != "f" or not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise PolicyFileError(f"policy file {str(path)!r}: {name} holds non-finite weights; {fix}")
        width = w.shape[1]
    if width != meta.get("num_actions"):
        raise PolicyFileError(
            f"policy file {str(path)!r}: its head gives {width} logits but meta says "
            f"{meta.get('num_actions')} actions; {fix}"
        )
    return NumpyPolicy(layers, head, meta.get("activation", "tanh"), meta, prior=prior, prior_weight=weight)


def check_compatible(policy: NumpyPolicy, env: GameEnv, source: str = "the policy") -> None:
    """Raise PolicyFileError unless `policy` was trained for `env`'s game, player count and spaces."""
    env = env.unwrapped
    meta, rules = policy.meta, env.rules
    if meta.get("game") != rules.name:
        raise PolicyFileError(
            f"{source} was trained for game {meta.get('game')!r}, not {rules.name!r}; "
            f"load a policy from policies/{rules.name}/ or train one with "
            f"`python -m training.selfplay --game {rules.name}`"
        )
    lo, hi = meta.get("min_players", rules.min_players), meta.get("max_players", rules.max_players)
    if not lo <= rules.num_players <= hi:
        raise PolicyFileError(
            f"{source} was trained for {lo}-{hi} players, but this env has {rules.num_players}; "
            f"use num_players in [{lo}, {hi}] or train with that player count"
        )
    if policy.obs_size != env.observation_layout.size or policy.num_actions != env.num_actions:
        raise PolicyFileError(
            f"{source} expects observations of size {policy.obs_size} and {policy.num_actions} "
            f"actions, but {rules.name} v{rules.version} has {env.observation_layout.size} and "
            f"{env.num_actions} (game version of the policy: {meta.get('game_version')!r}); "
            "retrain it against this version of the game"
        )


def load_policy(
    path: str | Path, env: GameEnv, sample: bool | None = None, seed: int | None = None
) -> NumpyPolicy:
    """A bot for `env` from an exported policy file: greedy, or sampling from its own seeded RNG;
    by default as the file's `meta.play` says (greedy when absent)."""
    policy = read_policy_file(path)
    check_compatible(policy, env, f"policy file {str(path)!r}")
    policy.sample = plays_sampling(policy.meta) if sample is None else sample
    policy.rng = np.random.default_rng(seed)
    return policy.bind(env, seed)
