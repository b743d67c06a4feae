"""Exact privacy in the shuffle model: the FMT21 clone pair (FMT21-NUM) and shuffled binary and
k-ary randomized response (SHUFFLE-RR-EXACT), as formulas ``f(ctx, ...)``.

In a rigorous context (arb) every value is an enclosure: the clone-pair sum walks a window of
``C ~ Bin(n-1, e^{-eps0})`` chosen so that the omitted mass is below ``2^-(prec+30)``, and adds
``[0, omitted mass]`` with the mass bounded by a geometric tail (the pmf ratios are monotone);
the inverse evaluators return a bracket whose two ends are certified on either side of the
target. The exact-rational entry points (``*_exact``) take ``x0 = e^eps0`` and ``x = e^eps``
rational and return exact rationals: the oracles of the claims.

Main results
------------
- :func:`fmt21_num_delta`, :func:`fmt21_num_eps` (FMT21-NUM.delta / .eps).
- :func:`shuffle_rr_delta`, :func:`shuffle_rr_eps` (SHUFFLE-RR-EXACT.delta / .eps), with the
  enumeration limits :data:`RR_BINARY_MAX_N` and :data:`RR_KARY_MAX_WORK`.
- :func:`least_eps`: the bracketing search shared by both inverses.

References
----------
- [FMT21] V. Feldman, A. McMillan, K. Talwar, *Hiding Among the Clones: A Simple and Nearly
  Optimal Analysis of Privacy Amplification by Shuffling*, FOCS 2021, arXiv 2012.12803 (version
  not verified): Thm 3.2 (reduction to the clone pair, number as recalled by the catalogue) and
  Appendix E; the pair read in the authors' code apple/ml-shuffling-amplification, commit
  993d285, ``onestep``/``deltacomp``. The O(n) recurrence and threshold form: derived
  (catalogue FMT21-NUM). SHUFFLE-RR-EXACT: derived (direct enumeration; catalogue).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import Interval, PrecisionExhausted, Unsupported
from dpverify.theorems.errors import InvalidParameter
from dpverify.theorems.numerics.shuffle import (
    CloneState,
    clone_coefficients,
    clone_double_sum,
    clone_walk,
    rr_binary_laws,
    rr_binary_profile,
    rr_kary_max,
    threshold,
)
from dpverify.theorems.numerics.shuffle import clone_delta_exact as _clone_delta_exact
from dpverify.theorems.values import (
    approx_float,
    exact_params,
    fraction_near,
    is_exact,
    to_ctx,
)

# Enumeration limits of SHUFFLE-RR-EXACT, checked before any work (measured: binary n = 500
# takes about 3 s in arb at 200 bits; k-ary work 5 * 10^4 (n = 20, k = 3) about 2 s).
RR_BINARY_MAX_N = 500
RR_KARY_MAX_WORK = 10**5
# FMT21-NUM: the window of c grows like sqrt(n); n = 10^6 takes about 1 s per delta in arb.
FMT21_MAX_N = 10**6

__all__ = [
    "FMT21_MAX_N",
    "RR_BINARY_MAX_N",
    "RR_KARY_MAX_WORK",
    "clone_delta_double_sum_exact",
    "clone_delta_exact",
    "fmt21_num_delta",
    "fmt21_num_eps",
    "least_eps",
    "rr_binary_delta_exact",
    "rr_kary_delta_exact",
    "rr_kary_work",
    "shuffle_rr_delta",
    "shuffle_rr_eps",
]


def _exact_pos(v: Fraction) -> Fraction:
    return v if v > 0 else Fraction(0)


# The exact enumerations run on python-flint rationals (the same exact values as Fraction,
# several times faster) and return Fractions.
_FMPQ_ZERO, _FMPQ_ONE = flint.fmpq(0), flint.fmpq(1)


def _fmpq(v: Fraction) -> Any:
    return flint.fmpq(v.numerator, v.denominator)


def _fraction(v: Any) -> Fraction:
    return Fraction(int(v.p), int(v.q))


def _fmpq_pos(v: Any) -> Any:
    return v if v > 0 else _FMPQ_ZERO


def _param(ctx: Any, v: Any, name: str) -> Any:
    if isinstance(v, Interval):
        raise Unsupported(f"{name}: the shuffle-model sums take points, not boxes")
    return to_ctx(ctx, v)


# ------------------------------------------------------------------------------------------
# FMT21-NUM: the clone pair


def clone_delta_exact(x0: Fraction, n: int, x: Fraction) -> Fraction:
    """The clone pair's exact rational delta by the recurrence (cached; see
    :func:`numerics.shuffle.clone_delta_exact`)."""
    return _clone_delta_exact_cached(x0, n, x)


_clone_delta_exact_cached = functools.lru_cache(maxsize=4096)(_clone_delta_exact)


def clone_delta_double_sum_exact(x0: Fraction, n: int, x: Fraction) -> Fraction:
    """The clone pair's delta as the direct double sum over (c, a), exactly (rational x0, x)."""
    return clone_double_sum(x0, n, x, _exact_pos)


def _log_binom_pmf(n: int, eps0: float, c: int) -> float:
    """``log Bin(n-1, e^-eps0)(c)`` in floats (``log p = -eps0``: no underflow)."""
    return (math.lgamma(n) - math.lgamma(c + 1) - math.lgamma(n - c)
            - c * eps0 + (n - 1 - c) * math.log(-math.expm1(-eps0)))


def _window(n: int, eps0: float, bits: int) -> tuple[int, int]:
    """``[c_lo, c_hi]`` outside which ``Bin(n-1, e^-eps0)`` has pmf below ``2^-(bits+30)``
    (floats: a choice, not a bound; the caller bounds the omitted mass rigorously)."""
    cut = -(bits + 30) * math.log(2) - math.log(n)
    p = math.exp(-eps0)
    mode = min(n - 1, max(0, math.floor(n * p)))

    def edge(step: int) -> int:
        c, jump = mode, 1
        while 0 <= c + step * jump <= n - 1 and _log_binom_pmf(n, eps0, c + step * jump) > cut:
            c += step * jump
            jump *= 2
        while jump > 1:  # shrink: the pmf is monotone on each side of the mode
            jump //= 2
            if 0 <= c + step * jump <= n - 1 and _log_binom_pmf(n, eps0, c + step * jump) > cut:
                c += step * jump
        return min(n - 1, max(0, c + step))

    return edge(-1), edge(1)


def _half_binomial_start(ctx: Any, c: int, u: int) -> tuple[Any, Any, Any]:
    """``(F_c(u), b_c(u), b_c(u+1))`` for ``Bin(c, 1/2)``: the pmf at u from lgamma, the sum by
    walking down until the terms are negligible; the rest is at most ``b r/(1 - r)`` with r the
    (decreasing) pmf ratio, added as ``[0, bound]`` in a rigorous context."""
    if u < 0:
        return ctx.zero, ctx.zero, ctx.pow(ctx.num(Fraction(1, 2)), c)
    log2 = ctx.log(ctx.num(2))
    lb = (ctx.lgamma(ctx.num(c + 1)) - ctx.lgamma(ctx.num(u + 1))
          - ctx.lgamma(ctx.num(c - u + 1)) - c * log2)
    bu = ctx.exp(lb)
    bv = bu * (c - u) / (u + 1)
    tiny = ctx.num(Fraction(1, 2 ** (int(ctx.prec) + 40)))
    total, b, a = bu, bu, u
    while a > 0:
        r = ctx.num(Fraction(a, c - a + 1))
        b = b * r
        a -= 1
        total = total + b
        if a > 0 and ctx.lt(b, tiny * total) is True and ctx.lt(r, ctx.num(Fraction(1, 2))):
            if getattr(ctx, "rigorous", False):
                total = total + ctx.hull(ctx.zero, b)  # sum_{a' < a} b(a') <= b r/(1-r) <= b
            break
    return total, bu, bv


