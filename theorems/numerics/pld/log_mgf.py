"""The float locators of the Fourier composition (no bound): the composed log-MGF of the one-step
PLDs, the saddle-point tilt (:func:`fourier_tilt`) and the Chernoff estimate of eps
(:func:`chernoff_eps`).

``K(lam) = sum_j k_j log sum_i x_ji e^{lam z_ji}`` (``x_ji`` the float masses of part ``j`` at
losses ``z_ji``, ``k_j`` its steps); ``K'(lam)`` is the tilted composed mean, ``K''(lam)`` its
variance (:meth:`LogMgf.moments`, all three from one log-sum-exp per part). Any tilt is rigorous
(:mod:`.fourier`): these choose it, and nothing computed here enters an enclosure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from dpverify.theorems.numerics.pld._arith import fdot
from dpverify.theorems.numerics.pld.discrete import DiscretePLD
from dpverify.theorems.numerics.pld.fft import FloatPLD
from dpverify.theorems.numerics.pld.tilted import MAX_EXPONENT

LAM_RANGE = (1e-3, 1e3)  # the Chernoff estimate minimises over lam in this range


def _log_support(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(log x_i, i)`` over the positive entries (float index): the float locators' log-sum-exps
    skip the zero masses (exp of -inf is a slow path in numpy, measured 7x on scenario B's
    one-step PLD, 40 % zeros), which contribute nothing."""
    pos = np.flatnonzero(x > 0)
    return np.log(x[pos]), pos.astype(float)


class LogMgf:
    """The composed log-MGF of ``ones`` (``(pld, k)``: one-step PLDs, read as
    :class:`.fft.FloatPLD`, and their steps) over the positive masses."""

    def __init__(self, ones: Sequence[tuple[DiscretePLD, int]]) -> None:
        self.span = max((len(one) - 1) * float(one.h) for one, _k in ones)
        self.steps = []
        self.argmin: float | None = None  # of the last :meth:`chernoff`
        for one, k in ones:
            d = FloatPLD.from_discrete(one)
            lm, idx = _log_support(d.masses)
            z = float(d.shift) + float(d.h) * idx
            self.steps.append((lm, z, z * z, k))

    def moments(self, lam: float) -> tuple[float, float, float]:
        """``(K, K', K'')`` at ``lam`` (float)."""
        cgf = mean = var = 0.0
        for lm, z, z2, k in self.steps:
            e = lm + lam * z
            top = float(e.max())
            w = np.exp(e - top)
            total = float(w.sum())
            m = fdot(w, z) / total
            cgf += k * (top + math.log(total))
            mean += k * m
            var += k * max(fdot(w, z2) / total - m * m, 0.0)
        return cgf, mean, var

    def tilt(self, center: float, start: float | None = None) -> Fraction:
        """The saddle-point tilt: the ``lam`` whose tilted composed law has mean ``center``
        (``K'(lam)``, increasing in lam: its derivative is ``K''``), capped so that the
        one-step weight tables stay within ``e^{MAX_EXPONENT / 2}``, as a dyadic with 8
        significant bits. Newton's method on the bracket ``[lo, hi]``, a bisection step
        whenever Newton would leave it (safeguarded Newton, Press et al., *Numerical Recipes*,
        3rd ed., Sec. 9.4 ``rtsafe``): ~5 evaluations of the tilted moments instead of the ~17
        of a bisection to ``2^-10``. ``start``: Newton's first point instead of 0 (e.g. the
        tilt of the same centre on a coarser grid, whose one-step PLDs differ by O(h^2): ~2
        Newton steps instead of ~10 on scenario B)."""
        lam_max = MAX_EXPONENT / 2 / max(self.span, 1e-9)
        if not math.isfinite(center):
            return Fraction(0)
        _k0, m0, v0 = self.moments(0.0)
        if m0 >= center:
            return Fraction(0)

        def excess(lam: float) -> tuple[float, float]:
            _k, m, var = self.moments(lam)
            return m - center, var

        x = increasing_root(excess, lam_max, (m0 - center, v0), start)
        return Fraction(0) if x <= 0 else dyadic_tilt(x)

    def chernoff(self, delta: float) -> float:
        """The minimum over ``lam`` in ``LAM_RANGE`` of ``v(lam) = (K(lam) - log delta + lam
        log lam - (lam + 1) log(lam + 1)) / lam`` (the RDP-style conversion; pessimistic).
        ``v'(lam) = F(lam) / lam^2`` with ``F = lam K' - K + log(1 + lam) + log delta``,
        increasing (``F' = lam K'' + 1 / (1 + lam) > 0``): ``v`` decreases up to the root of
        ``F`` and increases after it. The root, ``H(lam) = lam K' - K + log(1 + lam) = -log
        delta`` (``H(0) = 0``, ``H' = F'``), by safeguarded Newton on ``log H`` (bisection
        steps in ``log lam``; on ``F`` itself Newton crawls down from the right where ``H``
        grows about exponentially: 17 evaluations on scenario B's add direction, 9 here) to
        ``2^-20`` relative; the least value at the points evaluated (each at least the
        minimum): 7-9 evaluations of the moments on the bench items instead of a grid of 121
        lam (whose least value it never exceeds by more than the grid's resolution costs).
        ``argmin``: the last ``lam`` evaluated (the minimiser; at the saddle of the estimate,
        ``K'(lam) = eps + log(1 + 1 / lam)``, the tilt is just below it: a start for
        :meth:`tilt`)."""
        log_d = math.log(delta)

        def value(lam: float, cgf: float) -> float:
            return (cgf - log_d + lam * math.log(lam) - (lam + 1) * math.log1p(lam)) / lam

        lo, hi = LAM_RANGE
        k_lo, m_lo, _v = self.moments(lo)
        self.argmin = lo
        if lo * m_lo - k_lo + math.log1p(lo) + log_d >= 0:
            return value(lo, k_lo)
        k_hi, m_hi, _v = self.moments(hi)
        self.argmin = hi
        if hi * m_hi - k_hi + math.log1p(hi) + log_d <= 0:
            return value(hi, k_hi)
        x, best = math.sqrt(lo * hi), min(value(lo, k_lo), value(hi, k_hi))
        for _ in range(100):
            cgf, m, var = self.moments(x)
            self.argmin = x
            best = min(best, value(x, cgf))  # each value is at least the minimum
            g = x * m - cgf + math.log1p(x)  # H = F - log delta: 0 at 0, increasing
            if g + log_d < 0:
                lo = x
            else:
                hi = x
            # Newton on log H = -log delta (H grows about exponentially in lam for the
            # heavy-tailed PLDs, where Newton on F crawls down from the right)
            nxt = x - (math.log(g) - math.log(-log_d)) * g / (x * var + 1 / (1 + x)) \
                if g > 0 else math.nan
            if not lo < nxt < hi:
                nxt = math.sqrt(lo * hi)
            if abs(nxt - x) <= 2.0**-20 * x or hi - lo <= 2.0**-20 * hi:
                break
            x = nxt
        return best


