"""Bounded-range (BR) mechanisms: exponential-mechanism composition and the cost of adaptivity.

Catalogue: ``bounded_range.md`` (DDR-D22, DDR-C21, DDR-L21, DDR-T1, DDR-P1, DDR-P2, DDR-D24,
DDR-F1, DDR-D26, DDR-L41, DDR-L44, DDR-L31, DDR-T2, DDR-T3, DDR-L32, DDR-T4, DDR-C31, DDR-T5,
DR19-BR, DDR-L21-LAPLACE, DDR-FIG1). Evaluators use ``eps0`` for the per-mechanism BR
parameter and ``eps`` for the global one (the paper's eps and eps_g).

Main results
------------
- Generalized randomized response ``RR_{eps0,t}`` (:func:`grr_p`, :func:`grr_q`) and the
  binomial privacy-loss sums of its k-fold product (:func:`l31_delta_t`), evaluated from the
  mode of the binomial outwards with a certified geometric tail.
- :func:`t3_delta`: the exact non-adaptive optimum of k eps0-BR mechanisms ([DDR] Thm 3) as the
  maximum over the finite candidate set ``t_l = (eps + (l+1) eps0)/(k+1)``. For k <= 64 every
  candidate is evaluated; beyond, the candidates are covered by blocks whose certified upper
  bound (``f_l(t0)`` plus an exact integral bound of ``f_l'``) lies below the best candidate, so
  the arb value stays a rigorous enclosure while only ``O(k^{1/3})`` blocks need a binomial
  sum. In the float context the maximum over l is found by golden section (the double-precision
  path that DDR-FIG1 uses; its unimodality assumption is DDR-T3 claim 6).
- :func:`bb_maximize`: a rigorous one-dimensional branch and bound in arb (mean-value form and
  monotonicity pruning): an enclosure of ``max_t F(t)``. It is the independent route of DDR-T3
  claim 1 (``max_t`` of the Lemma 3.1 objective), of DDR-C31 claim 1 and DDR-T5 claim 1, and it
  computes the adaptive optimum of DDR-L32 for k = 2 from the exact k = 1 value function.
- :func:`l32_lattice`: the two-sided lattice enclosure of the adaptive recursion ([DDR] Lemma
  3.2): the lower bound is the exact value (in arb) of a grid adversary chosen by a float
  argmax; the upper bound is the shifted recursion, evaluated in arb over every grid choice.
- Closed forms: OptKL ([DDR] Cor. 3.1), the MGF bound (Thm 5, Chernoff form with the closed
  form maximiser t*), the DR19 bounds, and the query counts of [DDR] Fig. 1 with
  :func:`figure1_series` for plots.

Paper text. Only the opening of [DDR] (abstract and table of contents) could be read through
the search tool; theorem statements below follow the catalogue's reconstruction, each checked
by an independent route. The OptKL expression matches public code that cites it as
"Proposition 4" of the ICML version (http://proceedings.mlr.press/v119/dong20a).

References
----------
- [DDR] J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
  Mechanisms and the Cost of Adaptivity*, arXiv 1909.13830 (version not verified; ICML 2020,
  PMLR 119), Def. 2.2-2.6, Lemmas 2.1, 3.1, 3.2, 4.1-4.4, Thms 1-5, Cor. 3.1, Fig. 1.
- [DR19] D. Durfee, R. Rogers, *Practical Differentially Private Top-k Selection with
  Pay-what-you-get Composition*, arXiv 1905.04273 (version not verified; NeurIPS 2019).
- [KOV] P. Kairouz, S. Oh, P. Viswanath, arXiv 1311.0776v4, Thm 3.3 (through KOV-DELTA).
- [MV] J. Murtagh, S. Vadhan, arXiv 1507.03113, Thm 1.5 (through MV-OPT).
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Generated,
    Points,
    Predicate,
    Smt,
    SmtProblem,
    Tol,
    grid,
    points,
)
from dpverify.theorems.composition import kov_delta_pure, mv_delta_pure
from dpverify.theorems.core import Evaluator, InvalidParameter, Real, Source, Theorem, fmt_fraction
from dpverify.theorems.ctx import (
    ArbCtx,
    FloatCtx,
    Interval,
    MpCtx,
    PrecisionExhausted,
    Unsupported,
    arb_precision,
    arb_to_fraction,
)
from dpverify.theorems.numerics import finite
from dpverify.theorems.params import DELTA, EPS, EPS0_POS, EPS_LIST, EPS_REAL, K
from dpverify.theorems.values import approx_float, exact_params, float_bounds, is_exact, to_ctx

FAMILY = "bounded_range"

DDR = ("Dong, Durfee & Rogers, Optimal Differential Privacy Composition for Exponential "
       "Mechanisms and the Cost of Adaptivity", "1909.13830")
DR19 = ("Durfee & Rogers, Practical Differentially Private Top-k Selection with "
        "Pay-what-you-get Composition", "1905.04273")

# DDR-T3: evaluate every candidate up to this k; prune by certified block bounds beyond.
T3_ALL_CANDIDATES_K = 64
# DDR-L32 lattice: cells per eps0 of the lower bound (grid adversary) and of the upper bound.
L32_N_LB = 1000
L32_N_UB = 96
L32_MAX_K = 10
# DDR-FIG1: in a rigorous context the boundary (k, k+1) of k_br_optcomp is re-checked with the
# exact DDR-T3 value only up to this k (beyond, the double-precision search stands alone).
FIG1_RECHECK_BR_K = 3000
# The branch-and-bound maximiser stops at a relative width of 2^-(prec - 24), at most 2^-128.
BB_MAX_BITS = 128

T_PARAM = Real("t", lo=0, doc="GRR parameter t in [0, eps0]")
EPS0_BR = replace(EPS0_POS, doc="per-mechanism BR parameter (the paper's eps)")
BUDGET = replace(EPS, lo=0, lo_open=True, doc="global budget eps > 0 (the paper's eps_g)")


# ==========================================================================================
# Parameter helpers


def _wide(x: Any) -> bool:
    """An interval, or an arb ball wider than rounding: a whole box of parameters."""
    if isinstance(x, Interval):
        return x.lo != x.hi
    if not isinstance(x, flint.arb) or x.is_exact():
        return False
    scale = max(abs(float(x.mid())), 1.0)
    return bool(float(x.rad()) > scale * 2.0 ** (-(flint.ctx.prec // 2)))


def _ends(x: Any) -> tuple[Any, Any]:
    """Exact end points of an interval or a ball."""
    if isinstance(x, Interval):
        return x.lo, x.hi
    if isinstance(x, flint.arb):
        return arb_to_fraction(x.lower()), arb_to_fraction(x.upper())
    return x, x


def _exact_value(x: Any) -> Fraction | None:
    """The exact rational value of ``x`` when it has one at hand."""
    if is_exact(x):
        return Fraction(x)
    if isinstance(x, Interval) and x.lo == x.hi:
        return x.lo
    if isinstance(x, flint.arb) and x.is_exact() and x.is_finite():
        return arb_to_fraction(x)
    return None


def _rigorous(ctx: Any) -> bool:
    return bool(getattr(ctx, "rigorous", False))


def _decided_lt(ctx: Any, a: Any, b: Any) -> bool:
    """``a < b`` certified (arb) or plainly true (mp/fp)."""
    return ctx.lt(a, b) is True


def _clip_min(ctx: Any, cap: Any, x: Any) -> Any:
    """``min(cap, x)``, returning ``cap`` itself (not a re-rounded ball) when ``x >= cap`` is
    decided, so that a clipped bound compares equal to the basic bound it is clipped to."""
    c = ctx.le(cap, x)
    if c is True:
        return cap
    if c is False:
        return x
    return ctx.min(cap, x)


def _sq(x: Any) -> Any:
    """``x^2`` by multiplication (python-flint's ``**`` returns nan on a ball containing 0)."""
    return x * x


def _ipow(x: Any, n: int) -> Any:
    """``x^n`` for an integer ``n >= 0`` by repeated squaring (no ``**`` on balls)."""
    out = None
    base = x
    while n > 0:
        if n & 1:
            out = base if out is None else out * base
        n >>= 1
        if n:
            base = base * base
    return x * 0 + 1 if out is None else out


def _check_t(eps0: Any, t: Any) -> None:
    e, tt = _exact_value(eps0), _exact_value(t)
    if e is not None and tt is not None and not 0 <= tt <= e:
        raise InvalidParameter(f"t must be in [0, eps0] = [0, {fmt_fraction(e)}]; "
                               f"got {fmt_fraction(tt)}")


# ==========================================================================================
# DDR-D24: generalized randomized response


def grr_p(ctx: Any, eps0: Any, t: Any) -> Any:
    """``p_{eps0,t} = P[RR_{eps0,t}(0) = 0] = (1 - e^{t - eps0})/(1 - e^{-eps0})`` ([DDR] arXiv
    1909.13830, Def. 2.4 as reconstructed in the catalogue): the unique value with
    ``ln(p/q) = t`` and ``ln((1-p)/(1-q)) = t - eps0``."""
    return ctx.expm1(t - eps0) / ctx.expm1(-eps0)


def grr_q(ctx: Any, eps0: Any, t: Any) -> Any:
    """``q_{eps0,t} = P[RR_{eps0,t}(1) = 0] = (e^{-t} - e^{-eps0})/(1 - e^{-eps0})`` ([DDR] arXiv
    1909.13830, Def. 2.4)."""
    return ctx.expm1(t - eps0) * ctx.exp(-t) / ctx.expm1(-eps0)


def grr_1mp(ctx: Any, eps0: Any, t: Any) -> Any:
    """``1 - p_{eps0,t} = (e^t - 1)/(e^{eps0} - 1)`` without cancellation."""
    return ctx.expm1(t) / ctx.expm1(eps0)


def grr_1mq(ctx: Any, eps0: Any, t: Any) -> Any:
    """``1 - q_{eps0,t} = (1 - e^{-t})/(1 - e^{-eps0})`` without cancellation."""
    return ctx.expm1(-t) / ctx.expm1(-eps0)


def _grr_end(eps0: Any, t: Any) -> int | None:
    """1 at t = 0 and 0 at t = eps0 (exactly, for exact inputs): p = q = 1 and p = q = 0."""
    e, tt = _exact_value(eps0), _exact_value(t)
    if e is None or tt is None:
        return None
    return 1 if tt == 0 else (0 if tt == e else None)


@exact_params("eps0", "t")
def grr_p_eval(ctx: Any, eps0: Any, t: Any) -> Any:
    _check_t(eps0, t)
    end = _grr_end(eps0, t)
    return ctx.num(end) if end is not None else grr_p(ctx, to_ctx(ctx, eps0), to_ctx(ctx, t))


@exact_params("eps0", "t")
def grr_q_eval(ctx: Any, eps0: Any, t: Any) -> Any:
    _check_t(eps0, t)
    end = _grr_end(eps0, t)
    return ctx.num(end) if end is not None else grr_q(ctx, to_ctx(ctx, eps0), to_ctx(ctx, t))


def grr_pair(ctx: Any, eps0: Any, t: Any) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """The two output laws ``(RR(0), RR(1))`` of ``RR_{eps0,t}`` on ``{0, 1}``."""
    return ((grr_p(ctx, eps0, t), grr_1mp(ctx, eps0, t)),
            (grr_q(ctx, eps0, t), grr_1mq(ctx, eps0, t)))


# ==========================================================================================
# Binomial sums
#
# Under RR_{eps0,t}(0)^k the number i of "ones" is Bin(k, pi) with pi = 1 - p_t; the privacy
# loss of a transcript with i ones is L_i = k t - i eps0, and the law under RR(1)^k is the
# same count with probability P(i) e^{-L_i}.


def _negligible(ctx: Any) -> Any:
    return ctx.num(Fraction(1, 2 ** (int(ctx.prec) + 16)))


def _tail(ctx: Any, total: Any, bound: Any) -> Any:
    """``total + [0, bound]`` in a rigorous context; a negligible remainder is dropped otherwise."""
    if _rigorous(ctx):
        return total + ctx.hull(ctx.zero, bound)
    return total


def _log_binom_pmf(ctx: Any, n: int, i: int, log_pi: Any, log_1mpi: Any) -> Any:
    lb = ctx.lgamma(ctx.num(n + 1)) - ctx.lgamma(ctx.num(i + 1)) - ctx.lgamma(ctx.num(n - i + 1))
    out = lb
    if i:
        out = out + i * log_pi
    if n - i:
        out = out + (n - i) * log_1mpi
    return out


def _delta_at_t(ctx: Any, eps0: Any, k: int, t: Any, eps: Any,
                t_exact: Fraction | None = None, eps0_exact: Fraction | None = None) -> Any:
    """``delta(t) = sum_i C(k,i) (p^{k-i}(1-p)^i - e^eps q^{k-i}(1-q)^i)_+`` for one common t
    (the Lemma 3.1 objective with equal t): ``sum_{i <= m} P(i) (1 - e^{eps - L_i})`` over
    ``i ~ Bin(k, 1-p)``, ``L_i = k t - i eps0``; the positive terms are the prefix
    ``i < (k t - eps)/eps0``.

    The walk starts at the mode of the binomial (clamped to the prefix) and goes both ways,
    with the weights ``1 - e^{eps - k t} e^{i eps0}`` by recurrence. The pmf ratio to the next
    index decreases along either direction, so once it is ``r < 1`` the remaining terms sum to
    at most ``P(i) r/(1 - r)``; a direction stops when that is certified below
    ``2^-(prec+16)`` times the partial sum, and a rigorous context adds ``[0, P(i) r/(1-r)]``.
    """
    base = ctx.pos(-ctx.expm1(eps))  # the value at t = 0 (p = q = 1) and at t = eps0
    if t_exact is not None and eps0_exact is not None and t_exact in (0, eps0_exact):
        return base
    if ctx.le(t, ctx.zero) is True or ctx.le(eps0, t) is True:
        return base
    pi = grr_1mp(ctx, eps0, t)
    # the positive prefix: i <= m; [m_lo, m_hi] brackets m when the inputs are balls
    tl, th = float_bounds(t)
    el, eh = float_bounds(eps0)
    gl, gh = float_bounds(eps)
    top_hi = (k * th - gl) / el
    top_lo = (k * tl - gh) / eh
    m_hi = min(k, math.ceil(top_hi))
    m_lo = max(-1, math.floor(top_lo) - 2)
    if m_hi < 0:
        return ctx.zero
    zero, one = ctx.zero, ctx.one
    ew0 = ctx.exp(eps - k * t)  # e^{eps - L_0}
    rr = ctx.exp(eps0)
    log_pi, log_1mpi = ctx.log(pi), ctx.log1p(-pi)
    odds = pi / (one - pi)
    tiny = _negligible(ctx)
    s = min(m_hi, max(0, int((k + 1) * approx_float(pi))))
    p_s = ctx.exp(_log_binom_pmf(ctx, k, s, log_pi, log_1mpi))
    ew_s = ew0 * ctx.exp(s * eps0)

    def w(i: int, ew: Any) -> Any:
        x = one - ew
        return ctx.pos(x) if i >= m_lo else x

    total = p_s * w(s, ew_s)
    p, i, ew = p_s, s, ew_s
    while i < m_hi:
        if (i - s) % 8 == 7:
            r = odds * (k - i) / (i + 1)
            if ctx.lt(r, one) is True:
                rest = p * r / (one - r)
                if ctx.le(rest, tiny * total) is True:
                    total = _tail(ctx, total, rest)
                    break
        p = p * odds * (k - i) / (i + 1)
        i += 1
        ew = ew * rr
        total = total + p * w(i, ew)
    p, i, ew = p_s, s, ew_s
    while i > 0:
        if (s - i) % 8 == 7:
            r = i / ((k - i + 1) * odds)
            if ctx.lt(r, one) is True:
                rest = p * r / (one - r)
                if ctx.le(rest, tiny * total) is True:
                    total = _tail(ctx, total, rest)
                    break
        p = p * i / ((k - i + 1) * odds)
        i -= 1
        ew = ew / rr
        total = total + p * w(i, ew)
    return ctx.max(total, zero) if _rigorous(ctx) else total


@exact_params("eps0", "t")
def l31_delta_t(ctx: Any, eps0: Any, k: int, t: Any, eps: Any) -> Any:
    """DDR-L31 with equal t: ``sum_{i=0}^{k} C(k,i) (p^{k-i}(1-p)^i - e^eps q^{k-i}(1-q)^i)_+``,
    ``p = p_{eps0,t}``, ``q = q_{eps0,t}`` ([DDR] arXiv 1909.13830, Lemma 3.1 with t_i = t): the
    exact privacy profile of k-fold ``RR_{eps0,t}``."""
    _check_t(eps0, t)
    e0, tt = to_ctx(ctx, eps0), to_ctx(ctx, t)
    return _delta_at_t(ctx, e0, k, tt, to_ctx(ctx, eps), _exact_value(t), _exact_value(eps0))


# ==========================================================================================
# DDR-T3: the candidate set


def _t_l(eps0: Any, k: int, eps: Any, l: int) -> Any:
    """``t_l = (eps + (l+1) eps0)/(k+1)`` (unclipped)."""
    return (eps + (l + 1) * eps0) / (k + 1)


def _candidate_range(eps0: Any, k: int, eps: Any) -> tuple[int, int]:
    """``[lo, hi]`` containing every l in ``[0, k-1]`` with ``0 < t_l < eps0`` (exactly when the
    inputs are exact; with a margin of one index otherwise)."""
    e, g = _exact_value(eps0), _exact_value(eps)
    if e is not None and g is not None:
        # t_l > 0  <=>  l > -g/e - 1 ;  t_l < e  <=>  l < k - g/e
        r = g / e
        lo = math.floor(-r - 1) + 1
        hi = math.ceil(k - r) - 1
        return max(lo, 0), min(hi, k - 1)
    el, eh = float_bounds(eps0)
    gl, gh = float_bounds(eps)
    r_lo, r_hi = gl / eh, gh / el
    lo = math.floor(-r_hi - 1)
    hi = math.ceil(k - r_lo)
    return max(lo, 0), min(hi, k - 1)


def _interior(eps0: Any, k: int, eps: Any, l: int) -> bool | None:
    """Is ``0 < t_l < eps0``? (None when undecidable from floats.)"""
    e, g = _exact_value(eps0), _exact_value(eps)
    if e is not None and g is not None:
        t = _t_l(e, k, g, l)
        return 0 < t < e
    return None


def _g_candidate(ctx: Any, eps0: Any, k: int, eps: Any, l: int) -> Any:
    """The Thm 3 candidate value ``f_l(t_l)`` for an l with ``t_l`` in (0, eps0), computed as
    ``delta(t_l)`` (at t_l the positive terms are exactly those with i <= l, so the two
    agree); for a clipped ``t_l`` the value ``delta(clip(t_l))`` is returned, which is at most
    the maximum and so harmless."""
    e, g = _exact_value(eps0), _exact_value(eps)
    if e is not None and g is not None:
        t_ex = _t_l(e, k, g, l)
        t_ex = min(max(t_ex, Fraction(0)), e)
        return _delta_at_t(ctx, ctx.num(e), k, ctx.num(t_ex), ctx.num(g), t_ex, e)
    e0, gg = to_ctx(ctx, eps0), to_ctx(ctx, eps)
    t = _t_l(e0, k, gg, l)
    return _delta_at_t(ctx, e0, k, t, gg)


def _f_float(e: float, k: int, g: float, t: float) -> float:
    """``delta(t)`` in double precision (positive-part sum), for guesses and the float path."""
    if t <= 0 or t >= e:
        return max(0.0, -math.expm1(g))
    pi = math.expm1(t) / math.expm1(e)
    if not 0 < pi < 1:
        return max(0.0, -math.expm1(g))
    top = (k * t - g) / e
    hi = min(k, math.floor(top) + 1)
    if hi < 0:
        return 0.0
    lp, l1 = math.log(pi), math.log1p(-pi)
    odds = pi / (1 - pi)
    s = min(hi, max(0, int((k + 1) * pi)))
    base_lp = (math.lgamma(k + 1) - math.lgamma(s + 1) - math.lgamma(k - s + 1) + s * lp
               + (k - s) * l1)
    p_s = math.exp(base_lp)
    ee = math.exp(e)

    def w(i: int) -> float:
        x = g - (k * t - i * e)
        return -math.expm1(x) if x < 0 else 0.0

    total = p_s * w(s)
    p, i = p_s, s
    em = math.exp(g - k * t + s * e)  # e^{eps - L_i}
    while i < hi:
        r = odds * (k - i) / (i + 1)
        if r < 1 and p * r / (1 - r) < 1e-18 * total:
            break
        p *= r
        i += 1
        em *= ee
        if em < 1:
            total += p * (1 - em)
    p, i = p_s, s
    em = math.exp(g - k * t + s * e)
    while i > 0:
        r = i / ((k - i + 1) * odds)
        if r < 1 and p * r / (1 - r) < 1e-18 * total:
            break
        p *= r
        i -= 1
        em /= ee
        if em < 1:
            total += p * (1 - em)
    return total


def _g_float(e: float, k: int, g: float, l: int) -> float:
    t = (g + (l + 1) * e) / (k + 1)
    return _f_float(e, k, g, min(max(t, 0.0), e))


def _golden_int(f: Callable[[int], float], lo: int, hi: int) -> int:
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


_L_HINT: dict[tuple[float, float], tuple[int, int]] = {}


def _climb(f: Callable[[int], float], lo: int, hi: int, start: int) -> int:
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


def _t3_guess(e: float, k: int, g: float, lo: int, hi: int) -> int:
    """A float guess of the best candidate l (golden section over l)."""
    return _golden_int(lambda l: _g_float(e, k, g, l), lo, hi)


def _pmf_float_bound(n: int, l: int) -> Fraction:
    """A rational upper bound of ``max_pi C(n,l) pi^l (1-pi)^{n-l}``: 1 at the ends, and the
    Robbins form of Stirling, ``sqrt(n/(2 pi l (n-l))) e^{1/(12 n)}``, inside (rounded up)."""
    if l <= 0 or l >= n:
        return Fraction(1)
    v = math.sqrt(n / (2 * math.pi * l * (n - l))) * math.exp(1 / (12 * n))
    return Fraction(v) * Fraction(1000001, 1000000)


def _upper_fraction(ctx: Any, x: Any) -> Fraction | None:
    """An exact rational >= x (the upper end of an arb ball; a float rounded up otherwise)."""
    if isinstance(x, flint.arb):
        if not x.is_finite():
            return None
        return arb_to_fraction(x.upper())
    v = approx_float(x)
    if not math.isfinite(v):
        return None
    return Fraction(v) * Fraction(1000001, 1000000) + Fraction(1, 10**6)


def _j(ctx: Any, a: Fraction, d: Fraction) -> Any:
    """``int_0^d e^{a v} dv = (e^{a d} - 1)/a`` (``d`` when ``a = 0``), exact inputs."""
    if a == 0:
        return ctx.num(d)
    return ctx.expm1(ctx.num(a * d)) / ctx.num(a)


class _T3Search:
    """The pruned maximisation over the Thm 3 candidates (k > T3_ALL_CANDIDATES_K).

    A block ``[l1, l2]`` of interior candidates is discarded when, for every l in it,
    ``f_l(t0) + A_l E(t_l - t0)`` is certified below the best candidate evaluated, where t0 is
    the block's centre, ``f_l(t0)`` the partial sum (exact, from one binomial walk), and

        f_l(t_l) - f_l(t0) = int_{t0}^{t_l} c k pmf_{k-1}(l; pi_Q(s)) pi_Q'(s)
                                             (1 - e^{(k+1)(s - t_l)}) ds

    ([DDR] Thm 3's derivative ``f_l' ∝ e^eps - e^{(k+1)t - (l+1) eps0}``; ``pi_Q = 1 - q``)
    is bounded by ``A_l`` (the factor's maximum over the block: pmf at the clamped mode,
    ``pi_Q'`` at the block's left end) times the exact integral ``E`` of the last factor.
    """

    def __init__(self, ctx: Any, eps0: Fraction, k: int, eps: Fraction) -> None:
        self.ctx, self.e, self.k, self.g = ctx, eps0, k, eps
        self.E0, self.G = ctx.num(eps0), ctx.num(eps)
        self.c = ctx.exp(self.G)
        self.values: dict[int, Any] = {}
        self.evaluations = 0

    def t(self, l: int) -> Fraction:
        return _t_l(self.e, self.k, self.g, l)

    def value(self, l: int) -> Any:
        if l not in self.values:
            self.evaluations += 1
            self.values[l] = _g_candidate(self.ctx, self.e, self.k, self.g, l)
        return self.values[l]

    def block_bound(self, l1: int, l2: int) -> Any | None:
        """A certified upper bound of ``max_{l1 <= l <= l2} f_l(t_l)``, or None."""
        ctx, k = self.ctx, self.k
        if l2 - l1 > 1024:
            return None
        a, b = self.t(l1), self.t(l2)
        if (k + 1) * (b - a) / 2 > 40:
            return None
        t0 = (a + b) / 2
        T0 = ctx.num(t0)
        e0, G, c = self.E0, self.G, self.c
        zero = ctx.zero
        self.evaluations += 1
        delta0 = _delta_at_t(ctx, e0, k, T0, G, t0, self.e)
        # f_l(t0) = delta(t0) -/+ the terms d_i = P(i)(1 - c e^{-L_i}) between l and m0, where
        # m0 is the last index with L_i > eps (the positive terms are a prefix)
        m0 = math.ceil((k * t0 - self.g) / self.e) - 1
        lo_i, hi_i = max(min(l1, m0 + 1), 0), min(max(l2, m0), k)
        pi = grr_1mp(ctx, e0, T0)
        odds = pi / (1 - pi)
        d: dict[int, Any] = {}
        if lo_i <= hi_i:
            p = ctx.exp(_log_binom_pmf(ctx, k, lo_i, ctx.log(pi), ctx.log1p(-pi)))
            ew = ctx.exp(G - k * T0 + lo_i * e0)
            rr = ctx.exp(e0)
            for i in range(lo_i, hi_i + 1):
                if i > lo_i:
                    p = p * odds * (k - i + 1) / i
                    ew = ew * rr
                d[i] = p * (1 - ew)
        f0: dict[int, Any] = {}
        if m0 >= l1:
            acc = delta0
            for l in range(min(m0, l2), l1 - 1, -1):
                if l < m0:
                    acc = acc - d.get(l + 1, zero)
                f0[l] = acc
        if m0 < l2:
            acc = delta0
            for l in range(m0 + 1, l2 + 1):
                acc = acc + d.get(l, zero)
                if l >= l1:
                    f0[l] = acc
        # A_l >= c k pmf_{k-1}(l; pi_Q(s)) pi_Q'(s) for s in the block: pmf_{k-1}(l; .) is
        # unimodal with its maximum at l/(k-1), so clamp; pi_Q' = e^{-s}/(1 - e^{-eps0}) is
        # largest at the left end
        n = k - 1
        pq_a, pq_b = grr_1mq(ctx, e0, ctx.num(a)), grr_1mq(ctx, e0, ctx.num(b))
        fa, fb = float_bounds(pq_a)[0], float_bounds(pq_b)[1]
        scale = c * k * ctx.exp(-ctx.num(a)) / (-ctx.expm1(-e0))
        pmf_at: dict[int, Any] = {}
        below = [l for l in range(l1, l2 + 1) if 0 < l < n and l < n * fa]
        above = [l for l in range(l1, l2 + 1) if 0 < l < n and l > n * fb]
        if below:  # l/n < pi_Q(a): the maximum over the block is at pi_Q(a)
            odds_a = pq_a / (1 - pq_a)
            q = ctx.exp(_log_binom_pmf(ctx, n, below[0], ctx.log(pq_a), ctx.log1p(-pq_a)))
            for l in below:
                if l > below[0]:
                    q = q * odds_a * (n - l + 1) / l
                pmf_at[l] = q
        if above:  # l/n > pi_Q(b): at pi_Q(b)
            odds_b = pq_b / (1 - pq_b)
            q = ctx.exp(_log_binom_pmf(ctx, n, above[0], ctx.log(pq_b), ctx.log1p(-pq_b)))
            for l in above:
                if l > above[0]:
                    q = q * odds_b * (n - l + 1) / l
                pmf_at[l] = q
        lmid = Fraction(l1 + l2, 2)
        best = None
        for l in range(l1, l2 + 1):
            pmf = pmf_at.get(l)
            if pmf is None:
                pmf = ctx.num(_pmf_float_bound(n, l)) if n > 0 else ctx.one
            # E = int_{t0}^{t_l} (1 - e^{(k+1)(s - t_l)}) ds = D + expm1(-(k+1) D)/(k+1),
            # D = t_l - t0 = (l - lmid) eps0/(k+1) (signed; the same form covers both sides)
            x = ctx.num((l - lmid) * self.e)
            E = (x + ctx.expm1(-x)) / (k + 1)
            ub = f0[l] + scale * pmf * E
            best = ub if best is None else ctx.max(best, ub)
        return best

    def run(self) -> tuple[Any, int]:
        ctx = self.ctx
        lo, hi = _candidate_range(self.e, self.k, self.g)
        if lo > hi:
            return None, -1
        ef, gf = float(self.e), float(self.g)
        guess = _t3_guess(ef, self.k, gf, lo, hi)
        best_l = guess
        best = self.value(guess)
        for l in (guess - 1, guess + 1):
            if lo <= l <= hi:
                v = self.value(l)
                if ctx.lt(best, v) is True:
                    best, best_l = v, l
        stack = [(lo, hi)]
        while stack:
            l1, l2 = stack.pop()
            # skip the already evaluated candidates at the block ends
            while l1 <= l2 and l1 in self.values:
                l1 += 1
            while l1 <= l2 and l2 in self.values:
                l2 -= 1
            if l1 > l2:
                continue
            if l1 == l2:
                v = self.value(l1)
                if ctx.lt(best, v) is True:
                    best, best_l = v, l1
                continue
            ub = self.block_bound(l1, l2)
            if ub is not None and _decided_lt(ctx, ub, best):
                continue
            mid = (l1 + l2) // 2
            # explore the half nearer the best candidate last (it is popped first)
            if abs(mid - best_l) < abs(mid + 1 - best_l):
                stack.append((mid + 1, l2))
                stack.append((l1, mid))
            else:
                stack.append((l1, mid))
                stack.append((mid + 1, l2))
        top = best
        for v in self.values.values():
            top = ctx.max(top, v)
        return top, best_l


def _t3_all(ctx: Any, eps0: Any, k: int, eps: Any) -> tuple[Any, list[tuple[int, Any]]]:
    """Every candidate value ``g(l)`` for l in [0, k] (k small), with the clipped values."""
    e, g = _exact_value(eps0), _exact_value(eps)
    out = []
    for l in range(k + 1):
        if e is not None and g is not None:
            t = _t_l(e, k, g, l)
            if t <= 0:
                v = -ctx.expm1(ctx.num(g))  # f_l(0) = 1 - e^eps
            elif t >= e:
                v = -ctx.expm1(ctx.num(g)) if l == k else ctx.zero
            else:
                v = _g_candidate(ctx, e, k, g, l)
        else:
            v = _g_candidate(ctx, eps0, k, eps, l)
        out.append((l, v))
    top = ctx.zero
    for _, v in out:
        top = ctx.max(top, v)
    return top, out


def _t3_point(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """Thm 3 at one (exact or ball) point."""
    e, g = _exact_value(eps0), _exact_value(eps)
    E0, G = to_ctx(ctx, eps0), to_ctx(ctx, eps)
    if e is not None and g is not None:
        if g >= k * e:
            return ctx.zero
    elif ctx.le(k * E0, G) is True:
        return ctx.zero
    base = ctx.pos(-ctx.expm1(G))
    if isinstance(ctx, FloatCtx):
        ef, gf = approx_float(E0), approx_float(G)
        lo, hi = _candidate_range(eps0, k, eps)
        if lo > hi:
            return base
        hint = _L_HINT.get((ef, gf))
        if hint is not None:  # a nearby k was searched: climb from the scaled maximiser
            l = _climb(lambda j: _g_float(ef, k, gf, j), lo, hi,
                       round(hint[1] * (k + 1) / (hint[0] + 1)))
        else:
            l = _t3_guess(ef, k, gf, lo, hi)
        _L_HINT[(ef, gf)] = (k, l)
        return max(base, max(_g_float(ef, k, gf, j) for j in range(max(lo, l - 2),
                                                                   min(hi, l + 2) + 1)))
    if k <= T3_ALL_CANDIDATES_K or e is None or g is None:
        if k > 4 * T3_ALL_CANDIDATES_K and (e is None or g is None):
            # a ball input with large k: evaluate at its exact end points (monotone in both)
            e_lo, e_hi = _ends(eps0)
            g_lo, g_hi = _ends(eps)
            return ctx.hull(_t3_point(ctx, e_lo, k, g_hi), _t3_point(ctx, e_hi, k, g_lo))
        top, _ = _t3_all(ctx, eps0, k, eps)
        return ctx.max(top, base)
    top, _ = _T3Search(ctx, e, k, g).run()
    if top is None:
        return base
    return ctx.max(top, base)


@exact_params("eps0", "eps")
def t3_delta(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """DDR-T3: ``delta_OPT(M^NA_BR(eps0, ..., eps0), eps) = max_{l in {0..k}} sum_{i=0}^{l} C(k,i)
    (p_l^{k-i}(1-p_l)^i - e^eps q_l^{k-i}(1-q_l)^i)``, ``t_l = (eps + (l+1) eps0)/(k+1)`` clipped to
    [0, eps0], ``p_l = p_{eps0,t_l}``, ``q_l = q_{eps0,t_l}``; clipped below at 0 ([DDR] arXiv
    1909.13830, Thm 3, as reconstructed in the catalogue). Valid for every real eps.

    Over a box of parameters (the interval verifier) the value is the hull of two corners: the
    optimum is nondecreasing in eps0 (the eps0-BR class grows) and nonincreasing in eps.
    """
    if _wide(eps0) or _wide(eps):
        e_lo, e_hi = _ends(eps0)
        g_lo, g_hi = _ends(eps)
        return ctx.hull(_t3_point(ctx, e_lo, k, g_hi), _t3_point(ctx, e_hi, k, g_lo))
    return _t3_point(ctx, eps0, k, eps)


@exact_params("eps0", "delta")
def t3_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """DDR-T3 eps form: the least eps >= 0 with ``t3_delta(eps0, k, eps) <= delta`` (bisection;
    the optimum is nonincreasing in eps and vanishes at ``eps = k eps0``)."""
    d = to_ctx(ctx, delta)
    e = _exact_value(eps0)
    hi = k * e if e is not None else k * Fraction(float_bounds(eps0)[1])
    return ctx.solve(lambda x: t3_delta(ctx, eps0, k, x), d, lo=0, hi=hi)


@exact_params("eps0", "eps")
def t3_t_opt(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """DDR-T3: the candidate ``t_l`` (clipped to [0, eps0]) attaining the maximum, the smallest l
    among candidates that the arithmetic cannot separate from the maximum ([DDR] Thm 3)."""
    e, g = _exact_value(eps0), _exact_value(eps)
    if e is None or g is None:
        raise Unsupported("t_opt needs exact eps0 and eps")
    if k <= T3_ALL_CANDIDATES_K:
        top, vals = _t3_all(ctx, e, k, g)
        top = ctx.max(top, ctx.zero)
        best_l = next(l for l, v in vals if not _decided_lt(ctx, v, top))
    else:
        top, best_l = _T3Search(ctx, e, k, g).run()
        if best_l < 0:
            best_l = 0 if g >= 0 else k
    t = _t_l(e, k, g, best_l)
    return ctx.num(min(max(t, Fraction(0)), e))


# ==========================================================================================
# A rigorous one-dimensional maximiser (arb)


Enclose = Callable[[Fraction, Fraction], tuple[Any, Any, Any]]


def bb_maximize(ctx: Any, value: Callable[[Fraction], Any], enclose: Enclose, lo: Fraction,
                hi: Fraction, slope: Callable[[Fraction], Any] | None = None,
                max_boxes: int = 20000) -> Any:
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
        half = _arb_q((b - a) / 2)
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
        q1 = (flint.arb(value(b)) - flint.arb(value(a))) / _arb_q(2 * h)
        if d1 is not None and flint.arb(d1).is_finite() and not flint.arb(d1).overlaps(q1):
            raise AssertionError(f"derivative enclosure {d1} misses the difference quotient "
                                 f"{q1} at t = {float(t)}")
        if d2 is not None and slope is not None and flint.arb(d2).is_finite():
            sa, sb = slope(a), slope(b)
            if sa is not None and sb is not None:
                q2 = (flint.arb(sb) - flint.arb(sa)) / _arb_q(2 * h)
                if not flint.arb(d2).overlaps(q2):
                    raise AssertionError(f"second-derivative enclosure {d2} misses the "
                                         f"difference quotient {q2} at t = {float(t)}")


def _arb_q(x: Fraction) -> Any:
    if x.denominator == 1:
        return flint.arb(flint.fmpz(x.numerator))
    return flint.arb(flint.fmpq(x.numerator, x.denominator))


def _span(f: Callable[[Fraction], Any], a: Fraction, b: Fraction) -> Any:
    """The hull of a monotone function's values at the two ends of ``[a, b]``."""
    return flint.arb(f(a)).union(flint.arb(f(b)))


def _lemma31_objective(ctx: Any, eps0: Fraction, k: int, eps: Fraction
                       ) -> tuple[Callable[[Fraction], Any], Enclose, Callable[[Fraction], Any]]:
    """The Lemma 3.1 objective with equal t, ``F(t) = sum_i (T_i(t))_+``, ``T_i = C(k,i)
    (p^{k-i}(1-p)^i - e^eps q^{k-i}(1-q)^i)``, written from the definition term by term (no
    candidate set), with enclosures over t-intervals for :func:`bb_maximize`.

    The sign of ``T_i`` is the sign of ``k t - i eps0 - eps`` (the privacy loss against eps),
    decided exactly. Two enclosures are intersected: the sum of the positive parts, and
    ``1 - e^eps`` minus the negative parts (the binomial theorem: ``sum_i T_i = 1 - e^eps``),
    which is exact on the plateau where every term is positive. Derivatives are taken term by
    term (``p' = p'' = -e^{t-eps0}/(1-e^{-eps0})``, ``q' = -q'' = -e^{-t}/(1-e^{-eps0})``); a
    term of undecided sign contributes the hull of 0 and its derivative (generalised
    gradient), and no second derivative.
    """
    E0, c = ctx.num(eps0), ctx.exp(ctx.num(eps))
    total = 1 - c
    den = -ctx.expm1(-E0)
    zero = flint.arb(0)

    def signs(a: Fraction, b: Fraction) -> tuple[list[int], list[int], list[int]]:
        pos, und, neg = [], [], []
        for i in range(k + 1):
            if k * a - i * eps0 > eps:
                pos.append(i)
            elif k * b - i * eps0 < eps:
                neg.append(i)
            else:
                und.append(i)
        return pos, und, neg

    def table(x: Any) -> list[Any]:
        out = [flint.arb(1)]
        for _ in range(k):
            out.append(out[-1] * x)
        return out

    def terms(t_p: Any, t_mp: Any, t_q: Any, t_mq: Any, dp: Any, dq: Any
              ) -> tuple[dict[int, Any], dict[int, Any], dict[int, Any]]:
        """``T_i`` and its first two derivatives; ``d/dx x^a (1-x)^i`` expanded with power
        tables (a = k - i), ``p'' = p'`` and ``q'' = -q'``."""
        xp, yp, xq, yq = table(t_p), table(t_mp), table(t_q), table(t_mq)

        def mono(xs: list[Any], ys: list[Any], u: int, v: int) -> Any:
            return xs[u] * ys[v] if u >= 0 and v >= 0 else zero

        v, d1, d2 = {}, {}, {}
        for i in range(k + 1):
            a_ = k - i
            cb = math.comb(k, i)
            fp, fq = mono(xp, yp, a_, i), mono(xq, yq, a_, i)
            gp = a_ * mono(xp, yp, a_ - 1, i) - i * mono(xp, yp, a_, i - 1)
            gq = a_ * mono(xq, yq, a_ - 1, i) - i * mono(xq, yq, a_, i - 1)
            hp = (a_ * (a_ - 1) * mono(xp, yp, a_ - 2, i) - 2 * a_ * i * mono(xp, yp, a_ - 1, i - 1)
                  + i * (i - 1) * mono(xp, yp, a_, i - 2))
            hq = (a_ * (a_ - 1) * mono(xq, yq, a_ - 2, i) - 2 * a_ * i * mono(xq, yq, a_ - 1, i - 1)
                  + i * (i - 1) * mono(xq, yq, a_, i - 2))
            v[i] = cb * (fp - c * fq)
            d1[i] = cb * (dp * gp - c * dq * gq)
            d2[i] = cb * (dp * gp + dp * dp * hp - c * (-dq * gq + dq * dq * hq))
        return v, d1, d2

    def combine(pos: list[int], und: list[int], neg: list[int], vals: dict[int, Any],
                hull0: Callable[[Any], Any], lower0: Callable[[Any], Any], base: Any) -> Any:
        direct = ctx.fsum([vals[i] for i in pos] + [hull0(vals[i]) for i in und])
        comp = base - ctx.fsum([vals[i] for i in neg] + [lower0(vals[i]) for i in und])
        if not und and not neg:
            return comp
        if not und and not pos:
            return direct
        return flint.arb(direct).intersection(flint.arb(comp))

    def pos_part(v: Any) -> Any:
        v = flint.arb(v)
        return v if v > 0 else v.max(0).union(zero)

    def neg_part(v: Any) -> Any:
        v = flint.arb(v)
        return v if v < 0 else v.min(0).union(zero)

    def with0(v: Any) -> Any:
        return flint.arb(v).union(zero)

    @functools.lru_cache(maxsize=256)
    def at_point(t: Fraction) -> tuple[list[int], list[int], list[int], Any, Any, Any]:
        pos, und, neg = signs(t, t)
        T = ctx.num(t)
        dp = -ctx.exp(T - E0) / den
        dq = -ctx.exp(-T) / den
        v, d1, d2 = terms(grr_p(ctx, E0, T), grr_1mp(ctx, E0, T), grr_q(ctx, E0, T),
                          grr_1mq(ctx, E0, T), dp, dq)
        return pos, und, neg, v, d1, d2

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        if t <= 0 or t >= eps0:
            return ctx.pos(-ctx.expm1(ctx.num(eps)))
        pos, und, neg, v, _, _ = at_point(t)
        return combine(pos, und, neg, v, pos_part, neg_part, total)

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        if t <= 0 or t >= eps0:
            return None
        pos, und, neg, _, d1, _ = at_point(t)
        if und:
            return None
        return combine(pos, und, neg, d1, with0, with0, ctx.zero)

    def enclose(a: Fraction, b: Fraction) -> tuple[Any, Any, Any]:
        pos, und, neg = signs(a, b)
        p = _span(lambda s: grr_p(ctx, E0, ctx.num(s)), a, b)
        mp_ = _span(lambda s: grr_1mp(ctx, E0, ctx.num(s)), a, b)
        q = _span(lambda s: grr_q(ctx, E0, ctx.num(s)), a, b)
        mq = _span(lambda s: grr_1mq(ctx, E0, ctx.num(s)), a, b)
        dp = _span(lambda s: -ctx.exp(ctx.num(s) - E0) / den, a, b)
        dq = _span(lambda s: -ctx.exp(-ctx.num(s)) / den, a, b)
        v, d1, d2 = terms(p, mp_, q, mq, dp, dq)
        rng = combine(pos, und, neg, v, pos_part, neg_part, total)
        der = combine(pos, und, neg, d1, with0, with0, ctx.zero)
        der2 = None if und else combine(pos, und, neg, d2, with0, with0, ctx.zero)
        return rng, der, der2

    return value, enclose, slope


@exact_params("eps0", "eps")
def t3_max_over_t_bb(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    """``max_{t in [0, eps0]}`` of the Lemma 3.1 objective with equal t, by the rigorous branch
    and bound of :func:`bb_maximize` (the independent route of DDR-T3 claim 1)."""
    e, g = _exact_value(eps0), _exact_value(eps)
    if e is None or g is None:
        raise Unsupported("the branch-and-bound route needs exact eps0 and eps")
    value, enclose, slope = _lemma31_objective(ctx, e, k, g)
    return bb_maximize(ctx, value, enclose, Fraction(0), e, slope)


# ==========================================================================================
# DDR-L32: the adaptive recursion


def delta_a1_closed(ctx: Any, eps0: Any, y: Any) -> Any:
    """The k = 1 value ``delta_A(1, y)`` in closed form (derived from [DDR] Thm 3 with k = 1:
    the candidate ``t_0 = (y + eps0)/2`` gives ``p_{t0} (1 - e^{y - t0})``): ``1 - e^y`` for
    ``y <= -eps0``, ``(1 - e^{(y - eps0)/2})^2/(1 - e^{-eps0})`` for ``|y| < eps0``, 0 above. It is
    C^1 and nonincreasing."""
    return ctx.piecewise_lt(
        y, -eps0, lambda: -ctx.expm1(y),
        lambda: ctx.piecewise_lt(y, eps0, lambda: _sq(ctx.expm1((y - eps0) / 2))
                                 / (-ctx.expm1(-eps0)), lambda: ctx.zero))


def _d1_pieces(ctx: Any, eps0: Fraction, ya: Fraction, yb: Fraction
               ) -> tuple[Any, Any, Any]:
    """Enclosures of ``delta_A(1, .)`` and of its first and second derivatives over ``[ya, yb]``
    (the hull over the pieces the interval meets; the function is C^1, its second derivative
    jumps at +-eps0)."""
    E0 = ctx.num(eps0)
    den = -ctx.expm1(-E0)
    vals, d1s, d2s = [], [], []

    def ball(a: Fraction, b: Fraction) -> Any:
        return _arb_q(a) if a == b else _arb_q(a).union(_arb_q(b))

    if ya <= -eps0:  # left piece on [ya, min(yb, -eps0)]
        Y = ball(ya, min(yb, -eps0))
        vals.append(-ctx.expm1(Y))
        d1s.append(-ctx.exp(Y))
        d2s.append(-ctx.exp(Y))
    if ya < eps0 and yb > -eps0:  # middle piece
        Y = ball(max(ya, -eps0), min(yb, eps0))
        z = (Y - E0) / 2
        u = ctx.exp(z)
        vals.append(_sq(ctx.expm1(z)) / den)
        d1s.append(ctx.expm1(z) * u / den)
        d2s.append(u * (2 * u - 1) / (2 * den))
    if yb >= eps0:  # right piece
        vals.append(flint.arb(0))
        d1s.append(flint.arb(0))
        d2s.append(flint.arb(0))

    def hull(xs: list[Any]) -> Any:
        out = flint.arb(xs[0])
        for x in xs[1:]:
            out = out.union(flint.arb(x))
        return out

    return hull(vals), hull(d1s), hull(d2s)


def _adaptive2_objective(ctx: Any, eps0: Fraction, x: Fraction
                         ) -> tuple[Callable[[Fraction], Any], Enclose, Callable[[Fraction], Any]]:
    """``Phi(t) = p_t delta_A(1, x - t) + (1 - p_t) delta_A(1, x - t + eps0)``: the k = 2
    recursion of [DDR] Lemma 3.2 with the exact k = 1 value function, with its enclosures for
    :func:`bb_maximize`. Where both arguments lie in the left piece (``t >= x + 2 eps0``) the
    objective is exactly ``1 - e^x`` (``p + (1-p) e^{eps0} = e^t``), and 0 where both lie in the
    right piece (``t <= x - eps0``)."""
    E0 = ctx.num(eps0)
    den = -ctx.expm1(-E0)
    X = ctx.num(x)
    plateau = -ctx.expm1(X)

    @functools.lru_cache(maxsize=4096)
    def parts(t: Fraction) -> tuple[Any, Any, Any, Any, Any, Any, Any, Any]:
        T = ctx.num(t)
        p, mp_ = grr_p(ctx, E0, T), grr_1mp(ctx, E0, T)
        dp = -ctx.exp(T - E0) / den
        a, a1, a2 = _d1_pieces(ctx, eps0, x - t, x - t)
        b, b1, b2 = _d1_pieces(ctx, eps0, x - t + eps0, x - t + eps0)
        return p, mp_, dp, a, a1, a2, b, (b1, b2)

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        if t >= x + 2 * eps0:
            return plateau
        if t <= x - eps0:
            return flint.arb(0)
        p, mp_, _, a, _, _, b, _ = parts(t)
        return p * a + mp_ * b

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        if t >= x + 2 * eps0 or t <= x - eps0:
            return flint.arb(0)
        p, mp_, dp, a, a1, _, b, (b1, _) = parts(t)
        return dp * (a - b) - p * a1 - mp_ * b1

    def enclose(a_: Fraction, b_: Fraction) -> tuple[Any, Any, Any]:
        if a_ >= x + 2 * eps0:
            return plateau, flint.arb(0), flint.arb(0)
        if b_ <= x - eps0:
            return flint.arb(0), flint.arb(0), flint.arb(0)
        p = _span(lambda s: grr_p(ctx, E0, ctx.num(s)), a_, b_)
        mp_ = _span(lambda s: grr_1mp(ctx, E0, ctx.num(s)), a_, b_)
        dp = _span(lambda s: -ctx.exp(ctx.num(s) - E0) / den, a_, b_)
        A, A1, A2 = _d1_pieces(ctx, eps0, x - b_, x - a_)
        B, B1, B2 = _d1_pieces(ctx, eps0, x - b_ + eps0, x - a_ + eps0)
        rng = p * A + mp_ * B
        der = dp * (A - B) - p * A1 - mp_ * B1
        der2 = dp * (A - B) - 2 * dp * (A1 - B1) + p * A2 + mp_ * B2
        return rng, der, der2

    return value, enclose, slope


def _adaptive1_objective(ctx: Any, eps0: Fraction, x: Fraction
                         ) -> tuple[Callable[[Fraction], Any], Enclose, Callable[[Fraction], Any]]:
    """``Psi(t) = p_t (1 - e^{x-t})_+ + (1 - p_t)(1 - e^{x-t+eps0})_+``: the k = 1 step of the
    [DDR] Lemma 3.2 recursion from ``delta_A(0, y) = (1 - e^y)_+`` (no closed form used). The
    first term is positive iff ``t > x``, the second iff ``t > x + eps0``; where both are, the
    objective is exactly ``1 - e^x``."""
    E0 = ctx.num(eps0)
    den = -ctx.expm1(-E0)
    X = ctx.num(x)
    plateau = -ctx.expm1(X)
    zero = flint.arb(0)

    def pieces(a_: Fraction, b_: Fraction, T: Any) -> tuple[Any, Any, Any] | None:
        """(value, first, second derivative) with the sign pattern decided on [a_, b_]."""
        p = grr_p(ctx, E0, T)
        dp = -ctx.exp(T - E0) / den
        ex = ctx.exp(X - T)
        f1, g1, h1 = -ctx.expm1(X - T), ex, -ex  # 1 - e^{x-t} and its t-derivatives
        v = p * f1
        d1 = dp * f1 + p * g1
        d2 = dp * f1 + 2 * dp * g1 + p * h1
        if a_ > x and b_ < x + eps0:
            return v, d1, d2
        if a_ >= x + eps0:
            return plateau, zero, zero
        if b_ <= x:
            return zero, zero, zero
        return None

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        if t >= x + eps0:
            return plateau
        if t <= x:
            return zero
        return pieces(t, t, ctx.num(t))[0]

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        if t >= x + eps0 or t <= x:
            return zero
        return pieces(t, t, ctx.num(t))[1]

    def enclose(a_: Fraction, b_: Fraction) -> tuple[Any, Any, Any]:
        T = _arb_q(a_).union(_arb_q(b_))
        got = pieces(a_, b_, T)
        if got is not None:
            if a_ > x and b_ < x + eps0:  # smooth piece: use monotone spans where possible
                return got
            return got
        # a kink inside: the generalised gradient of each positive part is the hull with 0
        p = _span(lambda s: grr_p(ctx, E0, ctx.num(s)), a_, b_)
        mp_ = _span(lambda s: grr_1mp(ctx, E0, ctx.num(s)), a_, b_)
        dp = _span(lambda s: -ctx.exp(ctx.num(s) - E0) / den, a_, b_)
        e1 = _span(lambda s: ctx.exp(X - ctx.num(s)), a_, b_)
        e2 = e1 * ctx.exp(E0)
        f1, f2 = (1 - e1).max(0).union(zero) if b_ > x else zero, \
            (1 - e2).max(0).union(zero) if b_ > x + eps0 else zero
        rng = p * f1 + mp_ * f2
        g1 = (dp * (1 - e1) + p * e1).union(zero)
        g2 = (-dp * (1 - e2) + mp_ * e2).union(zero) if b_ > x + eps0 else zero
        return rng, g1 + g2, None

    return value, enclose, slope


@exact_params("eps0", "eps")
def l32_delta_k1_recursion(ctx: Any, eps0: Any, eps: Any, **_: Any) -> Any:
    """``delta_A(1, eps) = sup_t Psi(t)`` by the rigorous branch and bound (DDR-L32 with k = 1,
    computed from its definition; the independent route of DDR-T3 claim 5)."""
    e, x = _exact_value(eps0), _exact_value(eps)
    if e is None or x is None:
        raise Unsupported("the branch-and-bound route needs exact eps0 and eps")
    if x >= e:
        return ctx.zero
    value, enclose, slope = _adaptive1_objective(ctx, e, x)
    return bb_maximize(ctx, value, enclose, Fraction(0), e, slope)


def l32_delta_k2(ctx: Any, eps0: Fraction, x: Fraction) -> Any:
    """``delta_A(2, x) = sup_t Phi(t)`` (rigorous branch and bound in arb; [DDR] Lemma 3.2 with
    the exact k = 1 value function)."""
    if x >= 2 * eps0:
        return ctx.zero
    if x <= -2 * eps0:
        return -ctx.expm1(ctx.num(x))
    value, enclose, slope = _adaptive2_objective(ctx, eps0, x)
    return bb_maximize(ctx, value, enclose, Fraction(0), eps0, slope)


def _golden_max(f: Callable[[Any], Any], lo: Any, hi: Any, iters: int) -> Any:
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


def _mp_fraction(x: Any) -> Fraction:
    """The exact rational value of an mpmath number."""
    man, exp = x.man_exp
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def adaptive2_strategy_delta(ctx: Any, eps0: Fraction, x: Fraction, prec: int) -> Any:
    """The exact hockey-stick divergence at ``e^x`` of an explicit two-round adaptive strategy
    (DDR-L32 claim 2): the first ``t1`` maximises ``Phi`` (golden section in mpmath at twice the
    working precision); after the first output the second round uses the k = 1 maximiser at
    the residual budget, ``t2 = clip((r + eps0)/2)`` with ``r = x - t1`` after a 0 and ``x - t1 +
    eps0`` after a 1. The four transcripts are enumerated."""
    m = MpCtx(2 * prec + 20)
    E = m.num(eps0)
    X = m.num(x)

    def phi(t: Any) -> Any:
        p = grr_p(m, E, t)
        return p * delta_a1_closed(m, E, X - t) + (1 - p) * delta_a1_closed(m, E, X - t + E)

    t1 = _mp_fraction(_golden_max(phi, m.zero, E, int(2.2 * m.prec)))
    P: list[Any] = []
    Q: list[Any] = []
    E0 = ctx.num(eps0)
    P1, Q1 = grr_pair(ctx, E0, ctx.num(t1))
    for y1, r in ((0, x - t1), (1, x - t1 + eps0)):
        t2 = min(max((r + eps0) / 2, Fraction(0)), eps0)
        P2, Q2 = grr_pair(ctx, E0, ctx.num(t2))
        for y2 in (0, 1):
            P.append(P1[y1] * P2[y2])
            Q.append(Q1[y1] * Q2[y2])
    return finite.hockey_stick(ctx, P, Q, ctx.num(x))


# -- the lattice enclosure -----------------------------------------------------------------


def _np() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy comes with matplotlib
        raise Unsupported("the DDR-L32 lattice needs numpy") from None
    return numpy


_U = 2.0 ** -53


def _up(x: float) -> float:
    return math.nextafter(x, math.inf)


_LATTICES: dict[tuple[Fraction, int, int], dict[str, Any]] = {}


def _l32_lattice(eps0: Fraction, k: int, n: int, prec: int) -> tuple[list[Any], Any, int]:
    """The level-k lattice tables of [DDR] Lemma 3.2 (catalogue DDR-L32) with ``h = eps0/n``:
    ``(LB, UB, offset)`` where ``LB[m + offset]`` and ``UB[m + offset]`` bound
    ``delta_A(k, m h)`` for ``|m| <= k n`` (outside, the exact boundary values apply).

    - LB: the exact value, in arb, of one grid adversary (``t = t_n`` at every lattice state,
      ``n`` the argmax of the float recursion): a valid lower bound whatever the choice.
    - UB: ``U_j(m) = max_{n < N} [p_n U_{j-1}(m-n-1) + (1 - p_{n+1}) U_{j-1}(m-n-1+N)]`` (valid
      because ``p_t`` decreases in t and ``delta_A`` decreases in x), in IEEE-754 binary64 with
      the coefficients rounded up and every level multiplied by ``1 + 2^-50`` (each value is a
      sum of two nonnegative products, so the three roundings lose at most a factor
      ``(1 - 2^-53)^-2``) plus ``2^-1000`` (underflow): rigorous under IEEE arithmetic.

    The levels are computed once per ``(eps0, n, prec)`` and extended on demand.
    """
    if k > L32_MAX_K:
        raise InvalidParameter(f"k must be at most {L32_MAX_K} for the lattice; got {k}")
    key = (eps0, n, prec)
    st = _LATTICES.get(key)
    if st is None:
        st = _lattice_init(eps0, n, prec)
        _LATTICES[key] = st
    while st["level"] < k:
        _lattice_step(st)
    return st["out"][k]


def _lattice_init(eps0: Fraction, n: int, prec: int) -> dict[str, Any]:
    np = _np()
    ctx = ArbCtx(prec)
    with arb_precision(prec):
        h = eps0 / n
        E0 = ctx.num(eps0)
        p_arb = [grr_p(ctx, E0, ctx.num(i * h)) for i in range(n + 1)]
        q_arb = [grr_1mp(ctx, E0, ctx.num(i * h)) for i in range(n + 1)]
        p_arb[0], q_arb[0] = flint.arb(1), flint.arb(0)
        p_arb[n], q_arb[n] = flint.arb(0), flint.arb(1)
        R = (L32_MAX_K + 2) * n  # index range [-R, R] covers every lookup
        # exact boundary values: delta_A(j, x) = 1 - e^x for x <= -j eps0, 0 for x >= j eps0
        left_arb = [-ctx.expm1(ctx.num(m * h)) for m in range(-R, 1)]
        left_up = np.zeros(2 * R + 1)
        left_up[:R + 1] = [_up(float(v.upper())) for v in left_arb]
        lb = left_arb + [flint.arb(0)] * R  # level 0, indexed m + R
    return {
        "prec": prec, "n": n, "R": R, "level": 0,
        "p_arb": p_arb, "q_arb": q_arb,
        "p_f": np.array([float(v.mid()) for v in p_arb]),
        "q_f": np.array([float(v.mid()) for v in q_arb]),
        "p_hi": np.array([_up(float(v.upper())) for v in p_arb]),
        "q_hi": np.array([_up(float(v.upper())) for v in q_arb]),
        "left_arb": left_arb, "left_up": left_up,
        "lb": lb, "lbf": np.array([float(v.mid()) for v in lb]),
        "ub": np.where(np.arange(-R, R + 1) <= 0, left_up, 0.0),
        "out": {},
    }


def _lattice_step(st: dict[str, Any]) -> None:
    """Advance the lattice state by one level of the recursion."""
    np = _np()
    n, R, prec = st["n"], st["R"], st["prec"]
    j = st["level"] + 1
    p_f, q_f, p_hi, q_hi = st["p_f"], st["q_f"], st["p_hi"], st["q_hi"]
    p_arb, q_arb = st["p_arb"], st["q_arb"]
    lbf, ub_prev, lb_prev = st["lbf"], st["ub"], st["lb"]
    with arb_precision(prec):
        band = np.arange(-j * n, j * n + 1)
        idx0 = band + R
        best = np.full(band.size, -1.0)
        arg = np.zeros(band.size, dtype=np.int64)
        ub = np.zeros(band.size)
        for i in range(n + 1):
            cand = p_f[i] * lbf[idx0 - i] + q_f[i] * lbf[idx0 - i + n]
            better = cand > best
            best = np.where(better, cand, best)
            arg = np.where(better, i, arg)
            if i < n:
                u = p_hi[i] * ub_prev[idx0 - i - 1] + q_hi[i + 1] * ub_prev[idx0 - i - 1 + n]
                ub = np.maximum(ub, u)
        ub = np.minimum(ub * (1 + 2.0 ** -50) + 2.0 ** -1000, 1.0)
        lb_new = list(st["left_arb"]) + [flint.arb(0)] * R  # boundary of level j
        for pos, idx in enumerate(idx0.tolist()):
            i = int(arg[pos])
            lb_new[idx] = p_arb[i] * lb_prev[idx - i] + q_arb[i] * lb_prev[idx - i + n]
        # the left boundary of level j starts at m = -j n: entries below are exact 1 - e^x
        full_ub = np.where(np.arange(-R, R + 1) <= -j * n, st["left_up"], 0.0)
        full_ub[idx0] = ub
        st["lb"], st["ub"], st["level"] = lb_new, full_ub, j
        st["lbf"] = np.array([float(v.mid()) for v in lb_new])
        off = j * n
        st["out"][j] = (lb_new[R - off:R + off + 1], full_ub[R - off:R + off + 1].copy(), off)


def _lattice_prec(ctx: Any) -> int:
    """The lattices are computed once at 256 bits (shared by every query up to that precision)."""
    return max(256, int(ctx.prec))


def l32_bounds(ctx: Any, eps0: Fraction, k: int, x: Any, n_lb: int = L32_N_LB,
               n_ub: int = L32_N_LB) -> tuple[Any, Any]:
    """Rigorous ``(LB, UB)`` of ``delta_A(k, x)`` from the lattices (LB read at the nearest
    lattice point >= x, UB at the nearest <= x; exact values beyond ``|x| >= k eps0``)."""
    xe = _exact_value(x)
    if xe is None:
        lo, hi = float_bounds(x)
        x_lo, x_hi = Fraction(lo), Fraction(hi)
    else:
        x_lo = x_hi = xe
    if x_lo >= k * eps0:
        return ctx.zero, ctx.zero
    if x_hi <= -k * eps0:
        v = -ctx.expm1(to_ctx(ctx, x))
        return v, v
    prec = _lattice_prec(ctx)
    lb_tab, _, off = _l32_lattice(eps0, k, n_lb, prec)
    m_up = math.ceil(x_hi / (eps0 / n_lb))
    if m_up > off:
        lb = ctx.zero
    elif m_up < -off:
        lb = -ctx.expm1(ctx.num(m_up * eps0 / n_lb))
    else:
        lb = lb_tab[m_up + off]
    _, ub_tab, off_u = _l32_lattice(eps0, k, n_ub, prec)
    m_dn = math.floor(x_lo / (eps0 / n_ub))
    if m_dn >= off_u:
        ub = ctx.zero
    elif m_dn < -off_u:
        ub = -ctx.expm1(ctx.num(m_dn * eps0 / n_ub))
    else:
        ub = ctx.num(Fraction(float(ub_tab[m_dn + off_u])))
    return lb, ub


def _l32_exact_inputs(eps0: Any, eps: Any) -> tuple[Fraction, Fraction]:
    e, x = _exact_value(eps0), _exact_value(eps)
    if e is None or x is None:
        raise Unsupported("DDR-L32 needs exact eps0 and eps")
    return e, x


@exact_params("eps0", "eps")
def l32_delta(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """DDR-L32: ``delta_A(k, eps)`` of the recursion ``delta_A(0, x) = (1 - e^x)_+``,
    ``delta_A(k, x) = sup_{t in [0, eps0]} [p_t delta_A(k-1, x - t) + (1 - p_t) delta_A(k-1, x - t
    + eps0)]`` ([DDR] arXiv 1909.13830, Lemma 3.2): exactly for k = 1 (DDR-T3 with k = 1); for
    k = 2 a rigorous enclosure (branch and bound over t with the exact k = 1 value function; arb
    only); for k >= 3 the lattice lower bound LB (N = 1000 cells per eps0; ``delta_ub`` gives
    the upper bound)."""
    e, x = _l32_exact_inputs(eps0, eps)
    if k == 1:
        return t3_delta(ctx, e, 1, x)
    if k == 2:
        return l32_delta_k2(ctx, e, x)
    if k > L32_MAX_K:
        raise InvalidParameter(f"k must be at most {L32_MAX_K} for the lattice; got {k}")
    return l32_bounds(ctx, e, k, x)[0]


@exact_params("eps0", "eps")
def l32_delta_ub(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """DDR-L32: the lattice upper bound UB of ``delta_A(k, eps)`` (N = 1000 cells per eps0;
    see :func:`_l32_lattice`)."""
    e, x = _l32_exact_inputs(eps0, eps)
    if k > L32_MAX_K:
        raise InvalidParameter(f"k must be at most {L32_MAX_K} for the lattice; got {k}")
    return l32_bounds(ctx, e, k, x)[1]


# ==========================================================================================
# DDR-C31 (OptKL), DDR-T5 (MGF), DR19-BR


def _log_inv(ctx: Any, delta: Any) -> Any:
    return -ctx.log(delta)


def kl_sup(ctx: Any, eps0: Any) -> Any:
    """``sup_t KL(RR_{eps0,t}(0) || RR_{eps0,t}(1)) = x - 1 - ln x`` with ``x = eps0/(1 -
    e^{-eps0})`` ([DDR] arXiv 1909.13830, Cor. 3.1; the expression of public code citing the
    ICML version's Prop. 4). About ``eps0^2/8``; arb raises precision through the cancellation."""
    x = eps0 / (-ctx.expm1(-eps0))
    return x - 1 - ctx.log(x)


def kl_sup_alt(ctx: Any, eps0: Any) -> Any:
    """The second closed form ``ln((e^eps0 - 1)/eps0) - 1 + eps0/(e^eps0 - 1)`` (the KL at its
    maximiser ``t* = ln((e^eps0 - 1)/eps0)``)."""
    m = ctx.expm1(eps0)
    return ctx.log(m / eps0) - 1 + eps0 / m


@exact_params("eps0", "t")
def kl_t(ctx: Any, eps0: Any, t: Any) -> Any:
    """``KL(RR_{eps0,t}(0) || RR_{eps0,t}(1)) = t - eps0 (e^t - 1)/(e^eps0 - 1)`` (= ``p t + (1-p)(t
    - eps0)``; [DDR] Cor. 3.1)."""
    _check_t(eps0, t)
    e, tt = to_ctx(ctx, eps0), to_ctx(ctx, t)
    return tt - e * ctx.expm1(tt) / ctx.expm1(e)


def kl_direct(ctx: Any, eps0: Any, t: Any) -> Any:
    """``p ln(p/q) + (1-p) ln((1-p)/(1-q))`` from the GRR probabilities (0 < t < eps0)."""
    p, mp_ = grr_p(ctx, eps0, t), grr_1mp(ctx, eps0, t)
    q, mq = grr_q(ctx, eps0, t), grr_1mq(ctx, eps0, t)
    return p * ctx.log(p / q) + mp_ * ctx.log(mp_ / mq)


def optkl_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """DDR-C31: ``min(k eps0, k kl_sup(eps0) + sqrt((k eps0^2/2) ln(1/delta)))`` ([DDR] arXiv
    1909.13830, Cor. 3.1: KL bias term plus Azuma-Hoeffding with range eps0)."""
    e0, d = to_ctx(ctx, eps0), to_ctx(ctx, delta)
    raw = k * kl_sup(ctx, e0) + ctx.sqrt(k * e0 * e0 / 2 * _log_inv(ctx, d))
    return _clip_min(ctx, k * e0, raw)


def mgf_t_star(ctx: Any, eps0: Any, lam: Any) -> Any:
    """The maximiser over t of ``p_t e^{lam t} + (1 - p_t) e^{lam (t - eps0)}``: ``t* = eps0 +
    ln(lam (e^{-lam eps0} + A)/(A (1 + lam)))``, ``A = (1 - e^{-lam eps0})/(1 - e^{-eps0})``,
    clipped to [0, eps0] (catalogue DDR-T5; derived from ``h'(t) = 0``)."""
    A = ctx.expm1(-lam * eps0) / ctx.expm1(-eps0)
    t = eps0 + ctx.log(lam * (ctx.exp(-lam * eps0) + A) / (A * (1 + lam)))
    return ctx.max(ctx.zero, ctx.min(eps0, t))


def mgf_log_h(ctx: Any, eps0: Any, lam: Any, t: Any) -> Any:
    """``ln(p_t e^{lam t} + (1 - p_t) e^{lam (t - eps0)}) = lam t + ln(p_t + (1 - p_t) e^{-lam
    eps0})``: the log-MGF at lam of the privacy loss of ``RR_{eps0,t}``."""
    return lam * t + ctx.log(grr_p(ctx, eps0, t) + grr_1mp(ctx, eps0, t) * ctx.exp(-lam * eps0))


def mgf_log_m(ctx: Any, eps0: Any, lam: Any) -> Any:
    """``ln M(lam) = sup_t ln h(t)`` at the closed-form maximiser."""
    return mgf_log_h(ctx, eps0, lam, mgf_t_star(ctx, eps0, lam))


def mgf_dlog_m(ctx: Any, eps0: Any, lam: Any) -> Any:
    """``d/dlam ln M(lam)`` at the maximiser (envelope theorem): ``t* - eps0 (1-p) e^{-lam eps0}/
    (p + (1-p) e^{-lam eps0})``."""
    t = mgf_t_star(ctx, eps0, lam)
    w = grr_1mp(ctx, eps0, t) * ctx.exp(-lam * eps0)
    return t - eps0 * w / (grr_p(ctx, eps0, t) + w)


def _root_increasing(g: Callable[[Any], Any], lo: Any, hi: Any, x0: Any, x1: Any,
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


def _mgf_argmin(ctx: Any, objective: Callable[[Any, Any], Any],
                stationary: Callable[[Any, Any], Any]) -> Fraction:
    """A minimiser lam of a unimodal objective over ``ln lam in [-14, 10]``: golden section in
    doubles, then (outside the float context) the secant method on the increasing stationarity
    function in mpmath at the working precision. Any lam gives a valid bound; this one is
    within the working precision of the minimiser."""
    f = FloatCtx()
    u = _golden_max(lambda v: -float(objective(f, math.exp(v))), -14.0, 10.0, 80)
    if isinstance(ctx, FloatCtx):
        return Fraction(math.exp(u))
    m = MpCtx(max(int(ctx.prec), 64) + 10)
    lam0 = m.num(Fraction(math.exp(u)))
    lo, hi = lam0 * m.num(Fraction(99, 100)), lam0 * m.num(Fraction(101, 100))
    if u <= -13.9 or u >= 9.9 or not stationary(m, lo) < 0 < stationary(m, hi):
        return Fraction(math.exp(u))  # at an end of the search range: keep the float value
    lam = _root_increasing(lambda x: stationary(m, x), lo, hi, lam0,
                           lam0 * m.num(Fraction(1000001, 1000000)), 200)
    return _mp_fraction(lam)


@functools.lru_cache(maxsize=4096)
def _mgf_lam_eps(eps0: Fraction, k: int, delta: Fraction, prec: int, fp: bool) -> Fraction:
    ctx: Any = FloatCtx() if fp else MpCtx(prec)

    def obj(c: Any, lam: Any) -> Any:
        e0, d = c.num(eps0), c.num(delta)
        return (k * mgf_log_m(c, e0, lam) + _log_inv(c, d)) / lam

    def stat(c: Any, lam: Any) -> Any:  # lam^2 d/dlam of obj, increasing in lam
        e0, d = c.num(eps0), c.num(delta)
        return k * lam * mgf_dlog_m(c, e0, lam) - k * mgf_log_m(c, e0, lam) - _log_inv(c, d)

    return _mgf_argmin(ctx, obj, stat)


@functools.lru_cache(maxsize=4096)
def _mgf_lam_delta(eps0: Fraction, k: int, eps: Fraction, prec: int, fp: bool) -> Fraction:
    ctx: Any = FloatCtx() if fp else MpCtx(prec)

    def obj(c: Any, lam: Any) -> Any:
        return k * mgf_log_m(c, c.num(eps0), lam) - lam * c.num(eps)

    def stat(c: Any, lam: Any) -> Any:  # d/dlam of obj, increasing (ln M is convex)
        return k * mgf_dlog_m(c, c.num(eps0), lam) - c.num(eps)

    return _mgf_argmin(ctx, obj, stat)


def _as_fraction_param(ctx: Any, v: Any, name: str) -> Fraction:
    e = _exact_value(v)
    if e is not None:
        return e
    if isinstance(ctx, FloatCtx) or isinstance(v, float):
        return Fraction(approx_float(v))
    if isinstance(v, flint.arb):  # before mpf: arb also has a man_exp (a method)
        if not _wide(v):
            return arb_to_fraction(v.mid())
    elif hasattr(v, "man_exp"):
        return _mp_fraction(v)
    raise Unsupported(f"{name} must be a point for the MGF search")


@exact_params("eps0", "delta")
def mgf_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """DDR-T5 (reconstruction): ``min(k eps0, inf_{lam > 0} (k ln M(lam) + ln(1/delta))/lam)``
    with ``M(lam) = sup_t (p_t e^{lam t} + (1 - p_t) e^{lam (t - eps0)})`` ([DDR] arXiv 1909.13830,
    Thm 5, as the Chernoff bound on the adaptive privacy-loss martingale). Every lam gives a
    valid bound; lam is found by golden section over ``ln lam in [-14, 10]`` (the objective is
    quasi-convex) and the value is the bound at that lam, within the working precision of the
    infimum (secant refinement of the stationarity condition, ``d/dlam ln M`` by the envelope
    theorem)."""
    e0 = _as_fraction_param(ctx, eps0, "eps0")
    d = _as_fraction_param(ctx, delta, "delta")
    lam = _mgf_lam_eps(e0, k, d, max(int(ctx.prec), 64), isinstance(ctx, FloatCtx))
    E0, D, L = to_ctx(ctx, eps0), to_ctx(ctx, delta), ctx.num(lam)
    raw = (k * mgf_log_m(ctx, E0, L) + _log_inv(ctx, D)) / L
    return _clip_min(ctx, k * E0, raw)


@exact_params("eps0", "eps")
def mgf_delta(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """DDR-T5 solved for delta (derived): ``min(1, inf_{lam > 0} exp(k ln M(lam) - lam eps))``
    (golden section over ``ln lam``; the objective is convex in lam)."""
    e0 = _as_fraction_param(ctx, eps0, "eps0")
    g = _as_fraction_param(ctx, eps, "eps")
    lam = _mgf_lam_delta(e0, k, g, max(int(ctx.prec), 64), isinstance(ctx, FloatCtx))
    E0, G, L = to_ctx(ctx, eps0), to_ctx(ctx, eps), ctx.num(lam)
    return ctx.min(ctx.one, ctx.exp(k * mgf_log_m(ctx, E0, L) - L * G))


def dr19_eps_raw(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """``k eps0 (e^eps0 - 1) + eps0 sqrt((k/2) ln(1/delta))``: the DRV bias term with the BR
    Azuma term (catalogue DR19-BR, reconstruction)."""
    return k * eps0 * ctx.expm1(eps0) + eps0 * ctx.sqrt(k * _log_inv(ctx, delta) / 2)


def dr19_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """DR19-BR (DRV-KL variant): ``min(k eps0, k eps0 (e^eps0 - 1) + eps0 sqrt((k/2) ln(1/delta)))``
    ([DR19] arXiv 1905.04273 as plotted in [DDR] Fig. 1; the catalogue's reconstruction)."""
    e0, d = to_ctx(ctx, eps0), to_ctx(ctx, delta)
    return _clip_min(ctx, k * e0, dr19_eps_raw(ctx, e0, k, d))


def dr19_eps_het(ctx: Any, eps_list: Sequence[Any], delta: Any) -> Any:
    """DR19-BR heterogeneous: ``sum_i eps_i (e^eps_i - 1) + sqrt((1/2) sum_i eps_i^2 ln(1/delta))``
    (unclipped; catalogue DR19-BR)."""
    bias = ctx.fsum(e * ctx.expm1(e) for e in eps_list)
    sq = ctx.fsum(e * e for e in eps_list)
    return bias + ctx.sqrt(sq * _log_inv(ctx, delta) / 2)


def dr19_eps_kovkl(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """DR19-BR, KOV-KL variant: ``min(k eps0, k eps0 (e^eps0 - 1)/(e^eps0 + 1) + eps0 sqrt((k/2)
    ln(1/delta)))`` (the alternative reconstruction of the catalogue)."""
    e0, d = to_ctx(ctx, eps0), to_ctx(ctx, delta)
    raw = k * e0 * ctx.tanh(e0 / 2) + e0 * ctx.sqrt(k * _log_inv(ctx, d) / 2)
    return _clip_min(ctx, k * e0, raw)


# ==========================================================================================
# DDR-FIG1: how many eps0-BR queries fit in a budget


def _largest_k(ok: Callable[[int], bool], start: int, guess: int | None = None) -> int:
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


def _k_basic_exact(eps0: Fraction, eps: Fraction) -> int:
    return math.floor(eps / eps0)


_FP = FloatCtx()


@functools.lru_cache(maxsize=512)
def _fig1_search(kind: str, eps0: Fraction, eps: Fraction, delta: Fraction) -> int:
    """The double-precision search of one column of [DDR] Fig. 1 (cached)."""
    e0, B, d = float(eps0), float(eps), float(delta)
    start = _k_basic_exact(eps0, eps)  # every bound allows the basic-composition count
    if kind == "dp_optcomp":
        return _largest_k(lambda k: kov_delta_pure(_FP, e0, k, B) <= d, start)
    if kind == "dp_optcomp_half":
        # k-fold RR(eps0/2) allows about 4 times the queries of RR(eps0): a starting guess
        guess = 4 * _fig1_search("dp_optcomp", eps0, eps, delta)
        return _largest_k(lambda k: kov_delta_pure(_FP, e0 / 2, k, B) <= d, 2 * start, guess)
    if kind == "dr19":
        return _largest_k(lambda k: dr19_eps(_FP, e0, k, d) <= B, start)
    if kind == "dr19_kovkl":
        return _largest_k(lambda k: dr19_eps_kovkl(_FP, e0, k, d) <= B, start)
    if kind == "optkl":
        return _largest_k(lambda k: optkl_eps(_FP, e0, k, d) <= B, start)
    if kind == "mgf":
        guess = _fig1_search("optkl", eps0, eps, delta)
        return _largest_k(lambda k: _FP.run(mgf_eps, eps0=eps0, k=k, delta=delta) <= B,
                          start, guess)
    if kind == "br_optcomp":
        guess = _fig1_search("dp_optcomp_half", eps0, eps, delta)
        return _largest_k(lambda k: _t3_point(_FP, eps0, k, eps) <= d, start, guess)
    raise ValueError(kind)


def _fig1_ok(ctx: Any, kind: str, eps0: Fraction, eps: Fraction, delta: Fraction,
             k: int) -> bool | None:
    """The same decision as the search, in ``ctx`` (certified in arb)."""
    if k <= _k_basic_exact(eps0, eps) and kind != "dp_optcomp_half":
        return True
    E0, B, D = ctx.num(eps0), ctx.num(eps), ctx.num(delta)
    if kind == "dp_optcomp":
        return ctx.le(kov_delta_pure(ctx, eps0, k, eps), D)
    if kind == "dp_optcomp_half":
        return ctx.le(kov_delta_pure(ctx, eps0 / 2, k, eps), D)
    if kind == "dr19":
        return ctx.le(dr19_eps(ctx, E0, k, D), B)
    if kind == "dr19_kovkl":
        return ctx.le(dr19_eps_kovkl(ctx, E0, k, D), B)
    if kind == "optkl":
        return ctx.le(optkl_eps(ctx, E0, k, D), B)
    if kind == "mgf":
        return ctx.le(mgf_eps(ctx, eps0, k, delta), B)
    if kind == "br_optcomp":
        return ctx.le(t3_delta(ctx, eps0, k, eps), D)
    raise ValueError(kind)


def _fig1_k(ctx: Any, kind: str, eps0: Any, eps: Any, delta: Any) -> int:
    """The largest k meeting the budget for one bound: a double-precision search (doubling and
    bisection, assuming monotonicity in k: DDR-FIG1 claim 6), then, in a rigorous context, the
    boundary ``(k, k+1)`` re-decided in arb (for BR-OptComp only up to k = 3000) and moved if
    the certified decisions disagree."""
    e0 = _exact_value(eps0)
    b = _exact_value(eps)
    d = _exact_value(delta)
    if e0 is None or b is None or d is None:
        raise Unsupported("the query counts need exact eps0, eps and delta")
    k = _fig1_search(kind, e0, b, d)
    if not _rigorous(ctx) or (kind == "br_optcomp" and k + 1 > FIG1_RECHECK_BR_K):
        return k

    def ok(j: int) -> bool:
        r = _fig1_ok(ctx, kind, e0, b, d, j)
        if r is None:
            raise PrecisionExhausted(f"cannot decide the budget of {kind} at k = {j}")
        return r

    while k > 0 and not ok(k):
        k -= 1
    while ok(k + 1):
        k += 1
    return k


def _fig1_evaluator(kind: str) -> Callable[..., int]:
    @exact_params("eps0", "eps", "delta")
    def f(ctx: Any, eps0: Any, eps: Any, delta: Any) -> int:
        return _fig1_k(ctx, kind, eps0, eps, delta)

    f.__name__ = f"k_{kind}"
    f.__doc__ = (f"DDR-FIG1: the largest k with the {kind} bound within budget eps at delta "
                 "([DDR] arXiv 1909.13830, Fig. 1; search as in :func:`_fig1_k`).")
    return f


@exact_params("eps0", "eps")
def fig1_k_basic(ctx: Any, eps0: Any, eps: Any) -> int:
    """DDR-FIG1: ``floor(eps/eps0)`` queries under basic composition (exact)."""
    e0, b = _exact_value(eps0), _exact_value(eps)
    if e0 is None or b is None:
        raise Unsupported("k_basic needs exact eps0 and eps")
    return _k_basic_exact(e0, b)


FIG1_KINDS = ("basic", "dp_optcomp", "dr19", "dr19_kovkl", "optkl", "mgf", "br_optcomp",
              "dp_optcomp_half")


def _to_fraction(x: Any) -> Fraction:
    if isinstance(x, Fraction | int):
        return Fraction(x)
    if isinstance(x, str):
        return Fraction(x)
    if isinstance(x, float):
        return Fraction(repr(x))
    raise TypeError(f"cannot read {x!r} as a number")


def figure1_series(eps0: Any, eps_values: Sequence[Any], delta: Any) -> dict[str, list[int]]:
    """The query counts of [DDR] Fig. 1 for each budget in ``eps_values``, per bound: keys
    ``basic``, ``dp_optcomp`` (KOV with eps0), ``dr19``, ``dr19_kovkl``, ``optkl``, ``mgf``,
    ``br_optcomp`` (DDR-T3, non-adaptive), ``dp_optcomp_half`` (KOV with eps0/2), each a list of
    ints aligned with ``eps_values``. Numbers may be given as strings, Fractions or floats
    (floats are read by their shortest decimal repr). Double-precision searches (the
    catalogue's float path); for plotting."""
    e0, d = _to_fraction(eps0), _to_fraction(delta)
    if e0 <= 0 or not 0 < d < 1:
        raise InvalidParameter("figure1_series needs eps0 > 0 and delta in (0, 1)")
    out: dict[str, list[int]] = {kind: [] for kind in FIG1_KINDS}
    for b in eps_values:
        B = _to_fraction(b)
        if B <= 0:
            raise InvalidParameter(f"every budget must be > 0; got {b}")
        out["basic"].append(_k_basic_exact(e0, B))
        for kind in FIG1_KINDS[1:]:
            out[kind].append(_fig1_search(kind, e0, B, d))
    return out


# ==========================================================================================
# Finite mechanisms: BR parameter, DP parameter, Range (oracle routes)


def log_ratios(ctx: Any, p: Sequence[Any], q: Sequence[Any]) -> list[Any]:
    """``ln(P(y)/Q(y))`` for every output (full support)."""
    return [ctx.log(a / b) for a, b in zip(p, q, strict=True)]


def br_by_pairs(ctx: Any, p: Sequence[Any], q: Sequence[Any]) -> Any:
    """The BR parameter of one ordered pair from the definition ([DDR] Def. 2.2): the largest
    ``ln(P(y)/Q(y)) - ln(P(y')/Q(y'))`` over all pairs of outputs ``(y, y')``."""
    lr = log_ratios(ctx, p, q)
    return ctx.max(*(a - b for a in lr for b in lr))


def br_window(ctx: Any, p: Sequence[Any], q: Sequence[Any]) -> Any:
    """The window width ``max_y ln(P/Q) - min_y ln(P/Q)`` ([DDR] Cor. 2.1)."""
    lr = log_ratios(ctx, p, q)
    return ctx.max(*lr) - ctx.min(*lr)


def dp_level(ctx: Any, p: Sequence[Any], q: Sequence[Any]) -> Any:
    """``max_y |ln(P(y)/Q(y))|``: the pure-DP level of the pair (both orders)."""
    return ctx.max(*(ctx.abs(v) for v in log_ratios(ctx, p, q)))


def _draw_pair(rng: random.Random) -> dict[str, Any]:
    p, q = finite.random_pair(rng)
    return {"p": p, "q": q}


def _em_laws(ctx: Any, rows: Sequence[Sequence[Any]], scale: Any) -> list[list[Any]]:
    """``P[M(x)=y] ∝ exp(scale u(x, y))`` for every row ``u(x, .)``."""
    out = []
    for row in rows:
        w = [ctx.exp(scale * u) for u in row]
        z = ctx.fsum(w)
        out.append([v / z for v in w])
    return out


def _draw_t1(rng: random.Random) -> dict[str, Any]:
    """DDR-T1's instances: a base row of integers in [0, 5] on 2..6 outputs, five neighbours
    adding -1, 0 or +1 per output, eps uniform on the rationals k/100 in [0.1, 2]."""
    while True:
        n = rng.randint(2, 6)
        base = tuple(rng.randint(0, 5) for _ in range(n))
        nbrs = tuple(tuple(b + rng.choice((-1, 0, 1)) for b in base) for _ in range(5))
        if any(x != base for x in nbrs):
            return {"base": base, "nbrs": nbrs, "eps": Fraction(rng.randint(10, 200), 100)}


def _t1_sensitivity(base: Sequence[int], nbrs: Sequence[Sequence[int]]) -> int:
    return max(abs(a - b) for row in nbrs for a, b in zip(base, row, strict=True))


def _t1_max(level: Callable[..., Any]) -> Callable[..., Any]:
    def term(ctx: Any, base: Any, nbrs: Any, eps: Any, **_: Any) -> Any:
        du = _t1_sensitivity(base, nbrs)
        scale = eps / (2 * du)
        out = None
        for row in nbrs:
            p, q = _em_laws(ctx, (base, row), scale)
            v = ctx.max(level(ctx, p, q), level(ctx, q, p))
            out = v if out is None else ctx.max(out, v)
        return out - eps

    return term


def range_of(rows: Sequence[Sequence[Fraction]], pairs: Sequence[tuple[int, int]]) -> Fraction:
    """``Range(u) = max_{x~x'} max_{y,y'} (u(x,y) - u(x',y)) - (u(x,y') - u(x',y'))`` ([DDR]
    Prop. 1), over both orders of each neighbouring pair, exactly."""
    best = None
    for a, b in pairs:
        for x, xp in ((a, b), (b, a)):
            d = [u - v for u, v in zip(rows[x], rows[xp], strict=True)]
            r = max(d) - min(d)
            best = r if best is None else max(best, r)
    assert best is not None
    return best


def sensitivity_of(rows: Sequence[Sequence[Fraction]], pairs: Sequence[tuple[int, int]]
                   ) -> Fraction:
    """``Delta u = max_y max_{x~x'} |u(x,y) - u(x',y)|``."""
    return max(abs(u - v) for a, b in pairs for u, v in zip(rows[a], rows[b], strict=True))


_CHAIN = ((0, 1), (1, 2), (2, 3))


def _draw_utilities(rng: random.Random) -> dict[str, Any]:
    """Four datasets in a chain of three neighbouring pairs, 2..5 outputs, values in [-3, 3]
    (rationals j/100), and eps = j/100 in [0.1, 2] for DDR-P2."""
    while True:
        n = rng.randint(2, 5)
        rows = tuple(tuple(Fraction(rng.randint(-300, 300), 100) for _ in range(n))
                     for _ in range(4))
        if range_of(rows, _CHAIN) > 0:
            return {"rows": rows, "eps": Fraction(rng.randint(10, 200), 100)}


def _draw_monotone(rng: random.Random) -> dict[str, Any]:
    """A monotone utility: each neighbour in the chain adds a value in [0, 1] to every
    output (rationals j/100)."""
    n = rng.randint(2, 5)
    row = [Fraction(rng.randint(-300, 300), 100) for _ in range(n)]
    rows = [tuple(row)]
    for _ in range(3):
        row = [u + Fraction(rng.randint(0, 100), 100) for u in row]
        rows.append(tuple(row))
    return {"rows": tuple(rows)}


def _p2_br_gap(ctx: Any, rows: Any, eps: Any, **_: Any) -> Any:
    """``max over neighbouring pairs of the realised BR parameter - eps`` for
    ``P[M(x)=y] ∝ exp(eps u(x,y)/Range(u))`` ([DDR] Prop. 2)."""
    exact_rows = tuple(tuple(Fraction(v) if is_exact(v) else v for v in r) for r in rows)
    rg = range_of(exact_rows, _CHAIN)
    laws = _em_laws(ctx, [[ctx.num(v) for v in r] for r in exact_rows], eps / ctx.num(rg))
    out = None
    for a, b in _CHAIN:
        v = br_window(ctx, laws[a], laws[b])
        out = v if out is None else ctx.max(out, v)
    return out - eps


_p2_br_gap.exact_params = ("rows",)  # type: ignore[attr-defined]


def _mixture_br(ctx: Any, eps: Any, t1: Any, t2: Any, **_: Any) -> Any:
    """BR parameter of the 1/2-mixture, on disjoint output labels, of ``RR_{eps,t1}`` and
    ``RR_{eps,t2}`` (DDR-D26 claim 1), from the four output probabilities."""
    (p1, r1), (q1, s1) = grr_pair(ctx, eps, t1)
    (p2, r2), (q2, s2) = grr_pair(ctx, eps, t2)
    half = ctx.num(Fraction(1, 2))
    P = [half * p1, half * r1, half * p2, half * r2]
    Q = [half * q1, half * s1, half * q2, half * s2]
    return br_window(ctx, P, Q)


def _draw_mixture(rng: random.Random) -> dict[str, Any]:
    eps = Fraction(rng.randint(20, 200), 100)
    while True:
        t1 = eps * Fraction(rng.randint(1, 99), 100)
        t2 = eps * Fraction(rng.randint(1, 99), 100)
        if t1 != t2:
            return {"eps": eps, "t1": t1, "t2": t2}


def _draw_br_pair(rng: random.Random) -> dict[str, Any]:
    """A random eps-BR pair: Q random, P ∝ Q rho with ratios rho_y in [1, 1 + eps] (so every
    log-ratio lies in a window of width ln(1 + eps) <= eps), eps = j/100 in [0.2, 2]."""
    eps = Fraction(rng.randint(20, 200), 100)
    n = rng.randint(2, 6)
    q = finite.random_distribution(rng, n)
    rho = [1 + eps * Fraction(rng.randint(0, 1000), 1000) for _ in range(n)]
    w = [a * b for a, b in zip(q, rho, strict=True)]
    z = sum(w)
    return {"p": tuple(x / z for x in w), "q": q, "eps": eps}


def _l41_sides(factor: Fraction) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def pair_side(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
        return finite.hockey_stick(ctx, p, q, eps * ctx.num(factor))

    def grr_side(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
        t = ctx.max(*log_ratios(ctx, p, q))
        (a, b), (c, d) = grr_pair(ctx, eps, t)
        return finite.hockey_stick(ctx, (a, b), (c, d), eps * ctx.num(factor))

    return pair_side, grr_side


L44_COUNTS = (3, 7, 2, 7, 5)
L44_Z = (1, 0, 1, 1, 0)


def _l44_log_ratios(ctx: Any, eps: Any) -> list[Any]:
    """``ln(P[M(x)=y]/P[M(x')=y])`` for the counting-query exponential mechanism
    ``P[M(x)=y] ∝ exp(eps u(x,y))`` with x' = x plus the bit-string z ([DDR] Def. 4.2)."""
    x = list(L44_COUNTS)
    xp = [c + z for c, z in zip(L44_COUNTS, L44_Z, strict=True)]
    p, q = _em_laws(ctx, (x, xp), eps)
    return log_ratios(ctx, p, q)


def _l44_two_values(ctx: Any, eps: Any, **_: Any) -> bool | None:
    """Claim 1: the log-ratio takes exactly two values, ``eps`` apart (to 1e-40)."""
    lr = _l44_log_ratios(ctx, eps)
    top, bot = ctx.max(*lr), ctx.min(*lr)
    tol = ctx.num(Fraction(1, 10**40))
    width_ok = ctx.le(ctx.abs(top - bot - eps), tol)
    at_ends = [ctx.lt(ctx.min(ctx.abs(v - top), ctx.abs(v - bot)), tol) for v in lr]
    results = [width_ok, *at_ends]
    if any(r is False for r in results):
        return False
    return None if any(r is None for r in results) else True


def _l44_t_in_range(ctx: Any, eps: Any, **_: Any) -> bool | None:
    """Claim 2: ``t = max_y ln(P/Q) = ln(Z(x')/Z(x))`` lies in ``[0, eps]``."""
    t = ctx.max(*_l44_log_ratios(ctx, eps))
    a, b = ctx.le(ctx.zero, t), ctx.le(t, eps)
    if a is False or b is False:
        return False
    return None if a is None or b is None else True


def _kfold_grr(ctx: Any, eps_list: Sequence[Any], t_list: Sequence[Any]
               ) -> tuple[list[Any], list[Any]]:
    """The product laws of ``RR_{eps_i,t_i}`` over ``{0,1}^k`` (enumeration)."""
    P: list[Any] = [ctx.one]
    Q: list[Any] = [ctx.one]
    for e, t in zip(eps_list, t_list, strict=True):
        (a, b), (c, d) = grr_pair(ctx, e, t)
        P = [x * y for x in P for y in (a, b)]
        Q = [x * y for x in Q for y in (c, d)]
    return P, Q


def het_objective(ctx: Any, eps_list: Sequence[Any], t_list: Sequence[Any], eps: Any) -> Any:
    """The Lemma 3.1 objective ``sum_y (prod_i P_i(y_i) - e^eps prod_i Q_i(y_i))_+`` by
    enumeration of ``{0,1}^k`` ([DDR] Lemma 3.1)."""
    P, Q = _kfold_grr(ctx, eps_list, t_list)
    return finite.hockey_stick(ctx, P, Q, eps)


# ==========================================================================================
# Claim helpers


def _c(value: str | int | Fraction) -> Callable[..., Any]:
    v = Fraction(value)

    def term(ctx: Any, **_: Any) -> Any:
        return ctx.num(v)

    return term


def _tiny(exp10: int) -> Fraction:
    return Fraction(1, 10**exp10)


def _plus(term: Callable[..., Any], slack: Fraction) -> Callable[..., Any]:
    """``term + slack`` (a stated tolerance for a comparison that can be an equality)."""

    def t(ctx: Any, **kw: Any) -> Any:
        return term(ctx, **kw) + ctx.num(slack)

    t.exact_params = getattr(term, "exact_params", ())  # type: ignore[attr-defined]
    return t


def _minus(a: Callable[..., Any], b: Callable[..., Any]) -> Callable[..., Any]:
    """``a - b`` of two terms with the same exact parameters."""

    def t(ctx: Any, **kw: Any) -> Any:
        return a(ctx, **kw) - b(ctx, **kw)

    t.exact_params = tuple(set(getattr(a, "exact_params", ()))  # type: ignore[attr-defined]
                           | set(getattr(b, "exact_params", ())))
    return t


@exact_params("eps0", "eps")
def _t3_term(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    return t3_delta(ctx, eps0, k, eps)


def _kov_term(half: bool) -> Callable[..., Any]:
    @exact_params("eps0", "eps")
    def term(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
        e = Fraction(eps0) / 2 if half else eps0
        return kov_delta_pure(ctx, e, k, eps)

    return term


def _ordered(lower: Callable[..., Any], upper: Callable[..., Any]) -> Callable[..., Any]:
    """A certified test of ``min(k eps0, a) <= min(k eps0, b)`` for two clipped bounds, from
    their unclipped values a, b: true when ``b >= k eps0`` or ``a <= b`` (each decided)."""

    @exact_params("eps0", "delta")
    def test(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> bool | None:
        cap = k * ctx.num(eps0)
        a = lower(ctx, eps0, k, delta)
        b = upper(ctx, eps0, k, delta)
        if ctx.le(cap, b) is True or ctx.le(a, b) is True:
            return True
        if ctx.lt(b, a) is True and ctx.lt(b, cap) is True:
            return False
        return None

    return test


def _mgf_raw(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    e0, d = _exact_value(eps0), _exact_value(delta)
    assert e0 is not None and d is not None
    lam = _mgf_lam_eps(e0, k, d, max(int(ctx.prec), 64), False)
    L = ctx.num(lam)
    return (k * mgf_log_m(ctx, ctx.num(e0), L) + _log_inv(ctx, ctx.num(d))) / L


def _optkl_raw(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    e0, d = ctx.num(eps0), ctx.num(delta)
    return k * kl_sup(ctx, e0) + ctx.sqrt(k * e0 * e0 / 2 * _log_inv(ctx, d))


def _kovkl_raw(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    e0, d = ctx.num(eps0), ctx.num(delta)
    return k * e0 * ctx.tanh(e0 / 2) + e0 * ctx.sqrt(k * _log_inv(ctx, d) / 2)


def _dr19_raw(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return dr19_eps_raw(ctx, ctx.num(eps0), k, ctx.num(delta))


ORDER_GRID = grid(eps0=["0.01", "0.1", "0.5", "1.0"], k=[1, 10, 100, 1000],
                  delta=["1e-3", "1e-6", "1e-9"])
ORDER_TEXT = ("the 48 configurations eps0 in {0.01, 0.1, 0.5, 1.0}, k in {1, 10, 100, 1000}, "
              "delta in {1e-3, 1e-6, 1e-9}")


def _order_check(lower: Callable[..., Any], upper: Callable[..., Any], text: str) -> Predicate:
    return Predicate(_ordered(lower, upper), ORDER_GRID, "numeric", text)


def _lower_exact(ctx: Any, x: Any) -> Fraction:
    """An exact rational <= x (the lower end of an arb ball; the value itself otherwise)."""
    if isinstance(x, flint.arb):
        return arb_to_fraction(x.lower())
    e = _exact_value(x)
    if e is not None:
        return e
    if hasattr(x, "man_exp"):
        return _mp_fraction(x)
    return Fraction(approx_float(x))


def _upper_exact(ctx: Any, x: Any) -> Fraction:
    if isinstance(x, flint.arb):
        return arb_to_fraction(x.upper())
    return _lower_exact(ctx, x)


def _ub_at(bound: Callable[..., Any]) -> Callable[..., Any]:
    """``delta_A(k, .)``'s lattice upper bound at ``eps = bound(eps0, k, delta)``; ``delta_A`` is
    nonincreasing, so the value at the lower end of the bound's enclosure bounds it."""

    @exact_params("eps0", "delta")
    def term(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
        x = bound(ctx, eps0, k, delta)
        return l32_bounds(ctx, Fraction(eps0), k, _lower_exact(ctx, x))[1]

    return term


def _mgf_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return mgf_eps(ctx, eps0, k, delta)


def _dr19_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return dr19_eps(ctx, ctx.num(eps0), k, ctx.num(delta))


@exact_params("delta")
def _delta_term(ctx: Any, delta: Any, **_: Any) -> Any:
    return ctx.num(delta)


def _ub_points() -> Points:
    return grid(eps0=["0.5"], k=[1, 2, 3, 4, 5, 6], delta=["0.1", "0.01", "0.001"])


# ==========================================================================================
# DDR-D22, DDR-C21, DDR-L21, DDR-T1


def _src(locator: str) -> Source:
    return Source(DDR[0], locator + " (arXiv version not verified)", arxiv=DDR[1])


def _br_pairs_term(ctx: Any, p: Any, q: Any, **_: Any) -> Any:
    return br_by_pairs(ctx, p, q)


def _br_window_term(ctx: Any, p: Any, q: Any, **_: Any) -> Any:
    return br_window(ctx, p, q)


def _dp_term(ctx: Any, p: Any, q: Any, **_: Any) -> Any:
    return dp_level(ctx, p, q)


def _two_dp_term(ctx: Any, p: Any, q: Any, **_: Any) -> Any:
    return 2 * dp_level(ctx, p, q)


def _c21_window(ctx: Any, p: Any, q: Any, **_: Any) -> bool | None:
    """With ``w = max lr - min lr`` and ``t = max lr``: ``0 <= t <= w`` and every log-ratio lies
    in ``[t - w, t]`` (both distributions sum to 1, so ``max lr >= 0 >= min lr``)."""
    lr = log_ratios(ctx, p, q)
    t, lo = ctx.max(*lr), ctx.min(*lr)
    w = t - lo
    tol = ctx.num(_tiny(40))  # the window's ends are attained: certified up to 1e-40
    checks = [ctx.le(ctx.zero, t), ctx.le(lo, ctx.zero), ctx.le(t, w + tol)]
    checks += [ctx.le(t - w, v + tol) for v in lr] + [ctx.le(v, t + tol) for v in lr]
    if any(c is False for c in checks):
        return False
    return None if any(c is None for c in checks) else True


PAIRS = Generated(_draw_pair, 300, "random full-support pairs (2 to 6 outputs, rational)")

DDR_D22 = Theorem(
    id="DDR-D22",
    title="Bounded range (BR)",
    family=FAMILY,
    source=_src("Def. 2.2 (from [DR19] arXiv 1905.04273)"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement="M is eps-BR if, for all neighbours x, x' and all outcomes y, y': "
              "P[M(x)=y]/P[M(x')=y] <= e^eps P[M(x)=y']/P[M(x')=y'] (densities for continuous "
              "outputs).",
    domain="eps >= 0",
    claims=(
        Claim(1, "The BR parameter of a full-support pair (P, Q), computed from the definition as "
                 "the largest ln(P(y)/Q(y)) - ln(P(y')/Q(y')) over all pairs of outputs, equals "
                 "max_y ln(P/Q) - min_y ln(P/Q) (DDR-C21), to 1e-40, on random pairs.",
              (Compare(_br_pairs_term, "eq", _br_window_term, PAIRS, "oracle", Tol.abs("1e-40"),
                       "BR by all (y, y') pairs", "max lr - min lr"),)),
    ),
    notes="The relation to DP is DDR-L21; the window form is DDR-C21.",
)

DDR_C21 = Theorem(
    id="DDR-C21",
    title="Corollary 2.1: BR as a sliding log-ratio window",
    family=FAMILY,
    source=_src("Cor. 2.1"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="M is eps-BR iff for all neighbours x ~ x' there is t in [0, eps] with t - eps <= "
              "ln(P[M(x)=y]/P[M(x')=y]) <= t for every y; t lies in [0, eps] because both "
              "distributions sum to 1 (max log-ratio >= 0 >= min log-ratio).",
    domain="eps >= 0",
    claims=(
        Claim(1, "For random pairs, with eps = max lr - min lr and t = max_y ln(P(y)/Q(y)): t is "
                 "in [0, eps] and every log-ratio lies in [t - eps, t] (certified in arb).",
              (Predicate(_c21_window, PAIRS, "oracle",
                         "t = max lr in [0, eps] and lr in [t - eps, t] for every output"),)),
    ),
    notes="t = max_y ln(P(y)/Q(y)) is the canonical choice of t; DDR-L41 uses it.",
)

DDR_L21 = Theorem(
    id="DDR-L21",
    title="Lemma 2.1: BR versus DP",
    family=FAMILY,
    source=_src("Lemma 2.1 ([DR19] Cor. 4.2)"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="eps-BR implies eps-DP, and eps-DP implies 2eps-BR.",
    domain="eps >= 0",
    claims=(
        Claim(1, "On 300 random pairs (2 to 6 outputs, full support): dp_eps = max_y |ln(P/Q)| "
                 "<= br_eps = max lr - min lr.",
              (Compare(_dp_term, "le", _br_window_term, PAIRS, "oracle", lhs_name="dp_eps",
                       rhs_name="br_eps"),)),
        Claim(2, "On the same pairs: br_eps <= 2 dp_eps.",
              (Compare(_br_window_term, "le", _two_dp_term, PAIRS, "oracle",
                       lhs_name="br_eps", rhs_name="2 dp_eps"),)),
    ),
    notes="The factor 2 is attained by Laplace noise (DDR-L21-LAPLACE).",
)

T1_INSTANCES = Generated(_draw_t1, 50, "random sensitivity-1 utilities (base row in [0, 5], "
                                       "5 neighbours +-1/0 per output, eps in [0.1, 2])")

DDR_T1 = Theorem(
    id="DDR-T1",
    title="Exponential mechanism is eps-DP and eps-BR",
    family=FAMILY,
    source=_src("Def. 2.3 and Thm 1 (eps-DP: McSherry-Talwar; eps-BR: [DR19])"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="P[M(x)=y] ∝ exp(eps u(x,y)/(2 Delta_u)), Delta_u = max_y max_{x~x'} |u(x,y) - "
              "u(x',y)|. Thm 1: M is eps-DP and eps-BR.",
    domain="finite output set, eps > 0, Delta_u > 0",
    aliases=("DDR-D23",),
    claims=(
        Claim(1, "On 50 random utilities: max over neighbouring pairs (both orders) of dp_eps - "
                 "eps <= 0 (strict: the normaliser's log-ratio lies strictly inside the range).",
              (Compare(_t1_max(dp_level), "le", _c(0), T1_INSTANCES, "oracle",
                       lhs_name="max dp_eps - eps", rhs_name="0"),)),
        Claim(2, "On the same utilities: max br_eps - eps <= 0, certified to 1e-40 (the bound is "
                 "attained when one output moves by +Delta_u and another by -Delta_u).",
              (Compare(_t1_max(br_window), "le", _c(_tiny(40)), T1_INSTANCES, "oracle",
                       lhs_name="max br_eps - eps", rhs_name="1e-40"),)),
    ),
    notes="The same mechanism is BLOG-EXP in foundations.",
)


# ==========================================================================================
# DDR-P1, DDR-P2


P1_U = ((Fraction(0), Fraction(1), Fraction(5)), (Fraction(1), Fraction(1), Fraction(4)))
P1_F = (Fraction(0), Fraction(100))


def _p1_example(ctx: Any, **_: Any) -> bool:
    """(i) with u = ((0, 1, 5), (1, 1, 4)) on one pair and f = (0, 100): Range(u + f) = Range(u)
    = 2 while the sensitivity jumps from 1 to 101 (exact rationals)."""
    pair = ((0, 1),)
    uf = tuple(tuple(v + P1_F[x] for v in row) for x, row in enumerate(P1_U))
    return (range_of(uf, pair) == range_of(P1_U, pair) == 2
            and sensitivity_of(P1_U, pair) == 1 and sensitivity_of(uf, pair) == 101)


def _range_vs(factor: int) -> Callable[..., Any]:
    def test(ctx: Any, rows: Any, **_: Any) -> bool:
        return range_of(rows, _CHAIN) <= factor * sensitivity_of(rows, _CHAIN)

    test.exact_params = ("rows",)  # type: ignore[attr-defined]
    return test


UTILITIES = Generated(_draw_utilities, 100, "random real utilities (4 datasets in a chain, 2 to "
                                             "5 outputs, values j/100 in [-3, 3])")

DDR_P1 = Theorem(
    id="DDR-P1",
    title="Proposition 1: range of a quality score",
    family=FAMILY,
    source=_src("Prop. 1"),
    types=("EXACT",),
    confidence=("DERIVED", "UNCERTAIN"),
    statement="Range(u) := max_{x~x'} max_{y,y'} (u(x,y) - u(x',y)) - (u(x,y') - u(x',y')). "
              "(i) Range(u + f(x)) = Range(u) although the sensitivity of u + f can be "
              "arbitrarily large; (ii) Range(u) <= 2 Delta_u; (iii) Range(u) <= Delta_u for "
              "monotone u (the catalogue's reading of the three bullets).",
    domain="finite output set, finite set of neighbouring pairs",
    claims=(
        Claim(1, "(i) u = ((0, 1, 5), (1, 1, 4)) on one neighbouring pair, f = (0, 100): "
                 "Range(u + f) = Range(u) = 2 while the sensitivity jumps from 1 to 101.",
              (Predicate(_p1_example, points({}), "oracle", "exact enumeration"),)),
        Claim(2, "(ii) Range(u) <= 2 Delta_u on 100 random real utilities (exact rationals).",
              (Predicate(_range_vs(2), UTILITIES, "oracle", "Range(u) <= 2 Delta_u"),)),
        Claim(3, "(iii) Range(u) <= Delta_u for 100 random monotone utilities (each neighbour "
                 "adds a value in [0, 1] to every output).",
              (Predicate(_range_vs(1), Generated(_draw_monotone, 100,
                                                 "random monotone utilities"),
                         "oracle", "Range(u) <= Delta_u"),)),
    ),
    notes="The exact wording of the paper's three bullets could not be read (only the paper's "
          "opening is reachable); the reading above is checked exactly.",
)

DDR_P2 = Theorem(
    id="DDR-P2",
    title="Proposition 2: range-based exponential mechanism",
    family=FAMILY,
    source=_src("Prop. 2"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="Sampling y with probability ∝ exp(eps u(x,y)/Range(u)) is eps-BR, hence eps-DP.",
    domain="eps > 0, Range(u) > 0",
    claims=(
        Claim(1, "On the random utilities of DDR-P1 claim 2 (eps = j/100 in [0.1, 2]), the "
                 "realised BR parameter of every neighbouring pair is at most eps, to 5e-51 "
                 "(the pair attaining the Range attains eps).",
              (Compare(_p2_br_gap, "le", _c(Fraction(5, 10**51)), UTILITIES, "oracle",
                       lhs_name="max BR - eps", rhs_name="5e-51"),)),
    ),
    notes="Range(u) <= 2 Delta_u (DDR-P1 (ii)): at least as concentrated as the standard "
          "exponential mechanism, twice as sharp for monotone u.",
)


# ==========================================================================================
# DDR-D24, DDR-F1, DDR-D26, DDR-L41, DDR-L44


def _grr_identity_problem(which: str) -> Callable[[], SmtProblem]:
    """``p/q = Y`` (``ln(p/q) = t``) or ``(1-p)/(1-q) = Y/X`` (``= t - eps``) with ``X = e^eps0``,
    ``Y = e^t``: the GRR formulas become ``p = (X - Y)/(X - 1)``, ``q = (X - Y)/(Y (X - 1))``,
    ``1 - p = (Y - 1)/(X - 1)``, ``1 - q = X (Y - 1)/(Y (X - 1))``."""

    def build() -> SmtProblem:
        import sympy as sp

        X, Y, P, Q = sp.symbols("X Y P Q", real=True)
        # P, Q are defined by the GRR formulas, written with denominators cleared
        hyps = (sp.Gt(X, 1), sp.Gt(Y, 1), sp.Lt(Y, X),
                sp.Eq(P * (1 - 1 / X), 1 - Y / X),          # p (1 - e^-eps) = 1 - e^{t-eps}
                sp.Eq(Q * (1 - 1 / X), 1 / Y - 1 / X))      # q (1 - e^-eps) = e^-t - e^-eps
        goal = sp.Eq(P, Q * Y) if which == "p/q" else sp.Eq((1 - P) * X, (1 - Q) * Y)
        return SmtProblem(
            variables={"X": "real", "Y": "real", "P": "real", "Q": "real"},
            hypotheses=hyps, goal=goal,
            substitutions=("X = e^eps0 (eps0 > 0)", "Y = e^t (0 < t < eps0)",
                           "P = p_{eps0,t}, Q = q_{eps0,t} by Def. 2.4's formulas",
                           "goal p/q = e^t" if which == "p/q"
                           else "goal (1-p)/(1-q) = e^{t - eps0}"))

    return build


D24_POINTS = points({"eps0": "0.5", "t": "0.1"}, {"eps0": "1.3", "t": "0.9"},
                    {"eps0": "0.2", "t": "0.0001"})


@exact_params("eps0", "t")
def _log_pq(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
    e, tt = to_ctx(ctx, eps0), to_ctx(ctx, t)
    return ctx.log(grr_p(ctx, e, tt) / grr_q(ctx, e, tt))


@exact_params("eps0", "t")
def _log_1mpq(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
    e, tt = to_ctx(ctx, eps0), to_ctx(ctx, t)
    return ctx.log(grr_1mp(ctx, e, tt) / grr_1mq(ctx, e, tt))


@exact_params("t")
def _t_term(ctx: Any, t: Any, **_: Any) -> Any:
    return ctx.num(t)


@exact_params("eps0", "t")
def _t_minus_eps(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
    return ctx.num(t - eps0)


def _std_rr(which: int) -> Callable[..., Any]:
    def term(ctx: Any, **_: Any) -> Any:
        z = ctx.exp(ctx.num(Fraction(2, 5)))
        return z / (1 + z) if which == 0 else 1 / (1 + z)

    return term


def _grr_at(f: Callable[..., Any]) -> Callable[..., Any]:
    def term(ctx: Any, **_: Any) -> Any:
        return f(ctx, ctx.num(Fraction(4, 5)), ctx.num(Fraction(2, 5)))

    return term


DDR_D24 = Theorem(
    id="DDR-D24",
    title="Generalized randomized response RR_{eps,t}",
    family=FAMILY,
    source=_src("Def. 2.4"),
    types=("DEFINITION",),
    confidence=("DERIVED",),
    statement="For eps > 0 and t in [0, eps], RR_{eps,t}: {0,1} -> {0,1} with P[RR(0)=0] = "
              "p = (1 - e^{t-eps})/(1 - e^{-eps}) and P[RR(1)=0] = q = (e^{-t} - e^{-eps})/(1 - "
              "e^{-eps}): the unique values with ln(p/q) = t and ln((1-p)/(1-q)) = t - eps. "
              "RR_{eps,eps/2} is standard RR(eps/2).",
    domain="eps0 > 0, t in [0, eps0] (p = q = 1 at t = 0 and p = q = 0 at t = eps0)",
    evaluators=(
        Evaluator("p", (EPS0_BR, T_PARAM), grr_p_eval, "(1 - e^{t-eps0})/(1 - e^{-eps0})"),
        Evaluator("q", (EPS0_BR, T_PARAM), grr_q_eval, "(e^{-t} - e^{-eps0})/(1 - e^{-eps0})"),
    ),
    claims=(
        Claim(1, "ln(p/q) = t to 1e-47 at (eps0, t) in {(0.5, 0.1), (1.3, 0.9), (0.2, 1e-4)}; "
                 "and as an identity after X = e^eps0, Y = e^t (z3).",
              (Compare(_log_pq, "eq", _t_term, D24_POINTS, "numeric", Tol.abs("1e-47"),
                       "ln(p/q)", "t"),
               Smt(_grr_identity_problem("p/q"), "p = q e^t for the GRR formulas (X = e^eps0, "
                   "Y = e^t, 1 < Y < X)"))),
        Claim(2, "ln((1-p)/(1-q)) = t - eps0 (same points; identity by z3).",
              (Compare(_log_1mpq, "eq", _t_minus_eps, D24_POINTS, "numeric", Tol.abs("1e-47"),
                       "ln((1-p)/(1-q))", "t - eps0"),
               Smt(_grr_identity_problem("1-p/1-q"), "(1-p) e^eps0 = (1-q) e^t for the GRR "
                   "formulas"))),
        Claim(3, "p(0.8, 0.4) = e^0.4/(1 + e^0.4) and q(0.8, 0.4) = 1/(1 + e^0.4): RR_{eps,eps/2} "
                 "is standard RR(eps/2).",
              (Compare(_grr_at(grr_p), "eq", _std_rr(0), points({}), "numeric",
                       Tol.abs("1e-47"), "p(0.8, 0.4)", "e^0.4/(1+e^0.4)"),
               Compare(_grr_at(grr_q), "eq", _std_rr(1), points({}), "numeric",
                       Tol.abs("1e-47"), "q(0.8, 0.4)", "1/(1+e^0.4)"))),
    ),
    notes="At the end points p = q = 1 (t = 0) and p = q = 0 (t = eps0); the formulas are "
          "evaluated with expm1, so 1 - p = (e^t - 1)/(e^eps0 - 1) has no cancellation.",
)

F1_P = (Fraction(4, 10), Fraction(3, 10), Fraction(2, 10), Fraction(1, 10))
F1_Q = (Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10))


def _f1_side(events: bool) -> Callable[..., Any]:
    def term(ctx: Any, eps: Any, **_: Any) -> Any:
        p = [ctx.num(v) for v in F1_P]
        q = [ctx.num(v) for v in F1_Q]
        f = finite.hockey_stick_events if events else finite.hockey_stick
        return f(ctx, p, q, eps)

    return term


DDR_F1 = Theorem(
    id="DDR-F1",
    title="Optimal privacy parameters and Fact 1 (hockey-stick form)",
    family=FAMILY,
    source=_src("Def. 2.5 and Fact 1"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="delta_OPT(M, eps_g) = inf{delta >= 0 : M is (eps_g, delta)-DP}; for a class, the "
              "sup over its members. Fact 1: delta_OPT(M, eps_g) = max_{x~x'} sum_y max(P[M(x)=y] "
              "- e^{eps_g} P[M(x')=y], 0).",
    domain="eps_g real; finite output space for the sum form",
    aliases=("DDR-D25",),
    claims=(
        Claim(1, "The hockey-stick sum equals the brute-force sup of P(S) - e^{eps_g} Q(S) over "
                 "all 16 events (P = (0.4, 0.3, 0.2, 0.1), Q = (0.1, 0.2, 0.3, 0.4), eps_g = "
                 "0.3), to 1e-45.",
              (Compare(_f1_side(False), "eq", _f1_side(True), points({"eps": "0.3"}), "oracle",
                       Tol.abs("1e-45"), "sum_y (P - e^eps Q)_+", "max over 2^4 events"),)),
    ),
    notes="Same fact as DEF-DP claim 1.",
)


def _d26_example(ctx: Any, **_: Any) -> Any:
    return _mixture_br(ctx, ctx.one, ctx.num(Fraction(1, 4)), ctx.num(Fraction(3, 4)))


def _d26_formula(ctx: Any, eps: Any, t1: Any, t2: Any, **_: Any) -> Any:
    return eps + ctx.abs(t1 - t2)


DDR_D26 = Theorem(
    id="DDR-D26",
    title="Adaptive composition game and deterministic adversaries",
    family=FAMILY,
    source=_src("Alg. 1, Def. 2.6, Def. 4.1, Lemma 4.3"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement="The adversary splits into coins r_i and a deterministic part choosing neighbours "
              "and M_i from the history; (eps_g, delta)-DP under k-fold adaptive composition "
              "means Pr[V^0 in S] <= e^{eps_g} Pr[V^1 in S] + delta for all adversaries and S. "
              "Lemma 4.3: deterministic adversaries suffice, although BR classes are not closed "
              "under convex combination.",
    domain="eps_g real, delta in [0, 1]",
    claims=(
        Claim(1, "Non-convexity witness (derived): the 1/2-mixture, on disjoint labels, of "
                 "RR_{eps,t1} and RR_{eps,t2} has BR parameter eps + |t1 - t2| (to 1e-40, on 100 "
                 "random (eps, t1, t2) with 0 < t_i < eps); at eps = 1, t1 = 1/4, t2 = 3/4 it is "
                 "1.5 > 1, so the mixture is not 1-BR.",
              (Compare(_mixture_br, "eq", _d26_formula,
                       Generated(_draw_mixture, 100, "random (eps, t1, t2)"), "oracle",
                       Tol.abs("1e-40"), "BR of the mixture", "eps + |t1 - t2|"),
               Compare(_d26_example, "eq", _c(Fraction(3, 2)), points({}), "oracle",
                       Tol.abs("1e-40"), "BR of the mixture (1, 1/4, 3/4)", "1.5"),
               Compare(_d26_example, "gt", _c(1), points({}), "oracle",
                       lhs_name="BR of the mixture (1, 1/4, 3/4)", rhs_name="eps = 1"))),
    ),
    notes="The reduction DDR-L41 works against deterministic adversaries, which Lemma 4.3 "
          "justifies.",
)

BR_PAIRS = Generated(_draw_br_pair, 100, "random eps-BR pairs (2 to 6 outputs, eps in [0.2, 2])")


def _l41_checks() -> tuple[Compare, ...]:
    out = []
    for factor, name in ((Fraction(0), "0"), (Fraction(1, 3), "eps/3"), (Fraction(1, 2), "eps/2")):
        lhs, rhs = _l41_sides(factor)
        out.append(Compare(lhs, "le", rhs, BR_PAIRS, "oracle",
                           lhs_name=f"H_(e^({name}))(P||Q)",
                           rhs_name=f"H_(e^({name}))(RR_(eps,t)(0)||RR_(eps,t)(1))"))
    return tuple(out)


DDR_L41 = Theorem(
    id="DDR-L41",
    title="Reduction of BR mechanisms to generalized RR",
    family=FAMILY,
    source=_src("Lemma 4.1, Lemma 4.2, Cor. 4.1"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="Lemma 4.1: for an eps-BR M and neighbours x, x' there are t in [0, eps] and a "
              "randomized post-processing f with M(x) = f(RR_{eps,t}(0)), M(x') = "
              "f(RR_{eps,t}(1)). Lemma 4.2 / Cor. 4.1: composition over eps_i-BR classes is "
              "(eps_g, delta)-DP iff it is over {RR_{eps_i,t}}, against deterministic adversaries.",
    domain="eps > 0",
    aliases=("DDR-L42", "DDR-C41"),
    claims=(
        Claim(1, "For 100 random eps-BR pairs with t = max_y ln(P(y)/Q(y)): H_{e^{eps_g}}(P||Q) <= "
                 "H_{e^{eps_g}}(RR_{eps,t}(0)||RR_{eps,t}(1)) at eps_g in {0, eps/3, eps/2} "
                 "(post-processing domination).",
              _l41_checks()),
    ),
)

DDR_L44 = Theorem(
    id="DDR-L44",
    title="Counting-query exponential mechanism is post-processed GRR",
    family=FAMILY,
    source=_src("Def. 4.2, Lemma 4.4"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="Counting queries (u(x,y) = count of y; neighbours add or remove one bit-string; "
              "monotone, so P[M(x)=y] ∝ exp(eps u(x,y))). Lemma 4.4: ln(P[M(x)=y]/P[M(x')=y]) in "
              "{t - eps, t} for all y, with t = ln(Z(x')/Z(x)) in [0, eps].",
    domain="eps > 0",
    aliases=("DDR-D42",),
    claims=(
        Claim(1, "Counts (3, 7, 2, 7, 5), added bit-string z = (1, 0, 1, 1, 0), eps = 0.7: the "
                 "log-ratio takes exactly two values, eps apart (to 1e-40).",
              (Predicate(_l44_two_values, points({"eps": "0.7"}), "oracle",
                         "two log-ratio values eps apart"),)),
        Claim(2, "The upper value t lies in [0, eps].",
              (Predicate(_l44_t_in_range, points({"eps": "0.7"}), "oracle", "0 <= t <= eps"),)),
    ),
)


# ==========================================================================================
# DDR-L31, DDR-T2


def _l31_enum(ctx: Any, eps0: Any, k: int, t: Any, eps: Any, **_: Any) -> Any:
    return het_objective(ctx, [eps0] * k, [t] * k, eps)


@exact_params("eps0", "t")
def _l31_term(ctx: Any, eps0: Any, k: int, t: Any, eps: Any, **_: Any) -> Any:
    return l31_delta_t(ctx, eps0, k, t, eps)


T2_EPS = (Fraction(4, 10), Fraction(9, 10), Fraction(1, 4), Fraction(13, 10))


def _t2_enum(ctx: Any, eps: Any, **_: Any) -> Any:
    eps_list = [ctx.num(e) for e in T2_EPS]
    return het_objective(ctx, eps_list, [e / 2 for e in eps_list], eps)


@exact_params("eps")
def _t2_mv(ctx: Any, eps: Any, **_: Any) -> Any:
    return mv_delta_pure(ctx, tuple(e / 2 for e in T2_EPS), ctx.num(eps))


DDR_L31 = Theorem(
    id="DDR-L31",
    title="Lemma 3.1: non-adaptive heterogeneous BR optimum",
    family=FAMILY,
    source=_src("Lemma 3.1"),
    types=("TIGHT",),
    confidence=("DERIVED",),
    statement="delta_OPT(M^NA_BR(eps_1..eps_k), eps_g) = sup_{t_i in [0, eps_i]} sum_{y in "
              "{0,1}^k} max(prod_i P[RR_{eps_i,t_i}(0)=y_i] - e^{eps_g} prod_i P[RR_{eps_i,t_i}(1)"
              "=y_i], 0).",
    domain="eps_i > 0, eps_g real",
    evaluators=(
        Evaluator("delta_t", (EPS0_BR, K, T_PARAM, EPS_REAL), l31_delta_t,
                  "sum_i C(k,i) (p^{k-i}(1-p)^i - e^eps q^{k-i}(1-q)^i)_+ with equal t"),
    ),
    claims=(
        Claim(1, "With equal t the objective (enumeration over {0,1}^5) equals the binomial form "
                 "at eps0 = 0.6, k = 5, t = 0.21, eps_g = 0.4, to 1e-45.",
              (Compare(_l31_enum, "eq", _l31_term,
                       points({"eps0": "0.6", "k": 5, "t": "0.21", "eps": "0.4"}), "oracle",
                       Tol.abs("1e-45"), "enumeration over {0,1}^5", "DDR-L31.delta_t"),)),
    ),
    notes="DDR-T3 shows that equal t suffices in the homogeneous case (claim 2 there).",
)

DDR_T2 = Theorem(
    id="DDR-T2",
    title="Theorem 2 (= MV Thm 1.5) and its relation to Lemma 3.1",
    family=FAMILY,
    source=_src("Thm 2 (= [MV] arXiv 1507.03113, Thm 1.5)"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement="MV-OPT written as delta_OPT of non-adaptive eps_i-DP classes; t_i = eps_i/2 in "
              "Lemma 3.1 gives MV with eps_i/2 (RR_{eps,eps/2} is RR(eps/2)).",
    domain="as MV-OPT",
    claims=(
        Claim(1, "The Lemma 3.1 objective at t_i = eps_i/2 (enumeration of 2^4 outcomes) equals "
                 "MV-OPT.delta_pure(eps_i/2, eps_g) for eps_list = (0.4, 0.9, 0.25, 1.3), eps_g = "
                 "0.3, to 1e-45.",
              (Compare(_t2_enum, "eq", _t2_mv, points({"eps": "0.3"}), "oracle",
                       Tol.abs("1e-45"), "Lemma 3.1 at t_i = eps_i/2",
                       "MV-OPT.delta_pure(eps_i/2)"),)),
    ),
    notes="Hence the non-adaptive BR optimum is at least the optimal composition of "
          "eps_i/2-DP mechanisms (left half of the DDR-T3 sandwich).",
)


# ==========================================================================================
# DDR-T3


T3_POINTS = points(
    {"eps0": "0.3", "k": 1, "eps": "0.05"}, {"eps0": "0.3", "k": 2, "eps": "0"},
    {"eps0": "0.5", "k": 3, "eps": "0.2"}, {"eps0": "0.1", "k": 10, "eps": "0.25"},
    {"eps0": "1.0", "k": 6, "eps": "1.7"}, {"eps0": "0.5", "k": 4, "eps": "-0.3"},
    {"eps0": "0.05", "k": 25, "eps": "0.3"})


@exact_params("eps0", "eps")
def _t3_grid_golden(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    """``max_t`` of DDR-L31.delta_t by a dense grid (2000 cells, located in doubles) and a
    golden-section search on the best cell in mpmath (the catalogue's numerical route)."""
    if not isinstance(ctx, MpCtx):
        raise Unsupported("the grid-and-golden route runs in mpmath")
    e, g = Fraction(eps0), Fraction(eps)
    E, G = ctx.num(e), ctx.num(g)

    def f(t: Any) -> Any:
        return _delta_at_t(ctx, E, k, t, G)

    n = 2000  # the grid only locates the best cell: doubles suffice
    fvals = [_f_float(float(e), k, float(g), float(e * i / n)) for i in range(n + 1)]
    j = max(range(n + 1), key=lambda i: fvals[i])
    lo, hi = ctx.num(e * max(j - 1, 0) / n), ctx.num(e * min(j + 1, n) / n)
    t = _golden_max(f, lo, hi, int(1.45 * ctx.prec / 2) + 12)
    return ctx.max(f(t), f(ctx.num(e * j / n)))


@exact_params("eps0", "eps")
def _t3_het_search(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    """The Lemma 3.1 objective at the best heterogeneous t-vector found by a float search (a
    grid of 21^k vectors, then coordinate ascent by golden section), evaluated exactly: a
    feasible non-adaptive value, so never above the optimum."""
    e, g = float(eps0), float(eps)
    fp = _FP

    def obj(ts: Sequence[float]) -> float:
        return het_objective(fp, [e] * k, list(ts), g)

    axis = [e * i / 20 for i in range(21)]
    best = max(itertools.product(axis, repeat=k), key=obj)
    ts = list(best)
    for _ in range(12):
        for i in range(k):
            def along(v: float, i: int = i) -> float:
                return obj([*ts[:i], v, *ts[i + 1:]])

            lo, hi = max(ts[i] - e / 20, 0.0), min(ts[i] + e / 20, e)
            ts[i] = _golden_max(along, lo, hi, 60)
    exact_ts = [min(max(Fraction(v), Fraction(0)), Fraction(eps0)) for v in ts]
    E = ctx.num(Fraction(eps0))
    return het_objective(ctx, [E] * k, [ctx.num(v) for v in exact_ts], ctx.num(Fraction(eps)))


SANDWICH_GRID = grid(eps0=["0.1", "0.5", "1.0"], k=[1, 3, 8, 20], eps=["0", "0.2", "0.7", "1.5"])


def _t3_best_l(ctx: Any, eps0: Fraction, k: int, eps: Fraction) -> int:
    if k <= T3_ALL_CANDIDATES_K:
        top, vals = _t3_all(ctx, eps0, k, eps)
        top = ctx.max(top, ctx.zero)
        return next(l for l, v in vals if not _decided_lt(ctx, v, top))
    return _T3Search(ctx, eps0, k, eps).run()[1]


@exact_params("eps0", "eps")
def _footnote_t_half(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> bool:
    """The maximising candidate is ``t_l = eps0/2`` (exactly, as rationals)."""
    e, g = Fraction(eps0), Fraction(eps)
    l = _t3_best_l(ctx, e, k, g)
    return min(max(_t_l(e, k, g, l), Fraction(0)), e) == e / 2


@exact_params("eps0", "eps")
def _footnote_not_half(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> bool:
    return not _footnote_t_half(ctx, eps0, k, eps)


@exact_params("eps0", "eps")
def _t3_k1(ctx: Any, eps0: Any, eps: Any, **_: Any) -> Any:
    return t3_delta(ctx, eps0, 1, eps)


def _eps_of_s(eps0: Any, s: Any) -> Any:
    """``eps = s eps0`` (an interval over a box, s >= 0)."""
    if isinstance(eps0, Interval) or isinstance(s, Interval):
        a = eps0 if isinstance(eps0, Interval) else Interval(eps0, eps0)
        b = s if isinstance(s, Interval) else Interval(s, s)
        return Interval(a.lo * b.lo, a.hi * b.hi)
    return Fraction(eps0) * Fraction(s)


@exact_params("eps0", "s")
def _t3_at_s(ctx: Any, eps0: Any, k: int, s: Any, **_: Any) -> Any:
    return t3_delta(ctx, eps0, k, _eps_of_s(eps0, s))


@exact_params("eps0", "s")
def _kov_at_s(ctx: Any, eps0: Any, k: int, s: Any, **_: Any) -> Any:
    return kov_delta_pure(ctx, eps0, k, _eps_of_s(eps0, s))


DDR_T3 = Theorem(
    id="DDR-T3",
    title="Theorem 3: homogeneous non-adaptive BR optimum via a finite candidate set",
    family=FAMILY,
    source=_src("Thm 3 (footnote 2 for the eps/2 remark)"),
    types=("TIGHT",),
    confidence=("DERIVED", "UNCERTAIN"),
    statement="With eps_i = eps0 for all i, the sup in Lemma 3.1 is attained at equal t and t can "
              "be taken from a finite set: delta_OPT(M^NA_BR(eps0,...,eps0), eps) = max_{l in "
              "{0..k}} sum_{i=0}^{l} C(k,i) (p_l^{k-i}(1-p_l)^i - e^eps q_l^{k-i}(1-q_l)^i), "
              "t_l = (eps + (l+1) eps0)/(k+1) clipped to [0, eps0]. Each partial sum f_l is "
              "unimodal with peak t_l (f_l' ∝ e^eps - e^{(k+1)t - (l+1) eps0}); l = k only "
              "matters for eps < 0 (value 1 - e^eps). Polynomial in k (O(k^2) directly).",
    domain="eps0 > 0, k >= 1 integer, eps real (the result is clipped below at 0)",
    evaluators=(
        Evaluator("delta", (EPS0_BR, K, EPS_REAL), t3_delta,
                  "max over the candidates t_l of the Lemma 3.1 objective (>= 0)"),
        Evaluator("eps", (EPS0_BR, K, DELTA), t3_eps,
                  "least eps >= 0 with delta(eps0, k, eps) <= delta (bisection)"),
        Evaluator("t_opt", (EPS0_BR, K, EPS_REAL), t3_t_opt,
                  "the candidate t_l attaining the maximum (smallest l on ties)"),
    ),
    claims=(
        Claim(1, "The candidate-set value equals max_t of DDR-L31.delta_t (i) enclosed "
                 "rigorously by an interval branch and bound over t in [0, eps0] from the "
                 "definition (positive parts, mean-value and second-order forms; no candidate "
                 "set) and (ii) by a dense grid plus golden section in mpmath, to 1e-30, at (eps0, "
                 "k, eps) in {(0.3, 1, 0.05), (0.3, 2, 0), (0.5, 3, 0.2), (0.1, 10, 0.25), (1.0, "
                 "6, 1.7), (0.5, 4, -0.3), (0.05, 25, 0.3)}.",
              (Compare(_t3_term, "eq", t3_max_over_t_bb, T3_POINTS, "numeric",
                       Tol.abs("1e-30"), "DDR-T3.delta", "branch and bound max_t delta_t"),
               Compare(_t3_term, "eq", _t3_grid_golden, T3_POINTS, "numeric",
                       Tol.abs("1e-30"), "DDR-T3.delta", "grid + golden max_t delta_t",
                       ctx="mp"))),
        Claim(2, "A heterogeneous t-vector search (grid of 21^k vectors plus coordinate ascent) "
                 "never exceeds the homogeneous optimum (up to 1e-30): (eps0, k, eps) = (0.5, 2, "
                 "0.1) and (0.5, 3, 0.3).",
              (Compare(_t3_het_search, "le", _plus(_t3_term, _tiny(30)),
                       points({"eps0": "0.5", "k": 2, "eps": "0.1"},
                              {"eps0": "0.5", "k": 3, "eps": "0.3"}), "numeric",
                       lhs_name="best heterogeneous value found",
                       rhs_name="DDR-T3.delta + 1e-30"),)),
        Claim(3, "Sandwich KOV-DELTA.delta_pure(eps0/2, k, eps) <= DDR-T3.delta(eps0, k, eps) <= "
                 "KOV-DELTA.delta_pure(eps0, k, eps), certified at every point of the 48-point "
                 "grid eps0 in {0.1, 0.5, 1.0}, k in {1, 3, 8, 20}, eps in {0, 0.2, 0.7, 1.5} "
                 "(the left side up to 1e-40: equality holds where t_opt = eps0/2, claim 4); the "
                 "right side proved by interval branch and bound on the box eps0 in [0.1, 1], "
                 "eps = s eps0 with s in [0, 0.8], k in {1..4}.",
              (Compare(_kov_term(True), "le", _plus(_t3_term, _tiny(40)), SANDWICH_GRID,
                       "numeric", lhs_name="KOV-DELTA.delta_pure(eps0/2)",
                       rhs_name="DDR-T3.delta + 1e-40"),
               Compare(_t3_term, "le", _kov_term(False), SANDWICH_GRID, "numeric",
                       lhs_name="DDR-T3.delta", rhs_name="KOV-DELTA.delta_pure(eps0)"),
               Compare(_t3_at_s, "le", _kov_at_s,
                       Box(reals={"eps0": ("0.1", "1"), "s": ("0", "0.8")}, ints={"k": (1, 4)}),
                       "interval", lhs_name="DDR-T3.delta(eps0, k, s eps0)",
                       rhs_name="KOV-DELTA.delta_pure(eps0, k, s eps0)"))),
        Claim(4, "Footnote 2: where the maximising t_l equals eps0/2 the BR optimum equals the "
                 "optimal composition of eps0/2-DP. At eps0 = 0.4, k = 6 the candidates t_l = "
                 "eps0/2 sit at eps = (k-1-2l) eps0/2 in {1.0, 0.6, 0.2}; only at eps = 0.2 is "
                 "that candidate the maximiser (at 0.6 and 1.0 the maximiser is t = 9/35), and "
                 "there DDR-T3.delta = KOV-DELTA.delta_pure(0.2, 6, 0.2) to 1e-40; at 0.6 and 1.0 "
                 "DDR-T3.delta > KOV-DELTA.delta_pure(0.2, 6, eps) strictly.",
              (Predicate(_footnote_t_half, grid(eps0=["0.4"], k=[6], eps=["0.2"]), "numeric",
                         "the maximising candidate is t_l = eps0/2"),
               Compare(_t3_term, "eq", _kov_term(True), grid(eps0=["0.4"], k=[6], eps=["0.2"]),
                       "numeric", Tol.abs("1e-40"), "DDR-T3.delta",
                       "KOV-DELTA.delta_pure(eps0/2)"),
               Predicate(_footnote_not_half,
                         grid(eps0=["0.4"], k=[6], eps=["0.6", "1.0"]), "numeric",
                         "the maximising candidate is not eps0/2"),
               Compare(_t3_term, "gt", _kov_term(True),
                       grid(eps0=["0.4"], k=[6], eps=["0.6", "1.0"]), "numeric",
                       lhs_name="DDR-T3.delta", rhs_name="KOV-DELTA.delta_pure(eps0/2)"))),
        Claim(5, "DDR-T3.delta(eps0, 1, x) equals the k = 1 step of the DDR-L32 recursion from "
                 "(1 - e^y)_+, computed by branch and bound over t (no closed form), to 1e-30, at "
                 "eps0 in {0.3, 1.2} and x/eps0 in {-1.5, -1, -0.6, -0.25, 0, 0.3, 0.75, 1, 1.4}.",
              (Compare(_t3_k1, "eq", l32_delta_k1_recursion,
                       Points(tuple({"eps0": e, "eps": str(Fraction(e) * Fraction(r))}
                                    for e in ("0.3", "1.2")
                                    for r in ("-1.5", "-1", "-0.6", "-0.25", "0", "0.3",
                                              "0.75", "1", "1.4"))),
                       "numeric", Tol.abs("1e-30"), "DDR-T3.delta(eps0, 1, x)",
                       "sup_t of the k = 1 recursion"),)),
    ),
    notes="Open question resolved as far as the paper's text allows: the index range is "
          "l in {0..k} (l = k matters only for eps < 0, value 1 - e^eps; for eps >= 0, "
          "l <= k-1 suffices); the exact complexity statement could not be read. Evaluation: all "
          "candidates up to k = 64; beyond, certified block bounds prune the candidates "
          "(k = 10^4 in seconds). The float context uses golden section over l (unimodality "
          "checked in DDR-FIG1 claim 6).",
)


# ==========================================================================================
# DDR-L32


@exact_params("eps0", "eps")
def _l32_k2_term(ctx: Any, eps0: Any, eps: Any, **_: Any) -> Any:
    return l32_delta_k2(ctx, Fraction(eps0), Fraction(eps))


@exact_params("eps0", "eps")
def _l32_strategy_term(ctx: Any, eps0: Any, eps: Any, **_: Any) -> Any:
    return adaptive2_strategy_delta(ctx, Fraction(eps0), Fraction(eps), int(ctx.prec))


def _lattice_term(which: int, k: int | None = None) -> Callable[..., Any]:
    """LB (which = 0) or UB (which = 1) of ``delta_A(k, eps)`` from the N = 1000 lattices."""

    @exact_params("eps0", "eps")
    def term(ctx: Any, eps0: Any, eps: Any, **kw: Any) -> Any:
        kk = k if k is not None else kw["k"]
        return l32_bounds(ctx, Fraction(eps0), kk, Fraction(eps))[which]

    return term


L32_GRID = Points(tuple({"eps0": "0.5", "k": k, "eps": str(Fraction(1, 2) * j / 10)}
                        for k in range(1, 7) for j in range(10 * k)))

DDR_L32 = Theorem(
    id="DDR-L32",
    title="Lemma 3.2: adaptive homogeneous BR optimum (recursion)",
    family=FAMILY,
    source=_src("Lemma 3.2"),
    types=("TIGHT",),
    confidence=("DERIVED",),
    statement="delta_A(0, x) = max(1 - e^x, 0); delta_A(k, x) = sup_{t in [0, eps0]} [p_t "
              "delta_A(k-1, x - t) + (1 - p_t) delta_A(k-1, x - t + eps0)]; delta_OPT(M^A_BR(k), "
              "eps) = delta_A(k, eps). Exact boundary values: 0 for x >= k eps0, 1 - e^x for "
              "x <= -k eps0.",
    domain="eps0 > 0, k >= 1 integer (<= 10 for the lattice), eps real",
    evaluators=(
        Evaluator("delta", (EPS0_BR, replace(K, hi=L32_MAX_K), EPS_REAL), l32_delta,
                  "delta_A(k, eps): exact for k = 1, rigorous branch and bound for k = 2 (arb), "
                  "the lattice lower bound LB (N = 1000) for k >= 3"),
        Evaluator("delta_ub", (EPS0_BR, replace(K, hi=L32_MAX_K), EPS_REAL), l32_delta_ub,
                  "the lattice upper bound UB of delta_A(k, eps) (N = 1000)"),
    ),
    claims=(
        Claim(1, "k = 1 equals Thm 3: the k = 1 recursion (branch and bound over t from "
                 "(1 - e^y)_+) equals DDR-T3.delta(0.5, 1, 0.1) to 1e-30.",
              (Compare(l32_delta_k1_recursion, "eq", _t3_k1,
                       points({"eps0": "0.5", "eps": "0.1"}), "numeric", Tol.abs("1e-30"),
                       "k = 1 recursion", "DDR-T3.delta(eps0, 1, eps)"),)),
        Claim(2, "For k = 2 the recursion value (rigorous branch and bound with the exact k = 1 "
                 "value function) equals the exact hockey-stick of an explicit adaptive strategy "
                 "tree (t1 the maximiser; t2 the k = 1 maximiser at the residual budget after "
                 "each first output; 4 transcripts enumerated) at eps0 = 0.5, eps in {0, 0.1, "
                 "-0.2, 0.3}, to 1e-25.",
              (Compare(_l32_k2_term, "eq", _l32_strategy_term,
                       grid(eps0=["0.5"], eps=["0", "0.1", "-0.2", "0.3"]), "oracle",
                       Tol.abs("1e-25"), "delta_A(2, eps)", "hockey-stick of the strategy tree"),)),
        Claim(3, "The lattice bracket (N = 1000) satisfies LB <= delta_A(2, eps) <= UB at eps0 = "
                 "0.5, eps in {0, 0.1, 0.3} (LB up to 1e-40: the grid adversary is optimal when "
                 "the optimal t are lattice points, as at eps = 0).",
              (Compare(_lattice_term(0, 2), "le", _plus(_l32_k2_term, _tiny(40)),
                       grid(eps0=["0.5"], eps=["0", "0.1", "0.3"]), "numeric",
                       lhs_name="LB (N = 1000)", rhs_name="delta_A(2, eps) + 1e-40"),
               Compare(_l32_k2_term, "le", _lattice_term(1, 2),
                       grid(eps0=["0.5"], eps=["0", "0.1", "0.3"]), "numeric",
                       lhs_name="delta_A(2, eps)", rhs_name="UB (N = 1000)"))),
        Claim(4, "For k <= 6 (eps0 = 0.5, eps on the grid of step eps0/10 in [0, k eps0)): "
                 "adaptive BR (LB) <= KOV-DELTA.delta_pure(eps0, k, eps), certified at all 210 "
                 "points.",
              (Compare(_lattice_term(0), "le", _kov_term(False), L32_GRID, "numeric",
                       lhs_name="LB", rhs_name="KOV-DELTA.delta_pure(eps0)"),)),
        Claim(5, "On the same grid: non-adaptive optimum (DDR-T3) <= adaptive (UB), certified at "
                 "all 210 points.",
              (Compare(_t3_term, "le", _lattice_term(1), L32_GRID, "numeric",
                       lhs_name="DDR-T3.delta", rhs_name="UB"),)),
    ),
    notes="Lattice: LB is the exact arb value of a grid adversary (argmax from a float "
          "recursion, so LB is valid whatever the choice); UB is the shifted recursion in "
          "IEEE-754 binary64 with outward rounding margins (rigorous under IEEE arithmetic). "
          "For k = 2 the branch and bound gives ~30 digits.",
)


# ==========================================================================================
# DDR-T4


def _a_upper(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    e, x = Fraction(eps0), Fraction(eps)
    if k == 1:
        return t3_delta(ctx, e, 1, x)
    if k == 2:
        return l32_delta_k2(ctx, e, x)
    return l32_bounds(ctx, e, k, x)[1]


def _a_lower(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    e, x = Fraction(eps0), Fraction(eps)
    if k == 1:
        return t3_delta(ctx, e, 1, x)
    if k == 2:
        return l32_delta_k2(ctx, e, x)
    return l32_bounds(ctx, e, k, x)[0]


@exact_params("eps0", "eps")
def _na_minus_a_upper(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    return t3_delta(ctx, eps0, k, eps) - _a_upper(ctx, eps0, k, eps)


@exact_params("eps0", "eps")
def _a_lower_term(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    return _a_lower(ctx, eps0, k, eps)


@exact_params("eps0", "eps")
def _lb_minus_na(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    return l32_bounds(ctx, Fraction(eps0), k, Fraction(eps))[0] - t3_delta(ctx, eps0, k, eps)


@exact_params("eps0")
def _last_gap_below(ctx: Any, eps0: Any, k: int, **_: Any) -> bool | None:
    """Claim 5: every lattice point m h in [thr, (k-1) eps0] (thr = (k - 1 - 1/k) eps0, h =
    eps0/1000) has LB - NA <= 1e-9, and some lattice point below thr has a certified gap
    LB - NA > 1e-9 (so the last such point lies below thr)."""
    e = Fraction(eps0)
    n = L32_N_LB
    h = e / n
    thr = (k - 1 - Fraction(1, k)) * e
    tol = ctx.num(Fraction(1, 10**9))
    lb_tab, _, off = _l32_lattice(e, k, n, _lattice_prec(ctx))
    undecided = False
    for m in range(math.ceil(thr / h), (k - 1) * n + 1):
        d = lb_tab[m + off] - t3_delta(ctx, e, k, m * h)
        c = ctx.le(d, tol)
        if c is False:
            return False
        undecided |= c is None
    for m in range(math.ceil(thr / h) - 1, max(math.ceil(thr / h) - 2000, -off), -1):
        d = lb_tab[m + off] - t3_delta(ctx, e, k, m * h)
        if ctx.lt(tol, d) is True:
            return None if undecided else True
    return False


def _allzeros_objective(ctx: Any, eps0: Fraction, k: int, x: Fraction
                        ) -> tuple[Callable[[Fraction], Any], Enclose, Callable[[Fraction], Any]]:
    """``F(t) = p_t^k (1 - e^{x - k t})_+``: the value of equal-t strategies when only the
    all-zeros transcript can exceed the budget (x >= (k-1) eps0), for :func:`bb_maximize`."""
    E0 = ctx.num(eps0)
    den = -ctx.expm1(-E0)
    X = ctx.num(x)
    zero = flint.arb(0)
    cut = x / k  # F > 0 iff t > x/k

    def parts(T: Any) -> tuple[Any, Any, Any]:
        p = grr_p(ctx, E0, T)
        dp = -ctx.exp(T - E0) / den
        E = ctx.exp(X - k * T)
        P, G = _ipow(p, k), 1 - E
        P1 = k * _ipow(p, k - 1) * dp
        P2 = k * (k - 1) * _ipow(p, k - 2) * dp * dp + k * _ipow(p, k - 1) * dp
        G1, G2 = k * E, -(k**2) * E
        return P * G, P1 * G + P * G1, P2 * G + 2 * P1 * G1 + P * G2

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        return zero if t <= cut else parts(ctx.num(t))[0]

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        return zero if t <= cut else parts(ctx.num(t))[1]

    def enclose(a: Fraction, b: Fraction) -> tuple[Any, Any, Any]:
        if b <= cut:
            return zero, zero, zero
        T = _arb_q(max(a, cut)).union(_arb_q(b))
        f, f1, f2 = parts(T)
        if a > cut:
            return f, f1, f2
        return flint.arb(f).union(zero), flint.arb(f1).union(zero), None

    return value, enclose, slope


@exact_params("eps0", "s")
def _allzeros_sup(ctx: Any, eps0: Any, k: int, s: Any, **_: Any) -> Any:
    e = Fraction(eps0)
    x = (k - 1 + Fraction(s)) * e
    if x >= k * e:
        return ctx.zero
    value, enclose, slope = _allzeros_objective(ctx, e, k, x)
    return bb_maximize(ctx, value, enclose, Fraction(0), e, slope)


@exact_params("eps0", "s")
def _na_at_s(ctx: Any, eps0: Any, k: int, s: Any, **_: Any) -> Any:
    return t3_delta(ctx, eps0, k, (k - 1 + Fraction(s)) * Fraction(eps0))


@exact_params("eps0", "s")
def _a2_at_s(ctx: Any, eps0: Any, s: Any, **_: Any) -> Any:
    e = Fraction(eps0)
    return l32_delta_k2(ctx, e, (1 + Fraction(s)) * e)


def _t4_threshold_points() -> Points:
    pts = []
    for k in range(2, 7):
        thr = (k - 1 - Fraction(1, k)) * Fraction(1, 2)
        for j in range(0, 9):
            x = thr + (k * Fraction(1, 2) - thr) * j / 8
            if x < k * Fraction(1, 2):
                pts.append({"eps0": "0.5", "k": k, "eps": str(x)})
    return Points(tuple(pts))


def _d_points(strict: bool) -> Points:
    pts = []
    for e in ("0.1", "2.0"):
        for r in (("0.45", "-0.45") if strict else ("0.55", "-0.55")):
            pts.append({"eps0": e, "k": 2, "eps": str(Fraction(e) * Fraction(r))})
    for x in (("0", "0.1", "-0.2") if strict else ("0.3",)):
        pts.append({"eps0": "0.5", "k": 2, "eps": x})
    return Points(tuple(pts))


DDR_T4 = Theorem(
    id="DDR-T4",
    title="Theorem 4: the cost of adaptivity",
    family=FAMILY,
    source=_src("Thm 4 and Sec. 6"),
    types=("EXACT",),
    confidence=("UNCERTAIN",),
    statement="For some range of (k, eps) the non-adaptive optimum is strictly below the adaptive "
              "one, delta(M^NA_BR) < delta(M^A_BR(k)); elsewhere they are equal. Numerical "
              "characterisation (catalogue): for k = 2 the gap is strict iff |eps| < eps0/2; for "
              "k = 2..6 strict on 0 < eps < (k - 1 - 1/k) eps0 and absent above; for eps >= (k-1) "
              "eps0 only the all-zeros transcript can exceed eps, so NA = A (provable part).",
    domain="eps0 > 0, k >= 2 integer, eps real",
    claims=(
        Claim(1, "(a) NA <= A: DDR-T3.delta <= A + 1e-40 with A the rigorous k = 2 enclosure, "
                 "and DDR-T3.delta <= UB for k = 3..6 (eps0 = 0.5, eps in {-0.3, 0, 0.2, 0.6, "
                 "1.2}), certified at every point.",
              (Compare(_na_minus_a_upper, "le", _c(_tiny(40)),
                       grid(eps0=["0.5"], k=[2, 3, 4, 5, 6], eps=["-0.3", "0", "0.2", "0.6",
                                                                 "1.2"]),
                       "numeric", lhs_name="NA - A (k = 2) or NA - UB (k >= 3)",
                       rhs_name="1e-40"),)),
        Claim(2, "(b) Strict gap at eps = 0 for k = 2 and k = 4 (eps0 = 0.5; the paper's example "
                 "k = 2: NA = 0.147127... and A = 0.155080... have rigorous enclosures that do not "
                 "overlap; for k = 4 the certified grid lower bound of A exceeds NA).",
              (Compare(_t3_term, "lt", _a_lower_term, grid(eps0=["0.5"], k=[2, 4], eps=["0"]),
                       "numeric", lhs_name="NA = DDR-T3.delta",
                       rhs_name="A (k = 2 enclosure; k = 4 lattice LB)"),)),
        Claim(3, "(c) No gap for eps >= (k - 1 - 1/k) eps0 (k = 2..6, eps0 = 0.5; nine points from "
                 "the threshold up to k eps0): grid LB - NA <= 1e-12.",
              (Compare(_lb_minus_na, "le", _c(_tiny(12)), _t4_threshold_points(), "numeric",
                       lhs_name="LB - NA", rhs_name="1e-12"),)),
        Claim(4, "(d) The k = 2 gap is exactly (-eps0/2, eps0/2): strict at eps = +-0.45 eps0 and "
                 "equal (to 1e-30) at +-0.55 eps0 for eps0 in {0.1, 2.0}; strict at eps in {0, "
                 "0.1, -0.2} and equal at 0.3 for eps0 = 0.5.",
              (Compare(_t3_term, "lt", _a_lower_term, _d_points(True), "numeric",
                       lhs_name="NA", rhs_name="A (k = 2)"),
               Compare(_t3_term, "eq", _a_lower_term, _d_points(False), "numeric",
                       Tol.abs("1e-30"), "NA", "A (k = 2)"))),
        Claim(5, "For k = 2..6 (eps0 = 0.5) the last lattice point (N = 1000) with a proven gap "
                 "(LB - NA > 1e-9) lies below (k - 1 - 1/k) eps0: every lattice point of [(k - 1 "
                 "- 1/k) eps0, (k - 1) eps0] has LB - NA <= 1e-9 (beyond, NA = A: claim 6) and a "
                 "proven gap exists below the threshold.",
              (Predicate(_last_gap_below, grid(eps0=["0.5"], k=[2, 3, 4, 5, 6]), "numeric",
                         "last proven gap below (k - 1 - 1/k) eps0"),)),
        Claim(6, "(provable part) For eps = (k - 1 + s) eps0, s >= 0, NA equals the value of the "
                 "best equal-t strategy when only the all-zeros transcript can exceed eps, "
                 "sup_t p_t^k (1 - e^{eps - kt})_+ (branch and bound, to 1e-30), which is the "
                 "adaptive optimum there (the second branch of the recursion vanishes and log p_t "
                 "is concave); for k = 2 also NA = A with A from the recursion. Searched on eps0 "
                 "in [0.1, 2], s in [0, 1.5], k in {2..6}.",
              (Compare(_na_at_s, "eq", _allzeros_sup,
                       Box(reals={"eps0": ("0.1", "2"), "s": ("0", "1.5")}, ints={"k": (2, 6)}),
                       "property", Tol.abs("1e-30"), "DDR-T3.delta((k-1+s) eps0)",
                       "sup_t p_t^k (1 - e^{eps - kt})"),
               Compare(_na_at_s, "eq", _a2_at_s,
                       Box(reals={"eps0": ("0.1", "2"), "s": ("0", "1.5")}, fixed={"k": 2}),
                       "property", Tol.abs("1e-30"), "DDR-T3.delta((1+s) eps0)",
                       "delta_A(2, (1+s) eps0)"))),
    ),
    notes="The paper's exact statement could not be read (only its opening is reachable through "
          "the search tool). The claims encode the catalogue's numerical characterisation, "
          "which the checks confirm.",
)


# ==========================================================================================
# DDR-C31, DDR-T5, DR19-BR


@exact_params("eps0")
def _kl_sup_term(ctx: Any, eps0: Any, **_: Any) -> Any:
    return kl_sup(ctx, to_ctx(ctx, eps0))


@exact_params("eps0")
def _kl_sup_alt_term(ctx: Any, eps0: Any, **_: Any) -> Any:
    return kl_sup_alt(ctx, to_ctx(ctx, eps0))


@exact_params("eps0")
def _kl_bb(ctx: Any, eps0: Any, **_: Any) -> Any:
    """``max`` over ``t in [eps0/64, 63 eps0/64]`` of the KL divergence of ``RR_{eps0,t}`` computed
    directly from p and q (branch and bound; the maximiser ln((e^eps0 - 1)/eps0) is interior)."""
    e = Fraction(eps0)
    E0 = ctx.num(e)
    den = -ctx.expm1(-E0)

    def formulas(p: Any, mp_: Any, q: Any, mq: Any, dp: Any, dq: Any) -> tuple[Any, Any, Any]:
        """KL = p ln(p/q) + (1-p) ln((1-p)/(1-q)) and its t-derivatives (p'' = p',
        q'' = -q'), from the laws as given (no identity used)."""
        a = ctx.log(p / q) - ctx.log(mp_ / mq)
        b = mp_ / mq - p / q
        f = p * ctx.log(p / q) + mp_ * ctx.log(mp_ / mq)
        f1 = dp * a + dq * b
        da = dp / p - dq / q + dp / mp_ - dq / mq
        db = (mp_ * dq - dp * mq) / (mq * mq) - (dp * q - p * dq) / (q * q)
        f2 = dp * a + dp * da - dq * b + dq * db
        return f, f1, f2

    def at(T: Any) -> tuple[Any, Any, Any]:
        return formulas(grr_p(ctx, E0, T), grr_1mp(ctx, E0, T), grr_q(ctx, E0, T),
                        grr_1mq(ctx, E0, T), -ctx.exp(T - E0) / den, -ctx.exp(-T) / den)

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        return at(ctx.num(t))[0]

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        return at(ctx.num(t))[1]

    def enclose(a: Fraction, b: Fraction) -> tuple[Any, Any, Any]:
        p = _span(lambda s: grr_p(ctx, E0, ctx.num(s)), a, b)
        mp_ = _span(lambda s: grr_1mp(ctx, E0, ctx.num(s)), a, b)
        q = _span(lambda s: grr_q(ctx, E0, ctx.num(s)), a, b)
        mq = _span(lambda s: grr_1mq(ctx, E0, ctx.num(s)), a, b)
        dp = _span(lambda s: -ctx.exp(ctx.num(s) - E0) / den, a, b)
        dq = _span(lambda s: -ctx.exp(-ctx.num(s)) / den, a, b)
        return formulas(p, mp_, q, mq, dp, dq)

    return bb_maximize(ctx, value, enclose, e / 64, 63 * e / 64, slope)


def _kl_ratio(ctx: Any, **_: Any) -> Any:
    e = ctx.num(Fraction(1, 1000))
    return kl_sup(ctx, e) / (e * e / 8)


@exact_params("eps0", "t")
def _kl_t_term(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
    return kl_t(ctx, eps0, t)


@exact_params("eps0", "t")
def _kl_direct_term(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
    return kl_direct(ctx, to_ctx(ctx, eps0), to_ctx(ctx, t))


def _kl_identity_problem() -> SmtProblem:
    """``p ln(p/q) + (1-p) ln((1-p)/(1-q)) = t - eps0 (e^t - 1)/(e^eps0 - 1)`` once the two
    log-ratios are replaced by their values t and t - eps0 (DDR-D24 claims 1-2) and ``X =
    e^eps0``, ``Y = e^t``."""
    import sympy as sp

    X, Y, T, E, P = sp.symbols("X Y T E P", real=True)
    hyps = (sp.Gt(X, 1), sp.Gt(Y, 1), sp.Lt(Y, X), sp.Gt(E, 0), sp.Gt(T, 0), sp.Lt(T, E),
            sp.Eq(P * (X - 1), X - Y))  # p = (1 - e^{t-eps0})/(1 - e^{-eps0})
    goal = sp.Eq(P * T + (1 - P) * (T - E), T - E * (Y - 1) / (X - 1))
    return SmtProblem(variables={"X": "real", "Y": "real", "T": "real", "E": "real",
                                 "P": "real"},
                      hypotheses=hyps, goal=goal,
                      substitutions=("X = e^eps0", "Y = e^t", "T = t", "E = eps0",
                                     "P = p_{eps0,t}", "ln(p/q) = t, ln((1-p)/(1-q)) = t - eps0 "
                                     "(DDR-D24 claims 1-2)"))


DDR_C31 = Theorem(
    id="DDR-C31",
    title="Corollary 3.1: OptKL bound for adaptive BR composition",
    family=FAMILY,
    source=_src("Cor. 3.1 (Prop. 4 of the ICML version, heterogeneous form)"),
    types=("BOUND",),
    confidence=("DERIVED",),
    statement="For eps0-BR mechanisms under k-fold adaptive composition and delta > 0: (eps, "
              "delta)-DP with eps = k (eps0/(1 - e^{-eps0}) - 1 - ln(eps0/(1 - e^{-eps0}))) + "
              "sqrt((k eps0^2/2) ln(1/delta)) (min with k eps0 in practice). The first term is k "
              "sup_t KL(RR_{eps0,t}(0)||RR_{eps0,t}(1)), KL(t) = t - eps0 (e^t - 1)/(e^eps0 - 1), "
              "maximised at t* = ln((e^eps0 - 1)/eps0), about eps0^2/8.",
    domain="eps0 > 0, k >= 1 integer, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (EPS0_BR, K, DELTA), optkl_eps,
                  "min(k eps0, k kl_sup(eps0) + sqrt((k eps0^2/2) ln(1/delta)))"),
        Evaluator("kl_sup", (EPS0_BR,), lambda ctx, eps0: kl_sup(ctx, eps0),
                  "eps0/(1 - e^{-eps0}) - 1 - ln(eps0/(1 - e^{-eps0}))"),
        Evaluator("kl", (EPS0_BR, T_PARAM), kl_t, "t - eps0 (e^t - 1)/(e^eps0 - 1)"),
    ),
    claims=(
        Claim(1, "The supremum over t of the KL divergence of RR_{eps0,t} computed directly from "
                 "p and q (rigorous branch and bound on [eps0/64, 63 eps0/64], which contains the "
                 "maximiser) equals kl_sup to 1e-30 for eps0 in {0.01, 0.3, 2}.",
              (Compare(_kl_sup_term, "eq", _kl_bb, grid(eps0=["0.01", "0.3", "2"]), "numeric",
                       Tol.abs("1e-30"), "kl_sup(eps0)", "max_t KL(RR_{eps0,t})"),)),
        Claim(2, "The two closed forms of kl_sup agree (relative 1e-40) at eps0 in {0.001, 0.01, "
                 "0.3, 2, 5}.",
              (Compare(_kl_sup_term, "eq", _kl_sup_alt_term,
                       grid(eps0=["0.001", "0.01", "0.3", "2", "5"]), "numeric",
                       Tol.rel("1e-40"), "x - 1 - ln x",
                       "ln((e^eps0-1)/eps0) - 1 + eps0/(e^eps0-1)"),)),
        Claim(3, "kl_sup(1e-3)/(1e-6/8) = 1 within 1e-3 (eps0^2/8 asymptotics).",
              (Compare(_kl_ratio, "eq", _c(1), points({}), "numeric", Tol.abs("1e-3"),
                       "kl_sup(1e-3)/(1e-6/8)", "1"),)),
        Claim(4, "Ordering DDR-T5.eps <= DDR-C31.eps <= DR19-BR.eps_kovkl <= DR19-BR.eps (each "
                 f"clipped at k eps0), certified at every point of {ORDER_TEXT}.",
              (_order_check(_mgf_raw, _optkl_raw, "DDR-T5.eps <= DDR-C31.eps"),
               _order_check(_optkl_raw, _kovkl_raw, "DDR-C31.eps <= DR19-BR.eps_kovkl"),
               _order_check(_kovkl_raw, _dr19_raw, "DR19-BR.eps_kovkl <= DR19-BR.eps"))),
        Claim(5, "kl(eps0, t) equals the KL divergence of the two output laws of RR_{eps0,t}: an "
                 "identity (z3) once the log-ratios are t and t - eps0 (DDR-D24), and "
                 "numerically (1e-45) at (eps0, t) in {(0.5, 0.1), (1.3, 0.9), (0.2, 1e-4)}.",
              (Smt(_kl_identity_problem, "p t + (1-p)(t - eps0) = t - eps0 (Y-1)/(X-1)"),
               Compare(_kl_t_term, "eq", _kl_direct_term, D24_POINTS, "numeric",
                       Tol.abs("1e-45"), "kl(eps0, t)", "p ln(p/q) + (1-p) ln((1-p)/(1-q))"))),
    ),
    notes="Compared with DRV-ADV (bias k eps0 (e^eps0 - 1), about k eps0^2) the KL term (about "
          "k eps0^2/8) is 8 times smaller for small eps0. The expression matches public code "
          "citing Prop. 4 of the ICML version.",
)


@exact_params("eps0", "lam")
def _mgf_closed(ctx: Any, eps0: Any, lam: Any, **_: Any) -> Any:
    E0, L = to_ctx(ctx, eps0), to_ctx(ctx, lam)
    return ctx.exp(mgf_log_m(ctx, E0, L))


@exact_params("eps0", "lam")
def _mgf_bb(ctx: Any, eps0: Any, lam: Any, **_: Any) -> Any:
    """``max_t h(t)``, ``h = p_t e^{lam t} + (1 - p_t) e^{lam (t - eps0)} = e^{lam t}(e^{-lam eps0}
    + A) - A e^{(lam+1) t - eps0}`` (branch and bound over [0, eps0])."""
    e, lam_ = Fraction(eps0), Fraction(lam)
    E0, L = ctx.num(e), ctx.num(lam_)
    A = ctx.expm1(-L * E0) / ctx.expm1(-E0)
    B = ctx.exp(-L * E0) + A

    def parts(T: Any) -> tuple[Any, Any, Any]:
        u = ctx.exp(L * T)
        v = ctx.exp((L + 1) * T - E0)
        return (u * B - A * v, L * u * B - (L + 1) * A * v,
                L * L * u * B - (L + 1) * (L + 1) * A * v)

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        return parts(ctx.num(t))[0]

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        return parts(ctx.num(t))[1]

    def enclose(a: Fraction, b: Fraction) -> tuple[Any, Any, Any]:
        u = _span(lambda s: ctx.exp(L * ctx.num(s)), a, b)
        v = _span(lambda s: ctx.exp((L + 1) * ctx.num(s) - E0), a, b)
        return (u * B - A * v, L * u * B - (L + 1) * A * v,
                L * L * u * B - (L + 1) * (L + 1) * A * v)

    return bb_maximize(ctx, value, enclose, Fraction(0), e, slope)


@exact_params("eps0", "delta")
def _t3_at_mgf(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    """DDR-T3.delta at eps = DDR-T5.eps (at the lower end of its enclosure: DDR-T3 is
    nonincreasing in eps)."""
    x = mgf_eps(ctx, eps0, k, delta)
    return t3_delta(ctx, eps0, k, _lower_exact(ctx, x))


DDR_T5 = Theorem(
    id="DDR-T5",
    title="Theorem 5: MGF bound for adaptive BR composition",
    family=FAMILY,
    source=_src("Thm 5"),
    types=("BOUND",),
    confidence=("DERIVED", "UNCERTAIN"),
    statement="(Reconstruction) eps(delta) = inf_{lam > 0} (k ln M(lam) + ln(1/delta))/lam (min "
              "with k eps0), M(lam) = sup_{t in [0, eps0]} (p_t e^{lam t} + (1 - p_t) e^{lam (t - "
              "eps0)}), attained at t*(lam) = eps0 + ln(lam (e^{-lam eps0} + A)/(A (1 + lam))), A "
              "= (1 - e^{-lam eps0})/(1 - e^{-eps0}), clipped to [0, eps0]: the Chernoff bound on "
              "the adaptive privacy-loss martingale. MGF <= OptKL (Hoeffding's lemma).",
    domain="eps0 > 0, k >= 1 integer, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (EPS0_BR, K, DELTA), mgf_eps,
                  "min(k eps0, inf_lam (k ln M(lam) + ln(1/delta))/lam)"),
        Evaluator("delta", (EPS0_BR, K, EPS_REAL), mgf_delta,
                  "min(1, inf_lam exp(k ln M(lam) - lam eps)) (derived)"),
    ),
    claims=(
        Claim(1, "The closed-form t* attains the sup over t of the MGF (rigorous branch and "
                 "bound over [0, eps0]) to relative 1e-28 at (eps0, lam) in {(0.5, 3), (0.1, 40), "
                 "(2.0, 0.7)}.",
              (Compare(_mgf_closed, "eq", _mgf_bb,
                       points({"eps0": "0.5", "lam": "3"}, {"eps0": "0.1", "lam": "40"},
                              {"eps0": "2.0", "lam": "0.7"}),
                       "numeric", Tol.rel("1e-28"), "h(t*(lam))", "max_t h(t)"),)),
        Claim(2, "Validity: the rigorous adaptive upper bound (DDR-L32 UB, N = 1000) at eps = "
                 "DDR-T5.eps(0.5, k, delta) is <= delta for k <= 6 and delta in {0.1, 0.01, "
                 "0.001}, certified at all 18 points.",
              (Compare(_ub_at(_mgf_bound), "le", _delta_term, _ub_points(), "numeric",
                       lhs_name="UB at DDR-T5.eps", rhs_name="delta"),)),
        Claim(3, "DDR-T3.delta(eps0, k, DDR-T5.eps(eps0, k, delta)) <= delta for (eps0, k, delta) "
                 "in {(0.1, 50, 1e-6), (0.5, 20, 1e-6), (0.1, 300, 1e-6), (0.01, 2000, 1e-6)}.",
              (Compare(_t3_at_mgf, "le", _delta_term,
                       points({"eps0": "0.1", "k": 50, "delta": "1e-6"},
                              {"eps0": "0.5", "k": 20, "delta": "1e-6"},
                              {"eps0": "0.1", "k": 300, "delta": "1e-6"},
                              {"eps0": "0.01", "k": 2000, "delta": "1e-6"}),
                       "numeric", lhs_name="DDR-T3.delta at DDR-T5.eps", rhs_name="delta"),)),
        Claim(4, f"DDR-T5.eps <= DDR-C31.eps, certified at every point of {ORDER_TEXT} (as "
                 "DDR-C31 claim 4).",
              (_order_check(_mgf_raw, _optkl_raw, "DDR-T5.eps <= DDR-C31.eps"),)),
    ),
    notes="The paper's display could not be read; the Chernoff reconstruction is implemented. "
          "Every lam gives a valid bound, so the golden-section lam (over ln lam in [-14, 10]) "
          "keeps the value sound; it is within the working precision of the infimum. For small "
          "eps0 the MGF bound is only marginally better than OptKL (3524 vs 3522 queries at "
          "eps0 = 0.1, budget 20).",
)


def _het_equal(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    return dr19_eps_het(ctx, [eps0] * k, delta)


def _dr19_raw_term(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    return dr19_eps_raw(ctx, eps0, k, delta)


DR19_BR = Theorem(
    id="DR19-BR",
    title='The "DR19" bound of DDR Figure 1',
    family=FAMILY,
    source=Source(DR19[0] + ", as plotted in " + DDR[0],
                  "[DDR] Fig. 1; the original [DR19] bound not verified (arXiv versions not "
                  "verified)", arxiv=DR19[1]),
    types=("BOUND",),
    confidence=("UNCERTAIN",),
    statement="[DDR] says [DR19] used Azuma-Hoeffding with the BR range (eps0 instead of 2 eps0) "
              "but did not improve the KL term. Reconstruction (DRV bias plus BR Azuma): eps = "
              "min{k eps0, k eps0 (e^eps0 - 1) + eps0 sqrt((k/2) ln(1/delta))}; heterogeneous: "
              "sum_i eps_i (e^eps_i - 1) + sqrt((1/2) sum_i eps_i^2 ln(1/delta)). Alternative: "
              "bias k eps0 (e^eps0 - 1)/(e^eps0 + 1).",
    domain="eps0 > 0, k >= 1 integer, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (EPS0_BR, K, DELTA), dr19_eps,
                  "min(k eps0, k eps0 (e^eps0 - 1) + eps0 sqrt((k/2) ln(1/delta)))"),
        Evaluator("eps_het", (replace(EPS_LIST, element=replace(EPS_LIST.element, lo_open=True)),
                              DELTA), dr19_eps_het,
                  "sum_i eps_i (e^eps_i - 1) + sqrt((1/2) sum_i eps_i^2 ln(1/delta))"),
        Evaluator("eps_kovkl", (EPS0_BR, K, DELTA), dr19_eps_kovkl,
                  "min(k eps0, k eps0 (e^eps0-1)/(e^eps0+1) + eps0 sqrt((k/2) ln(1/delta)))"),
    ),
    claims=(
        Claim(1, f"Ordering DDR-C31.eps <= DR19-BR.eps_kovkl <= DR19-BR.eps on {ORDER_TEXT} "
                 "(see DDR-C31 claim 4), certified at every point.",
              (_order_check(_optkl_raw, _kovkl_raw, "DDR-C31.eps <= DR19-BR.eps_kovkl"),
               _order_check(_kovkl_raw, _dr19_raw, "DR19-BR.eps_kovkl <= DR19-BR.eps"))),
        Claim(2, "eps_het with k equal entries equals the unclipped homogeneous value (relative "
                 "1e-40), searched on eps0 in [0.01, 2], k in {1..20}, delta in [1e-12, 0.5].",
              (Compare(_het_equal, "eq", _dr19_raw_term,
                       Box(reals={"eps0": ("0.01", "2"), "delta": ("1e-12", "0.5")},
                           ints={"k": (1, 20)}, log_scale=frozenset({"eps0", "delta"})),
                       "property", Tol.rel("1e-40"), "eps_het((eps0,)*k, delta)",
                       "k eps0 (e^eps0 - 1) + eps0 sqrt((k/2) ln(1/delta))"),)),
        Claim(3, "Soundness for BR mechanisms: the DDR-L32 upper bound (N = 1000) at eps = "
                 "DR19-BR.eps(0.5, k, delta) is <= delta for k <= 6, delta in {0.1, 0.01, 0.001}.",
              (Compare(_ub_at(_dr19_bound), "le", _delta_term, _ub_points(), "numeric",
                       lhs_name="UB at DR19-BR.eps", rhs_name="delta"),)),
    ),
    notes="Open question: the original [DR19] bound. The DRV-KL variant alone reproduces the "
          "three ratios claimed in [DDR]'s introduction (DDR-FIG1).",
)


# ==========================================================================================
# DDR-L21-LAPLACE


def _laplace_window(ctx: Any, eps0: Any, **_: Any) -> bool | None:
    """Lap(0, 1/eps0) vs Lap(1, 1/eps0) on the grid y = j/8 in [-2, 3]: every log-density ratio
    lies in [-eps0, eps0] (to 1e-40), the ends are attained at y = 0 and y = 1, so the window
    width (BR parameter) is 2 eps0 with t = eps0."""
    tol = ctx.num(_tiny(40))
    half = eps0 / 2
    lr = []
    for j in range(-16, 25):
        y = ctx.num(Fraction(j, 8))
        f0 = half * ctx.exp(-eps0 * ctx.abs(y))
        f1 = half * ctx.exp(-eps0 * ctx.abs(y - 1))
        lr.append(ctx.log(f0 / f1))
    checks = [ctx.le(ctx.abs(v), eps0 + tol) for v in lr]
    checks.append(ctx.le(ctx.abs(lr[16] - eps0), tol))       # y = 0
    checks.append(ctx.le(ctx.abs(lr[24] + eps0), tol))       # y = 1
    checks.append(ctx.le(ctx.abs(ctx.max(*lr) - ctx.min(*lr) - 2 * eps0), tol))
    if any(c is False for c in checks):
        return False
    return None if any(c is None for c in checks) else True


DDR_L21_LAPLACE = Theorem(
    id="DDR-L21-LAPLACE",
    title="Laplace noise is eps-DP but 2eps-BR (Sec. 3.5 remark)",
    family=FAMILY,
    source=_src("Sec. 3.5 (remark after Lemma 2.1)"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="Laplace(1/eps) noise on a sensitivity-1 statistic is eps-DP and 2eps-BR, with t = "
              "eps for every neighbour pair; the BR optimum is pessimistic for Laplace (use "
              "KOV/MV there).",
    domain="eps > 0",
    aliases=("DDR-L21-Laplace",),
    claims=(
        Claim(1, "For Lap(0, 1/eps) vs Lap(1, 1/eps) the log-density ratio ranges over [-eps, "
                 "eps] (checked on y = j/8 in [-2, 3], ends attained at y = 0 and 1): window "
                 "width 2 eps (t = eps), so the pair is 2eps-BR and not eps'-BR for eps' < 2 eps; "
                 "eps in {0.1, 1, 3}.",
              (Predicate(_laplace_window, grid(eps0=["0.1", "1", "3"]), "numeric",
                         "log-ratio window [-eps, eps] attained"),)),
    ),
)


# ==========================================================================================
# DDR-FIG1


FIG1_TABLE = (  # the catalogue's reproduction at delta = 1e-6 (columns as FIG1_KINDS)
    ("0.1", "1", (10, 10, 11, 12, 13, 15, 22, 26)),
    ("0.1", "2", (20, 24, 37, 45, 54, 55, 81, 84)),
    ("0.1", "3", (30, 46, 72, 93, 117, 119, 168, 170)),
    ("0.1", "5", (50, 108, 159, 220, 308, 310, 417, 420)),
    ("0.1", "10", (100, 346, 431, 655, 1082, 1084, 1367, 1370)),
    ("0.1", "20", (200, 1054, 1080, 1782, 3522, 3524, 4189, 4194)),
    ("0.01", "1", (100, 562, 1135, 1269, 1397, 1399, 2241, 2244)),
    ("0.01", "5", (500, 10414, 16330, 22012, 30827, 30829, 41646, 41648)),
    ("0.01", "20", (2000, 104682, 111627, 178140, 352191, 352194, 418704, 418708)),
)


def _fig1_count(ctx: Any, kind: str, eps0: Any, eps: Any, delta: Any) -> int:
    if kind == "basic":
        return fig1_k_basic(ctx, eps0, eps)
    return _fig1_k(ctx, kind, eps0, eps, delta)


def _fig1_col(kind: str) -> Callable[..., Any]:
    @exact_params("eps0", "eps", "delta")
    def term(ctx: Any, eps0: Any, eps: Any, delta: Any, **_: Any) -> int:
        return _fig1_count(ctx, kind, eps0, eps, delta)

    return term


def _want(ctx: Any, want: int, **_: Any) -> Any:
    return ctx.num(want)


def _fig1_points(col: int, rows: Sequence[int] | None = None) -> Points:
    idx = range(len(FIG1_TABLE)) if rows is None else rows
    return Points(tuple({"eps0": FIG1_TABLE[i][0], "eps": FIG1_TABLE[i][1], "delta": "1e-6",
                         "want": FIG1_TABLE[i][2][col]} for i in idx))


def _fig1_rows(pred: Callable[[int], bool]) -> Points:
    return Points(tuple({"eps0": e, "eps": b, "delta": "1e-6"}
                        for e, b, _ in FIG1_TABLE if pred(int(b))))


def _counts(eps0: Any, eps: Any, delta: Any) -> dict[str, int]:
    e0, b, d = Fraction(eps0), Fraction(eps), Fraction(delta)
    out = {"basic": _k_basic_exact(e0, b)}
    for kind in FIG1_KINDS[1:]:
        out[kind] = _fig1_search(kind, e0, b, d)
    return out


def _fig1_test(f: Callable[[dict[str, int], Fraction, Fraction], bool]) -> Callable[..., Any]:
    @exact_params("eps0", "eps", "delta")
    def test(ctx: Any, eps0: Any, eps: Any, delta: Any, **_: Any) -> bool:
        return f(_counts(eps0, eps, delta), Fraction(eps0), Fraction(eps))

    return test


def _ratio_in(c: dict[str, int], e0: Fraction, b: Fraction) -> bool:
    return 3.3 <= c["br_optcomp"] / c["dp_optcomp"] <= 4.0


def _ratio_near4(c: dict[str, int], e0: Fraction, b: Fraction) -> bool:
    return c["br_optcomp"] / c["dp_optcomp"] >= 3.95


def _mgf_ratios(c: dict[str, int], e0: Fraction, b: Fraction) -> bool:
    return c["mgf"] >= 3 * c["dp_optcomp"] and 2 * c["mgf"] >= 5 * c["dr19"]


def _half_gap(c: dict[str, int], e0: Fraction, b: Fraction) -> bool:
    return 0 <= c["dp_optcomp_half"] - c["br_optcomp"] <= 5


def _sandwich_counts(c: dict[str, int], e0: Fraction, b: Fraction) -> bool:
    return c["dp_optcomp"] <= c["br_optcomp"] <= c["dp_optcomp_half"]


@exact_params("eps0", "eps", "delta")
def _monotone_in_k(ctx: Any, eps0: Any, k: int, eps: Any, delta: Any, **_: Any) -> bool | None:
    """Each compared quantity at k is at most its value at k + 1 plus 1e-30 (certified in
    arb)."""
    E0, D = ctx.num(eps0), ctx.num(delta)
    pairs = [
        (t3_delta(ctx, eps0, k, eps), t3_delta(ctx, eps0, k + 1, eps)),
        (kov_delta_pure(ctx, eps0, k, eps), kov_delta_pure(ctx, eps0, k + 1, eps)),
        (kov_delta_pure(ctx, Fraction(eps0) / 2, k, eps),
         kov_delta_pure(ctx, Fraction(eps0) / 2, k + 1, eps)),
        (dr19_eps(ctx, E0, k, D), dr19_eps(ctx, E0, k + 1, D)),
        (dr19_eps_kovkl(ctx, E0, k, D), dr19_eps_kovkl(ctx, E0, k + 1, D)),
        (optkl_eps(ctx, E0, k, D), optkl_eps(ctx, E0, k + 1, D)),
        (mgf_eps(ctx, eps0, k, delta), mgf_eps(ctx, eps0, k + 1, delta)),
    ]
    slack = ctx.num(_tiny(30))  # equality occurs (e.g. k-fold RR at eps = 0 for k = 1, 2)
    res = [ctx.le(a, b + slack) for a, b in pairs]
    if any(r is False for r in res):
        return False
    return None if any(r is None for r in res) else True


@exact_params("eps0", "eps")
def _t3_float(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    """The double-precision DDR-T3 path (golden section over l), as an exact double."""
    return ctx.num(Fraction(_t3_point(_FP, Fraction(eps0), k, Fraction(eps))))


FIG1_EVALUATORS = tuple(
    Evaluator(f"k_{kind}", (EPS0_BR, BUDGET, DELTA), _fig1_evaluator(kind), doc,
              integer_valued=True)
    for kind, doc in (
        ("br_optcomp", "largest k with DDR-T3.delta(eps0, k, eps) <= delta"),
        ("dp_optcomp", "largest k with KOV-DELTA.delta_pure(eps0, k, eps) <= delta"),
        ("dp_optcomp_half", "largest k with KOV-DELTA.delta_pure(eps0/2, k, eps) <= delta"),
        ("dr19", "largest k with DR19-BR.eps(eps0, k, delta) <= eps"),
        ("dr19_kovkl", "largest k with DR19-BR.eps_kovkl(eps0, k, delta) <= eps"),
        ("optkl", "largest k with DDR-C31.eps(eps0, k, delta) <= eps"),
        ("mgf", "largest k with DDR-T5.eps(eps0, k, delta) <= eps"),
    ))

DDR_FIG1 = Theorem(
    id="DDR-FIG1",
    title="Figure 1: how many eps0-BR queries fit in a budget",
    family=FAMILY,
    source=_src("Fig. 1 and introduction (the figure's eps0 and delta not recovered)"),
    types=("APPROX",),
    confidence=("DERIVED",),
    statement="Claims in the paper: BR-OptComp (non-adaptive) allows about 4x more queries than "
              "DP-OptComp (KOV/MV with eps0) for a fixed budget, about 2x more than DR19; in some "
              "settings MGF allows about 3x more than both; the eps0/2-DP OptComp curve nearly "
              "coincides with BR-OptComp. Reproduction: the largest k whose composed guarantee "
              "stays within the budget eps at delta = 1e-6, for eps0 = 0.1 and 0.01.",
    domain="eps0 > 0, budget eps > 0, delta in (0, 1)",
    evaluators=(FIG1_EVALUATORS[0],
                Evaluator("k_basic", (EPS0_BR, BUDGET), fig1_k_basic, "floor(eps/eps0)",
                          integer_valued=True),
                *FIG1_EVALUATORS[1:]),
    claims=(
        Claim(1, "The catalogue's table (eps0 in {0.1, 0.01}, budgets 1-20, delta = 1e-6) is "
                 "reproduced exactly in all eight integer columns (double-precision searches, "
                 "decided in mpmath: passed, not proved).",
              tuple(Compare(_fig1_col(kind), "eq", _want, _fig1_points(i), "numeric",
                            Tol.abs("1/2"), f"k_{kind}", "table value", ctx="mp")
                    for i, kind in enumerate(FIG1_KINDS))),
        Claim(2, "k_br_optcomp/k_dp_optcomp lies in [3.3, 4.0] in every row with budget >= 2 "
                 "and is >= 3.95 once eps/eps0 >= 100 (tending to 4: eps0-BR behaves like "
                 "eps0/2-DP), i.e. about 4x BR-OptComp over DP-OptComp.",
              (Predicate(_fig1_test(_ratio_in), _fig1_rows(lambda b: b >= 2), "numeric",
                         "3.3 <= BR/DP <= 4.0", ctx="mp"),
               Predicate(_fig1_test(_ratio_near4),
                         Points(tuple({"eps0": e, "eps": b, "delta": "1e-6"}
                                      for e, b, _ in FIG1_TABLE
                                      if Fraction(b) / Fraction(e) >= 100)),
                         "numeric", "BR/DP >= 3.95", ctx="mp"))),
        Claim(3, "k_mgf/k_dp_optcomp >= 3 and k_mgf/k_dr19 >= 2.5 at budgets 10 and 20 (eps0 = "
                 "0.1): about 3x MGF over both DP-OptComp and DR19; and BR-OptComp allows about "
                 "2x DR19 at moderate budgets (ratio in [1.95, 2.65] for budgets 1 to 5).",
              (Predicate(_fig1_test(_mgf_ratios),
                         points({"eps0": "0.1", "eps": "10", "delta": "1e-6"},
                                {"eps0": "0.1", "eps": "20", "delta": "1e-6"}),
                         "numeric", "MGF/DP >= 3 and MGF/DR19 >= 2.5", ctx="mp"),
               Predicate(_fig1_test(lambda c, e, b: 1.95 <= c["br_optcomp"] / c["dr19"] <= 2.65),
                         Points(tuple({"eps0": e, "eps": b, "delta": "1e-6"}
                                      for e, b, _ in FIG1_TABLE if int(b) <= 5)),
                         "numeric", "1.95 <= BR/DR19 <= 2.65", ctx="mp"))),
        Claim(4, "0 <= k_dp_optcomp_half - k_br_optcomp <= 5 in every row of the table.",
              (Predicate(_fig1_test(_half_gap), _fig1_rows(lambda b: True), "numeric",
                         "0 <= k_half - k_br <= 5", ctx="mp"),)),
        Claim(5, "k_dp_optcomp <= k_br_optcomp <= k_dp_optcomp_half (a consequence of the DDR-T3 "
                 "sandwich), searched on eps0 in [0.05, 1], eps in [0.1, 5], delta in [1e-9, "
                 "1e-2].",
              (Predicate(_fig1_test(_sandwich_counts),
                         Box(reals={"eps0": ("0.05", "1"), "eps": ("0.1", "5"),
                                    "delta": ("1e-9", "1e-2")},
                             log_scale=frozenset({"eps0", "delta"})),
                         "property", "k_dp <= k_br <= k_half", ctx="mp"),)),
        Claim(6, "Each compared quantity is monotone in k (DDR-T3.delta, KOV-DELTA at eps0 and "
                 "eps0/2 nondecreasing; the eps of DR19, DR19-KOV-KL, OptKL, MGF nondecreasing; "
                 "f(k) <= f(k+1) + 1e-30, equality occurring at eps = 0), "
                 "which the search relies on: searched on eps0 in [0.05, 1], k in {1..40}, eps in "
                 "[0, 6], delta in [1e-9, 0.1]; and the double-precision DDR-T3 path the searches "
                 "use (golden section over l) agrees with the exact value to relative 1e-9 at "
                 "(0.1, 200, 1), (0.01, 500, 0.5), (0.5, 100, 3), (0.05, 1000, 2).",
              (Predicate(_monotone_in_k,
                         Box(reals={"eps0": ("0.05", "1"), "eps": ("0", "6"),
                                    "delta": ("1e-9", "0.1")},
                             ints={"k": (1, 40)}, log_scale=frozenset({"eps0", "delta"})),
                         "property", "f(k) <= f(k+1) for every compared bound"),
               Compare(_t3_float, "eq", _t3_term,
                       points({"eps0": "0.1", "k": 200, "eps": "1"},
                              {"eps0": "0.01", "k": 500, "eps": "0.5"},
                              {"eps0": "0.5", "k": 100, "eps": "3"},
                              {"eps0": "0.05", "k": 1000, "eps": "2"}),
                       "numeric", Tol.rel("1e-9"), "DDR-T3 double-precision path",
                       "DDR-T3.delta"))),
    ),
    notes="Integer-valued evaluators: double-precision searches (doubling and bisection, "
          "assuming claim 6's monotonicity); in a rigorous context the boundary (k, k+1) is "
          "re-decided in arb (BR-OptComp up to k = 3000). figure1_series(eps0, eps_values, "
          "delta) returns every column for plotting. Caveat: BR-OptComp is non-adaptive; OptKL "
          "and MGF are adaptive upper bounds.",
)


THEOREMS: tuple[Theorem, ...] = (
    DDR_D22, DDR_C21, DDR_L21, DDR_T1, DDR_P1, DDR_P2, DDR_D24, DDR_F1, DDR_D26, DDR_L41,
    DDR_L44, DDR_L31, DDR_T2, DDR_T3, DDR_L32, DDR_T4, DDR_C31, DDR_T5, DR19_BR,
    DDR_L21_LAPLACE, DDR_FIG1,
)
