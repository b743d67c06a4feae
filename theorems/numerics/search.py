"""One-dimensional float searches: starting points and monotone boundaries.

Golden section and hill climbing (integer and real arguments), a safeguarded secant root of an
increasing function, and the largest integer satisfying a monotone predicate. These choose
points; the rigour of a result never rests on them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any


def golden_section_int(f: Callable[[int], float], lo: int, hi: int) -> int:
    """An integer maximiser of a unimodal ``f`` on ``[lo, hi]`` by golden section (cached
    evaluations; exhaustive on the last few points)."""
    cache: dict[int, float] = {}

    def F(i: int) -> float:
        if i not in cache:
            cache[i] = f(i)
        return cache[i]

    a, b = lo, hi
    invphi = (math.sqrt(5) - 1) / 2
    while b - a > 6:
        c = b - round((b - a) * invphi)
        d = a + round((b - a) * invphi)
        if c >= d:
            c, d = (a + b) // 2, (a + b) // 2 + 1
        if F(c) < F(d):
            a = c
        else:
            b = d
    return max(range(a, b + 1), key=lambda i: (F(i), -i))


def hill_climb_int(f: Callable[[int], float], lo: int, hi: int, start: int) -> int:
    """A local maximiser of f on [lo, hi] by hill climbing from ``start`` with doubling
    strides (the float path's unimodality assumption: DDR-FIG1 claim 6)."""
    x = min(max(start, lo), hi)
    fx = f(x)
    for direction in (1, -1):
        step = 1
        while True:
            y = min(max(x + direction * step, lo), hi)
            if y == x:
                break
            fy = f(y)
            if fy > fx:
                x, fx = y, fy
                step *= 2
            elif step > 1:
                step = 1
            else:
                break
    return x


def golden_section_max(f: Callable[[Any], Any], lo: Any, hi: Any, iters: int) -> Any:
    """The argmax of a unimodal f on [lo, hi] by golden-section search (mpmath numbers)."""
    invphi = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - (b - a) * invphi, a + (b - a) * invphi
    fc, fd = f(c), f(d)
    for _ in range(iters):
        if fc < fd:
            a, c, fc = c, d, fd
            d = a + (b - a) * invphi
            fd = f(d)
        else:
            b, d, fd = d, c, fc
            c = b - (b - a) * invphi
            fc = f(c)
    return (a + b) / 2


def secant_root_increasing(g: Callable[[Any], Any], lo: Any, hi: Any, x0: Any, x1: Any,
                     iters: int) -> Any:
    """A root of an increasing g in [lo, hi] by the secant method from x0, x1, falling back to
    bisection whenever a step leaves the bracket."""
    g0, g1 = g(x0), g(x1)
    for _ in range(iters):
        if g1 == g0:
            break
        x2 = x1 - g1 * (x1 - x0) / (g1 - g0)
        if not lo < x2 < hi:
            x2 = (lo + hi) / 2
        g2 = g(x2)
        if g2 > 0:
            hi = x2
        else:
            lo = x2
        if x2 == x1:
            break
        x0, g0, x1, g1 = x1, g1, x2, g2
    return x1


def largest_satisfying(ok: Callable[[int], bool], start: int, guess: int | None = None) -> int:
    """The largest ``k >= start`` with ``ok(k)`` for a monotone predicate (true up to the answer,
    false beyond); ``ok(start)`` must hold (or start = 0). Steps out from ``guess`` (or
    ``start``) by doubling strides, then bisects."""
    lo = start
    hi: int | None = None
    if guess is not None and guess > lo:
        if ok(guess):
            lo = guess
        else:
            hi = guess
            step = 1
            while True:
                cand = hi - step
                if cand <= lo:
                    break
                if ok(cand):
                    lo = cand
                    break
                hi = cand
                step *= 2
    if hi is None:
        step = 1 if guess is not None else max(1, lo)
        while True:
            cand = lo + step
            if not ok(cand):
                hi = cand
                break
            lo = cand
            step *= 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo
