"""Trade-off curves: DRS-TRADEOFF (definitions, f_{eps,delta}, G_mu), DRS-DUALITY (primal-dual
conversion, by golden-section routes independent of the closed forms) and DRS-LAPLACE-FDP.

Formulas: :mod:`dpverify.theorems.formulas.tradeoff`.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
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
    grid,
)
from dpverify.theorems.core import Evaluator, Real, Theorem
from dpverify.theorems.fdp.common import FAMILY, FPR, FPR_GRID, PAIRS, const
from dpverify.theorems.fdp.smt_forms import (
    gauss_complement_problem,
    gauss_round_trip_problem,
    laplace_cdf_problem,
    laplace_symmetry_problem,
)
from dpverify.theorems.fdp.smt_pairs import (
    DUAL_MAX_CASES,
    characterization_problem,
    dp_iff_fdp_problem,
    dual_max_problem,
    fenchel_young_problem,
)
from dpverify.theorems.formulas.gdp import gdp_delta
from dpverify.theorems.formulas.tradeoff import (
    delta_gauss_golden,
    delta_laplace_golden,
    f_approx,
    f_gauss,
    f_gauss_dual,
    golden_max,
    laplace_f,
    laplace_mu_gdp,
    laplace_tradeoff_cdf,
    laplace_tradeoff_mu,
    ninv,
    tpr_gauss,
)
from dpverify.theorems.formulas.tradeoff_composition import (
    f_approx_exact,
    f_rr_list,
    hockey_stick,
    np_curve,
    np_vertices,
)
from dpverify.theorems.params import EPS, EPS_REAL, MU, SENSITIVITY, B
from dpverify.theorems.refs import DRS, cite
from dpverify.theorems.values import exact_params

DELTA_CLOSED = Real("delta", lo=0, hi=1, doc="delta of f_{eps,delta}")

# ------------------------------------------------------------------------------------------
# DRS-TRADEOFF


@exact_params("p", "q", "x", "delta")
def _characterization(ctx: Any, p: Any, q: Any, **_: Any) -> bool:
    """The Neyman-Pearson curve is convex, nonincreasing, T(1) = 0, T(a) <= 1 - a (exact)."""
    v = np_vertices(p, q)
    vals = [np_curve(v, a) for a in FPR_GRID]
    slopes = [(b1 - b0) / (a1 - a0) for (a0, b0), (a1, b1) in itertools.pairwise(v)
              if a1 > a0]
    return (all(s <= 0 for s in slopes) and all(s0 <= s1 for s0, s1 in itertools.pairwise(slopes))
            and vals[-1] == 0 and all(t <= 1 - a for t, a in zip(vals, FPR_GRID, strict=True)))


@exact_params("p", "q", "x", "delta")
def _dp_iff_fdp(ctx: Any, p: Any, q: Any, x: Any, delta: Any, **_: Any) -> bool:
    """max(H_x(P||Q), H_x(Q||P)) <= delta iff both curves >= f_{x,delta} at every vertex."""
    dp = max(hockey_stick(p, q, x), hockey_stick(q, p, x)) <= delta
    fdp = all(b >= f_approx_exact(x, delta, a) for pp, qq in ((p, q), (q, p))
              for a, b in np_vertices(pp, qq))
    return dp == fdp


def _rr_np(ctx: Any, fpr: Any, **_: Any) -> Any:
    return f_rr_list(ctx, [ctx.one], fpr)


def _fa(eps: str, delta: str) -> Any:
    return lambda ctx, fpr, **_: f_approx(ctx, ctx.num(eps), ctx.num(delta), fpr)


def _fa_round_trip_problem() -> SmtProblem:
    """``f(f(a)) = a`` on ``[0, 1 - delta]`` with ``x = e^eps``: the piecewise-linear identity."""
    import sympy as sp

    x, d, a = sp.symbols("x d a", real=True)

    def f(t: Any) -> Any:
        return sp.Max(0, 1 - d - x * t, (1 - d - t) / x)

    hyps = (sp.Ge(x, 1), sp.Ge(d, 0), sp.Le(d, 1), sp.Ge(a, 0), sp.Le(a, 1 - d))
    return SmtProblem({"x": "real", "d": "real", "a": "real"}, hyps, sp.Eq(f(f(a)), a),
                      ("x = e^eps", "d = delta"))


_GAUSS_BOX = Box(reals={"mu": ("0.05", "6"), "fpr": ("1e-8", "0.99999")},
                 log_scale=frozenset({"fpr"}))

DRS_TRADEOFF = Theorem(
    id="DRS-TRADEOFF",
    title="Trade-off functions, f-DP, and the trade-off forms of (eps, delta)-DP and GDP",
    family=FAMILY,
    source=cite(DRS, "Def. 2.1, Prop. 2.2, Def. 2.3, Prop. 2.5, Def. 2.6 (numbers recalled); "
                "formulas read in autodp converter.approxdp_to_fdp, fdp_bank.fDP_gaussian "
                "(06489ea) and dp_accounting get_true_positive_rates (b5b0286e)"),
    types=("DEFINITION", "EXACT"),
    confidence=("CONFIRMED", "HIGH"),
    statement="T(P,Q)(a) = inf{beta_phi : alpha_phi <= a}; f is a trade-off function iff convex, "
              "continuous, nonincreasing, f(a) <= 1 - a. (eps, delta)-DP iff f_{eps,delta}-DP with "
              "f_{eps,delta}(a) = max(0, 1 - delta - e^eps a, e^{-eps}(1 - delta - a)); f_{eps,0} "
              "= T(RR(eps)). G_mu(a) = Phi(Phi^{-1}(1 - a) - mu) = T(N(0,1), N(mu,1)); TPR "
              "1 - G_mu(a) = Phi(Phi^{-1}(a) + mu). f_{eps,delta} and G_mu are symmetric.",
    domain="fpr in [0, 1]; eps >= 0; delta in [0, 1]; mu >= 0",
    evaluators=(
        Evaluator("f_approx", (EPS, DELTA_CLOSED, FPR), f_approx,
                  "max(0, 1 - delta - e^eps fpr, e^{-eps}(1 - delta - fpr))"),
        Evaluator("f_gauss", (MU, FPR), f_gauss, "Phi(-Phi^{-1}(fpr) - mu) = G_mu(fpr)"),
        Evaluator("tpr_gauss", (MU, FPR), tpr_gauss,
                  "Phi(Phi^{-1}(fpr) + mu) = 1 - G_mu(fpr), computed directly"),
    ),
    claims=(
        Claim(1, "Neyman-Pearson enumeration of RR(1) equals f_approx(1, 0, fpr) to 1e-45 at fpr "
                 "in {0.05, 0.2, 1/(1+e), 0.5, 0.9} (RR is symmetric, so both orders coincide; "
                 "plus fpr = 0.26894142137 for 1/(1+e)).",
              (Compare(_rr_np, "eq", _fa("1", "0"),
                       grid(fpr=["0.05", "0.2", "0.2689414213699951", "0.5", "0.9"]), "oracle",
                       Tol.abs("1e-45"), "NP curve of RR(1)", "f_approx(1, 0, fpr)"),),
              scope="instance"),
        Claim(2, "Worked values: f_approx(1, 0, 0.1) = 0.7281718171540955, f_approx(1, 1e-3, "
                 "0.1) = 0.7271718171540955, f_gauss(1, 0.1) = 0.6108563083546390, f_gauss(1, "
                 "0.5) = Phi(-1) = 0.1586552539314571 (to 1e-15).",
              (Compare(_fa("1", "0"), "eq", const("0.7281718171540955"),
                       Points(({"fpr": "0.1"},)), "numeric", Tol.abs("1e-15")),
               Compare(_fa("1", "1e-3"), "eq", const("0.7271718171540955"),
                       Points(({"fpr": "0.1"},)), "numeric", Tol.abs("1e-15")),
               Compare(lambda ctx, fpr, **_: f_gauss(ctx, ctx.one, fpr), "eq",
                       const("0.6108563083546390"), Points(({"fpr": "0.1"},)), "numeric",
                       Tol.abs("1e-15")),
               Compare(lambda ctx, fpr, **_: f_gauss(ctx, ctx.one, fpr), "eq",
                       lambda ctx, **_: ctx.ncdf(-ctx.one), Points(({"fpr": "0.5"},)),
                       "numeric", Tol.abs("1e-40"))),
              scope="instance"),
        Claim(3, "Characterization on random finite pairs with up to 8 outcomes: the exact "
                 "(rational) Neyman-Pearson curve is convex, nonincreasing, T(1) = 0 and T(a) <= "
                 "1 - a on the grid a = i/20 [oracle]. Proved for EVERY pair on 2 or 3 outcomes "
                 "(masses real variables; one case per order of the likelihood ratios, vertices "
                 "from the same accumulation as the exact routine): the vertices are monotone, "
                 "every turn convex, the last is (1, 0) and 0 <= b <= 1 - a at each (z3) [smt].",
              (Predicate(_characterization, PAIRS, "oracle",
                         "NP curve convex, nonincreasing, T(1) = 0, T <= Id"),
               Smt(characterization_problem, "NP vertices of every pair on <= 3 outcomes: "
                   "monotone, convex, end (1, 0), 0 <= b <= 1 - a"))),
        Claim(4, "Symmetry: f_gauss(mu, f_gauss(mu, a)) = a over mu in [0.05, 6], a in [1e-8, "
                 "0.99999] (relative 1e-25) [property], and for every mu >= 0, a in (0, 1) "
                 "[smt: the formula body in sympy, Phi^{-1}(p) = -sqrt(2) erfcinv(2p), with the "
                 "one rewriting erfcinv(erfc(z)) = z for real z]; f_approx(eps, delta, "
                 "f_approx(eps, delta, a)) = a for every x = e^eps >= 1, delta in [0, 1], a in "
                 "[0, 1 - delta] (piecewise-linear identity, z3) [smt].",
              (Compare(lambda ctx, mu, fpr, **_: f_gauss(ctx, mu, f_gauss(ctx, mu, fpr)), "eq",
                       lambda ctx, fpr, **_: fpr, _GAUSS_BOX, "property", Tol.rel("1e-25"),
                       "G_mu(G_mu(a))", "a", ctx="mp", part="f_gauss"),
               Smt(gauss_round_trip_problem, "G_mu(G_mu(a)) = a, mu >= 0, a in (0, 1) (sympy: "
                   "Phi^{-1} = -sqrt(2) erfcinv(2p), erfcinv(erfc(z)) = z for real z)",
                   part="f_gauss"),
               Smt(_fa_round_trip_problem, "Max(0, 1-d-x f, (1-d-f)/x) at f = f(a) equals a",
                   part="f_approx")),
              ),
        Claim(5, "(eps, delta)-DP iff f_{eps,delta}-DP on random finite pairs (exact rationals, "
                 "x = e^eps rational): max(H_x(P||Q), H_x(Q||P)) <= delta iff both T(P,Q) and "
                 "T(Q,P) are >= f_{eps,delta} at every Neyman-Pearson vertex [oracle, up to 8 "
                 "outcomes]. Proved for EVERY pair on 2 outcomes, every real x = e^eps >= 1 and "
                 "delta in [0, 1] (masses real variables, one case per likelihood-ratio order, "
                 "formula bodies with sympy.Max; z3) [smt]; three outcomes do not close in the "
                 "budget.",
              (Predicate(_dp_iff_fdp, PAIRS, "oracle", "DP iff f-DP, both orders"),
               Smt(dp_iff_fdp_problem, "every pair on 2 outcomes, x >= 1, delta in [0, 1]: "
                   "DP iff f-DP (both orders)"))),
        Claim(6, "Tail evaluation: tpr_gauss(1, 1e-12) = 7.973580104641081e-10 (relative 1e-14); "
                 "the float64 route 1 - Phi(Phi^{-1}(1 - 1e-12) - 1) is wrong in the fifth digit.",
              (Compare(lambda ctx, fpr, **_: tpr_gauss(ctx, ctx.one, fpr), "eq",
                       const("7.973580104641081e-10"), Points(({"fpr": "1e-12"},)), "numeric",
                       Tol.rel("1e-14")),),
              scope="instance"),
        Claim(7, "TPR and trade-off are complementary: tpr_gauss(mu, a) + f_gauss(mu, a) = 1 "
                 "over mu in [0.05, 6], a in [1e-8, 0.99999] (relative 1e-30; two separately "
                 "written formulas) [property]; for every mu >= 0, a in (0, 1) [smt: both formula "
                 "bodies in sympy, Phi^{-1}(p) = -sqrt(2) erfcinv(2p), Phi(z) + Phi(-z) = 1].",
              (Compare(lambda ctx, mu, fpr, **_: tpr_gauss(ctx, mu, fpr) + f_gauss(ctx, mu, fpr),
                       "eq", lambda ctx, **_: ctx.one, _GAUSS_BOX, "property", Tol.rel("1e-30"),
                       "tpr + G_mu", "1"),
               Smt(gauss_complement_problem, "tpr_gauss + f_gauss = 1, mu >= 0, a in (0, 1) "
                   "(sympy: erfc(-w) = 2 - erfc(w))"))),
    ),
    notes="autodp fdp_bank.fDP_approx_DP (06489ea) lacks a multiplication sign (TypeError for "
          "finite eps > 0); converter.approxdp_to_fdp is correct.",
)

# ------------------------------------------------------------------------------------------
# DRS-DUALITY


@exact_params("p", "q", "x", "delta")
def _fenchel_young(ctx: Any, p: Any, q: Any, **_: Any) -> bool:
    """T(P,Q)(a) >= f_{x, delta(x)}(a) for the two-order profile delta(x), x on a grid."""
    v = np_vertices(p, q)
    for i in range(10, 41, 3):
        x = Fraction(i, 10)
        d = max(hockey_stick(p, q, x), hockey_stick(q, p, x))
        if any(np_curve(v, a) < f_approx_exact(x, d, a) for a in FPR_GRID):
            return False
    return True


def _finite_dual_max(two_order: bool) -> Any:
    """Is the dual-to-primal sup over x >= 1 attained at x in {1} ∪ {likelihood ratios >= 1}?
    At a random x: f_{x, delta(x)} <= max over those x_r of f_{x_r, delta(x_r)} (exact, a on
    the grid i/20). delta is H_x(P||Q) alone, or the two-order max when ``two_order``."""

    @exact_params("p", "q", "x", "delta")
    def test(ctx: Any, p: Any, q: Any, x: Any, **_: Any) -> bool:
        pairs = ((p, q), (q, p)) if two_order else ((p, q),)
        ratios = {a / b for pp, qq in pairs for a, b in zip(pp, qq, strict=True)
                  if a > 0 and b > 0 and a >= b} | {Fraction(1)}

        def line(xx: Fraction, a: Fraction) -> Fraction:
            d = max(hockey_stick(pp, qq, xx) for pp, qq in pairs)
            return f_approx_exact(xx, d, a)

        return all(line(x, a) <= max(line(r, a) for r in ratios) for a in FPR_GRID)

    return test


def _stk_laplace(ctx: Any, eps: Any, **_: Any) -> Any:
    return 1 - ctx.exp((eps - 1) / 2)


DRS_DUALITY = Theorem(
    id="DRS-DUALITY",
    title="Primal-dual conversion between f-DP and the (eps, delta(eps)) privacy profile",
    family=FAMILY,
    source=cite(DRS, "Prop. 2.12 and the following proposition; Cor. 2.13 (numbers recalled, "
                "[UNCERTAIN]); read in autodp converter.fdp_fdp_grad_to_approxdp, "
                "converter.approxdp_func_to_fdp"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="For f = T(P,Q): H_{e^eps}(Q||P) = 1 + f*(-e^eps) = sup_a (1 - f(a) - e^eps a). For "
              "symmetric f, f-DP iff (eps, 1 + f*(-e^eps))-DP for all eps >= 0, and "
              "sup_{eps >= 0} f_{eps, 1 + f*(-e^eps)} = f. Non-symmetric f: the two-order profile "
              "is max(1 + f*(-e^eps), 1 + (f^{-1})*(-e^eps)).",
    domain="eps real for the identity (eps >= 0 for the DP statements); f a trade-off function",
    evaluators=(
        Evaluator("delta_gauss", (MU, EPS_REAL), delta_gauss_golden,
                  "sup_a [1 - G_mu(a) - e^eps a] by golden section over the threshold tests"),
        Evaluator("f_gauss_dual", (MU, FPR), f_gauss_dual,
                  "sup_{eps in [0, 20]} f_{eps, DRS-GDP.delta(mu, eps)}(fpr) by golden section"),
        Evaluator("delta_laplace", (B, EPS_REAL, SENSITIVITY), delta_laplace_golden,
                  "sup_a [1 - T_Lap(a) - e^eps a] by golden section"),
    ),
    claims=(
        Claim(1, "delta_gauss(1, eps) equals DRS-GDP.delta(1, eps) to 1e-30 at eps in {0, 0.5, "
                 "1, 3}.",
              (Compare(lambda ctx, eps, **_: delta_gauss_golden(ctx, ctx.one, eps), "eq",
                       lambda ctx, eps, **_: gdp_delta(ctx, ctx.one, eps),
                       grid(eps=["0", "0.5", "1", "3"]), "numeric", Tol.abs("1e-30"),
                       "golden-section sup", "DRS-GDP.delta", ctx="mp"),),
              scope="instance"),
        Claim(2, "f_gauss_dual(1, fpr) equals G_1(fpr) to 1e-30 at fpr in {0.01, 0.1, 0.3, 0.5, "
                 "0.8}.",
              (Compare(lambda ctx, fpr, **_: f_gauss_dual(ctx, ctx.one, fpr), "eq",
                       lambda ctx, fpr, **_: f_gauss(ctx, ctx.one, fpr),
                       grid(fpr=["0.01", "0.1", "0.3", "0.5", "0.8"]), "numeric",
                       Tol.abs("1e-30"), "dual-to-primal sup", "G_1", ctx="mp"),),
              scope="instance"),
        Claim(3, "delta_laplace(1, eps) equals STK-LAPLACE.delta(1, eps) = 1 - e^{(eps-1)/2} to "
                 "1e-30 at eps in {0, 0.3, 0.9}.",
              (Compare(lambda ctx, eps, **_: delta_laplace_golden(ctx, ctx.one, eps, ctx.one),
                       "eq", _stk_laplace, grid(eps=["0", "0.3", "0.9"]), "numeric",
                       Tol.abs("1e-30"), "golden-section sup", "1 - e^{(eps-1)/2}", ctx="mp"),),
              scope="instance"),
        Claim(4, "Fenchel-Young on random finite pairs (exact): T(P,Q)(a) >= "
                 "f_{eps, delta(eps)}(a) "
                 "for a = i/20 and x = e^eps in {1, 1.3, ..., 4}, delta the two-order profile "
                 "[oracle, up to 8 outcomes]. Proved for EVERY pair on 2 outcomes and every real "
                 "x = e^eps >= 1 at every Neyman-Pearson vertex, hence for every a in [0, 1] (T "
                 "minus a linear branch of f is piecewise linear with breakpoints at the "
                 "vertices; z3) [smt]; three outcomes do not close in the budget.",
              (Predicate(_fenchel_young, PAIRS, "oracle", "every supporting line below T"),
               Smt(fenchel_young_problem, "every pair on 2 outcomes, x >= 1: T(P,Q) >= "
                   "f_{x, delta(x)} at every vertex"))),
        Claim(5, "ERRATUM (expected refuted; catalogue claim 5 as stated): 'for finite pairs "
                 "the supremum over eps of f_{eps, delta(eps)}, delta the TWO-ORDER profile, is "
                 "attained at the absolute privacy-loss values'. The maximum of the two orders' "
                 "profiles has extra breakpoints where they cross, so for asymmetric pairs a "
                 "line at another eps can be higher (certified with exact rationals). For a "
                 "symmetric pair (RR products, DRS-TENSOR) the two orders coincide.",
              (Predicate(_finite_dual_max(True), PAIRS, "oracle",
                         "two-order finite maximum over loss values"),),
              expected="refuted"),
        Claim(6, "The golden-section profile equals DRS-GDP.delta over mu in [0.2, 4], eps in "
                 "[0, 4] (absolute 1e-25) [property].",
              (Compare(lambda ctx, mu, eps, **_: delta_gauss_golden(ctx, mu, eps), "eq",
                       lambda ctx, mu, eps, **_: gdp_delta(ctx, mu, eps),
                       Box(reals={"mu": ("0.2", "4"), "eps": ("0", "4")}), "property",
                       Tol.abs("1e-25"), "golden-section sup", "DRS-GDP.delta", ctx="mp"),)),
        Claim(7, "Corrected form of claim 5 (derived): with the ONE-order profile delta(x) = "
                 "H_x(P||Q), convex piecewise linear in x = e^eps with breakpoints at the "
                 "likelihood ratios, the sup over x >= 1 of f_{x, delta(x)}(a) is attained at x "
                 "in {1} ∪ {p_i/q_i >= 1} (each branch of f_{x,delta} is monotone in x between "
                 "breakpoints); random finite pairs, exact, a = i/20 [oracle]. Proved (z3, "
                 "H_x and f_{x,delta} from the exact routines' bodies) for every pair on two "
                 "outcomes, every x >= 1 and a in [0, 1], one problem per case (each its own "
                 "part): which outcome has the larger ratio r = p/q, and x <= r, x >= r or q = 0 "
                 "there (the cases cover every pair and x) [smt].",
              (Predicate(_finite_dual_max(False), PAIRS, "oracle",
                         "one-order finite maximum over loss values"),
               *(Smt(lambda first=first, piece=piece: dual_max_problem(first, piece),
                     f"two outcomes, outcome {first} has the larger ratio r, case {piece}: "
                     "f_{x,delta(x)} <= max(f_{1,delta(1)}, f_{r,delta(r)})",
                     part=f"2 outcomes: ratio of outcome {first} larger, {piece}")
                 for first, piece in DUAL_MAX_CASES))),
    ),
    notes="The golden-section routes are independent of the tangent-line closed forms.",
)

# ------------------------------------------------------------------------------------------
# DRS-LAPLACE-FDP


def _laplace_dominates_problem() -> SmtProblem:
    """``T_Lap(a) >= f_{mu,0}(a)`` on [0, 1], with x = e^mu >= 1 and the three pieces."""
    import sympy as sp

    x, a = sp.symbols("x a", real=True)
    t_lap = sp.Piecewise((1 - x * a, a <= 1 / (2 * x)), (1 / (4 * a * x), a <= sp.Rational(1, 2)),
                         ((1 - a) / x, True))
    f_rr = sp.Max(0, 1 - x * a, (1 - a) / x)
    hyps = (sp.Ge(x, 1), sp.Ge(a, 0), sp.Le(a, 1))
    return SmtProblem({"x": "real", "a": "real"}, hyps, sp.Ge(t_lap, f_rr), ("x = e^mu",))


def _laplace_strict_problem() -> SmtProblem:
    """Strict inequality strictly between the ends ``e^{-mu}/2 < a < 1/2`` (x = e^mu > 1)."""
    import sympy as sp

    x, a = sp.symbols("x a", real=True)
    hyps = (sp.Gt(x, 1), sp.Gt(2 * a * x, 1), sp.Lt(a, sp.Rational(1, 2)))
    goal = sp.And(sp.Gt(1, 4 * a * x * (1 - x * a)), sp.Gt(1, 4 * a * (1 - a)))
    return SmtProblem({"x": "real", "a": "real"}, hyps, goal,
                      ("x = e^mu", "e^{-mu}/(4a) > 1 - e^mu a  <=>  1 > 4ax(1 - xa)",
                       "e^{-mu}/(4a) > e^{-mu}(1 - a)  <=>  1 > 4a(1 - a)"))


_LAP_BOX = Box(reals={"mu": ("0.01", "10"), "fpr": ("1e-12", "0.999999999999")})
# s in [0, 1] places fpr on one piece: first [0, e^{-mu}/2], middle, last [1/2, 1]
_LAP_S_BOX = Box(reals={"mu": ("0.01", "10"), "s": ("0", "1")})
_LAP_S_OPEN = Box(reals={"mu": ("0.01", "10"), "s": ("0.001", "0.999")})


def _lap_piece(piece: str) -> Any:
    def fpr(ctx: Any, mu: Any, s: Any) -> Any:
        lo = ctx.exp(-mu) / 2
        half = ctx.num("1/2")
        return {"first": s * lo, "middle": lo + s * (half - lo), "last": half + s / 2}[piece]

    return fpr


def _lap_vs_rr(side: str, piece: str) -> Any:
    where = _lap_piece(piece)

    def term(ctx: Any, mu: Any, s: Any, **_: Any) -> Any:
        a = where(ctx, mu, s)
        return (laplace_tradeoff_mu(ctx, mu, a) if side == "lap"
                else f_approx(ctx, mu, ctx.zero, a))

    return term


def _lap_golden_mu(ctx: Any, mu: Any, **_: Any) -> Any:
    def g(a: Any) -> Any:
        return -ninv(ctx, a) - ninv(ctx, laplace_tradeoff_mu(ctx, mu, a))

    return golden_max(ctx, g, ctx.num("1e-6"), ctx.num("1/2"))


DRS_LAPLACE_FDP = Theorem(
    id="DRS-LAPLACE-FDP",
    title="Trade-off function of the Laplace mechanism",
    family=FAMILY,
    source=cite(DRS, "Sec. 2, Laplace example T(F, F(. - mu))(a) = F(F^{-1}(1 - a) - mu) "
                "(location recalled); three-piece form and GDP parameter derived"),
    types=("EXACT",),
    confidence=("HIGH", "DERIVED"),
    statement="For Lap(0, b) vs Lap(s, b), mu = s/b: T_Lap(a) = 1 - e^mu a on [0, e^{-mu}/2], "
              "e^{-mu}/(4a) on [e^{-mu}/2, 1/2], e^{-mu}(1 - a) on [1/2, 1]. Symmetric; T_Lap >= "
              "f_{mu,0} with equality exactly outside (e^{-mu}/2, 1/2). Least GDP parameter "
              "-2 Phi^{-1}(e^{-mu/2}/2).",
    domain="b > 0, sensitivity > 0, fpr in [0, 1]",
    evaluators=(
        Evaluator("f", (B, FPR, SENSITIVITY), laplace_f, "the three-piece closed form"),
        Evaluator("mu_gdp", (B, SENSITIVITY), laplace_mu_gdp, "-2 Phi^{-1}(e^{-mu/2}/2)"),
    ),
    claims=(
        Claim(1, "The closed form equals F(F^{-1}(1 - a) - mu) at mu = 1, a in {0.05, 0.1, 0.25, "
                 "0.4, 0.7} to 1e-45, and over the box mu in [0.01, 10], a in [1e-12, 1 - 1e-12] "
                 "to 1e-30 [property] (the CDF route takes log 0 at a = 0, 1). Proved (z3, both "
                 "routes from their formula bodies, x = e^mu) for every x >= 1, 0 < a < 1 [smt].",
              (Smt(laplace_cdf_problem, "three-piece form = F(F^{-1}(1-a) - mu)"),
               Compare(lambda ctx, fpr, **_: laplace_tradeoff_mu(ctx, ctx.one, fpr), "eq",
                       lambda ctx, fpr, **_: laplace_tradeoff_cdf(ctx, ctx.one, fpr),
                       grid(fpr=["0.05", "0.1", "0.25", "0.4", "0.7"]), "numeric",
                       Tol.abs("1e-45")),
               Compare(lambda ctx, mu, fpr, **_: laplace_tradeoff_mu(ctx, mu, fpr), "eq",
                       lambda ctx, mu, fpr, **_: laplace_tradeoff_cdf(ctx, mu, fpr), _LAP_BOX,
                       "property", Tol.abs("1e-30"), "three-piece form", "F(F^{-1}(1-a) - mu)"))),
        Claim(2, "The duality reproduces STK-LAPLACE (DRS-DUALITY claim 3) at b = 1, eps = 0.3.",
              (Compare(lambda ctx, eps, **_: delta_laplace_golden(ctx, ctx.one, eps, ctx.one),
                       "eq", _stk_laplace, Points(({"eps": "0.3"},)), "numeric",
                       Tol.abs("1e-30"), ctx="mp"),),
              scope="instance"),
        Claim(3, "T_Lap(a) >= f_{mu,0}(a) for every x = e^mu >= 1 and a in [0, 1] (z3, piecewise), "
                 "strict for e^{-mu}/2 < a < 1/2 (z3) [smt]; and over mu in [0.01, 10]: strict on "
                 "the middle piece (a = e^{-mu}/2 + s (1/2 - e^{-mu}/2), s in [0.001, 0.999]), "
                 "equal (1e-30) on the two outer pieces [property].",
              (Smt(_laplace_dominates_problem, "T_Lap >= f_{mu,0} on [0, 1]"),
               Smt(_laplace_strict_problem, "strict between e^{-mu}/2 and 1/2"),
               Compare(_lap_vs_rr("lap", "middle"), "gt", _lap_vs_rr("rr", "middle"),
                       _LAP_S_OPEN, "property", lhs_name="T_Lap (middle piece)",
                       rhs_name="f_{mu,0}"),
               Compare(_lap_vs_rr("lap", "first"), "eq", _lap_vs_rr("rr", "first"), _LAP_S_BOX,
                       "property", Tol.abs("1e-30"), "T_Lap (first piece)", "f_{mu,0}"),
               Compare(_lap_vs_rr("lap", "last"), "eq", _lap_vs_rr("rr", "last"), _LAP_S_BOX,
                       "property", Tol.abs("1e-30"), "T_Lap (last piece)", "f_{mu,0}"))),
        Claim(4, "mu_gdp equals a golden-section maximization of Phi^{-1}(1 - a) - "
                 "Phi^{-1}(T_Lap(a)) over [1e-6, 1/2] to 1e-20: mu = 0.5, 1, 2 give "
                 "0.5617643232110189, 1.030063997624434, 1.800905193275581, each below the RR "
                 "value 2 Phi^{-1}(e^mu/(1+e^mu)).",
              (Compare(lambda ctx, mu, **_: laplace_mu_gdp(ctx, 1 / mu, ctx.one), "eq",
                       _lap_golden_mu, grid(mu=["0.5", "1", "2"]), "numeric", Tol.abs("1e-20"),
                       "mu_gdp closed form", "golden-section maximum", ctx="mp"),
               Compare(lambda ctx, **_: laplace_mu_gdp(ctx, ctx.one, ctx.one), "eq",
                       const("1.030063997624434"), Points(({},)), "numeric", Tol.abs("1e-15")),
               Compare(lambda ctx, mu, **_: laplace_mu_gdp(ctx, 1 / mu, ctx.one), "lt",
                       lambda ctx, mu, **_: -2 * ninv(ctx, 1 / (1 + ctx.exp(mu))),
                       grid(mu=["0.5", "1", "2"]), "numeric")),
              scope="instance"),
        Claim(5, "Symmetry: T_Lap(T_Lap(a)) = a over mu in [0.01, 10], a in [0, 1] (1e-30) "
                 "[property]; proved (z3, from the formula body, x = e^mu) for every x >= 1, a "
                 "in (0, 1) with a x != 1 (the smt translation asserts every denominator of a "
                 "branch nonzero, which excludes a = 0, 1, 1/x; they stay searched) [smt].",
              (Smt(laplace_symmetry_problem, "T_Lap(T_Lap(a)) = a"),
               Compare(lambda ctx, mu, fpr, **_: laplace_tradeoff_mu(
                           ctx, mu, laplace_tradeoff_mu(ctx, mu, fpr)), "eq",
                       lambda ctx, fpr, **_: fpr, _LAP_BOX, "property", Tol.abs("1e-30")),)),
    ),
    notes="The Laplace PLD has atoms at +-mu, so it is not GDP-tight anywhere.",
)
