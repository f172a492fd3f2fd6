"""`np.random.default_rng(seed)` in numba, for the few draws a game's setup makes: the same numbers.

numpy's default generator is PCG64 seeded through SeedSequence; this module repeats, step for step,
SeedSequence's hash of an integer seed (numpy/random/bit_generator.pyx), PCG64's seeding and 64-bit
output (pcg64.h, XSL-RR over a 128-bit LCG), its 32-bit output that keeps the unused half of a 64-bit
draw, `Generator.permutation(n)` (a Fisher-Yates shuffle drawing `random_interval`) and
`Generator.integers(n)` (Lemire's bounded draw). A game dealt in a kernel from `game_seeds[i]` is then
the game the AEC rules deal from `default_rng(game_seeds[i])`, with no Python call per game.
tests/vector/test_numpy_rng.py holds each function to numpy. `pcg64_words` carries an AEC state's
generator into an engine row, where the kernels draw on from it.

A generator is a uint64 array of GENERATOR_SIZE: the 128-bit state and increment as high and low
words, then PCG64's buffered 32-bit half and whether it is full.
"""
from __future__ import annotations

import numba as nb
import numpy as np

U64 = np.uint64
MASK32 = U64(0xFFFFFFFF)
# SeedSequence's hash constants (bit_generator.pyx), 32-bit
INIT_A, MULT_A = U64(0x43B0D7E5), U64(0x931E8875)
INIT_B, MULT_B = U64(0x8B51F9DD), U64(0x58F38DED)
MIX_MULT_L, MIX_MULT_R = U64(0xCA01F9DD), U64(0x4973F715)
POOL_SIZE = 4
# PCG64's 128-bit multiplier (PCG_DEFAULT_MULTIPLIER_128) as high and low words
MULT_HI, MULT_LO = U64(2549297995355413924), U64(4865540595714422341)
STATE_HI, STATE_LO, INC_HI, INC_LO, HALF, HAS_HALF = range(6)
GENERATOR_SIZE = 6
SEED_SCRATCH = 8 + POOL_SIZE  # seeding's working words: the seed's 8 words, the hash's pool


@nb.njit(cache=True, inline="always")
def _u32(x):  # pragma: no cover - compiled
    return x & MASK32


@nb.njit(cache=True)
def _hashmix(value, hash_const):  # pragma: no cover - compiled
    """SeedSequence's hashmix: (hashed value, next hash constant), all 32-bit."""
    value = _u32(value ^ hash_const)
    hash_const = _u32(hash_const * MULT_A)
    value = _u32(value * hash_const)
    return value ^ (value >> U64(16)), hash_const


@nb.njit(cache=True)
def _mix(x, y):  # pragma: no cover - compiled
    result = _u32(_u32(MIX_MULT_L * x) - _u32(MIX_MULT_R * y))
    return result ^ (result >> U64(16))


@nb.njit(cache=True)
def _seed_words(seed, out, pool):  # pragma: no cover - compiled
    """SeedSequence(seed).generate_state(8, uint32) for an integer 0 <= seed < 2**63 into `out`, with
    `pool` (POOL_SIZE words) as the hash's pool."""
    low, high = U64(seed) & MASK32, U64(seed) >> U64(32)  # the seed as little-endian 32-bit words
    h = INIT_A
    for i in range(POOL_SIZE):
        pool[i], h = _hashmix(low if i == 0 else high if i == 1 else U64(0), h)
    for src in range(POOL_SIZE):
        for dst in range(POOL_SIZE):
            if src != dst:
                hashed, h = _hashmix(pool[src], h)
                pool[dst] = _mix(pool[dst], hashed)
    h = INIT_B
    for i in range(out.shape[0]):
        value = _u32(pool[i % POOL_SIZE] ^ h)
        h = _u32(h * MULT_B)
        value = _u32(value * h)
        out[i] = value ^ (value >> U64(16))


@nb.njit(cache=True)
def _mul_hi(a, b):  # pragma: no cover - compiled
    """The high 64 bits of the 128-bit product of two uint64."""
    a_lo, a_hi = a & MASK32, a >> U64(32)
    b_lo, b_hi = b & MASK32, b >> U64(32)
    lo_lo = a_lo * b_lo
    mid1 = a_hi * b_lo + (lo_lo >> U64(32))
    mid2 = a_lo * b_hi + (mid1 & MASK32)
    return a_hi * b_hi + (mid1 >> U64(32)) + (mid2 >> U64(32))


@nb.njit(cache=True)
def _step(g):  # pragma: no cover - compiled
    """state = state * MULT + inc (mod 2**128)."""
    hi, lo = g[STATE_HI], g[STATE_LO]
    new_lo = lo * MULT_LO
    new_hi = _mul_hi(lo, MULT_LO) + lo * MULT_HI + hi * MULT_LO
    g[STATE_LO] = new_lo + g[INC_LO]
    carry = U64(1) if g[STATE_LO] < new_lo else U64(0)
    g[STATE_HI] = new_hi + g[INC_HI] + carry


