"""Certified queries of a PLD composed in the Fourier domain (:func:`.fourier.compose_fourier`):
``delta(eps)`` and ``eps(delta)`` read off the tilted window without untilting it. The error
analysis (step 5 and the l1 budget they consume) is in :mod:`.fourier`; the helpers here round
every float bound upward (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
SIAM 2002, Sec. 2.2 and 3.1)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision
from dpverify.theorems.numerics.pld._arith import (
    Number,
    _arb,
    _dyadic_ceil,
    _dyadic_floor,
    _span,
    fdot,
    float_outward,
    up,
)
from dpverify.theorems.numerics.pld.fft import TINY, U, _gamma
from dpverify.theorems.numerics.pld.tilted import weights

DECAY_CUT = 50.0  # query weights below e^-50 count as 0 (an absolute error of the weights)
_PREC = 128
CROSSING_CHUNK = 1 << 15  # positions of the float locator's profile per chunk
FIRST_GAP = 2.0**-32  # relative offset of the first candidate from the float crossing, then
#                       times 16 (measured on bench/bench_pld.py's C and K1e6: the candidates
#                       at 2^-40 and 2^-36 never held, the first success was at 2^-24 or 2^-28;
#                       each failure is one certified delta_at over the window)


_UP_FACTOR = 1 + 2.0**-51


def _up_nonneg(x: np.ndarray | float) -> np.ndarray | float:
    """A float ``>= nextafter(x, +inf)`` for every float ``x >= 0`` (or ``+inf``): ``fl(fl(x (1 +
    2^-51)) + 2^-1074)``, round to nearest (IEEE 754, numpy's default), 2 operations instead of
    ``nextafter`` (measured 7x cheaper on 2^21 floats). Proof: for normal ``x`` in ``[2^e,
    2^(e+1))`` the exact product is ``x + x 2^-51 >= x + 2 ulp(x)``; below ``2^(e+1)`` floats
    are ``ulp(x)`` apart, so its nearest float is ``>= x + 2 ulp(x)``, and at or above
    ``2^(e+1) >= x + ulp(x)`` so is its rounding; adding ``2^-1074 > 0`` never rounds below a
    float summand. For subnormal ``x`` (or 0) the product rounds to at least ``x`` and adding
    ``2^-1074`` is exact: ``>= x + 2^-1074 = nextafter(x)``. Overflow gives ``+inf``, an upper
    bound. NOT valid for negative ``x`` (the product moves down): callers bound magnitudes."""
    return x * _UP_FACTOR + 2.0**-1074


def _sum_up(x: np.ndarray) -> float:
    """An upper bound of ``sum(x)``, ``x >= 0`` (Higham 2002, Sec. 3.1)."""
    return float(up(float(np.sum(x)) * (1 + 2 * _gamma(len(x) + 2)) + TINY))


_DECAY: dict[tuple[Fraction, int], tuple[np.ndarray, float]] = {}


def _decay(c: Fraction, n: int) -> tuple[np.ndarray, float]:
    """Floats ``E_i ~ e^{-c i}``, ``i < n`` (``c >= 0``), and an absolute error bound; the
    table stops where ``e^{-c i} < e^{-DECAY_CUT}`` (the rest counts as 0, within the bound).
    Cached (read-only): the upper and lower PLDs of a pass share their tilt and window."""
    hit = _DECAY.get((c, n))
    if hit is None:
        if c == 0:
            table, err = np.ones(n), 0.0
        else:
            t = min(n, int(DECAY_CUT / float(c)) + 1)
            w, alpha = weights(c, t)
            err = float_outward((1 + Fraction(U)) / (1 - Fraction(alpha)) - 1, True)
            table, err = 1.0 / w, err + (math.exp(-DECAY_CUT + 1) if t < n else 0.0)
        table.flags.writeable = False
        if len(_DECAY) >= 4:
            _DECAY.clear()
        hit = _DECAY[(c, n)] = (table, err)
    return hit


@dataclass
class FourierPLD:
    """The composition on the window: ``values[t]`` approximates ``g_{o+t}`` in l1 within
    ``eta`` (after the relative factor ``(1 +- a)^K``), losses ``start + t h``."""

    kind: str
    h: Fraction
    start: Fraction
    lam_h: Fraction
    values: np.ndarray
    log_c: flint.arb  # log C plus -lam h o
    a: float
    steps: int
    eta: float  # l1, sqrt(n) times the 2-norm bound: forward FFT, power, inverse FFT
    left: flint.arb
    right: flint.arb
    inf: flint.arb
    eta_in: float = 0.0  # l1: the underflowed inputs
    _tables: tuple[np.ndarray, float, np.ndarray, float, float] | None = None

    def __len__(self) -> int:
        return len(self.values)

    def _weights(self) -> tuple[np.ndarray, float, np.ndarray, float, float]:
        """The query weight tables (:func:`_decay`) and an upper bound of ``||values||_1``."""
        if self._tables is None:
            e1, b1 = _decay(self.lam_h, len(self.values))
            e2, b2 = _decay(self.h, len(e1))  # beyond e1's table the weights count as 0
            self._tables = (e1, b1, e2, b2, _sum_up(np.abs(self.values)))
        return self._tables

    def delta_at(self, eps: Fraction) -> flint.arb:
        """A ball whose upper (upper kind) or lower (lower kind) end bounds ``delta(eps)``."""
        upper = self.kind == "upper"
        t0 = math.floor((eps - self.start) / self.h) + 1
        if t0 < 0:
            return flint.arb(1) if upper else flint.arb(0)
        n = len(self.values)
        with arb_precision(_PREC):
            scale = (self.log_c - _arb(self.lam_h * t0)).exp()
            dot, spread = 0.0, 0.0
            if t0 < n:
                e1, b1, e2, b2, l1 = self._weights()
                rho_ball = (_arb(eps - self.start - t0 * self.h)).exp()
                rho = float(rho_ball.mid())
                rho_err = float((rho_ball - _arb(Fraction(rho))).abs_upper()) * (1 + 4 * U)
                m_len = min(n - t0, len(e1))  # beyond, the weights count as 0 (in b1)
                m2 = min(m_len, len(e2))
                m = e1[:m_len].copy()
                m[:m2] *= 1.0 - rho * e2[:m2]
                dot = fdot(self.values[t0:t0 + m_len], np.clip(m, 0.0, 1.0))
                beta = b1 + b2 + rho_err + 4 * U
                spread = (beta + 2 * _gamma(m_len + 2) * (1 + beta)) * l1
            k = self.steps
            inner_err = (_arb(Fraction(spread)) + self._transform_error(t0)
                         + _arb(Fraction(self.eta_in)))
            one_a = _arb(Fraction(self.a))
            if upper:
                inner = (_arb(Fraction(dot)) + inner_err) / (1 - one_a) ** k + self.right
            else:
                inner = ((_arb(Fraction(dot)) - inner_err) / (1 + one_a) ** k - self.left
                         - self.right)
            return scale * inner + self.inf

    def _transform_error(self, t0: int) -> flint.arb:
        """A ball whose upper end bounds ``|sum_{t >= t0} (v_t - f^_t) m'_t|`` over the window
        (``v`` the computed window, ``f^`` the exact circular composition, ``m'_t`` the
        exact query weights in ``[0, e^{-c (t - t0)}]``, ``c = lam h``): Cauchy-Schwarz with
        ``||v - f^||_2 <= eta / sqrt(n)`` (:mod:`.fourier`, step 4) and ``||m'||_2^2 <=
        sum_{s >= 0} e^{-2 c s} = 1 / (1 - e^{-2c}) <= 1 + 1 / (2c)`` (as ``1 - e^{-x} >= x /
        (1 + x)``), also ``<= n - t0`` (the positions); never above the l1 form ``eta``."""
        n = len(self.values)
        count = Fraction(max(n - t0, 1))
        if self.lam_h > 0:
            count = min(count, 1 + 1 / (2 * self.lam_h))
        if count >= n:
            return _arb(Fraction(self.eta))
        return _arb(Fraction(self.eta)) * _arb(count / n).sqrt()

    def eps_float(self, delta: float) -> float:
        """The float crossing of the window's profile with ``delta`` (a locator, no bound),
        computed within ``e^{+-600}`` of the tilted mode: the last position where the profile
        exceeds ``delta``. The tail sums run from the right end, so the values right of a
        position do not depend on where the range starts: the half range left of the mode
        is skipped unless the profile stays below ``delta`` right of it (the result is the
        same either way)."""
        v = self.values
        ref = int(np.argmax(v))
        c1, c2 = float(self.lam_h), float(self.h)
        reach = int(600 / (c1 + c2)) + 1
        a, b = max(0, ref - reach), min(len(v), ref + reach)
        z_ref = float(self.start + ref * self.h)
        inf = float(self.inf.mid())
        try:
            scale = math.exp(float(self.log_c.mid()) - c1 * ref)
        except OverflowError:
            return float(self.start)
        for start in dict.fromkeys((ref - (ref - a) // 2, a)):
            got = self._crossing(start, ref, b, scale, inf, delta)
            if got is not None:
                return z_ref + got
        return z_ref + (a - ref) * c2

    def _crossing(self, a: int, ref: int, b: int, scale: float, inf: float, delta: float
                  ) -> float | None:
        """The crossing's loss minus the mode's within ``[a, b)``, or None if the profile is
        at most ``delta`` there. Computed in chunks of ``CROSSING_CHUNK`` positions from the
        right end, stopping at the first chunk holding a position above ``delta`` (the last
        one is the crossing): the tail sums carry from chunk to chunk in the same order of
        additions as one suffix sum over ``[a, b)``, every other operation is elementwise, so
        the result is exactly that of the whole range; two scratch arrays per chunk."""
        c1, c2 = float(self.lam_h), float(self.h)
        carry_a = carry_b = 0.0  # sum_{s >= stop} w_s of the two weightings
        stop = b
        while stop > a:
            start = max(a, stop - CROSSING_CHUNK)
            d = np.arange(start - ref, stop - ref, dtype=float)  # s - ref
            buf = np.multiply(d, -c1)
            np.exp(buf, out=buf)
            w = np.maximum(self.values[start:stop], 0.0)
            w *= buf
            tail_a, carry_a = _suffix_sums(w, carry_a)
            np.multiply(d, -c2, out=buf)
            np.exp(buf, out=buf)
            w *= buf
            tail_b, carry_b = _suffix_sums(w, carry_b)
            del w
            with np.errstate(over="ignore", invalid="ignore"):
                np.multiply(d, c2, out=buf)  # the profile: scale (tail_a - e^{c2 d} tail_b)
                np.exp(buf, out=buf)  #         + inf
                buf *= tail_b
                np.subtract(tail_a, buf, out=buf)
                buf *= scale
                buf += inf
            above = buf > delta
            if above.any():
                t = len(above) - 1 - int(np.argmax(above[::-1]))  # the last position above
                if start + t >= b - 1:
                    return (b - ref) * c2
                num, den = scale * tail_a[t] + inf - delta, scale * tail_b[t]
                e = math.log(num / den) if num > 0 and den > 0 else d[t] * c2
                return min(max(e, d[t] * c2), (d[t] + 1) * c2)
            stop = start
        return None

    def delta_bound(self, eps: Number) -> flint.arb:
        lo, hi = _span(eps)
        return self.delta_at(lo if self.kind == "upper" else hi)

    def eps_bound(self, delta: Number, lower_limit: Fraction = Fraction(0)) -> Fraction:
        """As :meth:`.DiscretePLD.eps_bound`: upper kind, a point where the upper profile is
        certified ``<= delta``; lower kind, one where the lower profile is certified ``>
        delta``, or ``lower_limit``. Candidates next to the float crossing first, then
        bisection on the certified predicate (the true profile is monotone; no monotonicity
        of the bound is needed)."""
        d_lo, d_hi = _span(delta)
        top = self.start + len(self.values) * self.h
        bottom = max(lower_limit, self.start)
        if self.kind == "upper":
            def ok(e: Fraction) -> bool:
                return bool(self.delta_at(e) <= _arb(d_lo))

            if ok(lower_limit):
                return lower_limit
            guess, gap = max(self.eps_float(float(d_lo)), float(lower_limit)), FIRST_GAP
            for _ in range(8):
                cand = max(_dyadic_ceil(guess * (1 + gap) + gap), lower_limit)
                if cand < top and ok(cand):
                    return cand
                gap *= 16
            if not ok(top):
                raise PrecisionExhausted("the upper Fourier PLD exceeds delta at its window's "
                                         "end")
            return _bisect(ok, bottom, top, keep_true_high=True)

        def ok(e: Fraction) -> bool:
            return bool(self.delta_at(e) > _arb(d_hi))

        guess, gap = self.eps_float(float(d_hi)), FIRST_GAP
        for _ in range(8):
            cand = _dyadic_floor(guess * (1 - gap) - gap)
            if cand <= bottom:
                break
            if ok(cand):
                return cand
            gap *= 16
        if not ok(bottom):
            return lower_limit
        if ok(top):
            return top
        return _bisect(ok, bottom, top, keep_true_high=False)


def _suffix_sums(w: np.ndarray, carry: float = 0.0) -> tuple[np.ndarray, float]:
    """``out[t] = carry + sum_{s > t} w_s``, summed from the right end (``carry`` first: the
    additions of one suffix sum over ``w`` and whatever lies right of it), and ``carry +
    sum_s w_s`` in that order (the carry of the chunk to the left)."""
    out = np.empty(len(w))
    out[-1] = carry
    if len(w) > 1:
        last = w[-1]
        w[-1] += carry  # in place (no copy of w), restored below
        np.cumsum(w[:0:-1], out=out[-2::-1])
        w[-1] = last
    return out, float(out[0] + w[0])


def _bisect(ok: Callable[[Fraction], bool], lo: Fraction, hi: Fraction,
            keep_true_high: bool) -> Fraction:
    """Bisection keeping ``ok`` true at ``hi`` (``keep_true_high``) or at ``lo``."""
    for _ in range(64):
        mid = _dyadic_floor(float((lo + hi) / 2), 60)
        if not lo < mid < hi or float(hi - lo) <= 2.0**-48 * max(1.0, abs(float(hi))):
            break
        if ok(mid) == keep_true_high:
            hi = mid
        else:
            lo = mid
    return hi if keep_true_high else lo


__all__ = ["FourierPLD"]
