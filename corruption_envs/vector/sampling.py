"""Uniform legal moves for a whole batch in one compiled pass (random play, exploration, benchmarks).

One uniform number per row picks among that row's legal actions. A mask of bytes (the engines' int8,
or bool) is read eight bytes at a time: the row's legal actions are counted word by word, then the
chosen one found from the row's first legal action, so a wide, sparse mask (Corruptia's 2,154 actions,
~5 legal) costs a few hundred word reads rather than two byte-by-byte scans. A row of at least
SPARSE_WIDTH bytes is counted skipping four all-zero words at a time; a narrower one (Corruption's 329
actions, a fifth of them legal) sums every word, a loop that vectorises."""
from __future__ import annotations

import numba as nb
import numpy as np

LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
HIGH = np.uint64(0x8080808080808080)
PAIRS = np.uint64(0x00FF00FF00FF00FF)
SUM16 = np.uint64(0x0001000100010001)
BYTES = np.uint64(0x0101010101010101)
FOLD = 248  # words summed per byte-lane accumulator before it is folded (a lane holds at most 255)
SPARSE_WIDTH = 1024  # bytes a mask row needs to be counted by skipping zero words (measured faster there)
# The kernels allocate nothing, so they are compiled without numba's reference counting (_nrt=False): it
# would take atomic increments and decrements for each array argument and each row's slice of `starts`.


@nb.njit(cache=True, _nrt=False, inline="always")
def _nonzero_lanes(w):  # pragma: no cover - compiled
    """Each byte of w as 1 if nonzero, else 0 (whatever the byte's value)."""
    return ((w | ((w & LOW7) + LOW7)) & HIGH) >> np.uint64(7)


@nb.njit(cache=True, _nrt=False)
def _count(flat, words, lo, hi):  # pragma: no cover - compiled
    """How many bytes of flat[lo:hi] are nonzero (words: the aligned 8-byte view of flat), every word
    summed."""
    wlo, whi = (lo + 7) >> 3, hi >> 3
    if wlo >= whi:
        wlo = whi = hi >> 3  # too short for a whole word: every byte counted one by one
    c = 0
    for x in range(lo, wlo << 3):
        c += flat[x] != 0
    for x in range(max(lo, whi << 3), hi):
        c += flat[x] != 0
    w = wlo
    while w < whi:
        end = min(w + FOLD, whi)
        acc = np.uint64(0)
        for v in range(w, end):
            acc += _nonzero_lanes(words[v])
        acc = (acc & PAIRS) + ((acc >> np.uint64(8)) & PAIRS)
        c += (acc * SUM16) >> np.uint64(48)
        w = end
    return c


@nb.njit(cache=True, _nrt=False)
def _count_sparse(flat, words, lo, hi, first):  # pragma: no cover - compiled
    """_count for a wide, mostly-zero row, skipping four words at a time when they are all zero; also
    puts the position of the row's first nonzero byte in first[0] (hi if none)."""
    wlo, whi = (lo + 7) >> 3, hi >> 3
    first[0] = hi
    c = 0
    for x in range(lo, wlo << 3):
        if flat[x] != 0:
            first[0] = min(first[0], x)
            c += 1
    w = wlo
    while w < whi:
        if w + 4 <= whi and (words[w] | words[w + 1] | words[w + 2] | words[w + 3]) == 0:
            w += 4
            continue
        if words[w] != 0:
            if first[0] == hi:
                x = w << 3
                while flat[x] == 0:
                    x += 1
                first[0] = x
            c += np.int64((_nonzero_lanes(words[w]) * BYTES) >> np.uint64(56))
        w += 1
    for x in range(max(lo, whi << 3), hi):
        if flat[x] != 0:
            first[0] = min(first[0], x)
            c += 1
    return c


