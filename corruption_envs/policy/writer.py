"""The policy file writer: a policy's metadata and named arrays as one pickle-free .npz (the package
docstring gives the format)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "corruption_envs.policy"
FORMAT_VERSION = 2
MIXTURE_VERSION = 3  # a mixture of actors (meta.mixture); single-actor files keep version 2


def write_policy_file(path: str | Path, meta: dict[str, Any], weights: dict[str, np.ndarray],
                      version: int = FORMAT_VERSION) -> Path:
    """Write `meta` (stamped with the format and `version`) and the `weights` arrays to `path`."""
    arrays = {"meta": np.array(json.dumps({**meta, "format": FORMAT, "format_version": version}, sort_keys=True)),
              **weights}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:  # a file object keeps numpy from appending a second .npz
        np.savez_compressed(f, **arrays)
    return path


def named_arrays(layers: list[tuple[np.ndarray, np.ndarray]], head: tuple[np.ndarray, np.ndarray],
                 prefix: str = "") -> dict[str, np.ndarray]:
    """An actor's arrays by their names in a file: w0, b0, ..., w_out, b_out (after `prefix`)."""
    arrays = {}
    for i, (w, b) in enumerate(layers):
        arrays[f"{prefix}w{i}"], arrays[f"{prefix}b{i}"] = w, b
    arrays[f"{prefix}w_out"], arrays[f"{prefix}b_out"] = head
    return arrays
