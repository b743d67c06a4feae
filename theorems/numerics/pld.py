"""Certified privacy-loss-distribution (PLD) accounting: rigorous two-sided enclosures.

A privacy profile ``delta(eps) = H_{e^eps}(P||Q)`` of a k-fold composition is enclosed between
two discrete PLDs on a uniform grid of losses, each composed exactly in integer arithmetic:

- the **upper** PLD is a *dominating pair* ("connect the dots"): the (P, Q)-mass of every loss
  interval ``[z_i, z_{i+1}]`` is split between its two end points so that both the P-mass and the
  Q-mass are preserved. The true pair is a post-processing of the split pair (a Markov kernel
  maps each grid atom back onto the outcomes of its interval), so every hockey-stick divergence
  of every composition is bounded above. Mass outside the grid window is moved *up*: below the
  window to its first point, above it to an atom at ``+inf`` that counts fully in delta;
- the **lower** PLD is a *post-processing* of the true pair: the outcomes are merged into
  small loss intervals, which are poured in loss order into atoms (randomised merges, taking
  fractions of intervals) so that every atom's loss ``log(P/Q)`` is at least the grid point it
  is placed at (rounded *down*), and close to it. Mass outside the window is dropped.

Bin masses are arb enclosures (Phi through erfc) and are outward rounded to integers in units of
``2^-B`` (ceil for the upper PLD, floor for the lower); convolution is exact ``fmpz_poly``
multiplication followed by an outward rescaling; self-composition is repeated squaring;
negligible tails are trimmed with their mass accounted (upper: left tail moved up, right tail to
``+inf``; lower: dropped). ``delta(eps) = sum_z m(z) (1 - e^{eps - z})_+ + m(+inf)`` is then an
upper bound for the upper PLD and a lower bound for the lower one, evaluated in ball arithmetic;
``eps(delta)`` is certified by monotone inversion of both bounds.

Both constructions are second order in the grid step h (neither moves the mean of the loss to
first order), which is what makes relative widths of 1e-3 affordable at ``k = 14062`` steps;
plain rounding of each loss up or down would cost ``k h`` in eps. The window is cut into coarse
cells, resolved at step h only where they carry mass; parameters may be arb balls (every bound
then holds for every value in the balls).

Main results
------------
- loss pairs with rigorous loss CDFs: :class:`SubsampledGaussian` (directions ``add``,
  ``remove`` of the add/remove dominating pairs and ``replace`` of the replace-one pair of the
  catalogue README's scenario conventions; ``q = 1`` is the Gaussian mechanism),
  :class:`Laplace`, :class:`RandomizedResponse`;
- :func:`discretize` (one step, both PLDs), :class:`DiscretePLD` (``compose``,
  ``self_compose``, ``delta_bound``, ``eps_bound``);
- :func:`enclose_delta`, :func:`enclose_eps`: two-sided enclosures over the maximum of several
  directions with an automatically chosen grid; :func:`sgm_pairs` gives the directions of the
  Poisson-subsampled Gaussian for a neighbouring relation.

References
----------
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Secs. 3-4 (PLDs; composition is convolution).
- [DGKKM22] V. Doroshenko, B. Ghazi, P. Kamath, R. Kumar, P. Manurangsi, *Connect the Dots:
  Tighter Discrete Approximations of Privacy Loss Distributions*, arXiv 2207.04380v1 (PETS 2022)
  (the split construction of the upper PLD).
- [MM18] S. Meiser, E. Mohammadi, *Tight on Budget?*, CCS 2018 (pessimistic / optimistic PLDs).
- [BBG] B. Balle, G. Barthe, M. Gaboardi, arXiv 1807.01647v2, Thm 2 (advanced joint convexity:
  the subsampled Gaussian pairs) and [GLW21] S. Gopi, Y. T. Lee, L. Wutschitz, arXiv 2106.02848.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision, arb_to_fraction

PREC = 128  # working precision of the one-step masses (bits)
EVAL_PREC = 192  # precision of the delta evaluation of a composed PLD
HALF = Fraction(1, 2)

Number = Any  # flint.arb or an exact Fraction/int


# ------------------------------------------------------------------------------------------
# small rigorous helpers


def _arb(x: Number) -> flint.arb:
    if isinstance(x, flint.arb):
        return x
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return flint.arb(flint.fmpz(x.numerator))
        return flint.arb(flint.fmpq(x.numerator, x.denominator))
    if isinstance(x, int):
        return flint.arb(flint.fmpz(x))
    if isinstance(x, str):
        return _arb(Fraction(x))
    raise TypeError(f"cannot make an arb of {type(x).__name__}")


def _phi(x: flint.arb) -> flint.arb:
    """Phi(x) = erfc(-x/sqrt 2)/2, accurate in both tails."""
    return (-x / flint.arb(2).sqrt()).erfc() / 2


def _certain_le(a: flint.arb, b: flint.arb) -> bool:
    return bool(a <= b)


def _certain_lt(a: flint.arb, b: flint.arb) -> bool:
    return bool(a < b)


def _dyadic_floor(x: float, bits: int = 60) -> Fraction:
    return Fraction(math.floor(x * 2**bits), 2**bits)


def _dyadic_ceil(x: float, bits: int = 60) -> Fraction:
    return Fraction(math.ceil(x * 2**bits), 2**bits)


def _units(x: flint.arb, bits: int, up: bool) -> int:
    """``ceil(upper(x) 2^bits)`` (``up``) or ``floor(lower(x) 2^bits)``, clipped at 0."""
    if not x.is_finite():
        raise PrecisionExhausted(f"a mass enclosure is not finite: {x}")
    e = x.upper() if up else x.lower()
    man, exp = e.mid().man_exp()
    man, exp = int(man), int(exp) + bits
    if exp >= 0:
        v = man << exp
    else:
        v = -((-man) >> -exp) if up else man >> -exp
    return max(v, 0)


def _span(x: Number) -> tuple[Fraction, Fraction]:
    """Exact endpoints of an exact number or a ball."""
    if isinstance(x, Fraction | int):
        return Fraction(x), Fraction(x)
    b = _arb(x)
    mid, rad = arb_to_fraction(b.mid()), arb_to_fraction(b.rad())
    return mid - rad, mid + rad


# ------------------------------------------------------------------------------------------
# loss pairs


class LossPair:
    """A pair (P, Q) through the distribution of its privacy loss ``L = log(dP/dQ)``.

    ``cdf(z)`` returns arb enclosures of ``(P[L <= z], Q[L <= z])`` at an exact rational z;
    ``p_inf`` is ``P[L = +inf]`` (mass where Q vanishes). Parameters may be exact numbers or arb
    balls; then every enclosure holds for every parameter value in the balls.
    """

    name = "pair"
    params: tuple[Number, ...] = ()

    def cdf(self, z: Fraction) -> tuple[flint.arb, flint.arb]:
        raise NotImplementedError

    def cdf_sf(self, z: Any) -> tuple[flint.arb, flint.arb, flint.arb, flint.arb]:
        """``(P[L <= z], Q[L <= z], P[L > z], Q[L > z])``; pairs override it to compute the
        small side of each directly (a bin mass is then a difference of small numbers)."""
        fp, fq = self.cdf(z)
        one = flint.arb(1)
        return fp, fq, one - fp, one - fq

    def p_inf(self) -> flint.arb:
        return flint.arb(0)

    def edges(self) -> tuple[float | None, float | None]:
        """Finite ends of the support of L (floats; used only to align the grid)."""
        return None, None

    def key(self) -> tuple[Any, ...]:
        return (self.name, *(_span(p) for p in self.params))

    def describe(self) -> str:
        return self.name

    # float helpers (locating windows and scales; never used for a bound)
    def cdf_float(self, z: float) -> tuple[float, float]:
        with arb_precision(64):
            fp, fq = self.cdf(Fraction(z))
        return float(fp.mid()), float(fq.mid())

    def quantile(self, u: float, upper: bool = False) -> float:
        """A float z with ``P[L <= z] ~ u`` (``upper``: ``P[L > z] ~ u``), by bisection."""

        # enough bits that 1 - P[L <= z] is resolved down to u (the CDFs are near 1 there)
        prec = 64 + max(0, math.ceil(-math.log2(max(u, 1e-300)))) + 16

        def below(z: float) -> bool:  # is z below the quantile?
            with arb_precision(prec):
                fp, _fq, sp, _sq = self.cdf_sf(Fraction(z))
                val = sp if upper else fp
            return float(val.mid()) > u if upper else float(val.mid()) < u

        lo_edge, hi_edge = self.edges()
        a, b = -1.0, 1.0
        for _ in range(2000):
            if not below(a):
                a = 2 * a if a < 0 else a - 1
                if lo_edge is not None and a < lo_edge:
                    a = lo_edge
                    break
                continue
            break
        for _ in range(2000):
            if below(b):
                b = 2 * b if b > 0 else b + 1
                if hi_edge is not None and b > hi_edge:
                    b = hi_edge
                    break
                continue
            break
        for _ in range(100):
            m = (a + b) / 2
            if below(m):
                a = m
            else:
                b = m
            if b - a <= 1e-13 * max(1.0, abs(a)):
                break
        return (a + b) / 2


class SubsampledGaussian(LossPair):
    """Dominating pairs of the Poisson-subsampled Gaussian (noise multiplier sigma, rate q).

    With ``N0 = N(0, s^2)`` and ``mix = (1-q) N(0, s^2) + q N(1, s^2)`` (catalogue README,
    scenario conventions; [BBG] arXiv 1807.01647v2 Thm 2 / Sec. 5):

    - ``add``: ``(mix, N0)``, loss ``log(1 - q + q e^{(2y-1)/(2 s^2)})``, increasing in y;
    - ``remove``: ``(N0, mix)``, the negated loss, under ``N0``;
    - ``replace``: ``((1-q)N(0,s^2) + qN(-1,s^2), (1-q)N(0,s^2) + qN(1,s^2))`` (replace-one;
      symmetric under ``y -> -y``, so its two orders have the same profile).

    ``q = 1`` gives the Gaussian mechanism ``(N(1, s^2), N(0, s^2))``.
    """

    def __init__(self, q: Number, sigma: Number, direction: str) -> None:
        if direction not in ("add", "remove", "replace"):
            raise ValueError(f"direction must be add, remove or replace; got {direction!r}")
        self.direction = direction
        self.q_in, self.sigma_in = q, sigma
        self.params = (q, sigma)
        self.name = f"subsampled_gaussian_{direction}"
        lo, hi = _span(q)
        self.q_is_one = lo == hi == 1
        self.q_float = float((lo + hi) / 2)
        s_lo, s_hi = _span(sigma)
        self.sigma_float = float((s_lo + s_hi) / 2)

    def key(self) -> tuple[Any, ...]:
        return (self.name, _span(self.q_in), _span(self.sigma_in))

    def describe(self) -> str:
        return f"{self.direction} pair of the subsampled Gaussian (q={self.q_float:g}, " \
               f"sigma={self.sigma_float:g})"

    def edges(self) -> tuple[float | None, float | None]:
        if self.q_is_one or self.direction == "replace" or self.q_float >= 1:
            return None, None
        e = math.log1p(-self.q_float)
        return (e, None) if self.direction == "add" else (None, -e)

    def _consts(self) -> tuple[flint.arb, ...]:
        """``(q, s, 1 - q, s^2, log q, 1/(s sqrt 2))`` at the current precision (cached)."""
        prec = flint.ctx.prec
        hit = getattr(self, "_const_cache", None)
        if hit is None or hit[0] != prec:
            q, s = _arb(self.q_in), _arb(self.sigma_in)
            hit = (prec, (q, s, 1 - q, s * s, q.log(), 1 / (s * flint.arb(2).sqrt())))
            self._const_cache = hit
        return hit[1]

    def _y_add(self, w: Any) -> tuple[flint.arb | None, bool]:
        """The threshold ``y`` with ``loss_add(y) = w`` (None when w is below the support) and
        whether w may lie below the support (q a ball across the edge): then ``y`` is only an
        upper end of the threshold, whose lower end is ``-inf``."""
        q, _s, _r, s2, logq, _c = self._consts()
        wb = _arb(w)
        if self.q_is_one:
            return flint.arb(1) / 2 + s2 * wb, False
        t = wb.expm1() + q  # e^w - (1 - q)
        if _certain_le(t, flint.arb(0)):
            return None, False
        if not _certain_lt(flint.arb(0), t):
            top = t.upper()
            if not top > 0:
                raise PrecisionExhausted("the loss threshold sits on the edge of the support")
            return flint.arb(1) / 2 + s2 * (top.log() - logq), True
        return flint.arb(1) / 2 + s2 * (t.log() - logq), False

    def cdf(self, z: Any) -> tuple[flint.arb, flint.arb]:
        fp, fq, _sp, _sq = self.cdf_sf(z)
        return fp, fq

    def cdf_sf(self, z: Any) -> tuple[flint.arb, flint.arb, flint.arb, flint.arb]:
        q, _s, r, s2, _logq, c = self._consts()
        zero, one = flint.arb(0), flint.arb(1)

        def phi2(x: flint.arb) -> tuple[flint.arb, flint.arb]:
            """``(Phi(x/s), Phi(-x/s))`` with the smaller one computed directly (one erfc)."""
            small = (abs(x) * c).erfc() / 2
            big = one - small
            return (big, small) if x >= 0 else (small, big)

        if self.direction == "add":  # L increasing in y: L <= z iff y <= y(z)
            y, edge = self._y_add(z)
            if y is None:
                return zero, zero, one, one
            a, ac = phi2(y)
            b, bc = phi2(y - 1)
            out = (r * a + q * b, a, r * ac + q * bc, ac)
            if edge:  # anywhere between the values at y(z) and at y = -inf
                return (zero.union(out[0]), zero.union(out[1]), one.union(out[2]),
                        one.union(out[3]))
            return out
        if self.direction == "remove":  # L <= z iff y >= y_add(-z)
            y, edge = self._y_add(-_arb(z))
            if y is None:
                return one, one, zero, zero
            a, ac = phi2(y)
            b, bc = phi2(y - 1)
            out = (ac, r * ac + q * bc, a, r * a + q * b)
            if edge:
                return (one.union(out[0]), one.union(out[1]), zero.union(out[2]),
                        zero.union(out[3]))
            return out
        # replace: loss decreasing in y; L <= z iff y >= y_r(z)
        zb = _arb(z)
        a_ = (-one / (2 * s2)).exp()
        ez = zb.exp()
        bq = r * zb.expm1()
        disc = (bq * bq + 4 * ez * q * q * a_ * a_).sqrt()
        if z >= 0:
            u = 2 * q * a_ / (bq + disc)
        else:
            u = (disc - bq) / (2 * ez * q * a_)
        y = s2 * u.log()
        a, ac = phi2(y)
        bp, bpc = phi2(y + 1)
        bm, bmc = phi2(y - 1)
        return (r * ac + q * bpc, r * ac + q * bmc, r * a + q * bp, r * a + q * bm)


class Laplace(LossPair):
    """``(Lap(0, b), Lap(s, b))``: loss ``(|y - s| - |y|)/b`` with atoms at ``+-eps0``, ``eps0 =
    s/b`` (catalogue STK-LAPLACE; symmetric, so both orders have the same profile)."""

    name = "laplace"

    def __init__(self, b: Number, sensitivity: Number = 1) -> None:
        self.params = (b, sensitivity)
        self.b, self.s = b, sensitivity

    def edges(self) -> tuple[float | None, float | None]:
        e0 = float(_span(self.s)[0] / _span(self.b)[1])
        return -e0 * (1 + 1e-12), e0 * (1 + 1e-12)

    def cdf(self, z: Fraction) -> tuple[flint.arb, flint.arb]:
        b, s = _arb(self.b), _arb(self.s)
        eps0 = s / b
        zb, one = _arb(z), flint.arb(1)
        if _certain_lt(zb, -eps0):
            return flint.arb(0), flint.arb(0)
        if _certain_le(eps0, zb):
            return one, one
        if not (_certain_le(-eps0, zb) and _certain_lt(zb, eps0)):
            raise PrecisionExhausted("a grid point coincides with a Laplace atom within the ball")
        t = (s - b * zb) / 2  # L <= z iff y >= t, with t in (0, s]
        return (-t / b).exp() / 2, one - ((t - s) / b).exp() / 2

    def cdf_sf(self, z: Any) -> tuple[flint.arb, flint.arb, flint.arb, flint.arb]:
        b, s = _arb(self.b), _arb(self.s)
        eps0 = s / b
        zb, one, zero = _arb(z), flint.arb(1), flint.arb(0)
        if _certain_lt(zb, -eps0):
            return zero, zero, one, one
        if _certain_le(eps0, zb):
            return one, one, zero, zero
        fp, fq = self.cdf(z)
        t = (s - b * zb) / 2
        return fp, fq, one - fp, ((t - s) / b).exp() / 2


class RandomizedResponse(LossPair):
    """RR(eps0): ``P = (e^eps0, 1)/(1 + e^eps0)``, ``Q = (1, e^eps0)/(1 + e^eps0)`` (catalogue
    README), losses ``+-eps0``."""

    name = "randomized_response"

    def __init__(self, eps0: Number) -> None:
        self.params = (eps0,)
        self.eps0 = eps0

    def edges(self) -> tuple[float | None, float | None]:
        e0 = float(_span(self.eps0)[1])
        return -e0 * (1 + 1e-12), e0 * (1 + 1e-12)

    def cdf(self, z: Fraction) -> tuple[flint.arb, flint.arb]:
        e0 = _arb(self.eps0)
        zb, one = _arb(z), flint.arb(1)
        if _certain_lt(zb, -e0):
            return flint.arb(0), flint.arb(0)
        if _certain_le(e0, zb):
            return one, one
        if not (_certain_le(-e0, zb) and _certain_lt(zb, e0)):
            raise PrecisionExhausted("a grid point coincides with an RR atom within the ball")
        x = e0.exp()
        return one / (1 + x), x / (1 + x)

    def cdf_sf(self, z: Any) -> tuple[flint.arb, flint.arb, flint.arb, flint.arb]:
        fp, fq = self.cdf(z)
        x = _arb(self.eps0).exp()
        one = flint.arb(1)
        if fp == 0:
            return fp, fq, one, one
        if fp == 1:
            return fp, fq, flint.arb(0), flint.arb(0)
        return fp, fq, x / (1 + x), one / (1 + x)


def sgm_pairs(q: Number, sigma: Number, neighboring: str = "add_remove") -> list[LossPair]:
    """The directions whose maximum is the profile of the Poisson-subsampled Gaussian."""
    if neighboring == "add_remove":
        return [SubsampledGaussian(q, sigma, "add"), SubsampledGaussian(q, sigma, "remove")]
    if neighboring == "replace_one":
        return [SubsampledGaussian(q, sigma, "replace")]
    raise ValueError(f"neighboring must be add_remove or replace_one; got {neighboring!r}")


# ------------------------------------------------------------------------------------------
# discrete PLDs


@dataclass
class DiscretePLD:
    """Masses ``poly[i] 2^-B`` at losses ``shift + i h``, plus ``inf 2^-B`` at ``+inf``.

    ``kind == "upper"``: every hockey-stick value computed from it bounds the true one above;
    ``"lower"``: below. ``trim`` is the tail budget (units) of one truncation per side.
    """

    kind: str
    h: Fraction
    shift: Fraction
    poly: flint.fmpz_poly
    inf: int
    B: int
    trim: int
    steps: int = 1
    _float_cache: Any = field(default=None, repr=False)

    def __len__(self) -> int:
        return self.poly.length()

    def loss(self, i: int) -> Fraction:
        return self.shift + i * self.h

    def total_units(self) -> int:
        return int(self.poly(1)) + self.inf

    def compose(self, other: DiscretePLD) -> DiscretePLD:
        """The PLD of the composition: exact product, outward rescaling, accounted trimming."""
        if (self.kind, self.h, self.B) != (other.kind, other.h, other.B):
            raise ValueError("only PLDs of the same kind, grid and scale compose")
        scale = flint.fmpz(2) ** self.B
        prod = self.poly * other.poly
        c = prod // scale  # nonnegative coefficients: coefficient-wise floor
        n = c.length()
        ta, tb = int(self.poly(1)), int(other.poly(1))
        x = self.inf * (tb + other.inf) + ta * other.inf
        if self.kind == "upper":
            if n:
                c = c + _ones(n)  # ceil <= floor + 1
            inf = -((-x) >> self.B)
        else:
            inf = x >> self.B
        out = DiscretePLD(self.kind, self.h, self.shift + other.shift, c, inf, self.B,
                          max(self.trim, other.trim), self.steps + other.steps)
        return out._trimmed()

    def _trimmed(self) -> DiscretePLD:
        c = self.poly
        n = c.length()
        if n == 0:
            return self
        budget = self.trim
        i, acc = 0, 0
        while i < n:
            v = int(c[i])
            if acc + v > budget:
                break
            acc += v
            i += 1
        j, acc2 = n - 1, 0
        while j > i:
            v = int(c[j])
            if acc2 + v > budget:
                break
            acc2 += v
            j -= 1
        if i >= n:  # everything is below the budget: keep it as one atom (upper) / drop
            if self.kind == "upper":
                return DiscretePLD(self.kind, self.h, self.shift + (n - 1) * self.h,
                                   flint.fmpz_poly([acc]), self.inf, self.B, self.trim,
                                   self.steps)
            return DiscretePLD(self.kind, self.h, self.shift, flint.fmpz_poly([]), self.inf,
                               self.B, self.trim, self.steps)
        if i == 0 and j == n - 1:
            return self
        kept = c.truncate(j + 1).right_shift(i) if i else c.truncate(j + 1)
        inf = self.inf
        if self.kind == "upper":
            kept = kept + acc  # the left tail moves up to the first kept point
            inf += acc2  # the right tail goes to +inf
        return DiscretePLD(self.kind, self.h, self.shift + i * self.h, kept, inf, self.B,
                           self.trim, self.steps)

    def self_compose(self, k: int) -> DiscretePLD:
        """The k-fold composition by repeated squaring."""
        if k < 1:
            raise ValueError("k must be >= 1")
        result: DiscretePLD | None = None
        base = self
        while True:
            if k & 1:
                result = base if result is None else result.compose(base)
            k >>= 1
            if not k:
                break
            base = base.compose(base)
        assert result is not None
        return result

    # -- queries ------------------------------------------------------------------------
    def delta_at(self, eps: Fraction) -> flint.arb:
        """``2^-B (sum_i poly[i] (1 - e^{eps - z_i})_+ + inf)`` as a ball, for exact eps."""
        with arb_precision(EVAL_PREC):
            n = self.poly.length()
            j = math.floor((eps - self.shift) / self.h) + 1  # first index with z_j > eps
            j = max(j, 0)
            total = flint.arb(self.inf)
            if j < n:
                tail = self.poly.right_shift(j) if j else self.poly
                s0 = flint.arb(tail(1))
                x = (-_arb(self.h)).exp()
                s1 = flint.arb_poly(tail)(x)
                total += s0 - (_arb(eps) - _arb(self.loss(j))).exp() * s1
            return total * flint.arb(2) ** (-self.B)

    def delta_bound(self, eps: Number) -> flint.arb:
        """The rigorous one-sided bound at eps (a ball of eps: its worst end)."""
        lo, hi = _span(eps)
        return self.delta_at(lo if self.kind == "upper" else hi)

    def _floats(self) -> tuple[list[float], float]:
        if self._float_cache is None:
            scale = 2.0 ** (-self.B)
            self._float_cache = ([float(int(v)) * scale for v in self.poly.coeffs()],
                                 float(self.inf) * scale)
        return self._float_cache

    def eps_float(self, delta: float) -> float:
        """The float crossing ``delta(eps) = delta`` (a locator, not a bound); -inf if
        delta(eps) <= delta for every eps on the grid."""
        cs, inf = self._floats()
        n = len(cs)
        if inf > delta:
            return math.inf
        eh = math.exp(-float(self.h))
        s0, r = 0.0, 0.0  # s0 = sum_{l>i} c_l, r = sum_{l>i} c_l e^{z_i - z_l}
        for i in range(n - 1, -1, -1):
            # value at eps = z_i
            if s0 - r + inf > delta:
                # crossing in [z_i, z_{i+1}): delta(eps) = s0 - e^{eps - z_i} r + inf
                zi = float(self.loss(i))
                return zi + math.log((s0 + inf - delta) / r) if r > 0 else zi
            r = eh * (r + cs[i])
            s0 += cs[i]
            # r now refers to z_{i-1}
        if s0 - r + inf > delta:
            zi = float(self.loss(-1))
            return zi + math.log((s0 + inf - delta) / r) if r > 0 else zi
        return -math.inf

    def eps_bound(self, delta: Number, lower_limit: Fraction = Fraction(0)) -> Fraction:
        """A certified bound on the least ``eps >= lower_limit`` with ``delta(eps) <= delta``.

        upper kind: a point where the upper profile is certified ``<= delta`` (an upper bound
        on the true eps); lower kind: a point where the lower profile is certified ``> delta``
        (a lower bound), or ``lower_limit``.
        """
        d_lo, d_hi = _span(delta)
        if self.kind == "upper":
            if _certain_le(self.delta_at(lower_limit), _arb(d_lo)):
                return lower_limit
            guess = self.eps_float(float(d_lo))
            if guess == math.inf:
                raise PrecisionExhausted("the +inf mass of the upper PLD exceeds delta")
            gap = 2.0**-40
            for _ in range(60):
                cand = _dyadic_ceil(max(guess, float(lower_limit)) * (1 + gap) + gap)
                cand = max(cand, lower_limit)
                if _certain_le(self.delta_at(cand), _arb(d_lo)):
                    return cand
                gap *= 4
            raise PrecisionExhausted("could not certify an upper bound on eps")
        # lower kind
        guess = self.eps_float(float(d_hi))
        if guess <= float(lower_limit):
            return lower_limit
        gap = 2.0**-40
        for _ in range(60):
            cand = _dyadic_floor(guess * (1 - gap) - gap)
            if cand <= lower_limit:
                return lower_limit
            if _certain_lt(_arb(d_hi), self.delta_at(cand)):
                return cand
            gap *= 4
        return lower_limit


def _ones(n: int) -> flint.fmpz_poly:
    """``1 + x + ... + x^{n-1}``."""
    one = flint.fmpz_poly([1])
    return (one.left_shift(n) - 1) // flint.fmpz_poly([-1, 1])


# ------------------------------------------------------------------------------------------
# discretisation of one step


@dataclass
class Grid:
    """Losses ``offset + i h`` (exact dyadic rationals)."""

    h: Fraction
    offset: Fraction

    def z(self, i: int) -> Fraction:
        return self.offset + i * self.h


def grid_for(pair: LossPair, h: Fraction) -> Grid:
    """Align the grid with a finite edge of the support (accuracy only, never soundness).

    Mass often piles up at such an edge (the subsampled Gaussian's losses accumulate at
    ``log(1-q)``). At a lower edge a grid *point* sits just below it, so the merged bin there
    has a loss just above its grid point; at an upper edge a bin *boundary* sits just above it,
    so the top bin's loss is near the edge, above its grid point, and can absorb mass from below.
    """
    lo_edge, hi_edge = pair.edges()
    if lo_edge is not None and hi_edge is None:
        b = _dyadic_floor(lo_edge)
        return Grid(h, b % h)
    if hi_edge is not None and lo_edge is None:
        b = _dyadic_ceil(hi_edge)
        return Grid(h, (b - h / 2) % h)
    return Grid(h, Fraction(0))


COARSE = 32  # grid steps per coarse cell in the tails
FINE_MASS = 2.0**-60  # a coarse cell with more P-mass than this (or than the tail budget)
#                        is resolved at step h


def _check_size(n: int) -> None:
    if n > 4 * MAX_BINS:
        raise PrecisionExhausted(f"the grid would need {n} points (more than {4 * MAX_BINS})")


def discretize(pair: LossPair, grid: Grid, bits: int, tail: float,
               window: tuple[float, float] | None = None,
               lower: bool = True) -> tuple[DiscretePLD, DiscretePLD | None]:
    """The upper and lower one-step PLDs of ``pair`` on ``grid`` (masses in units 2^-bits).

    ``tail`` is the P-mass allowed outside the window on each side (accounted, not ignored).
    Inside the window the loss axis is cut into coarse cells of ``COARSE`` steps; cells with
    more P-mass than ``tail`` (at least ``FINE_MASS``) are resolved at step h: both constructions
    are sound for any cells with end points on the grid; a coarse cell of mass m only moves the
    bounds by about ``m`` times its width per step.
    ``lower=False`` skips the lower PLD.
    """
    h = grid.h
    if window is None:
        zlo = pair.quantile(tail)
        zhi = pair.quantile(tail, upper=True)
    else:
        zlo, zhi = window
    ilo = math.floor((Fraction(zlo) - grid.offset) / h) - 1
    ihi = math.ceil((Fraction(zhi) - grid.offset) / h) + 1
    ihi = ilo + COARSE * max(1, math.ceil((ihi - ilo) / COARSE))
    n = ihi - ilo + 1
    _check_size(n)
    with arb_precision(PREC):
        off, hb = _arb(grid.offset), _arb(h)

        def z_of(j: Fraction) -> flint.arb:  # grid index j (integer or half-integer), exact
            return off + _arb(j) * hb

        cache: dict[Fraction, tuple[flint.arb, ...]] = {}

        def cdf(j: Fraction) -> tuple[flint.arb, ...]:
            hit = cache.get(j)
            if hit is None:
                hit = cache[j] = pair.cdf_sf(z_of(j))
            return hit

        def masses(a: Fraction, b: Fraction) -> tuple[flint.arb, flint.arb]:
            """P- and Q-mass of the losses in (z_a, z_b]: both CDF and survival differences
            enclose them; the intersection keeps the accurate one (small numbers)."""
            fa, fb = cdf(a), cdf(b)
            out = []
            for i in (0, 1):
                x, y = fb[i] - fa[i], fa[i + 2] - fb[i + 2]
                out.append(x.intersection(y) if x.overlaps(y) else (x if x.rad() < y.rad()
                                                                     else y))
            return out[0], out[1]

        # coarse cells, then the boundaries (integers: upper; with half points: lower)
        cuts = [Fraction(i) for i in range(ilo, ihi + 1, COARSE)]
        upper_cuts: list[Fraction] = []
        lower_cuts: list[Fraction] = []
        for a, b in itertools.pairwise(cuts):
            fine = float(masses(a, b)[0].mid()) > max(FINE_MASS, tail)
            if fine:
                upper_cuts.extend(a + t for t in range(int(b - a)))
                lower_cuts.append(a)
                lower_cuts.extend(a + t + HALF for t in range(int(b - a)))
            else:
                upper_cuts.append(a)
                lower_cuts.append(a)
        upper_cuts.append(cuts[-1])
        lower_cuts.append(cuts[-1])

        eh = hb.exp()
        ez = [z_of(Fraction(ilo)).exp()]
        for _ in range(n):
            ez.append(ez[-1] * eh)
        p_inf = pair.p_inf()

        # --- upper: connect the dots on each cell [z_a, z_b] ---
        up = [0] * n
        for a, b in itertools.pairwise(upper_cuts):
            ia, ib = int(a) - ilo, int(b) - ilo
            pb, qb = masses(a, b)
            width = ez[ib] - ez[ia]
            p_hi = ez[ib] * (pb - ez[ia] * qb) / width
            p_lo = ez[ia] * (ez[ib] * qb - pb) / width
            up[ia] += _units(p_lo, bits, True)
            up[ib] += _units(p_hi, bits, True)
        up[0] += _units(cdf(cuts[0])[0], bits, True)  # below the window: moved up to z_ilo
        up_inf = _units(cdf(cuts[-1])[2] + p_inf, bits, True)  # above: to +inf

        lo: list[int] | None = None
        if lower:
            # --- lower: merged bins poured into atoms at grid points ---
            p_bins, q_bins = [], []
            for a, b in itertools.pairwise(lower_cuts):
                pb, qb = masses(a, b)
                p_bins.append(pb)
                q_bins.append(qb)
            # pour upward and downward (both are valid lower PLDs); keep the one whose mass
            # sits higher (a heuristic choice: edges where mass piles up favour one direction)
            cands = [_lower_masses(p_bins, q_bins, ez[:n], bits, grid.z(ilo), h, downward=d)
                     for d in (False, True)]
            lo = max(cands, key=lambda c: sum(v * (i + 1) for i, v in enumerate(c)))
        lo_inf = _units(p_inf, bits, False)
    shift = grid.z(ilo)
    upper_pld = DiscretePLD("upper", h, shift, flint.fmpz_poly(up), up_inf, bits, 0)
    lower_pld = (DiscretePLD("lower", h, shift, flint.fmpz_poly(lo), lo_inf, bits, 0)
                 if lo is not None else None)
    return upper_pld, lower_pld


def _lower_masses(p: Sequence[flint.arb], q: Sequence[flint.arb], ez: Sequence[flint.arb],
                  bits: int, z0: Fraction = Fraction(0), h: Fraction = Fraction(1),
                  downward: bool = False) -> list[int]:
    """Masses of the lower PLD at the grid points ``z_i = z0 + i h`` (``ez[i] = e^{z_i}``) from
    merged bins ``(p_j, q_j)``: P- and Q-masses of consecutive loss intervals, in increasing
    order.

    The bins are poured, in order, into atoms: an atom starts from what is left of the previous
    one, takes the grid point just above its current loss as target ``z``, and takes whole bins,
    then the fraction ``f`` of one bin with ``f (p_j - e^z q_j) >= e^z Q - P``, so that its loss
    ``log(P/Q)`` is certified ``>= z``; it is emitted at ``z``. Every atom is a randomised merge
    of outcomes (a post-processing of the pair) whose loss is at least its grid point, and the
    loss of each atom is close to its grid point, so the construction keeps the mean of the loss
    to second order. Fractions are exact dyadics chosen on the safe side of the balls; the mass
    left at the top is emitted at the highest grid point certified below its loss, or dropped.
    """
    nb = len(p)  # bins, in increasing loss order
    n = len(ez)  # grid points
    zero, one = flint.arb(0), flint.arb(1)
    out = [0] * n
    hb = _arb(h)
    zb0 = _arb(z0)
    pool_p, pool_q = zero, zero

    def loss_index(pp: flint.arb, qq: flint.arb, floor: bool = False) -> int | None:
        """The index of the grid point just above (``floor``: below) a float estimate of the
        pool's loss."""
        if not _certain_lt(zero, pp):
            return None
        if not _certain_lt(zero, qq):
            return n - 1
        x = float(((pp / qq).log() - zb0).mid() / hb.mid())
        if not math.isfinite(x):
            return n - 1
        if floor:
            return min(math.floor(x + 1e-9), n - 1)
        return min(max(math.ceil(x - 1e-9), 0), n - 1)

    def emit(pp: flint.arb, qq: flint.arb, i: int) -> None:
        """Emit the pool at the highest grid point <= i (at most 4 below) certified below its
        loss; drop it if there is none (dropping mass keeps a lower bound)."""
        if not _certain_lt(zero, pp):
            return
        for j in range(i, max(i - 5, -1), -1):
            if _certain_le(ez[j] * qq, pp):
                out[j] += _units(pp, bits, False)
                return

    if not downward:
        j = 0
        while j < nb:
            # the pool: what is left of the previous atom; its target
            if not _certain_lt(zero, pool_p):
                pool_p, pool_q = p[j], q[j]
                j += 1
                continue
            t = loss_index(pool_p, pool_q)
            if t is None:
                pool_p, pool_q = p[j], q[j]
                j += 1
                continue
            zt = ez[t]
            if _certain_le(zt * pool_q, pool_p):  # already at or above its target
                emit(pool_p, pool_q, t)
                pool_p, pool_q = zero, zero
                continue
            deficit = zt * pool_q - pool_p
            den = p[j] - zt * q[j]
            if _certain_lt(zero, den):
                f = (deficit.upper() / den.lower()).upper()
                if _certain_lt(f, one):
                    # f den >= deficit for the true values: the atom's loss is >= z_t by
                    # construction (a re-check on the balls could not see the tiny margin)
                    out[t] += _units(pool_p + f * p[j], bits, False)
                    rest = (one - f).lower()
                    pool_p, pool_q = rest * p[j], rest * q[j]
                    j += 1
                    continue
            pool_p, pool_q = pool_p + p[j], pool_q + q[j]  # the whole bin joins the atom
            j += 1
        if _certain_lt(zero, pool_p):
            t = loss_index(pool_p, pool_q)
            emit(pool_p, pool_q, n - 1 if t is None else t)
        return out
    # downward: from the top, each atom targets the grid point just below its loss and takes
    # lower bins while its loss stays >= the target
    j = nb - 1
    while j >= 0:
        if not _certain_lt(zero, pool_p):
            pool_p, pool_q = p[j], q[j]
            j -= 1
            continue
        t = loss_index(pool_p, pool_q, floor=True)
        if t is None or t < 0:
            pool_p, pool_q = pool_p + p[j], pool_q + q[j]
            j -= 1
            continue
        stop = max(t - 5, -1)
        while t > stop and not _certain_le(ez[t] * pool_q, pool_p):
            t -= 1
        if t <= stop:
            pool_p, pool_q = pool_p + p[j], pool_q + q[j]
            j -= 1
            continue
        zt = ez[t]
        surplus = pool_p - zt * pool_q
        cost = zt * q[j] - p[j]
        if _certain_lt(zero, cost):
            f = (surplus.lower() / cost.upper()).lower()
            if _certain_lt(f, one):
                if _certain_lt(zero, f):
                    # f cost <= surplus for the true values: the loss stays >= z_t
                    out[t] += _units(pool_p + f * p[j], bits, False)
                    rest = (one - f).lower()  # at most what is left of bin j
                    pool_p, pool_q = rest * p[j], rest * q[j]
                else:
                    out[t] += _units(pool_p, bits, False)
                    pool_p, pool_q = p[j], q[j]
                j -= 1
                continue
        pool_p, pool_q = pool_p + p[j], pool_q + q[j]  # the whole bin joins the atom
        j -= 1
    if _certain_lt(zero, pool_p):
        t = loss_index(pool_p, pool_q, floor=True)
        emit(pool_p, pool_q, n - 1 if t is None else min(t, n - 1))
    return out


