"""Optimal composition of (eps, delta)-DP: the exact KOV/MV privacy profiles and their inverses.

Main results
------------
- :func:`kov_delta_pure`, :func:`kov_delta`: the exact optimal delta(eps) of k-fold homogeneous
  composition, as the binomial privacy-loss sum of k-fold RR(eps0) ([MV] Thm 1.4). The sum walks
  out from the mode of the binomial and stops once the pmf is negligible; the remainder is
  enclosed by a certified geometric tail bound (:mod:`dpverify.theorems.numerics.binomial`), so
  the arb value is a rigorous enclosure in O(sqrt(k) * digits) terms.
- :func:`kov_opt_delta`, :func:`kov33_delta_i`: the PLD walk and the closed points of [KOV] Thm 3.3.
- :func:`kov_eps`: the EXACT inverse. On each interval between consecutive privacy-loss atoms
  ``x_j = eps0 (2j - k)`` the pure part is ``A_j - e^eps B_j`` (suffix sums of the binomial
  laws under P and Q), so ``eps = log((A_j - T)/B_j)`` on the right piece. Each candidate is a
  lower bound of the answer (``A_j - e^eps B_j <= delta_pure(eps)`` everywhere) and the right
  piece is certified by the ball comparisons ``delta_pure(x_b) <= T <= delta_pure(x_{a-1})``,
  so the answer is the maximum of the candidates of the certified range of pieces.
- :func:`mv_delta_pure`, :func:`mv_delta`, :func:`mv_eps`: the exact heterogeneous optimum ([MV]
  Thm 1.5): the ``2^k`` subset sum by meet in the middle over exact rational privacy losses
  (``k <= MV_MAX_ENUM_K``), or, for any k, by the exact knapsack dynamic program over the
  privacy-loss lattice (:mod:`dpverify.theorems.numerics.lattice`); larger inputs are refused.
- :func:`mv_approx_delta_upper`: the lattice upper bound (``eps_i`` rounded up to multiples of
  ``step`` exactly, then the same dynamic program).

References
----------
- [KOV] P. Kairouz, S. Oh, P. Viswanath, *The Composition Theorem for Differential Privacy*,
  arXiv 1311.0776v4, Thm 3.3 (optimal composition).
- [MV] J. Murtagh, S. Vadhan, *The Complexity of Computing the Optimal Composition of
  Differential Privacy*, arXiv 1507.03113 (version not verified; Theory of Computing 14(8),
  2018), Thm 1.4 (homogeneous restatement), Thm 1.5 (heterogeneous optimum).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.core import InvalidParameter, fmt_fraction
from dpverify.theorems.ctx import FloatCtx, Interval, PrecisionExhausted, Unsupported
from dpverify.theorems.numerics.binomial import binomial_mode, binomial_sum, suffix_sums
from dpverify.theorems.numerics.mv_lattice import (
    MV_MAX_LATTICE_WORK,
    lattice_delta,
    rational_gcd,
    subset_sum_delta,
)
from dpverify.theorems.values import approx_float, exact_params, float_bounds, is_exact, to_ctx

# Exact MV-OPT: subset enumeration up to this many mechanisms (documented limit, MV-HARD).
MV_MAX_ENUM_K = 20


# ==========================================================================================
# Parameter helpers


def _exact_list(v: Any, name: str) -> tuple[Fraction, ...]:
    """An exact tuple of rationals (MV-OPT needs the privacy losses exactly)."""
    if isinstance(v, tuple | list) and all(is_exact(x) for x in v):
        return tuple(Fraction(x) for x in v)
    raise Unsupported(f"{name} must be given exactly (rationals) to this formula")


def is_wide_ball(x: Any) -> bool:
    """An arb ball that stands for a whole interval of parameters (wider than rounding)."""
    if not isinstance(x, flint.arb) or x.is_exact():
        return False
    scale = max(abs(float(x.mid())), 1.0)
    return bool(float(x.rad()) > scale * 2.0 ** (-(flint.ctx.prec // 2)))


def ball_ends(x: Any, floor: int | None = None) -> tuple[Any, Any]:
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


def is_inf(x: Any) -> bool:
    if isinstance(x, flint.arb):
        return not x.mid().is_finite() and x.mid() > 0
    try:
        return math.isinf(float(x)) and float(x) > 0
    except (TypeError, ValueError, OverflowError):
        return False


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
    if is_wide_ball(eps0) or is_wide_ball(eps):
        # A whole box of parameters: delta_pure is nondecreasing in eps0 (k-fold RR(eps0') is a
        # post-processing of k-fold RR(eps0) for eps0' <= eps0; KOV-DELTA claim 4) and
        # nonincreasing in eps (every summand is), so its range is spanned by two corners.
        e_lo, e_hi = ball_ends(eps0, floor=0)
        t_lo, t_hi = ball_ends(eps)
        return ctx.hull(kov_delta_pure(ctx, e_lo, k, t_hi), kov_delta_pure(ctx, e_hi, k, t_lo))
    if ctx.le(k * eps0, eps) is True:
        return ctx.zero  # every atom x_i <= k eps0 <= eps: no term is positive

    zero = ctx.zero

    def weight(i: int) -> Any:
        return ctx.max(-ctx.expm1(eps - (2 * i - k) * eps0), zero)

    if type(ctx) is FloatCtx:  # the doubles searches (DDR-FIG1) call it ~10^6 times
        weight = _float_weight(eps0, k, eps)
    return binomial_sum(ctx, eps0, k, _first_active(eps0, k, eps), k, weight)


def _float_weight(eps0: float, k: int, eps: float) -> Any:
    """:func:`kov_delta_pure`'s weight in :class:`FloatCtx` without its method calls: the same
    operations in the same order (``FloatCtx.expm1`` gives ``inf`` on overflow, ``Ctx.max`` is
    ``max``), so the same doubles."""
    expm1, inf = math.expm1, math.inf

    def weight(i: int) -> float:
        try:
            v = -expm1(eps - (2 * i - k) * eps0)
        except OverflowError:
            v = -inf
        return max(v, 0.0)

    return weight


def with_delta0(ctx: Any, delta0: Any, k: int, pure: Any) -> Any:
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
    return with_delta0(ctx, delta0, k, kov_delta_pure(ctx, eps0, k, eps))


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
    return with_delta0(ctx, delta0, k, total)


def kov33_delta_i(ctx: Any, eps0: Any, k: int, i: int) -> Any:
    """``delta_i = sum_{l=0}^{i-1} C(k,l) (e^{(k-l) eps0} - e^{(k-2i+l) eps0})/(1+e^eps0)^k``
    ([KOV] arXiv 1311.0776v4, Thm 3.3), each bracket as ``e^{(k-l) eps0}(1 - e^{-2(i-l) eps0})``."""
    norm = ctx.pow(1 + ctx.exp(eps0), k)
    return ctx.fsum(ctx.binomial(k, ll) * ctx.exp((k - ll) * eps0)
                    * -ctx.expm1(-2 * (i - ll) * eps0) for ll in range(i)) / norm


def kov33_point(ctx: Any, eps0: Any, delta0: Any, k: int, i: int) -> Any:
    """The delta of the Thm 3.3 point ``((k - 2i) eps0, 1 - (1-delta0)^k (1 - delta_i))``."""
    return with_delta0(ctx, delta0, k, kov33_delta_i(ctx, eps0, k, i))


# ------------------------------------------------------------------------------------------
# KOV-EPS: the exact piecewise inverse


def kov_target(ctx: Any, delta0: Any, delta: Any, k: int) -> tuple[int, Any]:
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

    mode = binomial_mode(e0, k)
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
    # each step at least halves hi - lo: an up-front limit on the steps, never a hang
    for _ in range(max(0, k - j0).bit_length() + 1):
        if lo >= hi:
            return lo
        mid = (lo + hi) // 2
        if _log_f_atom_float(e0, k, mid) <= log_t:
            hi = mid
        else:
            lo = mid + 1
    raise RuntimeError(f"the bisection on [{j0}, {k}] did not close: it is wrong")


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
    and ``A_b - e^{x_b} B_b <= T``; the answer is the largest candidate of the range. A guess
    that this does not certify (far off) is replaced by a bisection on certified comparisons.
    """
    eps0 = to_ctx(ctx, eps0)
    if (is_wide_ball(eps0) or isinstance(delta, Interval) or isinstance(delta0, Interval)
            or is_wide_ball(delta) or is_wide_ball(delta0)):
        # A whole box: eps_opt is nondecreasing in eps0 and delta0 (the class grows; T falls)
        # and nonincreasing in delta, so its range is spanned by two corners.
        e_lo, e_hi = ball_ends(eps0, floor=0)
        d0_lo, d0_hi = ball_ends(delta0, floor=0)
        d_lo, d_hi = ball_ends(delta)
        return ctx.hull(kov_eps(ctx, e_lo, d0_lo, k, d_hi), kov_eps(ctx, e_hi, d0_hi, k, d_lo))
    sign, t = kov_target(ctx, delta0, delta, k)
    if sign < 0:
        return ctx.inf
    if sign == 0:
        return k * eps0  # delta_pure(eps) = 0 exactly from the top atom x_k = k eps0 on
    at_zero = ctx.le(kov_delta_pure(ctx, eps0, k, ctx.zero), t)
    if at_zero is True:
        return ctx.zero
    j0 = (k + 1) // 2  # the first atom x_j >= 0
    log_t = approx_float(ctx.log(t))
    bracket = _certified_bracket(ctx, eps0, k, t, j0, _guess_piece(eps0, k, log_t, j0))
    if bracket is None:  # the float guess was far off (or undecided): bisect, certified
        j = _certified_piece(ctx, eps0, k, t, j0)
        bracket = None if j is None else _certified_bracket(ctx, eps0, k, t, j0, j)
    if bracket is None:
        raise PrecisionExhausted("could not certify the piece of the KOV-EPS inverse")
    big_a, big_b = bracket
    cands = []
    for aj, bj in zip(big_a, big_b, strict=True):
        gap = aj - t
        if ctx.lt(ctx.zero, gap) is True:
            cands.append(ctx.log(gap) - ctx.log(bj))
    if not cands:
        raise PrecisionExhausted("no candidate of the KOV-EPS inverse is certified positive")
    return ctx.max(ctx.zero, *cands)


