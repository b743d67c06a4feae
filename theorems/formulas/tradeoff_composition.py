"""Composition of trade-off functions: the exact Neyman-Pearson curve of finite pairs and of
products of randomized response, the exact GDP parameter of a piecewise-linear curve, and the
CLT approximations ([DRS] J. Dong, A. Roth, W. J. Su, arXiv 1905.02383, Def. 3.1, Thm 3.2,
Thm 3.4/3.5 (numbers recalled); tensorflow/privacy ``gdp_accountant.py``).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

from dpverify.theorems.errors import InvalidParameter
from dpverify.theorems.formulas.tradeoff import interpolate, ninv
from dpverify.theorems.values import fraction_near

MAX_RR_LIST = 12  # 2^12 outcomes enumerated by f_rr(eps_list, fpr)
MAX_RR_K = 2000

# ------------------------------------------------------------------------------------------
# Exact finite pairs (Fractions): the Neyman-Pearson construction (FDP-PLD-CONV, derived)

Pair = tuple[tuple[Fraction, ...], tuple[Fraction, ...]]


def np_vertices(p: tuple[Fraction, ...], q: tuple[Fraction, ...]) -> list[tuple[Fraction,
                                                                               Fraction]]:
    """Vertices ``(type-I, type-II)`` of ``T(P, Q)`` (null P): outcomes are rejected in decreasing
    order of ``q/p`` (Q-only outcomes first); equal ratios merge into one step."""
    def ratio(i: int) -> Fraction | float:
        return math.inf if p[i] == 0 else q[i] / p[i]

    order = sorted(range(len(p)), key=ratio, reverse=True)
    groups = [list(group) for _, group in itertools.groupby(order, key=ratio)]
    return np_vertices_in_order(p, q, groups, Fraction(0), Fraction(1))


def np_vertices_in_order(p: Any, q: Any, groups: Any, zero: Any, one: Any) -> list[tuple[Any,
                                                                                        Any]]:
    """The Neyman-Pearson vertices once the rejection order is known: ``groups`` lists the
    outcomes (indices) by decreasing ``q/p``, ties in one group; each group adds its P-mass to
    the type-I error and removes its Q-mass from the type-II error. Exact (Fractions) or
    symbolic (sympy masses, the order then stated as a hypothesis)."""
    a, b = zero, one
    out = [(a, b)]
    for group in groups:
        for i in group:
            a, b = a + p[i], b - q[i]
        out.append((a, b))
    return out


def np_curve(vertices: list[tuple[Fraction, Fraction]], a: Fraction) -> Fraction:
    """The linear interpolation of the vertices at ``a`` (exact)."""
    for (a0, b0), (a1, b1) in itertools.pairwise(vertices):
        if a <= a1:
            return b1 if a1 == a0 else b0 + (b1 - b0) * (a - a0) / (a1 - a0)
    return vertices[-1][1]


def hockey_stick(p: tuple[Any, ...], q: tuple[Any, ...], x: Any, max_: Any = max) -> Any:
    """``H_x(P || Q) = sum_i max(0, p_i - x q_i)`` (exact; ``max_ = sympy.Max`` for symbols)."""
    return sum((max_(0, pi - x * qi) for pi, qi in zip(p, q, strict=True)), Fraction(0))


def f_approx_exact(x: Any, delta: Any, a: Any, max_: Any = max) -> Any:
    """``f_{eps,delta}(a)`` with ``x = e^eps`` rational (exact; ``max_ = sympy.Max`` for
    symbols)."""
    return max_(0, 1 - delta - x * a, (1 - delta - a) / x)


def tpr_envelope_term(x: Any, delta: Any, a: Any, min_: Any = min) -> Any:
    """One term of dp_accounting's TPR bound ``min(1, x fpr + delta, 1 - (1 - delta - fpr)/x)``
    (``get_true_positive_rates``, commit b5b0286e; ``x = e^eps``): equal to ``1 -
    f_{eps,delta}(fpr)``."""
    return min_(1, x * a + delta, 1 - (1 - delta - a) / x)


def pld_vertices(p: tuple[Fraction, ...], q: tuple[Fraction, ...]) -> list[tuple[Fraction,
                                                                                Fraction]]:
    """The same vertices from the PLD alone: atoms ``r = p/q`` (``z = log r``) with P-masses,
    plus ``q_inf = Q(P = 0)``; atoms by increasing z, Q-mass of atom i is ``p_i / r_i``."""
    q_inf = sum((qi for pi, qi in zip(p, q, strict=True) if pi == 0), Fraction(0))
    atoms: dict[Fraction | float, Fraction] = {}
    for pi, qi in zip(p, q, strict=True):
        if pi > 0:
            r: Fraction | float = math.inf if qi == 0 else pi / qi
            atoms[r] = atoms.get(r, Fraction(0)) + pi
    a, b = Fraction(0), 1 - q_inf
    out = [(Fraction(0), Fraction(1)), (a, b)] if q_inf else [(a, b)]
    for r in sorted(atoms):
        a = a + atoms[r]
        b = b - (Fraction(0) if r == math.inf else atoms[r] / r)  # type: ignore[operator]
        out.append((a, b))
    return out


# ------------------------------------------------------------------------------------------
# Products of randomized response (DRS-TENSOR)


def _check_k(k: int) -> None:
    if not 1 <= k <= MAX_RR_K:
        raise InvalidParameter(f"k must be in [1, {MAX_RR_K}]; got {k}")


def rr_hom_vertices(ctx: Any, eps0: Any, k: int,
                    with_complements: bool = False) -> list[tuple[Any, ...]]:
    """Vertices of ``f_{eps0,0}^{⊗k}``, by increasing type-I error: rejecting when the number J
    of Q-favoured coordinates is ``>= t``, t = k+1, ..., 0: ``a_t = P(J >= t)``, ``b_t = Q(J <
    t)``, with ``P(J = j) = C(k,j) e^{(k-j) eps0}/(1 + e^eps0)^k`` (catalogue DRS-TENSOR,
    derived). Each coordinate is accumulated as a sum, never as ``1 -`` a sum."""
    _check_k(k)
    s = 1 + ctx.exp(eps0)
    pj = [ctx.binomial(k, j) * ctx.exp((k - j) * eps0 - k * ctx.log(s)) for j in range(k + 1)]
    qj = [ctx.binomial(k, j) * ctx.exp(j * eps0 - k * ctx.log(s)) for j in range(k + 1)]
    a_t = [ctx.zero] * (k + 2)
    for t in range(k, -1, -1):
        a_t[t] = a_t[t + 1] + pj[t]
    b_t = [ctx.zero] * (k + 2)
    for t in range(1, k + 2):
        b_t[t] = b_t[t - 1] + qj[t - 1]
    if not with_complements:
        return [(a_t[t], b_t[t]) for t in range(k + 1, -1, -1)]
    # 1 - a_t = P(J < t) and 1 - b_t = Q(J >= t), summed directly
    ca = [ctx.zero] * (k + 2)
    cb = [ctx.zero] * (k + 2)
    for t in range(1, k + 2):
        ca[t] = ca[t - 1] + pj[t - 1]
    for t in range(k, -1, -1):
        cb[t] = cb[t + 1] + qj[t]
    return [(a_t[t], b_t[t], ca[t], cb[t]) for t in range(k + 1, -1, -1)]


def f_rr_hom(ctx: Any, eps0: Any, k: int, fpr: Any) -> Any:
    """``f_{eps0,0}^{⊗k}(fpr)``: the exact k-fold RR curve ([DRS] arXiv 1905.02383, Def. 3.1,
    Thm 3.2, numbers recalled)."""
    return interpolate(ctx, rr_hom_vertices(ctx, eps0, k), fpr)


def rr_list_vertices(ctx: Any, eps_list: Any) -> list[tuple[Any, Any]]:
    """Neyman-Pearson vertices of ``×_i RR(eps_i)`` by enumeration of the ``2^n`` outcomes
    (n <= 12), rejected by increasing privacy loss ``sum_i ±eps_i``."""
    eps_list = list(eps_list)
    if not 1 <= len(eps_list) <= MAX_RR_LIST:
        raise InvalidParameter(f"eps_list must have 1 to {MAX_RR_LIST} entries; got "
                               f"{len(eps_list)}")
    keep = [ctx.exp(e) / (1 + ctx.exp(e)) for e in eps_list]
    # the order is decided on the exact midpoints: float sums of the losses tie or swap outcomes
    # whose losses differ below a float ulp (eps_i ~ 1e-16 next to eps_j = 3), and a swapped
    # pair puts the polyline above the true curve (DRS-TENSOR claim 6, thorough profile)
    exact = [fraction_near(ctx.midpoint(e, e)) for e in eps_list]
    outcomes = []
    for bits in itertools.product((0, 1), repeat=len(eps_list)):
        p = q = ctx.one
        loss = Fraction(0)
        for bit, kp, e in zip(bits, keep, exact, strict=True):
            p, q = (p * kp, q * (1 - kp)) if bit == 0 else (p * (1 - kp), q * kp)
            loss += e if bit == 0 else -e
        outcomes.append((loss, p, q))
    outcomes.sort(key=lambda o: o[0])  # lowest privacy loss (largest q/p) rejected first
    a, b = ctx.zero, ctx.one
    vertices = [(a, b)]
    for _, p, q in outcomes:
        a, b = a + p, b - q
        vertices.append((a, b))
    return vertices


def f_rr_list(ctx: Any, eps_list: Any, fpr: Any) -> Any:
    """``(⊗_i f_{eps_i,0})(fpr)``: the exact curve of the RR product ([DRS] arXiv 1905.02383,
    Def. 3.1, Thm 3.2, numbers recalled)."""
    return interpolate(ctx, rr_list_vertices(ctx, eps_list), fpr)


def profile_of_vertices(ctx: Any, vertices: list[tuple[Any, ...]], eps: Any) -> Any:
    """``1 + f*(-e^eps) = max over the vertices of 1 - b - e^eps a`` (f piecewise linear)."""
    x = ctx.exp(eps)
    return ctx.max(*(v[3] - x * v[0] if len(v) == 4 else 1 - v[1] - x * v[0]
                     for v in vertices))


def ninv_of(ctx: Any, p: Any, one_minus_p: Any) -> Any:
    """``Phi^{-1}(p)``, from the smaller of p and 1 - p (both given, both computed as sums)."""
    if ctx.le(p, ctx.num("1/2")) is True:
        return ninv(ctx, p)
    return -ninv(ctx, one_minus_p)


def mu_of_vertices(ctx: Any, vertices: list[tuple[Any, ...]]) -> Any:
    """``sup_a [Phi^{-1}(1 - a) - Phi^{-1}(f(a))]`` of a piecewise-linear f: attained at a vertex
    with ``0 < a``, ``0 < f(a)`` (G_mu is convex, so it lies below a segment iff below both
    ends; FDP-PLD-CONV, derived). ``1 - a`` is taken from ``sum`` of the complementary masses by
    each vertex as ``(a, b, 1 - a, 1 - b)``. In a context whose numbers compare and hash
    exactly (mp, fp), a quantile is computed once per pair ``(p, 1 - p)``: the vertices of a
    symmetric curve (``rr_hom_vertices``) repeat their masses, ``b_t = a_{k+1-t}`` bit for bit."""
    known: dict[tuple[Any, Any], Any] = {}
    exact = ctx.name in ("mp", "fp")

    def quantile(p: Any, cp: Any) -> Any:
        if not exact:
            return ninv_of(ctx, p, cp)
        if (p, cp) not in known:
            known[p, cp] = ninv_of(ctx, p, cp)
        return known[p, cp]

    best = None
    for a, b, ca, cb in vertices:
        if ctx.le(a, ctx.zero) is True or ctx.le(b, ctx.zero) is True:
            continue
        val = -quantile(a, ca) - quantile(b, cb)
        best = val if best is None else ctx.max(best, val)
    return best


def mu_rr(ctx: Any, eps0: Any, k: int) -> Any:
    """Exact GDP parameter of ``f_{eps0,0}^{⊗k}`` (least mu with the curve >= G_mu)."""
    return mu_of_vertices(ctx, rr_hom_vertices(ctx, eps0, k, with_complements=True))


def mu_rr_one(ctx: Any, eps0: Any) -> Any:
    """``2 Phi^{-1}(e^eps0/(1 + e^eps0))``: the k = 1 case in closed form, at the kink."""
    return -2 * ninv(ctx, 1 / (1 + ctx.exp(eps0)))


# ------------------------------------------------------------------------------------------
# CLT (APPROX; DRS-CLT)

BERRY_ESSEEN = Fraction(56, 100)  # [UNCERTAIN]: constant as recalled by the catalogue


def rr_kl(ctx: Any, eps0: Any) -> Any:
    """``kl(f_{eps0,0}) = eps0 tanh(eps0/2)`` (= KL(RR_0 || RR_1))."""
    return eps0 * ctx.tanh(eps0 / 2)


def rr_kl_moments(ctx: Any, eps0: Any) -> tuple[Any, Any]:
    """``(mean, variance)`` of the RR privacy loss from its two atoms ``±eps0`` directly."""
    x = 1 / (1 + ctx.exp(eps0))
    mean = (1 - x) * eps0 - x * eps0
    return mean, eps0**2 - mean**2


def clt_mu_rr(ctx: Any, eps0: Any, k: int) -> Any:
    """``2 sqrt(k) sinh(eps0/2)`` = ``2k kl/sqrt(k kappa2 - k kl^2)`` ([DRS] Thm 3.4, recalled)."""
    if k < 1:
        raise InvalidParameter(f"k must be >= 1; got {k}")
    return 2 * ctx.sqrt(ctx.num(k)) * (ctx.exp(eps0 / 2) - ctx.exp(-eps0 / 2)) / 2


def clt_gamma_rr(ctx: Any, eps0: Any, k: int) -> Any:
    """``0.56 kappa3bar/(sqrt(k) (eps0^2 - kl^2)^{3/2})`` ([DRS] Thm 3.5 as reconstructed by the
    catalogue, [UNCERTAIN])."""
    kl = rr_kl(ctx, eps0)
    x = 1 / (1 + ctx.exp(eps0))
    k3 = x * ctx.abs(eps0 + kl) ** 3 + (1 - x) * ctx.abs(eps0 - kl) ** 3
    var = eps0**2 - kl**2
    return ctx.num(BERRY_ESSEEN) * k3 / (ctx.sqrt(ctx.num(k)) * var * ctx.sqrt(var))


def clt_mu_uniform(ctx: Any, q: Any, sigma: Any, k: int) -> Any:
    """``sqrt(2) q sqrt(k (e^{1/sigma^2} Phi(1.5/sigma) + 3 Phi(-0.5/sigma) - 2))``: CLT of noisy
    SGD with sampling without replacement (tensorflow/privacy ``compute_mu_uniform``; [DRS]
    Sec. 5). APPROX."""
    inner = (ctx.exp(1 / sigma**2) * ctx.ncdf(ctx.num("1.5") / sigma)
             + 3 * ctx.ncdf(ctx.num("-0.5") / sigma) - 2)
    return ctx.sqrt(ctx.num(2)) * q * ctx.sqrt(ctx.num(k) * inner)


def sgm_max_event_gap(ctx: Any, q: Any, k: int, m: Any, eps: Any) -> Any:
    """``P^k(S) - e^eps Q^k(S)`` for ``S = {max_t y_t > m}``, per step ``P = (1-q)N(0,1) +
    qN(1,1)``, ``Q = N(0,1)`` (sigma = 1): a lower bound on ``H_{e^eps}(P^k || Q^k)``."""
    pk = 1 - ((1 - q) * ctx.ncdf(m) + q * ctx.ncdf(m - 1)) ** k
    qk = 1 - ctx.ncdf(m) ** k
    return pk - ctx.exp(eps) * qk


def dp_accounting_fpr_grid() -> list[Fraction]:
    """dp_accounting's default FPR grid ``np.logspace(log10(1e-12), log10(0.5), 500)`` (as the
    exact values of the float64 points, computed the way numpy does: 10**linspace)."""
    lo, hi = math.log10(1e-12), math.log10(0.5)
    return [Fraction(10 ** (lo + (hi - lo) * i / 499)) for i in range(500)]


def mu_estimate_rr(ctx: Any, eps0: Any, k: int) -> Any:
    """``max_{fpr in F} [Phi^{-1}(TPR(fpr)) - Phi^{-1}(fpr)]`` with the exact TPR of
    ``f_{eps0,0}^{⊗k}`` and dp_accounting's default F (``get_gdp_parameter_estimate``, commit
    b5b0286e, without PLD discretisation). APPROX: neither an upper nor a lower bound."""
    vertices = rr_hom_vertices(ctx, eps0, k)
    best = None
    for f in dp_accounting_fpr_grid():
        fpr = ctx.num(f)
        tpr = 1 - interpolate(ctx, vertices, fpr)
        val = ninv_of(ctx, tpr, 1 - tpr) - ninv(ctx, fpr)
        best = val if best is None else ctx.max(best, val)
    return best
