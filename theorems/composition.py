"""Composition of (eps, delta)-DP mechanisms: basic, advanced and optimal composition.

Catalogue: ``composition.md`` (BASIC, STK-BASIC-OPT, DRV-ADV, STK-ADV-PURE, STK-ADV-APPROX,
KOV-OPT, KOV-DELTA, KOV-EPS, KOV-34, MV-OPT, MV-HARD, MV-APPROX, STK-ASYMP-OPT).

Main results
------------
- Closed forms: basic composition, the Laplace witness of its optimality, advanced composition
  in the [DRV] and [S22] forms (pure and approximate), the KOV Thm 3.4 bound.
- :func:`kov_delta`: the exact optimal delta(eps) of k-fold homogeneous composition, as the
  binomial privacy-loss sum of k-fold RR(eps0) ([MV] Thm 1.4). The sum walks out from the mode
  of the binomial and stops once the pmf is negligible; the remainder is enclosed by a certified
  geometric tail bound, so the arb value is a rigorous enclosure in O(sqrt(k) * digits) terms
  (k = 10^5 at 50 digits in well under a second).
- :func:`kov_eps`: the EXACT inverse. On each interval between consecutive privacy-loss atoms
  ``x_j = eps0 (2j - k)`` the pure part is ``A_j - e^eps B_j`` (suffix sums of the binomial
  laws under P and Q), so ``eps = log((A_j - T)/B_j)`` on the right piece. Each candidate is a
  lower bound of the answer (``A_j - e^eps B_j <= delta_pure(eps)`` everywhere) and the right
  piece is certified by the ball comparisons ``delta_pure(x_b) <= T <= delta_pure(x_{a-1})``,
  so the answer is the maximum of the candidates of the certified range of pieces.
- :func:`mv_delta_pure`: the exact heterogeneous optimum ([MV] Thm 1.5): the ``2^k`` subset sum
  evaluated by meet in the middle over exact rational privacy losses (``k <= 20``), or, for
  any k, by an exact knapsack dynamic program over the privacy-loss lattice when the ``eps_i``
  are multiples of a common step with a small enough lattice; larger inputs are refused.
- :func:`mv_approx_delta_upper`: the lattice upper bound (``eps_i`` rounded up to multiples of
  ``step`` exactly, then the same dynamic program).
- Oracles: k-fold RR over its ``2^k`` outputs, the worst (eps0, delta0) four-output mechanism
  over ``4^k`` outputs, heterogeneous products, random adaptive compositions (k <= 4).

References
----------
- [DRV] C. Dwork, G. N. Rothblum, S. Vadhan, *Boosting and Differential Privacy*, FOCS 2010,
  Thm III.3 (no arXiv version); = [DR14] C. Dwork, A. Roth, *The Algorithmic Foundations of
  Differential Privacy*, 2014, Thm 3.20.
- [KOV] P. Kairouz, S. Oh, P. Viswanath, *The Composition Theorem for Differential Privacy*,
  arXiv 1311.0776v4, Thm 3.3 (optimal composition) and Thm 3.4 (closed-form bound).
- [MV] J. Murtagh, S. Vadhan, *The Complexity of Computing the Optimal Composition of
  Differential Privacy*, arXiv 1507.03113 (version not verified; Theory of Computing 14(8),
  2018), Thm 1.4 (homogeneous restatement), Thm 1.5 (heterogeneous optimum), the #P-hardness
  and approximation theorems (numbers not verified).
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Thm 1 and Sec. 2.1 (basic composition and its optimality),
  Sec. 4 and 4.3 (advanced composition via zCDP), Sec. 5 (asymptotic optimality).
- [BS16] M. Bun, T. Steinke, arXiv 1605.02065v1, Prop. 1.3 (zCDP to approximate DP) and
  Prop. 1.4 (pure DP implies zCDP), through [S22] Sec. 4.
"""

from __future__ import annotations

import bisect
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
from dpverify.theorems.core import Evaluator, InvalidParameter, Real, Source, Theorem, fmt_fraction
from dpverify.theorems.ctx import Interval, PrecisionExhausted, Unsupported
from dpverify.theorems.numerics.finite import hockey_stick, product, randomized_response
from dpverify.theorems.params import (
    DELTA,
    DELTA0,
    DELTA_LIST,
    EPS,
    EPS0,
    EPS0_POS,
    EPS_LIST,
    EPS_REAL,
    RHO,
    K,
)
from dpverify.theorems.values import approx_float, exact_params, float_bounds, is_exact, to_ctx

FAMILY = "composition"

# Exact MV-OPT: subset enumeration up to this many mechanisms (documented limit, MV-HARD).
MV_MAX_ENUM_K = 20
# Exact MV-OPT / MV-APPROX lattice dynamic program: at most this many cell updates
# (k times the number of lattice points, 2 * sum_i a_i + 1).
MV_MAX_LATTICE_WORK = 4_000_000

KOV = ("Kairouz, Oh & Viswanath, The Composition Theorem for Differential Privacy",
       "1311.0776", "v4")
MV = ("Murtagh & Vadhan, The Complexity of Computing the Optimal Composition of "
      "Differential Privacy", "1507.03113")
S22 = ("Steinke, Composition of Differential Privacy & Privacy Amplification by Subsampling",
       "2210.00597", "v4")


# ==========================================================================================
# Parameter helpers


def _exact_list(v: Any, name: str) -> tuple[Fraction, ...]:
    """An exact tuple of rationals (MV-OPT needs the privacy losses exactly)."""
    if isinstance(v, tuple | list) and all(is_exact(x) for x in v):
        return tuple(Fraction(x) for x in v)
    raise Unsupported(f"{name} must be given exactly (rationals) to this formula")