@nb.njit(cache=True, _nrt=False)
def _find(flat, words, lo, hi, k):  # pragma: no cover - compiled
    """The position in flat[lo:hi] of its k-th nonzero byte (from 0)."""
    wlo, whi = (lo + 7) >> 3, hi >> 3
    x = lo
    if wlo < whi:
        while x < wlo << 3:
            if flat[x] != 0:
                if k == 0:
                    return x - lo
                k -= 1
            x += 1
        w = wlo
        while w < whi:
            if words[w] != 0:  # (most words of a sparse mask are: skipped at one compare each)
                running = _nonzero_lanes(words[w]) * BYTES  # byte j: the nonzero bytes among 0..j
                c = np.int64(running >> np.uint64(56))
                if k < c:  # it is byte number (how many running counts are at most k), found unbranched
                    at_most_k = (((np.uint64(k) * BYTES) | HIGH) - running) & HIGH
                    return (w << 3) + np.int64(((at_most_k >> np.uint64(7)) * BYTES) >> np.uint64(56)) - lo
                k -= c
            w += 1
        x = w << 3
    while x < hi:
        if flat[x] != 0:
            if k == 0:
                return x - lo
            k -= 1
        x += 1
    return -1


@nb.njit(cache=True, _nrt=False)
def _count_rows(flat, words, width, counts, starts):  # pragma: no cover - compiled
    """counts[i]: row i's legal actions; starts[i]: where in flat to look for them (the first one, for a
    row counted sparsely); returns the first row with none, or -1."""
    for i in range(counts.shape[0]):
        lo = i * width
        if width >= SPARSE_WIDTH:
            counts[i] = _count_sparse(flat, words, lo, lo + width, starts[i:i + 1])
        else:
            counts[i], starts[i] = _count(flat, words, lo, lo + width), lo
        if counts[i] == 0:
            return i
    return -1


@nb.njit(cache=True, _nrt=False)
def _pick(flat, words, width, u, out, counts, starts):  # pragma: no cover - compiled
    """out[i]: row i's legal action number floor(u[i] * counts[i])."""
    for i in range(out.shape[0]):
        k = min(int(u[i] * counts[i]), counts[i] - 1)
        out[i] = starts[i] - i * width + _find(flat, words, starts[i], i * width + width, k)


def random_legal(masks: np.ndarray, rng: np.random.Generator, out: np.ndarray | None = None) -> np.ndarray:
    """One action per row of `masks` (B, A), uniform over its nonzeros; every row needs one."""
    masks = np.asarray(masks)
    if masks.ndim != 2:
        raise ValueError(f"random_legal takes masks of shape (B, A), got shape {masks.shape}")
    flat, words = _byte_views(masks)
    counts, starts = np.empty(len(masks), np.int64), np.empty(len(masks), np.int64)
    empty = _count_rows(flat, words, masks.shape[1], counts, starts)
    if empty >= 0:  # before any draw: the generator and `out` stay as they were
        raise ValueError(f"random_legal needs a legal action in every row of the masks: row {empty} has none")
    out = np.empty(len(masks), np.int64) if out is None else out
    _pick(flat, words, masks.shape[1], rng.random(len(masks)), out, counts, starts)
    return out


_last: list = [None, None, None]  # the masks array random_legal read last, and its views


def _byte_views(masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`masks` as flat bytes and their aligned 8-byte words. An engine hands out the same mask array
    every step: its views are made once (the views follow its contents)."""
    if masks is _last[0]:
        return _last[1], _last[2]
    if masks.dtype.itemsize != 1 or masks.dtype.kind not in "biu" or not masks.flags.c_contiguous:
        flat = np.ascontiguousarray(masks != 0).reshape(-1).view(np.uint8)  # a copy: not worth keeping
        return flat, flat[:flat.size // 8 * 8].view(np.uint64)
    flat = masks.reshape(-1).view(np.uint8)
    if flat.ctypes.data % 8:  # a view not on an 8-byte boundary: read a copy that is
        flat = flat.copy()
        return flat, flat[:flat.size // 8 * 8].view(np.uint64)
    words = flat[:flat.size // 8 * 8].view(np.uint64)
    _last[:] = masks, flat, words
    return flat, words
