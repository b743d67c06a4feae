"""Non-adaptive BR composition: DDR-L31, DDR-T2, DDR-T3."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.bounded_range.game_boxes import (
    T2_K,
    l31_binomial,
    l31_enumeration,
    l31_problem,
    t2_mv,
    t2_objective,
    t2_problem,
)
from dpverify.theorems.bounded_range.mutation_guards import (
    TAYLOR_POINTS,
    TAYLOR_SLACK,
    TAYLOR_TEXT,
    l31_taylor_deviation,
)
from dpverify.theorems.bounded_range.terms import (
    EPS0_BR,
    FAMILY,
    T_PARAM,
    _kov_term,
    _plus,
    _t3_term,
    _tiny,
)
from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Points,
    Predicate,
    Smt,
    Tol,
    grid,
    points,
)
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import Interval, MpCtx, Unsupported
from dpverify.theorems.formulas.bounded_range import (
    _decided_lt,
    _delta_at_t,
    het_objective,
    l31_delta_t,
)
from dpverify.theorems.formulas.br_figure1 import _FP
from dpverify.theorems.formulas.ddr_adaptive import l32_delta_k1_recursion
from dpverify.theorems.formulas.ddr_candidates import T3_ALL_CANDIDATES_K, _f_float, _T3Search, _t_l
from dpverify.theorems.formulas.ddr_composition import (
    _t3_all,
    t3_delta,
    t3_eps,
    t3_max_over_t_bb,
    t3_t_opt,
)
from dpverify.theorems.formulas.kov_mv import kov_delta_pure, mv_delta_pure
from dpverify.theorems.numerics.search import golden_section_max
from dpverify.theorems.params import DELTA, EPS_REAL, K
from dpverify.theorems.refs import DDR, cite
from dpverify.theorems.values import exact_params


def _l31_enum(ctx: Any, eps0: Any, k: int, t: Any, eps: Any, **_: Any) -> Any:
    return het_objective(ctx, [eps0] * k, [t] * k, eps)


@exact_params("eps0", "t")
def _l31_term(ctx: Any, eps0: Any, k: int, t: Any, eps: Any, **_: Any) -> Any:
    return l31_delta_t(ctx, eps0, k, t, eps)


T2_EPS = (Fraction(4, 10), Fraction(9, 10), Fraction(1, 4), Fraction(13, 10))


def _t2_enum(ctx: Any, eps: Any, **_: Any) -> Any:
    eps_list = [ctx.num(e) for e in T2_EPS]
    return het_objective(ctx, eps_list, [e / 2 for e in eps_list], eps)


@exact_params("eps")
def _t2_mv(ctx: Any, eps: Any, **_: Any) -> Any:
    return mv_delta_pure(ctx, tuple(e / 2 for e in T2_EPS), ctx.num(eps))


def _l31_box(k_lo: int, k_hi: int) -> Box:
    return Box(reals={"eps0": ("1/20", "2"), "a": ("0", "1"), "eps": ("-2", "3")},
               ints={"k": (k_lo, k_hi)})


def _t2_box(k_lo: int, k_hi: int) -> Box:
    return Box(reals={**{f"e{i}": ("1/20", "2") for i in range(k_hi)}, "eps": ("-1", "3")},
               ints={"k": (k_lo, k_hi)})


DDR_L31 = Theorem(
    id="DDR-L31",
    title="Lemma 3.1: non-adaptive heterogeneous BR optimum",
    family=FAMILY,
    source=cite(DDR, "Lemma 3.1"),
    types=("TIGHT",),
    confidence=("DERIVED",),
    statement="delta_OPT(M^NA_BR(eps_1..eps_k), eps_g) = sup_{t_i in [0, eps_i]} sum_{y in "
              "{0,1}^k} max(prod_i P[RR_{eps_i,t_i}(0)=y_i] - e^{eps_g} prod_i P[RR_{eps_i,t_i}(1)"
              "=y_i], 0).",
    domain="eps_i > 0, eps_g real",
    evaluators=(
        Evaluator("delta_t", (EPS0_BR, K, T_PARAM, EPS_REAL), l31_delta_t,
                  "sum_i C(k,i) (p^{k-i}(1-p)^i - e^eps q^{k-i}(1-q)^i)_+ with equal t"),
    ),
    claims=(
        Claim(1, "With equal t the objective (enumeration over {0,1}^5) equals the binomial form "
                 "at eps0 = 0.6, k = 5, t = 0.21, eps_g = 0.4, to 1e-45.",
              (Compare(_l31_enum, "eq", _l31_term,
                       points({"eps0": "0.6", "k": 5, "t": "0.21", "eps": "0.4"}), "oracle",
                       Tol.abs("1e-45"), "enumeration over {0,1}^5", "DDR-L31.delta_t"),),
              scope="instance"),
        Claim(2, "Lemma 3.1's objective with equal t is the binomial form: for k in {2, 3}, "
                 "DDR-L31.delta_t(eps0, k, t, eps) equals the enumeration over {0,1}^k to 1e-40 "
                 "on eps0 in [0.05, 2], t = a eps0 with a in [0, 1], eps in [-2, 3] (property "
                 "search), and the enumeration equals sum_i C(k,i) (p^(k-i)(1-p)^i - e^eps "
                 "q^(k-i)(1-q)^i)_+ (the evaluator's formula) for all p, q in [0, 1] and "
                 "e^eps > 0: "
                 "proved by z3 (the enumeration from the same hockey-stick formula in the sympy "
                 "context).",
              (Compare(l31_binomial, "eq", l31_enumeration, _l31_box(2, 3), "property",
                       Tol.abs("1e-40"), "DDR-L31.delta_t", "enumeration over {0,1}^k"),
               Smt(lambda: l31_problem(2), "enumeration = binomial form, k = 2"),
               Smt(lambda: l31_problem(3), "enumeration = binomial form, k = 3"))),
        Claim(3, "The evaluator (binomial sum walked from the mode with a certified tail) equals "
                 "the enumeration over {0,1}^k to 1e-40 for k in {1..8} on the same box "
                 "(property search only).",
              (Compare(l31_binomial, "eq", l31_enumeration, _l31_box(1, 8), "property",
                       Tol.abs("1e-40"), "DDR-L31.delta_t", "enumeration over {0,1}^k"),)),
    ),
    notes="DDR-T3 shows that equal t suffices in the homogeneous case (claim 2 there).",
)


DDR_T2 = Theorem(
    id="DDR-T2",
    title="Theorem 2 (= MV Thm 1.5) and its relation to Lemma 3.1",
    family=FAMILY,
    source=cite(DDR, "Thm 2 (= [MV] arXiv 1507.03113, Thm 1.5)"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement="MV-OPT written as delta_OPT of non-adaptive eps_i-DP classes; t_i = eps_i/2 in "
              "Lemma 3.1 gives MV with eps_i/2 (RR_{eps,eps/2} is RR(eps/2)).",
    domain="as MV-OPT",
    claims=(
        Claim(1, "The Lemma 3.1 objective at t_i = eps_i/2 (enumeration of 2^4 outcomes) equals "
                 "MV-OPT.delta_pure(eps_i/2, eps_g) for eps_list = (0.4, 0.9, 0.25, 1.3), eps_g = "
                 "0.3, to 1e-45.",
              (Compare(_t2_enum, "eq", _t2_mv, points({"eps": "0.3"}), "oracle",
                       Tol.abs("1e-45"), "Lemma 3.1 at t_i = eps_i/2",
                       "MV-OPT.delta_pure(eps_i/2)"),), scope="instance"),
        Claim(2, "Universally for k in {1, 2}: the Lemma 3.1 objective at t_i = eps_i/2 "
                 "(enumeration of {0,1}^k) equals MV-OPT.delta_pure((eps_i/2)_i, eps_g), to 1e-40, "
                 "for eps_i in [0.05, 2], eps_g in [-1, 3] (property search); proved by z3 for all "
                 "eps_i > 0 and all real eps_g against MV's closed form (1/prod(1 + y_i)) sum_S "
                 "(prod_S y_i - e^eps_g prod_(not S) y_i)_+, y_i = e^(eps_i/2) (the objective from "
                 "grr_pair and the hockey-stick formula in the sympy context).",
              (Compare(t2_objective, "eq", t2_mv, _t2_box(1, 2), "property", Tol.abs("1e-40"),
                       "Lemma 3.1 at t_i = eps_i/2", "MV-OPT.delta_pure(eps_i/2)"),
               Smt(lambda: t2_problem(1), "Lemma 3.1 at t = eps/2 = MV closed form, k = 1"),
               Smt(lambda: t2_problem(2), "Lemma 3.1 at t_i = eps_i/2 = MV closed form, k = 2"))),
        Claim(3, f"The same equality for k = {T2_K} on the same box (property search only: z3 "
                 f"returns unknown within 30 s for k = {T2_K}).",
              (Compare(t2_objective, "eq", t2_mv, _t2_box(T2_K, T2_K), "property",
                       Tol.abs("1e-40"), "Lemma 3.1 at t_i = eps_i/2",
                       "MV-OPT.delta_pure(eps_i/2)"),)),
    ),
    notes="Hence the non-adaptive BR optimum is at least the optimal composition of "
          "eps_i/2-DP mechanisms (left half of the DDR-T3 sandwich).",
)


T3_POINTS = points(
    {"eps0": "0.3", "k": 1, "eps": "0.05"}, {"eps0": "0.3", "k": 2, "eps": "0"},
    {"eps0": "0.5", "k": 3, "eps": "0.2"}, {"eps0": "0.1", "k": 10, "eps": "0.25"},
    {"eps0": "1.0", "k": 6, "eps": "1.7"}, {"eps0": "0.5", "k": 4, "eps": "-0.3"},
    {"eps0": "0.05", "k": 25, "eps": "0.3"})


@exact_params("eps0", "eps")
def _t3_grid_golden(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    """``max_t`` of DDR-L31.delta_t by a dense grid (2000 cells, located in doubles) and a
    golden-section search on the best cell in mpmath (the catalogue's numerical route)."""
    if not isinstance(ctx, MpCtx):
        raise Unsupported("the grid-and-golden route runs in mpmath")
    e, g = Fraction(eps0), Fraction(eps)
    E, G = ctx.num(e), ctx.num(g)

    def f(t: Any) -> Any:
        return _delta_at_t(ctx, E, k, t, G)

    n = 2000  # the grid only locates the best cell: doubles suffice
    fvals = [_f_float(float(e), k, float(g), float(e * i / n)) for i in range(n + 1)]
    j = max(range(n + 1), key=lambda i: fvals[i])
    lo, hi = ctx.num(e * max(j - 1, 0) / n), ctx.num(e * min(j + 1, n) / n)
    t = golden_section_max(f, lo, hi, int(1.45 * ctx.prec / 2) + 12)
    return ctx.max(f(t), f(ctx.num(e * j / n)))


@exact_params("eps0", "eps")
def _t3_het_search(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    """The Lemma 3.1 objective at the best heterogeneous t-vector found by a float search (a
    grid of 21^k vectors, then coordinate ascent by golden section), evaluated exactly: a
    feasible non-adaptive value, so never above the optimum."""
    e, g = float(eps0), float(eps)
    fp = _FP

    def obj(ts: Sequence[float]) -> float:
        return het_objective(fp, [e] * k, list(ts), g)

    axis = [e * i / 20 for i in range(21)]
    best = max(itertools.product(axis, repeat=k), key=obj)
    ts = list(best)
    for _ in range(12):
        for i in range(k):
            def along(v: float, i: int = i) -> float:
                return obj([*ts[:i], v, *ts[i + 1:]])

            lo, hi = max(ts[i] - e / 20, 0.0), min(ts[i] + e / 20, e)
            ts[i] = golden_section_max(along, lo, hi, 60)
    exact_ts = [min(max(Fraction(v), Fraction(0)), Fraction(eps0)) for v in ts]
    E = ctx.num(Fraction(eps0))
    return het_objective(ctx, [E] * k, [ctx.num(v) for v in exact_ts], ctx.num(Fraction(eps)))


SANDWICH_GRID = grid(eps0=["0.1", "0.5", "1.0"], k=[1, 3, 8, 20], eps=["0", "0.2", "0.7", "1.5"])


def _t3_best_l(ctx: Any, eps0: Fraction, k: int, eps: Fraction) -> int:
    if k <= T3_ALL_CANDIDATES_K:
        top, vals = _t3_all(ctx, eps0, k, eps)
        top = ctx.max(top, ctx.zero)
        return next(l for l, v in vals if not _decided_lt(ctx, v, top))
    return _T3Search(ctx, eps0, k, eps).run()[1]


@exact_params("eps0", "eps")
def _footnote_t_half(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> bool:
    """The maximising candidate is ``t_l = eps0/2`` (exactly, as rationals)."""
    e, g = Fraction(eps0), Fraction(eps)
    l = _t3_best_l(ctx, e, k, g)
    return min(max(_t_l(e, k, g, l), Fraction(0)), e) == e / 2


@exact_params("eps0", "eps")
def _footnote_not_half(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> bool:
    return not _footnote_t_half(ctx, eps0, k, eps)


@exact_params("eps0", "eps")
def _t3_k1(ctx: Any, eps0: Any, eps: Any, **_: Any) -> Any:
    return t3_delta(ctx, eps0, 1, eps)


def _eps_of_s(eps0: Any, s: Any) -> Any:
    """``eps = s eps0`` (an interval over a box, s >= 0)."""
    if isinstance(eps0, Interval) or isinstance(s, Interval):
        a = eps0 if isinstance(eps0, Interval) else Interval(eps0, eps0)
        b = s if isinstance(s, Interval) else Interval(s, s)
        return Interval(a.lo * b.lo, a.hi * b.hi)
    return Fraction(eps0) * Fraction(s)


@exact_params("eps0", "s")
def _t3_at_s(ctx: Any, eps0: Any, k: int, s: Any, **_: Any) -> Any:
    return t3_delta(ctx, eps0, k, _eps_of_s(eps0, s))


@exact_params("eps0", "s")
def _kov_at_s(ctx: Any, eps0: Any, k: int, s: Any, **_: Any) -> Any:
    return kov_delta_pure(ctx, eps0, k, _eps_of_s(eps0, s))


DDR_T3 = Theorem(
    id="DDR-T3",
    title="Theorem 3: homogeneous non-adaptive BR optimum via a finite candidate set",
    family=FAMILY,
    source=cite(DDR, "Thm 3 (footnote 2 for the eps/2 remark)"),
    types=("TIGHT",),
    confidence=("DERIVED", "UNCERTAIN"),
    statement="With eps_i = eps0 for all i, the sup in Lemma 3.1 is attained at equal t and t can "
              "be taken from a finite set: delta_OPT(M^NA_BR(eps0,...,eps0), eps) = max_{l in "
              "{0..k}} sum_{i=0}^{l} C(k,i) (p_l^{k-i}(1-p_l)^i - e^eps q_l^{k-i}(1-q_l)^i), "
              "t_l = (eps + (l+1) eps0)/(k+1) clipped to [0, eps0]. Each partial sum f_l is "
              "unimodal with peak t_l (f_l' ∝ e^eps - e^{(k+1)t - (l+1) eps0}); l = k only "
              "matters for eps < 0 (value 1 - e^eps). Polynomial in k (O(k^2) directly).",
    domain="eps0 > 0, k >= 1 integer, eps real (the result is clipped below at 0)",
    evaluators=(
        Evaluator("delta", (EPS0_BR, K, EPS_REAL), t3_delta,
                  "max over the candidates t_l of the Lemma 3.1 objective (>= 0)"),
        Evaluator("eps", (EPS0_BR, K, DELTA), t3_eps,
                  "least eps >= 0 with delta(eps0, k, eps) <= delta (bisection)"),
        Evaluator("t_opt", (EPS0_BR, K, EPS_REAL), t3_t_opt,
                  "the candidate t_l attaining the maximum (smallest l on ties)"),
    ),
    claims=(
        Claim(1, "The candidate-set value equals max_t of DDR-L31.delta_t (i) enclosed "
                 "rigorously by an interval branch and bound over t in [0, eps0] from the "
                 "definition (positive parts, mean-value and second-order forms; no candidate "
                 "set) and (ii) by a dense grid plus golden section in mpmath, to 1e-30, at (eps0, "
                 "k, eps) in {(0.3, 1, 0.05), (0.3, 2, 0), (0.5, 3, 0.2), (0.1, 10, 0.25), (1.0, "
                 "6, 1.7), (0.5, 4, -0.3), (0.05, 25, 0.3)}.",
              (Compare(_t3_term, "eq", t3_max_over_t_bb, T3_POINTS, "numeric",
                       Tol.abs("1e-30"), "DDR-T3.delta", "branch and bound max_t delta_t"),
               Compare(_t3_term, "eq", _t3_grid_golden, T3_POINTS, "numeric",
                       Tol.abs("1e-30"), "DDR-T3.delta", "grid + golden max_t delta_t",
                       ctx="mp")), scope="instance"),
        Claim(2, "A heterogeneous t-vector search (grid of 21^k vectors plus coordinate ascent) "
                 "never exceeds the homogeneous optimum (up to 1e-30): (eps0, k, eps) = (0.5, 2, "
                 "0.1) and (0.5, 3, 0.3).",
              (Compare(_t3_het_search, "le", _plus(_t3_term, _tiny(30)),
                       points({"eps0": "0.5", "k": 2, "eps": "0.1"},
                              {"eps0": "0.5", "k": 3, "eps": "0.3"}), "numeric",
                       lhs_name="best heterogeneous value found",
                       rhs_name="DDR-T3.delta + 1e-30"),), scope="instance"),
        Claim(3, "Sandwich KOV-DELTA.delta_pure(eps0/2, k, eps) <= DDR-T3.delta(eps0, k, eps) <= "
                 "KOV-DELTA.delta_pure(eps0, k, eps), certified at every point of the 48-point "
                 "grid eps0 in {0.1, 0.5, 1.0}, k in {1, 3, 8, 20}, eps in {0, 0.2, 0.7, 1.5} "
                 "(the left side up to 1e-40: equality holds where t_opt = eps0/2, claim 4); the "
                 "right side proved by interval branch and bound on the box eps0 in [0.1, 1], "
                 "eps = s eps0 with s in [0, 0.8], k in {1..4}.",
              (Compare(_kov_term(True), "le", _plus(_t3_term, _tiny(40)), SANDWICH_GRID,
                       "numeric", lhs_name="KOV-DELTA.delta_pure(eps0/2)",
                       rhs_name="DDR-T3.delta + 1e-40", part="left side"),
               Compare(_t3_term, "le", _kov_term(False), SANDWICH_GRID, "numeric",
                       lhs_name="DDR-T3.delta", rhs_name="KOV-DELTA.delta_pure(eps0)",
                       part="right side"),
               Compare(_t3_at_s, "le", _kov_at_s,
                       Box(reals={"eps0": ("0.1", "1"), "s": ("0", "0.8")}, ints={"k": (1, 4)}),
                       "interval", lhs_name="DDR-T3.delta(eps0, k, s eps0)",
                       rhs_name="KOV-DELTA.delta_pure(eps0, k, s eps0)", part="right side"))),
        Claim(4, "Footnote 2: where the maximising t_l equals eps0/2 the BR optimum equals the "
                 "optimal composition of eps0/2-DP. At eps0 = 0.4, k = 6 the candidates t_l = "
                 "eps0/2 sit at eps = (k-1-2l) eps0/2 in {1.0, 0.6, 0.2}; only at eps = 0.2 is "
                 "that candidate the maximiser (at 0.6 and 1.0 the maximiser is t = 9/35), and "
                 "there DDR-T3.delta = KOV-DELTA.delta_pure(0.2, 6, 0.2) to 1e-40; at 0.6 and 1.0 "
                 "DDR-T3.delta > KOV-DELTA.delta_pure(0.2, 6, eps) strictly.",
              (Predicate(_footnote_t_half, grid(eps0=["0.4"], k=[6], eps=["0.2"]), "numeric",
                         "the maximising candidate is t_l = eps0/2"),
               Compare(_t3_term, "eq", _kov_term(True), grid(eps0=["0.4"], k=[6], eps=["0.2"]),
                       "numeric", Tol.abs("1e-40"), "DDR-T3.delta",
                       "KOV-DELTA.delta_pure(eps0/2)"),
               Predicate(_footnote_not_half,
                         grid(eps0=["0.4"], k=[6], eps=["0.6", "1.0"]), "numeric",
                         "the maximising candidate is not eps0/2"),
               Compare(_t3_term, "gt", _kov_term(True),
                       grid(eps0=["0.4"], k=[6], eps=["0.6", "1.0"]), "numeric",
                       lhs_name="DDR-T3.delta", rhs_name="KOV-DELTA.delta_pure(eps0/2)")),
              scope="instance"),
        Claim(5, "DDR-T3.delta(eps0, 1, x) equals the k = 1 step of the DDR-L32 recursion from "
                 "(1 - e^y)_+, computed by branch and bound over t (no closed form), to 1e-30, at "
                 "eps0 in {0.3, 1.2} and x/eps0 in {-1.5, -1, -0.6, -0.25, 0, 0.3, 0.75, 1, 1.4}.",
              (Compare(_t3_k1, "eq", l32_delta_k1_recursion,
                       Points(tuple({"eps0": e, "eps": str(Fraction(e) * Fraction(r))}
                                    for e in ("0.3", "1.2")
                                    for r in ("-1.5", "-1", "-0.6", "-0.25", "0", "0.3",
                                              "0.75", "1", "1.4"))),
                       "numeric", Tol.abs("1e-30"), "DDR-T3.delta(eps0, 1, x)",
                       "sup_t of the k = 1 recursion"),), scope="instance"),
        Claim(6, "Two-sided check of the branch-and-bound route of claim 1: " + TAYLOR_TEXT
                 + ".",
              (Compare(l31_taylor_deviation, "le", lambda ctx, **_: ctx.num(TAYLOR_SLACK),
                       TAYLOR_POINTS, "numeric",
                       lhs_name="largest relative distance of the route's enclosures from the "
                                "Taylor coefficients", rhs_name="1e-25"),), scope="instance"),
    ),
    notes="Open question resolved as far as the paper's text allows: the index range is "
          "l in {0..k} (l = k matters only for eps < 0, value 1 - e^eps; for eps >= 0, "
          "l <= k-1 suffices); the exact complexity statement could not be read. Evaluation: all "
          "candidates up to k = 64; beyond, certified block bounds prune the candidates "
          "(k = 10^4 in seconds). The float context uses golden section over l (unimodality "
          "checked in DDR-FIG1 claim 6).",
)
