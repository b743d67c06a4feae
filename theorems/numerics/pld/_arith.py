"""Small rigorous helpers of the PLD engine: arb conversions, certain comparisons, outward
rounding of masses to integer units, exact spans of balls."""

from __future__ import annotations

import bisect
import itertools
import math
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted, arb_to_fraction

U = 2.0**-53  # unit round-off of float64


def float_outward(x: Fraction, up: bool) -> float:
    """The float next to the exact rational ``x`` on its ``up`` (or lower) side: ``x`` itself
    when it is a float, else the nearest float one step outward if rounding went inward."""
    f = float(x)
    if up and Fraction(f) < x:
        f = math.nextafter(f, math.inf)
    if not up and Fraction(f) > x:
        f = math.nextafter(f, -math.inf)
    return f

PREC = 128  # working precision of the one-step masses (bits)
EVAL_PREC = 192  # precision of the delta evaluation of a composed PLD
HALF = Fraction(1, 2)

Number = Any  # flint.arb or an exact Fraction/int


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



# --- float64 with outward rounding (the vectorised one-step constructions) ---
# Every IEEE operation (+, -, *, /) is correctly rounded to nearest (Higham 2002, Sec. 2.2, the
# standard model fl(x op y) = (x op y)(1 + d), |d| <= u = 2^-53, also with gradual underflow up
# to an absolute 2^-1075); the float one step towards -inf (+inf) of a correctly rounded result
# is therefore at most (at least) the exact one: the rounding error is at most half a spacing
# on the side of the exact value, one step is a whole spacing.


SMALL = 2048  # arrays below this size: np.nextafter itself (measured cheaper there)


def up(x: Any) -> Any:
    """One float step towards +inf: an upper bound of the exact value of a rounded operation.

    Bitwise ``np.nextafter(x, inf)`` (a test compares them on zeros, subnormals, the largest
    floats, infinities and NaN), cheaper on large arrays (measured: the vectorised lower PLD of
    C and A 63 -> 45 ms): the IEEE binary64 encodings of the finite floats, read as signed
    integers, are ordered like the floats on each side of zero, so the next float up is the
    encoding plus 1 for ``+0`` and positive floats and minus 1 for negative ones (``-0`` is
    first mapped to ``+0`` by adding ``+0``, exact in round to nearest); non-finite lanes
    (rare) and small arrays (where ``np.nextafter`` is cheaper) are left to ``np.nextafter``."""
    if np.size(x) < SMALL:
        return np.nextafter(x, np.inf)
    return up_owned(np.add(x, 0.0, dtype=np.float64))  # a new array


def down(x: Any) -> Any:
    """One float step towards -inf: a lower bound of the exact value of a rounded operation
    (``-up(-x)``, bitwise ``np.nextafter(x, -inf)``)."""
    if np.size(x) < SMALL:
        return np.nextafter(x, -np.inf)
    return down_owned(np.array(x, dtype=np.float64))  # a new array


def up_owned(y: np.ndarray) -> np.ndarray:
    """:func:`up` of a float64 array that the caller owns (a temporary of its own expression),
    stepped in place and returned: the same bits without a copy (each full-length temporary
    costs as much as a pass over it on this machine)."""
    if y.size < SMALL:
        return np.nextafter(y, np.inf, out=y)
    y += 0.0  # -0.0 + 0.0 = +0.0
    _step_up(y, np.inf)
    return y


def down_owned(y: np.ndarray) -> np.ndarray:
    """:func:`down` of a float64 array that the caller owns, in place (``-up(-y)``)."""
    if y.size < SMALL:
        return np.nextafter(y, -np.inf, out=y)
    np.negative(y, out=y)
    y += 0.0  # -0.0 + 0.0 = +0.0
    _step_up(y, -np.inf)
    np.negative(y, out=y)
    return y


STEP_CHUNK = 8192  # entries per chunk of _step_up's sign temporary (64 KB, reused)


def _step_up(y: np.ndarray, direction: float) -> None:
    """``y`` (no ``-0``; for ``down`` the negated array) one float up, in place; its non-finite
    lanes set to ``np.nextafter`` of the value before, read in ``y``'s orientation (``-`` for
    ``down``: the caller negates ``y`` back). The sign temporary is one small buffer reused
    chunk by chunk (measured: a fresh full-length temporary per call costs its page faults,
    ~0.5 ms per 10^5 entries on this machine), and finiteness is read from the minimum and
    the maximum (NaN propagates through both) before any mask is made."""
    fix = None
    if y.size and not (math.isfinite(y.min()) and math.isfinite(y.max())):
        bad = ~np.isfinite(y)
        x = y[bad] if direction > 0 else -y[bad]  # the operand's own non-finite values
        stepped = np.nextafter(x, direction)
        fix = (bad, stepped if direction > 0 else -stepped)
    if not y.flags.c_contiguous:  # (not met: the callers' arrays are fresh) a stepped copy
        flat = np.ascontiguousarray(y).reshape(-1)
        _step_bits(flat.view(np.int64))
        y[...] = flat.reshape(y.shape)
    else:
        _step_bits(y.reshape(-1).view(np.int64))  # a view of y
    if fix is not None:
        y[fix[0]] = fix[1]


