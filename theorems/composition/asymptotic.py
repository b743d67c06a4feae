"""STK-ASYMP-OPT: k-fold randomized response at a fixed zCDP budget approaches the Gaussian
limit ([S22] arXiv 2210.00597v4, Sec. 5; [DRS] arXiv 1905.02383, Cor. 2.13).
"""

from __future__ import annotations

import itertools
from typing import Any

from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Points,
    Predicate,
    Smt,
    SmtProblem,
    Tol,
    points,
)
from dpverify.theorems.composition.terms import FAMILY, ORDER_BOX_TEXT, const, order_check
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.advanced_composition import (
    asymp_eps,
    log_inv,
    rr_pld_mean,
    rr_pld_var,
)
from dpverify.theorems.formulas.conversions import cks_eps
from dpverify.theorems.formulas.gdp import gdp_eps
from dpverify.theorems.numerics.finite import randomized_response
from dpverify.theorems.params import (
    DELTA,
    RHO,
    K,
)
from dpverify.theorems.refs import S22, cite


def asymp_eps_limit(ctx: Any, rho: Any, delta: Any) -> Any:
    """``DRS-GDP.eps(sqrt(2 rho), delta)``: the Gaussian limit of the PLD ``N(rho, 2 rho)``
    ([S22] v4, Sec. 5; [DRS] arXiv 1905.02383, Cor. 2.13)."""
    return gdp_eps(ctx, mu=ctx.sqrt(2 * rho), delta=delta)


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


def _rr_step_moment_gap(which: str) -> Any:
    """The same moments in arb at a point, from the RR probabilities, minus the closed form."""

    def gap(ctx: Any, eps0: Any, **_: Any) -> Any:
        p, _q = randomized_response(ctx, eps0)
        mean = (p[0] - p[1]) * eps0
        if which == "mean":
            return mean - rr_pld_mean(ctx, eps0)
        return (p[0] + p[1]) * eps0**2 - mean**2 - rr_pld_var(ctx, eps0)

    return gap


_MOMENT_BOX = Box(reals={"eps0": ("0", "20")})


def _adv_bound(ctx: Any, rho: Any, delta: Any) -> Any:
    """``rho + 2 sqrt(rho log(1/delta))``: advanced composition at zCDP budget rho."""
    return rho + 2 * ctx.sqrt(rho * log_inv(ctx, delta))


