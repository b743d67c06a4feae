"""Primitive mechanisms: exact privacy curves of the Gaussian and Laplace mechanisms.

Catalogue: ``privacy_loss.md`` (the primitive-mechanism entries the rest builds on).

Main results
------------
- BW-ANALYTIC-GAUSS: the exact (eps, delta) curve of the Gaussian mechanism, its inverse in eps
  and the analytic calibration of sigma, with three quadratures and a Neyman–Pearson
  maximisation as independent routes.

References
----------
- [BW18] B. Balle, Y.-X. Wang, *Improving the Gaussian Mechanism for Differential Privacy:
  Analytical Calibration and Optimal Denoising*, arXiv 1805.06530v2, Thm 8.
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Secs. 3.1–3.3.
- [DRS] J. Dong, A. Roth, W. Su, *Gaussian Differential Privacy*, arXiv 1905.02383, Cor. 2.13.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from theorems.claims import Box, Claim, Compare, Points, Tol, grid
from theorems.core import Evaluator, Source, Theorem
from theorems.params import DELTA, EPS, EPS_REAL, SIGMA

FAMILY = "privacy_loss"

# ------------------------------------------------------------------------------------------
# Formulas


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
    """Least eps >= 0 with ``gauss_delta(sigma, eps) <= delta`` ([BW18] Thm 8, inverted).

    delta is decreasing in eps, so the crossing is found by bisection (an enclosure in arb).
    """
    return ctx.solve(lambda e: gauss_delta(ctx, sigma, e), delta, lo=0, hi=1)


def gauss_sigma(ctx: Any, eps: Any, delta: Any) -> Any:
    """Least sigma > 0 with ``gauss_delta(sigma, eps) <= delta``: the analytic calibration of
    [BW18] arXiv 1805.06530v2, Alg. 1 / Thm 8. delta is decreasing in sigma; we bisect on
    ``t = log sigma`` so that the search starts far below any useful sigma (e^-60).
    """
    t = ctx.solve(lambda t: gauss_delta(ctx, ctx.exp(t), eps), delta, lo=-60, hi=1)
    return ctx.exp(t)


# Independent routes (mpmath only: they integrate or maximise numerically)


def gauss_delta_pld_quad(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``E[max(0, 1 - e^{eps - Z})]`` with ``Z ~ N(rho, 2 rho)`` by quadrature ([S22] Sec. 3.3)."""
    rho = 1 / (2 * sigma**2)
    s = ctx.sqrt(2 * rho)

    def integrand(z: Any) -> Any:
        return -ctx.expm1(eps - z) * ctx.exp(-((z - rho) / s) ** 2 / 2) / (s * ctx.sqrt(2 * ctx.pi))

    return ctx.quad(integrand, [eps, rho if rho > eps else eps + 1, ctx.inf])


def gauss_delta_tail_quad(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``∫_eps^∞ e^{eps - z} P[Z > z] dz`` with ``Z ~ N(rho, 2 rho)`` ([S22] Sec. 3.3)."""
    rho = 1 / (2 * sigma**2)
    s = ctx.sqrt(2 * rho)
    return ctx.quad(lambda z: ctx.exp(eps - z) * ctx.ncdf(-(z - rho) / s),
                    [eps, rho if rho > eps else eps + 1, ctx.inf])


def gauss_delta_output_quad(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``∫ (p - e^eps q)_+`` over outputs, ``p = N(1, sigma^2)``, ``q = N(0, sigma^2)``.

    ``p >= e^eps q`` exactly when ``y >= sigma^2 eps + 1/2``, so the positive part is an
    integral over a half-line.
    """
    y0 = sigma**2 * eps + ctx.num(1) / 2
    norm = 1 / (sigma * ctx.sqrt(2 * ctx.pi))

    def integrand(y: Any) -> Any:
        return norm * (ctx.exp(-((y - 1) / sigma) ** 2 / 2)
                       - ctx.exp(eps - (y / sigma) ** 2 / 2))

    return ctx.quad(integrand, [y0, y0 + 10 * sigma, ctx.inf])


def gauss_delta_neyman_pearson(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``sup_z [Phi(mu - z) - e^eps Phi(-z)]``, ``mu = 1/sigma``, by golden-section search on
    ``[z_c - 20, z_c + 20]`` with ``z_c = eps/mu + mu/2`` ([S22] Sec. 3.2; catalogue STK-HT)."""
    mu = 1 / sigma
    ee = ctx.exp(eps)

    def power_gap(z: Any) -> Any:
        return ctx.ncdf(mu - z) - ee * ctx.ncdf(-z)

    zc = eps / mu + mu / 2
    return golden_section_max(ctx, power_gap, zc - 20, zc + 20)


def golden_section_max(ctx: Any, f: Any, a: Any, b: Any) -> Any:
    """Maximum of a unimodal ``f`` on ``[a, b]`` by golden-section search to working precision.

    Near the maximiser f is flat to second order, so ``prec/2`` bits of the abscissa give the
    full precision of the value.
    """
    invphi = (ctx.sqrt(ctx.num(5)) - 1) / 2
    c, d = b - invphi * (b - a), a + invphi * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(int(ctx.prec * 0.75) + 20):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = f(d)
    return ctx.max(fc, fd)


# ------------------------------------------------------------------------------------------
# Claims

# The four regimes of STK-HT claim 1, as noise multipliers (Delta, sigma) -> sigma/Delta.
GAUSS_REGIMES = Points((
    {"sigma": "1", "eps": "1"},
    {"sigma": "0.5", "eps": "3"},
    {"sigma": "2.5", "eps": "0.3"},
    {"sigma": "0.2", "eps": "40"},
))


def _golden_eps_1(ctx: Any) -> Any:
    return ctx.num("4.377178095681")


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
                        "Neyman–Pearson maximisation", ctx="mp"),
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


def gauss_tail(ctx: Any, sigma: Any, eps: Any) -> Any:
    """``P[Z > eps] = Phi(-(eps - rho)/sqrt(2 rho))`` with ``Z ~ N(rho, 2 rho)``, ``rho =
    1/(2 sigma^2)``: the sufficient-condition delta ([S22] arXiv 2210.00597v4, Sec. 3.1/3.3)."""
    rho = 1 / (2 * sigma**2)
    return ctx.ncdf(-(eps - rho) / ctx.sqrt(2 * rho))


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

THEOREMS: tuple[Theorem, ...] = (BW_ANALYTIC_GAUSS,)

__all__ = ["THEOREMS", "gauss_delta", "gauss_eps", "gauss_sigma", "gauss_tail", "grid"]
