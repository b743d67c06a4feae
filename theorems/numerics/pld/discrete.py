"""Discrete PLDs in integer units ``2^-B`` and their exact composition (``fmpz_poly``
products with outward rescaling, accounted trimming, repeated squaring) and certified queries
(``delta_at``, ``eps_bound``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision
from dpverify.theorems.numerics.pld._arith import (
    EVAL_PREC,
    Number,
    UnitCoefficients,
    _arb,
    _certain_le,
    _certain_lt,
    _dyadic_ceil,
    _dyadic_floor,
    _span,
)


@dataclass
class DiscretePLD:
    """Masses ``poly[i] 2^-B`` at losses ``shift + i h``, plus ``inf 2^-B`` at ``+inf``.

    ``kind == "upper"``: every hockey-stick value computed from it bounds the true one above;
    ``"lower"``: below. ``trim`` is the tail budget (units) of one truncation per side.
    """

    kind: str
    h: Fraction
    shift: Fraction
    _poly: flint.fmpz_poly | UnitCoefficients  # the second built into the first when read
    inf: int
    B: int
    trim: int
    steps: int = 1
    _float_cache: Any = field(default=None, repr=False)
    _units_cache: Any = field(default=None, repr=False, compare=False)

    @property
    def poly(self) -> flint.fmpz_poly:
        """The masses in units as an ``fmpz_poly`` (built on first read from
        :class:`._arith.UnitCoefficients`: the Fourier route never reads it)."""
        got = self._poly
        if isinstance(got, UnitCoefficients):
            built = got.poly()
            if self._units_cache is not None and self._units_cache[0] is got:
                self._units_cache = (built, self._units_cache[1])
            self._poly = got = built
        return got

    @poly.setter
    def poly(self, value: flint.fmpz_poly) -> None:
        self._poly = value

    def __len__(self) -> int:
        got = self._poly
        return got.length if isinstance(got, UnitCoefficients) else got.length()

    def loss(self, i: int) -> Fraction:
        return self.shift + i * self.h

    def total_units(self) -> int:
        got = self._poly
        return (got.total() if isinstance(got, UnitCoefficients) else int(got(1))) + self.inf

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
                # ceil <= floor + 1 (measured: cheaper than ceil = -floor(-x), two negations)
                c = c + _ones(n)
            inf = -((-x) >> self.B)
        else:
            inf = x >> self.B
        out = DiscretePLD(self.kind, self.h, self.shift + other.shift, c, inf, self.B,
                          max(self.trim, other.trim), self.steps + other.steps)
        return out._trimmed()

    def _trimmed(self) -> DiscretePLD:
        if isinstance(self._poly, UnitCoefficients):
            got = self._trimmed_lazy(self._poly)
            if got is not None:
                return got
        c = self.poly
        n = c.length()
        if n == 0:
            return self
        budget = self.trim
        i, acc = _tail_within(c, n, budget, left=True)
        j, acc2 = n - 1, 0
        if i < n:
            m, acc2 = _tail_within(c, n - i - 1, budget, left=False)
            j = n - 1 - m
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
        out = DiscretePLD(self.kind, self.h, self.shift + i * self.h, kept, inf, self.B,
                          self.trim, self.steps)
        hit = self._units_cache
        if hit is not None and hit[0] is c and kept.length() <= j + 1 - i:
            units = hit[1][i:i + kept.length()].copy()  # the kept coefficients' floats
            if self.kind == "upper" and acc and len(units):
                units[0] = float(kept[0])  # nearest, as unit_floats converts
            units.flags.writeable = False
            out.set_unit_floats(units)
        return out

    def _trimmed_lazy(self, c: UnitCoefficients) -> DiscretePLD | None:
        """:meth:`_trimmed` on unbuilt coefficients: the same tails (the largest prefix and
        suffix within the budget, from exact prefix sums), the same kept coefficients and
        floats; None where everything is within the budget (then the poly route)."""
        n = c.length
        if n == 0:
            return self
        budget = self.trim
        i = _largest_within(c.prefix, n, budget)
        if i >= n:
            return None
        acc = c.prefix(i)
        total = c.total()
        m = _largest_within(lambda k: total - c.prefix(n - k), n - i - 1, budget)
        acc2 = total - c.prefix(n - m)
        j = n - 1 - m
        if i == 0 and j == n - 1:
            return self
        upper = self.kind == "upper"
        kept = c.sliced(i, j + 1, acc if upper else 0)
        out = DiscretePLD(self.kind, self.h, self.shift + i * self.h, kept,
                          self.inf + acc2 if upper else self.inf, self.B, self.trim,
                          self.steps)
        out.set_unit_floats(kept.floats)
        return out

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

    def set_unit_floats(self, units: np.ndarray) -> None:
        """Record the nearest floats of the integer masses, computed by the caller (e.g.
        :meth:`._arith.UnitAccumulator.result`), so :meth:`unit_floats` need not convert."""
        if len(units) != len(self) or units.flags.writeable:
            raise ValueError("the unit floats must be read-only, one per coefficient")
        self._units_cache = (self._poly, units)

    def unit_floats(self) -> np.ndarray:
        """The integer masses as float64, each the nearest float of its integer (python-flint's
        ``fmpz.__float__``; a test pins the rounding), computed once per ``poly`` and shared
        by the float locators and the FFT routes (read-only)."""
        hit = self._units_cache
        got = self._poly
        if hit is not None and hit[0] is got:
            return hit[1]
        if isinstance(got, UnitCoefficients):  # its own floats, without building the poly
            self._units_cache = (got, got.floats)
            return got.floats
        if hit is None or hit[0] is not self.poly:
            units = np.array([float(c) for c in self.poly.coeffs()], dtype=np.float64)
            units.flags.writeable = False
            hit = self._units_cache = (self.poly, units)
        return hit[1]

    def _floats(self) -> tuple[list[float], float]:
        if self._float_cache is None:
            scale = 2.0 ** (-self.B)
            self._float_cache = ((self.unit_floats() * scale).tolist(),
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


def _largest_within(tail_sum: Any, limit: int, budget: int) -> int:
    """The largest ``m <= limit`` with ``tail_sum(m) <= budget`` (``tail_sum`` nondecreasing,
    ``tail_sum(0) = 0``)."""
    return _bisect_within(tail_sum, budget, 0, limit + 1)


def _bisect_within(tail_sum: Any, budget: int, good: int, bad: int) -> int:
    """The largest ``m`` in ``[good, bad)`` with ``tail_sum(m) <= budget``, by bisection, given
    ``tail_sum(good) <= budget`` and that ``bad`` is over (or past the limit)."""
    while bad - good > 1:
        mid = (good + bad) // 2
        if tail_sum(mid) <= budget:
            good = mid
        else:
            bad = mid
    return good


def _tail_within(c: flint.fmpz_poly, limit: int, budget: int, left: bool) -> tuple[int, int]:
    """The largest ``m <= limit`` whose ``m`` first (``left``) or last coefficients of ``c``
    (nonnegative) sum to at most ``budget``, and that sum: exponential then binary search on
    exact sums computed in C (``fmpz_poly`` evaluation at 1), O(m log m) work instead of a
    Python loop over the coefficients."""
    n = c.length()

    def tail_sum(m: int) -> int:
        if m <= 0:
            return 0
        return int((c.truncate(m) if left else c.right_shift(n - m))(1))

    good, bad = 0, None
    step = 64
    while bad is None:
        m = min(good + step, limit)
        if m <= good:
            return good, tail_sum(good)
        if tail_sum(m) <= budget:
            good = m
            if m == limit:
                return good, tail_sum(good)
            step *= 2
        else:
            bad = m
    good = _bisect_within(tail_sum, budget, good, bad)
    return good, tail_sum(good)


def _ones(n: int) -> flint.fmpz_poly:
    """``1 + x + ... + x^{n-1}``."""
    one = flint.fmpz_poly([1])
    return (one.left_shift(n) - 1) // flint.fmpz_poly([-1, 1])

