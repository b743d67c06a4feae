"""Arithmetic contexts: one formula, several arithmetics.

Every formula of the catalogue is written once as ``f(ctx, **params)`` against the small protocol
below and evaluated in:

- :class:`MpCtx`: mpmath at a stated precision (a private ``MPContext``, no global state);
- :class:`ArbCtx`: python-flint ``arb`` balls, a rigorous enclosure. Comparisons return
  ``True``/``False`` only when the balls decide them, ``None`` (undecided) otherwise; a branch
  on an undecided comparison takes the hull of both branches, which stays rigorous;
- :class:`FloatCtx`: plain floats, only to mirror what accountants compute;
- :class:`SymCtx`: sympy expressions, for derivatives and the polynomial forms given to z3.

Inputs are exact :class:`fractions.Fraction` values (or intervals of them for :class:`ArbCtx`,
which is how the interval verifier evaluates a formula over a whole box).

Main results
------------
- the contexts above and :func:`make_ctx`;
- ``ctx.solve``: the least ``x >= lo`` at which a monotone formula crosses a target, by
  bisection with certified comparisons (an enclosure of the crossing in ``ArbCtx``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import flint
import mpmath

from dpverify.theorems.errors import PrecisionExhausted as PrecisionExhausted
from dpverify.theorems.errors import Unsupported as Unsupported

Number = Any  # the context's number type


def _as_fraction(x: Any) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int | str):
        return Fraction(x)
    raise TypeError(f"exact input expected, got {type(x).__name__}")


class Ctx:
    """The protocol; subclasses implement the primitive operations."""

    name = "abstract"
    rigorous = False
    prec = 53

    # -- construction -------------------------------------------------------------------
    def num(self, x: Fraction | int | str) -> Number:
        raise NotImplementedError

    def run(self, formula: Callable[..., Any], **params: Any) -> Any:
        """Evaluate ``formula(self, **params)`` with exact parameters converted.

        Parameters named in ``formula.exact_params`` (a tuple of names, if the attribute is set)
        are passed unconverted: exact ``Fraction``/``int`` values, tuples of them, or
        :class:`Interval` values; the formula converts them itself (e.g. to validate a slack
        ``delta - k*delta0 > 0`` exactly, or to round ``eps_i/step`` up exactly).
        """
        keep = getattr(formula, "exact_params", ())
        return formula(self, **{k: (v if k in keep else self.convert(v))
                                for k, v in params.items()})

    def convert(self, v: Any) -> Any:
        if isinstance(v, bool | str) or v is None:
            return v
        if isinstance(v, int) and not isinstance(v, bool):
            return v  # integers (k, n, m) stay Python ints: they index sums
        if isinstance(v, Fraction):
            return self.num(v)
        if isinstance(v, tuple | list):
            return tuple(self.convert(x) for x in v)
        if isinstance(v, Interval):
            return self.interval(v.lo, v.hi)
        return v

    def interval(self, lo: Fraction, hi: Fraction) -> Number:
        raise Unsupported(f"{self.name} cannot represent an interval")

    # -- constants --------------------------------------------------------------------------
    @property
    def zero(self) -> Number:
        return self.num(0)

    @property
    def one(self) -> Number:
        return self.num(1)

    @property
    def pi(self) -> Number:
        raise NotImplementedError

    @property
    def inf(self) -> Number:
        raise NotImplementedError

    # -- elementary functions ----------------------------------------------------------------
    def exp(self, x: Number) -> Number:
        raise NotImplementedError

    def log(self, x: Number) -> Number:
        raise NotImplementedError

    def log1p(self, x: Number) -> Number:
        raise NotImplementedError

    def expm1(self, x: Number) -> Number:
        raise NotImplementedError

    def sqrt(self, x: Number) -> Number:
        raise NotImplementedError

    def erfc(self, x: Number) -> Number:
        raise NotImplementedError

    def tanh(self, x: Number) -> Number:
        raise NotImplementedError

    def lgamma(self, x: Number) -> Number:
        raise NotImplementedError

    def ncdf(self, x: Number) -> Number:
        """Standard normal CDF Phi(x) = erfc(-x/sqrt 2)/2, accurate in both tails."""
        return self.erfc(-x / self.sqrt(self.num(2))) / 2

    def binomial(self, n: int, k: int) -> Number:
        return self.num(math.comb(n, k))

    def fsum(self, xs: Iterable[Number]) -> Number:
        total = self.zero
        for x in xs:
            total = total + x
        return total

    def logsumexp(self, xs: Iterable[Number]) -> Number:
        xs = list(xs)
        m = self.max(*xs)
        return m + self.log(self.fsum(self.exp(x - m) for x in xs))

    def pow(self, x: Number, y: Number) -> Number:
        return x**y

    # -- order ------------------------------------------------------------------------------
    def lt(self, a: Number, b: Number) -> bool | None:
        return bool(a < b)

    def le(self, a: Number, b: Number) -> bool | None:
        return bool(a <= b)

    def max(self, *xs: Number) -> Number:
        return max(xs)

    def min(self, *xs: Number) -> Number:
        return min(xs)

    def pos(self, x: Number) -> Number:
        """Positive part ``max(x, 0)``."""
        return self.max(x, self.zero)

    def abs(self, x: Number) -> Number:
        return abs(x)

    def hull(self, a: Number, b: Number) -> Number:
        raise Unsupported(f"{self.name} cannot take the hull of two values")

    def piecewise_lt(
        self, x: Number, t: Number, below: Callable[[], Number], above: Callable[[], Number]
    ) -> Number:
        """``below()`` if ``x < t`` else ``above()``; the hull of both when undecided."""
        c = self.lt(x, t)
        if c is True:
            return below()
        if c is False:
            return above()
        return self.hull(below(), above())

    # -- analysis ---------------------------------------------------------------------------
    def quad(self, f: Callable[[Number], Number], points: list[Number]) -> Number:
        raise Unsupported(f"quadrature is not available in the {self.name} context")

    def solve(
        self,
        f: Callable[[Number], Number],
        target: Number,
        lo: Fraction | int,
        hi: Fraction | int | None = None,
        decreasing: bool = True,
        max_doublings: int = 200,
    ) -> Number:
        """Least ``x >= lo`` with ``f(x) <= target`` (``f`` decreasing) or ``>= target``.

        Bisection with this context's comparisons. In a rigorous context the result is a ball
        containing the crossing: ``lo`` only moves to points certified to lie before it and
        ``hi`` to points certified to lie after it.
        """

        def past(x: Any) -> bool | None:
            value = f(x)
            return self.le(value, target) if decreasing else self.le(target, value)

        lo_x = self.num(lo)
        if past(lo_x) is True:
            return lo_x
        width = self.one if hi is None else self.num(hi) - lo_x
        hi_x = lo_x + width
        for _ in range(max_doublings):
            c = past(hi_x)
            if c is True:
                break
            if c is None:  # undecided this far out: the enclosure cannot be bounded above
                raise PrecisionExhausted("cannot bracket the crossing at this precision")
            lo_x = hi_x
            width = width * 2
            hi_x = hi_x + width
        else:
            return self.inf
        tol_bits = self.prec + 4
        for _ in range(4 * tol_bits + 64):
            if self.bracket_narrow(lo_x, hi_x, tol_bits):
                break
            mid = self.midpoint(lo_x, hi_x)
            if bool(mid == lo_x) or bool(mid == hi_x):
                break  # adjacent points at this precision: the bracket cannot shrink further
            c = past(mid)
            if c is True:
                hi_x = mid
            elif c is False:
                lo_x = mid
            else:
                break  # undecided: the ball's own width limits the enclosure
        return self.bracket_value(lo_x, hi_x)

    def midpoint(self, a: Number, b: Number) -> Number:
        return (a + b) / 2

    def bracket_narrow(self, a: Number, b: Number, bits: int) -> bool:
        scale = max(abs(a), abs(b), 2 ** (-bits))
        return bool(b - a <= scale * 2 ** (-bits))

    def bracket_value(self, a: Number, b: Number) -> Number:
        return (a + b) / 2


class Interval:
    """A closed interval of exact numbers, an input of :class:`ArbCtx` for a whole box."""

    __slots__ = ("hi", "lo")

    def __init__(self, lo: Fraction | int, hi: Fraction | int) -> None:
        self.lo, self.hi = Fraction(lo), Fraction(hi)
        if self.lo > self.hi:
            raise ValueError("empty interval")

    def __repr__(self) -> str:
        return f"Interval({self.lo}, {self.hi})"


# ------------------------------------------------------------------------------------------
# mpmath


_MP_CONTEXTS: dict[int, Any] = {}


def _mp_context(prec: int) -> Any:
    """One private mpmath context per precision, kept so that quadrature nodes are reused."""
    m = _MP_CONTEXTS.get(prec)
    if m is None:
        m = mpmath.MPContext()
        m.prec = prec
        _MP_CONTEXTS[prec] = m
    return m


class MpCtx(Ctx):
    """mpmath at ``prec`` bits, in a private context (no global precision is touched)."""

    name = "mp"

    def __init__(self, prec: int = 113) -> None:
        self.prec = prec
        self.m = _mp_context(prec)

    def num(self, x: Fraction | int | str) -> Any:
        q = _as_fraction(x)
        if q.denominator == 1:
            return self.m.mpf(q.numerator)
        return self.m.mpf(q.numerator) / q.denominator

    @property
    def pi(self) -> Any:
        return +self.m.pi

    @property
    def inf(self) -> Any:
        return self.m.inf

    def exp(self, x: Any) -> Any:
        return self.m.exp(x)

    def log(self, x: Any) -> Any:
        return self.m.log(x)

    def log1p(self, x: Any) -> Any:
        return self.m.log1p(x)

    def expm1(self, x: Any) -> Any:
        return self.m.expm1(x)

    def sqrt(self, x: Any) -> Any:
        return self.m.sqrt(x)

    def erfc(self, x: Any) -> Any:
        return self.m.erfc(x)

    def tanh(self, x: Any) -> Any:
        return self.m.tanh(x)

    def lgamma(self, x: Any) -> Any:
        return self.m.loggamma(x)

    def ncdf(self, x: Any) -> Any:
        return self.m.erfc(-x / self.m.sqrt(2)) / 2

    def fsum(self, xs: Iterable[Any]) -> Any:
        return self.m.fsum(xs)

    def pow(self, x: Any, y: Any) -> Any:
        return self.m.power(x, y)

    def hull(self, a: Any, b: Any) -> Any:
        raise Unsupported("mp cannot take a hull; undecided comparisons do not occur in mp")

    def quad(self, f: Callable[[Any], Any], points: list[Any]) -> Any:
        return self.m.quad(f, points)


# ------------------------------------------------------------------------------------------
# python-flint arb


def _arb_from_fraction(q: Fraction) -> flint.arb:
    if q.denominator == 1:
        return flint.arb(flint.fmpz(q.numerator))
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


@contextmanager
def arb_precision(prec: int) -> Iterator[None]:
    """Set flint's global working precision for a block (results and their endpoints)."""
    saved = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        yield
    finally:
        flint.ctx.prec = saved


