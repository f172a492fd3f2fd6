"""Read an `.npz` archive from anyone: plain arrays only, each header checked before its data is read.

`np.load` would allocate whatever shape a member's header declares (a few bytes of a crafted file can
ask for terabytes) and, with pickles allowed, run code. Here every member's `.npy` header is read first
with `numpy.lib.format`; an object dtype, or declared sizes adding up to more than `max_bytes`, is
refused before any data is read, and the data is read with pickles refused.
"""
from __future__ import annotations

import math
import zipfile
from pathlib import Path

import numpy as np
from numpy.lib import format as npy

HEADER_READERS = {(1, 0): npy.read_array_header_1_0, (2, 0): npy.read_array_header_2_0}


class NpzError(ValueError):
    """The file is not an archive of plain arrays within the size limit; the message says why."""


def _declared(f, name: str) -> tuple[tuple[int, ...], np.dtype]:
    """(shape, dtype) a member's header declares, read without reading its data."""
    version = npy.read_magic(f)
    if version not in HEADER_READERS:
        raise NpzError(f"array {name!r} has .npy format version {version}, not one of {list(HEADER_READERS)}")
    shape, _, dtype = HEADER_READERS[version](f)
    return shape, dtype


def read_npz(path: str | Path, max_bytes: int) -> dict[str, np.ndarray]:
    """Every array of the archive by name (without `.npy`). Raises FileNotFoundError, or NpzError when the
    file is no zip of .npy members, a member holds objects, or the members declare more than `max_bytes`."""
    arrays: dict[str, np.ndarray] = {}
    total = 0
    try:
        with zipfile.ZipFile(path) as z:
            for info in z.infolist():
                name = info.filename.removesuffix(".npy")
                with z.open(info) as f:
                    shape, dtype = _declared(f, name)
                if dtype.hasobject:
                    raise NpzError(f"array {name!r} holds Python objects (a pickle), not numbers or text")
                total += math.prod(shape) * dtype.itemsize
                if total > max_bytes:
                    raise NpzError(f"array {name!r} declares shape {shape} of {dtype}, which takes the "
                                   f"arrays past the {max_bytes:,}-byte limit")
                with z.open(info) as f:
                    arrays[name] = npy.read_array(f, allow_pickle=False)
    except (FileNotFoundError, NpzError):
        raise
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError, TypeError) as e:
        raise NpzError(f"not an .npz archive of arrays ({type(e).__name__}: {e})") from None
    return arrays
