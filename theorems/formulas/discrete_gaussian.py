"""The discrete Gaussian ``N_Z(0, v)``, ``v = sigma^2`` with sigma the SCALE parameter (not the
standard deviation): ``P[X = x] = e^{-x^2/(2v)}/Z(v)``. Normalizer by direct summation or
Poisson summation, the exact privacy profile ([CKS20] Thm 7), the exact Rényi divergence, the
variance (direct, and through [CKS20] Lemma 20) and its bounds.

Every infinite sum is truncated with the rigorous tail bound of :mod:`.lattice_sums`
(``f(u) = u^k e^{-u^2/(2v)}``, ``sum_{j>=0} f(u0 + j) <= f(M)/(1 - r)``, ``r = (1 + 1/M)^k
e^{-(2M+1)/(2v)}``, for ``u0 >= M >= 1``, ``M^2 >= k v``), added as a ball ``[0, bound]`` in
arb, so arb values are certified enclosures.

References: [CKS20] Canonne, Kamath & Steinke, arXiv 2004.00010 (v3 numbering, as cited in the
authors' code IBM/discrete-gaussian-differential-privacy, commit cb190d2): Thm 7 (``cdp2adp.
dg_delta``, "arxiv v3 p.7 Theorem 7"), Lemma 20 (``discretegauss.variance``, "v3 p.17"), the
variance bounds as plotted in ``plots.plot_dg_var`` (proposition numbers not recovered). The
Rényi equality at integer orders and the shifted-normalizer form are derived (catalogue
CKS20-DGAUSS).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from dpverify.theorems.errors import PrecisionExhausted
from dpverify.theorems.formulas.lattice_sums import gauss_cutoff, gauss_lattice_tail, with_tail
from dpverify.theorems.values import approx_float, exact_params, float_bounds, is_exact

# v <= 1/(2 pi): the direct series converges at least as fast as the Poisson one (self-dual
# point v = 1/(2 pi) of v -> 1/(4 pi^2 v)); the float is a choice of route, not a decision
SELF_DUAL = 1 / (2 * math.pi)


def theta_tail(ctx: Any, v: Any, m: int) -> Any:
    """``sum_{x >= m} e^{-x^2/(2v)}`` for an integer ``m >= 0`` (rigorous tail in arb)."""
    cut = gauss_cutoff(ctx, v)
    end = m + cut
    total = ctx.fsum(ctx.exp(-ctx.num(x * x) / (2 * v)) for x in range(m, end))
    return with_tail(ctx, total, gauss_lattice_tail(ctx, v, end))


def dg_normalizer_direct(ctx: Any, v: Any) -> Any:
    """``Z(v) = sum_x e^{-x^2/(2v)} = 1 + 2 sum_{x >= 1} e^{-x^2/(2v)}`` (direct series)."""
    return 1 + 2 * theta_tail(ctx, v, 1)


def dg_normalizer_poisson(ctx: Any, v: Any) -> Any:
    """``Z(v) = sqrt(2 pi v) sum_y e^{-2 pi^2 v y^2} = sqrt(2 pi v) Z(1/(4 pi^2 v))`` (Poisson
    summation; [CKS20] arXiv 2004.00010, as stated in the catalogue CKS20-DGAUSS)."""
    w = 1 / (4 * ctx.pi**2 * v)
    return ctx.sqrt(2 * ctx.pi * v) * dg_normalizer_direct(ctx, w)


def dg_normalizer(ctx: Any, v: Any) -> Any:
    """``Z(v)`` by whichever series converges faster."""
    if float_bounds(v)[1] <= SELF_DUAL:
        return dg_normalizer_direct(ctx, v)
    return dg_normalizer_poisson(ctx, v)


def dg_upper_tail(ctx: Any, v: Any, lo: int, z: Any) -> Any:
    """``P[X >= lo]`` for an integer ``lo`` (``z = Z(v)``): ``theta_tail(lo)/Z`` for ``lo >=
    1``, and ``1 - theta_tail(1 - lo)/Z`` (symmetry) otherwise."""
    if lo >= 1:
        return theta_tail(ctx, v, lo) / z
    return 1 - theta_tail(ctx, v, 1 - lo) / z


def _thresholds(v: Fraction, eps: Fraction, sensitivity: int) -> tuple[int, int]:
    """``L = floor(eps v/D - D/2) + 1`` and ``U = floor(eps v/D + D/2) + 1`` (exact)."""
    t = eps * v / sensitivity
    half = Fraction(sensitivity, 2)
    return math.floor(t - half) + 1, math.floor(t + half) + 1


def _next_threshold(v: Fraction, eps: Fraction, sensitivity: int) -> Fraction:
    """The least eps' > eps at which ``eps' v/D - D/2`` or ``eps' v/D + D/2`` is an integer."""
    t = eps * v / sensitivity
    half = Fraction(sensitivity, 2)
    nxt = min(math.floor(t - half) + 1 + half, math.floor(t + half) + 1 - half)
    return nxt * sensitivity / v


