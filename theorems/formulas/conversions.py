"""Conversions between zCDP, RDP and (eps, delta)-DP, and zCDP composition.

- zCDP: composition ([BS16]), the Chernoff conversion ([BS16] Prop. 1.3), the calibration of
  [S22] Remark 15 and [BS16] Lemma 3.6 as quoted.
- RDP: the optimal pointwise bound of [CKS20] Prop. 12 and its zCDP infimum over alpha
  (certified: the stationary order is bracketed by bisection on ``s = log(alpha - 1)`` and the
  objective is evaluated on the bracket), [Mir17] Prop. 3 and [BBGHS20] Thm 21.

References: [BS16] arXiv 1605.02065; [S22] arXiv 2210.00597v4, Remark 15; [CKS20] arXiv
2004.00010v4, Prop. 12; [Mir17] arXiv 1702.07476v3, Prop. 3; [BBGHS20] arXiv 1905.09982, Thm 21.
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.numerics.ctx_search import bracket_increasing_root

# ------------------------------------------------------------------------------------------
# zCDP


def zcdp_comp_rho(ctx: Any, rho: Any, k: int) -> Any:
    """``k rho``: k-fold (adaptive) composition of rho-zCDP ([BS16] arXiv 1605.02065,
    composition lemma; [S22] Secs. 4.1–4.2)."""
    return k * rho


def zcdp_conv_eps(ctx: Any, rho: Any, delta: Any) -> Any:
    """``rho + 2 sqrt(rho log(1/delta))``: rho-zCDP implies this (eps, delta)-DP ([BS16] arXiv
    1605.02065, Prop. 1.3)."""
    return rho + 2 * ctx.sqrt(-rho * ctx.log(delta))


def zcdp_conv_delta(ctx: Any, rho: Any, eps: Any) -> Any:
    """``exp(-(eps - rho)^2/(4 rho))`` for eps >= rho, else 1 (no guarantee): the Chernoff form
    of [BS16] arXiv 1605.02065, Prop. 1.3 (proof: P[Z > eps] with the MGF bound)."""
    return ctx.piecewise_lt(eps, rho, lambda: ctx.one,
                            lambda: ctx.exp(-((eps - rho) ** 2) / (4 * rho)))


def remark15_rho(ctx: Any, eps: Any, delta: Any) -> Any:
    """``eps^2/(4 log(1/delta) + 4 eps)``: a rho for which rho-zCDP implies (eps, delta)-DP
    ([S22] arXiv 2210.00597v4, Remark 15)."""
    return eps**2 / (4 * (-ctx.log(delta)) + 4 * eps)


def bs16_delta_shift(ctx: Any, rho: Any, x: Any) -> Any:
    """The quoted [BS16] Lemma 3.6 delta at ``eps = rho + x`` (x >= 0): ``2 e^{-x^2/(4 rho)}/(1
    + a + sqrt((1 + a)^2 + 4/(pi rho)))`` with ``a = x/(2 rho)``."""
    a = x / (2 * rho)
    return 2 * ctx.exp(-(x**2) / (4 * rho)) / (
        1 + a + ctx.sqrt((1 + a) ** 2 + 4 / (ctx.pi * rho)))


def bs16_delta(ctx: Any, rho: Any, eps: Any) -> Any:
    """[BS16] arXiv 1605.02065, Lemma 3.6 as quoted by a secondary source (UNCERTAIN):
    ``delta = 2 e^{-(eps-rho)^2/(4 rho)}/(1 + a + sqrt((1 + a)^2 + 4/(pi rho)))``, ``a = (eps -
    rho)/(2 rho)``, for eps >= rho; 1 (no guarantee) below, as in STK-ZCDP-CONV."""
    return ctx.piecewise_lt(eps, rho, lambda: ctx.one,
                            lambda: bs16_delta_shift(ctx, rho, eps - rho))


def bs16_eps(ctx: Any, rho: Any, delta: Any) -> Any:
    """Least eps >= rho with ``bs16_delta(rho, eps) <= delta`` (bisection; the quoted delta is
    decreasing in eps >= rho)."""
    return rho + ctx.solve(lambda x: bs16_delta_shift(ctx, rho, x), delta, lo=0, hi=1)


# ------------------------------------------------------------------------------------------
# RDP to (eps, delta): [CKS20] Prop. 12, its zCDP infimum, [Mir17] and [BBGHS20]


def cks_delta_rdp(ctx: Any, alpha: Any, tau: Any, eps: Any) -> Any:
    """``exp((alpha-1)(tau - eps)) (1 - 1/alpha)^alpha/(alpha - 1)``: (alpha, tau)-RDP implies
    (eps, delta)-DP with this delta ([CKS20] arXiv 2004.00010v4, Prop. 12). Log space."""
    am1 = alpha - 1
    return ctx.exp(am1 * (tau - eps) + alpha * ctx.log(am1 / alpha) - ctx.log(am1))


def cks_delta_rdp_second_form(ctx: Any, alpha: Any, tau: Any, eps: Any) -> Any:
    """The same bound as ``exp((alpha-1)(tau - eps)) (1 - 1/alpha)^{alpha-1}/alpha`` (the form of
    the authors' code, [CKS20] Prop. 12 as implemented in TensorFlow Privacy)."""
    am1 = alpha - 1
    return ctx.exp(am1 * (tau - eps) + am1 * ctx.log1p(-1 / alpha) - ctx.log(alpha))


def _cks_log_delta_at(ctx: Any, rho: Any, eps: Any, s: Any) -> Any:
    """``F(alpha) = (alpha-1)(alpha rho - eps) + alpha log(1 - 1/alpha) - log(alpha - 1)`` at
    ``alpha = 1 + e^s``: the log of the RDP-form delta with tau = alpha rho."""
    e = ctx.exp(s)
    alpha = 1 + e
    return e * (alpha * rho - eps) + alpha * (s - ctx.log1p(e)) - s


def _cks_stationarity(ctx: Any, rho: Any, eps: Any, s: Any) -> Any:
    """``dF/dalpha = (2 alpha - 1) rho - eps + log(1 - 1/alpha)`` at ``alpha = 1 + e^s``;
    increasing in s (``d2F/dalpha2 = 2 rho + 1/(alpha(alpha - 1)) > 0``)."""
    e = ctx.exp(s)
    return (1 + 2 * e) * rho - eps + s - ctx.log1p(e)


def cks_delta(ctx: Any, rho: Any, eps: Any) -> Any:
    """``min(1, inf_{alpha > 1} exp((alpha-1)(alpha rho - eps)) (1-1/alpha)^alpha/(alpha-1))``:
    rho-zCDP implies (eps, delta)-DP ([CKS20] arXiv 2004.00010v4, Prop. 12 with tau = alpha rho;
    the zCDP corollary of Sec. 2.3).

    F = log of the bracket is strictly convex in alpha, with derivative -> -inf at 1+ and
    +inf at infinity: its unique stationary point is bracketed by certified bisection on
    ``s = log(alpha - 1)`` and F is evaluated on the whole bracket, so in arb the ball encloses
    the infimum itself.
    """
    start = ctx.min(ctx.zero, eps - 3 * rho) - 1  # there (1 + 2e^s) rho - eps + s < 0
    s = bracket_increasing_root(ctx, lambda v: _cks_stationarity(ctx, rho, eps, v), start)
    return ctx.min(ctx.one, ctx.exp(_cks_log_delta_at(ctx, rho, eps, s)))


def _cks_eps_objective(ctx: Any, rho: Any, L: Any, s: Any) -> Any:
    """``G(alpha) = alpha rho + log(1 - 1/alpha) + (L - log alpha)/(alpha - 1)``, the RDP-form
    eps at order alpha with tau = alpha rho ([CKS20] Prop. 12 solved for eps), at alpha = 1+e^s."""
    e = ctx.exp(s)
    lg = ctx.log1p(e)
    return (1 + e) * rho + (s - lg) + (L - lg) / e


def _cks_eps_stationarity(ctx: Any, rho: Any, L: Any, s: Any) -> Any:
    """``(alpha - 1)^2 dG/dalpha = rho (alpha-1)^2 - (L - log alpha)``, increasing in alpha."""
    e = ctx.exp(s)
    return rho * e**2 - L + ctx.log1p(e)


def cks_eps(ctx: Any, rho: Any, delta: Any) -> Any:
    """Least eps >= 0 with ``cks_delta(rho, eps) <= delta`` ([CKS20] Prop. 12), computed as
    ``max(0, inf_alpha G(alpha))``: for each alpha, ``delta_alpha(eps) <= delta`` iff ``eps >=
    G(alpha)``. ``G'`` has the sign of ``rho (alpha-1)^2 - log(1/delta) + log alpha`` (increasing,
    negative at 1+ since delta < 1), so G is unimodal; its stationary point is bracketed by
    certified bisection and G is evaluated on the bracket (an enclosure of the infimum)."""
    L = -ctx.log(delta)
    start = ctx.min(ctx.log(L / 4), ctx.log(L / (4 * rho)) / 2)
    s = bracket_increasing_root(ctx, lambda v: _cks_eps_stationarity(ctx, rho, L, v), start)
    return ctx.pos(_cks_eps_objective(ctx, rho, L, s))


def cks_eps_by_inversion(ctx: Any, rho: Any, delta: Any) -> Any:
    """The same eps by bisection of ``cks_delta(rho, eps)`` in eps (an independent route: it
    nests the delta-form infimum inside a monotone inversion)."""
    return ctx.solve(lambda e: cks_delta(ctx, rho, e), delta, lo=0, hi=1)


def mir_eps(ctx: Any, alpha: Any, tau: Any, delta: Any) -> Any:
    """``tau + log(1/delta)/(alpha - 1)``: (alpha, tau)-RDP implies (eps, delta)-DP ([Mir17]
    arXiv 1702.07476v3, Prop. 3)."""
    return tau - ctx.log(delta) / (alpha - 1)


def balle_eps_raw(ctx: Any, alpha: Any, tau: Any, delta: Any) -> Any:
    """``tau + log((alpha - 1)/alpha) - (log delta + log alpha)/(alpha - 1)`` ([BBGHS20] arXiv
    1905.09982, Thm 21; = [CKS20] arXiv 2004.00010v4 Prop. 12 solved for eps; [Aso20] Eq. 20),
    unclamped. It can be negative (alpha = 2, tau = 0.5, delta = 0.5 gives -0.193): as a bound
    on the hockey-stick divergence H_{e^eps} it holds for every real eps (the pointwise bound
    of [CKS20] Prop. 12 does not use the sign of eps), but (eps, delta)-DP takes eps >= 0."""
    am1 = alpha - 1
    return tau + ctx.log(am1 / alpha) - (ctx.log(delta) + ctx.log(alpha)) / am1


def balle_eps(ctx: Any, alpha: Any, tau: Any, delta: Any) -> Any:
    """``max(0, balle_eps_raw)``: (alpha, tau)-RDP implies (eps, delta)-DP with this eps >= 0
    ([BBGHS20] arXiv 1905.09982, Thm 21). Clamping is sound: H_{e^eps}(P||Q) is nonincreasing
    in eps, so (eps', delta) with eps' < 0 implies (0, delta). The theorem states 0 < delta < 1
    and no sign condition, while (eps, delta)-DP is defined for eps >= 0."""
    return ctx.pos(balle_eps_raw(ctx, alpha, tau, delta))


def balle_delta(ctx: Any, alpha: Any, tau: Any, eps: Any) -> Any:
    """The same bound solved for delta: CKS20-CONV.delta_rdp ([CKS20] Prop. 12)."""
    return cks_delta_rdp(ctx, alpha, tau, eps)
