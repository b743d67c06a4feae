"""Certified queries of a PLD composed in the Fourier domain (:func:`.fourier.compose_fourier`):
``delta(eps)`` and ``eps(delta)`` read off the tilted window without untilting it. The error
analysis (step 5 and the l1 budget they consume) is in :mod:`.fourier`; the helpers here round
every float bound upward (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
SIAM 2002, Sec. 2.2 and 3.1).

Query table (the eps queries; :meth:`FourierPLD._build_table`). Notation of :mod:`.fourier`,
step 5: window ``v`` (positions ``t < n``, losses ``z_t = start + t h``), ``c1 = lam h``, ``c2 =
h``; a query at ``eps`` has ``t0 = floor((eps - start) / h) + 1`` and weights ``m'_t = e^{-c1 (t
- t0)} (1 - rho e^{-c2 (t - t0)})``, ``rho = e^{eps - z_t0}``, for ``t >= t0``.

1. **Clipping.** ``v+ = max(v, 0)`` (exact). The exact circular composition ``f^`` of step 4 is
   ``>= 0`` (a power of nonnegative folded floats), so ``|v+_t - f^_t| <= |v_t - f^_t|`` and
   the transform bound ``||v - f^||_2 <= eta_T / sqrt(n)`` of step 4 holds for ``v+``: step
   5's Cauchy-Schwarz term is unchanged, and every sum below has nonnegative terms.
2. **Suffix sums.** Over positions ``[a, b)`` (``T = b - a``): ``wA_t = fl(v+_t E1_{t - a})``,
   ``wB_t = fl(wA_t E2_{t - a})``, ``E1_i ~ e^{-c1 i}``, ``E2_i ~ e^{-c2 i}`` within relative
   ``r1``, ``r2`` (:func:`.decay.reciprocal`: products of reciprocals of :func:`.tilted.weights`),
   and ``SA^_j = fl(sum_{i >= j} wA_{a + i})`` by recursive summation from the right end
   (``numpy.cumsum`` of the reversed array; every output a sum of its own terms only), the
   same for ``SB^``. With the standard model including underflow (Higham Sec. 2.2: ``fl(x y) =
   x y (1 + d) + e``, ``|d| <= u``, ``|e| <= 2^-1075``) and the summation bound ``gamma_{T-1}
   sum |x_i|`` (Sec. 3.1, 4.2), the exact ``SA_j = sum_{a + j <= t < b} v+_t e^{-c1 (t - a)}``
   satisfies ``|SA^_j - SA_j| <= rel_a SA_j + tiny``, ``rel_a = (1 + r1)(1 + u)(1 + gamma_T) -
   1``, ``tiny = (T + 1) 2^-1072`` (two underflows of ``2^-1075`` per term at most, times ``1 +
   gamma_T < 2``); ``SB`` (weights ``e^{-(c1 + c2)(t - a)}``) likewise with ``rel_b = (1 +
   r1)(1 + r2)(1 + u)^2 (1 + gamma_T) - 1``. Hence ``SA_j`` lies in ``[(SA^_j - tiny) / (1 +
   rel_a), (SA^_j + tiny) / (1 - rel_a)]`` (:func:`_sum_ball`), and so does ``SB_j``: the
   error is relative to each suffix sum, not to the window's mass.
3. **A query** with ``a <= t0 <= b``, ``j = t0 - a``, is then exact algebra in arb: ``sum_{t0
   <= t < b} v+_t m'_t = e^{c1 j} (SA_j - rho e^{c2 j} SB_j)`` (as ``e^{-c1 (t - t0)} = e^{c1
   j} e^{-c1 (t - a)}``); the positions ``t >= b`` add ``0 <= sum_{t >= b} v+_t m'_t <= e^{-c1
   (b - t0)} sum_{t >= b} v+_t`` (``m'_t <= e^{-c1 (t - t0)}``), counted for the upper kind
   (the lower one may drop nonnegative terms). This ball replaces step 5's ``dot +- beta'
   ||v||_1``; the rest of step 5 (``C B0``, ``(1 -+ a)^K``, ``L``, ``R``, ``eta_c``) is
   unchanged. Measured (B's add upper PLD at its eps bound): this bound is 2.2e-7 (relative)
   below the dot product's, whose normwise ``gamma_n ||v||_1`` dominated; a query costs O(1)
   after one pass of two products and two cumulative sums over the table.
4. **Where.** The table spans ``[p - 12 / c1, p + 48 / c1)`` around the tilted mode ``p``
   (``TABLE_SPAN``; the whole window without a tilt), within the window and ``(c1 + c2) T <=
   MAX_EXPONENT``. The eps search's float locator (:meth:`FourierPLD._locate`) reads the
   crossing off it (same identity, floats) where it lies ``TABLE_MARGIN`` inside; elsewhere
   it scans the window (:meth:`FourierPLD.eps_float`) and rebuilds the table around that
   crossing. Queries outside the table take the dot product of step 5. Neither choice
   affects soundness, only cost and width.
"""

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
from dpverify.theorems.numerics.pld.decay import capacity, reciprocal
from dpverify.theorems.numerics.pld.fft import TINY, U, _gamma
from dpverify.theorems.numerics.pld.tilted import MAX_EXPONENT

