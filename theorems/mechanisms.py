"""Primitive mechanisms: privacy loss, exact privacy curves and RDP curves of the Gaussian and
Laplace mechanisms.

Catalogue: ``privacy_loss.md`` (the primitive-mechanism entries the rest builds on).

Main results
------------
- STK-PLD-GAUSS: the Gaussian PLD ``N(rho, 2 rho)``, its mean and the sufficient-condition tail.
- STK-HT: the hypothesis-testing (Neyman–Pearson) route to the Gaussian profile, a golden-section
  maximisation of the power gap that gives a rigorous enclosure in arb, and the stationarity of
  the power gap at ``z = eps/mu + mu/2`` by SMT.
- STK-APPROX-PLD: the three PLD forms of the hockey-stick divergence (Gaussian and Laplace) and
  the two-term form on random finite pairs.
- BW-ANALYTIC-GAUSS: the exact (eps, delta) curve of the Gaussian mechanism, its inverse in eps
  and the analytic calibration of sigma, with three quadratures and a Neyman–Pearson
  maximisation as independent routes.
- STK-LAPLACE: the exact privacy profile of the Laplace mechanism and its inverse.
- DRS-GDP: mu-GDP, its profile, composition, rho, and the (APPROX) CLT of noisy SGD, which is
  shown not to be an upper bound against the exact one-step subsampled Gaussian.
- MIR-RDP-GAUSS, MIR-RDP-LAP: the RDP curves of the Gaussian and Laplace mechanisms.

Quadrature routes run in mpmath only (``Compare(..., ctx="mp")``): they are decided at two
precisions. Gaussian integrals are truncated ``L`` standard deviations from their centre and
exponential ones ``T`` scales from their kinks, with ``Phi(-L), e^{-T} <= 2^{-prec} e^{-16}``:
the truncation error sits below the working precision and is part of the two-precision check.

References
----------
- [BW18] B. Balle, Y.-X. Wang, *Improving the Gaussian Mechanism for Differential Privacy:
  Analytical Calibration and Optimal Denoising*, arXiv 1805.06530v2, Thm 8.
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Secs. 3.1–3.3 (theorem numbers beyond Thm 1 unverified).
- [CKS20] C. Canonne, G. Kamath, T. Steinke, *The Discrete Gaussian for Differential Privacy*,
  arXiv 2004.00010v4, Lemma 9 (number as cited by a co-author).
- [DRS] J. Dong, A. Roth, W. Su, *Gaussian Differential Privacy*, arXiv 1905.02383 (version
  not verified), Cor. 2.13, Cor. 3.3 and the CLT of Sec. 5 (numbers recalled).
- [Mir17] I. Mironov, *Rényi Differential Privacy*, arXiv 1702.07476v3, Prop. 6 (Laplace, number
  as in the catalogue) and Table II.
- [BBG18] B. Balle, G. Barthe, M. Gaboardi, *Privacy Amplification by Subsampling: Tight
  Analyses via Couplings and Divergences*, arXiv 1807.01647v2 (the dominating pair of the
  Poisson-subsampled Gaussian, catalogue SGM-1STEP-EXACT).
- [SteinkeBlog24] T. Steinke, *Tight RDP & zCDP Bounds from Pure DP*, differentialprivacy.org
  blog post (2024), Thms 4–5 as numbered in the catalogue (STK-PDP-ZCDP).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Generated,
    Points,
    Smt,
    SmtProblem,
    Tol,
    grid,
)
from dpverify.theorems.core import Evaluator, Source, Theorem
from dpverify.theorems.numerics import finite
from dpverify.theorems.params import (
    ALPHA,
    DELTA,
    EPS,
    EPS_REAL,
    MU,
    SENSITIVITY,
    SIGMA,
    B,
    K,
    Q,
)

FAMILY = "privacy_loss"

S22 = ("T. Steinke, Composition of Differential Privacy & Privacy Amplification by "
       "Subsampling")


# ------------------------------------------------------------------------------------------
# Shared helpers


def npdf(ctx: Any, x: Any) -> Any:
    """Standard normal density ``phi(x) = e^{-x^2/2}/sqrt(2 pi)``."""
    return ctx.exp(-(x * x) / 2) / ctx.sqrt(2 * ctx.pi)


def _exp_cutoff(ctx: Any) -> Any:
    """``T`` with ``e^{-T} = 2^{-prec} e^{-16}``: exponential tails beyond ``T`` scales are below
    the working precision."""
    return ctx.num(ctx.prec) * ctx.log(ctx.num(2)) + 16


def _gauss_cutoff(ctx: Any) -> Any:
    """``L`` with ``e^{-L^2/2} = 2^{-prec} e^{-16}`` (so ``Phi(-L)`` is smaller still)."""
    return ctx.sqrt(2 * _exp_cutoff(ctx))


def _exact(ctx: Any, x: Any) -> Any:
    """An exact point near ``x`` (the ball's midpoint in arb; ``x`` itself elsewhere)."""
    return ctx.midpoint(x, x)


def _absolute_accuracy(ctx: Any, small_bits: float, thunk: Any) -> Any:
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


_LOG2 = math.log(2)


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
    hi = ctx.max(rho, eps) + _gauss_cutoff(ctx) * s
    norm = 1 / (s * ctx.sqrt(2 * ctx.pi))
    frho, fs = float(rho), float(s)

    def integrand(z: Any) -> Any:
        x = (float(z) - frho) / fs  # the integrand is at most the density, norm e^{-x^2/2}
        return _absolute_accuracy(
            ctx, x * x / 2 / _LOG2,
            lambda: -ctx.expm1(eps - z) * ctx.exp(-((z - rho) / s) ** 2 / 2) * norm)

    pts = [eps, rho, hi] if rho > eps else [eps, hi]
    return ctx.quad(integrand, pts)


def gauss_delta_pld_quad(ctx: Any, sigma: Any, eps: Any) -> Any:
    """:func:`pld_expectation_quad` at ``rho = 1/(2 sigma^2)``."""
    return pld_expectation_quad(ctx, 1 / (2 * sigma**2), eps)


def gauss_delta_tail_quad(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``∫_eps^∞ e^{eps - z} P[Z > z] dz`` with ``Z ~ N(rho, 2 rho)`` ([S22] arXiv
    2210.00597v4, Sec. 3.3): only the law of Z enters.

    Far in the tail the integrand is evaluated to absolute accuracy only
    (:func:`_absolute_accuracy`); the checks on this route use absolute tolerances.
    """
    rho = 1 / (2 * sigma**2)
    s = ctx.sqrt(2 * rho)
    hi = ctx.max(rho, eps) + _gauss_cutoff(ctx) * s
    pts = [eps, rho, hi] if rho > eps else [eps, hi]
    fe, frho, fs = float(eps), float(rho), float(s)

    def integrand(z: Any) -> Any:  # at most e^{eps - z} e^{-x^2/2} (x > 0)
        x = (float(z) - frho) / fs
        small_bits = ((float(z) - fe) + (x * x / 2 if x > 0 else 0.0)) / _LOG2
        return _absolute_accuracy(ctx, small_bits,
                                  lambda: ctx.exp(eps - z) * ctx.ncdf(-(z - rho) / s))

    return ctx.quad(integrand, pts)


def gauss_delta_output_quad(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``∫ (p - e^eps q)_+`` over outputs, ``p = N(1, sigma^2)``, ``q = N(0, sigma^2)`` (the
    hockey-stick divergence; catalogue DEF-DP).

    ``p >= e^eps q`` exactly when ``y >= sigma^2 eps + 1/2``, so the positive part is an
    integral over a half-line, truncated ``L`` standard deviations beyond ``max(y0, 1)``.
    """
    y0 = sigma**2 * eps + ctx.num(1) / 2
    norm = 1 / (sigma * ctx.sqrt(2 * ctx.pi))
    fsig = float(sigma)

    def integrand(y: Any) -> Any:  # on y >= y0 it is at most p(y) = norm e^{-x^2/2}
        x = (float(y) - 1) / fsig
        return _absolute_accuracy(
            ctx, x * x / 2 / _LOG2,
            lambda: norm * (ctx.exp(-((y - 1) / sigma) ** 2 / 2)
                            - ctx.exp(eps - (y / sigma) ** 2 / 2)))

    hi = ctx.max(y0, ctx.one) + _gauss_cutoff(ctx) * sigma
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


def golden_section_max(ctx: Any, f: Any, a: Any, b: Any, fprime: Any = None) -> Any:
    """Maximum of a unimodal ``f`` on ``[a, b]`` by golden-section search.

    Near the maximiser f is flat to second order, so ``prec/2`` bits of the abscissa give the
    full precision of the value. In a rigorous context a step whose comparison of ``f(c)`` and
    ``f(d)`` is undecided is decided by the sign of ``fprime`` at ``d`` or ``c`` when that is
    certified (unimodality: ``f' > 0`` before the maximiser, ``< 0`` after); the search stops
    when neither decides. Given ``fprime`` it returns an enclosure ``[max(f(c), f(d)), f(m) +
    |f'([a, b])| (b - a)/2]`` of the supremum (without ``fprime``: a lower bound only).
    """
    invphi = (ctx.sqrt(ctx.num(5)) - 1) / 2
    a, b = _exact(ctx, a), _exact(ctx, b)
    c, d = _exact(ctx, b - invphi * (b - a)), _exact(ctx, a + invphi * (b - a))
    fc, fd = f(c), f(d)
    zero = ctx.zero
    for _ in range(int(ctx.prec * 0.75) + 20):
        right_lower = ctx.lt(fd, fc)  # True: f(c) > f(d), the maximiser lies in [a, d]
        if right_lower is None and fprime is not None:
            # f(c) and f(d) too close to order (f is flat at the top, or symmetric about the
            # maximiser): the sign of f' decides instead, as f' > 0 before the maximiser
            # and f' < 0 after it
            if ctx.lt(fprime(d), zero) is True:
                right_lower = True
            elif ctx.lt(zero, fprime(c)) is True:
                right_lower = False
        if right_lower is None:
            break  # undecided: the bracket cannot be narrowed rigorously at this precision
        if right_lower:
            b, d, fd = d, c, fc
            c = _exact(ctx, b - invphi * (b - a))
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = _exact(ctx, a + invphi * (b - a))
            fd = f(d)
    best = ctx.max(fc, fd)
    if not ctx.rigorous or fprime is None:
        return best
    m = ctx.midpoint(a, b)
    upper = f(m) + ctx.abs(fprime(ctx.hull(a, b))) * (b - a) / 2
    return ctx.hull(best, upper)


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
    fs, fa = float(s), float(alpha)

    def integrand(y: Any) -> Any:  # a Gaussian bump: e^{-x^2/2} times its peak value
        x = (float(y) - fa) / fs
        lp = -((y - 1) / s) ** 2 / 2 - lnorm
        lq = -(y / s) ** 2 / 2 - lnorm
        return _absolute_accuracy(ctx, x * x / 2 / _LOG2,
                                  lambda: ctx.exp(alpha * lp + (1 - alpha) * lq))

    w = _gauss_cutoff(ctx) * s
    return ctx.log(ctx.quad(integrand, [alpha - w, alpha, alpha + w])) / (alpha - 1)


def pld_mgf_renyi_quad(ctx: Any, rho: Any, alpha: Any) -> Any:
    """``log E[e^{(alpha-1) Z}]/(alpha - 1)`` with ``Z ~ N(rho, 2 rho)`` by quadrature: the Rényi
    divergence from the PLD's MGF ([S22] arXiv 2210.00597v4, Sec. 3; catalogue STK-PLD-DEF).
    The tilted density peaks at ``rho (2 alpha - 1)``; the window is that -/+ ``L sqrt(2 rho)``.
    """
    s = ctx.sqrt(2 * rho)
    norm = 1 / (s * ctx.sqrt(2 * ctx.pi))
    centre = rho * (2 * alpha - 1)
    w = _gauss_cutoff(ctx) * s

    fs, fc = float(s), float(centre)

    def integrand(z: Any) -> Any:  # a Gaussian bump: e^{-x^2/2} times its peak value
        x = (float(z) - fc) / fs
        return _absolute_accuracy(
            ctx, x * x / 2 / _LOG2,
            lambda: ctx.exp((alpha - 1) * z - ((z - rho) / s) ** 2 / 2) * norm)

    return ctx.log(ctx.quad(integrand, [centre - w, centre, centre + w])) / (alpha - 1)


# ------------------------------------------------------------------------------------------
# Laplace mechanism


def laplace_delta(ctx: Any, b: Any, eps: Any, sensitivity: Any) -> Any:
    """Exact privacy profile of ``Lap(0, b)`` vs ``Lap(Delta, b)``, ``eps0 = Delta/b``
    (catalogue STK-LAPLACE, derived; consistent with [S22] arXiv 2210.00597v4, Sec. 3):

    ``1 - e^eps`` for ``eps < -eps0``; ``1 - e^{(eps - eps0)/2}`` for ``-eps0 <= eps < eps0``;
    ``0`` for ``eps >= eps0``. Derivation: the privacy loss is ``eps0`` on ``y <= 0``,
    ``(Delta - 2y)/b`` on ``(0, Delta)`` and ``-eps0`` on ``y >= Delta``, so ``p > e^eps q``
    on ``y < (Delta - eps b)/2``, and integrating the two densities there gives the middle
    branch. The profile is continuous and the same in both orders (reflection ``y -> Delta -
    y``).
    """
    eps0 = sensitivity / b
    return ctx.piecewise_lt(
        eps, eps0,
        lambda: ctx.piecewise_lt(eps, -eps0, lambda: -ctx.expm1(eps),
                                 lambda: -ctx.expm1((eps - eps0) / 2)),
        lambda: ctx.zero,
    )


def laplace_eps(ctx: Any, b: Any, delta: Any, sensitivity: Any) -> Any:
    """Least eps >= 0 with ``laplace_delta(b, eps) <= delta``: ``max(0, eps0 + 2 ln(1 -
    delta))`` (catalogue STK-LAPLACE, derived: the inverse of the middle branch, clipped at 0
    where ``delta >= 1 - e^{-eps0/2} = laplace_delta(b, 0)``)."""
    eps0 = sensitivity / b
    return ctx.max(ctx.zero, eps0 + 2 * ctx.log1p(-delta))


def _laplace_densities(ctx: Any, b: Any, sensitivity: Any) -> tuple[Any, Any]:
    def p(y: Any) -> Any:
        return ctx.exp(-ctx.abs(y) / b) / (2 * b)

    def q(y: Any) -> Any:
        return ctx.exp(-ctx.abs(y - sensitivity) / b) / (2 * b)

    return p, q


def _laplace_breakpoints(ctx: Any, b: Any, sensitivity: Any, extra: list[Any]) -> list[Any]:
    """Kinks ``0, Delta`` and the given points inside ``(0, Delta)``, within the window
    ``[-T b, Delta + T b]``."""
    t = _exp_cutoff(ctx) * b
    inner = sorted({x for x in extra if 0 < x < sensitivity})
    return [-t, ctx.zero, *inner, sensitivity, sensitivity + t]


def laplace_delta_output_quad(ctx: Any, b: Any, eps: Any, sensitivity: Any,
                              reverse: bool = False) -> Any:
    """``∫ (p - e^eps q)_+`` (``reverse``: ``∫ (q - e^eps p)_+``) for ``p = Lap(0, b)``, ``q =
    Lap(Delta, b)``, by quadrature (the hockey-stick divergence; catalogue DEF-DP). The kinks of
    the positive part, ``(Delta -/+ eps b)/2``, are breakpoints when inside ``(0, Delta)``."""
    p, q = _laplace_densities(ctx, b, sensitivity)
    if reverse:
        p, q = q, p
    ee = ctx.exp(eps)
    kinks = [(sensitivity - eps * b) / 2, (sensitivity + eps * b) / 2]
    small = _laplace_small_bits(b, sensitivity)
    return ctx.quad(lambda y: _absolute_accuracy(ctx, small(y),
                                                 lambda: ctx.pos(p(y) - ee * q(y))),
                    _laplace_breakpoints(ctx, b, sensitivity, kinks))


def _laplace_small_bits(b: Any, sensitivity: Any) -> Any:
    """``y -> log2`` of the decay ``e^{-d/b}`` at distance ``d`` outside ``[0, Delta]``: both
    Laplace densities (and ``p^alpha q^{1-alpha}``) fall by this factor from their value at the
    nearer kink."""
    fb, fd = float(b), float(sensitivity)

    def small(y: Any) -> float:
        fy = float(y)
        dist = -fy if fy < 0 else (fy - fd if fy > fd else 0.0)
        return dist / fb / _LOG2

    return small


def laplace_delta_pld_quad(ctx: Any, b: Any, eps: Any, sensitivity: Any) -> Any:
    """``E[max(0, 1 - e^{eps - Z})]`` for the Laplace PLD ([S22] arXiv 2210.00597v4, Sec. 3.3):
    atoms ``+eps0`` (mass 1/2, outputs ``y <= 0``) and ``-eps0`` (mass ``e^{-eps0}/2``, ``y >=
    Delta``), plus the continuous part ``Z = (Delta - 2y)/b`` for ``y ~ p`` on ``(0, Delta)``,
    integrated over y."""
    eps0 = sensitivity / b

    def gain(z: Any) -> Any:
        return ctx.pos(-ctx.expm1(eps - z))

    atoms = gain(eps0) / 2 + gain(-eps0) * ctx.exp(-eps0) / 2
    y0 = (sensitivity - eps * b) / 2
    pts = [ctx.zero, *([y0] if 0 < y0 < sensitivity else []), sensitivity]
    cont = ctx.quad(lambda y: gain((sensitivity - 2 * y) / b) * ctx.exp(-y / b) / (2 * b), pts)
    return atoms + cont


def laplace_loss_survival(ctx: Any, b: Any, sensitivity: Any, z: Any) -> Any:
    """``P[Z > z]`` for ``Z ~ PrivLoss(Lap(0, b)||Lap(Delta, b))``: the loss is nonincreasing in
    the output y, so ``{Z > z} = {Y < (Delta - z b)/2}`` for ``|z| < eps0``, and the Laplace CDF
    ``1 - e^{-y/b}/2`` (``y >= 0``) gives ``1 - e^{-(eps0 - z)/2}/2``; 0 for ``z >= eps0``, 1 for
    ``z < -eps0``."""
    eps0 = sensitivity / b
    return ctx.piecewise_lt(
        z, eps0,
        lambda: ctx.piecewise_lt(z, -eps0, lambda: ctx.one,
                                 lambda: 1 - ctx.exp(-(eps0 - z) / 2) / 2),
        lambda: ctx.zero,
    )


def laplace_reverse_loss_cdf(ctx: Any, b: Any, sensitivity: Any, z: Any) -> Any:
    """``P[Z' < z]`` for ``Z' ~ PrivLoss(Lap(Delta, b)||Lap(0, b))``: ``Z' < z`` iff the forward
    loss at ``Y' ~ Lap(Delta, b)`` exceeds ``-z``, i.e. ``Y' < (Delta + z b)/2``; the CDF of
    ``Lap(Delta, b)`` below Delta is ``e^{(y - Delta)/b}/2``, giving ``e^{-(eps0 - z)/2}/2`` for
    ``|z| <= eps0``; 1 for ``z > eps0``, 0 for ``z <= -eps0``."""
    eps0 = sensitivity / b
    return ctx.piecewise_lt(
        -eps0, z,
        lambda: ctx.piecewise_lt(eps0, z, lambda: ctx.one,
                                 lambda: ctx.exp(-(eps0 - z) / 2) / 2),
        lambda: ctx.zero,
    )


def laplace_delta_two_term(ctx: Any, b: Any, eps: Any, sensitivity: Any) -> Any:
    """``P[Z > eps] - e^eps P[Z' < -eps]`` for the Laplace pair ([S22] arXiv 2210.00597v4,
    Sec. 3.3, second form), from the two Laplace CDFs."""
    return (laplace_loss_survival(ctx, b, sensitivity, eps)
            - ctx.exp(eps) * laplace_reverse_loss_cdf(ctx, b, sensitivity, -eps))


def laplace_delta_tail_quad(ctx: Any, b: Any, eps: Any, sensitivity: Any) -> Any:
    """``∫_eps^∞ e^{eps - z} P[Z > z] dz`` for the Laplace PLD ([S22] arXiv 2210.00597v4,
    Sec. 3.3, third form); ``P[Z > z] = 0`` above ``eps0``, so the range is finite."""
    eps0 = sensitivity / b
    if not eps < eps0:
        return ctx.zero
    pts = [eps, -eps0, eps0] if eps < -eps0 else [eps, eps0]
    return ctx.quad(lambda z: ctx.exp(eps - z) * laplace_loss_survival(ctx, b, sensitivity, z),
                    pts)


def laplace_rdp_tau(ctx: Any, b: Any, alpha: Any, sensitivity: Any) -> Any:
    """RDP curve of the Laplace mechanism ([Mir17] arXiv 1702.07476v3, Prop. 6 / Table II),
    ``eps0 = sensitivity/b``:
    ``(1/(alpha-1)) log(alpha/(2alpha-1) e^{(alpha-1) eps0} + (alpha-1)/(2alpha-1)
    e^{-alpha eps0})``."""
    eps0 = sensitivity / b
    inner = (alpha / (2 * alpha - 1) * ctx.exp((alpha - 1) * eps0)
             + (alpha - 1) / (2 * alpha - 1) * ctx.exp(-alpha * eps0))
    return ctx.log(inner) / (alpha - 1)


def laplace_renyi_quad(ctx: Any, b: Any, alpha: Any, sensitivity: Any) -> Any:
    """``D_alpha(Lap(0, b)||Lap(Delta, b))`` by quadrature of ``p^alpha q^{1-alpha}`` in log
    space ([Mir17] arXiv 1702.07476v3, Def. 3), with breakpoints at the kinks 0 and Delta."""
    def integrand(y: Any) -> Any:
        lp = -ctx.abs(y) / b
        lq = -ctx.abs(y - sensitivity) / b
        return ctx.exp(alpha * lp + (1 - alpha) * lq) / (2 * b)

    small = _laplace_small_bits(b, sensitivity)
    total = ctx.quad(lambda y: _absolute_accuracy(ctx, small(y), lambda: integrand(y)),
                     _laplace_breakpoints(ctx, b, sensitivity, []))
    return ctx.log(total) / (alpha - 1)


# ------------------------------------------------------------------------------------------
# Gaussian DP


def gdp_delta(ctx: Any, mu: Any, eps: Any) -> Any:
    """``delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``: mu-GDP is equivalent
    to (eps, delta(eps))-DP for all eps ([DRS] arXiv 1905.02383, Cor. 2.13, number recalled)."""
    return ctx.ncdf(-eps / mu + mu / 2) - ctx.exp(eps) * ctx.ncdf(-eps / mu - mu / 2)


def gdp_eps(ctx: Any, mu: Any, delta: Any) -> Any:
    """Least eps >= 0 with ``gdp_delta(mu, eps) <= delta`` (bisection; decreasing in eps)."""
    return ctx.solve(lambda e: gdp_delta(ctx, mu, e), delta, lo=0, hi=1)


def gdp_mu_k(ctx: Any, mu: Any, k: int) -> Any:
    """``sqrt(k) mu``: k-fold composition of mu-GDP ([DRS] arXiv 1905.02383, Cor. 3.3)."""
    return ctx.sqrt(ctx.num(k)) * mu


def gdp_rho(ctx: Any, mu: Any) -> Any:
    """``mu^2/2``: mu-GDP implies (mu^2/2)-zCDP (catalogue DRS-GDP; the Gaussian PLD
    ``N(mu^2/2, mu^2)`` has ``D_alpha = alpha mu^2/2``)."""
    return mu**2 / 2


def gdp_mu_clt(ctx: Any, q: Any, sigma: Any, k: int) -> Any:
    """``q sqrt(k) sqrt(e^{1/sigma^2} - 1)``: the CLT approximation of Poisson-subsampled noisy
    SGD ([DRS] arXiv 1905.02383, Sec. 5, CLT for noisy SGD; number recalled). APPROX: not a
    privacy guarantee (DRS-GDP claim 3)."""
    return q * ctx.sqrt(ctx.num(k)) * ctx.sqrt(ctx.expm1(1 / sigma**2))


# ------------------------------------------------------------------------------------------
# Local helpers for cross-entry claims (the entries themselves are encoded elsewhere)


def _rr_rdp_tau(ctx: Any, eps0: Any, alpha: Any) -> Any:
    """Sharp RDP curve of eps0-DP, attained by randomized response ([SteinkeBlog24], Thm 4 as
    numbered in the catalogue; = ``D_alpha(RR(eps0))``, [Mir17] arXiv 1702.07476v3, Def. 3):
    ``(1/(alpha-1)) log(e^{alpha eps0}/(e^eps0 + 1) + e^eps0 e^{-alpha eps0}/(e^eps0 + 1))``
    (catalogue STK-PDP-ZCDP.tau)."""
    ee = ctx.exp(eps0)
    inner = (ctx.exp(alpha * eps0) + ee * ctx.exp(-alpha * eps0)) / (ee + 1)
    return ctx.log(inner) / (alpha - 1)


# ------------------------------------------------------------------------------------------
# Regions

# The four regimes of STK-HT claim 1, as noise multipliers (Delta, sigma) -> sigma/Delta.
GAUSS_REGIMES = Points((
    {"sigma": "1", "eps": "1"},
    {"sigma": "0.5", "eps": "3"},
    {"sigma": "2.5", "eps": "0.3"},
    {"sigma": "0.2", "eps": "40"},
))

# The four (eps0, eps) points of STK-LAPLACE's claims; Delta = 1, b = 1/eps0.
LAPLACE_POINTS = Points((
    {"eps0": "1", "eps": "0.3"},
    {"eps0": "2", "eps": "0"},
    {"eps0": "0.5", "eps": "0.49"},
    {"eps0": "3", "eps": "3.5"},
))


def _lap(route: Any) -> Any:
    """A Laplace term at ``b = 1/eps0``, sensitivity 1 (the catalogue's claim points)."""
    return lambda ctx, eps0, eps, **_: route(ctx, 1 / eps0, eps, ctx.one)


# ------------------------------------------------------------------------------------------
# STK-PLD-GAUSS


def _pld_gauss_claims() -> tuple[Claim, ...]:
    return (
        Claim(
            1,
            "D_alpha from the PLD MGF, log E[e^{(alpha-1)Z}]/(alpha-1) with Z ~ N(rho, 2 rho), "
            "equals alpha*rho for alpha in {1.5, 3, 7.25} to 1e-45 (rho = 0.37).",
            (
                Compare(lambda ctx, rho, alpha, **_: pld_mgf_renyi_quad(ctx, rho, alpha), "eq",
                        lambda ctx, rho, alpha, **_: alpha * rho,
                        grid(rho=["0.37"], alpha=["1.5", "3", "7.25"]), "numeric",
                        Tol.abs("1e-45"), "PLD-MGF quadrature", "alpha*rho", ctx="mp"),
            ),
        ),
        Claim(
            2,
            "Direct quadrature of D_alpha(N(1, s^2)||N(0, s^2)) equals alpha/(2 s^2) "
            "(MIR-RDP-GAUSS) to 1e-40 (here at (s, alpha) = (1, 2), (0.5, 4.5), (3, 1.25); "
            "MIR-RDP-GAUSS claim 1 covers s^2 = 1/0.74).",
            (
                Compare(gauss_renyi_quad, "eq", gauss_rdp_tau,
                        Points(({"sigma": "1", "alpha": "2"}, {"sigma": "0.5", "alpha": "4.5"},
                                {"sigma": "3", "alpha": "1.25"})),
                        "numeric", Tol.abs("1e-40"), "Rényi quadrature", "alpha/(2 s^2)",
                        ctx="mp"),
            ),
        ),
        Claim(
            3,
            "tail(sigma, eps) > BW-ANALYTIC-GAUSS.delta(sigma, eps) for all sigma > 0 and real "
            "eps: the sufficient condition is strictly conservative, hence not necessary.",
            (
                Compare(gauss_tail, "gt", gauss_delta,
                        Box(reals={"sigma": ("0.05", "20"), "eps": ("-20", "40")},
                            log_scale=frozenset({"sigma"})),
                        "property", lhs_name="P[Z > eps]", rhs_name="BW delta(sigma, eps)"),
            ),
        ),
    )


STK_PLD_GAUSS = Theorem(
    id="STK-PLD-GAUSS",
    title="PLD of Gaussian noise addition",
    family=FAMILY,
    source=Source(S22, "Sec. 3.1", arxiv="2210.00597", version="v4"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "If P = N(mu, sigma^2 I_d) and Q = N(mu', sigma^2 I_d), then PrivLoss(P||Q) = "
        "N(rho, 2 rho) with rho = ||mu - mu'||^2/(2 sigma^2); the PLD is symmetric in the pair. "
        "For the Gaussian mechanism with L2-sensitivity Delta the worst case is rho = "
        "Delta^2/(2 sigma^2)."
    ),
    domain="sigma > 0, d >= 1",
    evaluators=(
        Evaluator("mean", (SIGMA,), gauss_pld_mean,
                  "rho = 1/(2 sigma^2) (the PLD is N(rho, 2 rho))"),
        Evaluator("tail", (SIGMA, EPS_REAL), gauss_tail,
                  "P[Z > eps] = Phi(-(eps - rho)/sqrt(2 rho)), the sufficient-condition delta "
                  "of STK-APPROX-PLD"),
    ),
    claims=_pld_gauss_claims(),
    notes="The k-fold law N(k rho, 2k rho) is STK-COMP-PLD.",
)


# ------------------------------------------------------------------------------------------
# STK-HT


def _ht_stationarity(case: str) -> Any:
    """The SMT problem of STK-HT claim 2 for one side of the threshold ``z_s``.

    The power gap ``g(z) = Phi(mu - z) - e^eps Phi(-z)`` has ``g'(z) = phi(z) (x - r)`` with
    ``x = e^eps`` and ``r = phi(z - mu)/phi(z) = e^{l(z)}``, ``l(z) = (z^2 - (z - mu)^2)/2`` the
    log-likelihood ratio of ``N(mu, 1)`` vs ``N(0, 1)`` at z. With ``w = e^{l(z) - eps}`` (so
    ``r = x w``), the facts ``w >= 1 + u`` and ``w (1 - u) <= 1`` (``e^t >= 1 + t`` at ``t =
    +/-u``, ``u = l(z) - eps``) are polynomial. The goal: ``x - r`` is positive below ``z_s``,
    zero at ``z_s`` and negative above, where ``mu z_s = eps + mu^2/2``. So ``z_s = eps/mu +
    mu/2`` is the unique maximiser, and there the likelihood ratio ``r`` equals ``e^eps``.
    """

    def build() -> SmtProblem:
        import sympy as sp

        mu, eps, z, zs, x, w = sp.symbols("mu eps z z_s x w", real=True)
        u = (z**2 - (z - mu) ** 2) / 2 - eps
        r = x * w
        hyps: list[Any] = [mu > 0, sp.Eq(mu * zs, eps + mu**2 / 2), x > 0, w > 0,
                           w >= 1 + u, w * (1 - u) <= 1]
        if case == "below":
            hyps.append(z < zs)
            goal = sp.StrictGreaterThan(x - r, 0)
        elif case == "above":
            hyps.append(z > zs)
            goal = sp.StrictLessThan(x - r, 0)
        else:
            hyps.append(sp.Eq(z, zs))
            goal = sp.Eq(x - r, 0)
        return SmtProblem(
            variables={str(v): "real" for v in (mu, eps, z, zs, x, w)},
            hypotheses=tuple(hyps),
            goal=goal,
            substitutions=("x = e^eps", "w = e^(l(z) - eps), l(z) = (z^2 - (z - mu)^2)/2",
                           "r = x w = phi(z - mu)/phi(z)", "g'(z) = phi(z) (x - r)"),
        )

    return build


def _likelihood_ratio_at_threshold(ctx: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    """``phi(z - mu)/phi(z)`` at ``z = eps/mu + mu/2`` (``mu = 1/sigma``)."""
    mu = 1 / sigma
    z = eps / mu + mu / 2
    return npdf(ctx, z - mu) / npdf(ctx, z)


def _ht_claims() -> tuple[Claim, ...]:
    smt_text = {
        "below": "g' > 0 below z_s = eps/mu + mu/2",
        "at": "g' = 0 at z_s (likelihood ratio = e^eps)",
        "above": "g' < 0 above z_s",
    }
    return (
        Claim(
            1,
            "The Neyman–Pearson maximisation reproduces the Balle–Wang closed form to 1e-30 in "
            "4 regimes (Delta, sigma, eps) = (1, 1, 1), (1, 0.5, 3), (2, 5, 0.3), (1, 0.2, 40) "
            "(noise multipliers 1, 0.5, 2.5, 0.2). (The catalogue says these cover delta from "
            "about 1e-3 to 1e-40; in fact delta is 0.127, 0.184, 0.0603 and 8.8e-9.)",
            (
                Compare(gauss_delta_neyman_pearson, "eq", gauss_delta, GAUSS_REGIMES, "numeric",
                        Tol.abs("1e-30"), "Neyman–Pearson maximisation (arb enclosure)",
                        "BW closed form"),
            ),
        ),
        Claim(
            2,
            "The maximising threshold is z = eps/mu + mu/2, where the likelihood ratio equals "
            "e^eps.",
            (
                *(Smt(_ht_stationarity(case), f"after x = e^eps: {text}")
                  for case, text in smt_text.items()),
                Compare(_likelihood_ratio_at_threshold, "eq",
                        lambda ctx, eps, **_: ctx.exp(eps), GAUSS_REGIMES, "numeric",
                        Tol.rel("1e-40"), "phi(z_s - mu)/phi(z_s)", "e^eps"),
            ),
        ),
    )


STK_HT = Theorem(
    id="STK-HT",
    title="Hypothesis-testing view",
    family=FAMILY,
    source=Source(S22, "Sec. 3.2", arxiv="2210.00597", version="v4"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "By Neyman–Pearson the most powerful tests between P = M(x) and Q = M(x') threshold the "
        "privacy loss. (eps, delta) for the ordered pair is equivalent to 1 - b <= e^eps a + "
        "delta for every test with type-I error a = Q(S) and power 1 - b = P(S), so delta(eps) "
        "= sup_S [P(S) - e^eps Q(S)]. For the Gaussian with mu = Delta/sigma the trade-off curve "
        "is b(a) = Phi(Phi^{-1}(1 - a) - mu) (the f-DP / GDP view, DRS-GDP)."
    ),
    domain="eps real; for the Gaussian, sigma > 0",
    evaluators=(
        Evaluator("delta", (SIGMA, EPS_REAL), gauss_delta_neyman_pearson,
                  "sup_z [Phi(mu - z) - e^eps Phi(-z)], mu = 1/sigma, by golden-section "
                  "maximisation over the threshold on [z_c - 20, z_c + 20], z_c = eps/mu + mu/2 "
                  "(an independent route to BW-ANALYTIC-GAUSS.delta)"),
    ),
    claims=_ht_claims(),
    notes="The maximisation is an independent, slower route for testing BW-ANALYTIC-GAUSS; in "
          "arb it encloses the supremum rigorously (certified bracket steps plus a mean-value "
          "bound over the final bracket).",
)


# ------------------------------------------------------------------------------------------
# STK-APPROX-PLD


def _finite_two_term(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
    """``P[Z > eps] - e^eps P[Z' < -eps]`` from the PLD atoms of ``(P, Q)`` and ``(Q, P)``
    ([S22] arXiv 2210.00597v4, Sec. 3.3); losses of ``+inf`` (``Q(y) = 0``) count in
    ``P[Z > eps]``."""
    forward = finite.privacy_loss_atoms(ctx, p, q)
    reverse = finite.privacy_loss_atoms(ctx, q, p)
    above = ctx.fsum(ctx.piecewise_lt(eps, z, lambda m=m: m, lambda: ctx.zero)
                     for z, m in forward)
    below = ctx.fsum(ctx.piecewise_lt(z, -eps, lambda m=m: m, lambda: ctx.zero)
                     for z, m in reverse)
    return above - ctx.exp(eps) * below


def _draw_pair_eps(rng: random.Random) -> dict[str, Any]:
    p, q = finite.random_pair(rng, allow_zero=rng.random() < 0.3)
    return {"p": p, "q": q, "eps": Fraction(rng.randint(-250, 250), 100)}


def _approx_pld_claims() -> tuple[Claim, ...]:
    def gauss(route: Any, name: str) -> Compare:
        return Compare(route, "eq", gauss_delta, GAUSS_REGIMES, "numeric", Tol.abs("1e-40"),
                       name, "BW closed form", ctx="mp")

    def lap(route: Any, name: str, arb: bool = False) -> Compare:
        return Compare(_lap(route), "eq", _lap(laplace_delta), LAPLACE_POINTS, "numeric",
                       Tol.abs("1e-40"), name, "Laplace closed form",
                       ctx="arb" if arb else "mp")

    return (
        Claim(1, "The PLD expectation E[max(0, 1 - e^{eps-Z})] (quadrature over z) equals the "
                 "closed form, in the 4 Gaussian regimes of STK-HT claim 1, to 1e-40.",
              (gauss(gauss_delta_pld_quad, "PLD-expectation quadrature"),)),
        Claim(2, "The tail-integral form ∫_eps^∞ e^{eps-z} P[Z > z] dz equals the closed form "
                 "(same regimes, 1e-40).",
              (gauss(gauss_delta_tail_quad, "tail-integral quadrature"),)),
        Claim(3, "The output-space integral ∫ (p - e^eps q)_+ equals the closed form (same "
                 "regimes, 1e-40).",
              (gauss(gauss_delta_output_quad, "output-space quadrature"),)),
        Claim(4, "The same identities hold for Laplace, where the PLD has atoms (at the points "
                 "of STK-LAPLACE): PLD expectation, tail integral, output-space integral, and "
                 "the two-term form P[Z > eps] - e^eps P[Z' < -eps] (certified in arb).",
              (lap(laplace_delta_pld_quad, "PLD expectation (atoms + quadrature)"),
               lap(laplace_delta_tail_quad, "tail-integral quadrature"),
               lap(laplace_delta_output_quad, "output-space quadrature"),
               lap(laplace_delta_two_term, "P[Z > eps] - e^eps P[Z' < -eps]", arb=True))),
        Claim(5, "P[Z > eps] - e^eps P[Z' < -eps] equals the hockey-stick value for random "
                 "finite pairs.",
              (Compare(_finite_two_term, "eq",
                       lambda ctx, p, q, eps, **_: finite.hockey_stick(ctx, p, q, eps),
                       Generated(_draw_pair_eps, count=200,
                                 description="random finite pairs (2-6 outputs, some with "
                                             "zeros) and eps in [-2.5, 2.5]"),
                       "oracle", Tol.abs("1e-40"), "P[Z > eps] - e^eps P[Z' < -eps]",
                       "sum_y (P(y) - e^eps Q(y))_+"),)),
    )


STK_APPROX_PLD = Theorem(
    id="STK-APPROX-PLD",
    title="Approximate DP from the PLD",
    family=FAMILY,
    source=Source(S22, "Sec. 3.3; = [CKS20] Lemma 9 (number as cited by a co-author)",
                  arxiv="2210.00597", version="v4"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "For Z ~ PrivLoss(P||Q), Z' ~ PrivLoss(Q||P) and any real eps: H_{e^eps}(P||Q) = "
        "E[max(0, 1 - e^{eps - Z})] = P[Z > eps] - e^eps P[Z' < -eps] = ∫_eps^∞ e^{eps-z} "
        "P[Z > z] dz. M is (eps, delta)-DP iff delta >= this value for every ordered "
        "neighbouring pair. P[Z > eps] <= delta is sufficient but not necessary."
    ),
    domain="eps real",
    claims=_approx_pld_claims(),
    notes="The second form needs the reverse loss Z'; the tail-integral form needs only the "
          "law of Z. Gaussian and Laplace instances are BW-ANALYTIC-GAUSS and STK-LAPLACE.",
)


# ------------------------------------------------------------------------------------------
# BW-ANALYTIC-GAUSS


def _bw_claims() -> tuple[Claim, ...]:
    def quad_check(route_term: Any, name: str) -> Compare:
        return Compare(
            lhs=gauss_delta, op="eq", rhs=route_term, region=GAUSS_REGIMES, route="numeric",
            tol=Tol.abs("1e-40"), lhs_name="BW closed form", rhs_name=name, ctx="mp",
        )

    return (
        Claim(
            1,
            "Agreement to 1e-40 with three quadratures (PLD expectation, tail integral, "
            "output-space integral) and to 1e-30 with the Neyman–Pearson maximisation, in the "
            "4 regimes of STK-HT claim 1.",
            (
                quad_check(gauss_delta_pld_quad, "PLD-expectation quadrature"),
                quad_check(gauss_delta_tail_quad, "tail-integral quadrature"),
                quad_check(gauss_delta_output_quad, "output-space quadrature"),
                Compare(gauss_delta, "eq", gauss_delta_neyman_pearson, GAUSS_REGIMES,
                        "numeric", Tol.abs("1e-30"), "BW closed form",
                        "Neyman–Pearson maximisation (arb enclosure)"),
            ),
        ),
        Claim(
            2,
            "Golden values: sigma = 1, delta = 1e-5 gives eps = 4.377178095681; sigma = "
            "sqrt(50) (rho = 0.01), delta = 1e-6 gives eps = 0.575055185780 (to the 12 decimals "
            "shown).",
            (
                Compare(lambda ctx, sigma, delta: gauss_eps(ctx, sigma, delta), "eq",
                        lambda ctx, **_: ctx.num("4.377178095681"),
                        Points(({"sigma": "1", "delta": "1e-5"},)), "numeric",
                        Tol.abs("5e-13"), "eps(1, 1e-5)", "4.377178095681"),
                Compare(lambda ctx, rho, delta: gauss_eps(ctx, ctx.sqrt(1 / (2 * rho)), delta),
                        "eq", lambda ctx, **_: ctx.num("0.575055185780"),
                        Points(({"rho": "0.01", "delta": "1e-6"},)), "numeric",
                        Tol.abs("5e-13"), "eps(sqrt(50), 1e-6)", "0.575055185780"),
            ),
        ),
        Claim(
            3,
            "delta(sigma, eps) is decreasing in eps and in sigma.",
            (
                Compare(lambda ctx, sigma, eps, h: gauss_delta(ctx, sigma, eps + h), "lt",
                        lambda ctx, sigma, eps, h: gauss_delta(ctx, sigma, eps),
                        Box(reals={"sigma": ("0.05", "20"), "eps": ("0", "30"),
                                   "h": ("1e-6", "1")}, log_scale=frozenset({"sigma", "h"})),
                        "property", lhs_name="delta(sigma, eps + h)", rhs_name="delta(sigma, eps)"),
                Compare(lambda ctx, sigma, eps, h: gauss_delta(ctx, sigma + h, eps), "lt",
                        lambda ctx, sigma, eps, h: gauss_delta(ctx, sigma, eps),
                        Box(reals={"sigma": ("0.05", "20"), "eps": ("0", "30"),
                                   "h": ("1e-6", "1")}, log_scale=frozenset({"sigma", "h"})),
                        "property", lhs_name="delta(sigma + h, eps)", rhs_name="delta(sigma, eps)"),
            ),
        ),
        Claim(
            4,
            "A certified enclosure of delta(sigma, eps) over boxes of (sigma, eps): on sigma in "
            "[0.5, 4], eps in [0, 4] the profile lies in [0, 1) (interval evaluation of Phi via "
            "erfc), and it is at most the sufficient-condition tail P[Z > eps] of STK-PLD-GAUSS.",
            (
                Compare(gauss_delta, "ge", lambda ctx, **_: ctx.zero,
                        Box(reals={"sigma": ("0.5", "4"), "eps": ("0", "4")}), "interval",
                        lhs_name="delta(sigma, eps)", rhs_name="0"),
                Compare(gauss_delta, "le", gauss_tail,
                        Box(reals={"sigma": ("0.5", "4"), "eps": ("0", "4")}), "interval",
                        lhs_name="delta(sigma, eps)", rhs_name="P[Z > eps]"),
            ),
        ),
    )


BW_ANALYTIC_GAUSS = Theorem(
    id="BW-ANALYTIC-GAUSS",
    title="Exact (eps, delta) curve of the Gaussian mechanism",
    family=FAMILY,
    source=Source("Balle & Wang, Improving the Gaussian Mechanism for Differential Privacy",
                  "Thm 8 (numbering of v2); [S22] Sec. 3.3; [DRS] Cor. 2.13",
                  arxiv="1805.06530", version="v2"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "M(x) = f(x) + N(0, sigma^2 I) with L2-sensitivity Delta is (eps, delta)-DP iff "
        "Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta) "
        "<= delta; with rho = Delta^2/(2 sigma^2): delta(eps) = Phi(-(eps - rho)/sqrt(2 rho)) - "
        "e^eps Phi(-(eps + rho)/sqrt(2 rho))."
    ),
    domain="any real eps (the identity holds for all eps), delta in [0, 1]; no eps < 1 restriction",
    evaluators=(
        Evaluator("delta", (SIGMA, EPS_REAL), gauss_delta,
                  "Phi(1/(2 sigma) - eps sigma) - e^eps Phi(-1/(2 sigma) - eps sigma)"),
        Evaluator("eps", (SIGMA, DELTA), gauss_eps,
                  "least eps >= 0 with delta(sigma, eps) <= delta"),
        Evaluator("sigma", (replace(EPS, lo=0), DELTA), gauss_sigma,
                  "least sigma > 0 with delta(sigma, eps) <= delta (analytic calibration)"),
    ),
    claims=_bw_claims(),
    aliases=("STK-GAUSS-EXACT",),
    notes="The closed form cancels when delta is tiny; arb raises precision until the "
          "enclosure is narrow.",
)


# ------------------------------------------------------------------------------------------
# STK-LAPLACE


def _laplace_claims() -> tuple[Claim, ...]:
    def check(route: Any, name: str) -> Compare:
        return Compare(_lap(laplace_delta), "eq", _lap(route), LAPLACE_POINTS, "numeric",
                       Tol.abs("1e-40"), "closed form", name, ctx="mp")

    return (
        Claim(1, "The closed form equals the output-space quadrature ∫ (p - e^eps q)_+ to "
                 "1e-40 (absolute) at (eps0, eps) in {(1, 0.3), (2, 0), (0.5, 0.49), (3, 3.5)}, "
                 "Delta = 1, b = 1/eps0.",
              (check(laplace_delta_output_quad, "output-space quadrature"),)),
        Claim(2, "The closed form equals the explicit PLD expectation (atom +eps0 with mass 1/2 "
                 "plus the continuous part, privacy loss (Delta - 2y)/b on 0 < y < Delta) to "
                 "1e-40.",
              (check(laplace_delta_pld_quad, "PLD expectation (atoms + quadrature)"),)),
        Claim(3, "The profile is symmetric in the pair (both orders give the same value).",
              (check(lambda ctx, b, eps, s: laplace_delta_output_quad(ctx, b, eps, s, True),
                     "reverse-order quadrature ∫ (q - e^eps p)_+"),)),
    )


STK_LAPLACE = Theorem(
    id="STK-LAPLACE",
    title="Exact privacy profile of the Laplace mechanism",
    family=FAMILY,
    source=Source("derived (catalogue); consistent with " + S22, "Sec. 3",
                  arxiv="2210.00597", version="v4"),
    types=("EXACT",),
    confidence=("DERIVED",),
    statement=(
        "For Lap(0, b) vs Lap(Delta, b) with eps0 = Delta/b: delta(eps) = 1 - exp((eps - "
        "eps0)/2) for |eps| <= eps0 and 0 for eps >= eps0 (1 - e^eps for eps < -eps0). The PLD "
        "has atoms +eps0 (mass 1/2) and -eps0 (mass e^{-eps0}/2) and is continuous on (-eps0, "
        "eps0). The mechanism f(x) + Lap(s/eps) is eps-DP and tight."
    ),
    domain="b > 0, Delta > 0; every real eps (the catalogue's eps >= -eps0 plus the branch "
           "1 - e^eps below -eps0)",
    evaluators=(
        Evaluator("delta", (B, EPS_REAL, SENSITIVITY), laplace_delta,
                  "1 - exp((eps - eps0)/2) if -eps0 <= eps < eps0, 0 if eps >= eps0, 1 - e^eps "
                  "if eps < -eps0 (eps0 = sensitivity/b)"),
        Evaluator("eps", (B, DELTA, SENSITIVITY), laplace_eps,
                  "max(0, eps0 + 2 ln(1 - delta)), the least eps >= 0 with delta(b, eps) <= "
                  "delta (derived)"),
    ),
    claims=_laplace_claims(),
    notes="The closed form was checked against the PLD atoms and the output-space integral "
          "(claims 1-2) and found correct. The evaluator also covers eps < -eps0 (value "
          "1 - e^eps, where p >= e^eps q everywhere), which the catalogue leaves outside.",
)


# ------------------------------------------------------------------------------------------
# DRS-GDP


def _drs_claims() -> tuple[Claim, ...]:
    het = Points(({"mu_list": (Fraction(1, 2), Fraction(1), Fraction(3, 10)), "eps": "1"},))
    clt_point = Points(({"q": "0.01", "sigma": "1", "k": 1, "delta": "1e-5"},))

    def eps_clt(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, **_: Any) -> Any:
        return gdp_eps(ctx, gdp_mu_clt(ctx, q, sigma, k), delta)

    # SGM-1STEP-EXACT is owned by theorems.subsampling, which imports this module: lazy imports
    def eps_exact(ctx: Any, q: Any, sigma: Any, delta: Any, **_: Any) -> Any:
        from dpverify.theorems.subsampling import sgm1_eps

        return sgm1_eps(ctx, q, sigma, delta)

    def sgm_closed(ctx: Any, q: Any, sigma: Any, eps: Any, direction: str, **_: Any) -> Any:
        from dpverify.theorems.subsampling import sgm1_delta

        return sgm1_delta(ctx, q, sigma, eps, direction)

    def sgm_quad(ctx: Any, q: Any, sigma: Any, eps: Any, direction: str, **_: Any) -> Any:
        from dpverify.theorems.subsampling import sgm1_add_quad, sgm1_remove_quad

        quad = sgm1_add_quad if direction == "add" else sgm1_remove_quad
        return quad(ctx, q, sigma, eps)

    eps_box = Box(reals={"mu": ("0.05", "10"), "delta": ("1e-12", "0.5"), "h": ("1e-6", "1")},
                  log_scale=frozenset({"mu", "delta", "h"}))
    strict_box = replace(
        eps_box,
        constraint=lambda pt: float(pt["delta"])
        < 0.999 * math.erf(float(pt["mu"]) / (2 * math.sqrt(2))),
    )

    def eps_at(shift: bool) -> Any:
        return lambda ctx, mu, delta, h, **_: gdp_eps(ctx, mu + h if shift else mu, delta)

    return (
        Claim(
            1,
            "Heterogeneous composition: the profile with sqrt(0.5^2 + 1^2 + 0.3^2) equals the "
            "PLD quadrature with rho = sum mu_i^2/2 at eps = 1 (STK-COMP-PLD claim 2), to "
            "1e-40.",
            (
                Compare(lambda ctx, mu_list, eps, **_: gdp_delta(
                            ctx, ctx.sqrt(ctx.fsum(m * m for m in mu_list)), eps),
                        "eq",
                        lambda ctx, mu_list, eps, **_: pld_expectation_quad(
                            ctx, ctx.fsum(m * m for m in mu_list) / 2, eps),
                        het, "numeric", Tol.abs("1e-40"), "GDP profile at sqrt(sum mu_i^2)",
                        "PLD quadrature, rho = sum mu_i^2/2", ctx="mp"),
            ),
        ),
        Claim(
            2,
            "delta(mu, eps) = BW-ANALYTIC-GAUSS.delta(1/mu, eps) identically (here on mu in "
            "{0.3, 1, 3, 7} x eps in {0, 0.5, 2, 10}, relative 1e-40).",
            (
                Compare(lambda ctx, mu, eps, **_: gdp_delta(ctx, mu, eps), "eq",
                        lambda ctx, mu, eps, **_: gauss_delta(ctx, 1 / mu, eps),
                        grid(mu=["0.3", "1", "3", "7"], eps=["0", "0.5", "2", "10"]), "numeric",
                        Tol.rel("1e-40"), "GDP delta(mu, eps)", "BW delta(1/mu, eps)"),
            ),
        ),
        Claim(
            3,
            "The CLT is not an upper bound (derived): at q = 0.01, sigma = 1, k = 1, delta = "
            "1e-5, eps(mu_clt, delta) ≈ 0.0368 is below the exact one-step eps 0.19945 of "
            "SGM-1STEP-EXACT (the dominating pair in both orders; its closed form is checked "
            "against output-space quadrature).",
            (
                Compare(eps_clt, "lt", eps_exact, clt_point, "numeric",
                        lhs_name="eps(mu_clt, 1e-5)", rhs_name="exact one-step eps"),
                Compare(eps_clt, "eq", lambda ctx, **_: ctx.num("0.0368"), clt_point,
                        "numeric", Tol.abs("5e-5"), "eps(mu_clt, 1e-5)", "0.0368"),
                Compare(eps_exact, "eq", lambda ctx, **_: ctx.num("0.19945"), clt_point,
                        "numeric", Tol.abs("5e-6"), "exact one-step eps", "0.19945"),
                Compare(sgm_closed, "eq", sgm_quad,
                        Points(({"q": "0.01", "sigma": "1", "eps": "0.005", "direction": "add"},
                                {"q": "0.01", "sigma": "1", "eps": "0.005",
                                 "direction": "remove"})),
                        "numeric", Tol.abs("1e-30"), "one-step hockey-stick (closed form)",
                        "one-step hockey-stick (output-space quadrature)", ctx="mp"),
            ),
        ),
        Claim(
            4,
            "eps(mu, delta) is increasing in mu (nondecreasing everywhere; strictly where "
            "eps > 0, i.e. delta < delta(mu, 0) = 2 Phi(mu/2) - 1).",
            (
                Compare(eps_at(False), "le", eps_at(True), eps_box, "property",
                        lhs_name="eps(mu, delta)", rhs_name="eps(mu + h, delta)"),
                Compare(eps_at(False), "lt", eps_at(True), strict_box, "property",
                        lhs_name="eps(mu, delta)", rhs_name="eps(mu + h, delta)"),
            ),
        ),
    )


DRS_GDP = Theorem(
    id="DRS-GDP",
    title="Gaussian differential privacy",
    family=FAMILY,
    source=Source("J. Dong, A. Roth, W. Su, Gaussian Differential Privacy",
                  "Cor. 2.13 (profile), Cor. 3.3 (composition), Sec. 5 CLT (numbers recalled, "
                  "not verified; arXiv version not verified)", arxiv="1905.02383"),
    types=("EXACT", "TIGHT", "APPROX"),
    confidence=("HIGH",),
    statement=(
        "M is mu-GDP if its trade-off function is >= G_mu(a) = Phi(Phi^{-1}(1-a) - mu). mu-GDP "
        "iff (eps, delta(eps))-DP for all eps >= 0 with delta(eps) = Phi(-eps/mu + mu/2) - "
        "e^eps Phi(-eps/mu - mu/2). The Gaussian mechanism is (Delta/sigma)-GDP. mu_i-GDP "
        "compose to sqrt(sum mu_i^2)-GDP. mu-GDP implies (mu^2/2)-zCDP. CLT (APPROX, not a "
        "bound): if p sqrt(T) -> nu then mu ≈ nu sqrt(e^{1/sigma^2} - 1)."
    ),
    domain="mu > 0, eps >= 0; for the CLT: sampling rate q, k steps, noise multiplier sigma",
    evaluators=(
        Evaluator("delta", (MU, EPS), gdp_delta,
                  "Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)"),
        Evaluator("eps", (MU, DELTA), gdp_eps, "least eps >= 0 with delta(mu, eps) <= delta"),
        Evaluator("mu_k", (MU, K), gdp_mu_k, "sqrt(k) mu, k-fold composition of mu-GDP"),
        Evaluator("rho", (MU,), gdp_rho, "mu^2/2"),
        Evaluator("mu_clt", (Q, SIGMA, K), gdp_mu_clt,
                  "q sqrt(k) sqrt(e^{1/sigma^2} - 1) (APPROX; not a privacy guarantee)"),
    ),
    claims=_drs_claims(),
    notes="GDP is the natural parametrisation for composing Gaussians; the CLT value must never "
          "be reported as a guarantee (claim 3).",
)


# ------------------------------------------------------------------------------------------
# MIR-RDP-GAUSS


MIR_RDP_GAUSS = Theorem(
    id="MIR-RDP-GAUSS",
    title="RDP curve of the Gaussian mechanism",
    family=FAMILY,
    source=Source("I. Mironov, Rényi Differential Privacy",
                  "Gaussian-mechanism proposition and Table II (number not verified); [S22] "
                  "Sec. 6.4",
                  arxiv="1702.07476", version="v3"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="Gaussian: tau(alpha) = alpha Delta^2/(2 sigma^2).",
    domain="alpha > 1, sigma > 0",
    evaluators=(
        Evaluator("tau", (SIGMA, ALPHA), gauss_rdp_tau, "alpha/(2 sigma^2)"),
    ),
    claims=(
        Claim(
            1,
            "Quadrature of D_alpha(N(1, s^2)||N(0, s^2)) equals alpha/(2 s^2) to 1e-40 for "
            "alpha in {1.5, 3, 7.25}, s^2 = 1/(2·0.37).",
            (
                Compare(lambda ctx, rho, alpha, **_: gauss_renyi_quad(
                            ctx, ctx.sqrt(1 / (2 * rho)), alpha), "eq",
                        lambda ctx, rho, alpha, **_: gauss_rdp_tau(
                            ctx, ctx.sqrt(1 / (2 * rho)), alpha),
                        grid(rho=["0.37"], alpha=["1.5", "3", "7.25"]), "numeric",
                        Tol.abs("1e-40"), "Rényi quadrature", "alpha/(2 s^2)", ctx="mp"),
            ),
        ),
    ),
    notes="The same fact as STK-ZCDP-GAUSS, read as an RDP curve.",
)


# ------------------------------------------------------------------------------------------
# MIR-RDP-LAP


def _mir_lap_claims() -> tuple[Claim, ...]:
    def tau_lap(ctx: Any, eps0: Any, alpha: Any, **_: Any) -> Any:
        return laplace_rdp_tau(ctx, 1 / eps0, alpha, ctx.one)

    def tau_lap_t(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
        return laplace_rdp_tau(ctx, 1 / eps0, 1 + t, ctx.one)

    def tau_rr_t(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
        return _rr_rdp_tau(ctx, eps0, 1 + t)

    box = Box(reals={"eps0": ("0.01", "5"), "t": ("1e-3", "1e3")},
              log_scale=frozenset({"eps0", "t"}))
    far = grid(eps0=["0.8", "3"], alpha=["10", "1000", "1000000"])
    return (
        Claim(1, "The formula equals quadrature of D_alpha(Lap(0, b)||Lap(1, b)) to 1e-35 at "
                 "eps0 = 0.8 and alpha in {1.5, 2, 10}.",
              (Compare(tau_lap, "eq",
                       lambda ctx, eps0, alpha, **_: laplace_renyi_quad(ctx, 1 / eps0, alpha,
                                                                        ctx.one),
                       grid(eps0=["0.8"], alpha=["1.5", "2", "10"]), "numeric",
                       Tol.abs("1e-35"), "Mironov's formula", "Rényi quadrature", ctx="mp"),)),
        Claim(2, "tau(alpha) <= STK-PDP-ZCDP.tau(eps0, alpha) <= eps0 for all alpha > 1 "
                 "(Laplace is eps0-DP; RR has the largest RDP curve among eps0-DP pairs); "
                 "searched over eps0 in [0.01, 5], alpha = 1 + t, t in [1e-3, 1e3].",
              (Compare(tau_lap_t, "le", tau_rr_t, box, "property",
                       lhs_name="Laplace tau(1 + t)", rhs_name="RR eps_hat(1 + t)"),
               Compare(tau_rr_t, "le", lambda ctx, eps0, **_: eps0, box, "property",
                       lhs_name="RR eps_hat(1 + t)", rhs_name="eps0"))),
        Claim(3, "tau(alpha) -> eps0 as alpha -> infinity: 0 < eps0 - tau(alpha) <= "
                 "log(2)/(alpha - 1), checked at eps0 in {0.8, 3}, alpha in {10, 1e3, 1e6}.",
              (Compare(tau_lap, "lt", lambda ctx, eps0, **_: eps0, far, "numeric",
                       lhs_name="tau(alpha)", rhs_name="eps0"),
               Compare(lambda ctx, eps0, alpha, **_: eps0 - tau_lap(ctx, eps0, alpha), "le",
                       lambda ctx, alpha, **_: ctx.log(ctx.num(2)) / (alpha - 1), far,
                       "numeric", lhs_name="eps0 - tau(alpha)", rhs_name="log(2)/(alpha - 1)"))),
    )


MIR_RDP_LAP = Theorem(
    id="MIR-RDP-LAP",
    title="RDP curve of the Laplace mechanism",
    family=FAMILY,
    source=Source("I. Mironov, Rényi Differential Privacy", "Prop. 6 / Table II; [S22] Sec. 6.4",
                  arxiv="1702.07476", version="v3"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "Laplace with scale b = 1/eps0 and sensitivity 1: tau(alpha) = (1/(alpha-1)) log( "
        "alpha/(2alpha-1) e^{(alpha-1) eps0} + (alpha-1)/(2alpha-1) e^{-alpha eps0} ); for "
        "general scale and sensitivity, eps0 = sensitivity/b."
    ),
    domain="alpha > 1, b > 0",
    evaluators=(
        Evaluator("tau", (B, ALPHA, SENSITIVITY), laplace_rdp_tau,
                  "(1/(alpha-1)) log(alpha/(2alpha-1) e^{(alpha-1) eps0} + (alpha-1)/(2alpha-1) "
                  "e^{-alpha eps0}), eps0 = sensitivity/b"),
    ),
    claims=_mir_lap_claims(),
    notes="The Laplace base curve of STK-ANALYTIC-RDP.tau_laplace.",
)


THEOREMS: tuple[Theorem, ...] = (
    STK_PLD_GAUSS,
    STK_HT,
    STK_APPROX_PLD,
    BW_ANALYTIC_GAUSS,
    STK_LAPLACE,
    DRS_GDP,
    MIR_RDP_GAUSS,
    MIR_RDP_LAP,
)

__all__ = [
    "THEOREMS",
    "gauss_delta",
    "gauss_eps",
    "gauss_sigma",
    "gauss_tail",
    "gdp_delta",
    "grid",
    "laplace_delta",
    "laplace_rdp_tau",
]
