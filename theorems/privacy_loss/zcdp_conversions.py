"""zCDP to (eps, delta)-DP: STK-ZCDP-CONV (the Chernoff conversion), STK-REMARK15 (calibration of
rho for a target (eps, delta)) and BS16-L36 (the refined conversion as quoted).

Formulas: :mod:`dpverify.theorems.formulas.conversions`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Smt, SmtProblem, Tol, points
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.conversions import (
    bs16_delta,
    bs16_delta_shift,
    bs16_eps,
    cks_eps,
    remark15_rho,
    zcdp_conv_delta,
    zcdp_conv_eps,
)
from dpverify.theorems.formulas.gaussian import gauss_delta
from dpverify.theorems.params import DELTA, EPS, RHO
from dpverify.theorems.privacy_loss.common import CONV_REGIMES, FAMILY, const, gauss_eps_at_rho, sym
from dpverify.theorems.privacy_loss.mutation_guards import BS16_BOX, bs16_delta_cleared
from dpverify.theorems.privacy_loss.universal import real_vars
from dpverify.theorems.refs import BS16, S22, cite
from dpverify.theorems.symbolic import polynomial_roots

# ==========================================================================================
# STK-ZCDP-CONV and STK-REMARK15


def _zcdp_inverse_problem() -> SmtProblem:
    import sympy as sp

    rho, L, s, eps = sym("rho", "L", "s", "eps")
    return SmtProblem(
        {"rho": "real", "L": "real", "s": "real", "eps": "real"},
        (sp.Gt(rho, 0), sp.Gt(L, 0), sp.Ge(s, 0), sp.Eq(s**2, rho * L),
         sp.Eq(eps, rho + 2 * s)),
        sp.Eq((eps - rho) ** 2, 4 * rho * L),
        ("L = log(1/delta) > 0", "s = sqrt(rho L)", "delta(rho, eps) = e^{-(eps-rho)^2/(4 rho)}"),
    )


_SOUND_BOX = Box(reals={"rho": ("1e-4", "50"), "delta": ("1e-15", "0.9")},
                 log_scale=frozenset({"rho", "delta"}))


def _gauss_delta_at_zcdp_eps(ctx: Any, rho: Any, delta: Any, **_: Any) -> Any:
    return gauss_delta(ctx, 1 / ctx.sqrt(2 * rho), zcdp_conv_eps(ctx, rho, delta))


STK_ZCDP_CONV = Theorem(
    id="STK-ZCDP-CONV",
    title="zCDP to (eps, delta)-DP, simple form",
    family=FAMILY,
    source=cite(BS16, "Prop. 1.3; [S22] Sec. 4.1"),
    types=("BOUND",),
    confidence=("HIGH",),
    statement=(
        "rho-zCDP => (eps, delta)-DP with delta = exp(-(eps - rho)^2/(4 rho)) for eps >= rho; "
        "equivalently eps = rho + 2 sqrt(rho log(1/delta)) for any delta in (0, 1)."
    ),
    domain="rho > 0; eps >= rho for the delta form; delta in (0, 1) for the eps form",
    evaluators=(
        Evaluator("eps", (RHO, DELTA), zcdp_conv_eps, "rho + 2 sqrt(rho log(1/delta))"),
        Evaluator("delta", (RHO, EPS), zcdp_conv_delta,
                  "exp(-(eps - rho)^2/(4 rho)) for eps >= rho; 1 (no guarantee) below"),
    ),
    claims=(
        Claim(1, "The inversion identity delta(rho, eps(rho, delta)) = delta holds to 1e-45 for "
                 "(rho, delta) in {(0.01, 1e-6), (0.5, 1e-5), (2, 1e-10), (0.001, 1e-3)}; "
                 "symbolically for all rho > 0, delta in (0, 1).",
              (Compare(lambda ctx, rho, delta: zcdp_conv_delta(
                           ctx, rho, zcdp_conv_eps(ctx, rho, delta)), "eq",
                       lambda ctx, delta, **_: delta, CONV_REGIMES, "numeric",
                       Tol.rel("1e-45"), "delta(rho, eps(rho, delta))", "delta"),
               Smt(_zcdp_inverse_problem,
                   "eps = rho + 2 sqrt(rho L)  =>  (eps - rho)^2/(4 rho) = L (L = log 1/delta)"))),
        Claim(2, "CKS20-CONV.eps <= STK-ZCDP-CONV.eps in the same 4 regimes, e.g. rho = 0.5, "
                 "delta = 1e-5: CKS 4.7284 vs simple 5.2985, while the exact Gaussian gives "
                 "4.3772.",
              (Compare(lambda ctx, rho, delta: cks_eps(ctx, rho, delta), "le", zcdp_conv_eps,
                       CONV_REGIMES, "numeric", lhs_name="CKS20-CONV.eps",
                       rhs_name="STK-ZCDP-CONV.eps"),
               Compare(lambda ctx, rho, delta: cks_eps(ctx, rho, delta), "eq", const("4.7284"),
                       points({"rho": "0.5", "delta": "1e-5"}), "numeric", Tol.abs("5e-5"),
                       "CKS20-CONV.eps(0.5, 1e-5)", "4.7284"),
               Compare(zcdp_conv_eps, "eq", const("5.2985"),
                       points({"rho": "0.5", "delta": "1e-5"}), "numeric", Tol.abs("5e-5"),
                       "STK-ZCDP-CONV.eps(0.5, 1e-5)", "5.2985"),
               Compare(gauss_eps_at_rho, "eq", const("4.3772"),
                       points({"rho": "0.5", "delta": "1e-5"}), "numeric", Tol.abs("5e-5"),
                       "BW-ANALYTIC-GAUSS.eps(1, 1e-5)", "4.3772")), scope="instance"),
        Claim(3, "Soundness against the Gaussian: BW-ANALYTIC-GAUSS.eps(1/sqrt(2 rho), delta) "
                 "<= eps(rho, delta) for all rho > 0, delta in (0, 1). Searched on rho in "
                 "[1e-4, 50], delta in [1e-15, 0.9]; proved on that box (interval) in the "
                 "equivalent delta form BW-ANALYTIC-GAUSS.delta(1/sqrt(2 rho), eps(rho, delta)) "
                 "<= delta (eps(rho, delta) >= 0 and the BW eps is the least eps >= 0 with "
                 "BW delta <= delta).",
              (Compare(gauss_eps_at_rho, "le", zcdp_conv_eps, _SOUND_BOX,
                       "property", lhs_name="exact Gaussian eps",
                       rhs_name="rho + 2 sqrt(rho L)"),
               Compare(_gauss_delta_at_zcdp_eps, "le", lambda ctx, delta, **_: delta,
                       _SOUND_BOX, "interval",
                       lhs_name="BW delta(1/sqrt(2 rho), rho + 2 sqrt(rho L))",
                       rhs_name="delta"))),
    ),
    aliases=("BS16-ZCDP-CONV",),
    notes="Proof: Chernoff bound on P[Z > eps] with the sufficient condition of STK-APPROX-PLD. "
          "Loose by a constant inside the log (see CKS20-CONV).",
)


def _remark15_problem() -> SmtProblem:
    import sympy as sp

    eps, L, rho, s = sym("eps", "L", "rho", "s")
    return SmtProblem(
        {"eps": "real", "L": "real", "rho": "real", "s": "real"},
        (sp.Gt(eps, 0), sp.Gt(L, 0), sp.Gt(rho, 0), sp.Ge(s, 0), sp.Eq(s**2, rho * L),
         sp.Eq(4 * rho * (L + eps), eps**2)),
        sp.Le(rho + 2 * s, eps),
        ("L = log(1/delta) > 0", "rho = eps^2/(4L + 4 eps)", "s = sqrt(rho L)"),
    )


STK_REMARK15 = Theorem(
    id="STK-REMARK15",
    title="Calibration of rho for a target (eps, delta)",
    family=FAMILY,
    source=cite(S22, "Remark 15"),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement="Setting rho = eps^2/(4 log(1/delta) + 4 eps) suffices for rho-zCDP => (eps, "
              "delta)-DP, i.e. rho + 2 sqrt(rho log(1/delta)) <= eps.",
    domain="eps > 0, delta in (0, 1)",
    evaluators=(Evaluator("rho", (replace(EPS, lo_open=True), DELTA), remark15_rho,
                          "eps^2/(4 log(1/delta) + 4 eps)"),),
    claims=(
        Claim(1, "STK-ZCDP-CONV.eps(rho(eps, delta), delta) <= eps for (eps, delta) in "
                 "{(1, 1e-6), (0.1, 1e-5), (8, 1e-9)}.",
              (Compare(lambda ctx, eps, delta: zcdp_conv_eps(ctx, remark15_rho(ctx, eps, delta),
                                                             delta), "le",
                       lambda ctx, eps, **_: eps,
                       Points(({"eps": "1", "delta": "1e-6"}, {"eps": "0.1", "delta": "1e-5"},
                               {"eps": "8", "delta": "1e-9"})),
                       "numeric", lhs_name="STK-ZCDP-CONV.eps(rho(eps, delta), delta)",
                       rhs_name="eps"),), scope="instance"),
        Claim(2, "The same inequality for all eps > 0 and delta in (0, 1): with L = log(1/delta) "
                 "and u = L/(L + eps) it reduces to sqrt(u) <= (3 + u)/4, i.e. (u - 1)(u - 9) "
                 ">= 0 on (0, 1].",
              (Smt(_remark15_problem,
                   "4 rho (L + eps) = eps^2, s^2 = rho L, s >= 0  =>  rho + 2 s <= eps"),)),
    ),
    notes="To reach (eps, delta) through zCDP: set rho by this formula and use a rho-zCDP "
          "mechanism, e.g. the Gaussian with sigma = 1/sqrt(2 rho).",
)


# ==========================================================================================
# BS16-L36


def _bs16_minus_cks(ctx: Any, rho: Any, delta: Any) -> Any:
    return bs16_eps(ctx, rho, delta) - cks_eps(ctx, rho, delta)


def _bs16_at_shift(ctx: Any, rho: Any, x: Any, **_: Any) -> Any:
    return bs16_delta(ctx, rho, rho + x)


def _chernoff_at_shift(ctx: Any, rho: Any, x: Any, **_: Any) -> Any:
    return zcdp_conv_delta(ctx, rho, rho + x)


def _below_delta_at_rho(point: dict[str, Any]) -> bool:
    """Is delta below ``bs16_delta(rho, rho) = 2/(2 + sqrt(1 + 4/(pi rho)))`` (floats, only to
    choose the search region)?"""
    rho = float(point["rho"])
    return float(point["delta"]) < 0.999 * 2 / (2 + math.sqrt(1 + 4 / (math.pi * rho)))


def _bs16_le_chernoff_problem() -> SmtProblem:
    import sympy as sp

    ctx = SymCtx()
    rho = sp.Symbol("rho", positive=True)
    x = sp.Symbol("x", nonnegative=True)
    e, pi_ = sp.symbols("E P", positive=True)
    lhs = bs16_delta(ctx, rho, rho + x)
    rhs = zcdp_conv_delta(ctx, rho, rho + x)
    gauss = sp.exp(-(x**2) / (4 * rho))
    lhs, rhs = (v.subs(gauss, e).subs(sp.pi, pi_) for v in (lhs, rhs))
    hyps, lhs, roots = polynomial_roots(lhs)
    return SmtProblem(real_vars(rho, x, e, pi_, *roots),
                      (sp.Gt(rho, 0), sp.Ge(x, 0), sp.Gt(e, 0), sp.Gt(pi_, 3), sp.Lt(pi_, 4),
                       *hyps),
                      sp.Le(lhs, rhs),
                      ("x = eps - rho >= 0", "E = e^{-x^2/(4 rho)}", "P = pi in (3, 4)",
                       "r0 = the square root of the quoted denominator"))


def _bs16_cleared_problem() -> SmtProblem:
    """BS16-L36 claim 5 for every rho > 0, x >= 0: both arrangements evaluated symbolically from
    the SAME bodies (``bs16_delta_shift``, ``bs16_delta_cleared``), ``E = e^{-x^2/(4 rho)}`` and
    ``P = pi`` free positive variables (so every positive value of pi is covered), each square
    root an auxiliary ``r_i >= 0`` with ``r_i^2`` its radicand."""
    import sympy as sp

    ctx = SymCtx()
    rho = sp.Symbol("rho", positive=True)
    x = sp.Symbol("x", nonnegative=True)
    e, pi_ = sp.symbols("E P", positive=True)
    gauss = sp.exp(-(x**2) / (4 * rho))
    lhs, rhs = (v.subs(gauss, e).subs(sp.pi, pi_)
                for v in (bs16_delta_shift(ctx, rho, x), bs16_delta_cleared(ctx, rho, x)))
    hyps_l, lhs, roots_l = polynomial_roots(lhs, "r")
    hyps_r, rhs, roots_r = polynomial_roots(rhs, "s")
    return SmtProblem(real_vars(rho, x, e, pi_, *roots_l, *roots_r),
                      (sp.Gt(rho, 0), sp.Ge(x, 0), sp.Gt(e, 0), sp.Gt(pi_, 0), *hyps_l, *hyps_r),
                      sp.Eq(lhs, rhs, evaluate=False),
                      ("x = eps - rho >= 0", "E = e^{-x^2/(4 rho)}", "P = pi > 0 (any positive)",
                       "r0, s0 = the square roots of the two denominators"))


def _bs16_cleared_fails(ctx: Any, rho: Any, x: Any, **_: Any) -> bool:
    """Does claim 5 fail at a z3 model's (rho, x), with the true e^{-x^2/(4 rho)} and pi?"""
    lhs, rhs = bs16_delta_shift(ctx, rho, x), bs16_delta_cleared(ctx, rho, x)
    return bool(abs(lhs - rhs) > abs(rhs) / 10**30)


