"""[DDR] Figure 1, how many eps0-BR queries fit in a budget: DDR-FIG1."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.bounded_range.terms import BUDGET, EPS0_BR, FAMILY, _t3_term, _tiny
from dpverify.theorems.claims import Box, Claim, Compare, Points, Predicate, Tol, points
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.formulas.br_bounds import dr19_eps, dr19_eps_kovkl, mgf_eps, optkl_eps
from dpverify.theorems.formulas.br_figure1 import (
    _FP,
    FIG1_KINDS,
    _fig1_evaluator,
    _fig1_k,
    _fig1_search,
    _k_basic_exact,
    fig1_k_basic,
)
from dpverify.theorems.formulas.ddr_composition import _t3_point, t3_delta
from dpverify.theorems.formulas.kov_mv import kov_delta_pure
from dpverify.theorems.params import DELTA
from dpverify.theorems.refs import DDR, cite
from dpverify.theorems.values import exact_params

FIG1_TABLE = (  # the catalogue's reproduction at delta = 1e-6 (columns as FIG1_KINDS)
    ("0.1", "1", (10, 10, 11, 12, 13, 15, 22, 26)),
    ("0.1", "2", (20, 24, 37, 45, 54, 55, 81, 84)),
    ("0.1", "3", (30, 46, 72, 93, 117, 119, 168, 170)),
    ("0.1", "5", (50, 108, 159, 220, 308, 310, 417, 420)),
    ("0.1", "10", (100, 346, 431, 655, 1082, 1084, 1367, 1370)),
    ("0.1", "20", (200, 1054, 1080, 1782, 3522, 3524, 4189, 4194)),
    ("0.01", "1", (100, 562, 1135, 1269, 1397, 1399, 2241, 2244)),
    ("0.01", "5", (500, 10414, 16330, 22012, 30827, 30829, 41646, 41648)),
    ("0.01", "20", (2000, 104682, 111627, 178140, 352191, 352194, 418704, 418708)),
)


def _fig1_count(ctx: Any, kind: str, eps0: Any, eps: Any, delta: Any) -> int:
    if kind == "basic":
        return fig1_k_basic(ctx, eps0, eps)
    return _fig1_k(ctx, kind, eps0, eps, delta)


def _fig1_col(kind: str) -> Callable[..., Any]:
    @exact_params("eps0", "eps", "delta")
    def term(ctx: Any, eps0: Any, eps: Any, delta: Any, **_: Any) -> int:
        return _fig1_count(ctx, kind, eps0, eps, delta)

    return term


def _want(ctx: Any, want: int, **_: Any) -> Any:
    return ctx.num(want)


def _fig1_points(col: int, rows: Sequence[int] | None = None) -> Points:
    idx = range(len(FIG1_TABLE)) if rows is None else rows
    return Points(tuple({"eps0": FIG1_TABLE[i][0], "eps": FIG1_TABLE[i][1], "delta": "1e-6",
                         "want": FIG1_TABLE[i][2][col]} for i in idx))


def _fig1_rows(pred: Callable[[int], bool]) -> Points:
    return Points(tuple({"eps0": e, "eps": b, "delta": "1e-6"}
                        for e, b, _ in FIG1_TABLE if pred(int(b))))


def _counts(eps0: Any, eps: Any, delta: Any) -> dict[str, int]:
    e0, b, d = Fraction(eps0), Fraction(eps), Fraction(delta)
    out = {"basic": _k_basic_exact(e0, b)}
    for kind in FIG1_KINDS[1:]:
        out[kind] = _fig1_search(kind, e0, b, d)
    return out


def _fig1_test(f: Callable[[dict[str, int], Fraction, Fraction], bool]) -> Callable[..., Any]:
    @exact_params("eps0", "eps", "delta")
    def test(ctx: Any, eps0: Any, eps: Any, delta: Any, **_: Any) -> bool:
        return f(_counts(eps0, eps, delta), Fraction(eps0), Fraction(eps))

    return test


def _ratio_in(c: dict[str, int], e0: Fraction, b: Fraction) -> bool:
    return 3.3 <= c["br_optcomp"] / c["dp_optcomp"] <= 4.0


def _ratio_near4(c: dict[str, int], e0: Fraction, b: Fraction) -> bool:
    return c["br_optcomp"] / c["dp_optcomp"] >= 3.95


def _mgf_ratios(c: dict[str, int], e0: Fraction, b: Fraction) -> bool:
    return c["mgf"] >= 3 * c["dp_optcomp"] and 2 * c["mgf"] >= 5 * c["dr19"]


def _half_gap(c: dict[str, int], e0: Fraction, b: Fraction) -> bool:
    return 0 <= c["dp_optcomp_half"] - c["br_optcomp"] <= 5


def _sandwich_counts(c: dict[str, int], e0: Fraction, b: Fraction) -> bool:
    return c["dp_optcomp"] <= c["br_optcomp"] <= c["dp_optcomp_half"]


@exact_params("eps0", "eps", "delta")
def _monotone_in_k(ctx: Any, eps0: Any, k: int, eps: Any, delta: Any, **_: Any) -> bool | None:
    """Each compared quantity at k is at most its value at k + 1 plus 1e-30 (certified in
    arb)."""
    E0, D = ctx.num(eps0), ctx.num(delta)
    pairs = [
        (t3_delta(ctx, eps0, k, eps), t3_delta(ctx, eps0, k + 1, eps)),
        (kov_delta_pure(ctx, eps0, k, eps), kov_delta_pure(ctx, eps0, k + 1, eps)),
        (kov_delta_pure(ctx, Fraction(eps0) / 2, k, eps),
         kov_delta_pure(ctx, Fraction(eps0) / 2, k + 1, eps)),
        (dr19_eps(ctx, E0, k, D), dr19_eps(ctx, E0, k + 1, D)),
        (dr19_eps_kovkl(ctx, E0, k, D), dr19_eps_kovkl(ctx, E0, k + 1, D)),
        (optkl_eps(ctx, E0, k, D), optkl_eps(ctx, E0, k + 1, D)),
        (mgf_eps(ctx, eps0, k, delta), mgf_eps(ctx, eps0, k + 1, delta)),
    ]
    slack = ctx.num(_tiny(30))  # equality occurs (e.g. k-fold RR at eps = 0 for k = 1, 2)
    res = [ctx.le(a, b + slack) for a, b in pairs]
    if any(r is False for r in res):
        return False
    return None if any(r is None for r in res) else True


@exact_params("eps0", "eps")
def _t3_float(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    """The double-precision DDR-T3 path (golden section over l), as an exact double."""
    return ctx.num(Fraction(_t3_point(_FP, Fraction(eps0), k, Fraction(eps))))


FIG1_EVALUATORS = tuple(
    Evaluator(f"k_{kind}", (EPS0_BR, BUDGET, DELTA), _fig1_evaluator(kind), doc,
              integer_valued=True)
    for kind, doc in (
        ("br_optcomp", "largest k with DDR-T3.delta(eps0, k, eps) <= delta"),
        ("dp_optcomp", "largest k with KOV-DELTA.delta_pure(eps0, k, eps) <= delta"),
        ("dp_optcomp_half", "largest k with KOV-DELTA.delta_pure(eps0/2, k, eps) <= delta"),
        ("dr19", "largest k with DR19-BR.eps(eps0, k, delta) <= eps"),
        ("dr19_kovkl", "largest k with DR19-BR.eps_kovkl(eps0, k, delta) <= eps"),
        ("optkl", "largest k with DDR-C31.eps(eps0, k, delta) <= eps"),
        ("mgf", "largest k with DDR-T5.eps(eps0, k, delta) <= eps"),
    ))


DDR_FIG1 = Theorem(
    id="DDR-FIG1",
    title="Figure 1: how many eps0-BR queries fit in a budget",
    family=FAMILY,
    source=cite(DDR, "Fig. 1 and introduction (the figure's eps0 and delta not recovered)"),
    types=("APPROX",),
    confidence=("DERIVED",),
    statement="Claims in the paper: BR-OptComp (non-adaptive) allows about 4x more queries than "
              "DP-OptComp (KOV/MV with eps0) for a fixed budget, about 2x more than DR19; in some "
              "settings MGF allows about 3x more than both; the eps0/2-DP OptComp curve nearly "
              "coincides with BR-OptComp. Reproduction: the largest k whose composed guarantee "
              "stays within the budget eps at delta = 1e-6, for eps0 = 0.1 and 0.01.",
    domain="eps0 > 0, budget eps > 0, delta in (0, 1)",
    evaluators=(FIG1_EVALUATORS[0],
                Evaluator("k_basic", (EPS0_BR, BUDGET), fig1_k_basic, "floor(eps/eps0)",
                          integer_valued=True),
                *FIG1_EVALUATORS[1:]),
    claims=(
        Claim(1, "The catalogue's table (eps0 in {0.1, 0.01}, budgets 1-20, delta = 1e-6) is "
                 "reproduced exactly in all eight integer columns (double-precision searches, "
                 "decided in mpmath: passed, not proved).",
              tuple(Compare(_fig1_col(kind), "eq", _want, _fig1_points(i), "numeric",
                            Tol.abs("1/2"), f"k_{kind}", "table value", ctx="mp")
                    for i, kind in enumerate(FIG1_KINDS)),
              scope="instance"),
        Claim(2, "k_br_optcomp/k_dp_optcomp lies in [3.3, 4.0] in every row with budget >= 2 "
                 "and is >= 3.95 once eps/eps0 >= 100 (tending to 4: eps0-BR behaves like "
                 "eps0/2-DP), i.e. about 4x BR-OptComp over DP-OptComp.",
              (Predicate(_fig1_test(_ratio_in), _fig1_rows(lambda b: b >= 2), "numeric",
                         "3.3 <= BR/DP <= 4.0", ctx="mp"),
               Predicate(_fig1_test(_ratio_near4),
                         Points(tuple({"eps0": e, "eps": b, "delta": "1e-6"}
                                      for e, b, _ in FIG1_TABLE
                                      if Fraction(b) / Fraction(e) >= 100)),
                         "numeric", "BR/DP >= 3.95", ctx="mp")),
              scope="instance"),
        Claim(3, "k_mgf/k_dp_optcomp >= 3 and k_mgf/k_dr19 >= 2.5 at budgets 10 and 20 (eps0 = "
                 "0.1): about 3x MGF over both DP-OptComp and DR19; and BR-OptComp allows about "
                 "2x DR19 at moderate budgets (ratio in [1.95, 2.65] for budgets 1 to 5).",
              (Predicate(_fig1_test(_mgf_ratios),
                         points({"eps0": "0.1", "eps": "10", "delta": "1e-6"},
                                {"eps0": "0.1", "eps": "20", "delta": "1e-6"}),
                         "numeric", "MGF/DP >= 3 and MGF/DR19 >= 2.5", ctx="mp"),
               Predicate(_fig1_test(lambda c, e, b: 1.95 <= c["br_optcomp"] / c["dr19"] <= 2.65),
                         Points(tuple({"eps0": e, "eps": b, "delta": "1e-6"}
                                      for e, b, _ in FIG1_TABLE if int(b) <= 5)),
                         "numeric", "1.95 <= BR/DR19 <= 2.65", ctx="mp")),
              scope="instance"),
        Claim(4, "0 <= k_dp_optcomp_half - k_br_optcomp <= 5 in every row of the table.",
              (Predicate(_fig1_test(_half_gap), _fig1_rows(lambda b: True), "numeric",
                         "0 <= k_half - k_br <= 5", ctx="mp"),),
              scope="instance"),
        Claim(5, "k_dp_optcomp <= k_br_optcomp <= k_dp_optcomp_half (a consequence of the DDR-T3 "
                 "sandwich), searched on eps0 in [0.05, 1], eps in [0.1, 5], delta in [1e-9, "
                 "1e-2].",
              (Predicate(_fig1_test(_sandwich_counts),
                         Box(reals={"eps0": ("0.05", "1"), "eps": ("0.1", "5"),
                                    "delta": ("1e-9", "1e-2")},
                             log_scale=frozenset({"eps0", "delta"})),
                         "property", "k_dp <= k_br <= k_half", ctx="mp"),)),
        Claim(6, "Each compared quantity is monotone in k (DDR-T3.delta, KOV-DELTA at eps0 and "
                 "eps0/2 nondecreasing; the eps of DR19, DR19-KOV-KL, OptKL, MGF nondecreasing; "
                 "f(k) <= f(k+1) + 1e-30, equality occurring at eps = 0), "
                 "which the search relies on: searched on eps0 in [0.05, 1], k in {1..40}, eps in "
                 "[0, 6], delta in [1e-9, 0.1]; and the double-precision DDR-T3 path the searches "
                 "use (golden section over l) agrees with the exact value to relative 1e-9 at "
                 "(0.1, 200, 1), (0.01, 500, 0.5), (0.5, 100, 3), (0.05, 1000, 2).",
              (Predicate(_monotone_in_k,
                         Box(reals={"eps0": ("0.05", "1"), "eps": ("0", "6"),
                                    "delta": ("1e-9", "0.1")},
                             ints={"k": (1, 40)}, log_scale=frozenset({"eps0", "delta"})),
                         "property", "f(k) <= f(k+1) for every compared bound"),
               Compare(_t3_float, "eq", _t3_term,
                       points({"eps0": "0.1", "k": 200, "eps": "1"},
                              {"eps0": "0.01", "k": 500, "eps": "0.5"},
                              {"eps0": "0.5", "k": 100, "eps": "3"},
                              {"eps0": "0.05", "k": 1000, "eps": "2"}),
                       "numeric", Tol.rel("1e-9"), "DDR-T3 double-precision path",
                       "DDR-T3.delta"))),
    ),
    notes="Integer-valued evaluators: double-precision searches (doubling and bisection, "
          "assuming claim 6's monotonicity); in a rigorous context the boundary (k, k+1) is "
          "re-decided in arb (BR-OptComp up to k = 3000). figure1_series(eps0, eps_values, "
          "delta) returns every column for plotting. Caveat: BR-OptComp is non-adaptive; OptKL "
          "and MGF are adaptive upper bounds.",
)
