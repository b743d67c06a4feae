"""The Laplace mechanism: STK-LAPLACE (the exact privacy profile against quadratures and the PLD
expectation) and MIR-RDP-LAP (its RDP curve, below the sharp curve of pure DP).

Formulas: :mod:`dpverify.theorems.formulas.laplace`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Smt, SmtProblem, Tol, eq_checks, grid
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.laplace import (
    laplace_delta,
    laplace_delta_output_quad,
    laplace_delta_pld_quad,
    laplace_delta_two_term,
    laplace_eps,
    laplace_rdp_tau,
    laplace_renyi_quad,
)
from dpverify.theorems.formulas.rr import rr_rdp_tau
from dpverify.theorems.params import ALPHA, DELTA, EPS_REAL, SENSITIVITY, B
from dpverify.theorems.privacy_loss.common import FAMILY, LAPLACE_POINTS, laplace_term
from dpverify.theorems.privacy_loss.universal import moment_in_powers
from dpverify.theorems.refs import MIR17, S22, cite

# ------------------------------------------------------------------------------------------
# STK-LAPLACE


def _closed(ctx: Any, b: Any, eps: Any, **_: Any) -> Any:
    return laplace_delta(ctx, b, eps, ctx.one)


def _two_term(ctx: Any, b: Any, eps: Any, **_: Any) -> Any:
    return laplace_delta_two_term(ctx, b, eps, ctx.one)


_TWO_TERM_BOX = Box(reals={"b": ("0.05", "20"), "eps": ("-10", "10")}, log_scale=frozenset({"b"}))


def _laplace_claims() -> tuple[Claim, ...]:
    def check(route: Any, name: str) -> Compare:
        return Compare(laplace_term(laplace_delta), "eq", laplace_term(route), LAPLACE_POINTS,
                       "numeric", Tol.abs("1e-40"), "closed form", name)  # arb: rigorous

    return (
        Claim(1, "The closed form equals the output-space quadrature ∫ (p - e^eps q)_+ to "
                 "1e-40 (absolute) at (eps0, eps) in {(1, 0.3), (2, 0), (0.5, 0.49), (3, 3.5)}, "
                 "Delta = 1, b = 1/eps0.",
              (check(laplace_delta_output_quad, "output-space quadrature"),), scope="instance"),
        Claim(2, "The closed form equals the explicit PLD expectation (atom +eps0 with mass 1/2 "
                 "plus the continuous part, privacy loss (Delta - 2y)/b on 0 < y < Delta) to "
                 "1e-40.",
              (check(laplace_delta_pld_quad, "PLD expectation (atoms + quadrature)"),),
              scope="instance"),
        Claim(3, "The profile is symmetric in the pair (both orders give the same value).",
              (check(lambda ctx, b, eps, s: laplace_delta_output_quad(ctx, b, eps, s, True),
                     "reverse-order quadrature ∫ (q - e^eps p)_+"),), scope="instance"),
        Claim(4, "Round trip of the inverse evaluator: eps(b, delta(b, eps)) = eps for every b > "
                 "0 and eps in [0, eps0) (eps0 = 1/b, sensitivity 1). Proved by z3 for all b > 0, "
                 "u >= 0 with eps = eps0 u/(1 + u) (both formula bodies evaluated symbolically, "
                 "Piecewise branches kept; log(e^x) = x for real x); searched on b in [0.05, "
                 "20], eps = t eps0 with t in [0, 0.999] (rel 1e-30).",
              (Compare(_laplace_round_trip, "eq", lambda ctx, b, t, **_: t / b,
                       Box(reals={"b": ("0.05", "20"), "t": ("0", "0.999")},
                           log_scale=frozenset({"b"})),
                       "property", Tol(abs_tol=Fraction(1, 10**40), rel_tol=Fraction(1, 10**30)),
                       "eps(b, delta(b, t eps0))", "t eps0"),
               Smt(_laplace_round_trip_problem,
                   "eps(b, delta(b, eps)) = eps, eps = eps0 u/(1 + u), u >= 0"))),
        Claim(5, "The closed form equals the two-term PLD form P[Z > eps] - e^eps P[Z' < -eps] "
                 "(from the Laplace CDFs, [S22] Sec. 3.3) for b in [0.05, 20] and every eps in "
                 "[-10, 10] (all three branches): searched (rel 1e-30) and proved to 1e-30 "
                 "(absolute) over that whole box as two inequalities (interval).",
              (Compare(_closed, "eq", _two_term, _TWO_TERM_BOX,
                       "property", Tol(abs_tol=Fraction(1, 10**40), rel_tol=Fraction(1, 10**30)),
                       "closed form", "P[Z > eps] - e^eps P[Z' < -eps]"),
               *eq_checks(_closed, _two_term, _TWO_TERM_BOX, "1e-30", "closed form",
                          "P[Z > eps] - e^eps P[Z' < -eps]")[1:])),
    )


def _laplace_round_trip(ctx: Any, b: Any, t: Any, **_: Any) -> Any:
    return laplace_eps(ctx, b, laplace_delta(ctx, b, t / b, ctx.one), ctx.one)


def _laplace_round_trip_problem() -> SmtProblem:
    import sympy as sp

    ctx = SymCtx()
    b = sp.Symbol("b", positive=True)
    u = sp.Symbol("u", nonnegative=True)
    eps = u / (b * (1 + u))
    trip = sp.piecewise_fold(laplace_eps(ctx, b, laplace_delta(ctx, b, eps, ctx.one), ctx.one))
    return SmtProblem({"b": "real", "u": "real"}, (sp.Gt(b, 0), sp.Ge(u, 0)), sp.Eq(trip, eps),
                      ("eps = eps0 u/(1 + u) in [0, eps0), eps0 = 1/b",
                       "log(e^x) = x (real x), Piecewise folded"))


STK_LAPLACE = Theorem(
    id="STK-LAPLACE",
    title="Exact privacy profile of the Laplace mechanism",
    family=FAMILY,
    source=replace(cite(S22, "Sec. 3"), paper="derived (catalogue); consistent with " + S22.title),
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
# MIR-RDP-LAP


def _lap_below_rr_problem(alpha: int) -> SmtProblem:
    """``e^{(alpha-1) tau_Lap} <= e^{(alpha-1) eps_hat} <= e^{(alpha-1) eps0}`` at an integer
    order, both curves from their formula bodies in SymCtx (scale b = 1/eps0, sensitivity 1)."""
    import sympy as sp

    ctx = SymCtx()
    eps0, x = sp.symbols("eps0 x", positive=True)
    a = sp.Integer(alpha)
    lap = moment_in_powers(laplace_rdp_tau(ctx, 1 / eps0, a, ctx.one), a, eps0, x)
    rr = moment_in_powers(rr_rdp_tau(ctx, eps0, a), a, eps0, x)
    return SmtProblem({"x": "real"}, (sp.Gt(x, 1),),
                      sp.And(sp.Le(lap, rr), sp.Le(rr, x ** (a - 1))),
                      ("x = e^eps0 > 1", f"alpha = {alpha}",
                       f"Laplace moment {lap}", f"RR moment {rr}"))


def _mir_lap_claims() -> tuple[Claim, ...]:
    def tau_lap(ctx: Any, eps0: Any, alpha: Any, **_: Any) -> Any:
        return laplace_rdp_tau(ctx, 1 / eps0, alpha, ctx.one)

    def tau_lap_t(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
        return laplace_rdp_tau(ctx, 1 / eps0, 1 + t, ctx.one)

    def tau_rr_t(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
        return rr_rdp_tau(ctx, eps0, 1 + t)

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
                       Tol.abs("1e-35"), "Mironov's formula", "Rényi quadrature"),),
              scope="instance"),
        Claim(2, "tau(alpha) <= STK-PDP-ZCDP.tau(eps0, alpha) <= eps0 for all alpha > 1 "
                 "(Laplace is eps0-DP; RR has the largest RDP curve among eps0-DP pairs); "
                 "searched over eps0 in [0.01, 5], alpha = 1 + t, t in [1e-3, 1e3]. Proved by "
                 "z3 for every eps0 > 0 at alpha in {2, 3, 4} (both curves from their formula "
                 "bodies as moments e^{(alpha-1) tau}, x = e^eps0); interval branch and bound "
                 "over real alpha does not close (3000 boxes).",
              (Compare(tau_lap_t, "le", tau_rr_t, box, "property",
                       lhs_name="Laplace tau(1 + t)", rhs_name="RR eps_hat(1 + t)"),
               Compare(tau_rr_t, "le", lambda ctx, eps0, **_: eps0, box, "property",
                       lhs_name="RR eps_hat(1 + t)", rhs_name="eps0"),
               *(Smt(lambda a=a: _lap_below_rr_problem(a),
                     f"Laplace moment <= RR moment <= x^{a - 1} (alpha = {a})")
                 for a in (2, 3, 4)))),
        Claim(3, "tau(alpha) -> eps0 as alpha -> infinity: 0 < eps0 - tau(alpha) <= "
                 "log(2)/(alpha - 1), checked at eps0 in {0.8, 3}, alpha in {10, 1e3, 1e6}.",
              (Compare(tau_lap, "lt", lambda ctx, eps0, **_: eps0, far, "numeric",
                       lhs_name="tau(alpha)", rhs_name="eps0"),
               Compare(lambda ctx, eps0, alpha, **_: eps0 - tau_lap(ctx, eps0, alpha), "le",
                       lambda ctx, alpha, **_: ctx.log(ctx.num(2)) / (alpha - 1), far,
                       "numeric", lhs_name="eps0 - tau(alpha)", rhs_name="log(2)/(alpha - 1)")),
              scope="instance"),
    )


MIR_RDP_LAP = Theorem(
    id="MIR-RDP-LAP",
    title="RDP curve of the Laplace mechanism",
    family=FAMILY,
    source=cite(MIR17, "Prop. 6 / Table II; [S22] Sec. 6.4"),
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