def fmt21_num_delta_ctx(ctx: Any, eps0: Any, n: int, eps: Any) -> Any:
    """The clone pair's hockey-stick delta in ``ctx`` (``eps0 > 0``, ``0 <= eps``), ctx numbers;
    see :func:`fmt21_num_delta`."""
    x0, x = ctx.exp(eps0), ctx.exp(eps)
    if ctx.le(x0, x) is True:
        return ctx.zero
    alpha, gamma, beta = clone_coefficients(x0, x)
    beta_g = min(max(fraction_near(beta), Fraction(0)), Fraction(1, 2))
    if getattr(ctx, "rigorous", False) and ctx.le(
            ctx.abs(beta - ctx.num(beta_g)), ctx.num(Fraction(1, n))) is not True:
        raise PrecisionExhausted("the threshold of the clone pair is not located to 1/n")
    p = ctx.exp(-eps0)
    one_minus_p = -ctx.expm1(-eps0)
    ratio = p / one_minus_p
    c_lo, c_hi = _window(n, approx_float(eps0), int(ctx.prec))
    log_b = (ctx.lgamma(ctx.num(n)) - ctx.lgamma(ctx.num(c_lo + 1)) - ctx.lgamma(ctx.num(n - c_lo))
             - c_lo * eps0 + (n - 1 - c_lo) * ctx.log(one_minus_p))
    b_lo = ctx.exp(log_b)
    u = threshold(beta_g, c_lo) - 1
    F, bu, bv = _half_binomial_start(ctx, c_lo, u)
    total, end = clone_walk(alpha, gamma, beta_g, n, ratio, CloneState(c_lo, u, F, bu, bv, b_lo),
                            c_hi, ctx.pos)
    tail = ctx.zero
    if c_lo > 0:  # sum_{c < c_lo} B(c) <= B(c_lo) r/(1 - r), r = B(c_lo - 1)/B(c_lo)
        r = c_lo * one_minus_p / ((n - c_lo) * p)
        tail = tail + _geometric_tail(ctx, b_lo, r)
    if c_hi < n - 1:  # sum_{c > c_hi} B(c) <= B(c_hi) r/(1 - r), r = B(c_hi + 1)/B(c_hi)
        r = (n - 1 - c_hi) * p / ((c_hi + 1) * one_minus_p)
        tail = tail + _geometric_tail(ctx, end.B, r)
    if getattr(ctx, "rigorous", False) and (c_lo > 0 or c_hi < n - 1):
        return total + ctx.hull(ctx.zero, tail)  # 0 <= H_c <= 1 on the omitted c
    return total


def _geometric_tail(ctx: Any, b: Any, r: Any) -> Any:
    """``b r/(1 - r)``: the mass beyond a window edge whose pmf ratio outward is ``r < 1``
    (every edge of :func:`_window` lies strictly past the mode, so ``r >= 1`` is a bug, not a
    matter of precision)."""
    below = ctx.lt(r, ctx.one)
    if below is False:
        raise RuntimeError(f"the binomial window edge is not past the mode: ratio {r} >= 1")
    if below is None:
        raise PrecisionExhausted("the ratio at the binomial window edge is not certified < 1")
    return b * r / (1 - r)


@exact_params("eps0", "eps")
def fmt21_num_delta(ctx: Any, eps0: Any, n: int, eps: Any) -> Any:
    """FMT21-NUM.delta: the exact hockey-stick divergence ``H_{e^eps}(P || Q)`` of the clone
    pair ([FMT21] arXiv 2012.12803, Thm 3.2 and App. E; pair as in the authors' ``onestep``,
    ``deltacomp``): with ``w = e^eps0/(e^eps0 + 1)``, ``C ~ Bin(n-1, e^{-eps0})``,
    ``delta = sum_c Bin(n-1, e^{-eps0})(c) H_c``, ``H_c = sum_{a < beta(c+1)} P_c(a) - e^eps
    Q_c(a)``, ``P_c(a) = w b_c(a) + (1-w) b_c(a-1)``, ``Q_c(a) = (1-w) b_c(a) + w b_c(a-1)``,
    ``b_c`` the Bin(c, 1/2) pmf. 0 for ``eps >= eps0``. O(1) work per c (derived recurrence,
    :func:`numerics.shuffle.clone_walk`) over a window of c with the omitted mass enclosed."""
    if is_exact(eps0) and is_exact(eps) and Fraction(eps) >= Fraction(eps0):
        return ctx.zero
    return fmt21_num_delta_ctx(ctx, _param(ctx, eps0, "eps0"), n, _param(ctx, eps, "eps"))