# ------------------------------------------------------------------------------------------
# enclosures with an automatic grid


@dataclass
class Enclosure:
    """A rigorous enclosure ``[lo, hi]`` (exact rationals) and how it was obtained."""

    lo: Fraction
    hi: Fraction
    h: Fraction
    seconds: float
    passes: list[dict[str, Any]] = field(default_factory=list)

    def rel_width(self) -> float:
        if self.hi == 0:
            return 0.0
        return float((self.hi - self.lo) / self.hi)

    def ball(self) -> flint.arb:
        return _arb(self.lo).union(_arb(self.hi))


_CACHE: dict[tuple[Any, ...], Any] = {}
_CACHE_ORDER: list[tuple[Any, ...]] = []
_CACHE_MAX = 12


def _cached(key: tuple[Any, ...], make: Any) -> Any:
    hit = _CACHE.get(key)
    if hit is None:
        hit = make()
        _CACHE[key] = hit
        _CACHE_ORDER.append(key)
        while len(_CACHE_ORDER) > _CACHE_MAX:
            _CACHE.pop(_CACHE_ORDER.pop(0), None)
    return hit


def one_step_plds(pair: LossPair, h: Fraction, bits: int, tail: float,
                  lower: bool = True) -> tuple[DiscretePLD, DiscretePLD | None]:
    """The upper and lower one-step PLDs on the grid of step h aligned for ``pair`` (cached),
    with the truncation budget ``tail`` (a P-mass per side and per truncation)."""
    both = _CACHE.get(("one", pair.key(), h, bits, tail, True))
    if both is not None:
        return both

    def make() -> tuple[DiscretePLD, DiscretePLD | None]:
        up, lo = discretize(pair, grid_for(pair, h), bits, tail, lower=lower)
        trim = max(1, int(tail * 2.0**bits))
        up.trim = trim
        if lo is not None:
            lo.trim = trim
            lo = lo._trimmed()
        return up._trimmed(), lo

    return _cached(("one", pair.key(), h, bits, tail, lower), make)


