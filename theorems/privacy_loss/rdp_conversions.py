"""RDP curves to (eps, delta)-DP: MIR-RDP-CONV (Mironov's conversion) and BALLE20-CONV (the
improved conversion), against the exact Gaussian and the exact one-step subsampled Gaussian.

Formulas: :mod:`dpverify.theorems.formulas.conversions`,
:mod:`dpverify.theorems.formulas.subsampled_gaussian`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Smt, SmtProblem, Tol, points
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.conversions import (
    balle_delta,
    balle_eps,
    balle_eps_raw,
    mir_eps,
)
from dpverify.theorems.formulas.gaussian import gauss_eps
from dpverify.theorems.formulas.subsampled_gaussian import sgm_eps_exact, sgm_eps_rdp
from dpverify.theorems.params import ALPHA, DELTA, EPS_REAL, TAU
from dpverify.theorems.privacy_loss.common import FAMILY, const
from dpverify.theorems.privacy_loss.universal import real_vars
from dpverify.theorems.refs import BBGHS20, MIR17, cite

# ==========================================================================================
# MIR-RDP-CONV and BALLE20-CONV


def _order_grid() -> tuple[Fraction, ...]:
    """The orders of BALLE20-CONV claim 1: ``{1 + x/20 : x = 1..199} ∪ {11, ..., 499}``."""
    return tuple(1 + Fraction(x, 20) for x in range(1, 200)) + tuple(
        Fraction(a) for a in range(11, 500))


def _min_over_orders(ctx: Any, f: Any, orders: Any) -> Any:
    return ctx.min(*(f(ctx.num(a)) for a in orders))


def _gauss_curve_balle(ctx: Any, mu: Any, delta: Any) -> Any:
    return _min_over_orders(ctx, lambda a: balle_eps(ctx, a, a * mu**2 / 2, delta), _order_grid())


def _gauss_curve_mir(ctx: Any, mu: Any, delta: Any) -> Any:
    return _min_over_orders(ctx, lambda a: mir_eps(ctx, a, a * mu**2 / 2, delta), _order_grid())


def _gauss_exact_mu(ctx: Any, mu: Any, delta: Any) -> Any:
    return gauss_eps(ctx, 1 / mu, delta)


_GAUSS_CURVES = Points(({"mu": "1", "delta": "1e-5"}, {"mu": "0.3", "delta": "1e-6"},
                        {"mu": "3", "delta": "1e-3"}))


def _balle_minus_mir(ctx: Any, alpha: Any, tau: Any, delta: Any) -> Any:
    return balle_eps_raw(ctx, alpha, tau, delta) - mir_eps(ctx, alpha, tau, delta)


MIR_RDP_CONV = Theorem(
    id="MIR-RDP-CONV",
    title="RDP to (eps, delta): Mironov's conversion",
    family=FAMILY,
    source=cite(MIR17, "Prop. 3 (numbering of v3)"),
    types=("BOUND",),
    confidence=("HIGH",),
    statement="(alpha, tau)-RDP => (tau + log(1/delta)/(alpha-1), delta)-DP. For an RDP curve, "
              "take the minimum over the available orders.",
    domain="alpha > 1, tau >= 0, delta in (0, 1)",
    evaluators=(Evaluator("eps", (ALPHA, TAU, DELTA), mir_eps,
                          "tau + log(1/delta)/(alpha - 1)"),),
    claims=(
        Claim(1, "BALLE20-CONV.eps <= MIR-RDP-CONV.eps: the difference is log(1 - 1/alpha) - "
                 "log(alpha)/(alpha-1) < 0 for all alpha > 1 (box alpha in [1.0001, 1e4]).",
              (Compare(_balle_minus_mir, "lt", lambda ctx, **_: ctx.zero,
                       Box(reals={"alpha": ("1.0001", "10000")}, fixed={"tau": "0",
                                                                          "delta": "1/2"},
                           log_scale=frozenset({"alpha"})),
                       "interval", lhs_name="BALLE20-CONV.eps - MIR-RDP-CONV.eps (independent "
                       "of tau, delta)", rhs_name="0"),
               Compare(balle_eps, "lt", mir_eps,
                       Box(reals={"alpha": ("1.0001", "10000"), "tau": ("0", "100"),
                                  "delta": ("1e-30", "0.99")},
                           log_scale=frozenset({"alpha", "delta"})),
                       "property", lhs_name="BALLE20-CONV.eps", rhs_name="MIR-RDP-CONV.eps"))),
        Claim(2, "On the Gaussian curves of BALLE20-CONV claim 1, improved <= Mironov after "
                 "minimising each over the same order grid.",
              (Compare(_gauss_curve_balle, "le", _gauss_curve_mir, _GAUSS_CURVES, "numeric",
                       lhs_name="min_alpha BALLE20-CONV.eps", rhs_name="min_alpha "
                       "MIR-RDP-CONV.eps"),), scope="instance"),
    ),
    notes="Superseded by BALLE20-CONV; kept because many accountants and published numbers "
          "still use it.",
)


_BALLE_BOX = Box(reals={"alpha": ("1.0001", "10000"), "tau": ("0", "100"),
                        "delta": ("1e-30", "0.99")},
                 log_scale=frozenset({"alpha", "delta"}))


def _balle_round_trip(ctx: Any, alpha: Any, tau: Any, delta: Any) -> Any:
    return balle_delta(ctx, alpha, tau, balle_eps_raw(ctx, alpha, tau, delta))


class _OpaqueExpCtx(SymCtx):
    """SymCtx whose exponential is an opaque function ``EXP``: the exponent of the delta form
    stays readable (its logarithm), instead of being merged by sympy."""

    import sympy as _sp

    EXP = _sp.Function("EXP")

    def exp(self, x: Any) -> Any:
        return self.EXP(x)


def _balle_round_trip_problem() -> SmtProblem:
    import sympy as sp

    ctx = _OpaqueExpCtx()
    alpha, tau, delta = sp.symbols("alpha tau delta", positive=True)
    la1, la, ld = sp.symbols("A1 A D", real=True)
    trip = balle_delta(ctx, alpha, tau, balle_eps_raw(ctx, alpha, tau, delta))
    if trip.func != _OpaqueExpCtx.EXP:
        raise TypeError(f"expected delta_rdp = exp(...); got {trip}")
    trip = sp.expand_log(sp.expand(trip.args[0]), force=True)  # log(exp(y)) = y
    trip = trip.subs({sp.log(alpha - 1): la1, sp.log(alpha): la, sp.log(delta): ld})
    return SmtProblem(real_vars(alpha, tau, delta, la1, la, ld),
                      (sp.Gt(alpha, 1), sp.Ge(tau, 0), sp.Gt(delta, 0), sp.Lt(delta, 1)),
                      sp.Eq(sp.expand(trip * (alpha - 1)), sp.expand(ld * (alpha - 1))),
                      ("A1 = log(alpha - 1), A = log(alpha), D = log(delta)",
                       "log(e^y) = y for real y; both sides times alpha - 1 > 0"))


BALLE20_CONV = Theorem(
    id="BALLE20-CONV",
    title="RDP to (eps, delta): improved conversion",
    family=FAMILY,
    source=cite(BBGHS20, "Thm 21 (arXiv numbering, as cited by Opacus and autodp); = "
                  "[CKS20] Prop. 12 solved for eps; [Aso20] arXiv 2001.05990 Eq. 20"),
    types=("BOUND",),
    confidence=("HIGH",),
    statement="(alpha, tau)-RDP => (eps, delta)-DP with eps = tau + log((alpha - 1)/alpha) - "
              "(log delta + log alpha)/(alpha - 1). For an RDP curve, take the minimum over the "
              "available orders.",
    domain="alpha > 1, tau >= 0, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (ALPHA, TAU, DELTA), balle_eps,
                  "max(0, tau + log((alpha - 1)/alpha) - (log delta + log alpha)/(alpha - 1))"),
        Evaluator("delta", (ALPHA, TAU, EPS_REAL), balle_delta,
                  "CKS20-CONV.delta_rdp(alpha, tau, eps)"),
    ),
    claims=(
        Claim(1, "Exact Gaussian eps <= improved eps minimised over the orders {1 + x/20 : x = "
                 "1..199} ∪ {11, ..., 499} for (mu, delta) in {(1, 1e-5), (0.3, 1e-6), (3, "
                 "1e-3)}, with tau(alpha) = alpha mu^2/2; e.g. mu = 1, delta = 1e-5: 4.37718 <= "
                 "4.72843.",
              (Compare(_gauss_exact_mu, "le", _gauss_curve_balle, _GAUSS_CURVES, "numeric",
                       lhs_name="BW-ANALYTIC-GAUSS.eps(1/mu, delta)",
                       rhs_name="min over the grid of BALLE20-CONV.eps"),
               Compare(_gauss_exact_mu, "eq", const("4.37718"),
                       points({"mu": "1", "delta": "1e-5"}), "numeric", Tol.abs("5e-6"),
                       "exact Gaussian eps(mu = 1, 1e-5)", "4.37718"),
               Compare(_gauss_curve_balle, "eq", const("4.72843"),
                       points({"mu": "1", "delta": "1e-5"}), "numeric", Tol.abs("5e-6"),
                       "grid-minimised BALLE20-CONV.eps(mu = 1, 1e-5)", "4.72843")),
              scope="instance"),
        Claim(2, "The eps form and the delta form agree: delta(alpha, tau, eps(alpha, tau, delta)) "
                 "= delta to 1e-40 at the optimal order of claim 1.",
              (Compare(lambda ctx, alpha, mu, delta: balle_delta(
                           ctx, alpha, alpha * mu**2 / 2,
                           balle_eps(ctx, alpha, alpha * mu**2 / 2, delta)), "eq",
                       lambda ctx, delta, **_: delta,
                       # the grid orders minimising claim 1's eps (asserted in the tests)
                       Points(({"alpha": "5.45", "mu": "1", "delta": "1e-5"},
                               {"alpha": "17", "mu": "0.3", "delta": "1e-6"},
                               {"alpha": "2.15", "mu": "3", "delta": "1e-3"})),
                       "numeric", Tol.rel("1e-40"), "delta(alpha, tau, eps(alpha, tau, delta))",
                       "delta"),), scope="instance"),
        Claim(3, "One step of the Poisson-subsampled Gaussian (q = 0.01, sigma = 1, delta = "
                 "1e-5): the exact eps (SGM-1STEP-EXACT) is 0.19945, while RDP (MTZ-SGM-RDP at "
                 "integer orders 2..128, then this conversion) gives 0.95628.",
              (Compare(sgm_eps_exact, "le", sgm_eps_rdp,
                       points({"q": "0.01", "sigma": "1", "delta": "1e-5"}), "numeric",
                       lhs_name="exact one-step eps", rhs_name="RDP-based eps"),
               Compare(sgm_eps_exact, "eq", const("0.19945"),
                       points({"q": "0.01", "sigma": "1", "delta": "1e-5"}), "numeric",
                       Tol.abs("5e-6"), "exact one-step eps", "0.19945"),
               Compare(sgm_eps_rdp, "eq", const("0.95628"),
                       points({"q": "0.01", "sigma": "1", "delta": "1e-5"}), "numeric",
                       Tol.abs("5e-6"), "RDP-based eps (orders 2..128)", "0.95628")),
              scope="instance"),
        Claim(4, "The same ordering (exact <= RDP-based) for q = 0.1, sigma = 0.8, delta = 1e-6.",
              (Compare(sgm_eps_exact, "le", sgm_eps_rdp,
                       points({"q": "0.1", "sigma": "0.8", "delta": "1e-6"}), "numeric",
                       lhs_name="exact one-step eps", rhs_name="RDP-based eps"),),
              scope="instance"),
        Claim(5, "Round trip: delta(alpha, tau, eps_raw(alpha, tau, delta)) = delta for every "
                 "alpha > 1, tau >= 0, delta in (0, 1), where eps_raw is the unclamped formula "
                 "(the [CKS20] Prop. 12 bound holds for every real eps, so a negative eps_raw is "
                 "still a valid hockey-stick bound). Proved by z3 on the logarithm of both "
                 "formula bodies (log(alpha - 1), log alpha, log delta as variables; "
                 "log(e^y) = y); searched on alpha in [1.0001, 1e4], tau in [0, 100], delta in "
                 "[1e-30, 0.99] (rel 1e-30).",
              (Compare(_balle_round_trip, "eq", lambda ctx, delta, **_: delta, _BALLE_BOX,
                       "property", Tol.rel("1e-30"), "delta(alpha, tau, eps_raw(alpha, tau, "
                       "delta))", "delta"),
               Smt(_balle_round_trip_problem,
                   "log delta_rdp(alpha, tau, eps_raw(alpha, tau, delta)) = log delta"))),
        Claim(6, "The evaluator eps = max(0, eps_raw) is >= 0 for every alpha > 1, tau >= 0, "
                 "delta in (0, 1) (clamping is sound: H_{e^eps} is nonincreasing in eps, so "
                 "(eps_raw, delta) with eps_raw < 0 implies (0, delta)); eps_raw itself is "
                 "negative e.g. at alpha = 2, tau = 0.5, delta = 0.5 (-0.193). Proved over alpha "
                 "in [1.0001, 1e4], tau in [0, 100], delta in [1e-30, 0.99] (interval) and "
                 "searched there.",
              (Compare(balle_eps, "ge", lambda ctx, **_: ctx.zero, _BALLE_BOX, "property",
                       lhs_name="BALLE20-CONV.eps", rhs_name="0"),
               Compare(balle_eps, "ge", lambda ctx, **_: ctx.zero, _BALLE_BOX, "interval",
                       lhs_name="BALLE20-CONV.eps", rhs_name="0"))),
        Claim(7, "Soundness against the exact Gaussian at every order: BW-ANALYTIC-GAUSS.eps(1/mu, "
                 "delta) <= BALLE20-CONV.eps(alpha, alpha mu^2/2, delta) for mu in [0.05, 5], "
                 "alpha in [1.01, 200], delta in [1e-12, 0.5]; searched only.",
              (Compare(lambda ctx, mu, delta, **_: gauss_eps(ctx, 1 / mu, delta), "le",
                       lambda ctx, mu, alpha, delta, **_: balle_eps(ctx, alpha, alpha * mu**2 / 2,
                                                                    delta),
                       Box(reals={"mu": ("0.05", "5"), "alpha": ("1.01", "200"),
                                  "delta": ("1e-12", "0.5")},
                           log_scale=frozenset({"mu", "alpha", "delta"})),
                       "property", lhs_name="exact Gaussian eps",
                       rhs_name="BALLE20-CONV.eps at alpha"),)),
    ),
    notes="The evaluator clamps at 0 (claim 6): the unclamped formula is negative for some "
          "inputs (alpha = 2, tau = 0.5, delta = 0.5 gives -0.193), a valid hockey-stick bound "
          "but not an (eps, delta)-DP parameter. The order grid matters: a coarser grid gives "
          "a larger (still sound) eps. Common "
          "accountants restrict to alpha > 1.01 and short-circuit eps = 0 when delta^2 + "
          "expm1(-tau) >= 0. Claims 3–4 use the subsampled-Gaussian formulas of "
          "theorems/formulas/subsampled_gaussian.py (SGM-1STEP-EXACT; MTZ-SGM-RDP's "
          "integer-order sum).",
)