@exact_params("eps0", "delta")
def fmt21_num_eps(ctx: Any, eps0: Any, n: int, delta: Any) -> Any:
    """FMT21-NUM.eps: the least ``eps in [0, eps0]`` with ``fmt21_num_delta(eps0, n, eps) <=
    delta`` ([FMT21] arXiv 2012.12803, Thm 3.2; the authors' ``numericalanalysis`` bisects
    the same function). delta is continuous and nonincreasing in eps and 0 at eps0; see
    :func:`least_eps` for the bracket."""
    e0 = _exact(eps0, "eps0")
    return least_eps(ctx, lambda e: fmt21_num_delta(ctx, e0, n, e), e0, delta)


def _exact(v: Any, name: str) -> Fraction:
    if not is_exact(v):
        raise Unsupported(f"{name} must be an exact number for this search")
    return Fraction(v)


def least_eps(ctx: Any, delta_at: Callable[[Fraction], Any], eps0: Fraction, delta: Any) -> Any:
    """The least ``eps`` in ``[0, eps0]`` with ``delta_at(eps) <= delta``, for ``delta_at``
    continuous, nonincreasing and 0 at ``eps0``.

    A bracket ``[lo, hi]`` of exact points with ``delta_at(lo) > delta`` and ``delta_at(hi) <=
    delta``, each certified by the context's comparison, is narrowed until its width is at most
    ``tol = 2^-(prec+2) max(hi, 2^-prec)`` (or the points' grid ``2^-(prec+8)``). Proposals:
    the Illinois regula falsi on ``log(delta_at/delta)`` (bisection while an end has delta 0,
    and every fourth step while the bracket has not halved); when two successive proposals
    agree to ``16 tol``, the point ``tol`` beyond the new end is tried to close the bracket. A
    point m whose comparison is undecided (within the balls' width of the root) ends the
    search: the bracket becomes ``[m - s, m + s]`` for the least ``s = s0 16^j`` whose two ends
    are decided (``s0`` the ball radius over the secant slope), or stays as it is when none
    is. A rigorous context returns the bracket as a ball
    (the answer lies in ``(lo, hi]``); others its midpoint.
    """
    import mpmath

    target = to_ctx(ctx, delta)
    d0 = delta_at(Fraction(0))
    first = ctx.le(d0, target)
    if first is True:
        return ctx.zero
    if first is None:
        raise PrecisionExhausted("cannot decide delta(0) against the target")
    bits = int(ctx.prec)
    scale = 2 ** (bits + 8)
    mp = mpmath.mp.clone()
    mp.prec = bits + 32
    t_mid = fraction_near(target)

    def grid(e: Fraction) -> Fraction:
        return Fraction(round(e * scale), scale)

    def log_ratio(value: Any) -> Any:  # log(delta/target), None when the midpoint is <= 0
        v = fraction_near(value)
        return mp.log(mp.mpf(v.numerator) / v.denominator * t_mid.denominator
                      / t_mid.numerator) if v > 0 else None

    def above(e: Fraction) -> bool | None:  # delta_at(e) > target, certified
        c = ctx.le(delta_at(e), target)
        return None if c is None else not c

    lo, hi = Fraction(0), eps0
    f_lo, f_hi = log_ratio(d0), None
    side, last, width_before = 0, None, hi - lo
    d_lo, d_hi = fraction_near(d0), Fraction(0)
    for it in range(4 * bits + 64):
        tol = max(hi, Fraction(1, 2**bits)) / 2 ** (bits + 2)
        if hi - lo <= tol:
            break
        if f_hi is None or f_lo is None or (it % 4 == 3 and (hi - lo) * 2 > width_before):
            m = (lo + hi) / 2
        else:
            m = lo + (hi - lo) * fraction_near(f_lo / (f_lo - f_hi))
        if it % 4 == 3:
            width_before = hi - lo
        m = grid(m)
        if not lo < m < hi:
            m = grid((lo + hi) / 2)
            if not lo < m < hi:
                break  # the grid of points is reached
        value = delta_at(m)
        decided = ctx.le(value, target)
        if decided is not None:
            d_lo, d_hi = (d_lo, fraction_near(value)) if decided else (fraction_near(value), d_hi)
        if decided is None:  # m is within the balls' width of the root: close around it
            lo, hi = _close_around(m, lo, hi, _width_estimate(value, d_lo, d_hi, lo, hi, tol),
                                   above, grid)
            break
        close = last is not None and abs(m - last) <= 16 * tol
        last = m
        if decided:
            hi, f_hi = m, log_ratio(value)
            f_lo = f_lo / 2 if side == 1 and f_lo is not None else f_lo
            side = 1
            if close and lo < grid(m - tol) and above(grid(m - tol)) is True:
                lo = grid(m - tol)
        else:
            lo, f_lo = m, log_ratio(value)
            f_hi = f_hi / 2 if side == -1 and f_hi is not None else f_hi
            side = -1
            if close and grid(m + tol) < hi and above(grid(m + tol)) is False:
                hi = grid(m + tol)
    if getattr(ctx, "rigorous", False):
        return ctx.hull(ctx.num(lo), ctx.num(hi))
    return ctx.num((lo + hi) / 2)


