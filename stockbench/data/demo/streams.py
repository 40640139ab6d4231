"""Seeded random streams for the demo market, identical on every machine.

Each stream is keyed by the seed number and names (a symbol, a sector), so adding an instrument never
changes another's numbers. Only uniform draws are used and normal-like noise is built from them with
plain arithmetic: library samplers that call `exp` or `log` could differ in the last bit between
platforms, and one bit can move a price across a tick.
"""

from __future__ import annotations

import hashlib
from decimal import Decimal

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
SQRT3 = 1.7320508075688772  # scales the sum of four uniforms (variance 1/3) to unit variance
TAIL_SHARE = 0.04  # share of draws widened into fat tails
TAIL_WIDTH = 2.5
SESSIONS_A_YEAR = 244


def _word(key: str | int) -> int:
    return int.from_bytes(hashlib.sha256(str(key).encode()).digest()[:8], "little")


def stream(seed: int, *keys: str | int) -> np.random.Generator:
    """A generator keyed by `seed` and `keys` (PCG64: the same integers on every platform)."""
    return np.random.default_rng([seed, *(_word(k) for k in keys)])


def uniforms(rng: np.random.Generator, n: int) -> FloatArray:
    return rng.random(n)


def normals(rng: np.random.Generator, n: int) -> FloatArray:
    """`n` draws of unit-variance noise with fat tails (Irwin-Hall of four uniforms, some widened)."""
    u = rng.random((4, n))
    z = (u[0] + u[1] + u[2] + u[3] - 2.0) * SQRT3
    wide = rng.random(n) < TAIL_SHARE
    widened: FloatArray = np.where(wide, z * TAIL_WIDTH, z)
    return widened


def daily_rate(yearly: float) -> float:
    """The per-session growth compounding to `yearly` over a year, computed exactly (Decimal, not libm)."""
    base = Decimal(1) + Decimal(repr(yearly))
    if base <= 0:
        raise ValueError(f"yearly growth {yearly} is -100% or worse")
    return float((base.ln() / SESSIONS_A_YEAR).exp() - 1)
