"""python-flint ``arb`` balls: rigorous enclosures, and exact conversions of balls.

Comparisons return ``True``/``False`` only when the balls decide them, ``None`` (undecided)
otherwise; a branch on an undecided comparison takes the hull of both branches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx.base import Ctx, _as_fraction
from dpverify.theorems.errors import PrecisionExhausted

# Small integers as balls, made once: an integer ball is exact at every precision and balls are
# immutable, so one object serves every formula (formulas ask for 0, 1, 2, ... millions of times).
_SMALL_INT = 1 << 12
_INT_BALLS: dict[int, flint.arb] = {}


def _int_ball(n: int) -> flint.arb:
    if -_SMALL_INT <= n <= _SMALL_INT:
        ball = _INT_BALLS.get(n)
        if ball is None:
            ball = _INT_BALLS[n] = flint.arb(flint.fmpz(n))
        return ball
    return flint.arb(flint.fmpz(n))


_ZERO, _ONE = _int_ball(0), _int_ball(1)


def _arb_from_fraction(q: Fraction) -> flint.arb:
    if q.denominator == 1:
        return _int_ball(q.numerator)
    return flint.arb(flint.fmpq(q.numerator, q.denominator))  # rounded at the working precision


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
        if type(x) is int:
            return _int_ball(x)
        return _arb_from_fraction(_as_fraction(x))

    @property
    def zero(self) -> flint.arb:
        return _ZERO

    @property
    def one(self) -> flint.arb:
        return _ONE

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

    def pos(self, x: Any) -> flint.arb:
        """``max(x, 0)``: :meth:`max` of the two without its argument loop (~3 * 10^5 calls in a
        quick run)."""
        return flint.arb(x).max(_ZERO)

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
