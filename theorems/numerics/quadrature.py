"""Quadrature helpers shared by the formula routes: truncation windows whose tails lie below the
working precision, evaluation of far-tail integrand values to absolute accuracy only, and
rigorous ``acb.integral`` windows with an explicit tail bound.

Gaussian integrals are truncated ``L`` standard deviations from their centre and exponential
ones ``T`` scales from their kinks, with ``Phi(-L), e^{-T} <= 2^{-prec} e^{-16}``: the truncation
error sits below the working precision.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import flint


def exp_cutoff(ctx: Any) -> Any:
    """``T`` with ``e^{-T} = 2^{-prec} e^{-16}``: exponential tails beyond ``T`` scales are below
    the working precision."""
    return ctx.num(ctx.prec) * ctx.log(ctx.num(2)) + 16


def gauss_cutoff(ctx: Any) -> Any:
    """``L`` with ``e^{-L^2/2} = 2^{-prec} e^{-16}`` (so ``Phi(-L)`` is smaller still)."""
    return ctx.sqrt(2 * exp_cutoff(ctx))


def absolute_accuracy(ctx: Any, small_bits: float, thunk: Any) -> Any:
    """``thunk()`` for an integrand value known to be at most ``2^{-small_bits}`` times the scale
    of its integral. In mpmath it is evaluated with the working precision lowered by
    ``small_bits - 16`` bits, or replaced by 0 when ``small_bits > prec + 24``: every value keeps
    an accuracy of about ``2^{-prec-16}`` of the scale, far below the tolerances of the checks
    (``erfc``/``exp`` far in a tail are slow in mpmath at high precision, and tanh-sinh puts
    many nodes there). Elsewhere (arb, floats) the thunk is evaluated as is.
    """
    m = getattr(ctx, "m", None)
    drop = int(small_bits) - 16
    if m is None or drop <= 0:
        return thunk()
    if small_bits > ctx.prec + 24:
        return ctx.zero
    with m.workprec(max(ctx.prec - drop, 53)):
        return thunk()


def per_precision(ctx: Any, make: Callable[[], Any]) -> Callable[[], Any]:
    """``make()`` for an integrand's constant, evaluated once per working precision of the
    mpmath context (quadrature raises it by guard bits, :func:`absolute_accuracy` lowers it):
    the very value the integrand would compute at each node, computed once. Outside mpmath
    ``make()`` is called each time."""
    m = getattr(ctx, "m", None)
    if m is None:
        return make
    memo: dict[int, Any] = {}

    def value() -> Any:
        prec = m.prec
        v = memo.get(prec)
        if v is None:
            v = memo[prec] = make()
        return v

    return value


LOG2 = math.log(2)


def acb_window_integral(f: Callable[[flint.acb], flint.acb], a: flint.arb, b: flint.arb,
                         tail: flint.arb) -> flint.arb:
    """``∫_a^b f`` by ``acb.integral`` (f entire) plus a tail in ``[0, tail]`` (f >= 0 beyond
    the window and bounded by ``tail`` in total)."""
    core = flint.acb.integral(lambda y, _an: f(y), a, b).real
    return core + flint.arb(0).union(tail)


def window_width() -> float:
    return math.sqrt(2 * (flint.ctx.prec * math.log(2) + 20))