def _step_bits(bits: np.ndarray) -> None:
    """The encodings ``bits`` (1-D) plus 1 where the sign bit is clear, minus 1 where set."""
    buf = np.empty(min(len(bits), STEP_CHUNK), dtype=np.int64)
    for start in range(0, len(bits), STEP_CHUNK):
        part = bits[start:start + STEP_CHUNK]
        sign = buf[:len(part)]
        np.right_shift(part, 63, out=sign)  # 0 for a clear sign bit, -1 for a set one
        sign |= 1  # +1 or -1: bits + 1 for a clear sign bit, bits - 1 for a set one
        part += sign


def fdot(x: np.ndarray, y: np.ndarray) -> float:
    """``sum_i x_i y_i`` in float64 without BLAS: the products, then numpy's pairwise sum.
    ``np.dot`` goes to a multithreaded OpenBLAS whose threads, measured on this 2-core
    machine under load, cost 10-50x the work in CPU time on vectors of 10^4-10^6 entries
    (e.g. 80 ms instead of 2 ms per saddle-point search on scenario C). The rounding bound of
    a dot product, ``|fl - exact| <= gamma_n sum |x_i y_i|``, holds for every order of
    summation (N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., SIAM
    2002, Sec. 3.1), so the certified callers keep their bounds."""
    return float(np.sum(np.multiply(x, y)))


def float_bounds(x: flint.arb) -> tuple[float, float]:
    """Floats ``lo <= x <= hi`` for every value of the ball (one step outward of the nearest
    floats of its ends)."""
    return (float(np.nextafter(float(x.lower()), -np.inf)),
            float(np.nextafter(float(x.upper()), np.inf)))