@nb.njit(cache=True)
def seed_generator(g, seed):  # pragma: no cover - compiled
    """`g` becomes the PCG64 of `np.random.default_rng(seed)` (0 <= seed < 2**63)."""
    seed_generator_in(g, seed, np.empty(SEED_SCRATCH, np.uint64))


@nb.njit(cache=True)
def seed_generator_in(g, seed, scratch):  # pragma: no cover - compiled
    """`seed_generator` working in `scratch` (SEED_SCRATCH words): it allocates nothing, so a kernel
    compiled without reference counting can deal."""
    words, pool = scratch[:8], scratch[8:]
    _seed_words(seed, words, pool)
    # generate_state(4, uint64): pairs of 32-bit words, low first; seed = v0:v1, inc = v2:v3 (hi:lo)
    v0, v1 = words[0] | (words[1] << U64(32)), words[2] | (words[3] << U64(32))
    v2, v3 = words[4] | (words[5] << U64(32)), words[6] | (words[7] << U64(32))
    g[STATE_HI] = U64(0)
    g[STATE_LO] = U64(0)
    g[INC_HI] = (v2 << U64(1)) | (v3 >> U64(63))
    g[INC_LO] = (v3 << U64(1)) | U64(1)
    _step(g)
    lo = g[STATE_LO] + v1
    g[STATE_HI] = g[STATE_HI] + v0 + (U64(1) if lo < v1 else U64(0))
    g[STATE_LO] = lo
    _step(g)
    g[HALF] = U64(0)
    g[HAS_HALF] = U64(0)


@nb.njit(cache=True)
def next64(g):  # pragma: no cover - compiled
    """PCG64's next 64-bit output (XSL-RR)."""
    _step(g)
    value = g[STATE_HI] ^ g[STATE_LO]
    rot = g[STATE_HI] >> U64(58)
    return (value >> rot) | (value << ((U64(64) - rot) & U64(63)))


@nb.njit(cache=True)
def next32(g):  # pragma: no cover - compiled
    """PCG64's next 32-bit output: the low half of a 64-bit draw, then its high half."""
    if g[HAS_HALF]:
        g[HAS_HALF] = U64(0)
        return g[HALF]
    value = next64(g)
    g[HAS_HALF] = U64(1)
    g[HALF] = value >> U64(32)
    return value & MASK32


@nb.njit(cache=True)
def random_interval(g, top):  # pragma: no cover - compiled
    """A uniform integer in [0, top] (0 < top < 2**32), by masked rejection as numpy draws it."""
    mask = U64(top)
    for shift in (1, 2, 4, 8, 16):
        mask |= mask >> U64(shift)
    while True:
        value = next32(g) & mask
        if value <= U64(top):
            return np.int64(value)


@nb.njit(cache=True)
def permutation_into(g, out):  # pragma: no cover - compiled
    """`out` = `Generator.permutation(len(out))`."""
    n = out.shape[0]
    for i in range(n):
        out[i] = i
    for i in range(n - 1, 0, -1):
        j = random_interval(g, i)
        out[i], out[j] = out[j], out[i]


@nb.njit(cache=True)
def integers(g, n):  # pragma: no cover - compiled
    """`Generator.integers(n)` for 2 <= n < 2**32 (Lemire's bounded draw)."""
    top = U64(n - 1)
    excl = top + U64(1)
    m = next32(g) * excl
    leftover = m & MASK32
    if leftover < excl:
        threshold = (MASK32 - top) % excl
        while leftover < threshold:
            m = next32(g) * excl
            leftover = m & MASK32
    return np.int64(m >> U64(32))


# --- an AEC state's Generator, carried into an engine row --------------------------------------------
def pcg64_words(rng: np.random.Generator) -> np.ndarray:
    """A PCG64 Generator's state as numpy_rng keeps it (its buffered 32-bit half-word included)."""
    state = rng.bit_generator.state
    if state["bit_generator"] != "PCG64":
        raise ValueError(
            f"the batched engine carries numpy's PCG64 on; this game's generator is "
            f"{state['bit_generator']}: build the AEC state with np.random.default_rng(seed)"
        )
    s, inc = state["state"]["state"], state["state"]["inc"]
    low = (1 << 64) - 1
    words = np.zeros(GENERATOR_SIZE, np.uint64)
    words[[STATE_HI, STATE_LO, INC_HI, INC_LO]] = (s >> 64, s & low, inc >> 64, inc & low)
    words[HALF], words[HAS_HALF] = state["uinteger"], state["has_uint32"]
    return words