@exact_params("v", "eps")
def dg_delta_v(ctx: Any, v: Fraction, eps: Fraction, sensitivity: int) -> Any:
    """[CKS20] arXiv 2004.00010v3, Thm 7 (as implemented in the authors' ``cdp2adp.dg_delta``):
    ``delta = P[X >= L] - e^eps P[X >= U]`` with ``L = floor(eps v/D - D/2) + 1``, ``U =
    floor(eps v/D + D/2) + 1`` (``= P[X > eps v/D - D/2] - e^eps P[X > eps v/D + D/2]``);
    ``v = sigma^2`` and ``eps`` exact rationals."""
    lo, up = _thresholds(v, eps, sensitivity)
    vv = ctx.num(v)
    z = dg_normalizer(ctx, vv)
    return dg_upper_tail(ctx, vv, lo, z) - ctx.exp(ctx.num(eps)) * dg_upper_tail(ctx, vv, up, z)


def _prev_threshold(v: Fraction, eps: Fraction, sensitivity: int) -> Fraction:
    """The greatest threshold ``<= eps`` (0 if none): the left end of eps's piece."""
    t = eps * v / sensitivity
    half = Fraction(sensitivity, 2)
    prev = max(math.floor(t - half) + half, math.floor(t + half) - half)
    return max(Fraction(0), prev * sensitivity / v)


def _threshold_below(v: Fraction, eps: Fraction, sensitivity: int) -> Fraction:
    """The greatest threshold ``< eps`` (0 if none): the left end of the previous piece."""
    t = eps * v / sensitivity
    half = Fraction(sensitivity, 2)
    prev = max(math.ceil(t - o) - 1 + o for o in (half, -half))
    return max(Fraction(0), prev * sensitivity / v)


@exact_params("v")
def dg_eps_v(ctx: Any, v: Fraction, delta: Any, sensitivity: int) -> Any:
    """Least ``eps >= 0`` with ``dg_delta_v(v, eps) <= delta`` (catalogue CKS20-DGAUSS).

    The profile is continuous and strictly decreasing in eps and, on each piece ``[T_i,
    T_{i+1})`` between consecutive thresholds (where ``L``, ``U`` are constant), equals ``A -
    e^eps B``, whose inverse is ``log((A - delta)/B)``. Exact-rational bisection locates the
    piece; where a ball comparison stays undecided (``delta`` equal to the profile at the
    point), the crossing is enclosed by the inverses of the piece and, at a threshold, of the
    previous piece (each exact on its side), after certifying the neighbouring thresholds."""
    delta = ctx.num(delta) if is_exact(delta) else delta
    vv = ctx.num(v)
    z = dg_normalizer(ctx, vv)

    def past(e: Fraction) -> bool | None:
        return ctx.le(dg_delta_v(ctx, v, e, sensitivity), delta)

    def inverse(e: Fraction) -> Any:  # the inverse on the piece holding e
        low, up = _thresholds(v, e, sensitivity)
        a, b = dg_upper_tail(ctx, vv, low, z), dg_upper_tail(ctx, vv, up, z)
        return ctx.log((a - delta) / b)

    def near(x: Fraction) -> Any:  # delta(x) is undecidedly close to delta
        p0, p1 = _prev_threshold(v, x, sensitivity), _next_threshold(v, x, sensitivity)
        if past(p1) is not True:
            raise PrecisionExhausted("cannot bracket the crossing at this precision")
        if x > p0:
            if past(p0) is not False:
                raise PrecisionExhausted("cannot bracket the crossing at this precision")
            return inverse(x)
        if p0 == 0:
            return ctx.hull(ctx.zero, inverse(x))
        pm = _threshold_below(v, p0, sensitivity)
        if past(pm) is not False:
            raise PrecisionExhausted("cannot bracket the crossing at this precision")
        return ctx.hull(inverse((pm + p0) / 2), inverse(x))

    lo = Fraction(0)
    state = past(lo)
    if state is True:
        return ctx.zero
    if state is None:
        return near(lo)
    hi = Fraction(1)
    while True:
        state = past(hi)
        if state is None:
            return near(hi)
        if state:
            break
        lo, hi = hi, 2 * hi
        if hi > 10**6:
            raise PrecisionExhausted("no eps <= 10^6 reaches this delta")
    while hi > _next_threshold(v, lo, sensitivity):
        mid = (lo + hi) / 2
        state = past(mid)
        if state is None:
            return near(mid)
        if state:
            hi = mid
        else:
            lo = mid
    # L, U are constant on [lo, next threshold) and the crossing lies in (lo, hi]; at hi = the
    # next threshold A - e^eps B is still the value, by continuity of the profile
    return inverse(lo)


@exact_params("v")
def dg_delta_enum(ctx: Any, v: Fraction, eps: Any, sensitivity: int) -> Any:
    """``sum_x (P(x) - e^eps P(x - D))_+`` by enumeration over ``-M <= x <= M + D``; each
    omitted term is at most ``P(x)``, so the remainder lies in ``[0, 2 theta_tail(M + 1)/Z]``."""
    vv = ctx.num(v) if is_exact(v) else v
    m = gauss_cutoff(ctx, vv)
    z = dg_normalizer_direct(ctx, vv)
    ee = ctx.exp(eps)

    def w(x: int) -> Any:
        return ctx.exp(-ctx.num(x * x) / (2 * vv))

    total = ctx.fsum(ctx.pos(w(x) - ee * w(x - sensitivity))
                     for x in range(-m, m + sensitivity + 1))
    return with_tail(ctx, total / z, 2 * gauss_lattice_tail(ctx, vv, m + 1) / z)