def float_bounds_many(balls: list[flint.arb]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`float_bounds` of many balls (the same floats): the nearest floats of their
    ends, one step outward, in one ``np.nextafter`` per side."""
    lo = np.array([float(b.lower()) for b in balls], dtype=np.float64)
    hi = np.array([float(b.upper()) for b in balls], dtype=np.float64)
    return np.nextafter(lo, -np.inf), np.nextafter(hi, np.inf)


class UnitAccumulator:
    """Exact integer masses (units of ``2^-bits``) at ``n`` grid points, added from float arrays
    of exact nonnegative integers (vectorised) or from Python ints.

    A float unit count ``u`` is split exactly into ``hi 2^s + lo`` (``s = max(32, bits - 60)``,
    ``hi = floor(u 2^-s)``, ``lo = u - hi 2^s``: scaling by a power of two and the subtraction of
    the float's own leading part are exact) and both parts are summed in int64: the total mass of
    a one-step PLD is at most ``4`` (checked), so the ``hi`` sums stay below ``2^62`` and the
    ``lo`` sums below ``n 2^s``. Beyond ``bits = 94`` the ``lo`` sums could overflow: the floats
    are then added one by one as Python ints."""

    def __init__(self, n: int, bits: int) -> None:
        self.n, self.bits = n, bits
        self.shift = max(32, bits - 60)
        self.vectorised = bits <= 94
        self.hi = np.zeros(n, dtype=np.int64)
        self.lo = np.zeros(n, dtype=np.int64)
        self.extra: dict[int, int] = {}
        self.total = 0.0

    def add_floats(self, idx: np.ndarray | int, units: np.ndarray) -> None:
        """Add ``units[k]`` at ``idx[k]`` (repeated indices allowed); an int ``idx``: at the
        consecutive indices ``idx, idx + 1, ...`` (slice adds instead of ``np.add.at``)."""
        if units.size == 0:
            return
        if not (np.all(np.isfinite(units)) and np.all(units >= 0)):
            raise PrecisionExhausted("a mass in units is not a finite nonnegative number")
        self.total += float(np.sum(units)) * 2.0**-self.bits
        if self.total > 4:
            raise PrecisionExhausted(f"the one-step masses sum to {self.total} > 4")
        if isinstance(idx, int):
            run = slice(idx, idx + len(units))
            if not self.vectorised:
                idx = np.arange(run.start, run.stop)
        if not self.vectorised:
            for i, u in zip(idx.tolist(), units.tolist(), strict=True):
                if u:
                    self.add_int(i, int(u))
            return
        scale = 2.0**self.shift
        hi = np.floor(units / scale)
        lo = units - hi * scale
        if isinstance(idx, int):
            if idx < 0 or run.stop > self.n:
                raise IndexError("a run of units outside the accumulator")
            self.hi[run] += hi.astype(np.int64)
            self.lo[run] += lo.astype(np.int64)
            return
        np.add.at(self.hi, idx, hi.astype(np.int64))
        np.add.at(self.lo, idx, lo.astype(np.int64))

    def add_int(self, i: int, v: int) -> None:
        if v:
            self.extra[i] = self.extra.get(i, 0) + v

    def poly(self) -> flint.fmpz_poly:
        return self.result()[0]

    def result(self) -> tuple[flint.fmpz_poly, np.ndarray]:
        """The masses as an ``fmpz_poly`` and as the nearest float64 of each integer
        (:meth:`coefficients`, built at once)."""
        coeffs = self.coefficients()
        return coeffs.poly(), coeffs.floats

    def coefficients(self) -> UnitCoefficients:
        """The masses as :class:`UnitCoefficients` (the ``fmpz_poly`` built on demand). Each
        ``hi 2^s + lo`` is formed in int64 where ``hi < 2^(62 - s)`` (then both parts are below
        ``2^62``, see the class docstring), as a Python int elsewhere (rare; every nonzero
        ``hi`` once ``s > 62``, i.e. ``bits > 122``: the tiny deltas of a delta enclosure)."""
        s = self.shift
        big = self.hi >= (1 << (62 - s)) if s <= 62 else self.hi > 0
        add = dict(self.extra)
        hi, lo = self.hi, self.lo
        if big.any():
            for i in np.flatnonzero(big).tolist():
                add[i] = add.get(i, 0) + (int(hi[i]) << s) + int(lo[i])
            hi, lo = np.where(big, 0, hi), np.where(big, 0, lo)
        return UnitCoefficients(hi, lo, s, add)


class UnitCoefficients:
    """Exact nonnegative integers ``c_i = hi_i 2^s + lo_i + add_i`` (int64 parts, ``hi_i <
    2^(62 - s)``; a few Python ints ``add``) without trailing zeros, with the nearest float64 of
    each (read-only ``floats``; numpy's int64 -> float64 conversion and Python's ``float(int)``
    both round to nearest, ties to even, as ``fmpz.__float__`` does:
    :meth:`.discrete.DiscretePLD.unit_floats`). The ``fmpz_poly`` is built on demand
    (:meth:`poly`, ~10 ms for 2 10^5 coefficients, most of it the conversion of Python ints:
    the Fourier route reads only the floats, the length, the total and the tails of the
    trimming). The sums of the parts fit int64 (:class:`UnitAccumulator`: ``sum hi <= 2^62``,
    ``sum lo <= n 2^s``), so every prefix sum is exact."""

    def __init__(self, hi: np.ndarray, lo: np.ndarray, s: int, add: dict[int, int]) -> None:
        self.s, self.add = s, {i: v for i, v in add.items() if v}
        nz = np.flatnonzero((hi != 0) | (lo != 0))
        n = max(int(nz[-1]) + 1 if len(nz) else 0, max(self.add, default=-1) + 1)
        self.hi, self.lo, self.length = hi[:n], lo[:n], n
        floats = ((self.hi << s) + self.lo).astype(np.float64)
        for i in self.add:
            floats[i] = float(self.value(i))
        floats.flags.writeable = False
        self.floats = floats
        self._cums: tuple[np.ndarray, np.ndarray] | None = None
        self._add_cums: tuple[list[int], list[int]] = ([], [0])

    def value(self, i: int) -> int:
        return (int(self.hi[i]) << self.s) + int(self.lo[i]) + self.add.get(i, 0)

    def poly(self) -> flint.fmpz_poly:
        vals = ((self.hi << self.s) + self.lo).tolist()
        for i, v in self.add.items():
            vals[i] += v
        return flint.fmpz_poly(vals)

    def prefix(self, m: int) -> int:
        """``c_0 + ... + c_{m-1}``, exact."""
        if m <= 0:
            return 0
        if self._cums is None:
            self._cums = (np.cumsum(self.hi), np.cumsum(self.lo))
            keys = sorted(self.add)  # the Python ints' indices and prefix sums (exact ints)
            self._add_cums = (keys, [0, *itertools.accumulate(self.add[i] for i in keys)])
        m = min(m, self.length)
        keys, sums = self._add_cums
        return ((int(self._cums[0][m - 1]) << self.s) + int(self._cums[1][m - 1])
                + sums[bisect.bisect_left(keys, m)])

    def total(self) -> int:
        return self.prefix(self.length)

    def sliced(self, i: int, j: int, add0: int = 0) -> UnitCoefficients:
        """``c_i .. c_{j-1}`` (trailing zeros dropped), ``add0`` added to the first."""
        add = {k - i: v for k, v in self.add.items() if i <= k < j}
        if add0:
            add[0] = add.get(0, 0) + add0
        return UnitCoefficients(self.hi[i:j], self.lo[i:j], self.s, add)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, UnitCoefficients):
            other = other.poly()
        return bool(self.poly() == other)

    __hash__ = None  # type: ignore[assignment]
