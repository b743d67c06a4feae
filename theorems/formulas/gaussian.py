"""The Gaussian mechanism: its exact privacy profile (closed form, inverse, calibration), the
sufficient-condition tail of its PLD, its RDP curve, and independent routes to each (quadratures
over outputs or over the privacy loss, a Neyman–Pearson maximisation).

Quadrature routes run in mpmath, decided at two precisions with truncation below the working
precision (:mod:`dpverify.theorems.numerics.quadrature`); the three delta quadratures
(:func:`pld_expectation_quad`, :func:`gauss_delta_tail_quad`, :func:`gauss_delta_output_quad`)
are rigorous in arb as well: ``acb.integral`` of the (entire) integrand over the window plus the
tail beyond it, which each bounds by a Gaussian tail (:func:`acb_window_integral`).

References: [BW18] arXiv 1805.06530v2 Thm 8; [S22] arXiv 2210.00597v4 Secs. 3.1–3.3 and 4;
[CKS20] arXiv 2004.00010v4 Lemma 9; [DRS] arXiv 1905.02383 Cor. 2.13; [Mir17] arXiv 1702.07476v3
Def. 3 and Table II; [BS16] arXiv 1605.02065 Def. 1.1, Prop. 1.6.
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.numerics.ctx_search import golden_section_max
from dpverify.theorems.numerics.quadrature import (
    LOG2,
    absolute_accuracy,
    acb_window_integral,
    gauss_cutoff,
)


def npdf(ctx: Any, x: Any) -> Any:
    """Standard normal density ``phi(x) = e^{-x^2/2}/sqrt(2 pi)``."""
    return ctx.exp(-(x * x) / 2) / ctx.sqrt(2 * ctx.pi)


def normal_pdf(ctx: Any, z: Any, mean: Any, sd: Any) -> Any:
    """Density of ``N(mean, sd^2)`` at z."""
    return ctx.exp(-(((z - mean) / sd) ** 2) / 2) / (sd * ctx.sqrt(2 * ctx.pi))


def arb_bump_integral(ctx: Any, f: Any, centre: Any, sd: Any) -> Any:
    """``∫ f`` over the real line in arb, for a Gaussian bump ``f(y) = f(centre)
    e^{-(y - centre)^2/(2 sd^2)}`` (``log f`` quadratic in y with leading coefficient
    ``-1/(2 sd^2)`` and its vertex at ``centre``: read off each integrand's exponent where this
    is used): rigorous ``acb.integral`` over ``centre -/+ L sd`` (:func:`gauss_cutoff`) plus
    the two tails, ``f(centre) sd sqrt(2 pi) Phi(-d/sd)`` each at distance d."""
    w = gauss_cutoff(ctx) * sd
    lo, hi = centre - w, centre + w
    lo, hi = ctx.midpoint(lo, lo), ctx.midpoint(hi, hi)  # exact end points
    scale = f(centre) * sd * ctx.sqrt(2 * ctx.pi)
    tail = scale * (ctx.ncdf(-(centre - lo) / sd) + ctx.ncdf(-(hi - centre) / sd))
    return acb_window_integral(f, lo, hi, tail)


# ------------------------------------------------------------------------------------------
# Gaussian mechanism: closed forms


def gauss_delta(ctx: Any, sigma: Any, eps: Any) -> Any:
    """Exact privacy profile of the Gaussian mechanism with noise multiplier ``sigma``.

    ``delta(eps) = Phi(1/(2 sigma) - eps sigma) - e^eps Phi(-1/(2 sigma) - eps sigma)``
    ([BW18] arXiv 1805.06530v2, Thm 8, with Delta = 1; = [DRS] arXiv 1905.02383 Cor. 2.13 with
    mu = 1/sigma). Valid for every real eps. The two terms cancel when delta is tiny; the arb
    context absorbs this by raising precision until the enclosure is narrow.
    """
    a = 1 / (2 * sigma)
    b = eps * sigma
    return ctx.ncdf(a - b) - ctx.exp(eps) * ctx.ncdf(-a - b)


def gauss_eps(ctx: Any, sigma: Any, delta: Any) -> Any:
    """Least eps >= 0 with ``gauss_delta(sigma, eps) <= delta`` ([BW18] arXiv 1805.06530v2,
    Thm 8, inverted). delta is decreasing in eps, so the crossing is found by bisection (an
    enclosure in arb)."""
    return ctx.solve(lambda e: gauss_delta(ctx, sigma, e), delta, lo=0, hi=1)


def gauss_sigma(ctx: Any, eps: Any, delta: Any) -> Any:
    """Least sigma > 0 with ``gauss_delta(sigma, eps) <= delta``: the analytic calibration of
    [BW18] arXiv 1805.06530v2, Alg. 1 / Thm 8. delta is decreasing in sigma; we bisect on
    ``t = log sigma`` so that the search starts far below any useful sigma (e^-60).
    """
    t = ctx.solve(lambda t: gauss_delta(ctx, ctx.exp(t), eps), delta, lo=-60, hi=1)
    return ctx.exp(t)


def gauss_pld_mean(ctx: Any, sigma: Any) -> Any:
    """``rho = 1/(2 sigma^2)``: the Gaussian PLD is ``N(rho, 2 rho)`` ([S22] arXiv
    2210.00597v4, Sec. 3.1, with Delta = 1)."""
    return 1 / (2 * sigma**2)


def gauss_tail(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``P[Z > eps] = Phi(-(eps - rho)/sqrt(2 rho))`` with ``Z ~ N(rho, 2 rho)``, ``rho =
    1/(2 sigma^2)``: the sufficient-condition delta ([S22] arXiv 2210.00597v4, Sec. 3.1/3.3)."""
    rho = 1 / (2 * sigma**2)
    return ctx.ncdf(-(eps - rho) / ctx.sqrt(2 * rho))