def arb_to_fraction(x: flint.arb) -> Fraction:
    """The exact value of an exact ``arb`` (a midpoint or an endpoint)."""
    man, exp = x.man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def arb_endpoints(x: flint.arb) -> tuple[Fraction, Fraction]:
    """Exact rational endpoints of a finite ball (mid -/+ rad, computed exactly)."""
    if not x.is_finite():
        raise PrecisionExhausted("the enclosure is not finite")
    mid, rad = arb_to_fraction(x.mid()), arb_to_fraction(x.rad())
    return mid - rad, mid + rad


class ArbCtx(Ctx):
    """python-flint ``arb`` balls at ``prec`` bits: rigorous enclosures.

    flint's working precision is global; :meth:`run` sets it for the duration of a formula.
    """

    name = "arb"
    rigorous = True

    def __init__(self, prec: int = 128) -> None:
        self.prec = prec

    def run(self, formula: Callable[..., Any], **params: Any) -> Any:
        with arb_precision(self.prec):
            return super().run(formula, **params)

    def num(self, x: Fraction | int | str) -> flint.arb:
        return _arb_from_fraction(_as_fraction(x))

    def interval(self, lo: Fraction, hi: Fraction) -> flint.arb:
        return _arb_from_fraction(lo).union(_arb_from_fraction(hi))

    @property
    def pi(self) -> flint.arb:
        return flint.arb.pi()

    @property
    def inf(self) -> flint.arb:
        return flint.arb.pos_inf()

    def exp(self, x: flint.arb) -> flint.arb:
        return x.exp()

    def log(self, x: flint.arb) -> flint.arb:
        return x.log()

    def log1p(self, x: flint.arb) -> flint.arb:
        return x.log1p()

    def expm1(self, x: flint.arb) -> flint.arb:
        return x.expm1()

    def sqrt(self, x: flint.arb) -> flint.arb:
        return x.sqrt()

    def erfc(self, x: flint.arb) -> flint.arb:
        return x.erfc()

    def tanh(self, x: flint.arb) -> flint.arb:
        return x.tanh()

    def lgamma(self, x: flint.arb) -> flint.arb:
        return x.lgamma()

    def pow(self, x: Any, y: Any) -> flint.arb:
        if isinstance(y, int) and not isinstance(y, bool):
            # python-flint's ``ball ** int`` is nan when the ball contains 0; square and multiply
            base, result, n = flint.arb(x), flint.arb(1), abs(y)
            if n % 2 == 0:
                base = abs(base)
            while n:
                if n & 1:
                    result = result * base
                n >>= 1
                if n:
                    base = base * base
            return result if y >= 0 else 1 / result
        return flint.arb(x) ** flint.arb(y)

    def lt(self, a: Any, b: Any) -> bool | None:
        a, b = flint.arb(a), flint.arb(b)
        if a < b:
            return True
        if a >= b:
            return False
        return None

    def le(self, a: Any, b: Any) -> bool | None:
        a, b = flint.arb(a), flint.arb(b)
        if a <= b:
            return True
        if a > b:
            return False
        return None

    def max(self, *xs: Any) -> flint.arb:
        out = flint.arb(xs[0])
        for x in xs[1:]:
            out = out.max(flint.arb(x))
        return out

    def min(self, *xs: Any) -> flint.arb:
        out = flint.arb(xs[0])
        for x in xs[1:]:
            out = out.min(flint.arb(x))
        return out

    def abs(self, x: Any) -> flint.arb:
        return abs(flint.arb(x))

    def hull(self, a: Any, b: Any) -> flint.arb:
        return flint.arb(a).union(flint.arb(b))

    def midpoint(self, a: flint.arb, b: flint.arb) -> flint.arb:
        return ((a + b) / 2).mid()  # an exact point: bisection works on points

    def bracket_narrow(self, a: flint.arb, b: flint.arb, bits: int) -> bool:
        width = b.upper() - a.lower()
        scale = self.max(abs(a), abs(b), flint.arb(2) ** (-bits))
        return bool(width <= scale * flint.arb(2) ** (-bits))

    def bracket_value(self, a: flint.arb, b: flint.arb) -> flint.arb:
        return a.union(b)