def composed_pld(pair: LossPair, k: int, h: Fraction, bits: int, tail: float,
                 kind: str) -> DiscretePLD:
    """The ``kind`` ("upper" or "lower") PLD of the k-fold composition of ``pair`` (cached)."""

    def make() -> DiscretePLD:
        upper, lower = one_step_plds(pair, h, bits, tail, lower=kind == "lower")
        one = upper if kind == "upper" else lower
        assert one is not None
        return one.self_compose(k)

    return _cached(("k", pair.key(), k, h, bits, tail, kind), make)


def composed_plds(pair: LossPair, k: int, h: Fraction, bits: int,
                  tail: float) -> tuple[DiscretePLD, DiscretePLD]:
    """The upper and lower PLDs of the k-fold composition of ``pair``."""
    one_step_plds(pair, h, bits, tail, lower=True)  # one discretisation for both
    return (composed_pld(pair, k, h, bits, tail, "upper"),
            composed_pld(pair, k, h, bits, tail, "lower"))


def _scale(pair: LossPair) -> float:
    """A float spread of the one-step loss under P (interdecile range / 2.56)."""
    a = pair.quantile(0.1)
    b = pair.quantile(0.1, upper=True)
    return max((b - a) / 2.56, 1e-12)


def _dyadic_step(x: float) -> Fraction:
    """The largest 2^-n, or 3 * 2^-n, not above x (so that steps keep few bits)."""
    e = math.floor(math.log2(x))
    a = Fraction(2) ** e
    b = Fraction(3, 2) * a
    return b if b <= x else a