# ------------------------------------------------------------------------------------------
# Gaussian mechanism: independent routes (quadrature in mpmath only)


def pld_expectation_quad(ctx: Any, rho: Any, eps: Any) -> Any:
    """``E[max(0, 1 - e^{eps - Z})]`` with ``Z ~ N(rho, 2 rho)`` by quadrature ([S22] arXiv
    2210.00597v4, Sec. 3.3; [CKS20] arXiv 2004.00010v4, Lemma 9)."""
    s = ctx.sqrt(2 * rho)
    hi = ctx.max(rho, eps) + gauss_cutoff(ctx) * s
    norm = 1 / (s * ctx.sqrt(2 * ctx.pi))

    def density(z: Any) -> Any:  # in [0, the N(rho, 2 rho) density] on z >= eps
        return -ctx.expm1(eps - z) * ctx.exp(-((z - rho) / s) ** 2 / 2) * norm

    if ctx.name == "arb":
        top = ctx.midpoint(hi, hi)
        return acb_window_integral(density, eps, top, ctx.ncdf(-(top - rho) / s))
    frho, fs = float(rho), float(s)

    def integrand(z: Any) -> Any:
        x = (float(z) - frho) / fs  # the integrand is at most the density, norm e^{-x^2/2}
        return absolute_accuracy(ctx, x * x / 2 / LOG2, lambda: density(z))

    pts = [eps, rho, hi] if rho > eps else [eps, hi]
    return ctx.quad(integrand, pts)


def gauss_delta_pld_quad(ctx: Any, sigma: Any, eps: Any) -> Any:
    """:func:`pld_expectation_quad` at ``rho = 1/(2 sigma^2)``."""
    return pld_expectation_quad(ctx, 1 / (2 * sigma**2), eps)