DECAY_CUT = 50.0  # query weights below e^-50 count as 0 (an absolute error of the weights)
_PREC = 128
CROSSING_CHUNK = 1 << 15  # positions of the float locator's profile per chunk
SCAN_REACH = 80.0  # the float locator's scan first ends 80 / (lam h) right of the mode
FIRST_GAP = 2.0**-40  # relative offset of the first candidate from the float crossing, then
#                       times LADDER until the certified predicate holds, then bisection between
#                       the last failure and the first success (measured on bench/bench_pld.py:
#                       the first success at 2^-28 to 2^-24; 20-21 table queries in all)
LADDER = 16.0
LADDER_STEPS = 9  # the last candidate at 2^-8
RESOLUTION = 2.0**-40  # the search stops when success and failure are this close (relative,
#                        to max(1, |eps|)); on the suffix-sum table every evaluation is O(1)
COARSE_RESOLUTION = 2.0**-30  # the same where an evaluation is a dot product over the window
TABLE_SPAN = (12.0, 48.0)  # the query table spans [p - 12 / c, p + 48 / c), c = lam h
TABLE_MARGIN = (2.0, 30.0)  # a crossing is read off the table only this far (times 1 / c)
#                             from its ends (the ends of the window excepted)


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


def _positive_sum_up(x: np.ndarray) -> float:
    """An upper bound of ``sum(max(x, 0))`` as :func:`_sum_up`, clipped in chunks of
    ``CROSSING_CHUNK`` (no temporary of ``x``'s length): the chunk sums added in turn are one
    summation of the same terms, to which the bound ``gamma_{N-1} sum`` applies."""
    buf, total = np.empty(min(len(x), CROSSING_CHUNK)), 0.0
    for i in range(0, len(x), CROSSING_CHUNK):
        part = x[i:i + CROSSING_CHUNK]
        total += float(np.sum(np.maximum(part, 0.0, out=buf[:len(part)])))
    return float(up(total * (1 + 2 * _gamma(len(x) + 2)) + TINY))


def _decay(c: Fraction, n: int) -> tuple[np.ndarray, float]:
    """Floats ``E_i ~ e^{-c i}``, ``i < n`` (``c >= 0``), and an absolute error bound; the
    table stops at ``t`` where ``e^{-c t} < e^{-DECAY_CUT}`` (or at the table's capacity): the
    rest counts as 0, within ``e^{2 - c t}`` (the ``e^2`` covers the rounding of ``c t`` and
    of ``exp``)."""
    t = n if c == 0 else min(n, int(DECAY_CUT / float(c)) + 1, capacity(c))
    table, rel = reciprocal(c, t)
    return table, rel + (math.exp(min(0.0, 2 - float(c) * t)) if t < n else 0.0)


@dataclass
class _Table:
    """Suffix sums of the clipped window ``v+ = max(v, 0)`` over positions ``[a, b)`` (module
    docstring, "Query table"): ``sa[j] ~ sum_{a + j <= t < b} v+_t e^{-c1 (t - a)}``, ``sb[j]``
    the same with ``e^{-(c1 + c2) (t - a)}`` (``0 <= j <= b - a``), within the relative bounds
    ``rel_a``, ``rel_b`` and the absolute one ``tiny``; ``beyond`` bounds ``sum_{t >= b} v+_t``
    (computed when an upper query first needs it)."""

    a: int
    b: int
    sa: np.ndarray
    sb: np.ndarray
    rel_a: float
    rel_b: float
    tiny: float
    beyond: float | None = None

    def covers(self, t0: int) -> bool:
        return self.a <= t0 <= self.b