def _width_estimate(value: Any, d_lo: Fraction, d_hi: Fraction, lo: Fraction, hi: Fraction,
                    tol: Fraction) -> Fraction:
    """The eps-width of the undecided zone: the ball's radius over the secant slope (a guess)."""
    rad = fraction_near(value.rad()) if isinstance(value, flint.arb) else tol
    slope = (d_lo - d_hi) / (hi - lo) if hi > lo and d_lo > d_hi else None
    return max(tol, rad / slope) if slope else tol


def _close_around(m: Fraction, lo: Fraction, hi: Fraction, s0: Fraction,
                  above: Callable[[Fraction], bool | None], grid: Callable[[Fraction], Fraction]
                  ) -> tuple[Fraction, Fraction]:
    step = s0
    while step < hi - lo:
        left, right = max(lo, grid(m - step)), min(hi, grid(m + step))
        if (left == lo or above(left) is True) and (right == hi or above(right) is False):
            return left, right
        step *= 16
    return lo, hi


# ------------------------------------------------------------------------------------------
# SHUFFLE-RR-EXACT


def rr_kary_work(n: int, k: int) -> int:
    """The enumeration size ``C(n+k-2, k-1) * C(n+k-1, k-1)`` (count vectors times histogram
    outcomes) that :data:`RR_KARY_MAX_WORK` limits."""
    return math.comb(n + k - 2, k - 1) * math.comb(n + k - 1, k - 1)


def check_rr_limits(n: int, k: int) -> None:
    """Refuse, before any work, an enumeration beyond the stated limits."""
    if k == 2 and n > RR_BINARY_MAX_N:
        raise InvalidParameter(
            f"n must be at most {RR_BINARY_MAX_N} for binary shuffled RR (a cost limit of the "
            f"exact enumeration: O(n^2) terms); got {n}")
    if k > 2 and rr_kary_work(n, k) > RR_KARY_MAX_WORK:
        raise InvalidParameter(
            f"n and k must satisfy C(n+k-2, k-1) C(n+k-1, k-1) <= {RR_KARY_MAX_WORK} for k-ary "
            f"shuffled RR (a cost limit of the exact enumeration over count vectors and "
            f"histograms); got n = {n}, k = {k}: {rr_kary_work(n, k)}")


