"""Parameter values as formulas receive them: exact rationals, intervals or context numbers.

Formulas that need some parameters exactly (to test a slack ``delta - k*delta0 > 0`` exactly, to
round ``eps_i/step`` up, to enumerate exact privacy losses) mark them with :func:`exact_params`;
:meth:`theorems.ctx.Ctx.run` then passes them unconverted. The helpers below turn such values
into context numbers, or into floats used only to guess indices and starting points (never to
decide anything).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import Interval, PrecisionExhausted, Unsupported
from dpverify.theorems.ctx.arb import arb_to_fraction


def exact_params(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark the parameters a formula wants unconverted (see ``Ctx.run``)."""

    def mark(f: Callable[..., Any]) -> Callable[..., Any]:
        f.exact_params = names  # type: ignore[attr-defined]
        return f

    return mark


def is_exact(v: Any) -> bool:
    return isinstance(v, Fraction | int) and not isinstance(v, bool)


def to_ctx(ctx: Any, v: Any) -> Any:
    """A parameter as a number of ``ctx``: exact values, decimal strings and intervals are
    converted; numbers of the context pass through."""
    if is_exact(v):
        return ctx.num(v)
    if isinstance(v, str):
        return ctx.num(Fraction(v))
    if isinstance(v, Interval):
        return ctx.interval(v.lo, v.hi)
    return v


def approx_float(x: Any) -> float:
    """A float near ``x`` (the midpoint of a ball or interval)."""
    if isinstance(x, Fraction | int | float):
        return float(x)
    if isinstance(x, flint.fmpq):  # correctly rounded, as for a Fraction
        return float(Fraction(int(x.p), int(x.q)))
    if isinstance(x, Interval):
        return float((x.lo + x.hi) / 2)
    if isinstance(x, flint.arb):
        if not x.mid().is_finite():
            raise PrecisionExhausted("a ball is not finite")
        return float(x.mid())
    inner = getattr(x, "v", None)  # dual numbers of the interval verifier
    if isinstance(inner, flint.arb):
        return approx_float(inner)
    try:
        return float(x)
    except (TypeError, ValueError):
        raise Unsupported(f"cannot approximate {type(x).__name__} by a float") from None


def fraction_near(x: Any) -> Fraction:
    """The exact rational value of the midpoint of ``x`` (a ball's centre, an mpf, a Fraction):
    for orderings and guesses that must not lose what a float rounds away."""
    if isinstance(x, Fraction | int):
        return Fraction(x)
    if isinstance(x, flint.arb):
        if not x.mid().is_finite():
            raise PrecisionExhausted("a ball is not finite")
        return arb_to_fraction(x.mid())
    man_exp = getattr(x, "man_exp", None)
    if man_exp is not None:  # mpmath mpf
        man, ex = man_exp
        return Fraction(int(man)) * Fraction(2) ** int(ex)
    return Fraction(float(x))


def float_bounds(x: Any) -> tuple[float, float]:
    """Float bounds ``lo <= x <= hi`` (outward by one ulp), for index ranges."""
    if isinstance(x, flint.arb):
        if not x.is_finite():
            raise PrecisionExhausted("a ball is not finite")
        lo, hi = float(x.lower()), float(x.upper())
    elif isinstance(getattr(x, "v", None), flint.arb):
        return float_bounds(x.v)
    elif isinstance(x, Interval):
        lo, hi = float(x.lo), float(x.hi)
    else:
        lo = hi = approx_float(x)
    return math.nextafter(lo, -math.inf), math.nextafter(hi, math.inf)