def increasing_root(f: Callable[[float], tuple[float, float]], hi: float,
                    first: tuple[float, float], start: float | None = None) -> float:
    """The root in ``(0, hi)`` of an increasing ``g``, ``f(lam) = (g(lam), g'(lam))``, given
    ``first = f(0)`` with ``g(0) < 0``: Newton's method on the bracket, a bisection step
    whenever Newton would leave it (safeguarded Newton, Press et al., *Numerical Recipes*, 3rd
    ed., Sec. 9.4 ``rtsafe``), to ``2^-12`` relative or a bracket of ``2^-10``; ``start``:
    Newton's first point instead of 0 (a float locator: the saddle tilts of :class:`LogMgf`
    and :func:`.fourier_cost.blocked_saddle`)."""
    lo, x = 0.0, 0.0
    fx, dfx = first
    if start is not None and 0 < start < hi:
        fx, dfx = f(start)
        x = start
        lo, hi = (x, hi) if fx < 0 else (lo, x)
    for _ in range(60):
        nxt = x - fx / dfx if dfx > 0 else math.nan
        if not lo < nxt < hi:
            nxt = (lo + hi) / 2
        done = abs(nxt - x) <= 2.0**-12 * nxt
        x = nxt
        fx, dfx = f(x)
        if fx < 0:
            lo = x
        else:
            hi = x
        if done or hi - lo <= 2.0**-10 * hi:
            break
    return x


def dyadic_tilt(x: float) -> Fraction:
    """``x > 0`` rounded down to a dyadic with 8 significant bits (a tilt with few bits keeps
    the weight tables' arb work small; any tilt is rigorous)."""
    e = math.floor(math.log2(x)) - 7
    return Fraction(math.floor(x / 2.0**e)) * Fraction(2) ** e


def chernoff_eps(ones: Sequence[tuple[DiscretePLD, int]], delta: float) -> float:
    """A float estimate of eps at ``delta`` (a locator, no bound): :meth:`LogMgf.chernoff`."""
    return LogMgf(ones).chernoff(delta)


def fourier_tilt(ones: Sequence[tuple[DiscretePLD, int]], center: float) -> Fraction:
    """The saddle-point tilt of the composition of ``ones`` at ``center``
    (:meth:`LogMgf.tilt`)."""
    return LogMgf(ones).tilt(center)


__all__ = ["LogMgf", "chernoff_eps", "fourier_tilt"]