def shifted_theta(ctx: Any, v: Any, c: Any) -> Any:
    """``Z_c = sum_x e^{-(x - c)^2/(2v)}`` (any real c; rigorous tails on both sides)."""
    lo_c, hi_c = float_bounds(c)
    n0 = round(approx_float(c))
    spread = math.ceil((hi_c - lo_c) / 2) + 2
    k = gauss_cutoff(ctx, v) + spread
    total = ctx.fsum(ctx.exp(-(ctx.num(x) - c) ** 2 / (2 * v)) for x in range(n0 - k, n0 + k + 1))
    # every omitted x has |x - c| >= k + 1 - |n0 - c| >= k - spread + 1 >= 1
    return with_tail(ctx, total, 2 * gauss_lattice_tail(ctx, v, k - spread + 1))


def dg_renyi_v(ctx: Any, v: Any, alpha: Any, sensitivity: int) -> Any:
    """``D_alpha(N_Z(0, v) || N_Z(D, v)) = alpha D^2/(2v) + log(Z_c/Z)/(alpha - 1)``, ``c = (1 -
    alpha) D`` (derived, catalogue CKS20-DGAUSS): ``sum_x P(x)^alpha P(x - D)^{1-alpha}`` with
    the exponent ``-(alpha x^2 + (1-alpha)(x - D)^2)/(2v) = -(x - c)^2/(2v) + alpha(alpha - 1)
    D^2/(2v)`` completed to a square."""
    d = ctx.num(sensitivity)
    c = (1 - alpha) * d
    return alpha * d * d / (2 * v) + ctx.log(shifted_theta(ctx, v, c) / dg_normalizer(ctx, v)) / (
        alpha - 1)


def dg_variance_direct(ctx: Any, v: Any) -> Any:
    """``Var = 2 sum_{x >= 1} x^2 e^{-x^2/(2v)} / Z(v)`` (direct series, rigorous tail)."""
    m = gauss_cutoff(ctx, v)
    total = ctx.fsum(ctx.num(x * x) * ctx.exp(-ctx.num(x * x) / (2 * v)) for x in range(1, m + 1))
    second = with_tail(ctx, total, gauss_lattice_tail(ctx, v, m + 1, k=2))
    return 2 * second / dg_normalizer_direct(ctx, v)


def dg_variance_gap(ctx: Any, v: Any) -> Any:
    """``v - Var(v) = 4 pi^2 v^2 Var(1/(4 pi^2 v))`` ([CKS20] arXiv 2004.00010v3, Lemma 20,
    as implemented in the authors' ``discretegauss.variance``)."""
    w = 1 / (4 * ctx.pi**2 * v)
    return 4 * ctx.pi**2 * v * v * dg_variance_direct(ctx, w)


def dg_variance_dual(ctx: Any, v: Any) -> Any:
    """``Var(v) = v (1 - 4 pi^2 v Var(1/(4 pi^2 v)))`` ([CKS20] Lemma 20)."""
    return v - dg_variance_gap(ctx, v)


def dg_variance(ctx: Any, v: Any) -> Any:
    """``Var[N_Z(0, v)]`` by the faster of the direct series and Lemma 20."""
    if float_bounds(v)[1] <= SELF_DUAL:
        return dg_variance_direct(ctx, v)
    return dg_variance_dual(ctx, v)


def dg_variance_lower(ctx: Any, v: Any) -> Any:
    """``1/(e^{1/v} - 1) <= Var`` (as plotted in the [CKS20] authors' ``plots.plot_dg_var``;
    proposition number not recovered)."""
    return 1 / ctx.expm1(1 / v)


def dg_variance_upper(ctx: Any, v: Any) -> Any:
    """``Var <= v (1 - 4 pi^2 v/(e^{4 pi^2 v} - 1))``: the lower bound at ``1/(4 pi^2 v)``
    through Lemma 20 (``plots.plot_dg_var``; number not recovered)."""
    return v - dg_variance_upper_gap(ctx, v)


def dg_variance_upper_gap(ctx: Any, v: Any) -> Any:
    """``v - upper(v) = 4 pi^2 v^2/(e^{4 pi^2 v} - 1)``: the upper bound's distance below ``v``,
    without cancellation (compared with :func:`dg_variance_gap` over boxes of ``v``)."""
    t = 4 * ctx.pi**2 * v
    return v * t / ctx.expm1(t)


def dg_variance_small(ctx: Any, v: Any) -> Any:
    """``Var <= 3 e^{-1/(2v)}`` for ``v <= 1/3`` (``plots.plot_dg_var``; number not recovered)."""
    return 3 * ctx.exp(-1 / (2 * v))