def _certified_bracket(ctx: Any, eps0: Any, k: int, t: Any, j0: int,
                       j: int) -> tuple[list[Any], list[Any]] | None:
    """The suffix sums over a range ``[a, b]`` of pieces around ``j`` certified to contain the
    answer (``A_a - e^{x_{a-1}} B_a >= T`` and ``A_b - e^{x_b} B_b <= T``), widened at most
    12 times; None if that does not certify it."""
    a, b = max(j0, j - 1), min(k, j + 1)

    def x(i: int) -> Any:
        return (2 * i - k) * eps0

    for _ in range(12):
        big_a, big_b = suffix_sums(ctx, eps0, k, a, b)
        low_ok = True if a == j0 else ctx.le(t, big_a[0] - ctx.exp(x(a - 1)) * big_b[0])
        high_ok = True if b == k else ctx.le(big_a[-1] - ctx.exp(x(b)) * big_b[-1], t)
        if low_ok is True and high_ok is True:
            return big_a, big_b
        if low_ok is not True:
            a = max(j0, a - 1 if low_ok is False else a - 2)
        if high_ok is not True:
            b = min(k, b + 1 if high_ok is False else b + 2)
    return None


def _certified_piece(ctx: Any, eps0: Any, k: int, t: Any, j0: int) -> int | None:
    """The smallest ``j >= j0`` with ``delta_pure(x_j) = A_j - e^{x_j} B_j <= T``, by bisection
    on certified comparisons (``delta_pure(x_k) = 0 <= T``); None when one is undecided."""
    lo, hi = j0, k
    while lo < hi:
        mid = (lo + hi) // 2
        big_a, big_b = suffix_sums(ctx, eps0, k, mid, mid)
        below = ctx.le(big_a[0] - ctx.exp((2 * mid - k) * eps0) * big_b[0], t)
        if below is None:
            return None
        lo, hi = (lo, mid) if below else (mid + 1, hi)
    return lo


def _mv_method(eps_list: Sequence[Fraction]) -> tuple[str, Fraction]:
    k = len(eps_list)
    if k <= MV_MAX_ENUM_K:
        return "enumerate", Fraction(0)
    g = rational_gcd(eps_list)
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
        return subset_sum_delta(ctx, eps_list, eps)
    return lattice_delta(ctx, [int(e / g) for e in eps_list], g, eps)


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
    return lattice_delta(ctx, multiples, step, to_ctx(ctx, eps))
