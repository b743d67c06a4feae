"""Rigorous truncation of sums over the integers: the geometric tail bounds used by the discrete
Laplace and discrete Gaussian formulas, and the enclosure ``total + [0, bound]``.

Tail bound (derived here, stated once): let ``f(u) = u^k e^{-u^2/(2 v)}`` with ``k`` in {0, 2},
``v > 0``, and ``M >= 1`` with ``M^2 >= k v`` (so ``f`` is nonincreasing on ``[M, inf)``). For
``u >= M`` the ratio ``f(u + 1)/f(u) = (1 + 1/u)^k e^{-(2u + 1)/(2v)}`` is at most ``r = (1 +
1/M)^k e^{-(2M + 1)/(2v)}``. If ``r < 1``, then for every lattice ``u0, u0 + 1, ...`` with
``u0 >= M``: ``sum_{j >= 0} f(u0 + j) <= f(M)/(1 - r)``. The same argument with ``f(u) = u^k
e^{-a u}`` gives ``r = (1 + 1/M)^k e^{-a}`` (discrete Laplace).
"""

from __future__ import annotations

import math
from typing import Any

from dpverify.theorems.errors import PrecisionExhausted
from dpverify.theorems.values import float_bounds


def guard_bits(ctx: Any) -> int:
    """Bits below which a truncated remainder is negligible for this context (and a margin)."""
    return int(getattr(ctx, "prec", 53) or 53) + 40


def with_tail(ctx: Any, total: Any, bound: Any) -> Any:
    """``total + [0, bound]`` in a rigorous context (``bound`` encloses the omitted nonnegative
    remainder); a non-rigorous context drops the remainder, below its precision by choice of
    the cut-off."""
    if getattr(ctx, "rigorous", False):
        return total + ctx.hull(ctx.zero, bound)
    return total


def gauss_lattice_tail(ctx: Any, v: Any, m: int, k: int = 0) -> Any:
    """Upper bound on ``sum_{j >= 0} f(u0 + j)``, ``f(u) = u^k e^{-u^2/(2v)}``, for any
    ``u0 >= m`` (module docstring; requires ``m >= 1``, ``m^2 >= k v`` and ``r < 1``)."""
    if m < 1 or m * m < k * float_bounds(v)[1]:
        raise PrecisionExhausted(f"tail cut-off {m} too small for the Gaussian tail bound")
    mm = ctx.num(m)
    ratio = ctx.pow(1 + 1 / mm, k) * ctx.exp(-(2 * mm + 1) / (2 * v))
    below = ctx.lt(ratio, ctx.one)
    if below is False:  # impossible once m >= 1 and m^2 >= k v (ln r <= 2/m - (2m + 1)/m^2)
        raise RuntimeError(f"tail ratio {ratio} >= 1 at cut-off {m}: the ratio is wrong")
    if below is None:
        raise PrecisionExhausted(f"tail ratio not certified below 1 at cut-off {m}")
    return ctx.pow(mm, k) * ctx.exp(-(mm * mm) / (2 * v)) / (1 - ratio)


def gauss_cutoff(ctx: Any, v: Any) -> int:
    """Number of terms past which ``e^{-u^2/(2v)}`` (times ``u^2``) drops below the guard bits:
    ``ceil(sqrt(2 v (bits ln 2 + 2 ln(2 + v)))) + 2``, and at least ``sqrt(2 v) + 2``."""
    vv = float_bounds(v)[1]
    bits = guard_bits(ctx)
    return math.ceil(math.sqrt(2 * vv * (bits * math.log(2) + 2 * math.log(2 + vv)))) + 2


def laplace_cutoff(ctx: Any, b: Any) -> int:
    """Terms past which ``u^2 e^{-u/b}`` drops below the guard bits."""
    bb = float_bounds(b)[1]
    bits = guard_bits(ctx)
    n = math.ceil(bb * bits * math.log(2)) + 2
    return n + math.ceil(4 * bb * math.log(n + 2)) + math.ceil(3 * bb) + 2