def _adv_bound_of_eps0(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """The same bound with ``rho = k eps0^2/2`` (eps0 = sqrt(2 rho/k) the per-step RR eps)."""
    return _adv_bound(ctx, k * eps0**2 / 2, delta)


def _cks(ctx: Any, rho: Any, delta: Any, **_: Any) -> Any:
    return cks_eps(ctx, rho=rho, delta=delta)


STK_ASYMP_OPT = Theorem(
    id="STK-ASYMP-OPT",
    title="Asymptotic optimality of advanced composition",
    family=FAMILY,
    source=cite(S22, "Sec. 5 (the quantitative lower-bound theorem was not recovered)"),
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
                         const(v), points(_asymp_point(k)), "numeric", Tol.abs(tol),
                         f"exact eps at k = {k}", v)
                 for k, v, tol in ((10, "3.1599", "5e-5"), (100, "4.3068", "5e-5"),
                                   (1000, "4.3683", "5e-5"), (10000, "4.37638", "5e-6"))),
               Compare(lambda ctx, rho, delta, **_: asymp_eps_limit(ctx, rho, delta), "eq",
                       const("4.37718"), points({"rho": "0.5", "delta": "1e-5"}), "numeric",
                       Tol.abs("5e-6"), "Gaussian limit", "4.37718"),
               Compare(_cks, "eq", const("4.7284"), points({"rho": "0.5", "delta": "1e-5"}),
                       "numeric", Tol.abs("5e-5"), "CKS20-CONV.eps(0.5, 1e-5)", "4.7284"),
               Compare(lambda ctx, rho, delta, **_: _adv_bound(ctx, rho, delta),
                       "eq", const("5.2985"), points({"rho": "0.5", "delta": "1e-5"}), "numeric",
                       Tol.abs("5e-5"), "rho + 2 sqrt(rho log(1/delta))", "5.2985")),
              scope="instance"),
        Claim(2, "|eps(rho, k, delta) - eps_limit(rho, delta)| decreases monotonically along "
              "k = 10, 100, 1000, 10000 (rho = 0.5, delta = 1e-5).",
              (Predicate(_asymp_monotone, points({"rho": "0.5", "delta": "1e-5"}), "numeric",
                         "gaps to the Gaussian limit strictly decrease"),),
              scope="instance"),
        Claim(3, "eps(rho, k, delta) <= rho + 2 sqrt(rho log(1/delta)) for each k of claim 1.",
              (Compare(lambda ctx, rho, k, delta, **_: asymp_eps(ctx, rho, k, delta), "le",
                       lambda ctx, rho, delta, **_: _adv_bound(ctx, rho, delta),
                       Points(tuple(_asymp_point(k) for k in (10, 100, 1000, 10000))), "numeric",
                       lhs_name="exact eps", rhs_name="advanced composition"),),
              scope="instance"),
        Claim(4, "At k = 10000 the exact eps is within relative 2e-3 of the Gaussian limit.",
              (Compare(lambda ctx, rho, k, delta, **_: ctx.abs(asymp_eps(ctx, rho, k, delta)
                                                               - asymp_eps_limit(ctx, rho, delta)),
                       "le", lambda ctx, rho, delta, **_: ctx.num("2e-3")
                       * asymp_eps_limit(ctx, rho, delta),
                       points(_asymp_point(10000)), "numeric",
                       lhs_name="|eps - eps_limit|", rhs_name="2e-3 eps_limit"),),
              scope="instance"),
        Claim(5, "The PLD mean and variance of one eps0-RR step equal eps0 tanh(eps0/2) and "
              "eps0^2 (1 - tanh^2(eps0/2)) (identity in x = e^eps0 and eps0) [smt]; also from "
              "the RR probabilities in arb over eps0 in [0, 20] (1e-40) [property].",
              (Smt(lambda: _rr_step_moments_problem("mean"),
                   "E[Z] = eps0 tanh(eps0/2) for one RR(eps0) step", part="mean"),
               Compare(_rr_step_moment_gap("mean"), "eq", const("0"), _MOMENT_BOX, "property",
                       Tol.abs("1e-40"), "E[Z] - eps0 tanh(eps0/2)", "0", part="mean"),
               Smt(lambda: _rr_step_moments_problem("var"),
                   "Var[Z] = eps0^2 (1 - tanh^2(eps0/2)) for one RR(eps0) step",
                   part="variance"),
               Compare(_rr_step_moment_gap("var"), "eq", const("0"), _MOMENT_BOX, "property",
                       Tol.abs("1e-40"), "Var[Z] - eps0^2 (1 - tanh^2(eps0/2))", "0",
                       part="variance"))),
        Claim(6, "Universal form of claim 3: eps(rho, k, delta) <= rho + 2 sqrt(rho log(1/delta)) "
              "for every rho > 0, k >= 1, delta in (0, 1): searched on rho in [0.01, 5], k in "
              "{1..200}, delta in [1e-12, 0.1]; proved with eps0 = sqrt(2 rho/k) on "
              f"{ORDER_BOX_TEXT} as KOV-DELTA.delta_pure(eps0, k, bound) <= delta.",
              (Compare(lambda ctx, rho, k, delta, **_: asymp_eps(ctx, rho, k, delta), "le",
                       lambda ctx, rho, delta, **_: _adv_bound(ctx, rho, delta),
                       Box(reals={"rho": ("0.01", "5"), "delta": ("1e-12", "0.1")},
                           ints={"k": (1, 200)}, log_scale=frozenset({"rho", "delta"})),
                       "property", lhs_name="exact eps", rhs_name="rho + 2 sqrt(rho log(1/delta))"),
               order_check(_adv_bound_of_eps0, "rho + 2 sqrt(rho log(1/delta))"))),
    ),
    notes="The value at k = 100 in claim 1 coincides with KOV-EPS(0.1, 0, 100, 1e-5) because "
          "eps0 = sqrt(2 * 0.5/100) = 0.1.",
)
