"""Certified one-dimensional searches: the maximum of a unimodal function (golden section) and
the root of an increasing function (bracketing and bisection), both on exact points of the
context so that arb returns enclosures.
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.ctx import PrecisionExhausted


def exact_point(ctx: Any, x: Any) -> Any:
    """An exact point near ``x`` (the ball's midpoint in arb; ``x`` itself elsewhere)."""
    return ctx.midpoint(x, x)


def golden_section_max(ctx: Any, f: Any, a: Any, b: Any, fprime: Any = None) -> Any:
    """Maximum of a unimodal ``f`` on ``[a, b]`` by golden-section search.

    Near the maximiser f is flat to second order, so ``prec/2`` bits of the abscissa give the
    full precision of the value. In a rigorous context a step whose comparison of ``f(c)`` and
    ``f(d)`` is undecided is decided by the sign of ``fprime`` at ``d`` or ``c`` when that is
    certified (unimodality: ``f' > 0`` before the maximiser, ``< 0`` after); the search stops
    when neither decides. Given ``fprime`` it returns an enclosure ``[max(f(c), f(d)), f(m) +
    |f'([a, b])| (b - a)/2]`` of the supremum (without ``fprime``: a lower bound only).
    """
    invphi = (ctx.sqrt(ctx.num(5)) - 1) / 2
    a, b = exact_point(ctx, a), exact_point(ctx, b)
    c, d = exact_point(ctx, b - invphi * (b - a)), exact_point(ctx, a + invphi * (b - a))
    fc, fd = f(c), f(d)
    zero = ctx.zero
    for _ in range(int(ctx.prec * 0.75) + 20):
        right_lower = ctx.lt(fd, fc)  # True: f(c) > f(d), the maximiser lies in [a, d]
        if right_lower is None and fprime is not None:
            # f(c) and f(d) too close to order (f is flat at the top, or symmetric about the
            # maximiser): the sign of f' decides instead, as f' > 0 before the maximiser
            # and f' < 0 after it
            if ctx.lt(fprime(d), zero) is True:
                right_lower = True
            elif ctx.lt(zero, fprime(c)) is True:
                right_lower = False
        if right_lower is None:
            break  # undecided: the bracket cannot be narrowed rigorously at this precision
        if right_lower:
            b, d, fd = d, c, fc
            c = exact_point(ctx, b - invphi * (b - a))
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = exact_point(ctx, a + invphi * (b - a))
            fd = f(d)
    best = ctx.max(fc, fd)
    if not ctx.rigorous or fprime is None:
        return best
    m = ctx.midpoint(a, b)
    upper = f(m) + ctx.abs(fprime(ctx.hull(a, b))) * (b - a) / 2
    return ctx.hull(best, upper)


def bracket_increasing_root(ctx: Any, g: Any, start: Any) -> Any:
    """The root of a strictly increasing continuous ``g`` on the real line, bracketed.

    Moves down from ``start`` until ``g < 0`` is certified, up until ``g > 0`` is certified,
    then bisects on exact points with the context's comparisons until the bracket is narrow
    (or a comparison is undecided). Returns ``ctx.bracket_value(lo, hi)``: in arb the ball
    ``[lo, hi]``, which contains the root because ``g(lo) < 0 < g(hi)`` were certified.
    """
    lo = exact_point(ctx, start)
    step = ctx.one
    for _ in range(80):
        c = ctx.lt(g(lo), ctx.zero)
        if c is True:
            break
        if c is None:
            raise PrecisionExhausted("cannot certify the sign of the stationarity condition")
        lo = lo - step
        step = step * 2
    else:
        raise PrecisionExhausted("no certified lower bracket for the stationary order")
    step = ctx.one
    hi = lo + step
    for _ in range(200):
        c = ctx.lt(ctx.zero, g(hi))
        if c is True:
            break
        if c is None:
            raise PrecisionExhausted("cannot certify the sign of the stationarity condition")
        lo = hi
        step = step * 2
        hi = hi + step
    else:
        raise PrecisionExhausted("no certified upper bracket for the stationary order")
    bits = ctx.prec + 8
    for _ in range(6 * bits + 64):
        if ctx.bracket_narrow(lo, hi, bits):
            break
        mid = ctx.midpoint(lo, hi)
        if bool(mid == lo) or bool(mid == hi):
            break  # adjacent points at this precision
        v = g(mid)
        if ctx.lt(v, ctx.zero) is True:
            lo = mid
        elif ctx.lt(ctx.zero, v) is True:
            hi = mid
        else:
            break
    return ctx.bracket_value(lo, hi)