def _plan(k: int, abs_tol: float) -> tuple[int, float]:
    ops = 2 * max(1, k.bit_length())
    bits = max(64, math.ceil(math.log2(ops * 4e6 / abs_tol)) + 2)
    tail = abs_tol / (8 * ops)
    return bits, tail


def _eps_pass(pairs: Sequence[LossPair], k: int, delta: Number, h: Fraction,
              abs_tol: float, upper_only: bool = False) -> tuple[Fraction, Fraction]:
    bits, tail = _plan(k, abs_tol)
    lo = hi = Fraction(0)
    for pair in pairs:
        if not upper_only:
            one_step_plds(pair, h, bits, tail, lower=True)  # one discretisation for both
        hi = max(hi, composed_pld(pair, k, h, bits, tail, "upper").eps_bound(delta))
        if not upper_only:
            lo = max(lo, composed_pld(pair, k, h, bits, tail, "lower").eps_bound(delta))
    return lo, hi


def _delta_pass(pairs: Sequence[LossPair], k: int, eps: Number, h: Fraction,
                abs_tol: float, upper_only: bool = False) -> tuple[Fraction, Fraction]:
    bits, tail = _plan(k, abs_tol)
    lo = hi = Fraction(0)
    for pair in pairs:
        if not upper_only:
            one_step_plds(pair, h, bits, tail, lower=True)  # one discretisation for both
        hi = max(hi, _span(composed_pld(pair, k, h, bits, tail, "upper").delta_bound(eps))[1])
        if not upper_only:
            lower = composed_pld(pair, k, h, bits, tail, "lower")
            lo = max(lo, max(_span(lower.delta_bound(eps))[0], Fraction(0)))
    return lo, min(hi, Fraction(1))


