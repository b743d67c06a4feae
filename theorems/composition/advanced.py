"""Advanced composition: DRV-ADV ([DRV] Thm III.3), STK-ADV-PURE and STK-ADV-APPROX ([S22]
arXiv 2210.00597v4, Sec. 4, 4.3) and the closed-form bound KOV-34 ([KOV] arXiv 1311.0776v4,
Thm 3.4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
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
    points,
)
from dpverify.theorems.composition.mutation_guards import LOG_INV_BOX, log_inv_round_trip
from dpverify.theorems.composition.smt_forms import (
    clipped_problem,
    log_inv_round_trip_problem,
    stk_approx_pure_problem,
    stk_het_equal_problem,
)
from dpverify.theorems.composition.terms import (
    FAMILY,
    ORDER_BOX_TEXT,
    const,
    delta_side,
    drv96,
    drv_at_slack,
    drv_bound,
    drv_clipped_at_slack,
    drv_clipped_bound,
    kov34_at_tilde,
    kov34_bound,
    kov_delta_at,
    kov_eps_at_slack,
    kov_eps_at_tilde,
    kov_total_delta,
    order_box,
    order_check,
    stk_bound,
)
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.advanced_composition import (
    drv_eps,
    drv_eps_clipped,
    drv_eps_slack,
    kov34_eps,
    kov34_eps_tilde,
    stk_approx_eps,
    stk_eps,
    stk_eps_het,
)
from dpverify.theorems.formulas.conversions import zcdp_conv_eps
from dpverify.theorems.formulas.kov_mv import kov_delta, kov_delta_pure, kov_eps
from dpverify.theorems.params import (
    DELTA,
    DELTA0,
    EPS0,
    EPS0_POS,
    EPS_LIST,
    K,
)
from dpverify.theorems.refs import DRV, KOV, S22, cite
from dpverify.theorems.values import exact_params

# ==========================================================================================
# DRV-ADV


def _stk_le_drv_problem() -> SmtProblem:
    """``DRV-ADV.eps - STK-ADV-PURE.eps = k eps0 (x - 1 - eps0/2)`` with ``x = e^eps0`` — from
    the two formulas evaluated symbolically."""
    import sympy as sp

    ctx = SymCtx()
    eps0, x, lg, k = sp.symbols("eps0 x L k", positive=True)
    delta = sp.exp(-lg)
    drv = drv_eps_slack(ctx, eps0, k, delta)
    stk = stk_eps(ctx, eps0, k, delta)
    diff = sp.expand((drv - stk).subs(sp.exp(eps0), x))
    hyps, goal_lhs = _polynomialize(diff)
    return SmtProblem({"eps0": "real", "x": "real", "L": "real", "k": "real",
                       **{str(s): "real" for s in _aux_symbols(hyps)}},
                      (sp.Ge(eps0, 0), sp.Gt(lg, 0), sp.Ge(k, 1), *hyps),
                      sp.Eq(goal_lhs, sp.expand(k * eps0 * (x - 1 - eps0 / 2))),
                      ("x = e^eps0", "L = log(1/delta') > 0", "r = sqrt(2 k L) >= 0"))


def _polynomialize(expr: Any) -> tuple[tuple[Any, ...], Any]:
    """Replace each square root in ``expr`` by a fresh variable ``r_i >= 0`` with ``r_i^2`` equal
    to its radicand; returns the hypotheses and the polynomial expression."""
    import sympy as sp

    hyps: list[Any] = []
    roots = sorted({a for a in sp.preorder_traversal(expr)
                    if isinstance(a, sp.Pow) and a.exp == sp.Rational(1, 2)}, key=str)
    for n, root in enumerate(roots):
        r = sp.Symbol(f"r{n}", real=True)
        expr = expr.subs(root, r)
        hyps += [sp.Ge(r, 0), sp.Eq(r**2, root.base)]
    return tuple(hyps), sp.expand(expr)


def _aux_symbols(hyps: Sequence[Any]) -> list[Any]:
    """The auxiliary square-root variables ``r0, r1, ...`` introduced by :func:`_polynomialize`."""
    out: set[Any] = set()
    for h in hyps:
        out |= {s for s in h.free_symbols if s.name.startswith("r")}
    return sorted(out, key=lambda s: s.name)


DRV_ADV = Theorem(
    id="DRV-ADV",
    title="Advanced composition (Dwork–Rothblum–Vadhan form)",
    family=FAMILY,
    source=cite(DRV, "Thm III.3 (= Dwork & Roth 2014, Thm 3.20; [GCE] Sec. II-A)"),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement=(
        "For all eps0 > 0, delta0 >= 0, delta' > 0, k-fold adaptive composition of "
        "(eps0, delta0)-DP mechanisms is (eps', k delta0 + delta')-DP with eps' = "
        "sqrt(2 k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1). Not optimal; may exceed k eps0."),
    domain="eps0 > 0, delta0 >= 0, delta' = delta - k delta0 > 0, k >= 1 integer",
    evaluators=(
        Evaluator("eps", (EPS0_POS, K, DELTA, replace(DELTA0, default="0")), drv_eps,
                  "sqrt(2k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1), delta' = delta - k delta0"),
        Evaluator("eps_clipped", (EPS0_POS, K, DELTA, replace(DELTA0, default="0")),
                  drv_eps_clipped, "min(k eps0, eps')"),
    ),
    claims=(
        Claim(1, "eps' >= KOV-EPS.eps(eps0, delta0, k, k delta0 + delta') on the 96 "
              "configurations eps0 in {0.01, 0.1, 0.5, 1}, k in {1, 5, 20, 100}, delta' in "
              "{1e-3, 1e-6, 1e-9}, delta0 in {0, 1e-8}, for the unclipped and the clipped form "
              "(the catalogue's largest KOV - DRV = -1.4e-9 is that of the clipped form, at "
              "eps0 = 1, k = 1, delta' = 1e-9; unclipped it is -0.029); proved with delta0 = 0 "
              f"on {ORDER_BOX_TEXT} as KOV-DELTA.delta_pure(eps0, k, eps') <= delta', for the "
              "unclipped and (a separate branch and bound) the clipped eps'.",
              (Compare(drv_at_slack, "ge", kov_eps_at_slack, drv96(), "property",
                       lhs_name="DRV-ADV.eps", rhs_name="KOV-EPS.eps", part="unclipped"),
               Compare(drv_clipped_at_slack, "ge", kov_eps_at_slack, drv96(), "property",
                       lhs_name="DRV-ADV.eps_clipped", rhs_name="KOV-EPS.eps", part="clipped"),
               replace(order_check(drv_bound, "DRV eps'"), part="unclipped"),
               replace(order_check(drv_clipped_bound, "min(k eps0, DRV eps')"),
                       part="clipped"))),
        Claim(2, "The unclipped value can exceed k eps0: k = 2, eps0 = 0.5, delta' = 0.1 gives "
              "2.166 > 1.",
              (Compare(lambda ctx, **_: drv_eps(ctx, ctx.num("0.5"), 2, Fraction(1, 10), 0),
                       "eq", const("2.166"), points({}), "numeric", Tol.abs("5e-4"),
                       "DRV-ADV.eps(0.5, 2, 0.1)", "2.166"),
               Compare(lambda ctx, **_: drv_eps(ctx, ctx.num("0.5"), 2, Fraction(1, 10), 0),
                       "gt", const("1"), points({}), "numeric", lhs_name="DRV-ADV.eps(0.5, 2, 0.1)",
                       rhs_name="k eps0 = 1")),
              scope="instance"),
        Claim(3, "STK-ADV-PURE.eps(eps0, k, delta') <= eps' for all eps0 >= 0 (same square-root "
              "term; eps0/2 <= e^eps0 - 1): searched on eps0 in [0, 20]; proved as the "
              "identity eps' - STK = k eps0 (e^eps0 - 1 - eps0/2) [smt, from both formulas] "
              "and e^eps0 - 1 - eps0/2 >= 0 on eps0 in [0, 50] [interval].",
              (Compare(lambda ctx, eps0, k, delta, **_: stk_eps(ctx, eps0, k, delta), "le",
                       lambda ctx, eps0, k, delta, **_: drv_eps_slack(ctx, eps0, k, delta),
                       Box(reals={"eps0": ("0", "20"), "delta": ("1e-15", "0.99")},
                           ints={"k": (1, 1000)}, log_scale=frozenset({"delta"})), "property",
                       lhs_name="STK-ADV-PURE.eps", rhs_name="DRV-ADV.eps"),
               Smt(_stk_le_drv_problem, "eps' - STK-ADV-PURE.eps = k eps0 (e^eps0 - 1 - "
                   "eps0/2), x = e^eps0 (both formulas evaluated symbolically)"),
               Compare(lambda ctx, eps0, **_: eps0 / 2, "le",
                       lambda ctx, eps0, **_: ctx.expm1(eps0),
                       Box(reals={"eps0": ("0", "50")}), "interval", lhs_name="eps0/2",
                       rhs_name="e^eps0 - 1"))),
    ),
    notes="The [S22] form STK-ADV-PURE is always at least as tight.",
)


# ==========================================================================================
# STK-ADV-PURE


def _zcdp_conv_problem() -> SmtProblem:
    """``eps_het(eps_list, delta) = STK-ZCDP-CONV.eps(sum eps_j^2/2, delta)`` for three
    mechanisms, both sides from the formulas evaluated symbolically."""
    import sympy as sp

    ctx = SymCtx()
    e1, e2, e3, lg = sp.symbols("e1 e2 e3 L", positive=True)
    delta = sp.exp(-lg)
    lhs = stk_eps_het(ctx, (e1, e2, e3), delta)
    rho = (e1**2 + e2**2 + e3**2) / 2
    rhs = zcdp_conv_eps(ctx, rho=rho, delta=delta)
    hyps, poly = _polynomialize(sp.expand(lhs - rhs))
    names = {str(s): "real" for s in (e1, e2, e3, lg)}
    names.update({str(s): "real" for s in _aux_symbols(hyps)})
    return SmtProblem(names, (sp.Ge(e1, 0), sp.Ge(e2, 0), sp.Ge(e3, 0), sp.Gt(lg, 0), *hyps),
                      sp.Eq(poly, 0),
                      ("L = log(1/delta) > 0", "each square root r_i >= 0 with r_i^2 = radicand"))


@exact_params("eps0")
def _stk_het_equal(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    return stk_eps_het(ctx, (ctx.num(eps0),) * k, delta)


def _kov_pure_at_stk(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    return kov_delta_pure(ctx, eps0, k, stk_eps(ctx, eps0, k, delta))


def _rr_classes_delta(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """k-fold RR by exact enumeration of its outputs grouped by Hamming weight (C(k, i) outputs
    with i likely answers have the same probabilities under P and Q): exact big-integer
    binomials, no truncation."""
    y = ctx.exp(eps0)
    norm = ctx.pow(1 + y, k)
    z = ctx.exp(eps)
    return ctx.fsum(ctx.binomial(k, i) * ctx.pos(ctx.pow(y, i) - z * ctx.pow(y, k - i))
                    for i in range(k + 1)) / norm


def _stk_oracle(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    return _rr_classes_delta(ctx, eps0, k, stk_eps(ctx, eps0, k, delta))


STK_ADV_PURE = Theorem(
    id="STK-ADV-PURE",
    title="Advanced composition from pure DP (zCDP route)",
    family=FAMILY,
    source=cite(S22, "Sec. 4; [SteinkeBlog22] 'Composition Basics'"),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement=(
        "If M_j is eps_j-DP (j = 1..k), the (adaptive) composition is (eps, delta)-DP for every "
        "delta > 0 with eps = (1/2) sum eps_j^2 + sqrt(2 log(1/delta) sum eps_j^2); for equal "
        "eps_j = eps0: eps = k eps0^2/2 + eps0 sqrt(2k log(1/delta))."),
    domain="eps_j >= 0, delta in (0, 1), k >= 1; adaptive composition allowed",
    evaluators=(
        Evaluator("eps", (EPS0, K, DELTA), stk_eps, "k eps0^2/2 + eps0 sqrt(2k log(1/delta))"),
        Evaluator("eps_het", (EPS_LIST, DELTA), stk_eps_het,
                  "(1/2) sum eps_j^2 + sqrt(2 log(1/delta) sum eps_j^2)"),
    ),
    claims=(
        Claim(1, "The exact delta of k-fold eps0-RR at eps = STK-ADV-PURE.eps(eps0, k, delta), "
              "by enumeration of the outputs grouped by Hamming weight, is <= delta for (k, "
              "eps0, delta) = (100, 0.1, 1e-5), (1000, 0.02, 1e-6), (10, 1, 1e-3); and equals "
              "KOV-DELTA there (to rel 1e-40).",
              (Compare(_stk_oracle, "le", delta_side,
                       Points(({"k": 100, "eps0": "0.1", "delta": "1e-5"},
                               {"k": 1000, "eps0": "0.02", "delta": "1e-6"},
                               {"k": 10, "eps0": "1", "delta": "1e-3"})), "oracle",
                       lhs_name="delta of k-fold RR at STK eps", rhs_name="delta"),
               Compare(_stk_oracle, "eq", _kov_pure_at_stk,
                       Points(({"k": 100, "eps0": "0.1", "delta": "1e-5"},
                               {"k": 1000, "eps0": "0.02", "delta": "1e-6"})), "oracle",
                       Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "enumeration", "KOV-DELTA.delta_pure")),
              scope="instance"),
        Claim(2, "k = 100, eps0 = 0.1, delta = 1e-5: eps = 5.2985, the optimum (KOV-EPS) is "
              "4.3068 and basic composition gives 10.",
              (Compare(lambda ctx, **_: stk_eps(ctx, ctx.num("0.1"), 100, ctx.num("1e-5")), "eq",
                       const("5.2985"), points({}), "numeric", Tol.abs("5e-5"),
                       "STK-ADV-PURE.eps(0.1, 100, 1e-5)", "5.2985"),
               Compare(lambda ctx, **_: kov_eps(ctx, ctx.num("0.1"), 0, 100, Fraction(1, 10**5)),
                       "eq", const("4.3068"), points({}), "numeric", Tol.abs("5e-5"),
                       "KOV-EPS.eps(0.1, 0, 100, 1e-5)", "4.3068"),
               Compare(lambda ctx, **_: stk_eps(ctx, ctx.num("0.1"), 100, ctx.num("1e-5")), "lt",
                       const("10"), points({}), "numeric", lhs_name="STK-ADV-PURE.eps",
                       rhs_name="basic = 10")),
              scope="instance"),
        Claim(3, "eps_het with all entries equal to eps0 equals eps(eps0, k, delta) (rel 1e-40): "
              "searched on eps0 in [0, 5], delta in [1e-15, 0.99], k in {1..60}; proved (z3, "
              "from the formula bodies, delta = e^{-L}) for every eps0 >= 0, delta in (0, 1) and "
              "k in {1..60}.",
              (Smt(lambda: stk_het_equal_problem(60), "eps_het((eps0,)*k) = eps(eps0, k), "
                   "k = 1..60"),
               Compare(_stk_het_equal, "eq",
                       lambda ctx, eps0, k, delta, **_: stk_eps(ctx, eps0, k, delta),
                       Box(reals={"eps0": ("0", "5"), "delta": ("1e-15", "0.99")},
                           ints={"k": (1, 60)}, log_scale=frozenset({"delta"})), "property",
                       Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "eps_het((eps0,)*k, delta)", "eps(eps0, k, delta)"),)),
        Claim(4, "eps_het(eps_list, delta) = STK-ZCDP-CONV.eps(rho, delta) with rho = sum_j "
              "eps_j^2/2 (three mechanisms, symbolically, square roots as constrained "
              "variables).",
              (Smt(_zcdp_conv_problem, "eps_het(e1, e2, e3; delta) = STK-ZCDP-CONV.eps((e1^2 + "
                   "e2^2 + e3^2)/2, delta)"),)),
        Claim(5, "eps0^2/2 <= eps0 (e^eps0 - 1) for eps0 >= 0, hence STK-ADV-PURE <= DRV-ADV; "
              "box eps0 in [0, 50].",
              (Compare(lambda ctx, eps0, **_: eps0**2 / 2, "le",
                       lambda ctx, eps0, **_: eps0 * ctx.expm1(eps0),
                       Box(reals={"eps0": ("0", "50")}), "interval", lhs_name="eps0^2/2",
                       rhs_name="eps0 (e^eps0 - 1)"),)),
        Claim(6, "The log(1/delta) of the square-root term (shared by DRV-ADV, STK-ADV-APPROX and "
                 "KOV-34) is the inverse of L -> e^{-L}: delta e^{log(1/delta)} = 1 (to 1e-40) "
                 "for delta in [1e-300, 1] [property]; proved by z3 for every delta in (0, 1] "
                 "(the body evaluated symbolically) [smt].",
              (Smt(log_inv_round_trip_problem, "delta e^{log_inv(delta)} = 1, delta in (0, 1]"),
               Compare(log_inv_round_trip, "eq", const("1"), LOG_INV_BOX, "property",
                       Tol.abs("1e-40"), "delta e^{log(1/delta)}", "1"))),
    ),
    notes="Because it comes from a zCDP guarantee, the bound holds simultaneously for every "
          "delta > 0.",
)


# ==========================================================================================
# STK-ADV-APPROX


@exact_params("slack", "delta0")
def _kov_at_approx(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    total = Fraction(slack) + k * Fraction(delta0)
    return kov_delta(ctx, eps0, delta0, k, stk_approx_eps(ctx, eps0, k, total, delta0))


@exact_params("slack", "delta0")
def _total_delta(ctx: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    return ctx.num(Fraction(slack) + k * Fraction(delta0))


def _total_of_u(delta0: Fraction) -> Callable[..., Any]:
    def term(ctx: Any, k: int, u: Any, **_: Any) -> Any:
        return ctx.exp(-u**2 / 2) + k * ctx.num(delta0)

    return term


STK_ADV_APPROX = Theorem(
    id="STK-ADV-APPROX",
    title="Advanced composition for approximate DP",
    family=FAMILY,
    source=cite(S22, "Sec. 4.3; [SteinkeBlog22] footnote 1"),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement=(
        "If M_j is (eps_j, delta_j)-DP (adaptively), the composition is (eps, delta + sum_j "
        "delta_j)-DP with eps = (1/2) sum eps_j^2 + sqrt(2 log(1/delta) sum eps_j^2), for any "
        "delta > 0."),
    domain="eps_j >= 0, delta_j in [0, 1), slack delta' = delta - k delta0 > 0",
    evaluators=(
        Evaluator("eps", (EPS0, K, DELTA, replace(DELTA0, default="0")), stk_approx_eps,
                  "k eps0^2/2 + eps0 sqrt(2k log(1/delta')), delta' = delta - k delta0"),
    ),
    claims=(
        Claim(1, "k = 20, eps0 = 0.3, delta0 = 1e-7, slack 1e-5 (total 1.2e-5): the exact KOV "
              "total delta (KOV-DELTA) at the resulting eps is 2.0e-6 <= 1e-5 + k delta0.",
              (Compare(_kov_at_approx, "eq", const("2.0e-6"),
                       points({"eps0": "0.3", "k": 20, "slack": "1e-5", "delta0": "1e-7"}),
                       "numeric", Tol.abs("5e-8"), "KOV-DELTA at STK-ADV-APPROX.eps", "2.0e-6"),
               Compare(_kov_at_approx, "le", _total_delta,
                       points({"eps0": "0.3", "k": 20, "slack": "1e-5", "delta0": "1e-7"}),
                       "numeric", lhs_name="KOV-DELTA at STK-ADV-APPROX.eps",
                       rhs_name="slack + k delta0")),
              scope="instance"),
        Claim(2, "With delta0 = 0 the evaluator equals STK-ADV-PURE.eps (rel 1e-40): searched "
              "on eps0 in [0, 5], delta in [1e-15, 0.99], k in {1..500}; proved (z3, from the "
              "formula bodies, delta = e^{-L}) for every eps0 >= 0, delta in (0, 1), integer "
              "k >= 1.",
              (Smt(stk_approx_pure_problem, "STK-ADV-APPROX.eps(eps0, k, delta, 0) = "
                   "STK-ADV-PURE.eps(eps0, k, delta)"),
               Compare(lambda ctx, eps0, k, delta, **_: stk_approx_eps(ctx, eps0, k, delta, 0),
                       "eq", lambda ctx, eps0, k, delta, **_: stk_eps(ctx, eps0, k, delta),
                       Box(reals={"eps0": ("0", "5"), "delta": ("1e-15", "0.99")},
                           ints={"k": (1, 500)}, log_scale=frozenset({"delta"})), "property",
                       Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "STK-ADV-APPROX.eps(eps0, k, delta, 0)", "STK-ADV-PURE.eps"),)),
        Claim(3, "KOV-DELTA.delta(eps0, delta0, k, eps(eps0, k, delta, delta0)) <= delta on the "
              "grid eps0 in {0.01, 0.1, 0.5, 1, 2}, delta0 in {0, 1e-8, 1e-4}, k in {1, 5, 20, "
              "100, 400}, slack in {1e-3, 1e-6, 1e-9}; proved with delta0 = 1e-8 on "
              f"{ORDER_BOX_TEXT.replace('delta in', 'slack in')} [interval] (delta0 = 0 is "
              "KOV-OPT claim 4).",
              (Compare(_kov_at_approx, "le", _total_delta,
                       grid(eps0=["0.01", "0.1", "0.5", "1", "2"], delta0=["0", "1e-8", "1e-4"],
                            k=[1, 5, 20, 100, 400], slack=["1e-3", "1e-6", "1e-9"]),
                       "property", lhs_name="KOV-DELTA at STK-ADV-APPROX.eps",
                       rhs_name="slack + k delta0"),
               Compare(kov_delta_at(stk_bound, Fraction(1, 10**8)), "le",
                       _total_of_u(Fraction(1, 10**8)), order_box(), "interval",
                       lhs_name="KOV-DELTA(eps0, 1e-8, k, STK-ADV-APPROX.eps)",
                       rhs_name="slack + k delta0"))),
    ),
    notes="With delta0 > 0 the tight answer is KOV-EPS (homogeneous) or MV-OPT (heterogeneous).",
)


# ==========================================================================================
# KOV-34


@exact_params("slack", "delta0")
def _kov34_clipped(ctx: Any, eps0: Any, delta0: Any, k: int, slack: Any, **_: Any) -> Any:
    total = kov_total_delta(Fraction(slack), Fraction(delta0), k)
    return ctx.le(kov34_eps(ctx, eps0, delta0, k, total), k * eps0 * (1 + ctx.num("1e-40")))


KOV_34 = Theorem(
    id="KOV-34",
    title="Closed-form upper bound (KOV Thm 3.4)",
    family=FAMILY,
    source=cite(KOV, "Thm 3.4"),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement=(
        "For eps0 > 0, delta0 in [0,1], delta~ in (0,1], k-fold adaptive composition is "
        "(eps~, 1 - (1-delta0)^k (1-delta~))-DP with eps~ = min{k eps0, k eps0 (e^eps0-1)/"
        "(e^eps0+1) + eps0 sqrt(2k ln(e + sqrt(k eps0^2)/delta~)), k eps0 (e^eps0-1)/(e^eps0+1)"
        " + eps0 sqrt(2k ln(1/delta~))}."),
    domain="eps0 > 0, delta0 in [0, 1), delta~ = 1 - (1-delta)/(1-delta0)^k in (0, 1], k >= 1",
    evaluators=(
        Evaluator("eps", (EPS0_POS, DELTA0, K, DELTA), kov34_eps,
                  "eps~ at delta~ = 1 - (1-delta)/(1-delta0)^k"),
    ),
    claims=(
        Claim(1, "eps~ >= KOV-EPS.eps at the same total delta on the 96-configuration grid of "
              "DRV-ADV claim 1 (delta~ in the role of delta'; largest KOV - eps~ is -1.37e-9 at "
              f"eps0 = 1, k = 1, delta~ = 1e-9); proved with delta0 = 0 on {ORDER_BOX_TEXT} as "
              "KOV-DELTA.delta_pure(eps0, k, eps~) <= delta.",
              (Compare(kov34_at_tilde, "ge", kov_eps_at_tilde, drv96(), "property",
                       lhs_name="KOV-34.eps", rhs_name="KOV-EPS.eps"),
               order_check(kov34_bound, "eps~"))),
        Claim(2, "eps~ <= k eps0 by construction (KOV-34.eps at the total delta of delta~; "
              "to rel 1e-40: where the minimum picks k eps0 both sides are the same ball): "
              "searched on eps0 in [0.001, 5], delta0 in [0, 0.01], slack in [1e-15, 0.999], k in "
              "{1..1000}; proved (z3, from the formula body of eps~ as a function of delta~) for "
              "every eps0 > 0, integer k >= 1, delta~ in (0, 1).",
              (Smt(lambda: clipped_problem(kov34_eps_tilde), "eps~(eps0, k, delta~) <= k eps0"),
               Predicate(_kov34_clipped,
                         Box(reals={"eps0": ("0.001", "5"), "delta0": ("0", "0.01"),
                                    "slack": ("1e-15", "0.999")}, ints={"k": (1, 1000)},
                             log_scale=frozenset({"eps0", "slack"})), "property",
                         "KOV-34.eps <= k eps0 (rel 1e-40)"),)),
        Claim(3, "k = 100, eps0 = 0.1, delta = 1e-5, delta0 = 0 gives eps~ = 5.298109661767.",
              (Compare(lambda ctx, **_: kov34_eps(ctx, ctx.num("0.1"), 0, 100,
                                                  Fraction(1, 10**5)),
                       "eq", const("5.298109661767"), points({}), "numeric", Tol.abs("5e-13"),
                       "KOV-34.eps(0.1, 0, 100, 1e-5)", "5.298109661767"),),
              scope="instance"),
    ),
    notes="The formula also appears in public accountant code.",
)
