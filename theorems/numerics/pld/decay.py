"""Rigorous float tables of decaying exponentials ``e^{-c i}`` for the queries of
:mod:`.fourier_pld`: products of reciprocals of two short tables of :func:`.tilted.weights`,
each entry's relative error bounded (Higham, *Accuracy and Stability of Numerical
Algorithms*, 2nd ed., SIAM 2002, Sec. 2.2), every table the prefix of one table per ``c``."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.numerics.pld._arith import float_outward
from dpverify.theorems.numerics.pld.fft import U
from dpverify.theorems.numerics.pld.tilted import MAX_EXPONENT, weights

_BLOCK = 1 << 10  # the decaying tables are products of two short ones, blocks of 1024
_RECIP: dict[Fraction, tuple[np.ndarray, np.ndarray, float, np.ndarray]] = {}


def _fits(lam: Fraction, n: int) -> bool:
    """Whether :func:`.tilted.weights` ``(lam, n)`` stays in the float range, its internal
    products up to ``e^{lam (T^2 - 1)}``, ``T = isqrt(n - 1) + 1``, included."""
    t = math.isqrt(max(n - 1, 0)) + 1
    return float(lam) * (n - 1) <= MAX_EXPONENT and float(lam) * (t * t - 1) <= 700


def _factors(c: Fraction) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """``(1 / A, 1 / B, rel, longest table so far)`` of :func:`reciprocal` (cached per ``c >
    0``): ``B_r ~ e^{c r}``, ``r < m``, and ``A_q ~ e^{c m q}``, as long as they fit."""
    hit = _RECIP.get(c)
    if hit is None:
        m = _BLOCK
        while m > 1 and not _fits(c, m):
            m //= 2
        rows = min(1 << 13, int(MAX_EXPONENT / float(c * m)) + 1)
        while rows > 1 and not _fits(c * m, rows):
            rows = rows * 15 // 16
        inv_b, alpha_b = weights(c, m, cache=False)
        inv_a, alpha_a = weights(c * m, rows, cache=False)
        u = 1 + Fraction(U)
        rel = float_outward(u**3 / ((1 - Fraction(alpha_a)) * (1 - Fraction(alpha_b))) - 1, True)
        if len(_RECIP) >= 8:
            _RECIP.clear()
        hit = _RECIP[c] = (1.0 / inv_a, 1.0 / inv_b, rel, np.zeros(0))
    return hit


def capacity(c: Fraction) -> int:
    """The longest table :func:`reciprocal` gives for ``c``."""
    if c == 0:
        return 1 << 62
    inv_a, inv_b, _rel, _table = _factors(c)
    return len(inv_a) * len(inv_b)


def reciprocal(c: Fraction, t: int) -> tuple[np.ndarray, float]:
    """Floats ``E_i ~ e^{-c i}``, ``i < t <=`` :func:`capacity` ``(c)``, and a bound of their
    relative error: ``E_{q m + r} = fl(fl(1 / A_q) fl(1 / B_r))``, ``A_q ~ e^{c m q}``, ``B_r
    ~ e^{c r}`` from :func:`.tilted.weights` (within ``alpha_A``, ``alpha_B``), so ``(1 + u)^3
    / ((1 - alpha_A)(1 - alpha_B)) - 1`` (Higham 2002, Sec. 2.2); ``1`` exactly for ``c = 0``.
    The short tables are uncached weights of lengths set by ``c`` alone, so every table is a
    prefix of one table per ``c`` (results do not depend on earlier queries); cached per ``c``
    with the longest table so far (read-only): the upper and lower PLDs of a pass share
    their tilt, all PLDs their grid step."""
    if c == 0:
        return np.ones(t), 0.0
    inv_a, inv_b, rel, table = _factors(c)
    if len(table) < t:
        rows = -(-t // len(inv_b))
        if rows > len(inv_a):
            raise PrecisionExhausted(f"a decaying table of {t} entries exceeds the float range")
        table = np.outer(inv_a[:rows], inv_b).ravel()
        table.flags.writeable = False
        _RECIP[c] = (inv_a, inv_b, rel, table)
    return table[:t], rel


__all__ = ["capacity", "reciprocal"]