def _suffix_inclusive(w: np.ndarray) -> np.ndarray:
    """``out[j] = sum_{i >= j} w_i`` (recursive summation from the right end), ``out[len] =
    0``."""
    out = np.empty(len(w) + 1)
    out[-1] = 0.0
    np.cumsum(w[::-1], out=out[-2::-1])
    return out


def _sum_ball(x: float, rel: float, tiny: float) -> flint.arb:
    """A ball holding every ``S >= 0`` with ``|x - S| <= rel S + tiny``: ``[(x - tiny) / (1 +
    rel), (x + tiny) / (1 - rel)]``."""
    xb, tb, rb = flint.arb(x), flint.arb(tiny), flint.arb(rel)
    return ((xb - tb) / (1 + rb)).union((xb + tb) / (1 - rb))


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
    _table: _Table | None = None  # the suffix sums of the last eps search (:meth:`_locate`)

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
        """A ball whose upper (upper kind) or lower (lower kind) end bounds ``delta(eps)``: the
        query's weighted sum from the suffix-sum table where it covers the query (O(1)), else
        a dot product over the window."""
        upper = self.kind == "upper"
        t0 = math.floor((eps - self.start) / self.h) + 1
        if t0 < 0:
            return flint.arb(1) if upper else flint.arb(0)
        with arb_precision(_PREC):
            scale = (self.log_c - _arb(self.lam_h * t0)).exp()
            if t0 >= len(self.values):
                dot = flint.arb(0)
            elif self._table is not None and self._table.covers(t0):
                dot = self._table_dot(self._table, t0, eps)
            else:
                dot = self._direct_dot(t0, eps)
            k = self.steps
            inner_err = self._transform_error(t0) + _arb(Fraction(self.eta_in))
            one_a = _arb(Fraction(self.a))
            if upper:
                inner = (dot + inner_err) / (1 - one_a) ** k + self.right
            else:
                inner = (dot - inner_err) / (1 + one_a) ** k - self.left - self.right
            return scale * inner + self.inf

    def _direct_dot(self, t0: int, eps: Fraction) -> flint.arb:
        """``sum_{t >= t0} v_t m'_t`` plus (upper kind) or minus its rounding bound: the dot
        product with the weight tables (:func:`_decay`, absolute error ``beta``), ``gamma_m``
        (Higham 2002, Sec. 3.1), normwise in ``||v||_1``."""
        e1, b1, e2, b2, l1 = self._weights()
        rho_ball = (_arb(eps - self.start - t0 * self.h)).exp()
        rho = float(rho_ball.mid())
        rho_err = float((rho_ball - _arb(Fraction(rho))).abs_upper()) * (1 + 4 * U)
        m_len = min(len(self.values) - t0, len(e1))  # beyond, the weights count as 0 (in b1)
        m2 = min(m_len, len(e2))
        m = e1[:m_len].copy()
        m[:m2] *= 1.0 - rho * e2[:m2]
        dot = fdot(self.values[t0:t0 + m_len], np.clip(m, 0.0, 1.0))
        beta = b1 + b2 + rho_err + 4 * U
        spread = _arb(Fraction((beta + 2 * _gamma(m_len + 2) * (1 + beta)) * l1))
        return _arb(Fraction(dot)) + (spread if self.kind == "upper" else -spread)

    def _table_dot(self, tab: _Table, t0: int, eps: Fraction) -> flint.arb:
        """A ball holding ``sum_{t0 <= t < b} v+_t m'_t``, plus (upper kind) a bound of the
        terms beyond ``b``: ``e^{c1 j} (SA_j - rho e^{c2 j} SB_j)``, ``j = t0 - a`` (module
        docstring, "Query table")."""
        j = t0 - tab.a
        sa = _sum_ball(float(tab.sa[j]), tab.rel_a, tab.tiny)
        sb = _sum_ball(float(tab.sb[j]), tab.rel_b, tab.tiny)
        rho = _arb(eps - self.start - t0 * self.h).exp()
        dot = _arb(self.lam_h * j).exp() * (sa - rho * _arb(self.h * j).exp() * sb)
        if self.kind == "upper" and tab.b < len(self.values):
            if tab.beyond is None:
                tab.beyond = _positive_sum_up(self.values[tab.b:])
            dot += (-_arb(self.lam_h * (tab.b - t0))).exp() * _arb(Fraction(tab.beyond))
        return dot

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

    def _locate(self, delta: float) -> float:
        """The float crossing of the window's profile with ``delta`` for the certified queries
        that follow: read off the suffix-sum table around the tilted mode
        (:meth:`_build_table`), kept for those queries; where the crossing lies outside the
        table's trusted part, by :meth:`eps_float`, and the table is rebuilt around it."""
        v = self.values
        tab = self._table
        if tab is None:
            tab = self._table = self._build_table(int(np.argmax(v)))
        got = self._table_crossing(tab, delta) if tab is not None else None
        if got is not None:
            return got
        guess = self.eps_float(delta)
        pos = math.floor((guess - float(self.start)) / float(self.h))
        if 0 <= pos < len(v):
            self._table = self._build_table(pos)
        return guess

    def _build_table(self, p: int) -> _Table | None:
        """The suffix sums over ``[p - L / c1, p + R / c1)`` (``TABLE_SPAN``, ``c1 = lam h``; the
        whole window without a tilt) within the window and the weight tables' range
        (``(c1 + c2) (b - a) <= MAX_EXPONENT``); None where that range is empty or ends less
        than ``TABLE_MARGIN`` right of ``p`` before the window's end."""
        n, c1 = len(self.values), float(self.lam_h)
        if c1 > 0:
            a, b = max(0, p - int(TABLE_SPAN[0] / c1)), min(n, p + int(TABLE_SPAN[1] / c1) + 1)
        else:
            a, b = 0, n
        b = min(b, a + int(MAX_EXPONENT / float(self.lam_h + self.h)), a + capacity(self.h),
                a + capacity(self.lam_h))
        t = b - a
        if t < 2 or (b < n and c1 * (b - p) < TABLE_MARGIN[1]):
            return None  # empty, or too short for the terms beyond it to decay
        e1, r1 = reciprocal(self.lam_h, t)
        e2, r2 = reciprocal(self.h, t)
        w = np.maximum(self.values[a:b], 0.0)
        w *= e1
        sa = _suffix_inclusive(w)
        w *= e2
        sb = _suffix_inclusive(w)
        g, u = 1 + Fraction(_gamma(t)), 1 + Fraction(U)
        rel_a = float_outward((1 + Fraction(r1)) * u * g - 1, True)
        rel_b = float_outward((1 + Fraction(r1)) * (1 + Fraction(r2)) * u * u * g - 1, True)
        return _Table(a, b, sa, sb, rel_a, rel_b, float(t + 1) * 2.0**-1072)

    def _table_crossing(self, tab: _Table, delta: float) -> float | None:
        """The crossing read off the table: the profile at ``eps = z_t`` is ``S (sa[j] - e^{c2
        (t - a)} sb[j]) + inf``, ``j = t + 1 - a``, ``S = C e^{-c1 a}`` (module docstring, "Query
        table"); the last position above ``delta`` by bisection (the profile decreases), then
        the solution within its cell. None where it is not in the table's trusted part (more
        than ``TABLE_MARGIN`` from an end that is not the window's)."""
        n, c1, c2 = len(self.values), float(self.lam_h), float(self.h)
        rest = delta - float(self.inf.mid())
        if not rest > 0:
            return None
        x = math.log(rest) - float(self.log_c.mid()) + c1 * tab.a
        if abs(x) > 700:
            return None
        q, a, sa, sb = math.exp(x), tab.a, tab.sa, tab.sb
        lo = a - 1 if a == 0 else a + (math.ceil(TABLE_MARGIN[0] / c1) if c1 > 0 else 0)
        hi = tab.b - 1 if tab.b == n else tab.b - 1 - (math.ceil(TABLE_MARGIN[1] / c1)
                                                       if c1 > 0 else 0)

        def above(t: int) -> bool:
            return float(sa[t + 1 - a]) - math.exp(c2 * (t - a)) * float(sb[t + 1 - a]) > q

        if not lo < hi or not above(lo) or above(hi):
            return None
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if above(mid) else (lo, mid)
        j = lo + 1 - a
        num, den = float(sa[j]) - q, float(sb[j])
        e = math.log(num / den) if num > 0 and den > 0 else (lo - a) * c2
        return float(self.start + a * self.h) + min(max(e, (lo - a) * c2), (lo + 1 - a) * c2)

    def eps_float(self, delta: float) -> float:
        """The float crossing of the window's profile with ``delta`` (a locator, no bound; the
        float model's, which makes no certified query: no table is built), computed within
        ``e^{+-600}`` of the tilted mode: the last position where the profile exceeds
        ``delta``. The tail sums run from the right end, so the values right of a position do
        not depend on where the range starts: the half range left of the mode is skipped
        unless the profile stays below ``delta`` right of it (the result is the same either
        way). The range first ends ``SCAN_REACH / c1`` right of the mode; a crossing found
        there at least ``SCAN_REACH / 2 / c1`` from that end is kept (the terms beyond weigh
        at most ``e^{-SCAN_REACH / 2}`` of its tail sums), else the whole range is scanned."""
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
        near = min(b, ref + int(SCAN_REACH / c1) + 1) if c1 > 0 else b
        for end in dict.fromkeys((near, b)):
            for start in dict.fromkeys((ref - (ref - a) // 2, a)):
                got = self._crossing(start, ref, end, scale, inf, delta)
                if got is not None:
                    if end == b or (end - ref - got / c2) * c1 >= SCAN_REACH / 2:
                        return z_ref + got
                    break
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
        delta``, or ``lower_limit``. Candidates at ``FIRST_GAP`` times ``LADDER^i`` (relative)
        from the float crossing, then bisection between the last failure and the first
        success down to ``RESOLUTION`` (``COARSE_RESOLUTION`` where the queries are not on the
        table): the result is that close to a point where the certified predicate fails (or
        to the float crossing, if the first candidate holds). Without a success on the
        ladder, bisection over the window (the true profile is monotone; no monotonicity of
        the bound is needed)."""
        d_lo, d_hi = _span(delta)
        top = self.start + len(self.values) * self.h
        bottom = max(lower_limit, self.start)
        if self.kind == "upper":
            def ok(e: Fraction) -> bool:
                return bool(self.delta_at(e) <= _arb(d_lo))

            guess = self._locate(float(d_lo))
            if guess <= lower_limit and ok(lower_limit):
                return lower_limit
            found, fail = _ladder(ok, max(guess, float(lower_limit)), True, lower_limit, top)
            if found is None:
                if not ok(top):
                    raise PrecisionExhausted("the upper Fourier PLD exceeds delta at its "
                                             "window's end")
                return _bisect(ok, bottom if fail is None else fail, top, True)
            near = _dyadic_floor(guess) if fail is None else fail
            return _bisect(ok, min(near, found), found, True, self._resolution(near, found))

        def ok(e: Fraction) -> bool:
            return bool(self.delta_at(e) > _arb(d_hi))

        guess = self._locate(float(d_hi))
        found, fail = _ladder(ok, guess, False, bottom, top)
        if found is None:
            if not ok(bottom):
                return lower_limit
            if fail is None and ok(top):
                return top
            return _bisect(ok, bottom, top if fail is None else fail, False)
        near = _dyadic_ceil(guess) if fail is None else fail
        return _bisect(ok, found, max(near, found), False, self._resolution(found, near))

    def _resolution(self, lo: Fraction, hi: Fraction) -> float:
        """``RESOLUTION`` where the table covers the queries between ``lo`` and ``hi``."""
        tab = self._table
        ends = (math.floor((e - self.start) / self.h) + 1 for e in (lo, hi))
        return (RESOLUTION if tab is not None and all(tab.covers(t) for t in ends)
                else COARSE_RESOLUTION)


def _ladder(ok: Callable[[Fraction], bool], guess: float, up: bool, low: Fraction,
            high: Fraction) -> tuple[Fraction | None, Fraction | None]:
    """``(first success, last failure)`` of ``ok`` at ``guess +- gap max(1, |guess|)``, ``gap
    = FIRST_GAP LADDER^i`` (upward for ``up``), within ``(low, high)`` (``[low, high)`` upward);
    None for what was not found."""
    gap, fail, size = FIRST_GAP, None, max(1.0, abs(guess))
    for _ in range(LADDER_STEPS):
        if up:
            cand = max(_dyadic_ceil(guess + gap * size), low)
            if cand >= high:
                break
        else:
            cand = _dyadic_floor(guess - gap * size)
            if cand <= low:
                break
        if ok(cand):
            return cand, fail
        fail, gap = cand, gap * LADDER
    return None, fail


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
            keep_true_high: bool, rel: float = 2.0**-48) -> Fraction:
    """Bisection keeping ``ok`` true at ``hi`` (``keep_true_high``) or at ``lo``, until they
    are ``rel max(1, |hi|)`` apart."""
    for _ in range(64):
        mid = _dyadic_floor(float((lo + hi) / 2), 60)
        if not lo < mid < hi or float(hi - lo) <= rel * max(1.0, abs(float(hi))):
            break
        if ok(mid) == keep_true_high:
            hi = mid
        else:
            lo = mid
    return hi if keep_true_high else lo


__all__ = ["FourierPLD"]
