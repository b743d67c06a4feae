"""Poisson subsampling of a base loss pair (Laplace, randomized response, the discrete
mechanisms) under add/remove.

For an add/remove dominating pair ``(P0, Q0)`` of a mechanism (``P0 = M(x + u)``, ``Q0 = M(x)``)
the Poisson-subsampled mechanism with rate q is dominated by

- ``add``:    ``((1-q) Q0 + q P0,  Q0)``,   loss ``log(1 - q + q e^{L0})``;
- ``remove``: ``(Q0,  (1-q) Q0 + q P0)``,   loss ``-log(1 - q + q e^{L0})``,

with ``L0 = log(dP0/dQ0)`` ([ZDW22] Y. Zhu, J. Dong, Y.-X. Wang, *Optimal Accounting of
Differential Privacy via Characteristic Function*, arXiv 2106.08567v3, Thm 10 (Poisson
subsampling of dominating pairs); [BBG18] B. Balle, G. Barthe, M. Gaboardi, arXiv 1807.01647v2,
Thm 2 (advanced joint convexity)). Both losses are monotone in ``L0``, so their CDFs are the
base CDFs at a transformed threshold, evaluated in ball arithmetic. For randomized response and
Laplace the pairs are attained (the mechanism that applies the base pair to the indicator of
the differing record), so the profile they give is the exact one, not only an upper bound.
(Moved here from ``verifiers.accountants.pairs``, which re-exports it.)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.numerics.pld._arith import _arb
from dpverify.theorems.numerics.pld.pairs import LossPair

# LossPair.cdf accepts arb balls as thresholds; the base pairs decide every comparison on the
# ball or raise PrecisionExhausted, so a ball threshold is safe.


class SubsampledPair(LossPair):
    """Poisson subsampling (rate q) of a base pair, in the ``add`` or ``remove`` direction."""

    def __init__(self, base: LossPair, q: Fraction, direction: str) -> None:
        if direction not in ("add", "remove"):
            raise ValueError(f"direction must be add or remove; got {direction!r}")
        q = Fraction(q)
        if not 0 < q <= 1:
            raise ValueError(f"q must be in (0, 1]; got {q}")
        self.base, self.q, self.direction = base, q, direction
        self.params = (*base.params, q)
        self.name = f"subsampled_{base.name}_{direction}"

    def key(self) -> tuple[Any, ...]:
        return (self.name, self.base.key(), self.q)

    def describe(self) -> str:
        return (f"{self.direction} pair of {self.base.describe()} on a Poisson "
                f"q={float(self.q):g} sample")

    def _map(self, l0: float) -> float:
        q = float(self.q)
        v = math.log1p(q * math.expm1(l0))
        return v if self.direction == "add" else -v

    def edges(self) -> tuple[float | None, float | None]:
        lo, hi = self.base.edges()
        if lo is None or hi is None:
            return None, None
        a, b = self._map(lo), self._map(hi)
        a, b = min(a, b), max(a, b)
        pad = 1e-12 * max(1.0, abs(a), abs(b))
        return a - pad, b + pad

    def _threshold(self, w: flint.arb) -> flint.arb | None:
        """``t`` with ``log(1 - q + q e^t) = w``; None below the range (``e^w <= 1 - q``)."""
        q = _arb(self.q)
        s = w.expm1() + q  # e^w - (1 - q)
        if s <= 0:
            return None
        if not s > 0:
            raise PrecisionExhausted("a loss threshold sits on the edge of the support")
        return (s / q).log()

    def cdf(self, z: Fraction) -> tuple[flint.arb, flint.arb]:
        q = _arb(self.q)
        one = flint.arb(1)
        zb = _arb(z)
        if self.direction == "add":
            t = self._threshold(zb)
            if t is None:
                return flint.arb(0), flint.arb(0)
            p0, q0 = self.base.cdf(t)  # P0[L0 <= t], Q0[L0 <= t]
            return (one - q) * q0 + q * p0, q0
        # remove: L <= z  iff  log(1 - q + q e^{L0}) >= -z  iff  L0 >= t(-z)
        t = self._threshold(-zb)
        if t is None:
            return one, one
        p0, q0 = self.base.cdf(t)  # t is certainly not an atom of L0 (else cdf raises)
        sp, sq = one - p0, one - q0  # P0[L0 > t] = P0[L0 >= t] off the atoms
        return sq, (one - q) * sq + q * sp

    def p_inf(self) -> flint.arb:
        return flint.arb(0)


__all__ = ["SubsampledPair"]
