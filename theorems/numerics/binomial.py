"""The binomial privacy-loss law of k-fold randomized response RR(eps0): certified sums.

Under P the number i of "likely" outputs is Bin(k, p), p = e^eps0/(1 + e^eps0); the privacy
loss is x_i = eps0 (2i - k). :func:`binomial_sum` sums a bounded weight against this law from the
mode outwards and encloses the truncated tail rigorously; :func:`suffix_sums` gives the suffix
sums under P and Q used by the exact KOV-EPS inverse ([MV] arXiv 1507.03113, Thm 1.4).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dpverify.theorems.ctx import FloatCtx
from dpverify.theorems.values import approx_float


def _float_le(a: float, b: float) -> bool:
    return a <= b


def _tail_enclosure(ctx: Any, total: Any, bound: Any) -> Any:
    """``total + [0, bound]`` in a rigorous context; a negligible remainder is dropped otherwise."""
    if getattr(ctx, "rigorous", False):
        return total + ctx.hull(ctx.zero, bound)
    return total


def _negligible_scale(ctx: Any) -> Any:
    return ctx.num(Fraction(1, 2 ** (int(ctx.prec) + 16)))


# ==========================================================================================
# The binomial privacy-loss law of k-fold RR(eps0)
#
# Under P the number i of "likely" outputs is Bin(k, p), p = e^eps0/(1 + e^eps0); the privacy
# loss is x_i = eps0 (2i - k). P(i) = C(k, i) e^{i eps0}/(1 + e^eps0)^k and the same count under
# Q has probability P(i) e^{-x_i}.


def log1pexp(ctx: Any, x: Any) -> Any:
    """``log(1 + e^x)`` for x >= 0 without overflow."""
    return x + ctx.log1p(ctx.exp(-x))


def _log_pmf(ctx: Any, eps0: Any, k: int, i: int) -> Any:
    """``log P(i) = log C(k, i) - (k - i) eps0 - k log(1 + e^-eps0)``."""
    log_binom = (ctx.lgamma(ctx.num(k + 1)) - ctx.lgamma(ctx.num(i + 1))
                 - ctx.lgamma(ctx.num(k - i + 1)))
    return log_binom - (k - i) * eps0 - k * ctx.log1p(ctx.exp(-eps0))


def binomial_mode(eps0: Any, k: int) -> int:
    e = approx_float(eps0)
    p = 1 / (1 + math.exp(-e)) if e > -700 else 0.0
    return min(k, max(0, math.floor((k + 1) * p)))


def binomial_sum(ctx: Any, eps0: Any, k: int, lo: int, hi: int,
                  weight: Callable[[int], Any]) -> Any:
    """``sum_{i=lo}^{hi} P(i) w(i)`` for weights ``0 <= w(i) <= 1``.

    The sum starts at the mode of the binomial (clamped to ``[lo, hi]``) and walks up and down.
    A direction stops once the pmf is certified below ``2^-(prec+16)`` times the partial sum and
    the pmf ratio to the next index is certified <= 1/2: the ratios keep decreasing beyond, so
    the remaining terms sum to at most the current pmf, which a rigorous context adds as
    ``[0, P(i)]``.
    """
    if lo > hi:
        return ctx.zero
    # doubles (the DDR-FIG1 searches): the comparisons inline, the same ``bool(a <= b)``
    le = _float_le if type(ctx) is FloatCtx else ctx.le
    y = ctx.exp(eps0)
    tiny = _negligible_scale(ctx)
    half = ctx.num(Fraction(1, 2))
    s = min(hi, max(lo, binomial_mode(eps0, k)))
    p_s = ctx.exp(_log_pmf(ctx, eps0, k, s))
    total = p_s * weight(s)
    # upwards
    p = p_s
    i = s
    while i < hi:
        r = y * (k - i) / (i + 1)
        p = p * r
        i += 1
        total = total + p * weight(i)
        if i < hi and le(p, tiny * total) is True and le(r, half) is True:
            total = _tail_enclosure(ctx, total, p)
            break
    # downwards
    p = p_s
    i = s
    while i > lo:
        r = i / ((k - i + 1) * y)
        p = p * r
        i -= 1
        total = total + p * weight(i)
        if i > lo and le(p, tiny * total) is True and le(r, half) is True:
            total = _tail_enclosure(ctx, total, p)
            break
    return total


def suffix_sums(ctx: Any, eps0: Any, k: int, a: int, b: int) -> tuple[list[Any], list[Any]]:
    """``A_j = sum_{i>=j} P(i)`` and ``B_j = sum_{i>=j} P(i) e^{-x_i}`` for ``a <= j <= b``.

    ``B_j`` sums the law of the count under Q (ratio ``(k-i)/((i+1) y)``). The sums above ``b``
    are taken upwards and truncated as in :func:`binomial_sum` (both tails enclosed).
    """
    y = ctx.exp(eps0)
    tiny = _negligible_scale(ctx)
    half = ctx.num(Fraction(1, 2))
    p = ctx.exp(_log_pmf(ctx, eps0, k, a))
    q = p * ctx.exp(-(2 * a - k) * eps0)
    ps, qs = [], []
    for i in range(a, b):
        ps.append(p)
        qs.append(q)
        p = p * y * (k - i) / (i + 1)
        q = q * (k - i) / ((i + 1) * y)
    sa, sb = p, q
    i = b
    while i < k:
        r = y * (k - i) / (i + 1)
        p = p * r
        q = q * (k - i) / ((i + 1) * y)
        i += 1
        sa, sb = sa + p, sb + q
        if i < k and ctx.le(p, tiny * sa) is True and ctx.le(r, half) is True:
            sa = _tail_enclosure(ctx, sa, p)
            sb = _tail_enclosure(ctx, sb, q)
            break
    big_a, big_b = [sa], [sb]
    for pi, qi in zip(reversed(ps), reversed(qs), strict=True):
        big_a.append(big_a[-1] + pi)
        big_b.append(big_b[-1] + qi)
    big_a.reverse()
    big_b.reverse()
    return big_a, big_b
