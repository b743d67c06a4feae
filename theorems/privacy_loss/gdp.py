"""Gaussian differential privacy: DRS-GDP (profile, composition, rho, and the CLT of noisy SGD,
shown not to be an upper bound against the exact one-step subsampled Gaussian).

Formulas: :mod:`dpverify.theorems.formulas.gdp`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Tol, grid
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.gaussian import gauss_delta, pld_expectation_quad
from dpverify.theorems.formulas.gdp import gdp_delta, gdp_eps, gdp_mu_clt, gdp_mu_k, gdp_rho
from dpverify.theorems.formulas.subsampled_gaussian import (
    sgm1_add_quad,
    sgm1_delta,
    sgm1_eps,
    sgm1_remove_quad,
)
from dpverify.theorems.params import DELTA, EPS, MU, SIGMA, K, Q
from dpverify.theorems.privacy_loss.common import FAMILY
from dpverify.theorems.privacy_loss.universal import round_trip_check
from dpverify.theorems.refs import DRS, cite
from dpverify.theorems.symbolic import partial_derivative

# ------------------------------------------------------------------------------------------
# DRS-GDP


def _gdp_delta_term(ctx: Any, mu: Any, eps: Any, **_: Any) -> Any:
    return gdp_delta(ctx, mu, eps)


def _zero(ctx: Any, **_: Any) -> Any:
    return ctx.zero


_D_DELTA_D_MU = partial_derivative(_gdp_delta_term, ("mu", "eps"), "mu", SymCtx)
_D_DELTA_D_EPS = partial_derivative(_gdp_delta_term, ("mu", "eps"), "eps", SymCtx)
_MONOTONE_BOX = Box(reals={"mu": ("0.05", "10"), "eps": ("0", "30")}, log_scale=frozenset({"mu"}))


def _drs_claims() -> tuple[Claim, ...]:
    het = Points(({"mu_list": (Fraction(1, 2), Fraction(1), Fraction(3, 10)), "eps": "1"},))
    clt_point = Points(({"q": "0.01", "sigma": "1", "k": 1, "delta": "1e-5"},))

    def eps_clt(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, **_: Any) -> Any:
        return gdp_eps(ctx, gdp_mu_clt(ctx, q, sigma, k), delta)

    def eps_exact(ctx: Any, q: Any, sigma: Any, delta: Any, **_: Any) -> Any:
        return sgm1_eps(ctx, q, sigma, delta)

    def sgm_closed(ctx: Any, q: Any, sigma: Any, eps: Any, direction: str, **_: Any) -> Any:
        return sgm1_delta(ctx, q, sigma, eps, direction)

    def sgm_quad(ctx: Any, q: Any, sigma: Any, eps: Any, direction: str, **_: Any) -> Any:
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
            scope="instance",
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
            scope="instance",
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
            scope="instance",
        ),
        Claim(
            4,
            "eps(mu, delta) is increasing in mu (nondecreasing everywhere; strictly where "
            "eps > 0, i.e. delta < delta(mu, 0) = 2 Phi(mu/2) - 1). Searched on the inverse "
            "evaluator; proved for mu in [0.05, 10] and every delta whose eps(mu, delta) lies "
            "in [0, 30] (interval): on mu in [0.05, 10], eps in [0, 30] the partial derivatives "
            "of the formula body delta(mu, eps) (by sympy) satisfy d delta/d mu > 0 and d "
            "delta/d eps < 0, so the root eps(mu, delta) of delta(mu, eps) = delta increases "
            "with mu.",
            (
                Compare(eps_at(False), "le", eps_at(True), eps_box, "property",
                        lhs_name="eps(mu, delta)", rhs_name="eps(mu + h, delta)"),
                Compare(eps_at(False), "lt", eps_at(True), strict_box, "property",
                        lhs_name="eps(mu, delta)", rhs_name="eps(mu + h, delta)"),
                Compare(_D_DELTA_D_MU, "gt", _zero, _MONOTONE_BOX, "interval",
                        lhs_name="d delta/d mu (sympy)", rhs_name="0"),
                Compare(_D_DELTA_D_EPS, "lt", _zero, _MONOTONE_BOX, "interval",
                        lhs_name="d delta/d eps (sympy)", rhs_name="0"),
            ),
        ),
        Claim(
            5,
            "Round trip of the inverse evaluator: delta(mu, eps(mu, delta)) = delta (rel 1e-20) "
            "for mu in [0.05, 10], delta in [1e-12, 0.9] below delta(mu, 0) = erf(mu/(2 "
            "sqrt 2)) (where eps = 0); searched only (the inverse bisects).",
            (
                round_trip_check(lambda ctx, e, mu, **_: gdp_delta(ctx, mu, e),
                                 lambda ctx, mu, delta, **_: gdp_eps(ctx, mu, delta), "delta",
                                 Box(reals={"mu": ("0.05", "10"), "delta": ("1e-12", "0.9")},
                                     log_scale=frozenset({"mu", "delta"}),
                                     constraint=lambda pt: float(pt["delta"]) < 0.999 * math.erf(
                                         float(pt["mu"]) / (2 * math.sqrt(2)))),
                                 "delta(mu, eps(mu, delta))"),
            ),
        ),
    )


DRS_GDP = Theorem(
    id="DRS-GDP",
    title="Gaussian differential privacy",
    family=FAMILY,
    source=cite(DRS, "Cor. 2.13 (profile), Cor. 3.3 (composition), Sec. 5 CLT (numbers "
                "recalled, not verified; arXiv version not verified)"),
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