@functools.lru_cache(maxsize=4096)
def rr_binary_delta_exact(x0: Fraction, n: int, x: Fraction) -> tuple[Fraction, int]:
    """Exact shuffled binary RR delta (rational ``x0 = e^eps0 > 1``, ``x = e^eps >= 1``) and the
    first maximizing m (the pair at m equals the reversed pair at n - 1 - m). Cached: exact
    values do not depend on a context, and the exhaustive claims revisit them."""
    laws = _rr_binary_laws_exact(x0, n) if n <= _LAWS_CACHE_MAX_N else None
    prof = rr_binary_profile(_fmpq(x0), n, _fmpq(x), _fmpq_pos, _FMPQ_ONE, laws=laws)
    best = max(prof)
    return _fraction(best), prof.index(best)


_LAWS_CACHE_MAX_N = 64  # n^2 exact rationals per entry: only small n are kept


@functools.lru_cache(maxsize=64)
def _rr_binary_laws_exact(x0: Fraction, n: int) -> list[list[Any]]:
    """:func:`rr_binary_laws` in ``fmpq`` (read only): they do not depend on x, and the
    exhaustive claims ask for the same (x0, n) at several x."""
    return rr_binary_laws(_fmpq(x0), n, _FMPQ_ONE)


@functools.lru_cache(maxsize=4096)
def rr_kary_delta_exact(x0: Fraction, n: int, x: Fraction, k: int
                        ) -> tuple[Fraction, tuple[int, ...]]:
    """Exact shuffled k-ary RR delta by enumeration over count vectors, and a worst c."""
    value, worst = rr_kary_max(_fmpq(x0), n, _fmpq(x), k, _fmpq_pos, max, _FMPQ_ONE)
    return _fraction(value), worst


def shuffle_rr_delta_ctx(ctx: Any, eps0: Any, n: int, eps: Any, k: int = 2,
                         enumerate_k2: bool = False) -> Any:
    """SHUFFLE-RR-EXACT.delta with ctx numbers; ``enumerate_k2`` takes the count-vector
    enumeration also for k = 2 (claim 4's second route)."""
    x0, x = ctx.exp(eps0), ctx.exp(eps)
    if k == 2 and not enumerate_k2:
        poly = "arb" if ctx.name == "arb" else "list"
        return ctx.max(*rr_binary_profile(x0, n, x, ctx.pos, ctx.one, poly=poly))
    value, _ = rr_kary_max(x0, n, x, k, ctx.pos, ctx.max, ctx.one)
    return value


@exact_params("eps0", "eps")
def shuffle_rr_delta(ctx: Any, eps0: Any, n: int, eps: Any, k: int = 2) -> Any:
    """SHUFFLE-RR-EXACT.delta (derived, catalogue): ``max_c max{H_{e^eps}(Hist(c + e_0) ||
    Hist(c + e_1)), H_{e^eps}(Hist(c + e_1) || Hist(c + e_0))}`` over the count vectors c of
    the other n - 1 users of k-ary RR(eps0) (true value w.p. ``e^eps0/(e^eps0 + k - 1)``);
    k = 2 by the binary m-formula, k >= 3 by enumeration. Limits: :func:`check_rr_limits`."""
    check_rr_limits(n, k)
    if is_exact(eps0) and is_exact(eps) and Fraction(eps) >= Fraction(eps0):
        return ctx.zero  # RR(eps0) is eps0-DP, and shuffling is post-processing
    return shuffle_rr_delta_ctx(ctx, _param(ctx, eps0, "eps0"), n, _param(ctx, eps, "eps"), k)


@exact_params("eps0", "delta")
def shuffle_rr_eps(ctx: Any, eps0: Any, n: int, delta: Any, k: int = 2) -> Any:
    """SHUFFLE-RR-EXACT.eps: the least ``eps >= 0`` with ``shuffle_rr_delta <= delta`` (it is
    at most eps0: RR(eps0) is eps0-DP), by :func:`least_eps`."""
    check_rr_limits(n, k)
    e0 = _exact(eps0, "eps0")
    return least_eps(ctx, lambda e: shuffle_rr_delta(ctx, e0, n, e, k), e0, delta)
