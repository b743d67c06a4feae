"""BLOG-LAP, DR-CLASSIC-GAUSS and BLOG-EXP: the Laplace, classic Gaussian and exponential
mechanisms.

Main results
------------
- BLOG-LAP: the Laplace calibration ``b = s/eps`` and its tightness (the exact Laplace profile
  STK-LAPLACE), and the range of the log-likelihood ratio read off the densities.
- DR-CLASSIC-GAUSS: the classic calibration ``sigma = sqrt(2 ln(1.25/delta))/eps`` of [DR14]
  Thm A.1, its exact delta (BW-ANALYTIC-GAUSS) and the certified threshold ``eps*(delta)``
  above which it is unsound; the blog's restatement without ``eps < 1`` is encoded as a
  refuted claim.
- BLOG-EXP: the exponential mechanism is eps-DP, by exact enumeration over random utilities.

The formulas are in :mod:`dpverify.theorems.formulas.laplace_calibration`,
:mod:`~dpverify.theorems.formulas.classic_gaussian` and
:mod:`~dpverify.theorems.formulas.exponential_mechanism`.

References
----------
- [DR14] C. Dwork, A. Roth, *The Algorithmic Foundations of Differential Privacy* (2014, no
  arXiv), Thm 3.6 (Laplace), Thm A.1 (classic Gaussian, eps in (0, 1)).
- [BW18] B. Balle, Y.-X. Wang, arXiv 1805.06530v2, Thm 8 (exact Gaussian profile).
- [MT07] F. McSherry, K. Talwar, *Mechanism Design via Differential Privacy*, FOCS 2007 (no
  arXiv); [DDR] J. Dong, D. Durfee, R. Rogers, arXiv 1909.13830, Def. 2.3.
- [Blog] the introductory blog post on the Laplace, Gaussian and exponential mechanisms (no
  arXiv).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Generated,
    Points,
    Predicate,
    Smt,
    Tol,
    grid,
)
from dpverify.theorems.core import Evaluator, Theorem, parse_number
from dpverify.theorems.formulas.classic_gaussian import (
    classic_eps_star,
    classic_sigma,
    classic_true_delta,
)
from dpverify.theorems.formulas.exponential_mechanism import exp_mech
from dpverify.theorems.formulas.gaussian import gauss_delta_output_quad
from dpverify.theorems.formulas.laplace import laplace_delta
from dpverify.theorems.formulas.laplace_calibration import laplace_b, laplace_llr
from dpverify.theorems.foundations.region_smt import lap_range_problem, lap_tight_problem
from dpverify.theorems.foundations.terms import EPS_POS, FAMILY, TINY
from dpverify.theorems.foundations.universal import (
    blog_exp_universal,
    blog_lap_universal,
    exp_mech_problem,
)
from dpverify.theorems.numerics.finite import max_log_ratio
from dpverify.theorems.params import DELTA, SENSITIVITY
from dpverify.theorems.refs import BLOG, DR14, MT07, cite

# ==========================================================================================
# BLOG-LAP


def _blog_lap_claims() -> tuple[Claim, ...]:
    f = Fraction
    at_eps = grid(eps=["0.01", "0.5", "1", "3", "10"], sensitivity=["1", "0.25", "4"])
    below = grid(eps=["0.01", "1", "10"], sensitivity=["1", "4"],
                 h=["1e-12", "1e-6", "0.01", "0.5", "1", "2", "5"])
    llr_pts = []
    for b, s in ((f(1), f(1)), (f(1, 2), f(2)), (f(3), f(7, 10))):
        for y in (f(-10), f(-1), f(0)):
            llr_pts.append({"b": b, "sensitivity": s, "y": y, "side": 1})
        for y in (s, s + 1, s + 10):
            llr_pts.append({"b": b, "sensitivity": s, "y": y, "side": -1})
    inner_pts = [{"b": b, "sensitivity": s, "y": s * u}
                 for b, s in ((f(1), f(1)), (f(1, 2), f(2)), (f(3), f(7, 10)))
                 for u in (f(1, 1000), f(1, 4), f(1, 2), f(3, 4), f(999, 1000))]

    def delta_at_b(ctx: Any, eps: Any, sensitivity: Any, **_: Any) -> Any:
        return laplace_delta(ctx, laplace_b(ctx, eps, sensitivity), eps, sensitivity)

    def delta_below(ctx: Any, eps: Any, sensitivity: Any, h: Any, **_: Any) -> Any:
        return laplace_delta(ctx, laplace_b(ctx, eps, sensitivity), eps * (1 - h), sensitivity)

    return (
        Claim(1, "With b = sensitivity/eps: STK-LAPLACE.delta(b, eps, sensitivity) = 0 and "
                 "STK-LAPLACE.delta(b, eps', sensitivity) > 0 for every eps' < eps. Proved by "
                 "z3 for all real eps > 0, s > 0 and eps' = eps (1 - h), h > 0, from "
                 "laplace_b and laplace_delta in the sym context (each e^a kept as E > 0 with "
                 "its sign facts).", (
            Compare(delta_at_b, "eq", lambda ctx, **_: ctx.zero, at_eps, "numeric",
                    Tol.abs("1e-40"), "delta(s/eps, eps)", "0"),
            Compare(delta_below, "gt", lambda ctx, **_: ctx.zero, below, "numeric",
                    lhs_name="delta(s/eps, eps (1 - h)), h > 0", rhs_name="0"),
            Smt(lap_tight_problem, "delta(s/eps, eps) = 0 and delta(s/eps, eps (1 - h)) > 0, "
                "all eps, s, h > 0"),
        )),
        Claim(2, "The pointwise log-likelihood ratio ln(p(y)/q(y)) of Lap(0, b) vs Lap(s, b) "
                 "ranges exactly over [-s/b, s/b], both ends attained on sets of positive "
                 "probability. Proved by z3 for all real b > 0, s > 0, y from laplace_llr in "
                 "the sym context: the LLR lies in [-s/b, s/b], equals s/b on y <= 0 and -s/b "
                 "on y >= s (half-lines of positive probability).", (
            Compare(laplace_llr, "eq",
                    lambda ctx, b, sensitivity, side, **_: side * sensitivity / b,
                    Points(tuple(llr_pts)), "numeric", TINY,
                    "ln p(y)/q(y) at y <= 0 and y >= s", "+s/b resp. -s/b"),
            Compare(lambda ctx, **p: ctx.abs(laplace_llr(ctx, **p)), "lt",
                    lambda ctx, b, sensitivity, **_: sensitivity / b,
                    Points(tuple(inner_pts)), "numeric",
                    lhs_name="|ln p(y)/q(y)| for 0 < y < s", rhs_name="s/b"),
            Compare(lambda ctx, b, sensitivity, **_: ctx.min(
                        ctx.num(Fraction(1, 2)),  # P[Y <= 0] under Lap(0, b)
                        ctx.exp(-sensitivity / b) / 2),  # P[Y >= s] under Lap(0, b)
                    "gt", lambda ctx, **_: ctx.zero,
                    grid(b=["0.01", "1", "3"], sensitivity=["1", "20"]), "numeric",
                    lhs_name="min(P[Y <= 0], P[Y >= s]) under Lap(0, b)", rhs_name="0"),
            Smt(lap_range_problem, "b LLR(y) in [-s, s], = s on y <= 0, = -s on y >= s, all "
                "real b, s > 0, y"),
        )),
    )


BLOG_LAP = Theorem(
    id="BLOG-LAP",
    title="Laplace mechanism",
    family=FAMILY,
    source=cite(BLOG, "'f(x) + Lap(s/eps)'; standard (DMNS06; [DR14] Thm 3.6); exact "
                      "profile STK-LAPLACE"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "M(x) = f(x) + Lap(s/eps) (independent noise per coordinate), s the L1 sensitivity of "
        "f, is eps-DP; tight: with eps0 = s/b = eps the exact profile is 0 at eps and positive "
        "below eps."
    ),
    domain="eps > 0, s > 0",
    evaluators=(
        Evaluator("b", (EPS_POS, SENSITIVITY), laplace_b, "Laplace scale sensitivity/eps"),
    ),
    claims=(*_blog_lap_claims(), blog_lap_universal(3)),
    notes="The blog's statement is correct. Multi-dimensional f uses the L1 norm for s. The "
          "exact profile is STK-LAPLACE.delta (theorems.formulas.laplace.laplace_delta); claim 2 "
          "reads the log-likelihood ratio off the two densities.",
)


# ==========================================================================================
# DR-CLASSIC-GAUSS


GAUSS_TABLE = (  # delta, eps*, sigma(eps*) as printed in the catalogue (4 decimals)
    ("1e-10", "9.8499", "0.6923"),
    ("1e-6", "8.7821", "0.6034"),
    ("1e-5", "8.4198", "0.5754"),
    ("1e-3", "7.4635", "0.5060"),
    ("0.1", "5.7426", "0.3914"),
    ("0.5", "4.4654", "0.3032"),
    ("0.9", "3.7871", "0.2140"),
)
_GRID_DELTAS = ("1e-15", "1e-10", "1e-6", "1e-5", "1e-3", "1e-2", "0.1", "0.5", "0.9")


def _classic_max_ratio(ctx: Any, **_: Any) -> Any:
    """``max true_delta/delta`` over the grid of claim 1 (eps = i/40, the 9 deltas)."""
    ratios = []
    for d in _GRID_DELTAS:
        delta = ctx.num(parse_number(d))
        for i in range(1, 41):
            ratios.append(classic_true_delta(ctx, ctx.num(Fraction(i, 40)), delta) / delta)
    return ctx.max(*ratios)


def _classic_sound_below_star(ctx: Any, delta: Any, **_: Any) -> bool | None:
    """``true_delta <= delta`` on the 401-point grid of ``[1, 0.999 eps*(delta)]``."""
    top = classic_eps_star(ctx, delta) * ctx.num(Fraction(999, 1000))
    undecided = False
    for i in range(401):
        e = ctx.one + (top - 1) * i / 400
        c = ctx.le(classic_true_delta(ctx, e, delta), delta)
        if c is False:
            return False
        undecided |= c is None
    return None if undecided else True


def _dr_classic_claims() -> tuple[Claim, ...]:
    table = Points(tuple({"delta": d, "table_eps": e, "table_sigma": s}
                         for d, e, s in GAUSS_TABLE))
    deltas = Points(tuple({"delta": d} for d, _, _ in GAUSS_TABLE))
    cex = Points(({"eps": "10", "delta": "1e-5"},))

    def true_delta(ctx: Any, eps: Any, delta: Any, **_: Any) -> Any:
        return classic_true_delta(ctx, eps, delta)

    def target(ctx: Any, delta: Any, **_: Any) -> Any:
        return delta

    return (
        Claim(1, "Sound for eps in (0, 1]: true_delta(eps, delta) <= delta on the grid eps in "
                 "{1/40, ..., 40/40} x delta in {1e-15, 1e-10, 1e-6, 1e-5, 1e-3, 1e-2, 0.1, 0.5, "
                 "0.9}; the largest ratio true/target observed is 0.238.", (
            Compare(true_delta, "le", target,
                    grid(eps=[f"{i}/40" for i in range(1, 41)], delta=list(_GRID_DELTAS)),
                    "numeric", lhs_name="true_delta(eps, delta)", rhs_name="delta"),
            Compare(_classic_max_ratio, "eq", lambda ctx, **_: ctx.num(Fraction(238, 1000)),
                    Points(({},)), "numeric", Tol.abs("5e-4"),
                    "max over the grid of true_delta/delta", "0.238"),
        ), scope="instance"),
        Claim(2, "The same inequality over the box eps in [0.01, 1], log10(delta) in "
                 "[-15, log10(0.9)].", (
            Compare(true_delta, "le", target,
                    Box(reals={"eps": ("0.01", "1"), "delta": ("1e-15", "0.9")},
                        log_scale=frozenset({"delta"})),
                    "interval", lhs_name="true_delta(eps, delta)", rhs_name="delta"),
        )),
        Claim(3, "No earlier failure: true_delta(eps, delta) <= delta on a 401-point grid of "
                 "[1, 0.999 eps*(delta)] for each delta of the table.", (
            Predicate(_classic_sound_below_star, deltas, "numeric",
                      "true_delta(eps, delta) <= delta at eps = 1 + i (0.999 eps* - 1)/400, "
                      "i = 0..400"),
        ), scope="instance"),
        Claim(4, "eps_star(delta) reproduces the table (eps* and sigma(eps*, delta) to the 4 "
                 "decimals shown).", (
            Compare(lambda ctx, delta, **_: classic_eps_star(ctx, delta), "eq",
                    lambda ctx, table_eps, **_: table_eps, table, "numeric", Tol.abs("5e-5"),
                    "eps_star(delta)", "table eps*"),
            Compare(lambda ctx, delta, **_: classic_sigma(ctx, classic_eps_star(ctx, delta),
                                                          delta),
                    "eq", lambda ctx, table_sigma, **_: table_sigma, table, "numeric",
                    Tol.abs("5e-5"), "sigma(eps*, delta)", "table sigma(eps*)"),
        ), scope="instance"),
        Claim(5, "Failure above the threshold: true_delta(1.1 eps*, delta) > delta for each "
                 "delta of the table.", (
            Compare(lambda ctx, delta, **_: classic_true_delta(
                        ctx, classic_eps_star(ctx, delta) * ctx.num(Fraction(11, 10)), delta),
                    "gt", target, deltas, "numeric",
                    lhs_name="true_delta(1.1 eps*, delta)", rhs_name="delta"),
        ), scope="instance"),
        Claim(6, "Counterexample: eps = 10, delta = 1e-5 gives sigma = 0.48448053 and true "
                 "delta 2.265e-5 > 1e-5.", (
            Compare(lambda ctx, eps, delta, **_: classic_sigma(ctx, eps, delta), "eq",
                    lambda ctx, **_: ctx.num(Fraction("0.48448053")), cex, "numeric",
                    Tol.abs("5e-9"), "sigma(10, 1e-5)", "0.48448053"),
            Compare(true_delta, "eq", lambda ctx, **_: ctx.num(Fraction("2.265e-5")), cex,
                    "numeric", Tol.abs("5e-9"), "true_delta(10, 1e-5)", "2.265e-5"),
            Compare(true_delta, "gt", target, cex, "numeric",
                    lhs_name="true_delta(10, 1e-5)", rhs_name="1e-5"),
            Compare(true_delta, "eq",
                    lambda ctx, eps, delta, **_: gauss_delta_output_quad(
                        ctx, classic_sigma(ctx, eps, delta), eps),
                    cex, "numeric", TINY, "true_delta (closed form)",
                    "output-space quadrature", ctx="mp"),
        ), scope="instance"),
        Claim(7, "Erratum of the blog (alias BLOG-GAUSS): the calibration sigma = "
                 "sqrt(2 ln(1.25/delta))/eps gives (eps, delta)-DP for every eps > 0 (the blog "
                 "omits eps < 1). Refuted above eps*(delta).", (
            Compare(true_delta, "le", target,
                    Box(reals={"eps": ("0.01", "30"), "delta": ("1e-15", "0.9")},
                        log_scale=frozenset({"delta"})),
                    "property", lhs_name="true_delta(eps, delta)", rhs_name="delta"),
            Compare(true_delta, "le", target, cex, "numeric",
                    lhs_name="true_delta(10, 1e-5)", rhs_name="1e-5"),
        ), expected="refuted"),
    )


DR_CLASSIC_GAUSS = Theorem(
    id="DR-CLASSIC-GAUSS",
    title="Classic Gaussian calibration and its unsoundness above eps*(delta)",
    family=FAMILY,
    source=cite(DR14, "Thm A.1 (eps in (0, 1)); restated by [Blog] without eps < 1; exact "
                      "curve [BW18] arXiv 1805.06530v2 Thm 8"),
    types=("BOUND",),
    confidence=("HIGH", "DERIVED"),
    statement=(
        "For eps in (0, 1) and c^2 > 2 ln(1.25/delta), sigma >= c Delta_2/eps gives "
        "(eps, delta)-DP (boundary case sigma^2 = 2 Delta^2 ln(1.25/delta)/eps^2). The eps < 1 "
        "restriction is part of the theorem: with this sigma the exact delta exceeds the "
        "target once eps > eps*(delta) (e.g. eps* = 8.4198 for delta = 1e-5)."
    ),
    domain="the theorem: eps in (0, 1), delta in (0, 1), Delta > 0; the evaluators accept "
           "eps > 0 to explore the unsound region",
    evaluators=(
        Evaluator("sigma", (EPS_POS, DELTA), classic_sigma,
                  "sqrt(2 ln(1.25/delta))/eps, the boundary-case noise multiplier"),
        Evaluator("true_delta", (EPS_POS, DELTA), classic_true_delta,
                  "BW-ANALYTIC-GAUSS.delta(sigma(eps, delta), eps), the exact delta at eps"),
        Evaluator("eps_star", (DELTA,), classic_eps_star,
                  "the root eps* > 1 of true_delta(eps, delta) = delta"),
    ),
    claims=_dr_classic_claims(),
    aliases=("BLOG-GAUSS",),
    notes="The [HIGH] tag is for the theorem; eps*(delta) is a numerical characterization "
          "[DERIVED]. Claim 7 encodes the blog's restatement without eps < 1 (refuted).",
)


# ==========================================================================================
# BLOG-EXP


def _draw_utilities(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(2, 6)
    u = tuple(Fraction(rng.randint(0, 300), 100) for _ in range(n))
    d = [Fraction(rng.randint(-100, 100), 100) for _ in range(n)]
    d[rng.randrange(n)] = Fraction(rng.choice((-1, 1)))  # Delta_u = 1 exactly
    u2 = tuple(a + b for a, b in zip(u, d, strict=True))
    return {"u": u, "u2": u2, "eps": Fraction(rng.randint(1, 300), 100)}


BLOG_EXP = Theorem(
    id="BLOG-EXP",
    title="Exponential mechanism",
    family=FAMILY,
    source=cite(MT07, "exponential mechanism; [Blog] (mentioned); [DDR] arXiv 1909.13830 "
                      "Def. 2.3"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "P[M(x) = y] ∝ exp(eps u(x,y)/(2 Delta_u)), Delta_u = max_y max_{x~x'} "
        "|u(x,y) - u(x',y)|, is eps-DP; the factor 2 accounts for the normaliser."
    ),
    domain="finite output set; eps > 0; Delta_u > 0",
    claims=(
        Claim(1, "For random utilities with Delta_u = 1, the largest pointwise "
                 "|ln(P[M(x)=y]/P[M(x')=y])| over neighbours and outputs is at most eps. "
                 "Proved by z3 (the problem of claim 2) for 2 and 3 outputs, all real "
                 "utilities with |u - u'| <= Delta_u, all eps > 0.", (
            Compare(lambda ctx, u, u2, eps, **_: max_log_ratio(
                        ctx, exp_mech(ctx, eps, u), exp_mech(ctx, eps, u2)),
                    "le", lambda ctx, eps, **_: eps,
                    Generated(_draw_utilities, 500,
                              "random utility pairs with Delta_u = 1 on 2..6 outputs, eps in "
                              "(0, 3]"),
                    "oracle", lhs_name="max_y |ln P(y)/P'(y)|", rhs_name="eps"),
            *(Smt(exp_mech_problem(k), f"{k} outputs: P(y) <= e^eps P'(y) for all y, all real "
                  "utilities with |u - u'| <= Delta") for k in (2, 3)),
        )),
        blog_exp_universal(2),
    ),
    notes="The BR claim is in DDR-T1; the range-based variant is DDR-P2.",
)
