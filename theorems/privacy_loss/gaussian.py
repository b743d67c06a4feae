"""The Gaussian mechanism: STK-PLD-GAUSS (its PLD), STK-HT (the hypothesis-testing route and the
stationarity of the power gap, by SMT), BW-ANALYTIC-GAUSS (the exact (eps, delta) curve against
three quadratures and the Neyman–Pearson maximisation) and MIR-RDP-GAUSS (its RDP curve).

Formulas: :mod:`dpverify.theorems.formulas.gaussian`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Smt, SmtProblem, Tol, grid
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.gaussian import (
    gauss_delta,
    gauss_delta_neyman_pearson,
    gauss_delta_output_quad,
    gauss_delta_pld_quad,
    gauss_delta_tail_quad,
    gauss_eps,
    gauss_pld_mean,
    gauss_rdp_tau,
    gauss_renyi_quad,
    gauss_sigma,
    gauss_tail,
    npdf,
    pld_mgf_renyi_quad,
)
from dpverify.theorems.params import ALPHA, DELTA, EPS, EPS_REAL, SIGMA
from dpverify.theorems.privacy_loss.common import BW18_V2, FAMILY, GAUSS_REGIMES
from dpverify.theorems.privacy_loss.mutation_guards import (
    PDF_BOX,
    pdf_mirror_gap,
    pdf_peak_scaled,
    pdf_problem,
)
from dpverify.theorems.privacy_loss.universal import (
    GAUSS_SQUARE_BOX,
    gauss_square_smt,
    gauss_square_terms,
    round_trip_check,
)
from dpverify.theorems.refs import MIR17, S22, cite
from dpverify.theorems.symbolic import partial_derivative

# ------------------------------------------------------------------------------------------
# STK-PLD-GAUSS


_TAIL_BOX = Box(reals={"sigma": ("0.05", "20"), "eps": ("-20", "40")},
                log_scale=frozenset({"sigma"}))


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
                        Tol.abs("1e-45"), "PLD-MGF quadrature", "alpha*rho"),
            ),
            scope="instance",
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
                        "numeric", Tol.abs("1e-40"), "Rényi quadrature", "alpha/(2 s^2)"),
            ),
            scope="instance",
        ),
        Claim(
            3,
            "tail(sigma, eps) > BW-ANALYTIC-GAUSS.delta(sigma, eps) for all sigma > 0 and real "
            "eps: the sufficient condition is strictly conservative, hence not necessary. "
            "Proved over sigma in [0.05, 20], eps in [-20, 40] (interval) and searched there.",
            (
                Compare(gauss_tail, "gt", gauss_delta, _TAIL_BOX,
                        "property", lhs_name="P[Z > eps]", rhs_name="BW delta(sigma, eps)"),
                Compare(gauss_tail, "gt", gauss_delta, _TAIL_BOX,
                        "interval", lhs_name="P[Z > eps]", rhs_name="BW delta(sigma, eps)"),
            ),
        ),
        Claim(
            4,
            "The PLD density phi(z; m, s) (formulas.gaussian.normal_pdf, used by the quadrature "
            "routes) is symmetric about its mean, phi(m + d) = phi(m - d), and peaks there at "
            "1/(s sqrt(2 pi)); searched over m in [-5, 5], d in [0, 5], s in [0.1, 10] "
            "(to 1e-30); proved by z3 for every real m, d and s > 0 (the density evaluated "
            "symbolically, pi as a positive variable).",
            (
                Smt(lambda: pdf_problem("symmetric"), "phi(m + d) - phi(m - d) = 0, m, d real, "
                    "s > 0", part="symmetric"),
                Smt(lambda: pdf_problem("peak"), "s sqrt(2 pi) phi(m) = 1, m real, s > 0",
                    part="peak"),
                Compare(pdf_mirror_gap, "eq", lambda ctx, **_: ctx.zero, PDF_BOX, "property",
                        Tol.abs("1e-30"), "phi(m + d) - phi(m - d)", "0", part="symmetric"),
                Compare(pdf_peak_scaled, "eq", lambda ctx, **_: ctx.one, PDF_BOX, "property",
                        Tol.abs("1e-30"), "s sqrt(2 pi) phi(m)", "1", part="peak"),
            ),
        ),
    )


STK_PLD_GAUSS = Theorem(
    id="STK-PLD-GAUSS",
    title="PLD of Gaussian noise addition",
    family=FAMILY,
    source=cite(S22, "Sec. 3.1"),
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
            scope="instance",
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
    source=cite(S22, "Sec. 3.2"),
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
# BW-ANALYTIC-GAUSS


def _bw_claims() -> tuple[Claim, ...]:
    def quad_check(route_term: Any, name: str) -> Compare:
        return Compare(
            lhs=gauss_delta, op="eq", rhs=route_term, region=GAUSS_REGIMES, route="numeric",
            tol=Tol.abs("1e-40"), lhs_name="BW closed form", rhs_name=name,
        )  # arb: each quadrature is a rigorous acb.integral enclosure (formulas.gaussian)

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
            scope="instance",
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
            scope="instance",
        ),
        Claim(
            3,
            "delta(sigma, eps) is decreasing in eps and in sigma. Searched on sigma in [0.05, "
            "20], eps in [0, 30], steps h in [1e-6, 1]; proved on sigma in [0.05, 20], eps in "
            "[0, 30] (interval): both partial derivatives of the formula body (by sympy, "
            "exponents combined: -e^eps Phi(-1/(2 sigma) - eps sigma) and -phi(1/(2 sigma) - "
            "eps sigma)/sigma^2) are < 0 on the whole box.",
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
                Compare(_D_DELTA_D_EPS, "lt", _zero, _MONOTONE_BOX, "interval",
                        lhs_name="d delta/d eps (sympy)", rhs_name="0"),
                Compare(_D_DELTA_D_SIGMA, "lt", _zero, _MONOTONE_BOX, "interval",
                        lhs_name="d delta/d sigma (sympy)", rhs_name="0"),
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
        Claim(
            5,
            "Round trips of the inverse evaluators: delta(sigma, eps(sigma, delta)) = delta for "
            "sigma in [0.1, 20], delta in [1e-12, 0.9] below delta(sigma, 0) (where eps = 0), and "
            "delta(sigma(eps, delta), eps) = delta for eps in [0, 10], delta in [1e-12, 0.9] (rel "
            "1e-20); searched only (both inverses bisect).",
            (
                round_trip_check(lambda ctx, e, sigma, **_: gauss_delta(ctx, sigma, e),
                                 lambda ctx, sigma, delta, **_: gauss_eps(ctx, sigma, delta),
                                 "delta", Box(reals={"sigma": ("0.1", "20"),
                                                     "delta": ("1e-12", "0.9")},
                                              log_scale=frozenset({"sigma", "delta"}),
                                              constraint=_below_gauss_delta_at_zero),
                                 "delta(sigma, eps(sigma, delta))"),
                round_trip_check(lambda ctx, s, eps, **_: gauss_delta(ctx, s, eps),
                                 lambda ctx, eps, delta, **_: gauss_sigma(ctx, eps, delta),
                                 "delta", Box(reals={"eps": ("0", "10"),
                                                     "delta": ("1e-12", "0.9")},
                                              log_scale=frozenset({"delta"})),
                                 "delta(sigma(eps, delta), eps)"),
            ),
        ),
    )


def _gauss_delta_term(ctx: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    return gauss_delta(ctx, sigma, eps)


def _zero(ctx: Any, **_: Any) -> Any:
    return ctx.zero


_D_DELTA_D_EPS = partial_derivative(_gauss_delta_term, ("sigma", "eps"), "eps", SymCtx)
_D_DELTA_D_SIGMA = partial_derivative(_gauss_delta_term, ("sigma", "eps"), "sigma", SymCtx)
_MONOTONE_BOX = Box(reals={"sigma": ("0.05", "20"), "eps": ("0", "30")},
                    log_scale=frozenset({"sigma"}))


def _below_gauss_delta_at_zero(point: dict[str, Any]) -> bool:
    """``delta < 0.999 delta(sigma, 0) = 0.999 erf(1/(2 sqrt(2) sigma))`` (floats; only chooses
    the search region of the round trip)."""
    return float(point["delta"]) < 0.999 * math.erf(1 / (2 * math.sqrt(2) * float(point["sigma"])))


BW_ANALYTIC_GAUSS = Theorem(
    id="BW-ANALYTIC-GAUSS",
    title="Exact (eps, delta) curve of the Gaussian mechanism",
    family=FAMILY,
    source=cite(BW18_V2, "Thm 8 (numbering of v2); [S22] Sec. 3.3; [DRS] Cor. 2.13"),
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
# MIR-RDP-GAUSS


def _mir_side(ctx: Any, sigma: Any, alpha: Any, k: Any) -> Any:
    return (alpha - 1) * gauss_rdp_tau(ctx, sigma, alpha)


_MIR_SQUARE = gauss_square_terms(_mir_side, "1")

MIR_RDP_GAUSS = Theorem(
    id="MIR-RDP-GAUSS",
    title="RDP curve of the Gaussian mechanism",
    family=FAMILY,
    source=cite(MIR17, "Gaussian-mechanism proposition and Table II (number not verified); "
                "[S22] Sec. 6.4"),
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
                        Tol.abs("1e-40"), "Rényi quadrature", "alpha/(2 s^2)"),
            ),
            scope="instance",
        ),
        Claim(
            2,
            "D_alpha(N(1, s^2)||N(0, s^2)) = tau(alpha) for all s > 0, alpha > 1: the integrand "
            "p^alpha q^{1-alpha} of the output-space integral (the one claim 1 integrates) is "
            "e^{(alpha-1) tau(alpha)} times the N(alpha, s^2) density, by completing the square "
            "(log p^alpha q^{1-alpha} + log(s sqrt(2 pi)) = -(y - alpha)^2/(2 s^2) + (alpha - 1) "
            "tau(alpha)); a density integrates to 1 ([Mir17] Def. 3). Proved by z3 for all real "
            "y, s > 0, alpha > 1 (both sides from the formulas, symbolically); searched on s in "
            "[0.05, 50], alpha in [1.0001, 1000], y in [-100, 100].",
            (
                Compare(_MIR_SQUARE[0], "eq", _MIR_SQUARE[1], GAUSS_SQUARE_BOX, "property",
                        Tol.rel("1e-40"), "exponent + (y - alpha)^2/(2 s^2)",
                        "(alpha - 1) tau(alpha)"),
                gauss_square_smt(_mir_side, "1", "exponent(y) = -(y - alpha)^2/(2 s^2) + "
                                 "(alpha - 1) MIR-RDP-GAUSS.tau(s, alpha)"),
            ),
        ),
    ),
    notes="The same fact as STK-ZCDP-GAUSS, read as an RDP curve.",
)
