"""sympy expressions: exact symbolic forms, derivatives and polynomial claims for z3."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from dpverify.theorems.ctx.base import Ctx, _as_fraction
from dpverify.theorems.errors import Unsupported


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

    def ninv(self, p: Any) -> Any:
        """The exact standard normal quantile ``Phi^{-1}(p) = -sqrt(2) erfcinv(2p)``."""
        return -self.sp.sqrt(2) * self.sp.erfcinv(2 * p)

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