BS16_L36 = Theorem(
    id="BS16-L36",
    title="Refined zCDP to (eps, delta) conversion (Bun–Steinke Lemma 3.6, as quoted)",
    family=FAMILY,
    source=cite(BS16, "Lemma 3.6, as quoted by a secondary source (the paper's display "
                  "could not be read)"),
    types=("BOUND",),
    confidence=("UNCERTAIN",),
    statement=(
        "Formula as quoted: delta = 2 e^{-(eps-rho)^2/(4rho)}/(1 + a + sqrt((1+a)^2 + 4/(pi "
        "rho))) with a = (eps - rho)/(2 rho), roughly sqrt(pi rho) e^{-(eps-rho)^2/(4rho)} for "
        "small rho."
    ),
    domain="rho > 0, eps >= rho",
    evaluators=(
        Evaluator("delta", (RHO, EPS), bs16_delta,
                  "the quoted formula for eps >= rho; 1 (no guarantee) below"),
        Evaluator("eps", (RHO, DELTA), bs16_eps,
                  "least eps >= rho with delta(rho, eps) <= delta (bisection)"),
    ),
    claims=(
        Claim(1, "Exact Gaussian eps <= BS16 eps in the 4 regimes of CKS20-CONV claim 1.",
              (Compare(gauss_eps_at_rho, "le", bs16_eps, CONV_REGIMES, "numeric",
                       lhs_name="exact Gaussian eps", rhs_name="BS16-L36.eps"),), scope="instance"),
        Claim(2, "BS16-L36.eps - CKS20-CONV.eps lies in [0.017, 0.26] in those regimes (it is "
                 "worse than CKS). Erratum: the catalogue's interval is a rounding of the "
                 "observed range; the certified differences are 0.016886... at (0.001, 1e-3) and "
                 "0.263254... at (2, 1e-10), outside [0.017, 0.26] (BS16 is still worse than CKS "
                 "everywhere).",
              (Compare(_bs16_minus_cks, "gt", lambda ctx, **_: ctx.zero, CONV_REGIMES,
                       "numeric", lhs_name="BS16-L36.eps - CKS20-CONV.eps", rhs_name="0"),
               Compare(_bs16_minus_cks, "ge", const("0.017"), CONV_REGIMES, "numeric",
                       lhs_name="BS16-L36.eps - CKS20-CONV.eps", rhs_name="0.017"),
               Compare(_bs16_minus_cks, "le", const("0.26"), CONV_REGIMES, "numeric",
                       lhs_name="BS16-L36.eps - CKS20-CONV.eps", rhs_name="0.26")),
              expected="refuted", scope="instance"),
        Claim(3, "The quoted delta is at most the Chernoff delta of STK-ZCDP-CONV for every rho "
                 "> 0 and eps >= rho (its denominator 1 + a + sqrt((1 + a)^2 + 4/(pi rho)) "
                 "exceeds 2): proved by z3 for all rho > 0, x = eps - rho >= 0 (both formulas "
                 "evaluated symbolically; E = e^{-x^2/(4 rho)} > 0 and pi in (3, 4) as "
                 "variables, the square root as r >= 0 with r^2 = its radicand); searched on rho "
                 "in [1e-4, 50], x in [1e-12, 50] (at x = 0 the branch test eps < rho of both "
                 "evaluators is undecided in ball arithmetic).",
              (Compare(_bs16_at_shift, "le", _chernoff_at_shift,
                       Box(reals={"rho": ("1e-4", "50"), "x": ("1e-12", "50")},
                           log_scale=frozenset({"rho", "x"})),
                       "property", lhs_name="BS16-L36.delta(rho, rho + x)",
                       rhs_name="STK-ZCDP-CONV.delta(rho, rho + x)"),
               Smt(_bs16_le_chernoff_problem,
                   "BS16-L36.delta(rho, rho + x) <= STK-ZCDP-CONV.delta(rho, rho + x)"))),
        Claim(4, "Round trip of the inverse evaluator: delta(rho, eps(rho, delta)) = delta (rel "
                 "1e-20) for rho in [1e-3, 10] and delta in [1e-12, 0.9] below delta(rho, rho) "
                 "(above it eps = rho and the round trip is an inequality); searched only (the "
                 "inverse is a bisection).",
              (Compare(lambda ctx, rho, delta, **_: bs16_delta(ctx, rho, bs16_eps(ctx, rho, delta)),
                       "eq", lambda ctx, delta, **_: delta,
                       Box(reals={"rho": ("1e-3", "10"), "delta": ("1e-12", "0.9")},
                           log_scale=frozenset({"rho", "delta"}),
                           constraint=_below_delta_at_rho),
                       "property", Tol(rel_tol=Fraction(1, 10**20)),
                       "delta(rho, eps(rho, delta))", "delta"),)),
        Claim(5, "The quoted delta, 2 e^{-x^2/(4 rho)}/(1 + a + sqrt((1 + a)^2 + 4/(pi rho))) with "
                 "a = x/(2 rho) and x = eps - rho, equals 4 rho e^{-x^2/(4 rho)}/(eps + rho + "
                 "sqrt((eps + rho)^2 + 16 rho/pi)) (numerator and denominator times 2 rho; a "
                 "mutation guard, theorems/privacy_loss/mutation_guards.py): proved by z3 for "
                 "every rho > 0, x >= 0 (both forms evaluated symbolically; E = e^{-x^2/(4 rho)} "
                 "and pi as positive variables, each square root as an auxiliary variable); "
                 "searched on rho in [1e-4, 50], x in [0, 50] (rel 1e-30).",
              (Smt(_bs16_cleared_problem, "BS16-L36 delta at eps = rho + x = the cleared form, "
                   "rho > 0, x >= 0", check_model=_bs16_cleared_fails),
               Compare(lambda ctx, rho, x, **_: bs16_delta_shift(ctx, rho, x), "eq",
                       bs16_delta_cleared, BS16_BOX, "property",
                       Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**30)),
                       "BS16-L36 delta at eps = rho + x", "the cleared form"))),
    ),
    aliases=("BS16-L3.6",),
    notes="Alias BS16-L3.6 (the dot is dropped in the id because '.' separates an id from an "
          "evaluator). Do not use it as the primary conversion; CKS20-CONV is simpler to "
          "justify and tighter. Only the weaker form eps = rho + sqrt(4 rho log(sqrt(pi rho)/"
          "delta)) (the quoted bound's sqrt(pi rho) majorant) circulates in public code.",
)
