"""Loss pairs (P, Q) described by rigorous CDFs of their privacy loss: the Poisson-subsampled
Gaussian's dominating pairs, Laplace, randomized response (see the package docstring)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision
from dpverify.theorems.numerics.pld._arith import Number, _arb, _certain_le, _certain_lt, _span

QUANTILE_MARGIN = 1e-9  # float CDFs within this relative distance of u: the arb CDFs decide
#   (measured: 0 of 288 quantiles of the bench's and 4 other SGM pairs, u in 0.1 .. 1e-100,
#   differ from the arb-only bisection; a float error beyond it could only move a window)


# W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23
# (1969), 631-638: the coefficient sets of his CALERF (netlib specfun), erf on [0, 0.46875]
# (A/B), erfc(x) e^{x^2} on [0.46875, 4] (C/D) and on (4, inf) in 1/x^2 (P/Q)
_CODY_A = (3.16112374387056560e00, 1.13864154151050156e02, 3.77485237685302021e02,
           3.20937758913846947e03, 1.85777706184603153e-1)
_CODY_B = (2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
           2.84423683343917062e03)
_CODY_C = (5.64188496988670089e-1, 8.88314979438837594e00, 6.61191906371416295e01,
           2.98635138197400131e02, 8.81952221241769090e02, 1.71204761263407058e03,
           2.05107837782607147e03, 1.23033935479799725e03, 2.15311535474403846e-8)
_CODY_D = (1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
           1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
           3.43936767414372164e03, 1.23033935480374942e03)
_CODY_P = (3.05326634961232344e-1, 3.60344899949804439e-1, 1.25781726111229246e-1,
           1.60837851487422766e-2, 6.58749161529837803e-4, 1.63153871373020978e-2)
_CODY_Q = (2.56852019228982242e00, 1.87295284992346047e00, 5.27905102951428412e-1,
           6.05183413124413191e-2, 2.33520497626869185e-3)
_CODY_SMALL = 0.46875


def _ratio(num_top: float, num: tuple[float, ...], den: tuple[float, ...], x: np.ndarray
           ) -> np.ndarray:
    """Cody's rational function ``((a_top x + a_0) x + ... + a_n) / ((x + b_0) x + ... +
    b_n)``, ``n = len(num) - 1 = len(den) - 1``, in his order of operations (numerator and
    denominator as the two rows of one array: half the numpy calls)."""
    acc = np.empty((2, len(x)))
    np.multiply(x, num_top, out=acc[0])
    acc[1] = x
    step = np.empty((2, 1))
    for a, b in zip(num[:-1], den[:-1], strict=True):
        step[0, 0], step[1, 0] = a, b
        acc += step
        acc *= x
    step[0, 0], step[1, 0] = num[-1], den[-1]
    acc += step
    return np.divide(acc[0], acc[1], out=acc[0])


def erfc_pair(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(erfc(x), erfc(-x))`` in float64 elementwise (numpy only; a float estimate, never a
    bound): W. J. Cody, Math. Comp. 23 (1969), 631-638, by his CALERF (netlib specfun):
    ``erf`` by a rational function of ``x^2`` for ``|x| <= 0.46875``, else ``erfc(|x|) =
    e^{-x^2} R(|x|)`` with ``e^{-x^2}`` split as ``e^{-s^2} e^{-(|x| - s)(|x| + s)}``, ``s =
    trunc(16 |x|)/16`` (no rounding error of ``x^2`` amplified by the exponential); the other
    side is ``2 - erfc(|x|)`` (one evaluation for both: the CDFs need both tails). Relative
    error below 1e-15 where erfc does not underflow (tests/test_pld_erfc.py compares it with
    ``math.erfc``)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.abs(x)
    small = y <= _CODY_SMALL
    any_small = bool(small.any())
    if any_small:
        out = np.empty_like(y)
        ys = y[small]
        a, b = _CODY_A, _CODY_B
        out[small] = 1.0 - ys * _ratio(a[4], a[:4], b, ys * ys)
        tail = ~small
        yt = y[tail]
    else:
        yt = y
    big = yt > 4.0
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        if big.any():
            c, d = _CODY_C, _CODY_D
            r = np.empty_like(yt)
            mid = ~big
            r[mid] = _ratio(c[8], c[:8], d, yt[mid])
            yb = yt[big]
            z = 1.0 / (yb * yb)
            p, q = _CODY_P, _CODY_Q
            rb = z * _ratio(p[5], p[:5], q, z)
            r[big] = (1 / math.sqrt(math.pi) - rb) / yb
        else:
            r = _ratio(_CODY_C[8], _CODY_C[:8], _CODY_D, yt)
        s = np.trunc(yt * 16.0)
        s *= 1 / 16.0
        e = np.subtract(yt, s)
        e *= np.add(yt, s)
        np.negative(e, out=e)
        np.exp(e, out=e)
        np.multiply(s, s, out=s)
        np.negative(s, out=s)
        np.exp(s, out=s)
        r *= s
        r *= e
        if big.any():
            r[yt == np.inf] = 0.0
    if any_small:
        out[tail] = r
    else:
        out = r
    other = np.subtract(2.0, out)  # erfc(-|x|) = 2 - erfc(|x|)
    neg = x < 0
    if neg.any():
        return np.where(neg, other, out), np.where(neg, out, other)
    return out, other


_ERFC_RECENT: list[tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]] = []


def _erfc_pair_recent(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`erfc_pair`, remembering its last two arguments and results (read-only arrays):
    the float model asks for the add pair's CDFs at z and the remove pair's at -z, whose
    Gaussian thresholds are the same floats (``-(-z)`` is z), so one of every three
    evaluations repeats an argument bit for bit (a comparison costs ~1/40 of an evaluation)."""
    for arg, got in _ERFC_RECENT:
        if arg.shape == x.shape and np.array_equal(arg, x):
            return got
    got = erfc_pair(x)
    for a in got:
        a.flags.writeable = False
    _ERFC_RECENT.insert(0, (x, got))
    del _ERFC_RECENT[2:]
    return got


