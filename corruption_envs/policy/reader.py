"""The policy file reader: every field and array of a file checked before it becomes a policy, and the
check that a policy fits an env (the package docstring gives the format)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..core import GameEnv, PolicyFileError
from ..safe_npz import NpzError, read_npz
from .inference import ACTIVATIONS, PRIORS, NumpyPolicy, plays_sampling
from .mixture import MAX_MEMBERS, MixturePolicy
from .writer import FORMAT, MIXTURE_VERSION

READS_VERSIONS = (1, 2, 3)  # version 1 files predate the prior and have none
# meta key -> the kind of JSON value it holds; the first five are required, the rest have defaults
META_FIELDS: dict[str, str] = {
    "format": "text", "format_version": "a whole number", "num_layers": "a whole number",
    "obs_size": "a whole number", "num_actions": "a whole number", "game": "text",
    "game_version": "a whole number", "min_players": "a whole number", "max_players": "a whole number",
    "activation": "text", "prior": "text or null", "prior_weight": "a number", "play": "text",
    "temperature": "a number", "mixture": "a list of numbers",
}
PLAY_MODES = ("greedy", "sample")
REQUIRED_META = ("format", "format_version", "num_layers", "obs_size", "num_actions")
MAX_LAYERS = 64
MAX_FILE_ARRAY_BYTES = 1 << 28  # 256 MiB of arrays: far above any policy, far below a forged header's ask
FIX = "re-export it with `python -m training.selfplay` or pick another file"


def _is_kind(value: Any, kind: str) -> bool:
    if kind == "text":
        return isinstance(value, str)
    if kind == "text or null":
        return value is None or isinstance(value, str)
    if kind == "a list of numbers":
        return isinstance(value, list) and all(_is_kind(v, "a number") for v in value)
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return number and (kind == "a number" or isinstance(value, int))


def _read_meta(where: str, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """The metadata record, every field of its kind and in range."""
    record = arrays.get("meta")
    if record is None or record.dtype.kind != "U" or record.ndim != 0:
        raise PolicyFileError(f"{where} has no 'meta' record (0-d text); {FIX}")
    try:
        meta = json.loads(str(record))
    except (ValueError, RecursionError) as e:
        raise PolicyFileError(f"{where} has unreadable metadata ({e}); {FIX}") from None
    if not isinstance(meta, dict):
        raise PolicyFileError(
            f"{where} has metadata {type(meta).__name__} {meta!r:.60}, not a JSON object; {FIX}"
        )
    missing = [k for k in REQUIRED_META if k not in meta]
    if missing:
        raise PolicyFileError(f"{where} has metadata without {missing}; {FIX}")
    for key, kind in META_FIELDS.items():
        if key in meta and not _is_kind(meta[key], kind):
            raise PolicyFileError(f"{where}: metadata {key} is {meta[key]!r:.60}, not {kind}; {FIX}")
    if meta["format"] != FORMAT or meta["format_version"] not in READS_VERSIONS:
        raise PolicyFileError(
            f"{where} has format {meta['format']!r} version {meta['format_version']!r}; this "
            f"corruption_envs reads {FORMAT!r} versions {list(READS_VERSIONS)}; {FIX}"
        )
    weights = meta.get("mixture")
    if (weights is not None) != (meta["format_version"] == MIXTURE_VERSION):
        raise PolicyFileError(
            f"{where}: format version {meta['format_version']} {'with' if weights is not None else 'without'} "
            f"a mixture; a mixture (meta.mixture) is version {MIXTURE_VERSION} and only it; {FIX}"
        )
    if weights is not None and not (1 <= len(weights) <= MAX_MEMBERS and all(0 <= w < 1e308 for w in weights)
                                     and sum(weights) > 0):
        raise PolicyFileError(
            f"{where}: mixture weights {weights!r:.60} must be 1-{MAX_MEMBERS} finite numbers >= 0 with a "
            f"positive sum; {FIX}"
        )
    lo = meta.get("min_players", 1)
    hi = meta.get("max_players", lo)
    if not (0 <= meta["num_layers"] <= MAX_LAYERS and meta["obs_size"] > 0 and meta["num_actions"] > 0
            and 1 <= lo <= hi):
        raise PolicyFileError(
            f"{where}: metadata num_layers {meta['num_layers']}, obs_size {meta['obs_size']}, num_actions "
            f"{meta['num_actions']}, players {lo}-{hi} are out of range (0-{MAX_LAYERS} layers, sizes >= 1, "
            f"1 <= min_players <= max_players); {FIX}"
        )
    if meta.get("activation", "tanh") not in ACTIVATIONS:
        raise PolicyFileError(
            f"{where}: unknown activation {meta['activation']!r}; a policy file must use one of "
            f"{ACTIVATIONS}; {FIX}"
        )
    prior, weight = meta.get("prior"), meta.get("prior_weight", 0.0)
    if prior is not None and (prior not in PRIORS or not np.isfinite(weight)):
        raise PolicyFileError(
            f"{where} names prior {prior!r} with weight {weight!r}; a prior must be one "
            f"of {PRIORS} with a finite weight; {FIX}"
        )
    if meta.get("play", "greedy") not in PLAY_MODES:
        raise PolicyFileError(f"{where}: metadata play is {meta['play']!r:.40}, not one of {PLAY_MODES}; {FIX}")
    temperature = meta.get("temperature", 1.0)
    if not 0 < temperature < 1e3:
        raise PolicyFileError(
            f"{where} has play temperature {temperature!r}; it must be a number in (0, 1000); {FIX}"
        )
    return meta


def _read_layers(
    where: str, arrays: dict[str, np.ndarray], meta: dict[str, Any], prefix: str = ""
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The hidden layers then the head (of the member whose arrays start with `prefix`): float arrays,
    finite, chaining from obs_size to num_actions."""
    member = f"member {prefix[1:-1]}'s " if prefix else ""
    names = [(f"{member}layer {i}", f"{prefix}w{i}", f"{prefix}b{i}") for i in range(meta["num_layers"])]
    names.append((f"{member}action head", f"{prefix}w_out", f"{prefix}b_out"))
    width, layers = meta["obs_size"], []
    for name, wkey, bkey in names:
        absent = [k for k in (wkey, bkey) if k not in arrays]
        if absent:
            raise PolicyFileError(f"{where} lacks the weight array {absent[0]!r}; {FIX}")
        w, b = arrays[wkey], arrays[bkey]
        if w.dtype.kind != "f" or b.dtype.kind != "f":
            raise PolicyFileError(
                f"{where}: {name} has weights of dtype {w.dtype} and bias of dtype {b.dtype}; both must be "
                f"floating point; {FIX}"
            )
        if w.ndim != 2 or b.shape != (w.shape[1],) or w.shape[0] != width:
            raise PolicyFileError(
                f"{where}: {name} has weights {w.shape} and bias {b.shape}, which do "
                f"not chain from width {width}; {FIX}"
            )
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise PolicyFileError(f"{where}: {name} holds non-finite weights (NaN or infinity); {FIX}")
        width = w.shape[1]
        layers.append((w, b))
    if width != meta["num_actions"]:
        raise PolicyFileError(
            f"{where}: its head gives {width} logits but meta says {meta['num_actions']} actions; {FIX}"
        )
    return layers


def read_policy_file(path: str | Path) -> NumpyPolicy:
    """Parse a policy file without checking it against any env (raises PolicyFileError)."""
    where = f"policy file {str(path)!r}"
    try:
        arrays = read_npz(path, MAX_FILE_ARRAY_BYTES)
    except FileNotFoundError:
        raise PolicyFileError(f"{where} does not exist") from None
    except NpzError as e:
        raise PolicyFileError(f"{where} is corrupt or not a policy .npz ({e}); {FIX}") from None
    meta = _read_meta(where, arrays)
    options = {"activation": meta.get("activation", "tanh"), "meta": meta, "prior": meta.get("prior"),
               "prior_weight": meta.get("prior_weight", 0.0)}
    if "mixture" not in meta:
        *layers, head = _read_layers(where, arrays, meta)
        return NumpyPolicy(layers, head, **options)
    members = []
    for j in range(len(meta["mixture"])):
        *layers, head = _read_layers(where, arrays, meta, f"m{j}_")
        members.append((layers, head))
    return MixturePolicy(members, meta["mixture"], **options)


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
    policy.seed(seed)  # a mixture draws its first game's member here, from `seed`
    return policy.bind(env, seed)