def _wide(x: Any) -> bool:
    """An arb ball that stands for a whole interval of parameters (wider than rounding)."""
    if not isinstance(x, flint.arb) or x.is_exact():
        return False
    scale = max(abs(float(x.mid())), 1.0)
    return bool(float(x.rad()) > scale * 2.0 ** (-(flint.ctx.prec // 2)))


def _ends(x: Any, floor: int | None = None) -> tuple[Any, Any]:
    """The exact end points of a ball or an interval (the lower one at least ``floor``)."""
    if isinstance(x, Interval):
        lo, hi = x.lo, x.hi
        return (max(lo, Fraction(floor)) if floor is not None else lo), hi
    if isinstance(x, flint.arb):
        lo, hi = x.lower(), x.upper()
        if floor is not None and lo < floor:
            lo = flint.arb(floor)
        return lo, hi
    return x, x


def _is_inf(x: Any) -> bool:
    if isinstance(x, flint.arb):
        return not x.mid().is_finite() and x.mid() > 0
    try:
        return math.isinf(float(x)) and float(x) > 0
    except (TypeError, ValueError, OverflowError):
        return False


def _log_inv(ctx: Any, delta: Any) -> Any:
    """``log(1/delta)``."""
    return -ctx.log(delta)


def _tail_enclosure(ctx: Any, total: Any, bound: Any) -> Any:
    """``total + [0, bound]`` in a rigorous context; a negligible remainder is dropped otherwise."""
    if getattr(ctx, "rigorous", False):
        return total + ctx.hull(ctx.zero, bound)
    return total


def _negligible_scale(ctx: Any) -> Any:
    return ctx.num(Fraction(1, 2 ** (int(ctx.prec) + 16)))


# ==========================================================================================
# Closed forms: BASIC, STK-BASIC-OPT, DRV-ADV, STK-ADV-PURE, STK-ADV-APPROX, KOV-34


def basic_eps(ctx: Any, eps_list: Sequence[Any]) -> Any:
    """``sum_i eps_i`` — basic composition of pure DP (DKMMN06; [S22] arXiv 2210.00597v4,
    Thm 1)."""
    return ctx.fsum(eps_list)


def basic_delta(ctx: Any, delta_list: Sequence[Any]) -> Any:
    """``sum_i delta_i`` — basic composition of approximate DP ([S22] v4, Thm 1, Sec. 2)."""
    return ctx.fsum(delta_list)


def lap_scale(ctx: Any, eps: Any, k: int) -> Any:
    """The per-coordinate Laplace scale ``k/eps`` of the witness of [S22] v4, Sec. 2.1."""
    return ctx.num(k) / eps


def lap_mass(ctx: Any, k: int) -> Any:
    """``2^-k``: P[privacy loss = eps] of the witness of [S22] v4, Sec. 2.1 (all k noises >= 0)."""
    return ctx.num(Fraction(1, 2**k))


def _slack(ctx: Any, delta: Any, delta0: Any, k: int) -> Any:
    """The slack ``delta' = delta - k*delta0`` of the catalogue's slack convention; > 0 required
    (decided exactly for exact inputs)."""
    if is_exact(delta) and is_exact(delta0):
        s = Fraction(delta) - k * Fraction(delta0)
        if s <= 0:
            raise InvalidParameter(
                f"delta must exceed k*delta0 = {fmt_fraction(k * Fraction(delta0))} (the slack "
                f"delta' = delta - k*delta0 must be > 0); got {fmt_fraction(Fraction(delta))}")
        return ctx.num(s)
    s = to_ctx(ctx, delta) - k * to_ctx(ctx, delta0)
    c = ctx.lt(ctx.zero, s)
    if c is False:
        raise InvalidParameter("delta must exceed k*delta0 (the slack must be > 0)")
    if c is None:
        raise PrecisionExhausted("the sign of the slack delta - k*delta0 is undecided")
    return s


def drv_eps_slack(ctx: Any, eps0: Any, k: int, slack: Any) -> Any:
    """``eps' = sqrt(2 k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1)`` ([DRV] FOCS 2010, Thm III.3
    = [DR14] Thm 3.20), as a function of the slack delta'."""
    return ctx.sqrt(2 * k * _log_inv(ctx, slack)) * eps0 + k * eps0 * ctx.expm1(eps0)


@exact_params("delta", "delta0")
def drv_eps(ctx: Any, eps0: Any, k: int, delta: Any, delta0: Any) -> Any:
    """DRV-ADV unclipped: ``(eps', k*delta0 + delta')``-DP ([DRV] Thm III.3), slack
    ``delta' = delta - k*delta0``."""
    return drv_eps_slack(ctx, eps0, k, _slack(ctx, delta, delta0, k))


@exact_params("delta", "delta0")
def drv_eps_clipped(ctx: Any, eps0: Any, k: int, delta: Any, delta0: Any) -> Any:
    """``min(k eps0, eps')`` — DRV-ADV as practical code uses it (basic composition also holds)."""
    return ctx.min(k * eps0, drv_eps(ctx, eps0, k, delta, delta0))


def stk_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """``k eps0^2/2 + eps0 sqrt(2 k log(1/delta))`` ([S22] arXiv 2210.00597v4, Sec. 4: eps0-DP
    => eps0^2/2-zCDP, composition, conversion; [SteinkeBlog22])."""
    return k * eps0**2 / 2 + eps0 * ctx.sqrt(2 * k * _log_inv(ctx, delta))


def stk_eps_het(ctx: Any, eps_list: Sequence[Any], delta: Any) -> Any:
    """``(1/2) sum eps_j^2 + sqrt(2 log(1/delta) sum eps_j^2)`` ([S22] v4, Sec. 4)."""
    s = ctx.fsum(e**2 for e in eps_list)
    return s / 2 + ctx.sqrt(2 * _log_inv(ctx, delta) * s)


@exact_params("delta", "delta0")
def stk_approx_eps(ctx: Any, eps0: Any, k: int, delta: Any, delta0: Any) -> Any:
    """STK-ADV-APPROX: ``(eps, delta' + k delta0)``-DP with ``eps = k eps0^2/2 + eps0
    sqrt(2k log(1/delta'))`` ([S22] v4, Sec. 4.3; [SteinkeBlog22] fn. 1)."""
    return stk_eps(ctx, eps0, k, _slack(ctx, delta, delta0, k))


def kov34_eps_tilde(ctx: Any, eps0: Any, k: int, dt: Any, clip: bool = True) -> Any:
    """``eps~`` of [KOV] arXiv 1311.0776v4, Thm 3.4, as a function of ``delta~``:
    ``min{k eps0, a + eps0 sqrt(2k ln(e + sqrt(k eps0^2)/delta~)), a + eps0
    sqrt(2k ln(1/delta~))}`` with ``a = k eps0 (e^eps0 - 1)/(e^eps0 + 1)``."""
    a = k * eps0 * ctx.expm1(eps0) / (ctx.exp(eps0) + 1)
    b1 = a + eps0 * ctx.sqrt(2 * k * ctx.log(ctx.exp(ctx.one) + ctx.sqrt(k * eps0**2) / dt))
    b2 = a + eps0 * ctx.sqrt(2 * k * _log_inv(ctx, dt))
    return ctx.min(k * eps0, b1, b2) if clip else ctx.min(b1, b2)


@exact_params("delta0", "delta")
def kov34_eps(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any) -> Any:
    """KOV-34: ``(eps~, 1 - (1 - delta0)^k (1 - delta~))``-DP ([KOV] v4, Thm 3.4), evaluated at
    the total delta: ``delta~ = 1 - (1 - delta)/(1 - delta0)^k`` must lie in (0, 1]."""
    sign, t = _kov_target(ctx, delta0, delta, k)
    if sign <= 0:
        raise InvalidParameter(
            "delta must exceed 1 - (1 - delta0)^k so that delta~ = 1 - (1 - delta)/(1 - "
            "delta0)^k lies in (0, 1]")
    return kov34_eps_tilde(ctx, to_ctx(ctx, eps0), k, t)


# ==========================================================================================
# The binomial privacy-loss law of k-fold RR(eps0)
#
# Under P the number i of "likely" outputs is Bin(k, p), p = e^eps0/(1 + e^eps0); the privacy
# loss is x_i = eps0 (2i - k). P(i) = C(k, i) e^{i eps0}/(1 + e^eps0)^k and the same count under
# Q has probability P(i) e^{-x_i}.


def _log1pexp(ctx: Any, x: Any) -> Any:
    """``log(1 + e^x)`` for x >= 0 without overflow."""
    return x + ctx.log1p(ctx.exp(-x))


def _log_pmf(ctx: Any, eps0: Any, k: int, i: int) -> Any:
    """``log P(i) = log C(k, i) - (k - i) eps0 - k log(1 + e^-eps0)``."""
    log_binom = (ctx.lgamma(ctx.num(k + 1)) - ctx.lgamma(ctx.num(i + 1))
                 - ctx.lgamma(ctx.num(k - i + 1)))
    return log_binom - (k - i) * eps0 - k * ctx.log1p(ctx.exp(-eps0))


def _mode(eps0: Any, k: int) -> int:
    e = approx_float(eps0)
    p = 1 / (1 + math.exp(-e)) if e > -700 else 0.0
    return min(k, max(0, math.floor((k + 1) * p)))


def _binomial_sum(ctx: Any, eps0: Any, k: int, lo: int, hi: int,
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
    y = ctx.exp(eps0)
    tiny = _negligible_scale(ctx)
    half = ctx.num(Fraction(1, 2))
    s = min(hi, max(lo, _mode(eps0, k)))
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
        if i < hi and ctx.le(p, tiny * total) is True and ctx.le(r, half) is True:
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
        if i > lo and ctx.le(p, tiny * total) is True and ctx.le(r, half) is True:
            total = _tail_enclosure(ctx, total, p)
            break
    return total


def _first_active(eps0: Any, k: int, eps: Any) -> int:
    """An index ``i0`` with ``x_i = eps0 (2i - k) <= eps`` for every ``i < i0`` (all points of
    the balls): terms below it vanish."""
    e_lo, e_hi = float_bounds(eps0)
    t_lo, _ = float_bounds(eps)
    if e_lo <= 0:
        return 0
    ratio = min(t_lo / e_lo, t_lo / e_hi)
    if not math.isfinite(ratio):
        return 0
    return max(0, min(k, math.floor((k + ratio) / 2) - 1))


def kov_delta_pure(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """``delta_pure(eps) = (1+e^eps0)^-k sum_i C(k,i) (e^{i eps0} - e^eps e^{(k-i) eps0})_+``:
    the exact privacy profile of k-fold RR(eps0) ([MV] arXiv 1507.03113, Thm 1.4; [KOV]
    arXiv 1311.0776v4, Thm 3.3), as ``E_P[(1 - e^{eps - x_i})_+]`` over the binomial law of i.
    """
    eps0, eps = to_ctx(ctx, eps0), to_ctx(ctx, eps)
    if _wide(eps0) or _wide(eps):
        # A whole box of parameters: delta_pure is nondecreasing in eps0 (k-fold RR(eps0') is a
        # post-processing of k-fold RR(eps0) for eps0' <= eps0; KOV-DELTA claim 4) and
        # nonincreasing in eps (every summand is), so its range is spanned by two corners.
        e_lo, e_hi = _ends(eps0, floor=0)
        t_lo, t_hi = _ends(eps)
        return ctx.hull(kov_delta_pure(ctx, e_lo, k, t_hi), kov_delta_pure(ctx, e_hi, k, t_lo))
    if ctx.le(k * eps0, eps) is True:
        return ctx.zero  # every atom x_i <= k eps0 <= eps: no term is positive

    zero = ctx.zero

    def weight(i: int) -> Any:
        return ctx.max(-ctx.expm1(eps - (2 * i - k) * eps0), zero)

    return _binomial_sum(ctx, eps0, k, _first_active(eps0, k, eps), k, weight)


def _with_delta0(ctx: Any, delta0: Any, k: int, pure: Any) -> Any:
    """``1 - (1 - delta0)^k (1 - pure)``, without cancellation."""
    if is_exact(delta0) and delta0 == 0:
        return pure
    d0 = to_ctx(ctx, delta0)
    if ctx.le(d0, ctx.zero) is True:
        return pure
    log_keep = k * ctx.log1p(-d0)
    return -ctx.expm1(log_keep) + ctx.exp(log_keep) * pure


def kov_delta(ctx: Any, eps0: Any, delta0: Any, k: int, eps: Any) -> Any:
    """KOV-DELTA: ``1 - (1 - delta0)^k (1 - delta_pure(eps))`` ([MV] arXiv 1507.03113, Thm 1.4;
    [KOV] v4, Thm 3.3): the exact optimal delta of k-fold adaptive composition of
    (eps0, delta0)-DP mechanisms, for every real eps."""
    return _with_delta0(ctx, delta0, k, kov_delta_pure(ctx, eps0, k, eps))


def kov_opt_delta(ctx: Any, eps0: Any, delta0: Any, k: int, eps: Any) -> Any:
    """KOV-OPT, PLD form ([KOV] v4, Thm 3.3; [S22] v4, Sec. 3): ``1 - (1-delta0)^k (1 -
    E[max(0, 1 - e^{eps - Z})])`` with ``Z = eps0 (k - 2L)``, ``L ~ Bin(k, 1/(1 + e^eps0))``.

    A second implementation of the same number: a plain walk over L = 0, 1, ... from the pmf
    ``p^k`` with ratios ``(k-L)/(L+1) e^-eps0`` while ``Z > eps`` could hold; no truncation.
    """
    eps0, eps = to_ctx(ctx, eps0), to_ctx(ctx, eps)
    p = 1 / (1 + ctx.exp(-eps0))
    odds = ctx.exp(-eps0)
    pmf = ctx.pow(p, k)
    total = ctx.zero
    for L in range(k + 1):
        z = eps0 * (k - 2 * L)
        if ctx.lt(eps, z) is False:
            break  # Z decreases with L: no later atom exceeds eps
        total = total + pmf * ctx.pos(-ctx.expm1(eps - z))
        pmf = pmf * odds * (k - L) / (L + 1)
    return _with_delta0(ctx, delta0, k, total)


def kov33_delta_i(ctx: Any, eps0: Any, k: int, i: int) -> Any:
    """``delta_i = sum_{l=0}^{i-1} C(k,l) (e^{(k-l) eps0} - e^{(k-2i+l) eps0})/(1+e^eps0)^k``
    ([KOV] arXiv 1311.0776v4, Thm 3.3), each bracket as ``e^{(k-l) eps0}(1 - e^{-2(i-l) eps0})``."""
    norm = ctx.pow(1 + ctx.exp(eps0), k)
    return ctx.fsum(ctx.binomial(k, ll) * ctx.exp((k - ll) * eps0)
                    * -ctx.expm1(-2 * (i - ll) * eps0) for ll in range(i)) / norm


def kov33_point(ctx: Any, eps0: Any, delta0: Any, k: int, i: int) -> Any:
    """The delta of the Thm 3.3 point ``((k - 2i) eps0, 1 - (1-delta0)^k (1 - delta_i))``."""
    return _with_delta0(ctx, delta0, k, kov33_delta_i(ctx, eps0, k, i))


# ------------------------------------------------------------------------------------------
# KOV-EPS: the exact piecewise inverse


def _kov_target(ctx: Any, delta0: Any, delta: Any, k: int) -> tuple[int, Any]:
    """``T = 1 - (1 - delta)/(1 - delta0)^k`` and its sign (-1, 0, +1).

    ``T`` is what the pure part must not exceed. Computed as ``(delta + expm1(k log1p(-delta0)))
    / (1 - delta0)^k``; an undecided sign is settled exactly when the inputs are exact rationals
    (then ``T = 0`` means ``delta = 1 - (1 - delta0)^k`` exactly).
    """
    if is_exact(delta0) and delta0 == 0:
        if is_exact(delta):
            d = Fraction(delta)
            return (1 if d > 0 else (0 if d == 0 else -1)), ctx.num(d)
        return 1, to_ctx(ctx, delta)
    d0, d = to_ctx(ctx, delta0), to_ctx(ctx, delta)
    log_keep = k * ctx.log1p(-d0)
    gap = d + ctx.expm1(log_keep)
    sign = ctx.lt(ctx.zero, gap)
    if sign is True:
        return 1, gap * ctx.exp(-log_keep)
    if sign is False and ctx.lt(gap, ctx.zero) is True:
        return -1, gap
    if is_exact(delta0) and is_exact(delta) and k <= 20000:
        exact = Fraction(1) - (1 - Fraction(delta)) / (1 - Fraction(delta0)) ** k
        if exact != 0:
            return (1 if exact > 0 else -1), ctx.num(exact)
        return 0, ctx.zero
    raise PrecisionExhausted("cannot decide whether delta exceeds 1 - (1 - delta0)^k")


def _log_f_atom_float(e0: float, k: int, j: int) -> float:
    """``log delta_pure(x_j)`` in floats (log space): only to guess the piece."""
    lg = math.lgamma
    base = lg(k + 1) - k * (math.log1p(math.exp(-e0)) if e0 > 0 else math.log(2))

    def lp(i: int) -> float:
        return base - lg(i + 1) - lg(k - i + 1) - (k - i) * e0

    mode = _mode(e0, k)
    best = -math.inf
    acc = 0.0
    for i in range(j + 1, k + 1):
        w = -math.expm1(-2 * (i - j) * e0)
        if w <= 0:
            continue
        t = lp(i) + math.log(w)
        if t > best:
            acc = acc * math.exp(best - t) + 1.0 if best > -math.inf else 1.0
            best = t
        else:
            acc += math.exp(t - best)
        if i > mode and t < best - 60:
            break
    return best + math.log(acc) if best > -math.inf else -math.inf


def _guess_piece(eps0: Any, k: int, log_t: float, j0: int) -> int:
    """The smallest ``j >= j0`` with ``delta_pure(x_j) <= T``, by bisection in floats."""
    e0 = approx_float(eps0)
    if not e0 > 0:
        return j0
    lo, hi = j0, k  # delta_pure(x_k) = 0 <= T
    while lo < hi:
        mid = (lo + hi) // 2
        if _log_f_atom_float(e0, k, mid) <= log_t:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _suffix_sums(ctx: Any, eps0: Any, k: int, a: int, b: int) -> tuple[list[Any], list[Any]]:
    """``A_j = sum_{i>=j} P(i)`` and ``B_j = sum_{i>=j} P(i) e^{-x_i}`` for ``a <= j <= b``.

    ``B_j`` sums the law of the count under Q (ratio ``(k-i)/((i+1) y)``). The sums above ``b``
    are taken upwards and truncated as in :func:`_binomial_sum` (both tails enclosed).
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


@exact_params("delta0", "delta")
def kov_eps(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any) -> Any:
    """KOV-EPS: the least ``eps >= 0`` with ``KOV-DELTA.delta(eps0, delta0, k, eps) <= delta``
    ([KOV] arXiv 1311.0776v4, Thm 3.3 / [MV] arXiv 1507.03113, Thm 1.4, inverted exactly);
    ``inf`` when ``delta < 1 - (1 - delta0)^k``.

    With ``T = 1 - (1-delta)/(1-delta0)^k`` the answer solves ``delta_pure(eps) = T``. On the
    piece ``(x_{j-1}, x_j]`` between consecutive atoms ``delta_pure = A_j - e^eps B_j``; since
    ``A_j - e^eps B_j <= delta_pure(eps)`` for every eps, each ``log((A_j - T)/B_j)`` is a lower
    bound of the answer with equality on the right piece. The piece is guessed in floats and a
    range ``[a, b]`` around it is certified to contain the answer by ``A_a - e^{x_{a-1}} B_a >= T``
    and ``A_b - e^{x_b} B_b <= T``; the answer is the largest candidate of the range.
    """
    eps0 = to_ctx(ctx, eps0)
    if (_wide(eps0) or isinstance(delta, Interval) or isinstance(delta0, Interval)
            or _wide(delta) or _wide(delta0)):
        # A whole box: eps_opt is nondecreasing in eps0 and delta0 (the class grows; T falls)
        # and nonincreasing in delta, so its range is spanned by two corners.
        e_lo, e_hi = _ends(eps0, floor=0)
        d0_lo, d0_hi = _ends(delta0, floor=0)
        d_lo, d_hi = _ends(delta)
        return ctx.hull(kov_eps(ctx, e_lo, d0_lo, k, d_hi), kov_eps(ctx, e_hi, d0_hi, k, d_lo))
    sign, t = _kov_target(ctx, delta0, delta, k)
    if sign < 0:
        return ctx.inf
    if sign == 0:
        return k * eps0  # delta_pure(eps) = 0 exactly from the top atom x_k = k eps0 on
    at_zero = ctx.le(kov_delta_pure(ctx, eps0, k, ctx.zero), t)
    if at_zero is True:
        return ctx.zero
    j0 = (k + 1) // 2  # the first atom x_j >= 0
    log_t = approx_float(ctx.log(t))
    j = _guess_piece(eps0, k, log_t, j0)
    a, b = max(j0, j - 1), min(k, j + 1)

    def x(i: int) -> Any:
        return (2 * i - k) * eps0

    for _ in range(12):
        big_a, big_b = _suffix_sums(ctx, eps0, k, a, b)
        low_ok = True if a == j0 else ctx.le(t, big_a[0] - ctx.exp(x(a - 1)) * big_b[0])
        high_ok = True if b == k else ctx.le(big_a[-1] - ctx.exp(x(b)) * big_b[-1], t)
        if low_ok is True and high_ok is True:
            break
        if low_ok is not True:
            a = max(j0, a - 1 if low_ok is False else a - 2)
        if high_ok is not True:
            b = min(k, b + 1 if high_ok is False else b + 2)
    else:
        raise PrecisionExhausted("could not certify the piece of the KOV-EPS inverse")
    cands = []
    for aj, bj in zip(big_a, big_b, strict=True):
        gap = aj - t
        if ctx.lt(ctx.zero, gap) is True:
            cands.append(ctx.log(gap) - ctx.log(bj))
    if not cands:
        raise PrecisionExhausted("no candidate of the KOV-EPS inverse is certified positive")
    return ctx.max(ctx.zero, *cands)


# ==========================================================================================
# MV-OPT: heterogeneous optimal composition


def _half_atoms(eps_half: Sequence[Fraction]) -> dict[Fraction, int]:
    """Exact privacy losses ``sum_S eps_i - sum_{not S} eps_i`` over the subsets of a half, with
    their multiplicities."""
    atoms: dict[Fraction, int] = {Fraction(0): 1}
    for e in eps_half:
        nxt: dict[Fraction, int] = {}
        for loss, c in atoms.items():
            for v in (loss + e, loss - e):
                nxt[v] = nxt.get(v, 0) + c
        atoms = nxt
    return atoms


def _half_weights(ctx: Any, eps_half: Sequence[Fraction]) -> list[tuple[Fraction, Any, Any]]:
    """``(L, w(L), w(L) e^-L)`` sorted by L, ``w(L) = count(L) e^{(L + E)/2}/prod(1 + e^eps_i)``
    (the P-probability of the loss L within the half; ``w e^-L`` is its Q-probability)."""
    atoms = _half_atoms(eps_half)
    big_e = sum(eps_half, Fraction(0))
    log_norm = ctx.fsum(_log1pexp(ctx, ctx.num(e)) for e in eps_half) if eps_half else ctx.zero
    out = []
    for loss in sorted(atoms):
        c = ctx.num(atoms[loss])
        out.append((loss, c * ctx.exp(ctx.num((loss + big_e) / 2) - log_norm),
                    c * ctx.exp(ctx.num((big_e - loss) / 2) - log_norm)))
    return out


def _mv_enumerate(ctx: Any, eps_list: Sequence[Fraction], eps: Any) -> Any:
    """``sum_S (e^{sum_S eps_i} - e^eps e^{sum_{not S} eps_i})_+ / prod(1 + e^eps_i)`` over all
    ``2^k`` subsets ([MV] Thm 1.5), organised as meet in the middle: the subsets of each half
    are enumerated exactly; for each loss ``L1`` of the first half, the second-half losses
    ``L2 > eps - L1`` contribute ``W - e^{eps - L1} V`` (suffix sums of the P- and Q-weights)
    and the few whose comparison the balls cannot decide are added one by one with ``(.)_+``.
    """
    h = len(eps_list) // 2
    first = _half_weights(ctx, eps_list[:h])
    second = _half_weights(ctx, eps_list[h:])
    losses2 = [ctx.num(loss) for loss, _, _ in second]
    floats2 = [float(loss) for loss, _, _ in second]
    n = len(second)
    suffix_w = [ctx.zero] * (n + 1)
    suffix_v = [ctx.zero] * (n + 1)
    for m in range(n - 1, -1, -1):
        suffix_w[m] = suffix_w[m + 1] + second[m][1]
        suffix_v[m] = suffix_v[m + 1] + second[m][2]
    total = ctx.zero
    for loss1, w1, _ in first:
        t = eps - ctx.num(loss1)
        guess = bisect.bisect_right(floats2, approx_float(t))
        lo = guess
        while lo > 0 and ctx.lt(t, losses2[lo - 1]) is not False:
            lo -= 1
        hi = max(guess, lo)
        while hi < n and ctx.lt(t, losses2[hi]) is not True:
            hi += 1
        part = suffix_w[hi] - ctx.exp(t) * suffix_v[hi] if hi < n else ctx.zero
        for m in range(lo, hi):
            part = part + second[m][1] * ctx.pos(-ctx.expm1(t - losses2[m]))
        total = total + w1 * part
    return total


def _rational_gcd(values: Sequence[Fraction]) -> Fraction:
    nonzero = [v for v in values if v != 0]
    if not nonzero:
        return Fraction(1)
    den = math.lcm(*(v.denominator for v in nonzero))
    return Fraction(math.gcd(*(v.numerator * (den // v.denominator) for v in nonzero)), den)


def _lattice_law(ctx: Any, multiples: Sequence[int], step: Fraction) -> tuple[int, list[Any]]:
    """The law of ``S = sum_i s_i a_i`` (``s_i = +1`` with probability ``e^{a_i step}/(1 +
    e^{a_i step})``, else ``-1``) by a knapsack dynamic program: returns ``(offset, probs)``
    with ``P(S = m - offset) = probs[m]``. Only products and sums of positive numbers."""
    total = sum(multiples)
    probs = [ctx.zero] * (2 * total + 1)
    probs[total] = ctx.one
    st = ctx.num(step)
    reach = 0
    for a in multiples:
        if a == 0:
            continue
        up = 1 / (1 + ctx.exp(-a * st))
        down = 1 / (1 + ctx.exp(a * st))
        new = [ctx.zero] * len(probs)
        for m in range(total - reach, total + reach + 1):
            w = probs[m]
            new[m + a] = new[m + a] + w * up
            new[m - a] = new[m - a] + w * down
        probs = new
        reach += a
    return total, probs


def _lattice_delta(ctx: Any, multiples: Sequence[int], step: Fraction, eps: Any) -> Any:
    """``sum_s P(S = s) (1 - e^{eps - s step})_+`` for the lattice law of :func:`_lattice_law`."""
    work = len(multiples) * (2 * sum(multiples) + 1)
    if work > MV_MAX_LATTICE_WORK:
        raise InvalidParameter(
            f"the privacy-loss lattice is too fine: k*(2*sum(a_i)+1) = {work} cell updates, "
            f"at most {MV_MAX_LATTICE_WORK} are accepted (use a coarser step)")
    offset, probs = _lattice_law(ctx, multiples, step)
    st = ctx.num(step)
    s_min = math.floor(float_bounds(eps)[0] / float(step)) - 1  # atoms s step <= eps vanish
    terms = []
    for m in range(max(0, s_min + offset), len(probs)):
        s = m - offset
        if ctx.lt(eps, s * st) is False:
            continue
        terms.append(probs[m] * ctx.pos(-ctx.expm1(eps - s * st)))
    return ctx.fsum(terms) if terms else ctx.zero


def _mv_method(eps_list: Sequence[Fraction]) -> tuple[str, Fraction]:
    k = len(eps_list)
    if k <= MV_MAX_ENUM_K:
        return "enumerate", Fraction(0)
    g = _rational_gcd(eps_list)
    work = k * (2 * sum(int(e / g) for e in eps_list) + 1)
    if work <= MV_MAX_LATTICE_WORK:
        return "lattice", g
    raise InvalidParameter(
        f"eps_list has {k} entries: exact MV-OPT enumerates the 2^k subsets for at most "
        f"{MV_MAX_ENUM_K} entries, or needs entries that are multiples of a common step with "
        f"k*(2*sum(eps_i)/step + 1) <= {MV_MAX_LATTICE_WORK} (here step = {fmt_fraction(g)} "
        f"gives {work}); computing the optimum is #P-hard (MV-HARD): use "
        f"MV-APPROX.delta_upper for an upper bound")


@exact_params("eps_list")
def mv_delta_pure(ctx: Any, eps_list: Any, eps: Any) -> Any:
    """MV-OPT LHS: ``(1/prod_i(1+e^eps_i)) sum_S (e^{sum_S eps_i} - e^eps e^{sum_{not S}
    eps_i})_+`` ([MV] arXiv 1507.03113, Thm 1.5), exactly: subset enumeration by meet in the
    middle for k <= MV_MAX_ENUM_K; otherwise the lattice dynamic program when the eps_i are
    multiples of a common step and the lattice is small; otherwise refused (MV-HARD)."""
    eps_list = _exact_list(eps_list, "eps_list")
    eps = to_ctx(ctx, eps)
    method, g = _mv_method(eps_list)
    if method == "enumerate":
        return _mv_enumerate(ctx, eps_list, eps)
    return _lattice_delta(ctx, [int(e / g) for e in eps_list], g, eps)


def _mv_keep(eps_list: tuple[Fraction, ...], delta_list: Any) -> Fraction:
    """``prod_i (1 - delta_i)`` exactly; an empty delta_list means all zeros."""
    if delta_list in ((), None):
        return Fraction(1)
    deltas = _exact_list(delta_list, "delta_list")
    if len(deltas) != len(eps_list):
        raise InvalidParameter(f"delta_list must have the length of eps_list ({len(eps_list)}); "
                               f"got {len(deltas)} entries")
    keep = Fraction(1)
    for d in deltas:
        keep *= 1 - d
    return keep


@exact_params("eps_list", "delta_list")
def mv_delta(ctx: Any, eps_list: Any, eps: Any, delta_list: Any = ()) -> Any:
    """MV-OPT: ``delta_opt(eps) = 1 - prod(1 - delta_i) (1 - LHS(eps))`` ([MV] Thm 1.5)."""
    eps_list = _exact_list(eps_list, "eps_list")
    keep = _mv_keep(eps_list, delta_list)
    pure = mv_delta_pure(ctx, eps_list, eps)
    if keep == 1:
        return pure
    return ctx.num(1 - keep) + ctx.num(keep) * pure


@exact_params("eps_list", "delta_list", "delta")
def mv_eps(ctx: Any, eps_list: Any, delta: Any, delta_list: Any = ()) -> Any:
    """MV-OPT eps form: the least eps >= 0 with ``delta_opt(eps) <= delta``, by bisection on
    ``[0, sum eps_i]`` (``ctx.solve``: an enclosure in arb); ``inf`` when ``delta < 1 -
    prod(1 - delta_i)`` ([MV] Thm 1.5)."""
    eps_list = _exact_list(eps_list, "eps_list")
    keep = _mv_keep(eps_list, delta_list)
    top = sum(eps_list, Fraction(0))
    if is_exact(delta):
        t_exact = 1 - (1 - Fraction(delta)) / keep
        if t_exact < 0:
            return ctx.inf
        if t_exact == 0:
            return ctx.num(top)
        t = ctx.num(t_exact)
    else:
        t = 1 - (1 - to_ctx(ctx, delta)) / ctx.num(keep)
        if ctx.lt(t, ctx.zero) is True:
            return ctx.inf
    return ctx.solve(lambda e: mv_delta_pure(ctx, eps_list, e), t, lo=0, hi=max(top, 1))


@exact_params("eps_list", "step")
def mv_approx_delta_upper(ctx: Any, eps_list: Any, eps: Any, step: Any) -> Any:
    """MV-APPROX lattice upper bound (the catalogue's rounding-up analogue of [MV]'s algorithm,
    not [MV]'s algorithm): ``a_i = ceil(eps_i/step)`` in exact rational arithmetic, then the
    exact optimum of the enlarged class by the knapsack dynamic program over ``step Z``."""
    eps_list = _exact_list(eps_list, "eps_list")
    if not is_exact(step):
        raise Unsupported("step must be given exactly")
    step = Fraction(step)
    multiples = [math.ceil(e / step) for e in eps_list]
    return _lattice_delta(ctx, multiples, step, to_ctx(ctx, eps))


# ==========================================================================================
# Oracles: exact enumeration of finite compositions


def _kfold(ctx: Any, pairs: Sequence[tuple[Sequence[Any], Sequence[Any]]]) -> tuple[Any, Any]:
    big_p, big_q = pairs[0]
    for p, q in pairs[1:]:
        big_p, big_q = product(big_p, p), product(big_q, q)
    return big_p, big_q


def rr_kfold_delta_enum(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """Hockey-stick divergence of k-fold RR(eps0) by enumeration of its ``2^k`` outputs."""
    big_p, big_q = _kfold(ctx, [randomized_response(ctx, to_ctx(ctx, eps0))] * k)
    return hockey_stick(ctx, big_p, big_q, to_ctx(ctx, eps))


def worst_mechanism(ctx: Any, eps0: Any, delta0: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The (eps0, delta0) four-output mechanism of [KOV] v4, Thm 3.3 (supplement, Sec. 5.1):
    ``P = (delta0, (1-delta0) e^eps0/(1+e^eps0), (1-delta0)/(1+e^eps0), 0)`` and its mirror Q."""
    y = ctx.exp(eps0)
    d0 = delta0
    hi = (1 - d0) * y / (1 + y)
    lo = (1 - d0) / (1 + y)
    return (d0, hi, lo, ctx.zero), (ctx.zero, lo, hi, d0)


def worst_kfold_delta_enum(ctx: Any, eps0: Any, delta0: Any, k: int, eps: Any) -> Any:
    """Hockey-stick divergence of the k-fold worst (eps0, delta0) mechanism over ``4^k``
    outputs."""
    pair = worst_mechanism(ctx, to_ctx(ctx, eps0), to_ctx(ctx, delta0))
    big_p, big_q = _kfold(ctx, [pair] * k)
    return hockey_stick(ctx, big_p, big_q, to_ctx(ctx, eps))


def het_rr_delta_enum(ctx: Any, eps_list: Sequence[Any], eps: Any) -> Any:
    """Hockey-stick divergence of the product of RR(eps_i) over its ``2^k`` outputs."""
    pairs = [randomized_response(ctx, to_ctx(ctx, e)) for e in eps_list]
    big_p, big_q = _kfold(ctx, pairs)
    return hockey_stick(ctx, big_p, big_q, to_ctx(ctx, eps))


def het_worst_delta_enum(ctx: Any, eps_list: Sequence[Any], delta_list: Sequence[Any],
                         eps: Any) -> Any:
    """Hockey-stick divergence of the product of the worst (eps_i, delta_i) mechanisms over its
    ``4^k`` outputs."""
    pairs = [worst_mechanism(ctx, to_ctx(ctx, e), to_ctx(ctx, d))
             for e, d in zip(eps_list, delta_list, strict=True)]
    big_p, big_q = _kfold(ctx, pairs)
    return hockey_stick(ctx, big_p, big_q, to_ctx(ctx, eps))


def _rational_hockey(p: Sequence[Fraction], q: Sequence[Fraction], r: Fraction) -> Fraction:
    return sum((max(a - r * b, Fraction(0)) for a, b in zip(p, q, strict=True)), Fraction(0))


def _random_mechanism(rng: random.Random, r: Fraction, delta0: Fraction
                      ) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """A random (log r, delta0)-DP pair on at most 4 outputs, checked exactly.

    Either the worst mechanism mixed with a random distribution U (``(1-lam) W + lam U`` on both
    sides keeps (eps0, delta0)-DP) or a random pair whose ratios lie in ``[1/r, r]`` with a
    delta0-sized mass moved to private outputs; accepted only if both hockey-stick divergences
    at ``r`` are at most delta0 (exact rationals).
    """
    while True:
        n = rng.randint(2, 4)
        if rng.random() < 0.5:
            lam = Fraction(rng.randint(1, 50), 100)
            u = [Fraction(rng.randint(1, 20)) for _ in range(4)]
            u = [x / sum(u) for x in u]
            w_p = (delta0, (1 - delta0) * r / (1 + r), (1 - delta0) / (1 + r), Fraction(0))
            w_q = (Fraction(0), (1 - delta0) / (1 + r), (1 - delta0) * r / (1 + r), delta0)
            p = tuple((1 - lam) * a + lam * b for a, b in zip(w_p, u, strict=True))
            q = tuple((1 - lam) * a + lam * b for a, b in zip(w_q, u, strict=True))
        else:
            base_q = [Fraction(rng.randint(1, 50)) for _ in range(n)]
            base_q = [x / sum(base_q) for x in base_q]
            f = [Fraction(rng.randint(0, 1000), 1000) for _ in range(n)]
            raw = [qi * (1 / r + (r - 1 / r) * fi) for qi, fi in zip(base_q, f, strict=True)]
            base_p = [x / sum(raw) for x in raw]
            a = Fraction(rng.randint(0, 100), 100) * delta0
            p = tuple([(1 - a) * x for x in base_p] + [a, Fraction(0)])[:4]
            q = tuple([(1 - a) * x for x in base_q] + [Fraction(0), a])[:4]
            if len(p) < n + 2:
                continue
        if _rational_hockey(p, q, r) <= delta0 and _rational_hockey(q, p, r) <= delta0:
            return p, q


def adaptive_transcript(r: Fraction, delta0: Fraction, k: int, tree: int
                        ) -> tuple[list[Fraction], list[Fraction]]:
    """The laws of the transcript of k adaptively chosen (log r, delta0)-DP mechanisms: the
    mechanism at each step is drawn from a generator seeded by ``tree`` and the transcript
    prefix (a history-dependent choice). Exact rationals over at most ``4^k`` transcripts."""
    laws: list[tuple[tuple[int, ...], Fraction, Fraction]] = [((), Fraction(1), Fraction(1))]
    for _ in range(k):
        nxt = []
        for prefix, pp, qq in laws:
            rng = random.Random(f"{tree}/{prefix}")
            p, q = _random_mechanism(rng, r, delta0)
            for y, (a, b) in enumerate(zip(p, q, strict=True)):
                if a or b:
                    nxt.append(((*prefix, y), pp * a, qq * b))
        laws = nxt
    return [pp for _, pp, _ in laws], [qq for _, _, qq in laws]


@exact_params("r", "delta0")
def adaptive_delta(ctx: Any, r: Any, delta0: Any, k: int, eps: Any, tree: int, **_: Any) -> Any:
    """Exact hockey-stick divergence of a random adaptive composition (both orders)."""
    big_p, big_q = adaptive_transcript(Fraction(r), Fraction(delta0), k, tree)
    p = [ctx.num(x) for x in big_p]
    q = [ctx.num(x) for x in big_q]
    return ctx.max(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))


@exact_params("r", "delta0")
def adaptive_kov_bound(ctx: Any, r: Any, delta0: Any, k: int, eps: Any, **_: Any) -> Any:
    return kov_delta(ctx, ctx.log(ctx.num(r)), delta0, k, eps)


# ==========================================================================================
# STK-ASYMP-OPT


def _registry_formula(theorem_id: str, evaluator: str) -> Callable[..., Any]:
    """The formula of another catalogue entry, by its public name (looked up when used)."""
    from dpverify.theorems import get

    th = get(theorem_id)
    if not th.encoded:
        raise Unsupported(f"{theorem_id} is not encoded yet")
    return th.evaluator(evaluator).formula


def asymp_eps(ctx: Any, rho: Any, k: int, delta: Any) -> Any:
    """``KOV-EPS.eps(sqrt(2 rho/k), 0, k, delta)``: exact eps of k-fold RR with ``k eps0^2/2 =
    rho`` ([S22] arXiv 2210.00597v4, Sec. 5)."""
    return kov_eps(ctx, ctx.sqrt(2 * rho / k), 0, k, delta)


def asymp_eps_limit(ctx: Any, rho: Any, delta: Any) -> Any:
    """``DRS-GDP.eps(sqrt(2 rho), delta)``: the Gaussian limit of the PLD ``N(rho, 2 rho)``
    ([S22] v4, Sec. 5; [DRS] arXiv 1905.02383, Cor. 2.13)."""
    return _registry_formula("DRS-GDP", "eps")(ctx, mu=ctx.sqrt(2 * rho), delta=delta)


def rr_pld_mean(ctx: Any, eps0: Any) -> Any:
    """``eps0 tanh(eps0/2)``: the PLD mean of one RR(eps0) step ([S22] v4, Sec. 5)."""
    return eps0 * ctx.tanh(eps0 / 2)


def rr_pld_var(ctx: Any, eps0: Any) -> Any:
    """``eps0^2 (1 - tanh^2(eps0/2))``: the PLD variance of one RR(eps0) step."""
    return eps0**2 * (1 - ctx.tanh(eps0 / 2) ** 2)


# ==========================================================================================
# Claims: shared terms and regions


def _c(value: str) -> Callable[..., Any]:
    return lambda ctx, **_: ctx.num(value)


def _drv96() -> Points:
    return grid(eps0=["0.01", "0.1", "0.5", "1"], k=[1, 5, 20, 100],
                slack=["1e-3", "1e-6", "1e-9"], delta0=["0", "1e-8"])


@exact_params("slack", "delta0")
def _kov_eps_at_slack(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    return kov_eps(ctx, eps0, delta0, k, Fraction(slack) + k * Fraction(delta0))


@exact_params("slack", "delta0")
def _drv_at_slack(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    return drv_eps(ctx, eps0, k, Fraction(slack) + k * Fraction(delta0), delta0)


@exact_params("slack", "delta0")
def _drv_clipped_at_slack(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any,
                          **_: Any) -> Any:
    return drv_eps_clipped(ctx, eps0, k, Fraction(slack) + k * Fraction(delta0), delta0)


def _kov_total_delta(delta_tilde: Fraction, delta0: Fraction, k: int) -> Fraction:
    return 1 - (1 - delta0) ** k * (1 - delta_tilde)


@exact_params("slack", "delta0")
def _kov_eps_at_tilde(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    return kov_eps(ctx, eps0, delta0, k, _kov_total_delta(Fraction(slack), Fraction(delta0), k))


@exact_params("slack", "delta0")
def _kov34_at_tilde(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    return kov34_eps(ctx, eps0, delta0, k, _kov_total_delta(Fraction(slack), Fraction(delta0), k))


# The ordering boxes (interval route): KOV-EPS(delta) <= B is decided as the equivalent
# KOV-DELTA(B) <= delta (eps_opt is the least eps >= 0 with delta_opt(eps) <= delta and
# delta_opt is nonincreasing, so eps_opt <= B iff delta_opt(B) <= delta, for B >= 0). delta is
# parametrized by u = sqrt(2 ln(1/delta)), in which the bounds are affine: u in [2.1, 6.8] is
# delta in [9.1e-11, 0.111], a superset of [1e-10, 0.1].
ORDER_K_MAX = 40  # k = 1..100 takes 5e3-1.5e4 boxes (a thorough budget); 1..40 fits quick
ORDER_BOX_TEXT = ("eps0 in [0.01, 1] (log scale), delta in [1e-10, 0.1] (as u = sqrt(2 "
                  "ln(1/delta)) in [2.1, 6.8], i.e. delta in [9.1e-11, 0.111]), k in "
                  f"{{1..{ORDER_K_MAX}}} (each sub-box enclosed at its monotone corners, "
                  "KOV-DELTA claim 4)")


def _order_box(**extra: Any) -> Box:
    reals = {"eps0": ("0.01", "1"), "u": ("2.1", "6.8")}
    return Box(reals=reals, ints={"k": (1, ORDER_K_MAX)}, fixed=dict(extra),
               log_scale=frozenset({"eps0"}))


def _kov_delta_at(bound: Callable[..., Any], delta0: Fraction = Fraction(0)
                  ) -> Callable[..., Any]:
    """``KOV-DELTA.delta(eps0, delta0, k, B(eps0, k, delta))`` with ``delta = e^{-u^2/2}``
    (delta0 fixed).

    Over a box it returns the hull of two corner values of ``G(eps0, s) = delta_pure(eps0, k,
    eps0 s)`` at ``s = B/eps0``. ``G`` is nondecreasing in eps0 for fixed s (``G = E[h(i)]``
    over ``i ~ Bin(k, e^eps0/(1+e^eps0))`` with ``h(i) = (1 - e^{-eps0 (2i - k - s)})_+``
    nondecreasing in i and in eps0, and the binomial grows stochastically with eps0) and
    nonincreasing in s; every bound here has ``s = B/eps0`` nondecreasing in eps0 and in u.
    So ``G(eps0_hi, s(eps0_lo, u_lo))`` bounds the box from above (and ``1 - (1-delta0)^k (1 -
    G)`` is increasing in G).
    """

    def ratio(ctx: Any, eps0: Any, k: int, u: Any) -> Any:
        return bound(ctx, eps0, k, ctx.exp(-u**2 / 2)) / eps0

    def term(ctx: Any, eps0: Any, k: int, u: Any, **_: Any) -> Any:
        if ctx.name not in ("arb", "mp", "fp"):
            raise Unsupported("no symbolic form: the box enclosure uses monotone corners")
        if _wide(eps0) or _wide(u):
            e_lo, e_hi = _ends(eps0, floor=0)
            u_lo, u_hi = _ends(u, floor=0)
            if not e_lo > 0:
                raise PrecisionExhausted("the box reaches eps0 = 0")
            s_lo, s_hi = ratio(ctx, e_lo, k, u_lo), ratio(ctx, e_hi, k, u_hi)
            pure = ctx.hull(kov_delta_pure(ctx, e_lo, k, e_lo * s_hi),
                            kov_delta_pure(ctx, e_hi, k, e_hi * s_lo))
        else:
            pure = kov_delta_pure(ctx, eps0, k, bound(ctx, eps0, k, ctx.exp(-u**2 / 2)))
        return _with_delta0(ctx, delta0, k, pure)

    return term


def _delta_of_u(ctx: Any, u: Any, **_: Any) -> Any:
    return ctx.exp(-u**2 / 2)


def _delta_side(ctx: Any, delta: Any, **_: Any) -> Any:
    return delta


def _stk_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return stk_eps(ctx, eps0, k, delta)


def _drv_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return drv_eps_slack(ctx, eps0, k, delta)


def _kov34_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """``min(b1, b2)`` of [KOV] Thm 3.4 without the ``k eps0`` term: ``delta_pure(eps0, k, x) =
    0`` for every ``x >= k eps0``, so clipping does not change ``delta_pure`` at the bound."""
    return kov34_eps_tilde(ctx, eps0, k, delta, clip=False)


def _basic_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return k * eps0


def _order_check(bound: Callable[..., Any], name: str) -> Compare:
    return Compare(_kov_delta_at(bound), "le", _delta_of_u, _order_box(), "interval",
                   lhs_name=f"KOV-DELTA.delta_pure(eps0, k, {name})", rhs_name="delta")


# ==========================================================================================
# BASIC


def _draw_basic_zero(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 12)
    return {"eps_list": tuple(Fraction(rng.randint(1, 1500), 1000) for _ in range(k))}


@exact_params("eps_list")
def _mv_at_sum(ctx: Any, eps_list: Any, **_: Any) -> Any:
    return mv_delta_pure(ctx, eps_list, sum(eps_list, Fraction(0)))


def _draw_basic_homog(rng: random.Random) -> dict[str, Any]:
    return {"eps0": Fraction(rng.randint(1, 2000), 1000), "k": rng.randint(1, 60)}


def _draw_below_sum(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 8)
    eps_list = tuple(Fraction(rng.randint(1, 1500), 1000) for _ in range(k))
    gap = sum(eps_list, Fraction(0)) * Fraction(rng.randint(1, 1000), 1000)
    return {"eps_list": eps_list, "gap": gap}


def _rr_enum_below_sum(ctx: Any, eps_list: Any, gap: Any, **_: Any) -> Any:
    return het_rr_delta_enum(ctx, eps_list, ctx.fsum(eps_list) - gap)


def _clipped_checks() -> tuple[Predicate, ...]:
    """``bound <= k eps0``, certified up to a relative 1e-40: where the minimum picks ``k eps0``
    both sides are the same ball, and equality is not decidable with balls."""
    box = Box(reals={"eps0": ("0.001", "3"), "delta": ("1e-12", "0.5")}, ints={"k": (1, 500)},
              log_scale=frozenset({"eps0", "delta"}))

    def clipped(f: Callable[..., Any]) -> Callable[..., Any]:
        def test(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> bool | None:
            return ctx.le(f(ctx, eps0, k, delta), k * eps0 * (1 + ctx.num("1e-40")))

        return test

    def ext(theorem_id: str, evaluator: str) -> Callable[..., Any]:
        def f(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
            return _registry_formula(theorem_id, evaluator)(ctx, eps0=eps0, k=k, delta=delta)

        return f

    out = [
        Predicate(clipped(lambda ctx, eps0, k, delta: drv_eps_clipped(ctx, eps0, k, delta, 0)),
                  box, "property", "DRV-ADV.eps_clipped <= k eps0 (rel 1e-40)"),
        Predicate(clipped(lambda ctx, eps0, k, delta: kov34_eps(ctx, eps0, 0, k, delta)),
                  box, "property", "KOV-34.eps <= k eps0 (rel 1e-40)"),
    ]
    for tid, ev in (("DDR-C31", "eps"), ("DDR-T5", "eps"), ("DR19-BR", "eps"),
                    ("DR19-BR", "eps_kovkl")):
        out.append(Predicate(clipped(ext(tid, ev)), box, "property",
                             f"{tid}.{ev} <= k eps0 (rel 1e-40)"))
    return tuple(out)


def _basic_claims() -> tuple[Claim, ...]:
    return (
        Claim(1, "The optimum of KOV-DELTA (delta0 = 0) at eps = k eps0, and of MV-OPT at eps = "
              "sum eps_i, is 0 (certified to 1e-50 in arb; exact zero is not decidable with "
              "balls).",
              (Compare(lambda ctx, eps0, k, **_: kov_delta_pure(ctx, eps0, k, k * eps0), "eq",
                       _c("0"), Generated(_draw_basic_homog, 60, "random (eps0, k <= 60)"),
                       "oracle", Tol.abs("1e-50"), "KOV-DELTA.delta_pure(eps0, k, k eps0)", "0"),
               Compare(_mv_at_sum, "eq", _c("0"),
                       Generated(_draw_basic_zero, 60, "random eps_list, k <= 12"), "oracle",
                       Tol.abs("1e-50"), "MV-OPT.delta_pure(eps_list, sum eps_i)", "0"))),
        Claim(2, "For heterogeneous RR (k <= 8), the exact delta at every eps < sum eps_i, by "
              "enumeration of the 2^k outputs, is strictly positive: basic composition is "
              "optimal at delta = 0.",
              (Compare(_rr_enum_below_sum, "gt", _c("0"),
                       Generated(_draw_below_sum, 100, "random eps_list (k <= 8), eps < sum"),
                       "oracle", lhs_name="delta of RR(eps_1..eps_k) at sum - gap",
                       rhs_name="0"),)),
        Claim(3, "KOV-EPS.eps(eps0, 0, k, delta) <= k eps0 for every delta in (0, 1): searched "
              "on eps0 in [0.001, 3], k in {1..300}, delta in [1e-15, 0.99]; proved on "
              f"{ORDER_BOX_TEXT} as KOV-DELTA.delta_pure(eps0, k, k eps0) <= delta "
              "(equivalent: KOV-EPS is the least eps with KOV-DELTA <= delta).",
              (Compare(lambda ctx, eps0, k, delta, **_: kov_eps(ctx, eps0, 0, k, delta), "le",
                       lambda ctx, eps0, k, **_: k * eps0,
                       Box(reals={"eps0": ("0.001", "3"), "delta": ("1e-15", "0.99")},
                           ints={"k": (1, 300)}, log_scale=frozenset({"eps0", "delta"})),
                       "property", lhs_name="KOV-EPS.eps", rhs_name="k eps0"),
               _order_check(_basic_bound, "k eps0"))),
        Claim(4, "Every clipped eps-valued bound is at most k eps0: DRV-ADV.eps_clipped and "
              "KOV-34 here; DDR-C31, DDR-T5 and DR19-BR (eps, eps_kovkl) are looked up in the "
              "registry (not applicable while their family is not encoded).",
              _clipped_checks()),
        Claim(5, "Pure RR, k = 10, eps0 = 1: the exact eps at delta = 1e-3 is 9.9768 (KOV-EPS), "
              "just under basic = 10.",
              (Compare(lambda ctx, **_: kov_eps(ctx, ctx.one, 0, 10, Fraction(1, 1000)), "eq",
                       _c("9.9768"), points({}), "numeric", Tol.abs("5e-5"),
                       "KOV-EPS.eps(1, 0, 10, 1e-3)", "9.9768"),
               Compare(lambda ctx, **_: kov_eps(ctx, ctx.one, 0, 10, Fraction(1, 1000)), "lt",
                       _c("10"), points({}), "numeric", lhs_name="KOV-EPS.eps(1, 0, 10, 1e-3)",
                       rhs_name="basic = 10"))),
    )


BASIC = Theorem(
    id="BASIC",
    title="Basic (simple) composition",
    family=FAMILY,
    source=Source(S22[0], "Thm 1, Sec. 2 (DKMMN06; [DRV]; [GCE] Sec. II-A)", arxiv=S22[1],
                  version=S22[2]),
    types=("TIGHT",),
    confidence=("CONFIRMED",),
    statement=(
        "If M_j is eps_j-DP (j = 1..k), run independently or adaptively, the composition is "
        "(sum_j eps_j)-DP; for (eps_i, delta_i)-DP mechanisms it is (sum eps_i, sum delta_i)-DP. "
        "Optimal for pure DP at delta = 0: delta_opt(eps) > 0 for every eps < sum eps_i."),
    domain="eps_i >= 0, delta_i in [0, 1]; the same neighbouring relation for all mechanisms",
    evaluators=(
        Evaluator("eps", (EPS_LIST,), basic_eps, "sum_i eps_i"),
        Evaluator("delta", (replace(DELTA_LIST, element=replace(DELTA_LIST.element,
                                                                 hi_open=False)),),
                  basic_delta, "sum_i delta_i"),
    ),
    claims=_basic_claims(),
    aliases=("STK-BASIC",),
)


# ==========================================================================================
# STK-BASIC-OPT


def _lap_density(ctx: Any, t: Any, mu: Any, b: Any) -> Any:
    return ctx.exp(-ctx.abs(t - mu) / b) / (2 * b)


def _witness_ratio(ctx: Any, eps: Any, k: int, a: Any) -> Any:
    """Likelihood ratio of ``(f_j(x) + Lap(k/eps))_j`` vs ``(f_j(x') + Lap(k/eps))_j`` at
    ``(a, ..., a)`` with ``f_j(x) = j``, ``f_j(x') = j - 1``."""
    b = lap_scale(ctx, eps, k)
    ratio = ctx.one
    for j in range(1, k + 1):
        ratio = ratio * (_lap_density(ctx, a, ctx.num(j), b)
                         / _lap_density(ctx, a, ctx.num(j - 1), b))
    return ratio


def _witness_mass_quad(ctx: Any, eps: Any, k: int, **_: Any) -> Any:
    """``prod_j P[N_j >= 0]``, each by quadrature of the Laplace(k/eps) density on [0, inf)."""
    b = lap_scale(ctx, eps, k)
    one = ctx.quad(lambda t: _lap_density(ctx, t, ctx.zero, b), [ctx.zero, b, ctx.inf])
    return ctx.pow(one, k)


STK_BASIC_OPT = Theorem(
    id="STK-BASIC-OPT",
    title="Optimality of basic composition: Laplace witness",
    family=FAMILY,
    source=Source(S22[0], "Sec. 2.1", arxiv=S22[1], version=S22[2]),
    types=("EXACT",),
    confidence=("CONFIRMED",),
    statement=(
        "Release f_j(x) + Laplace(k/eps), j = 1..k, with sensitivity-1 f_j and f_j(x) = "
        "f_j(x') + 1. At outputs (a, ..., a) with a >= max_j f_j(x) the likelihood ratio is "
        "exactly e^eps, so the composition is not eps*-DP for eps* < eps; such outputs have "
        "probability 2^-k under M(x)."),
    domain="k >= 1 integer, eps > 0",
    evaluators=(
        Evaluator("b", (replace(EPS, lo_open=True), K), lap_scale, "k/eps"),
        Evaluator("mass", (K,), lap_mass, "2^-k"),
    ),
    claims=(
        Claim(1, "k = 5, eps = 1, f_j(x) = j, f_j(x') = j - 1, y = (10, ..., 10): the likelihood "
              "ratio equals e^eps to 1e-45.",
              (Compare(lambda ctx, eps, k, a, **_: _witness_ratio(ctx, eps, k, a), "eq",
                       lambda ctx, eps, **_: ctx.exp(eps),
                       points({"eps": "1", "k": 5, "a": "10"}), "numeric", Tol.abs("1e-45"),
                       "likelihood ratio at (10,...,10)", "e^eps"),)),
        Claim(2, "P[privacy loss = eps] = 2^-k (k = 5), as the product of the per-coordinate "
              "probabilities that the noise is >= 0 (each by quadrature).",
              (Compare(_witness_mass_quad, "eq", lambda ctx, k, **_: lap_mass(ctx, k),
                       points({"eps": "1", "k": 5}), "numeric", Tol.abs("1e-40"),
                       "prod_j P[N_j >= 0] (quadrature)", "STK-BASIC-OPT.mass(5)", ctx="mp"),)),
        Claim(3, "For random k, eps and any a >= max_j f_j(x) (= k), the likelihood ratio at "
              "(a, ..., a) is exactly e^eps (to rel 1e-40).",
              (Compare(lambda ctx, eps, k, off, **_: _witness_ratio(ctx, eps, k, k + off), "eq",
                       lambda ctx, eps, **_: ctx.exp(eps),
                       Box(reals={"eps": ("0.01", "10"), "off": ("0", "50")},
                           ints={"k": (1, 20)}), "property", Tol.rel("1e-40"),
                       "likelihood ratio at (k + off, ...)", "e^eps"),)),
    ),
    notes="The same witness shows SMITH-ADAPT-COMP is tight.",
)


# ==========================================================================================
# DRV-ADV


def _stk_le_drv_problem() -> SmtProblem:
    """``DRV-ADV.eps - STK-ADV-PURE.eps = k eps0 (x - 1 - eps0/2)`` with ``x = e^eps0`` — from
    the two formulas evaluated symbolically."""
    import sympy as sp

    from dpverify.theorems.ctx import SymCtx

    ctx = SymCtx()
    eps0, x, lg, k = sp.symbols("eps0 x L k", positive=True)
    delta = sp.exp(-lg)
    drv = drv_eps_slack(ctx, eps0, k, delta)
    stk = stk_eps(ctx, eps0, k, delta)
    diff = sp.expand((drv - stk).subs(sp.exp(eps0), x))
    hyps, goal_lhs = _polynomialize(diff)
    return SmtProblem({"eps0": "real", "x": "real", "L": "real", "k": "real",
                       **{str(s): "real" for s in _aux_symbols(hyps)}},
                      (sp.Ge(eps0, 0), sp.Gt(lg, 0), sp.Ge(k, 1), *hyps),
                      sp.Eq(goal_lhs, sp.expand(k * eps0 * (x - 1 - eps0 / 2))),
                      ("x = e^eps0", "L = log(1/delta') > 0", "r = sqrt(2 k L) >= 0"))


def _polynomialize(expr: Any) -> tuple[tuple[Any, ...], Any]:
    """Replace each square root in ``expr`` by a fresh variable ``r_i >= 0`` with ``r_i^2`` equal
    to its radicand; returns the hypotheses and the polynomial expression."""
    import sympy as sp

    hyps: list[Any] = []
    roots = sorted({a for a in sp.preorder_traversal(expr)
                    if isinstance(a, sp.Pow) and a.exp == sp.Rational(1, 2)}, key=str)
    for n, root in enumerate(roots):
        r = sp.Symbol(f"r{n}", real=True)
        expr = expr.subs(root, r)
        hyps += [sp.Ge(r, 0), sp.Eq(r**2, root.base)]
    return tuple(hyps), sp.expand(expr)


def _aux_symbols(hyps: Sequence[Any]) -> list[Any]:
    """The auxiliary square-root variables ``r0, r1, ...`` introduced by :func:`_polynomialize`."""
    out: set[Any] = set()
    for h in hyps:
        out |= {s for s in h.free_symbols if s.name.startswith("r")}
    return sorted(out, key=lambda s: s.name)


DRV_ADV = Theorem(
    id="DRV-ADV",
    title="Advanced composition (Dwork–Rothblum–Vadhan form)",
    family=FAMILY,
    source=Source("Dwork, Rothblum & Vadhan, Boosting and Differential Privacy (FOCS 2010)",
                  "Thm III.3 (= Dwork & Roth 2014, Thm 3.20; [GCE] Sec. II-A)"),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement=(
        "For all eps0 > 0, delta0 >= 0, delta' > 0, k-fold adaptive composition of "
        "(eps0, delta0)-DP mechanisms is (eps', k delta0 + delta')-DP with eps' = "
        "sqrt(2 k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1). Not optimal; may exceed k eps0."),
    domain="eps0 > 0, delta0 >= 0, delta' = delta - k delta0 > 0, k >= 1 integer",
    evaluators=(
        Evaluator("eps", (EPS0_POS, K, DELTA, replace(DELTA0, default="0")), drv_eps,
                  "sqrt(2k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1), delta' = delta - k delta0"),
        Evaluator("eps_clipped", (EPS0_POS, K, DELTA, replace(DELTA0, default="0")),
                  drv_eps_clipped, "min(k eps0, eps')"),
    ),
    claims=(
        Claim(1, "eps' >= KOV-EPS.eps(eps0, delta0, k, k delta0 + delta') on the 96 "
              "configurations eps0 in {0.01, 0.1, 0.5, 1}, k in {1, 5, 20, 100}, delta' in "
              "{1e-3, 1e-6, 1e-9}, delta0 in {0, 1e-8}, for the unclipped and the clipped form "
              "(the catalogue's largest KOV - DRV = -1.4e-9 is that of the clipped form, at "
              "eps0 = 1, k = 1, delta' = 1e-9; unclipped it is -0.029); proved with delta0 = 0 "
              f"on {ORDER_BOX_TEXT} as KOV-DELTA.delta_pure(eps0, k, eps') <= delta'.",
              (Compare(_drv_at_slack, "ge", _kov_eps_at_slack, _drv96(), "property",
                       lhs_name="DRV-ADV.eps", rhs_name="KOV-EPS.eps"),
               Compare(_drv_clipped_at_slack, "ge", _kov_eps_at_slack, _drv96(), "property",
                       lhs_name="DRV-ADV.eps_clipped", rhs_name="KOV-EPS.eps"),
               _order_check(_drv_bound, "DRV eps'"))),
        Claim(2, "The unclipped value can exceed k eps0: k = 2, eps0 = 0.5, delta' = 0.1 gives "
              "2.166 > 1.",
              (Compare(lambda ctx, **_: drv_eps(ctx, ctx.num("0.5"), 2, Fraction(1, 10), 0),
                       "eq", _c("2.166"), points({}), "numeric", Tol.abs("5e-4"),
                       "DRV-ADV.eps(0.5, 2, 0.1)", "2.166"),
               Compare(lambda ctx, **_: drv_eps(ctx, ctx.num("0.5"), 2, Fraction(1, 10), 0),
                       "gt", _c("1"), points({}), "numeric", lhs_name="DRV-ADV.eps(0.5, 2, 0.1)",
                       rhs_name="k eps0 = 1"))),
        Claim(3, "STK-ADV-PURE.eps(eps0, k, delta') <= eps' for all eps0 >= 0 (same square-root "
              "term; eps0/2 <= e^eps0 - 1): searched on eps0 in [0, 20]; proved as the "
              "identity eps' - STK = k eps0 (e^eps0 - 1 - eps0/2) [smt, from both formulas] "
              "and e^eps0 - 1 - eps0/2 >= 0 on eps0 in [0, 50] [interval].",
              (Compare(lambda ctx, eps0, k, delta, **_: stk_eps(ctx, eps0, k, delta), "le",
                       lambda ctx, eps0, k, delta, **_: drv_eps_slack(ctx, eps0, k, delta),
                       Box(reals={"eps0": ("0", "20"), "delta": ("1e-15", "0.99")},
                           ints={"k": (1, 1000)}, log_scale=frozenset({"delta"})), "property",
                       lhs_name="STK-ADV-PURE.eps", rhs_name="DRV-ADV.eps"),
               Smt(_stk_le_drv_problem, "eps' - STK-ADV-PURE.eps = k eps0 (e^eps0 - 1 - "
                   "eps0/2), x = e^eps0 (both formulas evaluated symbolically)"),
               Compare(lambda ctx, eps0, **_: eps0 / 2, "le",
                       lambda ctx, eps0, **_: ctx.expm1(eps0),
                       Box(reals={"eps0": ("0", "50")}), "interval", lhs_name="eps0/2",
                       rhs_name="e^eps0 - 1"))),
    ),
    notes="The [S22] form STK-ADV-PURE is always at least as tight.",
)


# ==========================================================================================
# STK-ADV-PURE


def _zcdp_conv_problem() -> SmtProblem:
    """``eps_het(eps_list, delta) = STK-ZCDP-CONV.eps(sum eps_j^2/2, delta)`` for three
    mechanisms, both sides from the formulas evaluated symbolically."""
    import sympy as sp

    from dpverify.theorems.ctx import SymCtx

    ctx = SymCtx()
    e1, e2, e3, lg = sp.symbols("e1 e2 e3 L", positive=True)
    delta = sp.exp(-lg)
    lhs = stk_eps_het(ctx, (e1, e2, e3), delta)
    rho = (e1**2 + e2**2 + e3**2) / 2
    rhs = _registry_formula("STK-ZCDP-CONV", "eps")(ctx, rho=rho, delta=delta)
    hyps, poly = _polynomialize(sp.expand(lhs - rhs))
    names = {str(s): "real" for s in (e1, e2, e3, lg)}
    names.update({str(s): "real" for s in _aux_symbols(hyps)})
    return SmtProblem(names, (sp.Ge(e1, 0), sp.Ge(e2, 0), sp.Ge(e3, 0), sp.Gt(lg, 0), *hyps),
                      sp.Eq(poly, 0),
                      ("L = log(1/delta) > 0", "each square root r_i >= 0 with r_i^2 = radicand"))


@exact_params("eps0")
def _stk_het_equal(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    return stk_eps_het(ctx, (ctx.num(eps0),) * k, delta)


def _kov_pure_at_stk(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    return kov_delta_pure(ctx, eps0, k, stk_eps(ctx, eps0, k, delta))


def _rr_classes_delta(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """k-fold RR by exact enumeration of its outputs grouped by Hamming weight (C(k, i) outputs
    with i likely answers have the same probabilities under P and Q): exact big-integer
    binomials, no truncation."""
    y = ctx.exp(eps0)
    norm = ctx.pow(1 + y, k)
    z = ctx.exp(eps)
    return ctx.fsum(ctx.binomial(k, i) * ctx.pos(ctx.pow(y, i) - z * ctx.pow(y, k - i))
                    for i in range(k + 1)) / norm


def _stk_oracle(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    return _rr_classes_delta(ctx, eps0, k, stk_eps(ctx, eps0, k, delta))


STK_ADV_PURE = Theorem(
    id="STK-ADV-PURE",
    title="Advanced composition from pure DP (zCDP route)",
    family=FAMILY,
    source=Source(S22[0], "Sec. 4; [SteinkeBlog22] 'Composition Basics'", arxiv=S22[1],
                  version=S22[2]),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement=(
        "If M_j is eps_j-DP (j = 1..k), the (adaptive) composition is (eps, delta)-DP for every "
        "delta > 0 with eps = (1/2) sum eps_j^2 + sqrt(2 log(1/delta) sum eps_j^2); for equal "
        "eps_j = eps0: eps = k eps0^2/2 + eps0 sqrt(2k log(1/delta))."),
    domain="eps_j >= 0, delta in (0, 1), k >= 1; adaptive composition allowed",
    evaluators=(
        Evaluator("eps", (EPS0, K, DELTA), stk_eps, "k eps0^2/2 + eps0 sqrt(2k log(1/delta))"),
        Evaluator("eps_het", (EPS_LIST, DELTA), stk_eps_het,
                  "(1/2) sum eps_j^2 + sqrt(2 log(1/delta) sum eps_j^2)"),
    ),
    claims=(
        Claim(1, "The exact delta of k-fold eps0-RR at eps = STK-ADV-PURE.eps(eps0, k, delta), "
              "by enumeration of the outputs grouped by Hamming weight, is <= delta for (k, "
              "eps0, delta) = (100, 0.1, 1e-5), (1000, 0.02, 1e-6), (10, 1, 1e-3); and equals "
              "KOV-DELTA there (to rel 1e-40).",
              (Compare(_stk_oracle, "le", _delta_side,
                       Points(({"k": 100, "eps0": "0.1", "delta": "1e-5"},
                               {"k": 1000, "eps0": "0.02", "delta": "1e-6"},
                               {"k": 10, "eps0": "1", "delta": "1e-3"})), "oracle",
                       lhs_name="delta of k-fold RR at STK eps", rhs_name="delta"),
               Compare(_stk_oracle, "eq", _kov_pure_at_stk,
                       Points(({"k": 100, "eps0": "0.1", "delta": "1e-5"},
                               {"k": 1000, "eps0": "0.02", "delta": "1e-6"})), "oracle",
                       Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "enumeration", "KOV-DELTA.delta_pure"))),
        Claim(2, "k = 100, eps0 = 0.1, delta = 1e-5: eps = 5.2985, the optimum (KOV-EPS) is "
              "4.3068 and basic composition gives 10.",
              (Compare(lambda ctx, **_: stk_eps(ctx, ctx.num("0.1"), 100, ctx.num("1e-5")), "eq",
                       _c("5.2985"), points({}), "numeric", Tol.abs("5e-5"),
                       "STK-ADV-PURE.eps(0.1, 100, 1e-5)", "5.2985"),
               Compare(lambda ctx, **_: kov_eps(ctx, ctx.num("0.1"), 0, 100, Fraction(1, 10**5)),
                       "eq", _c("4.3068"), points({}), "numeric", Tol.abs("5e-5"),
                       "KOV-EPS.eps(0.1, 0, 100, 1e-5)", "4.3068"),
               Compare(lambda ctx, **_: stk_eps(ctx, ctx.num("0.1"), 100, ctx.num("1e-5")), "lt",
                       _c("10"), points({}), "numeric", lhs_name="STK-ADV-PURE.eps",
                       rhs_name="basic = 10"))),
        Claim(3, "eps_het with all entries equal to eps0 equals eps(eps0, k, delta) (rel 1e-40).",
              (Compare(_stk_het_equal, "eq",
                       lambda ctx, eps0, k, delta, **_: stk_eps(ctx, eps0, k, delta),
                       Box(reals={"eps0": ("0", "5"), "delta": ("1e-15", "0.99")},
                           ints={"k": (1, 60)}, log_scale=frozenset({"delta"})), "property",
                       Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "eps_het((eps0,)*k, delta)", "eps(eps0, k, delta)"),)),
        Claim(4, "eps_het(eps_list, delta) = STK-ZCDP-CONV.eps(rho, delta) with rho = sum_j "
              "eps_j^2/2 (three mechanisms, symbolically, square roots as constrained "
              "variables).",
              (Smt(_zcdp_conv_problem, "eps_het(e1, e2, e3; delta) = STK-ZCDP-CONV.eps((e1^2 + "
                   "e2^2 + e3^2)/2, delta)"),)),
        Claim(5, "eps0^2/2 <= eps0 (e^eps0 - 1) for eps0 >= 0, hence STK-ADV-PURE <= DRV-ADV; "
              "box eps0 in [0, 50].",
              (Compare(lambda ctx, eps0, **_: eps0**2 / 2, "le",
                       lambda ctx, eps0, **_: eps0 * ctx.expm1(eps0),
                       Box(reals={"eps0": ("0", "50")}), "interval", lhs_name="eps0^2/2",
                       rhs_name="eps0 (e^eps0 - 1)"),)),
    ),
    notes="Because it comes from a zCDP guarantee, the bound holds simultaneously for every "
          "delta > 0.",
)


# ==========================================================================================
# STK-ADV-APPROX


@exact_params("slack", "delta0")
def _kov_at_approx(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    total = Fraction(slack) + k * Fraction(delta0)
    return kov_delta(ctx, eps0, delta0, k, stk_approx_eps(ctx, eps0, k, total, delta0))


@exact_params("slack", "delta0")
def _total_delta(ctx: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    return ctx.num(Fraction(slack) + k * Fraction(delta0))


def _total_of_u(delta0: Fraction) -> Callable[..., Any]:
    def term(ctx: Any, k: int, u: Any, **_: Any) -> Any:
        return ctx.exp(-u**2 / 2) + k * ctx.num(delta0)

    return term


STK_ADV_APPROX = Theorem(
    id="STK-ADV-APPROX",
    title="Advanced composition for approximate DP",
    family=FAMILY,
    source=Source(S22[0], "Sec. 4.3; [SteinkeBlog22] footnote 1", arxiv=S22[1],
                  version=S22[2]),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement=(
        "If M_j is (eps_j, delta_j)-DP (adaptively), the composition is (eps, delta + sum_j "
        "delta_j)-DP with eps = (1/2) sum eps_j^2 + sqrt(2 log(1/delta) sum eps_j^2), for any "
        "delta > 0."),
    domain="eps_j >= 0, delta_j in [0, 1), slack delta' = delta - k delta0 > 0",
    evaluators=(
        Evaluator("eps", (EPS0, K, DELTA, replace(DELTA0, default="0")), stk_approx_eps,
                  "k eps0^2/2 + eps0 sqrt(2k log(1/delta')), delta' = delta - k delta0"),
    ),
    claims=(
        Claim(1, "k = 20, eps0 = 0.3, delta0 = 1e-7, slack 1e-5 (total 1.2e-5): the exact KOV "
              "total delta (KOV-DELTA) at the resulting eps is 2.0e-6 <= 1e-5 + k delta0.",
              (Compare(_kov_at_approx, "eq", _c("2.0e-6"),
                       points({"eps0": "0.3", "k": 20, "slack": "1e-5", "delta0": "1e-7"}),
                       "numeric", Tol.abs("5e-8"), "KOV-DELTA at STK-ADV-APPROX.eps", "2.0e-6"),
               Compare(_kov_at_approx, "le", _total_delta,
                       points({"eps0": "0.3", "k": 20, "slack": "1e-5", "delta0": "1e-7"}),
                       "numeric", lhs_name="KOV-DELTA at STK-ADV-APPROX.eps",
                       rhs_name="slack + k delta0"))),
        Claim(2, "With delta0 = 0 the evaluator equals STK-ADV-PURE.eps (rel 1e-40).",
              (Compare(lambda ctx, eps0, k, delta, **_: stk_approx_eps(ctx, eps0, k, delta, 0),
                       "eq", lambda ctx, eps0, k, delta, **_: stk_eps(ctx, eps0, k, delta),
                       Box(reals={"eps0": ("0", "5"), "delta": ("1e-15", "0.99")},
                           ints={"k": (1, 500)}, log_scale=frozenset({"delta"})), "property",
                       Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "STK-ADV-APPROX.eps(eps0, k, delta, 0)", "STK-ADV-PURE.eps"),)),
        Claim(3, "KOV-DELTA.delta(eps0, delta0, k, eps(eps0, k, delta, delta0)) <= delta on the "
              "grid eps0 in {0.01, 0.1, 0.5, 1, 2}, delta0 in {0, 1e-8, 1e-4}, k in {1, 5, 20, "
              "100, 400}, slack in {1e-3, 1e-6, 1e-9}; proved with delta0 = 1e-8 on "
              f"{ORDER_BOX_TEXT.replace('delta in', 'slack in')} [interval] (delta0 = 0 is "
              "KOV-OPT claim 4).",
              (Compare(_kov_at_approx, "le", _total_delta,
                       grid(eps0=["0.01", "0.1", "0.5", "1", "2"], delta0=["0", "1e-8", "1e-4"],
                            k=[1, 5, 20, 100, 400], slack=["1e-3", "1e-6", "1e-9"]),
                       "property", lhs_name="KOV-DELTA at STK-ADV-APPROX.eps",
                       rhs_name="slack + k delta0"),
               Compare(_kov_delta_at(_stk_bound, Fraction(1, 10**8)), "le",
                       _total_of_u(Fraction(1, 10**8)), _order_box(), "interval",
                       lhs_name="KOV-DELTA(eps0, 1e-8, k, STK-ADV-APPROX.eps)",
                       rhs_name="slack + k delta0"))),
    ),
    notes="With delta0 > 0 the tight answer is KOV-EPS (homogeneous) or MV-OPT (heterogeneous).",
)


# ==========================================================================================
# KOV-OPT


def _thm33_points(cases: Sequence[tuple[str, str, int]], idx: Sequence[int] | None) -> Points:
    pts = []
    for eps0, delta0, k in cases:
        for i in (idx if idx is not None else range(k // 2 + 1)):
            pts.append({"eps0": eps0, "delta0": delta0, "k": k, "i": i})
    return Points(tuple(pts))


def _kov_at_grid(ctx: Any, eps0: Any, delta0: Any, k: int, i: int, **_: Any) -> Any:
    return kov_delta(ctx, eps0, delta0, k, (k - 2 * i) * eps0)


def _draw_kov_opt(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 50)
    eps0 = Fraction(rng.randint(1, 2000), 1000)
    return {"eps0": eps0, "delta0": rng.choice([Fraction(0), Fraction(rng.randint(1, 999), 10**5)]),
            "k": k, "eps": Fraction(rng.randint(-1000, 1000), 1000) * k * eps0}


def _draw_adaptive(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 4)
    r = 1 + Fraction(rng.randint(1, 30), 20)
    return {"r": r, "delta0": rng.choice([Fraction(0), Fraction(rng.randint(1, 50), 1000)]),
            "k": k, "eps": Fraction(rng.randint(0, 100 * k), 100), "tree": rng.randint(0, 10**9)}


KOV_OPT = Theorem(
    id="KOV-OPT",
    title="Optimal homogeneous composition (Kairouz–Oh–Viswanath), grid and PLD forms",
    family=FAMILY,
    source=Source(KOV[0], "Thm 3.3; [MV] Thm 1.4; [S22] Secs. 4.3, 7", arxiv=KOV[1],
                  version=KOV[2]),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "k-fold adaptive composition of (eps0, delta0)-DP mechanisms is ((k-2i) eps0, 1 - "
        "(1-delta0)^k (1 - delta_i))-DP for i = 0..floor(k/2), delta_i = sum_{l<i} C(k,l) "
        "(e^{(k-l) eps0} - e^{(k-2i+l) eps0})/(1+e^eps0)^k; this is the exact privacy region, "
        "attained by the four-output mechanism (RR when delta0 = 0). PLD form: delta_RR(eps) = "
        "E[max(0, 1 - e^{eps - Z})], Z = eps0 (k - 2L), L ~ Bin(k, 1/(1+e^eps0))."),
    domain="eps0 >= 0, delta0 in [0, 1), k >= 1 integer; eps real for the PLD form",
    evaluators=(
        Evaluator("delta", (EPS0, DELTA0, K, EPS_REAL), kov_opt_delta,
                  "1 - (1 - delta0)^k (1 - delta_RR(eps)), PLD/binomial route"),
    ),
    claims=(
        Claim(1, "The Thm 3.3 point equals KOV-DELTA.delta at eps = (k-2i) eps0 to 1e-50 for "
              "(eps0, delta0, k) = (0.1, 0, 20) and (0.7, 1e-5, 9), i = 0..floor(k/2).",
              (Compare(lambda ctx, eps0, delta0, k, i, **_: kov33_point(ctx, eps0, delta0, k, i),
                       "eq", _kov_at_grid,
                       _thm33_points([("0.1", "0", 20), ("0.7", "1e-5", 9)], None), "numeric",
                       Tol.abs("1e-50"), "Thm 3.3 point", "KOV-DELTA.delta((k-2i) eps0)"),)),
        Claim(2, "The closed form delta_i equals the PLD/binomial value (KOV-OPT.delta, delta0 "
              "= 0) at eps = (k-2i) eps0 to 1e-40 for (k, eps0) in {(10, 0.1), (30, 0.5), (7, "
              "1)}, i in {1, 2, 3}.",
              (Compare(lambda ctx, eps0, k, i, **_: kov33_delta_i(ctx, eps0, k, i), "eq",
                       lambda ctx, eps0, k, i, **_: kov_opt_delta(ctx, eps0, 0, k,
                                                                  (k - 2 * i) * eps0),
                       _thm33_points([("0.1", "0", 10), ("0.5", "0", 30), ("1", "0", 7)],
                                     [1, 2, 3]), "numeric", Tol.abs("1e-40"), "delta_i",
                       "KOV-OPT.delta (PLD)"),)),
        Claim(3, "KOV-OPT.delta (a plain walk over the binomial PLD) = KOV-DELTA.delta (the "
              "truncated sum from the mode) on random (eps0, delta0, k <= 50, eps), rel 1e-40.",
              (Compare(lambda ctx, eps0, delta0, k, eps, **_: kov_opt_delta(ctx, eps0, delta0,
                                                                            k, eps),
                       "eq", lambda ctx, eps0, delta0, k, eps, **_: kov_delta(ctx, eps0, delta0,
                                                                              k, eps),
                       Generated(_draw_kov_opt, 100, "random (eps0, delta0, k <= 50, eps)"),
                       "property", Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "KOV-OPT.delta", "KOV-DELTA.delta"),)),
        Claim(4, "KOV-EPS.eps <= min(STK-ADV-PURE.eps, k eps0) for (k, eps0, delta) = (100, "
              "0.1, 1e-5), (1000, 0.02, 1e-6), (10, 1, 1e-3); KOV-EPS <= STK-ADV-PURE proved on "
              f"{ORDER_BOX_TEXT} as KOV-DELTA.delta_pure(eps0, k, STK eps) <= delta.",
              (Compare(lambda ctx, eps0, k, delta, **_: kov_eps(ctx, eps0, 0, k, delta), "le",
                       lambda ctx, eps0, k, delta, **_: ctx.min(
                           stk_eps(ctx, eps0, k, to_ctx(ctx, delta)), k * eps0),
                       Points(({"k": 100, "eps0": "0.1", "delta": "1e-5"},
                               {"k": 1000, "eps0": "0.02", "delta": "1e-6"},
                               {"k": 10, "eps0": "1", "delta": "1e-3"})), "numeric",
                       lhs_name="KOV-EPS.eps", rhs_name="min(STK-ADV-PURE.eps, k eps0)"),
               _order_check(_stk_bound, "STK-ADV-PURE eps"))),
        Claim(5, "Adaptivity does not help: for k <= 4 and random history-dependent choices of "
              "(eps0, delta0)-DP mechanisms with at most 4 outputs (exact rationals, e^eps0 "
              "rational), the exact hockey-stick value of the transcript (both orders) never "
              "exceeds KOV-DELTA.delta.",
              (Compare(adaptive_delta, "le", adaptive_kov_bound,
                       Generated(_draw_adaptive, 200, "random adaptive compositions, k <= 4"),
                       "property", lhs_name="transcript hockey-stick",
                       rhs_name="KOV-DELTA.delta"),)),
    ),
    notes="Computing the exact value for heterogeneous eps_j is #P-hard (MV-HARD).",
)


# ==========================================================================================
# KOV-DELTA


def _affine_problem(k: int, j: int) -> SmtProblem:
    """On ``z in [y^{2j-k}, y^{2j+2-k}]`` (``y = e^eps0 > 1``, ``z = e^eps``) every term ``y^i -
    z y^{k-i}`` has a fixed sign: negative or zero for ``i <= j``, positive or zero for ``i >
    j``. So ``delta_pure = (1+y)^-k sum_{i>j} C(k,i)(y^i - z y^{k-i})``, affine in z."""
    import sympy as sp

    y, z = sp.symbols("y z", real=True)

    def ge_power(lhs_z: Any, exp: int) -> Any:  # z >= y^exp, polynomially
        return sp.Ge(lhs_z * y ** (-exp), 1) if exp < 0 else sp.Ge(lhs_z, y**exp)

    def le_power(lhs_z: Any, exp: int) -> Any:
        return sp.Le(lhs_z * y ** (-exp), 1) if exp < 0 else sp.Le(lhs_z, y**exp)

    hyps = (sp.Gt(y, 1), ge_power(z, 2 * j - k), le_power(z, 2 * j + 2 - k))
    goal = sp.And(*[sp.Le(y**i - z * y ** (k - i), 0) if i <= j else
                    sp.Ge(y**i - z * y ** (k - i), 0) for i in range(k + 1)])
    return SmtProblem({"y": "real", "z": "real"}, hyps, goal,
                      ("y = e^eps0", "z = e^eps", f"k = {k}, piece j = {j}"))


def _rr_degradation_problem() -> SmtProblem:
    """RR(eps0') is RR(eps0) followed by a binary symmetric channel with flip probability ``a =
    (x - x')/((1 + x')(x - 1))``, ``a in [0, 1/2]``, for ``1 <= x' <= x`` (x = e^eps0, x' =
    e^eps0'): the output laws from :func:`theorems.finite.randomized_response` pushed through
    :func:`theorems.finite.push_forward`, denominators cleared."""
    import sympy as sp

    from dpverify.theorems.ctx import SymCtx
    from dpverify.theorems.numerics.finite import push_forward

    ctx = SymCtx()
    e, ep = sp.symbols("eps0 eps0p", positive=True)
    x, xp, a = sp.symbols("x xp a", real=True)
    kernel = ((1 - a, a), (a, 1 - a))
    p, q = randomized_response(ctx, e)
    pp, qp = randomized_response(ctx, ep)
    goals = [sp.Ge(a, 0), sp.Le(a, sp.Rational(1, 2))]
    for out, want in ((push_forward(p, kernel), pp), (push_forward(q, kernel), qp)):
        for o, w in zip(out, want, strict=True):
            num, _ = sp.fraction(sp.together((o - w).subs({sp.exp(e): x, sp.exp(ep): xp})))
            goals.append(sp.Eq(sp.expand(num), 0))
    return SmtProblem({"x": "real", "xp": "real", "a": "real"},
                      (sp.Gt(x, 1), sp.Ge(xp, 1), sp.Le(xp, x),
                       sp.Eq(a * (1 + xp) * (x - 1), x - xp)),
                      sp.And(*goals),
                      ("x = e^eps0 > 1", "x' = e^eps0' in [1, x]",
                       "a = (x - x')/((1 + x')(x - 1))", "denominators (1 + x)(1 + x') > 0"))


def _affine_mid(ctx: Any, eps0: Any, k: int, j: int, **_: Any) -> Any:
    """``delta_pure`` at the midpoint in z of ``[z_j, z_{j+1}]``."""
    zm = (ctx.exp((2 * j - k) * eps0) + ctx.exp((2 * j + 2 - k) * eps0)) / 2
    return kov_delta_pure(ctx, eps0, k, ctx.log(zm))


def _affine_mean(ctx: Any, eps0: Any, k: int, j: int, **_: Any) -> Any:
    return (kov_delta_pure(ctx, eps0, k, (2 * j - k) * eps0)
            + kov_delta_pure(ctx, eps0, k, (2 * j + 2 - k) * eps0)) / 2


def _kov_delta_box() -> Box:
    return Box(reals={"eps0": ("0.01", "2"), "delta0": ("0", "0.1"), "eps": ("-2", "10"),
                      "h": ("1e-6", "1")}, ints={"k": (1, 40)}, log_scale=frozenset({"h"}),
               constraint=lambda p: p["eps"] + p["h"] < p["k"] * p["eps0"])


def _draw_homog_mv(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 12)
    eps0 = Fraction(rng.randint(1, 1500), 1000)
    return {"eps0": eps0, "delta0": rng.choice([Fraction(0), Fraction(rng.randint(1, 99), 1000)]),
            "k": k, "eps": Fraction(rng.randint(-500, 1000), 1000) * k * eps0}


@exact_params("eps0", "delta0")
def _mv_homog(ctx: Any, eps0: Any, delta0: Any, k: int, eps: Any, **_: Any) -> Any:
    return mv_delta(ctx, (Fraction(eps0),) * k, eps, (Fraction(delta0),) * k)


KOV_DELTA = Theorem(
    id="KOV-DELTA",
    title="Optimal delta as a function of eps",
    family=FAMILY,
    source=Source(MV[0], "Thm 1.4 (restatement of [KOV] Thm 3.3 as a function of eps_g)",
                  arxiv=MV[1]),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "delta_opt(eps) = 1 - (1-delta0)^k [1 - (1+e^eps0)^-k sum_{i=0}^k C(k,i) max(e^{i eps0}"
        " - e^eps e^{(k-i) eps0}, 0)]; the pure part is affine in z = e^eps between the "
        "breakpoints z_j = e^{(2j-k) eps0}. Exact for adaptive and non-adaptive composition."),
    domain="eps real; eps0 >= 0; delta0 in [0, 1); k >= 1 integer",
    evaluators=(
        Evaluator("delta", (EPS0, DELTA0, K, EPS_REAL), kov_delta,
                  "1 - (1-delta0)^k (1 - delta_pure(eps)) (arb enclosure, O(sqrt(k)) terms)"),
        Evaluator("delta_pure", (EPS0, K, EPS_REAL), kov_delta_pure,
                  "(1+e^eps0)^-k sum_i C(k,i) max(e^{i eps0} - e^eps e^{(k-i) eps0}, 0)"),
    ),
    claims=(
        Claim(1, "Equals brute force over the 2^k outputs of k-fold RR (delta0 = 0) to 1e-50 at "
              "(eps0, k, eps) in {(0.1, 1, 0.05), (0.3, 4, 0.2), (0.5, 7, 0.0), (1.0, 10, 2.5), "
              "(0.05, 10, 0.12)}.",
              (Compare(lambda ctx, eps0, k, eps, **_: kov_delta(ctx, eps0, 0, k, eps), "eq",
                       lambda ctx, eps0, k, eps, **_: rr_kfold_delta_enum(ctx, eps0, k, eps),
                       Points(({"eps0": "0.1", "k": 1, "eps": "0.05"},
                               {"eps0": "0.3", "k": 4, "eps": "0.2"},
                               {"eps0": "0.5", "k": 7, "eps": "0"},
                               {"eps0": "1.0", "k": 10, "eps": "2.5"},
                               {"eps0": "0.05", "k": 10, "eps": "0.12"})), "oracle",
                       Tol.abs("1e-50"), "KOV-DELTA.delta", "2^k enumeration of k-fold RR"),)),
        Claim(2, "Equals brute force over the 4^k outputs of the worst (eps0, delta0) mechanism "
              "to 1e-50 at (eps0, delta0, k, eps) in {(0.2, 1e-3, 3, 0.1), (0.5, 1e-2, 4, 0.7), "
              "(1.0, 1e-4, 5, 1.5)}.",
              (Compare(kov_delta, "eq", worst_kfold_delta_enum,
                       Points(({"eps0": "0.2", "delta0": "1e-3", "k": 3, "eps": "0.1"},
                               {"eps0": "0.5", "delta0": "1e-2", "k": 4, "eps": "0.7"},
                               {"eps0": "1.0", "delta0": "1e-4", "k": 5, "eps": "1.5"})),
                       "oracle", Tol.abs("1e-50"), "KOV-DELTA.delta",
                       "4^k enumeration of the worst mechanism"),)),
        Claim(3, "delta_pure is affine in z = e^eps on each [z_j, z_{j+1}]: the value at the "
              "midpoint in z equals the mean of the endpoint values (eps0 = 0.3, k = 8, pieces "
              "j = 2, 4, 6, to 1e-50); symbolically for k = 8 (same pieces), y = e^eps0, z = "
              "e^eps: every term of the sum has a fixed sign on the piece.",
              (Compare(_affine_mid, "eq", _affine_mean,
                       grid(eps0=["0.3"], k=[8], j=[2, 4, 6]), "numeric", Tol.abs("1e-50"),
                       "delta_pure(midpoint in z)", "mean of endpoint values"),
               *(Smt(lambda j=j: _affine_problem(8, j),
                     f"k = 8, piece j = {j}: fixed signs of y^i - z y^(k-i)") for j in (2, 4, 6)))),
        Claim(4, "Nonincreasing in eps (strictly while eps < k eps0); equal to 1 - (1-delta0)^k "
              "for eps >= k eps0; equal to MV-OPT.delta with all eps_i = eps0, delta_i = "
              "delta0. Also, for the box enclosures of the ordering claims: delta_pure is "
              "nondecreasing in eps0, because RR(eps0') is RR(eps0) followed by a binary "
              "symmetric channel with flip probability in [0, 1/2] when eps0' <= eps0 [smt] "
              "(post-processing, SMITH-POST); and delta_pure(eps0, k, eps0 s) is nondecreasing "
              "in eps0 for fixed s [property].",
              (Compare(lambda ctx, eps0, delta0, k, eps, h, **_: kov_delta(ctx, eps0, delta0, k,
                                                                           eps + h),
                       "lt", lambda ctx, eps0, delta0, k, eps, **_: kov_delta(ctx, eps0, delta0,
                                                                              k, eps),
                       _kov_delta_box(), "property", lhs_name="delta(eps + h)",
                       rhs_name="delta(eps)"),
               Compare(lambda ctx, eps0, delta0, k, h, **_: kov_delta(ctx, eps0, delta0, k,
                                                                      k * eps0 + h),
                       "eq", lambda ctx, delta0, k, **_: 1 - ctx.pow(1 - delta0, k),
                       Box(reals={"eps0": ("0", "2"), "delta0": ("0", "0.5"), "h": ("0", "5")},
                           ints={"k": (1, 200)}), "property",
                       Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "delta(k eps0 + h)", "1 - (1 - delta0)^k"),
               Compare(lambda ctx, eps0, delta0, k, eps, **_: kov_delta(ctx, eps0, delta0, k,
                                                                        eps),
                       "eq", _mv_homog, Generated(_draw_homog_mv, 60, "random homogeneous lists"),
                       "property", Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "KOV-DELTA.delta", "MV-OPT.delta"),
               Smt(_rr_degradation_problem, "RR(eps0') = BSC(a) o RR(eps0), a in [0, 1/2], for "
                   "0 <= eps0' <= eps0 (x = e^eps0, x' = e^eps0')"),
               Compare(lambda ctx, eps0, k, eps, h, **_: kov_delta_pure(ctx, eps0, k, eps),
                       "le", lambda ctx, eps0, k, eps, h, **_: kov_delta_pure(ctx, eps0 + h, k,
                                                                              eps),
                       Box(reals={"eps0": ("0.01", "2"), "eps": ("-2", "20"), "h": ("1e-6", "1")},
                           ints={"k": (1, 60)}, log_scale=frozenset({"h"}),
                           # outside (-k eps0, k eps0) both sides are the same constant
                           constraint=lambda p: -p["k"] * p["eps0"] < p["eps"]
                           < p["k"] * p["eps0"]), "property",
                       lhs_name="delta_pure(eps0)", rhs_name="delta_pure(eps0 + h)"),
               Compare(lambda ctx, eps0, k, s, h, **_: kov_delta_pure(ctx, eps0, k, eps0 * s),
                       "le", lambda ctx, eps0, k, s, h, **_: kov_delta_pure(ctx, eps0 + h, k,
                                                                            (eps0 + h) * s),
                       Box(reals={"eps0": ("0.01", "2"), "s": ("-5", "60"), "h": ("1e-6", "1")},
                           ints={"k": (1, 60)}, log_scale=frozenset({"h"}),
                           constraint=lambda p: p["s"] < p["k"]), "property",
                       lhs_name="delta_pure(eps0, k, eps0 s)",
                       rhs_name="delta_pure(eps0 + h, k, (eps0 + h) s)"))),
    ),
    notes="Large k: the sum is taken from the mode of the binomial outwards and stops once "
          "the pmf is negligible, with a certified tail enclosure (O(sqrt(k) digits) terms).",
)


# ==========================================================================================
# KOV-EPS


@exact_params("delta0", "delta")
def _kov_eps_bisection(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any, **_: Any) -> Any:
    """200-step bisection of KOV-DELTA on [0, k eps0] (an independent route to the inverse)."""
    d = to_ctx(ctx, delta)
    lo, hi = ctx.zero, k * eps0
    if ctx.le(kov_delta(ctx, eps0, delta0, k, lo), d):
        return lo
    for _ in range(200):
        mid = (lo + hi) / 2
        if ctx.le(kov_delta(ctx, eps0, delta0, k, mid), d):
            hi = mid
        else:
            lo = mid
    return hi


@exact_params("delta0", "delta")
def _kov_eps_term(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any, **_: Any) -> Any:
    return kov_eps(ctx, eps0, delta0, k, delta)


@exact_params("delta0", "delta")
def _kov_delta_at_eps_opt(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any, **_: Any) -> Any:
    return kov_delta(ctx, eps0, delta0, k, kov_eps(ctx, eps0, delta0, k, delta))


@exact_params("delta0", "delta")
def _kov_eps_structure(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any,
                       **_: Any) -> bool | None:
    """inf exactly when delta < 1 - (1-delta0)^k; 0 exactly when KOV-DELTA(0) <= delta."""
    v = kov_eps(ctx, eps0, delta0, k, delta)
    below = Fraction(delta) < 1 - (1 - Fraction(delta0)) ** k
    if below:
        return _is_inf(v)
    if _is_inf(v):
        return False
    at_zero = ctx.le(kov_delta(ctx, eps0, delta0, k, ctx.zero), to_ctx(ctx, delta))
    if at_zero is None:
        return None
    is_zero = bool(v.is_exact() and v == 0) if isinstance(v, flint.arb) else bool(v == 0)
    return is_zero == at_zero


_KOV_EPS_POINTS = Points((
    {"eps0": "0.1", "delta0": "0", "k": 50, "delta": "1e-6"},
    {"eps0": "0.25", "delta0": "1e-7", "k": 30, "delta": "1e-5"},
    {"eps0": "1.0", "delta0": "0", "k": 12, "delta": "1e-3"},
))


KOV_EPS = Theorem(
    id="KOV-EPS",
    title="Optimal eps as a function of delta (exact inverse)",
    family=FAMILY,
    source=Source(KOV[0], "Thm 3.3 / [MV] Thm 1.4, inverted", arxiv=KOV[1], version=KOV[2]),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "eps_opt(delta) = min{eps >= 0 : KOV-DELTA.delta(eps) <= delta}, infinite when delta < "
        "1 - (1-delta0)^k. With T = 1 - (1-delta)/(1-delta0)^k, on the piece between the atoms "
        "z_{j-1}, z_j the pure part is A_j - z B_j (suffix sums over i >= j), so z = (A_j - T)/"
        "B_j and eps = max(0, ln z) on the right piece."),
    domain="eps0 > 0, delta0 in [0, 1), k >= 1 integer, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (EPS0_POS, DELTA0, K, DELTA), kov_eps,
                  "exact piecewise inverse of KOV-DELTA (inf when delta < 1 - (1-delta0)^k)"),
    ),
    claims=(
        Claim(1, "The exact piecewise inverse equals 200-step bisection on KOV-DELTA to 1e-46 "
              "at (eps0, delta0, k, delta) in {(0.1, 0, 50, 1e-6), (0.25, 1e-7, 30, 1e-5), "
              "(1.0, 0, 12, 1e-3)}.",
              (Compare(_kov_eps_term, "eq", _kov_eps_bisection, _KOV_EPS_POINTS, "numeric",
                       Tol.abs("1e-46"), "KOV-EPS.eps", "bisection on KOV-DELTA", ctx="mp"),)),
        Claim(2, "KOV-DELTA.delta(eps0, delta0, k, eps_opt(delta)) = delta whenever eps_opt > 0 "
              "(rel 1e-40; the points of claims 1 and 4).",
              (Compare(_kov_delta_at_eps_opt, "eq", _delta_side,
                       Points((*_KOV_EPS_POINTS.points,
                               {"eps0": "0.01", "delta0": "0", "k": 365, "delta": "1e-6"},
                               {"eps0": "0.1", "delta0": "0", "k": 100, "delta": "1e-5"},
                               {"eps0": "0.02", "delta0": "1e-9", "k": 1000, "delta": "1e-5"})),
                       "numeric", Tol.rel("1e-40"), "KOV-DELTA(eps_opt)", "delta"),)),
        Claim(3, "Returns inf exactly when delta < 1 - (1-delta0)^k, and 0 exactly when "
              "KOV-DELTA.delta(eps0, delta0, k, 0) <= delta.",
              (Predicate(_kov_eps_structure,
                         Box(reals={"eps0": ("0.001", "2"), "delta0": ("0", "0.02"),
                                    "delta": ("1e-12", "0.9")}, ints={"k": (1, 30)},
                             log_scale=frozenset({"eps0", "delta"})), "property",
                         "inf iff delta < 1 - (1-delta0)^k; 0 iff KOV-DELTA(0) <= delta"),)),
        Claim(4, "Golden values (delta0 = 0): (eps0, k, delta) = (0.01, 365, 1e-6) -> "
              "0.790112738286; (0.01, 730, 1e-6) -> 1.151273512711; (0.1, 100, 1e-5) -> "
              "4.306791372517; (1, 10, 1e-3) -> 9.976799010199.",
              tuple(Compare(_kov_eps_term, "eq", _c(value),
                            points({"eps0": e0, "delta0": "0", "k": k, "delta": d}), "numeric",
                            Tol.abs("5e-13"), f"KOV-EPS.eps({e0}, 0, {k}, {d})", value)
                    for e0, k, d, value in (("0.01", 365, "1e-6", "0.790112738286"),
                                            ("0.01", 730, "1e-6", "1.151273512711"),
                                            ("0.1", 100, "1e-5", "4.306791372517"),
                                            ("1", 10, "1e-3", "9.976799010199")))),
    ),
    notes="The suffix sums are accumulated in one pass upwards from the lowest candidate piece "
          "(truncated with a certified tail), so large k costs O(sqrt(k) digits) terms.",
)


# ==========================================================================================
# KOV-34


@exact_params("slack", "delta0")
def _kov34_clipped(ctx: Any, eps0: Any, delta0: Any, k: int, slack: Any, **_: Any) -> Any:
    total = _kov_total_delta(Fraction(slack), Fraction(delta0), k)
    return ctx.le(kov34_eps(ctx, eps0, delta0, k, total), k * eps0 * (1 + ctx.num("1e-40")))


KOV_34 = Theorem(
    id="KOV-34",
    title="Closed-form upper bound (KOV Thm 3.4)",
    family=FAMILY,
    source=Source(KOV[0], "Thm 3.4", arxiv=KOV[1], version=KOV[2]),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement=(
        "For eps0 > 0, delta0 in [0,1], delta~ in (0,1], k-fold adaptive composition is "
        "(eps~, 1 - (1-delta0)^k (1-delta~))-DP with eps~ = min{k eps0, k eps0 (e^eps0-1)/"
        "(e^eps0+1) + eps0 sqrt(2k ln(e + sqrt(k eps0^2)/delta~)), k eps0 (e^eps0-1)/(e^eps0+1)"
        " + eps0 sqrt(2k ln(1/delta~))}."),
    domain="eps0 > 0, delta0 in [0, 1), delta~ = 1 - (1-delta)/(1-delta0)^k in (0, 1], k >= 1",
    evaluators=(
        Evaluator("eps", (EPS0_POS, DELTA0, K, DELTA), kov34_eps,
                  "eps~ at delta~ = 1 - (1-delta)/(1-delta0)^k"),
    ),
    claims=(
        Claim(1, "eps~ >= KOV-EPS.eps at the same total delta on the 96-configuration grid of "
              "DRV-ADV claim 1 (delta~ in the role of delta'; largest KOV - eps~ is -1.37e-9 at "
              f"eps0 = 1, k = 1, delta~ = 1e-9); proved with delta0 = 0 on {ORDER_BOX_TEXT} as "
              "KOV-DELTA.delta_pure(eps0, k, eps~) <= delta.",
              (Compare(_kov34_at_tilde, "ge", _kov_eps_at_tilde, _drv96(), "property",
                       lhs_name="KOV-34.eps", rhs_name="KOV-EPS.eps"),
               _order_check(_kov34_bound, "eps~"))),
        Claim(2, "eps~ <= k eps0 by construction (KOV-34.eps at the total delta of delta~; "
              "to rel 1e-40: where the minimum picks k eps0 both sides are the same ball).",
              (Predicate(_kov34_clipped,
                         Box(reals={"eps0": ("0.001", "5"), "delta0": ("0", "0.01"),
                                    "slack": ("1e-15", "0.999")}, ints={"k": (1, 1000)},
                             log_scale=frozenset({"eps0", "slack"})), "property",
                         "KOV-34.eps <= k eps0 (rel 1e-40)"),)),
        Claim(3, "k = 100, eps0 = 0.1, delta = 1e-5, delta0 = 0 gives eps~ = 5.298109661767.",
              (Compare(lambda ctx, **_: kov34_eps(ctx, ctx.num("0.1"), 0, 100,
                                                  Fraction(1, 10**5)),
                       "eq", _c("5.298109661767"), points({}), "numeric", Tol.abs("5e-13"),
                       "KOV-34.eps(0.1, 0, 100, 1e-5)", "5.298109661767"),)),
    ),
    notes="The formula also appears in public accountant code.",
)


# ==========================================================================================
# MV-OPT, MV-HARD, MV-APPROX


def _draw_mv_rr(rng: random.Random) -> dict[str, Any]:
    k = rng.choice([3, 5, 8])
    return {"eps_list": tuple(Fraction(rng.randint(50, 1000), 1000) for _ in range(k)),
            "eps": Fraction(rng.randint(0, 1500), 1000)}


@exact_params("eps_list")
def _mv_pure_term(ctx: Any, eps_list: Any, eps: Any, **_: Any) -> Any:
    return mv_delta_pure(ctx, eps_list, eps)


@exact_params("eps_list", "delta_list")
def _mv_delta_term(ctx: Any, eps_list: Any, eps: Any, delta_list: Any = (), **_: Any) -> Any:
    return mv_delta(ctx, eps_list, eps, delta_list)


def _het_rr_term(ctx: Any, eps_list: Any, eps: Any, **_: Any) -> Any:
    return het_rr_delta_enum(ctx, eps_list, eps)


def _het_worst_term(ctx: Any, eps_list: Any, delta_list: Any, eps: Any, **_: Any) -> Any:
    return het_worst_delta_enum(ctx, eps_list, delta_list, eps)


@exact_params("eps_list", "delta_list")
def _mv_roundtrip(ctx: Any, eps_list: Any, delta_list: Any, delta: Any, **_: Any) -> Any:
    return mv_delta(ctx, eps_list, mv_eps(ctx, eps_list, delta, delta_list), delta_list)


def _draw_mv_monotone(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 6)
    eps_list = tuple(Fraction(rng.randint(10, 1500), 1000) for _ in range(k))
    delta_list = tuple(rng.choice([Fraction(0), Fraction(rng.randint(1, 100), 10**4)])
                       for _ in range(k))
    return {"eps_list": eps_list, "delta_list": delta_list, "j": rng.randrange(k),
            "h": Fraction(rng.randint(1, 1000), 1000), "hd": Fraction(rng.randint(1, 100), 10**4),
            "eps": sum(eps_list, Fraction(0)) * Fraction(rng.randint(-500, 999), 1000)}


def _mv_bump(which: str) -> Callable[..., Any]:
    @exact_params("eps_list", "delta_list", "h", "hd")
    def term(ctx: Any, eps_list: Any, delta_list: Any, j: int, h: Any, hd: Any, eps: Any,
             **_: Any) -> Any:
        el, dl = list(eps_list), list(delta_list)
        if which == "eps":
            el[j] = el[j] + Fraction(h)
        else:
            dl[j] = dl[j] + Fraction(hd)
        return mv_delta(ctx, tuple(el), eps, tuple(dl))

    return term


def _mv_monotone(which: str) -> Callable[..., Any]:
    bumped = _mv_bump(which)

    @exact_params("eps_list", "delta_list", "h", "hd")
    def test(ctx: Any, **p: Any) -> bool | None:
        base = _mv_plain(ctx, **p)
        return ctx.le(base, bumped(ctx, **p) + ctx.num("1e-40") * ctx.abs(base))

    return test


@exact_params("eps_list", "delta_list")
def _mv_plain(ctx: Any, eps_list: Any, delta_list: Any, eps: Any, **_: Any) -> Any:
    return mv_delta(ctx, eps_list, eps, delta_list)


MV_OPT = Theorem(
    id="MV-OPT",
    title="Optimal heterogeneous composition (Murtagh–Vadhan)",
    family=FAMILY,
    source=Source(MV[0], "Thm 1.5; restated as [DDR] Thm 2", arxiv=MV[1]),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "For (eps_1, delta_1), ..., (eps_k, delta_k), the optimal eps_g at delta_g is the least "
        "eps_g >= 0 with (1/prod_i(1+e^eps_i)) sum_{S subset [k]} max(e^{sum_S eps_i} - e^eps_g "
        "e^{sum_{not S} eps_i}, 0) <= 1 - (1-delta_g)/prod_i(1-delta_i); delta_opt(eps_g) = 1 - "
        "prod(1-delta_i)(1 - LHS(eps_g)). Adaptivity does not help."),
    domain=(f"eps_i >= 0, delta_i in [0, 1), eps real, delta in (0, 1); exact evaluation for at "
            f"most {MV_MAX_ENUM_K} mechanisms (subset enumeration) or for eps_i on a lattice "
            f"with k*(2*sum a_i + 1) <= {MV_MAX_LATTICE_WORK}"),
    evaluators=(
        Evaluator("delta", (EPS_LIST, EPS_REAL, replace(DELTA_LIST, min_len=0, default="")),
                  mv_delta, "1 - prod(1-delta_i)(1 - LHS(eps)); delta_list defaults to zeros"),
        Evaluator("delta_pure", (EPS_LIST, EPS_REAL), mv_delta_pure, "LHS(eps)"),
        Evaluator("eps", (EPS_LIST, DELTA, replace(DELTA_LIST, min_len=0, default="")), mv_eps,
                  "least eps >= 0 with delta_opt(eps) <= delta (bisection; inf when delta < "
                  "1 - prod(1-delta_i))"),
    ),
    claims=(
        Claim(1, "The 2^k formula equals brute force on heterogeneous RR (hockey-stick over the "
              "2^k outputs of the product) to 1e-50 for k = 3, 5, 8, random eps_i in [0.05, 1], "
              "random eps in [0, 1.5].",
              (Compare(_mv_pure_term, "eq", _het_rr_term,
                       Generated(_draw_mv_rr, 60, "random eps_list (k in {3, 5, 8}) and eps"),
                       "oracle", Tol.abs("1e-50"), "MV-OPT.delta_pure",
                       "2^k enumeration of prod RR(eps_i)"),)),
        Claim(2, "Homogeneous case: equals KOV-DELTA (k = 9, eps0 = 0.4, eps = 0.8) to 1e-50.",
              (Compare(lambda ctx, **_: mv_delta_pure(ctx, (Fraction(2, 5),) * 9, ctx.num("0.8")),
                       "eq", lambda ctx, **_: kov_delta_pure(ctx, ctx.num("0.4"), 9,
                                                             ctx.num("0.8")),
                       points({}), "numeric", Tol.abs("1e-50"), "MV-OPT.delta_pure",
                       "KOV-DELTA.delta_pure"),)),
        Claim(3, "With delta_i > 0 it equals brute force over products of heterogeneous "
              "4-point mechanisms: eps_list = (0.3, 0.7, 1.1), delta_list = (0.01, 0.002, "
              "0.03), eps in {0.2, 0.9} (to 1e-50).",
              (Compare(_mv_delta_term, "eq", _het_worst_term,
                       Points(tuple({"eps_list": (Fraction(3, 10), Fraction(7, 10),
                                                  Fraction(11, 10)),
                                     "delta_list": (Fraction(1, 100), Fraction(2, 1000),
                                                    Fraction(3, 100)), "eps": e}
                                    for e in ("0.2", "0.9"))), "oracle", Tol.abs("1e-50"),
                       "MV-OPT.delta", "4^k enumeration of prod worst(eps_i, delta_i)"),)),
        Claim(4, "Bisection for the eps form: delta(eps_list, eps(eps_list, 1e-3, delta_list), "
              "delta_list) = 1e-3 to 1e-30 for eps_list = (0.3, 0.5, 0.8), delta_list = (1e-4, "
              "0, 2e-4).",
              (Compare(_mv_roundtrip, "eq", _delta_side,
                       points({"eps_list": (Fraction(3, 10), Fraction(1, 2), Fraction(4, 5)),
                               "delta_list": (Fraction(1, 10**4), Fraction(0),
                                              Fraction(2, 10**4)), "delta": "1e-3"}),
                       "numeric", Tol.abs("1e-30"), "delta(eps(1e-3))", "1e-3"),)),
        Claim(5, "Monotone: increasing any eps_i or delta_i never decreases delta_opt (to rel "
              "1e-40: the optimum can be unchanged, e.g. when every active subset pairs with "
              "its partner without mechanism j, and equality is not decidable with balls).",
              (Predicate(_mv_monotone("eps"),
                         Generated(_draw_mv_monotone, 60, "random lists, one eps_j increased"),
                         "property", "delta_opt(eps_j + h) >= delta_opt (rel 1e-40)"),
               Predicate(_mv_monotone("delta"),
                         Generated(_draw_mv_monotone, 60, "random lists, one delta_j increased"),
                         "property", "delta_opt(delta_j + hd) >= delta_opt (rel 1e-40)"))),
    ),
    notes=f"Exact evaluation enumerates 2^k subsets (meet in the middle) for k <= "
          f"{MV_MAX_ENUM_K}; beyond, only lattice inputs are accepted (MV-HARD); MV-APPROX "
          "gives an upper bound.",
)


def _distinct_primes(n: int) -> list[int]:
    out, c = [], 101
    while len(out) < n:
        if all(c % p for p in range(2, int(c**0.5) + 1)):
            out.append(c)
        c += 1
    return out


def _refuses_large_k(ctx: Any, **_: Any) -> bool:
    """MV-OPT refuses MV_MAX_ENUM_K + 1 mechanisms off a small lattice, naming eps_list and the
    limit; and accepts MV_MAX_ENUM_K of them."""
    k = MV_MAX_ENUM_K + 1
    eps_list = tuple(Fraction(1, p) for p in _distinct_primes(k))
    try:
        mv_delta(ctx, eps_list, ctx.num("0.1"))
    except InvalidParameter as e:
        refused = "eps_list" in str(e) and str(MV_MAX_ENUM_K) in str(e)
    else:
        refused = False
    value = mv_delta_pure(ctx, eps_list[:MV_MAX_ENUM_K], ctx.num("0.1"))
    return refused and bool(ctx.le(ctx.zero, value))


MV_HARD = Theorem(
    id="MV-HARD",
    title="#P-completeness of optimal heterogeneous composition",
    family=FAMILY,
    source=Source(MV[0], "main hardness theorem (number not verified); [GCE] Sec. II-B",
                  arxiv=MV[1]),
    types=("EXACT",),
    confidence=("HIGH", "UNCERTAIN"),
    statement=(
        "Computing the optimal heterogeneous composition exactly is #P-complete: no poly(k)-time "
        "exact algorithm exists unless FP = #P."),
    domain="heterogeneous (eps_i, delta_i) given as rationals",
    claims=(
        Claim(1, f"Not numerically checkable. MV-OPT documents its limit: it enumerates 2^k "
              f"subsets for at most {MV_MAX_ENUM_K} mechanisms (accepted), and refuses "
              f"{MV_MAX_ENUM_K + 1} mechanisms off a small lattice with an InvalidParameter "
              f"naming eps_list and the limit.",
              (Predicate(_refuses_large_k, points({}), "property",
                         f"k = {MV_MAX_ENUM_K + 1} refused, k = {MV_MAX_ENUM_K} accepted"),)),
    ),
    notes="The polynomial-time approximation is MV-APPROX.",
)


_MV_APPROX_LIST = (Fraction(3, 10), Fraction(11, 20), Fraction(9, 10), Fraction(1, 5),
                   Fraction(41, 100))


@exact_params("eps_list", "step")
def _mv_upper_term(ctx: Any, eps_list: Any, eps: Any, step: Any, **_: Any) -> Any:
    return mv_approx_delta_upper(ctx, eps_list, eps, step)


@exact_params("eps_list", "step")
def _mv_excess(ctx: Any, eps_list: Any, eps: Any, step: Any, **_: Any) -> Any:
    return mv_approx_delta_upper(ctx, eps_list, eps, step) - mv_delta_pure(ctx, eps_list, eps)


def _excess_shrinks(ctx: Any, **_: Any) -> bool | None:
    eps = ctx.num("0.5")
    exact = mv_delta_pure(ctx, _MV_APPROX_LIST, eps)
    ex = [mv_approx_delta_upper(ctx, _MV_APPROX_LIST, eps, Fraction(s)) - exact
          for s in ("0.07", "0.03", "0.007")]
    a, b = ctx.lt(ex[1], ex[0]), ctx.lt(ex[2], ex[1])
    if a is None or b is None:
        return None
    return a and b


def _draw_mv_approx(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 6)
    eps_list = tuple(Fraction(rng.randint(20, 1500), 997) for _ in range(k))
    return {"eps_list": eps_list, "step": Fraction(rng.randint(5, 100), 1000),
            "eps": sum(eps_list, Fraction(0)) * Fraction(rng.randint(-300, 999), 1000)}


MV_APPROX = Theorem(
    id="MV-APPROX",
    title="Polynomial-time approximation of the optimal composition",
    family=FAMILY,
    source=Source(MV[0], "approximation theorem (a modification of Dyer's knapsack dynamic "
                  "program; number and running time not recovered)", arxiv=MV[1]),
    types=("ALGORITHM",),
    confidence=("HIGH", "UNCERTAIN"),
    statement=(
        "[MV]: an algorithm outputs eps* with OPT <= eps* <= OPT + eta in time polynomial in k, "
        "1/eta and sum eps_i. Lattice analogue encoded here (an upper bound, not [MV]'s "
        "algorithm): round every eps_i up to a_i step, a_i = ceil(eps_i/step) exactly; the "
        "privacy loss lives on step Z; its law is computed by a knapsack dynamic program in "
        "O(k sum a_i) and delta_upper = sum_s P(S = s) max(0, 1 - e^{eps - s step})."),
    domain="eps_i >= 0, step > 0 (pure DP)",
    evaluators=(
        Evaluator("delta_upper", (EPS_LIST, EPS_REAL, Real("step", lo=0, lo_open=True,
                                                          doc="lattice step")),
                  mv_approx_delta_upper, "lattice upper bound on MV-OPT.delta_pure"),
    ),
    claims=(
        Claim(1, "eps_list = (0.3, 0.55, 0.9, 0.2, 0.41), eps = 0.5: the lattice value is >= "
              "the exact MV-OPT value at steps 0.07, 0.03, 0.007 and the excess shrinks "
              "monotonically (0.0108, 0.0060, 0.0022).",
              (Compare(_mv_upper_term, "ge", _mv_pure_term,
                       Points(tuple({"eps_list": _MV_APPROX_LIST, "eps": "0.5", "step": s}
                                    for s in ("0.07", "0.03", "0.007"))), "numeric",
                       lhs_name="MV-APPROX.delta_upper", rhs_name="MV-OPT.delta_pure"),
               *(Compare(_mv_excess, "eq", _c(v),
                         points({"eps_list": _MV_APPROX_LIST, "eps": "0.5", "step": s}),
                         "numeric", Tol.abs("5e-5"), f"excess at step {s}", v)
                 for s, v in (("0.07", "0.0108"), ("0.03", "0.0060"), ("0.007", "0.0022"))),
               Predicate(_excess_shrinks, points({}), "numeric",
                         "excess(0.007) < excess(0.03) < excess(0.07)"))),
        Claim(2, "With step = 0.01, which divides every eps_i, the lattice value equals the "
              "exact MV-OPT value (subset enumeration) to 1e-35.",
              (Compare(_mv_upper_term, "eq", _mv_pure_term,
                       points({"eps_list": _MV_APPROX_LIST, "eps": "0.5", "step": "0.01"}),
                       "numeric", Tol.abs("1e-35"), "MV-APPROX.delta_upper(step 0.01)",
                       "MV-OPT.delta_pure"),)),
        Claim(3, "For random eps_list and step, delta_upper >= MV-OPT.delta_pure.",
              (Compare(_mv_upper_term, "ge", _mv_pure_term,
                       Generated(_draw_mv_approx, 100, "random eps_list (k <= 6) and step"),
                       "property", lhs_name="MV-APPROX.delta_upper",
                       rhs_name="MV-OPT.delta_pure"),)),
    ),
    notes="The lattice bound is a rounding-up analogue, not [MV]'s algorithm; its error is not "
          "controlled by a tolerance eta as in [MV].",
)


# ==========================================================================================
# STK-ASYMP-OPT


def _asymp_point(k: int) -> dict[str, Any]:
    return {"rho": "0.5", "k": k, "delta": "1e-5"}


def _asymp_monotone(ctx: Any, rho: Any, delta: Any, **_: Any) -> bool | None:
    lim = asymp_eps_limit(ctx, rho, delta)
    gaps = [ctx.abs(asymp_eps(ctx, rho, k, delta) - lim) for k in (10, 100, 1000, 10000)]
    decided = [ctx.lt(b, a) for a, b in itertools.pairwise(gaps)]
    if any(d is None for d in decided):
        return None
    return all(decided)


def _rr_step_moments_problem(which: str) -> SmtProblem:
    """PLD mean/variance of one RR(eps0) step from the RR probabilities (finite.py) versus
    ``eps0 tanh(eps0/2)`` and ``eps0^2 (1 - tanh^2(eps0/2))``; ``x = e^eps0``, ``t =
    tanh(eps0/2)`` with ``t (x + 1) = x - 1``."""
    import sympy as sp

    from dpverify.theorems.ctx import SymCtx

    ctx = SymCtx()
    e0 = sp.Symbol("eps0", positive=True)
    x, t = sp.symbols("x t", real=True)
    p, _q = randomized_response(ctx, e0)  # P = (e^eps0, 1)/(1 + e^eps0); losses +eps0, -eps0
    mean = p[0] * e0 + p[1] * (-e0)
    second = p[0] * e0**2 + p[1] * e0**2
    claimed = rr_pld_mean(ctx, e0) if which == "mean" else rr_pld_var(ctx, e0)
    actual = mean if which == "mean" else second - mean**2
    subs = {sp.exp(e0): x, sp.tanh(e0 / 2): t}
    diff = sp.together((actual - claimed).subs(subs))
    num, _den = sp.fraction(diff)
    return SmtProblem({"eps0": "real", "x": "real", "t": "real"},
                      (sp.Gt(e0, 0), sp.Gt(x, 1), sp.Eq(t * (x + 1), x - 1)),
                      sp.Eq(sp.expand(num), 0),
                      ("x = e^eps0 > 1", "t = tanh(eps0/2) = (x - 1)/(x + 1)",
                       "denominator (1 + x)^n > 0 cleared"))


def _cks(ctx: Any, rho: Any, delta: Any, **_: Any) -> Any:
    return _registry_formula("CKS20-CONV", "eps")(ctx, rho=rho, delta=delta)


STK_ASYMP_OPT = Theorem(
    id="STK-ASYMP-OPT",
    title="Asymptotic optimality of advanced composition",
    family=FAMILY,
    source=Source(S22[0], "Sec. 5 (the quantitative lower-bound theorem was not recovered)",
                  arxiv=S22[1], version=S22[2]),
    types=("TIGHT",),
    confidence=("UNCERTAIN",),
    statement=(
        "For k-fold eps0-RR with k eps0^2/2 = rho fixed and k -> infinity, the PLD (mean k eps0 "
        "tanh(eps0/2), variance k eps0^2 (1 - tanh^2(eps0/2))) converges to N(rho, 2 rho): the "
        "exact eps(delta) converges to the Gaussian value, and advanced composition rho + "
        "2 sqrt(rho log(1/delta)) exceeds it only by lower-order terms."),
    domain="rho > 0, delta in (0, 1), k >= 1 integer",
    evaluators=(
        Evaluator("eps", (RHO, K, DELTA), asymp_eps, "KOV-EPS.eps(sqrt(2 rho/k), 0, k, delta)"),
        Evaluator("eps_limit", (RHO, DELTA), asymp_eps_limit, "DRS-GDP.eps(sqrt(2 rho), delta)"),
    ),
    claims=(
        Claim(1, "rho = 0.5, delta = 1e-5: the exact eps for k = 10, 100, 1000, 10000 is 3.1599, "
              "4.3068, 4.3683, 4.37638; the Gaussian limit is 4.37718, CKS20-CONV gives 4.7284 "
              "and advanced composition 5.2985.",
              (*(Compare(lambda ctx, rho, k, delta, **_: asymp_eps(ctx, rho, k, delta), "eq",
                         _c(v), points(_asymp_point(k)), "numeric", Tol.abs(tol),
                         f"exact eps at k = {k}", v)
                 for k, v, tol in ((10, "3.1599", "5e-5"), (100, "4.3068", "5e-5"),
                                   (1000, "4.3683", "5e-5"), (10000, "4.37638", "5e-6"))),
               Compare(lambda ctx, rho, delta, **_: asymp_eps_limit(ctx, rho, delta), "eq",
                       _c("4.37718"), points({"rho": "0.5", "delta": "1e-5"}), "numeric",
                       Tol.abs("5e-6"), "Gaussian limit", "4.37718"),
               Compare(_cks, "eq", _c("4.7284"), points({"rho": "0.5", "delta": "1e-5"}),
                       "numeric", Tol.abs("5e-5"), "CKS20-CONV.eps(0.5, 1e-5)", "4.7284"),
               Compare(lambda ctx, rho, delta, **_: rho + 2 * ctx.sqrt(rho * _log_inv(ctx, delta)),
                       "eq", _c("5.2985"), points({"rho": "0.5", "delta": "1e-5"}), "numeric",
                       Tol.abs("5e-5"), "rho + 2 sqrt(rho log(1/delta))", "5.2985"))),
        Claim(2, "|eps(rho, k, delta) - eps_limit(rho, delta)| decreases monotonically along "
              "k = 10, 100, 1000, 10000 (rho = 0.5, delta = 1e-5).",
              (Predicate(_asymp_monotone, points({"rho": "0.5", "delta": "1e-5"}), "numeric",
                         "gaps to the Gaussian limit strictly decrease"),)),
        Claim(3, "eps(rho, k, delta) <= rho + 2 sqrt(rho log(1/delta)) for each k of claim 1.",
              (Compare(lambda ctx, rho, k, delta, **_: asymp_eps(ctx, rho, k, delta), "le",
                       lambda ctx, rho, delta, **_: rho + 2 * ctx.sqrt(rho * _log_inv(ctx, delta)),
                       Points(tuple(_asymp_point(k) for k in (10, 100, 1000, 10000))), "numeric",
                       lhs_name="exact eps", rhs_name="advanced composition"),)),
        Claim(4, "At k = 10000 the exact eps is within relative 2e-3 of the Gaussian limit.",
              (Compare(lambda ctx, rho, k, delta, **_: ctx.abs(asymp_eps(ctx, rho, k, delta)
                                                               - asymp_eps_limit(ctx, rho, delta)),
                       "le", lambda ctx, rho, delta, **_: ctx.num("2e-3")
                       * asymp_eps_limit(ctx, rho, delta),
                       points(_asymp_point(10000)), "numeric",
                       lhs_name="|eps - eps_limit|", rhs_name="2e-3 eps_limit"),)),
        Claim(5, "The PLD mean and variance of one eps0-RR step equal eps0 tanh(eps0/2) and "
              "eps0^2 (1 - tanh^2(eps0/2)) (identity in x = e^eps0 and eps0).",
              (Smt(lambda: _rr_step_moments_problem("mean"),
                   "E[Z] = eps0 tanh(eps0/2) for one RR(eps0) step"),
               Smt(lambda: _rr_step_moments_problem("var"),
                   "Var[Z] = eps0^2 (1 - tanh^2(eps0/2)) for one RR(eps0) step"))),
    ),
    notes="The value at k = 100 in claim 1 coincides with KOV-EPS(0.1, 0, 100, 1e-5) because "
          "eps0 = sqrt(2 * 0.5/100) = 0.1.",
)


THEOREMS: tuple[Theorem, ...] = (
    BASIC, STK_BASIC_OPT, DRV_ADV, STK_ADV_PURE, STK_ADV_APPROX, KOV_OPT, KOV_DELTA, KOV_EPS,
    KOV_34, MV_OPT, MV_HARD, MV_APPROX, STK_ASYMP_OPT,
)

__all__ = [
    "MV_MAX_ENUM_K", "THEOREMS", "adaptive_transcript", "asymp_eps", "basic_eps",
    "drv_eps", "drv_eps_slack", "het_rr_delta_enum", "kov33_delta_i", "kov34_eps",
    "kov34_eps_tilde", "kov_delta", "kov_delta_pure", "kov_eps", "kov_opt_delta",
    "mv_approx_delta_upper", "mv_delta", "mv_delta_pure", "mv_eps", "rr_kfold_delta_enum",
    "stk_eps", "stk_eps_het", "worst_kfold_delta_enum",
]
