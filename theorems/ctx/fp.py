"""IEEE doubles: what an accountant computes, only to mirror it (never to certify)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

from dpverify.theorems.ctx.base import Ctx, _as_fraction


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
