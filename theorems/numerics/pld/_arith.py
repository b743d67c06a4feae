"""Small rigorous helpers of the PLD engine: arb conversions, certain comparisons, outward
rounding of masses to integer units, exact spans of balls."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import PrecisionExhausted, arb_to_fraction

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