def erfc_float(x: np.ndarray) -> np.ndarray:
    """``erfc(x)`` of :func:`erfc_pair`."""
    return erfc_pair(x)[0]


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

    def cdf_series(self, z: flint.arb_series) -> tuple[flint.arb_series, flint.arb_series] | None:
        """``(P[L <= z], Q[L <= z])`` as truncated power series at a series ``z`` (rigorous in
        every coefficient, :mod:`.taylor`), or None when the pair has no series form (the
        discretisation then evaluates ``cdf_sf`` point by point)."""
        return None

    def edges(self) -> tuple[float | None, float | None]:
        """Finite ends of the support of L (floats; used only to align the grid)."""
        return None, None

    def cdf_sf_float(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """Float estimates of ``(P[L <= z], P[L > z])`` at many z (locating only, never a
        bound: the discretisation's choice of fine cells), or None (then from arb)."""
        return None

    def cdf_float_at(self, z: float, upper: bool) -> float | None:
        """``P[L <= z]`` (``upper``: ``P[L > z]``) of :meth:`cdf_sf_float` at one point."""
        got = self.cdf_sf_float(np.array([z]))
        return None if got is None else float(got[1][0] if upper else got[0][0])

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
        """A float z with ``P[L <= z] ~ u`` (``upper``: ``P[L > z] ~ u``), by bisection
        (memoised on the pair: a refinement asks for the same quantiles at every pass)."""
        memo: dict[tuple[float, bool], float] = self.__dict__.setdefault("_quantiles", {})
        hit = memo.get((u, upper))
        if hit is None:
            hit = memo[(u, upper)] = self._bisect_quantile(u, upper)
        return hit

    def _float_below(self, z: float, u: float, upper: bool) -> bool | None:
        """The bisection's decision from the float CDFs where they are farther than a relative
        ``QUANTILE_MARGIN`` from ``u``, else None (then the arb CDFs decide): the same quantile
        as the arb predicate alone wherever the float CDFs err by less than the margin
        (tests/test_pld_driver.py compares them). A quantile only places a window or a scale,
        never a bound (the mass outside a window is accounted in arb)."""
        v = self.cdf_float_at(z, upper)
        if v is None or not math.isfinite(v) or abs(v - u) <= QUANTILE_MARGIN * u:
            return None
        return v > u if upper else v < u

    def _bisect_quantile(self, u: float, upper: bool) -> float:
        # enough bits that 1 - P[L <= z] is resolved down to u (the CDFs are near 1 there)
        prec = 64 + max(0, math.ceil(-math.log2(max(u, 1e-300)))) + 16

        def below(z: float) -> bool:  # is z below the quantile?
            decided = self._float_below(z, u, upper)
            if decided is not None:
                return decided
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

    def cdf_sf_float(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """Float ``(P[L <= z], P[L > z])`` (add and remove; a locator, never a bound)."""
        if self.direction == "replace":
            return None
        y = self._y_float(z)
        y = np.where(np.isnan(y), -np.inf, y)  # below the support of the add loss

        def phi2(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            below, above = _erfc_pair_recent(x * -math.sqrt(0.5))
            return below * 0.5, above * 0.5

        return self._sides_float(y, phi2)

    def cdf_float_at(self, z: float, upper: bool) -> float | None:
        """:meth:`cdf_sf_float` at one point, one side, in scalar floats: the same formula body
        (:meth:`_y_float`, :meth:`_sides_float`) on numpy float scalars with libm's ``erfc``
        for Cody's (:func:`erfc_pair`; they agree to ~1e-15 relative, far inside the
        bisection's ``QUANTILE_MARGIN``), several times cheaper than a one-point array (each
        quantile bisection calls it ~50 times)."""
        if self.direction == "replace":
            return None
        y = float(self._y_float(np.float64(z)))
        if y != y:  # nan: below the support of the add loss, as in the array
            y = -math.inf
        r2 = math.sqrt(0.5)
        cdf, sf = self._sides_float(
            y, lambda x: (math.erfc(x * -r2) * 0.5, math.erfc(x * r2) * 0.5))
        return sf if upper else cdf

    def _y_float(self, z: Any) -> Any:
        """The Gaussian output ``y`` at the loss ``z`` (nan below the add loss's support)."""
        q, s = self.q_float, self.sigma_float
        w = z if self.direction == "add" else -z
        if self.q_is_one:
            return 0.5 + s * s * w
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return 0.5 + s * s * (np.log(np.expm1(w) + q) - math.log(q))

    def _sides_float(self, y: Any, phi2: Any) -> tuple[Any, Any]:
        """``(P[L <= z], P[L > z])`` from ``y`` (``phi2(x) = (Phi(x), Phi(-x))``, Phi the
        standard normal CDF)."""
        q, s = self.q_float, self.sigma_float
        a, ac = phi2(y / s)
        if self.direction == "add":  # P = (1-q) N(0, s^2) + q N(1, s^2), L <= z iff Y <= y
            b, bc = phi2((y - 1) / s)
            return (1 - q) * a + q * b, (1 - q) * ac + q * bc
        return ac, a  # remove: P = N(0, s^2), L <= z iff Y >= y

    def cdf_series(self, z: flint.arb_series) -> tuple[flint.arb_series, flint.arb_series] | None:
        """The CDFs of :meth:`cdf_sf` as series in z (add and remove; ``Phi(u) =
        erfc(-u/sqrt 2)/2``); a z outside the support gives non-finite coefficients."""
        if self.direction == "replace":
            return None
        q, _s, r, s2, logq, c = self._consts()
        w = z if self.direction == "add" else -z
        if self.q_is_one:
            y = s2 * w + flint.arb(1) / 2
        else:
            y = ((w.exp() - 1) + q).log() * s2 + (flint.arb(1) / 2 - s2 * logq)
        if self.direction == "add":  # P = r Phi(y/s) + q Phi((y-1)/s), Q = Phi(y/s)
            a = (-y * c).erfc() / 2
            b = ((1 - y) * c).erfc() / 2
            return a * r + b * q, a
        # remove: P = Phi(-y/s), Q = r Phi(-y/s) + q Phi((1-y)/s)
        a = (y * c).erfc() / 2
        b = ((y - 1) * c).erfc() / 2
        return a, a * r + b * q

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

