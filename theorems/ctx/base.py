"""The arithmetic-context protocol :class:`Ctx` and the exact :class:`Interval` input.

A formula is written once as ``f(ctx, **params)`` against :class:`Ctx`; the concrete contexts
(:mod:`.mp`, :mod:`.arb`, :mod:`.fp`, :mod:`.sym`) implement its primitive operations.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from dpverify.theorems.errors import PrecisionExhausted, Unsupported

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


def digits_to_bits(digits: int) -> int:
    return math.ceil(digits * math.log2(10))