def gauss_delta_tail_quad(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``∫_eps^∞ e^{eps - z} P[Z > z] dz`` with ``Z ~ N(rho, 2 rho)`` ([S22] arXiv
    2210.00597v4, Sec. 3.3): only the law of Z enters.

    Far in the tail the integrand is evaluated to absolute accuracy only
    (:func:`absolute_accuracy`); the checks on this route use absolute tolerances.
    """
    rho = 1 / (2 * sigma**2)
    s = ctx.sqrt(2 * rho)
    hi = ctx.max(rho, eps) + gauss_cutoff(ctx) * s

    def value(z: Any) -> Any:
        return ctx.exp(eps - z) * ctx.ncdf(-(z - rho) / s)

    if ctx.name == "arb":  # beyond top >= eps: at most Phi(-(top - rho)/s) e^{eps - z}
        top = ctx.midpoint(hi, hi)
        return acb_window_integral(value, eps, top,
                                   ctx.ncdf(-(top - rho) / s) * ctx.exp(eps - top))
    pts = [eps, rho, hi] if rho > eps else [eps, hi]
    fe, frho, fs = float(eps), float(rho), float(s)

    def integrand(z: Any) -> Any:  # at most e^{eps - z} e^{-x^2/2} (x > 0)
        x = (float(z) - frho) / fs
        small_bits = ((float(z) - fe) + (x * x / 2 if x > 0 else 0.0)) / LOG2
        return absolute_accuracy(ctx, small_bits, lambda: value(z))

    return ctx.quad(integrand, pts)


def gauss_delta_output_quad(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``∫ (p - e^eps q)_+`` over outputs, ``p = N(1, sigma^2)``, ``q = N(0, sigma^2)`` (the
    hockey-stick divergence; catalogue DEF-DP).

    ``p >= e^eps q`` exactly when ``y >= sigma^2 eps + 1/2``, so the positive part is an
    integral over a half-line, truncated ``L`` standard deviations beyond ``max(y0, 1)``.
    """
    y0 = sigma**2 * eps + ctx.num(1) / 2
    norm = 1 / (sigma * ctx.sqrt(2 * ctx.pi))

    def gap(y: Any) -> Any:  # p - e^eps q: in [0, p(y)] on y >= y0
        return norm * (ctx.exp(-((y - 1) / sigma) ** 2 / 2) - ctx.exp(eps - (y / sigma) ** 2 / 2))

    hi = ctx.max(y0, ctx.one) + gauss_cutoff(ctx) * sigma
    if ctx.name == "arb":
        top = ctx.midpoint(hi, hi)
        return acb_window_integral(gap, y0, top, ctx.ncdf(-(top - 1) / sigma))
    fsig = float(sigma)

    def integrand(y: Any) -> Any:  # on y >= y0 it is at most p(y) = norm e^{-x^2/2}
        x = (float(y) - 1) / fsig
        return absolute_accuracy(ctx, x * x / 2 / LOG2, lambda: gap(y))

    pts = [y0, ctx.one, hi] if y0 < 1 else [y0, hi]
    return ctx.quad(integrand, pts)


def power_gap(ctx: Any, mu: Any, eps: Any, z: Any) -> Any:
    """``Phi(mu - z) - e^eps Phi(-z)``: power minus ``e^eps`` times the type-I error of the test
    ``{y > z}`` between ``N(mu, 1)`` and ``N(0, 1)`` ([S22] arXiv 2210.00597v4, Sec. 3.2)."""
    return ctx.ncdf(mu - z) - ctx.exp(eps) * ctx.ncdf(-z)


def power_gap_slope(ctx: Any, mu: Any, eps: Any, z: Any) -> Any:
    """``d/dz power_gap = e^eps phi(z) - phi(mu - z)``."""
    return ctx.exp(eps) * npdf(ctx, z) - npdf(ctx, mu - z)


def gauss_delta_neyman_pearson(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``sup_z [Phi(mu - z) - e^eps Phi(-z)]``, ``mu = 1/sigma``, by golden-section search on
    ``[z_c - 20, z_c + 20]`` with ``z_c = eps/mu + mu/2`` ([S22] arXiv 2210.00597v4, Sec. 3.2;
    catalogue STK-HT). By Neyman–Pearson the most powerful tests threshold the privacy loss,
    which is increasing in y, so the supremum over events is a supremum over thresholds.

    In arb the result is a rigorous enclosure of the supremum: the power gap is unimodal
    (STK-HT claim 2), every bracket step is certified, and over the final bracket ``[a, b]``
    ``sup f <= f(m) + max|f'| (b - a)/2`` (``m`` the midpoint).
    """
    mu = 1 / sigma
    zc = eps / mu + mu / 2
    return golden_section_max(ctx, lambda z: power_gap(ctx, mu, eps, z), zc - 20, zc + 20,
                              fprime=lambda z: power_gap_slope(ctx, mu, eps, z))


# ------------------------------------------------------------------------------------------
# Gaussian Rényi divergences (quadrature routes of MIR-RDP-GAUSS and STK-PLD-GAUSS)


def gauss_rdp_tau(ctx: Any, sigma: Any, alpha: Any) -> Any:
    """``tau(alpha) = alpha/(2 sigma^2)``: the RDP curve of the Gaussian mechanism with noise
    multiplier sigma ([Mir17] arXiv 1702.07476v3, the Gaussian-mechanism proposition and Table
    II, number not verified: ``alpha Delta^2/(2 sigma^2)``)."""
    return alpha / (2 * sigma**2)


def gauss_renyi_quad(ctx: Any, sigma: Any, alpha: Any) -> Any:
    """``D_alpha(N(1, s^2)||N(0, s^2)) = log(∫ p^alpha q^{1-alpha})/(alpha - 1)`` by quadrature
    ([Mir17] arXiv 1702.07476v3, Def. 3), the integrand formed in log space. The integrand is
    a Gaussian bump at ``y = alpha``; the window is ``alpha -/+ L s``."""
    s = sigma
    lnorm = ctx.log(s * ctx.sqrt(2 * ctx.pi))

    def bump(y: Any) -> Any:  # exponent: -(y - alpha)^2/(2 s^2) + const
        lp = -((y - 1) / s) ** 2 / 2 - lnorm
        lq = -(y / s) ** 2 / 2 - lnorm
        return ctx.exp(alpha * lp + (1 - alpha) * lq)

    if ctx.name == "arb":
        return ctx.log(arb_bump_integral(ctx, bump, alpha, s)) / (alpha - 1)
    fs, fa = float(s), float(alpha)

    def integrand(y: Any) -> Any:  # a Gaussian bump: e^{-x^2/2} times its peak value
        x = (float(y) - fa) / fs
        return absolute_accuracy(ctx, x * x / 2 / LOG2, lambda: bump(y))

    w = gauss_cutoff(ctx) * s
    return ctx.log(ctx.quad(integrand, [alpha - w, alpha, alpha + w])) / (alpha - 1)


def pld_mgf_renyi_quad(ctx: Any, rho: Any, alpha: Any) -> Any:
    """``log E[e^{(alpha-1) Z}]/(alpha - 1)`` with ``Z ~ N(rho, 2 rho)`` by quadrature: the Rényi
    divergence from the PLD's MGF ([S22] arXiv 2210.00597v4, Sec. 3; catalogue STK-PLD-DEF).
    The tilted density peaks at ``rho (2 alpha - 1)``; the window is that -/+ ``L sqrt(2 rho)``.
    """
    s = ctx.sqrt(2 * rho)
    norm = 1 / (s * ctx.sqrt(2 * ctx.pi))
    centre = rho * (2 * alpha - 1)
    w = gauss_cutoff(ctx) * s

    def bump(z: Any) -> Any:  # exponent: -(z - centre)^2/(2 s^2) + const
        return ctx.exp((alpha - 1) * z - ((z - rho) / s) ** 2 / 2) * norm

    if ctx.name == "arb":
        return ctx.log(arb_bump_integral(ctx, bump, centre, s)) / (alpha - 1)
    fs, fc = float(s), float(centre)

    def integrand(z: Any) -> Any:  # a Gaussian bump: e^{-x^2/2} times its peak value
        x = (float(z) - fc) / fs
        return absolute_accuracy(ctx, x * x / 2 / LOG2, lambda: bump(z))

    return ctx.log(ctx.quad(integrand, [centre - w, centre, centre + w])) / (alpha - 1)


# ------------------------------------------------------------------------------------------
# Gaussian PLD and Rényi quadratures (mpmath only): the routes of the zCDP entries


def pld_gauss_mgf_quad(ctx: Any, rho: Any, t: Any) -> Any:
    """``E[e^{tZ}]`` for ``Z ~ N(rho, 2 rho)`` by quadrature over z ([S22] Sec. 3.1 PLD)."""
    sd = ctx.sqrt(2 * rho)
    centre = rho + 2 * t * rho  # the tilted Gaussian's mean

    def tilted(z: Any) -> Any:  # exponent: -(z - centre)^2/(2 sd^2) + const
        return ctx.exp(t * z) * normal_pdf(ctx, z, rho, sd)

    if ctx.name == "arb":
        return arb_bump_integral(ctx, tilted, centre, sd)
    return ctx.quad(tilted, [-ctx.inf, centre - 8 * sd, centre, centre + 8 * sd, ctx.inf])


def pld_gauss_renyi_quad(ctx: Any, rho: Any, alpha: Any) -> Any:
    """``D_alpha = log E[e^{(alpha-1)Z}]/(alpha-1)`` with ``Z ~ N(rho, 2 rho)``: the Rényi
    divergence from the PLD's moment generating function ([S22] Sec. 3; [BS16] Def. 1.1)."""
    return ctx.log(pld_gauss_mgf_quad(ctx, rho, alpha - 1)) / (alpha - 1)


def pld_gauss_delta_quad(ctx: Any, rho: Any, eps: Any) -> Any:
    """``E[max(0, 1 - e^{eps - Z})]`` with ``Z ~ N(rho, 2 rho)`` by quadrature ([S22] Sec. 3.3,
    [CKS20] Lemma 9's identity); rigorous in arb (``acb.integral`` plus the Gaussian tail)."""
    sd = ctx.sqrt(2 * rho)
    a = ctx.max(eps, rho - 10 * sd)

    def density(z: Any) -> Any:  # in [0, the N(rho, 2 rho) density] on z >= eps
        return -ctx.expm1(eps - z) * normal_pdf(ctx, z, rho, sd)

    if ctx.name == "arb":  # rigorous: the window up to max(eps, rho) + W sd, the rest bounded
        top = ctx.max(eps, rho) + gauss_cutoff(ctx) * sd
        top = ctx.midpoint(top, top)
        return acb_window_integral(density, eps, top, ctx.ncdf(-(top - rho) / sd))
    return ctx.quad(density, [eps, a + sd, a + 4 * sd, a + 12 * sd, ctx.inf])


def gauss_renyi_exponent(ctx: Any, mean: Any, sigma: Any, alpha: Any, y: Any) -> Any:
    """``log(p(y)^alpha q(y)^{1-alpha}) + log(sigma sqrt(2 pi))`` for ``p = N(mean, sigma^2)``,
    ``q = N(0, sigma^2)``: ``-(alpha (y - mean)^2 + (1 - alpha) y^2)/(2 sigma^2)`` ([Mir17] arXiv
    1702.07476v3, Def. 3, the integrand of D_alpha)."""
    return -(alpha * (y - mean) ** 2 + (1 - alpha) * y**2) / (2 * sigma**2)


def gauss_renyi_output_quad(ctx: Any, mean: Any, sigma: Any, alpha: Any) -> Any:
    """``D_alpha(N(mean, sigma^2)||N(0, sigma^2)) = log ∫ p^alpha q^{1-alpha}/(alpha - 1)``
    by quadrature over the output space (the integrand is a Gaussian bump at alpha*mean)."""
    norm = 1 / (sigma * ctx.sqrt(2 * ctx.pi))

    def integrand(y: Any) -> Any:  # exponent: -(y - alpha mean)^2/(2 sigma^2) + const
        return norm * ctx.exp(gauss_renyi_exponent(ctx, mean, sigma, alpha, y))

    c = alpha * mean
    if ctx.name == "arb":
        return ctx.log(arb_bump_integral(ctx, integrand, c, sigma)) / (alpha - 1)
    return ctx.log(ctx.quad(integrand, [-ctx.inf, c - 8 * sigma, c, c + 8 * sigma, ctx.inf])) / (
        alpha - 1)


# ------------------------------------------------------------------------------------------
# Composition and zCDP of the Gaussian


def comp_gauss_delta(ctx: Any, sigma: Any, k: int, eps: Any) -> Any:
    """Exact profile of k Gaussian mechanisms with noise multiplier sigma: the PLD is
    ``N(k rho, 2 k rho)`` ([S22] arXiv 2210.00597v4, Sec. 4, composition = convolution of
    PLDs), i.e. the BW-ANALYTIC-GAUSS curve at ``sigma/sqrt(k)``."""
    return gauss_delta(ctx, sigma / ctx.sqrt(ctx.num(k)), eps)


def normal_pld_delta(ctx: Any, m: Any, eps: Any) -> Any:
    """``E[max(0, 1 - e^{eps - Z})]`` for ``Z ~ N(m, 2m)`` in closed form: ``Phi((m - eps)/s) -
    e^eps Phi((-m - eps)/s)``, ``s = sqrt(2m)`` ([S22] arXiv 2210.00597v4, Sec. 3.3, PLD form of
    the hockey-stick divergence). Derivation, independent of [BW18]: ``P[Z > eps] = Phi((m -
    eps)/s)`` and, tilting the normal law by ``e^{-z}`` (``E[e^{-Z} 1{Z > eps}] = e^{-m + s^2/2}
    P[N(m - s^2, s^2) > eps]`` with ``s^2 = 2m``), ``E[e^{-Z} 1{Z > eps}] = Phi((-m - eps)/s)``."""
    s = ctx.sqrt(2 * m)
    return ctx.ncdf((m - eps) / s) - ctx.exp(eps) * ctx.ncdf((-m - eps) / s)


def comp_gauss_eps(ctx: Any, sigma: Any, k: int, delta: Any) -> Any:
    """Least eps >= 0 with ``comp_gauss_delta(sigma, k, eps) <= delta`` ([S22] Sec. 4)."""
    return gauss_eps(ctx, sigma / ctx.sqrt(ctx.num(k)), delta)


def zcdp_gauss_rho(ctx: Any, sigma: Any) -> Any:
    """``rho = 1/(2 sigma^2)``: the Gaussian mechanism with noise multiplier sigma is rho-zCDP
    with equality ``D_alpha = alpha rho`` ([BS16] arXiv 1605.02065, Prop. 1.6; [S22] Sec. 4.1)."""
    return 1 / (2 * sigma**2)