MAX_BINS = 400_000  # one-step grid points per direction
FIRST_BINS = 20_000  # at most this many in the first pass


def _initial_step(pairs: Sequence[LossPair], k: int, rel_width: float = 1e-3) -> Fraction:
    """A quarter of the one-step spread (a cheap first pass: the refinement then predicts the
    step from the measured width), coarser for coarser targets (the width is second order in
    h)."""
    s = min(_scale(p) for p in pairs)
    step = s / 4 * min(4.0, max(1.0, math.sqrt(rel_width / 1e-3)))
    # a first pass never needs more than FIRST_BINS grid points per direction
    span = max(_span_estimate(p) for p in pairs)
    return _dyadic_step(max(step, span / FIRST_BINS))


def _refine(pairs: Sequence[LossPair], k: int, run: Any, rel_width: float,
            max_seconds: float, h: Fraction | None) -> Enclosure:
    started = time.monotonic()
    fixed = h is not None
    h = h if h is not None else _initial_step(pairs, k, rel_width)
    passes: list[dict[str, Any]] = []
    while True:
        t0 = time.monotonic()
        lo, hi = run(h)
        dt = time.monotonic() - t0
        width = float((hi - lo) / hi) if hi > 0 else 0.0
        passes.append({"h": str(h), "lo": float(lo), "hi": float(hi), "rel_width": width,
                       "seconds": round(dt, 3)})
        if fixed or width <= rel_width:
            break
        # the width is second order in h: predict the step that meets the target
        factor = math.sqrt(rel_width / width) * 0.8 if width > 0 else 0.5
        factor = min(max(factor, 1 / 8), 0.7)
        new_h = _dyadic_step(float(h) * factor)
        elapsed = time.monotonic() - started
        predicted = dt * (float(h) / float(new_h)) ** 1.7
        span = max(_span_estimate(p) for p in pairs)
        if span / float(new_h) > MAX_BINS or elapsed + predicted > max_seconds:
            break
        h = new_h
    return Enclosure(lo, hi, h, time.monotonic() - started, passes)


