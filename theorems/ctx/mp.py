"""mpmath at a stated precision, in a private ``MPContext`` (no global state)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

import mpmath

from dpverify.theorems.ctx.base import Ctx, _as_fraction
from dpverify.theorems.errors import Unsupported

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
        # mpf values are immutable: one 0 and one 1 serve every formula (asked for ~10^5 times
        # a run, each a Fraction and an mpf built otherwise)
        self._zero, self._one = self.m.mpf(0), self.m.mpf(1)

    @property
    def zero(self) -> Any:
        return self._zero

    @property
    def one(self) -> Any:
        return self._one

    def num(self, x: Fraction | int | str) -> Any:
        if type(x) is int:
            return self.m.mpf(x)
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