# ------------------------------------------------------------------------------------------
# floats


class FloatCtx(Ctx):
    """IEEE doubles: what an accountant computes. Never used to certify anything."""

    name = "fp"
    prec = 53

    def num(self, x: Fraction | int | str) -> float:
        return float(_as_fraction(x))

    @property
    def pi(self) -> float:
        return math.pi

    @property
    def inf(self) -> float:
        return math.inf

    def exp(self, x: float) -> float:
        try:
            return math.exp(x)
        except OverflowError:
            return math.inf

    def log(self, x: float) -> float:
        return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)

    def log1p(self, x: float) -> float:
        return math.log1p(x)

    def expm1(self, x: float) -> float:
        try:
            return math.expm1(x)
        except OverflowError:
            return math.inf

    def sqrt(self, x: float) -> float:
        return math.sqrt(x)

    def erfc(self, x: float) -> float:
        return math.erfc(x)

    def tanh(self, x: float) -> float:
        return math.tanh(x)

    def lgamma(self, x: float) -> float:
        return math.lgamma(x)

    def fsum(self, xs: Iterable[float]) -> float:
        return math.fsum(xs)

    def pow(self, x: float, y: float) -> float:
        return float(x) ** y


# ------------------------------------------------------------------------------------------
# sympy


class SymCtx(Ctx):
    """sympy expressions: exact symbolic forms, derivatives and polynomial claims for z3."""

    name = "sym"
    prec = 0

    def __init__(self) -> None:
        import sympy

        self.sp = sympy

    def convert(self, v: Any) -> Any:
        if isinstance(v, self.sp.Basic):
            return v
        return super().convert(v)

    def num(self, x: Fraction | int | str) -> Any:
        q = _as_fraction(x)
        return self.sp.Rational(q.numerator, q.denominator)

    @property
    def pi(self) -> Any:
        return self.sp.pi

    @property
    def inf(self) -> Any:
        return self.sp.oo

    def exp(self, x: Any) -> Any:
        return self.sp.exp(x)

    def log(self, x: Any) -> Any:
        return self.sp.log(x)

    def log1p(self, x: Any) -> Any:
        return self.sp.log(1 + x)

    def expm1(self, x: Any) -> Any:
        return self.sp.exp(x) - 1

    def sqrt(self, x: Any) -> Any:
        return self.sp.sqrt(x)

    def erfc(self, x: Any) -> Any:
        return self.sp.erfc(x)

    def tanh(self, x: Any) -> Any:
        return self.sp.tanh(x)

    def lgamma(self, x: Any) -> Any:
        return self.sp.loggamma(x)

    def binomial(self, n: Any, k: Any) -> Any:
        return self.sp.binomial(n, k)

    def fsum(self, xs: Iterable[Any]) -> Any:
        return self.sp.Add(*xs)

    def pow(self, x: Any, y: Any) -> Any:
        return x**y

    def _decide(self, rel: Any) -> bool | None:
        if rel in (self.sp.true, self.sp.false):
            return bool(rel)
        return None

    def lt(self, a: Any, b: Any) -> bool | None:
        return self._decide(self.sp.Lt(a, b))

    def le(self, a: Any, b: Any) -> bool | None:
        return self._decide(self.sp.Le(a, b))

    def max(self, *xs: Any) -> Any:
        return self.sp.Max(*xs)

    def min(self, *xs: Any) -> Any:
        return self.sp.Min(*xs)

    def abs(self, x: Any) -> Any:
        return self.sp.Abs(x)

    def piecewise_lt(
        self, x: Any, t: Any, below: Callable[[], Any], above: Callable[[], Any]
    ) -> Any:
        c = self.lt(x, t)
        if c is not None:
            return below() if c else above()
        return self.sp.Piecewise((below(), self.sp.Lt(x, t)), (above(), True))

    def solve(self, *args: Any, **kwargs: Any) -> Any:
        raise Unsupported("the sym context has no numerical root finding")


def make_ctx(name: str, prec: int = 113) -> Ctx:
    """A context by name: ``mp``, ``arb``, ``fp`` or ``sym``."""
    if name == "mp":
        return MpCtx(prec)
    if name == "arb":
        return ArbCtx(prec)
    if name == "fp":
        return FloatCtx()
    if name == "sym":
        return SymCtx()
    raise ValueError(f"unknown context {name!r}")


def digits_to_bits(digits: int) -> int:
    return math.ceil(digits * math.log2(10))
