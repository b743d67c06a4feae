"""Sub-boxes of a claim's region: integer enumeration, splitting, and the direct decision.

A :class:`SubBox` is the real intervals of one sub-box with one assignment of the integer
parameters; it is split along the side of largest smear (``sup |dg/dx_i| * width_i``) when
derivatives are known, else its widest side (geometrically for ``log_scale`` parameters).
:func:`decide_box` evaluates both sides of a check in :class:`~dpverify.theorems.ctx.ArbCtx`
with interval inputs and says whether the enclosures decide it for the whole sub-box.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import Box, Compare, Predicate
from dpverify.theorems.ctx import ArbCtx, Interval, PrecisionExhausted, Unsupported, arb_precision
from dpverify.verifiers.numeric import _decide_arb

START_BITS = 96


_EVAL_ERRORS = (PrecisionExhausted, Unsupported, ZeroDivisionError, ValueError, ArithmeticError,
                TypeError, OverflowError)


@dataclass
class SubBox:
    reals: dict[str, tuple[Fraction, Fraction]]
    ints: dict[str, int]
    depth: int = 0

    def free(self) -> list[str]:
        """The real parameters not fixed to a point."""
        return [n for n, (lo, hi) in self.reals.items() if lo < hi]

    def point(self) -> dict[str, Any]:
        p: dict[str, Any] = dict(self.ints)
        for k, (lo, hi) in self.reals.items():
            p[k] = (lo + hi) / 2
        return p

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: [_f(lo), _f(hi)] for k, (lo, hi) in self.reals.items()}
        d.update(self.ints)
        return d


def _f(x: Fraction) -> str:
    return f"{float(x):.6g}"


def _int_assignments(box: Box) -> Iterator[dict[str, int]]:
    names = list(box.ints)
    ranges = [range(lo, hi + 1) for lo, hi in (box.ints[n] for n in names)]
    for combo in itertools.product(*ranges):
        yield dict(zip(names, combo, strict=True))


def _width(name: str, lo: Fraction, hi: Fraction, log_scale: frozenset[str]) -> float:
    if name in log_scale and lo > 0:
        return math.log(float(hi) / float(lo))
    return float(hi - lo)


def _split(sub: SubBox, log_scale: frozenset[str],
           scores: Mapping[str, float] | None = None) -> tuple[SubBox, SubBox]:
    """Halve ``sub`` along the variable of largest score (its smear), else the widest side."""
    free = sub.free()
    if scores:
        name = max(free, key=lambda n: (scores.get(n, math.inf),
                                        _width(n, *sub.reals[n], log_scale)))
    else:
        name = max(free, key=lambda n: _width(n, *sub.reals[n], log_scale))
    lo, hi = sub.reals[name]
    if name in log_scale and lo > 0:
        mid = Fraction(math.sqrt(float(lo) * float(hi)))
        if not lo < mid < hi:
            mid = (lo + hi) / 2
    else:
        mid = (lo + hi) / 2
    left = dict(sub.reals)
    right = dict(sub.reals)
    left[name] = (lo, mid)
    right[name] = (mid, hi)
    return SubBox(left, sub.ints, sub.depth + 1), SubBox(right, sub.ints, sub.depth + 1)


def _fixed_values(fixed: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (Fraction(v) if isinstance(v, str) else v) for k, v in fixed.items()}


def _box_params(sub: SubBox, fixed: Mapping[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {k: Interval(lo, hi) for k, (lo, hi) in sub.reals.items()}
    params.update(sub.ints)
    params.update(_fixed_values(fixed))
    return params


def _arb_fraction(q: Fraction) -> flint.arb:
    if q.denominator == 1:
        return flint.arb(flint.fmpz(q.numerator))
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def _arb_interval(lo: Fraction, hi: Fraction) -> flint.arb:
    if lo == hi:
        return _arb_fraction(lo)
    return _arb_fraction(lo).union(_arb_fraction(hi))


def _lift_arb(x: Any) -> flint.arb:
    if isinstance(x, flint.arb):
        return x
    if isinstance(x, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(x, int):
        return flint.arb(flint.fmpz(x))
    if isinstance(x, Fraction):
        return _arb_fraction(x)
    if isinstance(x, float):
        return flint.arb(x)
    raise TypeError(f"cannot use {type(x).__name__} in a dual number")


def decide_box(check: Compare | Predicate, params: Mapping[str, Any], prec: int) -> bool | None:
    """Certified decision for a whole box: True/False for every point, None if undecided."""
    ctx = ArbCtx(prec)
    try:
        if isinstance(check, Predicate):
            return ctx.run(check.test, **params)
        lhs = ctx.run(check.lhs, **params)
        rhs = ctx.run(check.rhs, **params)
    except (PrecisionExhausted, ZeroDivisionError, ValueError):
        return None
    with arb_precision(prec):
        holds, _ = _decide_arb(flint.arb(lhs), check.op, flint.arb(rhs), check.tol)
    return holds
