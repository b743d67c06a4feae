"""A rigorous one-dimensional maximiser in arb: :func:`bb_maximize`.

Branch and bound with mean-value, second-order and concavity bounds and monotonicity pruning:
an enclosure of ``max_t F(t)`` over an interval, rigorous whatever the stopping point.
Its work is limited up front, in boxes and in seconds (:class:`NoConvergence` past the latter).
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import ArbCtx, PrecisionExhausted, Unsupported, arb_to_fraction
from dpverify.theorems.errors import NoConvergence

# The branch-and-bound maximiser stops at a relative width of 2^-(prec - 24), at most 2^-128.
BB_MAX_BITS = 128
# Wall-clock limit of one maximisation. The catalogue's 97 calls (DDR-T3, DDR-L32, DDR-C31,
# DR19-BR, DDR-T4, DDR-T5) took at most 1.3 s each on 2 shared cores at load 8 (2026-11-26); a
# search still open after 10 s is one whose enclosures do not tighten (a derivative enclosure
# that lost its sign information), which the box limit alone let run for minutes per precision.
BB_MAX_SECONDS = 10.0


Enclose = Callable[[Fraction, Fraction], tuple[Any, Any, Any]]


def bb_maximize(ctx: Any, value: Callable[[Fraction], Any], enclose: Enclose, lo: Fraction,
                hi: Fraction, slope: Callable[[Fraction], Any] | None = None,
                max_boxes: int = 20000, max_seconds: float = BB_MAX_SECONDS) -> Any:
    """An arb enclosure of ``max_{t in [lo, hi]} F(t)`` by branch and bound.

    ``value(t)`` encloses F at an exact point and ``slope(t)`` its derivative there (or None);
    ``enclose(a, b)`` returns enclosures over ``[a, b]`` of F, of a (generalised) derivative and
    of the second derivative (each possibly None). A sub-interval whose derivative has a
    certified sign is replaced by its upper end point value (F is monotone there); otherwise
    the upper bound is the least of the direct enclosure, the mean-value form ``F(c) + |F'(B)|
    h`` and the second-order form ``F(c) + |F'(c)| h + max(F''(B), 0) h^2/2`` (``c`` the centre,
    ``h`` the half width) and, where F'' is certified negative, the concave bound
    ``F(x) + F'(x)^2/(2 m)`` at a Newton point x (``-m`` the upper end of F''). Sub-intervals
    whose upper bound is below the best point value are discarded; the search stops when the
    largest upper bound is within ``2^-(prec-24)`` (relative; ``2^-(prec-8)`` absolute; at most
    ``2^-BB_MAX_BITS``) of the best point value. The result is the ball ``[best point value,
    largest upper bound]``: rigorous whatever the stopping point (only arb is accepted).
    A safeguard compares the derivative enclosures with difference quotients first.

    Limits: after ``max_boxes`` boxes the (rigorous, wider) ball is returned as it stands; after
    ``max_seconds`` of wall clock :class:`NoConvergence` is raised (the caller's value is then
    undecided, and raising the precision would only repeat the search).
    """
    if not isinstance(ctx, ArbCtx):
        raise Unsupported("the branch-and-bound maximiser runs in arb only")
    prec = ctx.prec
    rel = flint.arb(2) ** (-min(prec - 24, BB_MAX_BITS))
    absol = flint.arb(2) ** (-min(prec - 8, BB_MAX_BITS + 16))

    lowers: list[Any] = []

    def upper_of(a: Fraction, b: Fraction) -> Any:
        rng, der, der2 = enclose(a, b)
        up = flint.arb(rng).upper() if rng is not None else flint.arb.pos_inf()
        if der is None or not flint.arb(der).is_finite():
            return up
        der = flint.arb(der)
        if der > 0:
            return up.min(flint.arb(value(b)).upper())
        if der < 0:
            return up.min(flint.arb(value(a)).upper())
        c = (a + b) / 2
        half = arb_fraction((b - a) / 2)
        fc = flint.arb(value(c))
        up = up.min((fc + abs(der) * half).upper())
        if der2 is None or slope is None or not flint.arb(der2).is_finite():
            return up
        der2 = flint.arb(der2)
        s1 = slope(c)
        if s1 is None:
            return up
        s1 = flint.arb(s1)
        m2 = der2.upper().max(0)
        up = up.min((fc + abs(s1) * half + m2 * half * half / 2).upper())
        if der2 < 0:
            # concave on the box: F(t) <= F(x) + F'(x)^2/(2 m) for every x and t in it, with
            # -m the upper end of F''; x is a Newton step from c (any point is valid)
            m = -der2.upper()
            try:
                step = Fraction(float(s1.mid()) / float(der2.mid()))
            except (ZeroDivisionError, OverflowError, ValueError):
                step = Fraction(0)
            x = min(max(c - step, a), b)
            sx = slope(x)
            if sx is not None:
                fx = flint.arb(value(x))
                lowers.append(fx.lower())
                up = up.min((fx + flint.arb(sx) * flint.arb(sx) / (2 * m)).upper())
        return up

    deadline = time.monotonic() + max_seconds
    _check_derivatives(value, enclose, slope, lo, hi, prec)
    best = flint.arb(value(lo)).lower()
    for t in ((lo + hi) / 2, hi):
        best = best.max(flint.arb(value(t)).lower())
    counter = itertools.count()
    heap: list[tuple[Fraction, int, Fraction, Fraction, Any]] = []
    u0 = upper_of(lo, hi)
    while lowers:
        best = best.max(lowers.pop())
    if not u0.is_finite():
        raise PrecisionExhausted("no finite enclosure of the objective")
    heapq.heappush(heap, (-arb_to_fraction(u0), next(counter), lo, hi, u0))
    boxes = 0
    while heap:
        _, _, a, b, up = heap[0]
        if up - best <= rel * abs(best) + absol:
            break
        if boxes >= max_boxes:
            break
        if time.monotonic() > deadline:
            raise NoConvergence(f"branch and bound over [{float(lo):.6g}, {float(hi):.6g}] "
                                f"did not close within its {max_seconds:g} s limit ({boxes} "
                                f"boxes; enclosure [{best.str(5, radius=False)}, "
                                f"{up.str(5, radius=False)}])")
        heapq.heappop(heap)
        boxes += 1
        c = (a + b) / 2
        best = best.max(flint.arb(value(c)).lower())
        for x, y in ((a, c), (c, b)):
            u = upper_of(x, y)
            while lowers:
                best = best.max(lowers.pop())
            if not u.is_finite():
                raise PrecisionExhausted("no finite enclosure of the objective")
            if u >= best:
                heapq.heappush(heap, (-arb_to_fraction(u), next(counter), x, y, u))
    top = best
    for entry in heap:
        top = top.max(entry[4])
    return best.union(top)


def _check_derivatives(value: Callable[[Fraction], Any], enclose: Enclose,
                       slope: Callable[[Fraction], Any] | None, lo: Fraction, hi: Fraction,
                       prec: int) -> None:
    """A safeguard, not a source of rigour: at three interior points the derivative
    enclosures of a tiny interval must contain the difference quotients of the value (and of
    the slope), else the objective's derivative formulas are wrong and the maximiser refuses to
    run (a verifier crash, never a wrong enclosure)."""
    h = Fraction(1, 2 ** max(20, prec // 3))
    for frac in (Fraction(3, 10), Fraction(1, 2), Fraction(7, 10)):
        t = lo + (hi - lo) * frac
        a, b = t - h, t + h
        _, d1, d2 = enclose(a, b)
        q1 = (flint.arb(value(b)) - flint.arb(value(a))) / arb_fraction(2 * h)
        if d1 is not None and flint.arb(d1).is_finite() and not flint.arb(d1).overlaps(q1):
            raise AssertionError(f"derivative enclosure {d1} misses the difference quotient "
                                 f"{q1} at t = {float(t)}")
        if d2 is not None and slope is not None and flint.arb(d2).is_finite():
            sa, sb = slope(a), slope(b)
            if sa is not None and sb is not None:
                q2 = (flint.arb(sb) - flint.arb(sa)) / arb_fraction(2 * h)
                if not flint.arb(d2).overlaps(q2):
                    raise AssertionError(f"second-derivative enclosure {d2} misses the "
                                         f"difference quotient {q2} at t = {float(t)}")


def arb_fraction(x: Fraction) -> Any:
    if x.denominator == 1:
        return flint.arb(flint.fmpz(x.numerator))
    return flint.arb(flint.fmpq(x.numerator, x.denominator))


def monotone_span(f: Callable[[Fraction], Any], a: Fraction, b: Fraction) -> Any:
    """The hull of a monotone function's values at the two ends of ``[a, b]``."""
    return flint.arb(f(a)).union(flint.arb(f(b)))
