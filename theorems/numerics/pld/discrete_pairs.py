"""Loss pairs of the discrete mechanisms on the integers, with rigorous loss CDFs: the discrete
Laplace and the discrete Gaussian shifted by an integer sensitivity.

- :class:`DiscreteLaplace` ``(DLap(0, b), DLap(s, b))``, ``P[x] ∝ e^{-|x|/b}``: the loss
  ``(|x - s| - |x|)/b`` takes the finitely many values ``(s - 2x)/b``, ``x = 0..s`` (derived;
  for ``s = 1`` the pair is exactly RR(1/b): ``P[x <= 0] = 1/(1 + e^{-1/b})``);
- :class:`DiscreteGaussian` ``(N_Z(0, sigma^2), N_Z(s, sigma^2))``, ``P[x] ∝ e^{-x^2/(2
  sigma^2)}`` ([CKS20] C. Canonne, G. Kamath, T. Steinke, arXiv 2004.00010v5, Def. 1): the loss
  ``(s^2 - 2 s x)/(2 sigma^2)`` is decreasing in x, so ``P[L <= z] = P[x >= t(z)]``. The
  infinite support is summed exactly up to ``|x| <= N`` and the rest is enclosed by the
  geometric tail bound ``sum_{x >= n} w(x) <= w(n) / (1 - e^{-(2n+1)/(2 sigma^2)})`` (the ratio
  ``w(x+1)/w(x) = e^{-(2x+1)/(2 sigma^2)}`` decreases in x), with ``N`` chosen so that the
  tail is below the working precision.

Both pairs are symmetric (``x -> s - x`` swaps P and Q), so one order gives the two-order
profile. Parameters are exact (Fractions); thresholds may be arb balls: every comparison with a
loss atom is decided on the ball, or :class:`PrecisionExhausted` is raised.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import PrecisionExhausted, arb_endpoints
from dpverify.theorems.numerics.pld._arith import _arb
from dpverify.theorems.numerics.pld.pairs import LossPair

DGAUSS_TERMS_MAX = 400_000  # a cost limit: |x| <= N summed term by term


def _ceil_certain(u: flint.arb) -> int:
    """``ceil(u)``, the same for every point of the ball (else PrecisionExhausted)."""
    lo, hi = arb_endpoints(u)
    a, b = math.ceil(lo), math.ceil(hi)
    if a != b:
        raise PrecisionExhausted("a loss threshold coincides with a loss atom within the ball")
    return a


def _at_most(loss: Fraction, z: Any) -> bool:
    """``loss <= z`` for every point of z (an exact number or a ball)."""
    if isinstance(z, Fraction | int):
        return loss <= z
    lo, hi = arb_endpoints(_arb(z))
    if hi < loss:
        return False
    if lo >= loss:
        return True
    raise PrecisionExhausted("a loss threshold coincides with a loss atom within the ball")


def _sensitivity(s: Any) -> int:
    s = Fraction(s)
    if s.denominator != 1 or s < 1:
        raise ValueError(f"sensitivity must be an integer >= 1; got {s}")
    return int(s)


class DiscreteLaplace(LossPair):
    """``(DLap(0, b), DLap(s, b))`` on the integers (integer sensitivity s >= 1)."""

    name = "discrete_laplace"

    def __init__(self, b: Fraction, sensitivity: Any = 1) -> None:
        self.b, self.s = Fraction(b), _sensitivity(sensitivity)
        if self.b <= 0:
            raise ValueError(f"b must be > 0; got {b}")
        self.params = (self.b, Fraction(self.s))

    def edges(self) -> tuple[float | None, float | None]:
        e0 = float(self.s / self.b)
        return -e0 * (1 + 1e-12), e0 * (1 + 1e-12)

    def describe(self) -> str:
        return f"discrete Laplace (b={float(self.b):g}, sensitivity={self.s})"

    def _atoms(self) -> list[tuple[Fraction, flint.arb, flint.arb]]:
        """``(loss, P-mass, Q-mass)`` by increasing loss (x = s, s-1, ..., 0 merged tails)."""
        p = (-_arb(1 / self.b)).exp()
        one = flint.arb(1)
        out = []
        for x in range(self.s, -1, -1):
            loss = Fraction(self.s - 2 * x) / self.b
            if x == 0:
                pm = one / (1 + p)
            elif x == self.s:
                pm = p ** self.s / (1 + p)
            else:
                pm = p ** x * (1 - p) / (1 + p)
            out.append((loss, pm, pm * (-_arb(loss)).exp()))
        return out

    def cdf_sf(self, z: Any) -> tuple[flint.arb, flint.arb, flint.arb, flint.arb]:
        zero = flint.arb(0)
        fp = fq = sp = sq = zero
        for loss, pm, qm in self._atoms():
            if _at_most(loss, z):
                fp, fq = fp + pm, fq + qm
            else:
                sp, sq = sp + pm, sq + qm
        return fp, fq, sp, sq

    def cdf(self, z: Any) -> tuple[flint.arb, flint.arb]:
        fp, fq, _sp, _sq = self.cdf_sf(z)
        return fp, fq


class DiscreteGaussian(LossPair):
    """``(N_Z(0, sigma^2), N_Z(s, sigma^2))`` on the integers (integer sensitivity s >= 1)."""

    name = "discrete_gaussian"

    def __init__(self, sigma: Fraction, sensitivity: Any = 1) -> None:
        self.sigma, self.s = Fraction(sigma), _sensitivity(sensitivity)
        if self.sigma <= 0:
            raise ValueError(f"sigma must be > 0; got {sigma}")
        self.params = (self.sigma, Fraction(self.s))
        self._cache: dict[int, tuple[int, list[flint.arb], flint.arb]] = {}

    def describe(self) -> str:
        return f"discrete Gaussian (sigma={float(self.sigma):g}, sensitivity={self.s})"

    def _terms(self) -> tuple[int, list[flint.arb], flint.arb]:
        """``(N, R, Z)`` at the current precision: ``R[t] = sum_{x >= t} w(x)`` for
        ``0 <= t <= N + 1`` (the part above N enclosed by the tail bound), ``Z`` the total."""
        prec = flint.ctx.prec
        hit = self._cache.get(prec)
        if hit is not None:
            return hit
        sig = float(self.sigma)
        n = self.s + math.ceil(sig * math.sqrt(2 * math.log(2) * (prec + 40))) + 2
        if n > DGAUSS_TERMS_MAX:
            raise PrecisionExhausted(f"the discrete Gaussian needs {n} terms (more than "
                                     f"{DGAUSS_TERMS_MAX}); sigma is too large")
        s2 = _arb(2 * self.sigma**2)
        w = [(-_arb(x * x) / s2).exp() for x in range(n + 2)]
        tail = w[n + 1] / (1 - (-_arb(2 * n + 3) / s2).exp())
        tail = flint.arb(0).union(tail)  # in [0, bound]
        r = [flint.arb(0)] * (n + 2)
        acc = tail
        for x in range(n + 1, -1, -1):
            if x <= n:
                acc = acc + w[x]
            r[x] = acc if x <= n else tail
        z = r[0] + r[1]
        hit = (n, r, z)
        self._cache[prec] = hit
        return hit

    def _upper(self, t: int) -> flint.arb:
        """``sum_{x >= t} w(x)``."""
        n, r, z = self._terms()
        if t <= 0:
            return z - self._upper(1 - t)
        if t <= n + 1:
            return r[t]
        s2 = _arb(2 * self.sigma**2)
        wt = (-_arb(t * t) / s2).exp()
        return flint.arb(0).union(wt / (1 - (-_arb(2 * t + 1) / s2).exp()))

    def _threshold(self, z: Any) -> int:
        """The least integer x with loss(x) <= z: ``ceil((s^2 - 2 sigma^2 z)/(2 s))``."""
        if isinstance(z, Fraction | int):
            return math.ceil((self.s**2 - 2 * self.sigma**2 * Fraction(z)) / (2 * self.s))
        u = (_arb(self.s**2) - _arb(2 * self.sigma**2) * z) / (2 * self.s)
        return _ceil_certain(u)

    def cdf_sf(self, z: Any) -> tuple[flint.arb, flint.arb, flint.arb, flint.arb]:
        t = self._threshold(z)
        _n, _r, total = self._terms()
        # P[L <= z] = P[x >= t]; Q = P shifted by s; P[x < t] = P[x >= 1 - t] (symmetry)
        up = self._upper
        return (up(t) / total, up(t - self.s) / total, up(1 - t) / total,
                up(1 - t + self.s) / total)

    def cdf(self, z: Any) -> tuple[flint.arb, flint.arb]:
        fp, fq, _sp, _sq = self.cdf_sf(z)
        return fp, fq


__all__ = ["DGAUSS_TERMS_MAX", "DiscreteGaussian", "DiscreteLaplace"]