def _span_estimate(pair: LossPair) -> float:
    return pair.quantile(1e-12, upper=True) - pair.quantile(1e-12)


def enclose_eps(pairs: Sequence[LossPair], k: int, delta: Number, rel_width: float = 1e-3,
                max_seconds: float = 100.0, h: Fraction | None = None,
                upper_only: bool = False) -> Enclosure:
    """A rigorous enclosure of the least ``eps >= 0`` with ``max_pairs delta_k(eps) <= delta``.

    The grid step is refined until the relative width is at most ``rel_width`` or the time or
    size budget runs out (the enclosure is then wider, and still rigorous); ``h`` fixes it.
    ``upper_only``: one pass, only the certified upper end (the lower end is then 0).
    """
    d_lo = float(_span(delta)[0])
    abs_tol = d_lo * 2.0**-24
    if upper_only:
        started = time.monotonic()
        step = h if h is not None else _initial_step(pairs, k, rel_width)
        lo, hi = _eps_pass(pairs, k, delta, step, abs_tol, upper_only=True)
        return Enclosure(lo, hi, step, time.monotonic() - started)
    return _refine(pairs, k, lambda step: _eps_pass(pairs, k, delta, step, abs_tol),
                   rel_width, max_seconds, h)


def enclose_delta(pairs: Sequence[LossPair], k: int, eps: Number, rel_width: float = 1e-3,
                  max_seconds: float = 100.0, h: Fraction | None = None) -> Enclosure:
    """A rigorous enclosure of ``max_pairs delta_k(eps)`` (hockey-stick of the k-fold
    composition at ``e^eps``)."""
    # first looks at the magnitude (upper bounds only) set the integer scale and the tails
    step0 = h if h is not None else _initial_step(pairs, k, rel_width)
    abs_tol = 2.0**-40
    for _ in range(8):
        _, hi0 = _delta_pass(pairs, k, eps, step0, abs_tol, upper_only=True)
        if hi0 >= abs_tol * 2.0**20 or abs_tol < 2.0**-300:
            break
        abs_tol = max(float(hi0) * 2.0**-24, abs_tol * 2.0**-40)
    abs_tol = min(abs_tol, float(hi0) * 2.0**-24) if hi0 > 0 else abs_tol
    return _refine(pairs, k, lambda step: _delta_pass(pairs, k, eps, step, abs_tol),
                   rel_width, max_seconds, h)


__all__ = [
    "DiscretePLD",
    "Enclosure",
    "Grid",
    "Laplace",
    "LossPair",
    "RandomizedResponse",
    "SubsampledGaussian",
    "composed_pld",
    "composed_plds",
    "discretize",
    "enclose_delta",
    "enclose_eps",
    "grid_for",
    "one_step_plds",
    "sgm_pairs",
]
