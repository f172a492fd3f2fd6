"""Checkpoints that resume a run without unpickling anything, and survive a kill mid-save.

A checkpoint is `checkpoints/latest.json` (plain JSON: format, steps, optimizer updates, the tensor
file's name and the opponent pool's index) naming `checkpoints/model_<steps>-<updates>.pt`: the
policy's and the optimizer's state dicts, tensors only, read back with `torch.load(weights_only=True)`.
`--resume` rebuilds the model from the run's validated `config.yaml` and loads those tensors into it.

Every file is written under a temporary name in its folder, then renamed over the old one
(`os.replace`); `latest.json` is renamed last, so until the new checkpoint is whole the previous
one, with its pool snapshots, stays the one a resume reads.
"""
from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

FORMAT = "corruption_envs.checkpoint"
VERSION = 1
MANIFEST = "latest.json"
MODEL_NAME = re.compile(r"model_\d+-\d+\.pt")
RESTART = "start a new run with --out, or restore the run folder from a copy"


class CheckpointError(ValueError):
    """A run folder's checkpoint that is missing, corrupt or does not fit the run's config."""


def write_atomically(path: Path, write: Callable[[Path], Any]) -> None:
    """`write(tmp)` to a temporary name beside `path`, then rename it over `path`: a reader sees the
    old file or the new one, never a partial one."""
    tmp = path.with_name(f"{path.stem}.tmp{path.suffix}")  # same suffix: writers that add one keep it
    try:
        write(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def save(out: Path, model: Any, pool: Any) -> None:
    """Checkpoint the learner (`model`, an sb3 MaskablePPO) and the opponent pool into run folder `out`."""
    import torch  # lazy: the pool, and the envs through it, import this module without torch

    folder = out / "checkpoints"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"model_{model.num_timesteps}-{model._n_updates}.pt"
    tensors = {"policy": model.policy.state_dict(), "optimizer": model.policy.optimizer.state_dict()}
    write_atomically(folder / name, lambda tmp: torch.save(tensors, tmp))
    manifest = {
        "format": FORMAT, "version": VERSION, "timesteps": model.num_timesteps,
        "n_updates": model._n_updates, "model": name, "pool": pool.save(out / "pool"),
    }
    write_atomically(folder / MANIFEST, lambda tmp: tmp.write_text(json.dumps(manifest, indent=1)))
    # the new checkpoint is whole: earlier tensors can go, and what a killed save left half-written
    for old in {*folder.glob("model_*.pt"), *folder.glob("*.tmp*"), *(out / "pool").glob("*.tmp*")}:
        if old.name != name:
            old.unlink(missing_ok=True)


@dataclass
class Checkpoint:
    timesteps: int
    n_updates: int
    tensors: dict[str, Any]  # {"policy": state dict, "optimizer": state dict}
    pool: dict[str, Any]  # the pool's index, checked by OpponentPool.load


def read(out: Path) -> Checkpoint:
    """The checkpoint of run folder `out`, parsed without unpickling (raises CheckpointError)."""
    import torch  # lazy: the pool, and the envs through it, import this module without torch

    folder = out / "checkpoints"
    path = folder / MANIFEST
    if not path.exists():
        old = " (its checkpoints/latest.zip is an SB3 pickle, which this version never reads)" if (
            folder / "latest.zip").exists() else ""
        raise CheckpointError(f"--resume {out}: no checkpoint {path}{old}; {RESTART}")
    try:
        manifest = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointError(f"checkpoint {path} is not JSON ({e}); {RESTART}") from None
    problem = manifest_problem(manifest)
    if problem:
        raise CheckpointError(f"checkpoint {path}: {problem}; {RESTART}")
    tensor_path = folder / manifest["model"]
    try:
        tensors = torch.load(tensor_path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise CheckpointError(f"checkpoint {path} names {tensor_path}, which is missing; {RESTART}") from None
    except Exception as e:  # noqa: BLE001 (any failure to parse an untrusted file means: corrupt)
        reason = " ".join(str(e).split())[:200]
        raise CheckpointError(
            f"checkpoint {tensor_path} is corrupt or holds more than tensors ({type(e).__name__}: {reason}); "
            f"{RESTART}"
        ) from None
    if not (isinstance(tensors, dict) and isinstance(tensors.get("policy"), dict)
            and isinstance(tensors.get("optimizer"), dict)):
        raise CheckpointError(f"checkpoint {tensor_path} must map 'policy' and 'optimizer' to state dicts; "
                              f"{RESTART}")
    return Checkpoint(manifest["timesteps"], manifest["n_updates"], tensors, manifest["pool"])


def manifest_problem(manifest: Any) -> str | None:
    """What is wrong with a parsed latest.json, or None."""
    if not isinstance(manifest, dict):
        return f"it holds {type(manifest).__name__}, not a mapping"
    if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        return f"format {manifest.get('format')!r} version {manifest.get('version')!r} is not {FORMAT!r} {VERSION}"
    for key in ("timesteps", "n_updates"):
        if not is_count(manifest.get(key)):
            return f"{key}={manifest.get(key)!r} is not a count"
    if not isinstance(manifest.get("model"), str) or not MODEL_NAME.fullmatch(manifest["model"]):
        return f"model={manifest.get('model')!r} is not a tensor file name like 'model_1024-8.pt'"
    if not isinstance(manifest.get("pool"), dict):
        return "it has no pool index"
    return None


def is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def restore(model: Any, checkpoint: Checkpoint) -> None:
    """Load the checkpoint's tensors into a model built from the run's config (raises CheckpointError
    when they do not fit it)."""
    import torch  # lazy: the pool, and the envs through it, import this module without torch

    policy, optimizer = model.policy, model.policy.optimizer
    state = checkpoint.tensors["policy"]
    fix = "resume with the config the run was trained with (drop --set options that change the network)"
    own = policy.state_dict()
    if set(state) != set(own):
        raise CheckpointError(f"checkpoint tensors {sorted(set(state) ^ set(own))} do not match the model "
                              f"the run's config builds; {fix}")
    for key, t in state.items():
        if not isinstance(t, torch.Tensor) or not t.is_floating_point():
            raise CheckpointError(f"checkpoint entry {key!r} is not a float tensor; {RESTART}")
        if t.shape != own[key].shape:
            raise CheckpointError(f"checkpoint tensor {key!r} of shape {tuple(t.shape)} does not fit the model "
                                  f"the run's config builds ({tuple(own[key].shape)}); {fix}")
        if not torch.isfinite(t).all():
            raise CheckpointError(f"checkpoint tensor {key!r} holds non-finite values; {RESTART}")
    params = [p for group in optimizer.param_groups for p in group["params"]]
    try:
        for index, entries in checkpoint.tensors["optimizer"].get("state", {}).items():
            for name, t in entries.items():
                if isinstance(t, torch.Tensor) and t.dim() == 2 and t.t().shape == params[index].shape != t.shape:
                    entries[name] = t = t.t()  # written while sparse first layers' parameter was W, not W.T
                if isinstance(t, torch.Tensor) and t.dim() and t.shape != params[index].shape:
                    raise ValueError(f"state {name!r} of parameter {index} is {tuple(t.shape)}")
        policy.load_state_dict(state)
        optimizer.load_state_dict(checkpoint.tensors["optimizer"])
    except (ValueError, KeyError, IndexError, TypeError, AttributeError, RuntimeError) as e:
        reason = " ".join(str(e).split())[:200]
        raise CheckpointError(f"checkpoint optimizer state does not fit the model ({reason}); {fix}") from None
    model.num_timesteps, model._n_updates = checkpoint.timesteps, checkpoint.n_updates
