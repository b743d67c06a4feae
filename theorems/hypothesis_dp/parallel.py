"""GCE-PARCMP (the hospital example against parallel composition, Sec. V-A1) and GCE-HDPCALC
(the HDP procedure on explicit hypotheses, Sec. V-B) of [GCE] arXiv 2209.13697.

The combination rule of Sec. V-B (``eps = max_j eps_j``, ``delta = sum_j w_j delta_j``; with one
point hypothesis the sharper ``e^eps = sum_j w_j e^{eps_j}``, valid in the direction
mixture-vs-point only) is the catalogue's derivation, checked against exact enumeration.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
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
    SmtProblem,
    Tol,
)
from dpverify.theorems.core import (
    Evaluator,
    Theorem,
)
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.hdp_bounds import parcmp_eps, parcmp_eps_parallel
from dpverify.theorems.hypothesis_dp.instances import (
    FAMILY,
    constant,
    draw_mechs,
    mv_pure_exp,
    rational_z,
)
from dpverify.theorems.hypothesis_dp.mutation_guards import (
    ENGINE_BOX,
    direct_suffix,
    direct_sum,
    engine_suffix,
    engine_sum,
)
from dpverify.theorems.numerics import gce
from dpverify.theorems.params import (
    DELTA,
    EPS0_POS,
    NEIGHBORING,
    M,
)
from dpverify.theorems.refs import GCE, cite
from dpverify.theorems.values import exact_params

# ==========================================================================================
# GCE-PARCMP




def _parcmp(neighboring: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    @exact_params("delta")
    def gce_eps(ctx: Any, eps0: Any, m: int, delta: Any, **_: Any) -> Any:
        return parcmp_eps(ctx, eps0, m, delta, neighboring)

    def par_eps(ctx: Any, eps0: Any, m: int, **_: Any) -> Any:
        return parcmp_eps_parallel(ctx, eps0, m, neighboring)

    return gce_eps, par_eps


def _parcmp_claim(number: int, neighboring: str, m: int, gce_value: str, par_value: str,
                  text: str) -> Claim:
    gce_eps, par_eps = _parcmp(neighboring)
    pt = Points(({"eps0": "0.01", "m": m, "delta": "1e-6"},))
    return Claim(number, text, (
        Compare(gce_eps, "eq", constant(gce_value), pt, "numeric", Tol.abs("5e-4"),
                f"GCE-PARCMP.eps(0.01, {m}, 1e-6, {neighboring})", gce_value),
        Compare(par_eps, "eq", constant(par_value), pt, "numeric", Tol.abs("1e-40"),
                f"GCE-PARCMP.eps_parallel(0.01, {m}, {neighboring})", par_value),
        Compare(gce_eps, "lt", par_eps, pt, "numeric", lhs_name="GCE eps",
                rhs_name="parallel eps")), scope="instance")


GCE_PARCMP = Theorem(
    id="GCE-PARCMP",
    title="Comparison with parallel composition",
    family=FAMILY,
    source=cite(GCE, "Sec. V-A1"),
    types=("BOUND",),
    confidence=("HIGH",),
    statement=(
        "Merging the n databases (rows tagged with their index) and splitting by index is "
        "parallel composition; neighbouring merged databases differ in up to m records "
        "(unbounded) or 2m (bounded), so Def. 5 gives m max_i eps_i or 2m max_i eps_i (pure DP "
        "only). GCE composes only the worst m (or 2m) mechanisms with any composition theorem "
        "and allows delta > 0."),
    domain="eps0 > 0 (homogeneous), m >= 1, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (EPS0_POS, M, DELTA, NEIGHBORING), parcmp_eps,
                  "KOV-EPS.eps(eps0, 0, s, delta), s = m (add_remove) or 2m (replace_one)"),
        Evaluator("eps_parallel", (EPS0_POS, M, NEIGHBORING), parcmp_eps_parallel,
                  "s * eps0"),
    ),
    claims=(
        _parcmp_claim(1, "add_remove", 365, "0.790", "3.65",
                      "GCE with KOV gives eps = 0.790 for m = 365 (unbounded), versus 3.65 from "
                      "parallel composition (eps0 = 0.01, delta = 1e-6)."),
        _parcmp_claim(2, "replace_one", 365, "1.151", "7.30",
                      "Bounded: 1.151 for 2m = 730, versus 7.30."),
        Claim(3, "eps(eps0, m, delta, neighboring) <= eps_parallel(eps0, m, neighboring) for "
              "all inputs.",
              tuple(Compare(_parcmp(nb)[0], "le", _parcmp(nb)[1],
                            Box(reals={"eps0": ("0.001", "1"), "delta": ("1e-12", "0.5")},
                                ints={"m": (1, 200)}, log_scale=frozenset({"eps0", "delta"})),
                            "property", lhs_name=f"GCE-PARCMP.eps({nb})",
                            rhs_name=f"GCE-PARCMP.eps_parallel({nb})")
                    for nb in ("add_remove", "replace_one"))),
        Claim(4, "The binomial-law engine behind eps (KOV-EPS sums the law P(i) = C(k, i) "
                 "e^{i eps0}/(1 + e^eps0)^k of the count with numerics.binomial; a mutation "
                 "guard, theorems/hypothesis_dp/mutation_guards.py) equals the sums taken term by "
                 "term: sum_{i=lo}^{hi} P(i) (i + 1)/(k + 1) (walked from the mode, tails "
                 "enclosed) and the suffix sums A_j = sum_{i>=j} P(i), B_j = sum_{i>=j} P(i) "
                 "e^{-eps0 (2i - k)} summed over j in [lo, hi]; searched over eps0 in [0.01, 5], "
                 "k in {1..150}, 0 <= lo <= hi <= k (rel 1e-30).",
              (Compare(engine_sum, "eq", direct_sum, ENGINE_BOX, "property",
                       Tol(abs_tol=Fraction(1, 10**40), rel_tol=Fraction(1, 10**30)),
                       "binomial_sum", "term by term", part="binomial_sum"),
               *(Compare(lambda ctx, w=w, **kw: engine_suffix(ctx, which=w, **kw), "eq",
                         lambda ctx, w=w, **kw: direct_suffix(ctx, which=w, **kw),
                         ENGINE_BOX, "property",
                         Tol(abs_tol=Fraction(1, 10**40), rel_tol=Fraction(1, 10**30)),
                         f"sum_j {w}_j of suffix_sums", "term by term", part=f"suffix_{w}")
                 for w in ("A", "B")))),
    ),
    notes="Parallel composition (PAR) is pure-DP only; the GCE route also accepts delta > 0. "
          "`hospital_series` gives the guarantee as a function of m for the report's plot.",
)


# ==========================================================================================
# GCE-HDPCALC: the procedure on explicit (H0, H1)


def hdp_procedure(pairs: Sequence[tuple[gce.Vector, gce.Vector, Any]],
                  comp: Callable[[tuple[int, ...]], tuple[Any, Any]],
                  ctx: Any = None) -> tuple[Any, Any]:
    """[GCE] Sec. V-B (combination rule derived in the catalogue): for matched pairs ``(b_j^0,
    b_j^1, w_j)`` of Alg. 3 and a Comp on the differing rounds ``I_j`` giving ``(z_j,
    delta_j)`` with ``z_j = e^{eps_j}``, the pair is ``(max_j eps_j, sum_j w_j delta_j)``-HDP:
    ``Pr[V|H0 in S] = sum_j w_j Pr[V|b_j^0 in S] <= sum_j w_j (e^{eps_j} Pr[V|b_j^1 in S] +
    delta_j)`` and the same in the other order. Returns ``(max_j z_j, sum_j w_j delta_j)``
    (the maximum by ``ctx.max`` when a context is given, e.g. symbolically)."""
    zs, total = [], Fraction(0)
    for b0, b1, w in pairs:
        zj, dj = comp(gce.differing(b0, b1))
        zs.append(zj)
        total = total + w * dj
    return (max(zs) if ctx is None else ctx.max(*zs)), total


def hdp_procedure_point(pairs: Sequence[tuple[gce.Vector, gce.Vector, Any]],
                        comp: Callable[[tuple[int, ...]], tuple[Any, Any]]) -> tuple[Any, Any]:
    """The sharper rule when H0 is a point mass (catalogue GCE-HDPCALC, used by GCE-E34):
    ``e^eps = sum_j w_j e^{eps_j}``, ``delta = sum_j w_j delta_j``; valid for the direction
    ``Pr[V|H1 in S] <= e^eps Pr[V|H0 in S] + delta`` only."""
    z, total = Fraction(0), Fraction(0)
    for b0, b1, w in pairs:
        zj, dj = comp(gce.differing(b0, b1))
        z += w * zj
        total += w * dj
    return z, total


def _draw_calc(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(1, 4)
    xs = tuple(Fraction(rng.randint(105, 250), 100) for _ in range(n))
    ds = tuple(Fraction(rng.randint(0, 5), 100) for _ in range(n))
    mechs = tuple(gce.random_dp_mechanism(rng, x, d) for x, d in zip(xs, ds, strict=True))
    return {"mechs": mechs, "xs": xs, "ds": ds, "h0": gce.random_hypothesis(rng, n, (1, 5)),
            "h1": gce.random_hypothesis(rng, n, (1, 5))}


def _basic_comp(xs: Sequence[Fraction], ds: Sequence[Fraction]
                ) -> Callable[[tuple[int, ...]], tuple[Fraction, Fraction]]:
    """Basic composition on the rounds I: ``(prod_{i in I} x_i, sum_{i in I} delta_i)``."""
    def comp(idx: tuple[int, ...]) -> tuple[Fraction, Fraction]:
        return (math.prod((xs[i] for i in idx), start=Fraction(1)),
                sum((ds[i] for i in idx), Fraction(0)))
    return comp


@exact_params("mechs", "xs", "ds", "h0", "h1")
def _calc_basic_test(ctx: Any, mechs: Any, xs: Any, ds: Any, h0: Any, h1: Any,
                     **_: Any) -> bool:
    z, delta = hdp_procedure(gce.matched(gce.refine(h0, h1)), _basic_comp(xs, ds))
    return gce.hdp_delta(mechs, h0, h1, z) <= delta


def _draw_calc_rr(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(1, 4)
    xs = tuple(Fraction(rng.randint(105, 250), 100) for _ in range(n))
    return {"xs": xs, "h0": gce.random_hypothesis(rng, n, (2, 5)),
            "h1": gce.random_hypothesis(rng, n, (2, 5)), "z": rational_z(rng)}


@exact_params("xs", "h0", "h1", "z")
def _calc_mv_test(ctx: Any, xs: Any, h0: Any, h1: Any, z: Any, **_: Any) -> bool:
    def comp(idx: tuple[int, ...]) -> tuple[Fraction, Fraction]:
        return z, mv_pure_exp([xs[i] for i in idx], z)

    _, delta = hdp_procedure(gce.matched(gce.refine(h0, h1)), comp)
    mechs = [gce.rr_exp(x) for x in xs]
    return gce.hdp_delta(mechs, h0, h1, z) <= delta


def _draw_calc_point(rng: random.Random) -> dict[str, Any]:
    point = _draw_calc(rng)
    n = len(point["mechs"])
    point["h0"] = gce.point(tuple(rng.randint(0, 1) for _ in range(n)))
    return point


@exact_params("mechs", "xs", "ds", "h0", "h1")
def _calc_point_test(ctx: Any, mechs: Any, xs: Any, ds: Any, h0: Any, h1: Any,
                     **_: Any) -> bool:
    z, delta = hdp_procedure_point(gce.matched(gce.refine(h0, h1)), _basic_comp(xs, ds))
    return gce.hockey(gce.mixture_law(mechs, h1), gce.mixture_law(mechs, h0), z) <= delta


def _draw_restrict(rng: random.Random) -> dict[str, Any]:
    mechs = draw_mechs(rng)
    n = len(mechs)
    return {"mechs": mechs, "b0": tuple(rng.randint(0, 1) for _ in range(n)),
            "b1": tuple(rng.randint(0, 1) for _ in range(n)), "z": rational_z(rng)}


@exact_params("mechs", "b0", "b1", "z")
def _restrict_test(ctx: Any, mechs: Any, b0: Any, b1: Any, z: Any, **_: Any) -> bool:
    full = gce.two_sided(gce.point_law(mechs, b0), gce.point_law(mechs, b1), z)
    sub, c0, c1 = gce.restrict(mechs, b0, b1)
    part = (gce.two_sided(gce.point_law(sub, c0), gce.point_law(sub, c1), z) if sub
            else Fraction(0))
    return full == part


def _seeded_test(test: Callable[..., bool], draw: Callable[[random.Random], dict[str, Any]]
                 ) -> Callable[..., bool]:
    @exact_params("inst")
    def seeded_test(ctx: Any, inst: Any, **_: Any) -> bool:
        return test(ctx, **draw(random.Random(int(inst))))
    return seeded_test


def combination_problem(j: int, point: bool) -> SmtProblem:
    """The combination rule for one event S over ``j`` matched pairs with distinct differing
    rounds, ``(Z, D)`` from :func:`hdp_procedure` (or :func:`hdp_procedure_point`) in the sym
    context: ``a_i = Pr[V|b_i^0 in S]``, ``c_i = Pr[V|b_i^1 in S]`` satisfy the per-pair
    inequalities at ``(Z_i = e^{eps_i}, D_i)``; the mixtures are ``sum_i w_i a_i`` and ``sum_i
    w_i c_i`` (Alg. 3). Point H0: ``a_i = a`` for all i, one direction."""
    import sympy as sp

    ctx = SymCtx()
    ws, zs, ds = (sp.symbols(f"{c}0:{j}", real=True) for c in "wZD")
    cs = sp.symbols(f"c0:{j}", real=True)
    a_common = sp.Symbol("a", real=True)
    as_ = (a_common,) * j if point else sp.symbols(f"a0:{j}", real=True)
    zero = (0,) * j
    pairs = [(zero, tuple(int(t == i) for t in range(j)), ws[i]) for i in range(j)]
    by_round = {(i,): (zs[i], ds[i]) for i in range(j)}
    z, d = (hdp_procedure_point if point else hdp_procedure)(
        pairs, by_round.__getitem__, *(() if point else (ctx,)))
    hyps = [sp.Eq(sum(ws), 1)]
    for i in range(j):
        hyps += [sp.Ge(ws[i], 0), sp.Ge(zs[i], 1), sp.Ge(ds[i], 0), sp.Ge(as_[i], 0),
                 sp.Ge(cs[i], 0), sp.Le(cs[i], zs[i] * as_[i] + ds[i])]
        if not point:
            hyps.append(sp.Le(as_[i], zs[i] * cs[i] + ds[i]))
    mix0 = sum(w * a for w, a in zip(ws, as_, strict=True))
    mix1 = sum(w * c for w, c in zip(ws, cs, strict=True))
    goal = sp.Le(mix1, z * mix0 + d)
    if not point:
        goal = sp.And(goal, sp.Le(mix0, z * mix1 + d))
    names = {str(v): "real" for v in (*ws, *zs, *ds, *cs, *set(as_))}
    return SmtProblem(names, tuple(hyps), goal,
                      ("Z_i = e^{eps_i} >= 1; a_i, c_i the probabilities of one event S",))


def hdpcalc_universal(number: int) -> Claim:
    box = Box(ints={"inst": (0, 10**9)})
    return Claim(number, "For all finite mechanisms and hypothesis pairs, the procedure's (eps, "
                 "delta) satisfies both inequalities of Def. 3 (and the point-H0 rule its one "
                 "direction). Searched over seeded instances drawn as in claim 1 (n <= 4, "
                 "random DP mechanisms and RR, supports 1-5), exactly; the combination rule is "
                 "proved by z3 for one event and 2 matched pairs (the point-H0 rule also for 3; "
                 "for the general rule with 3 pairs z3 is not reliable: proved in 2-6 s in two "
                 "runs, unknown after 120 s in a third, so it is not attempted) with any "
                 "per-pair guarantees (Z_i = e^{eps_i} >= 1, D_i >= 0) and any refinement "
                 "weights, from hdp_procedure / hdp_procedure_point in the sym context; summing "
                 "over the events of the view space is linear.", (
        Predicate(_seeded_test(_calc_basic_test, _draw_calc), box, "property",
                  "Comp = basic composition: exact two-sided delta <= the procedure's delta"),
        Predicate(_seeded_test(_calc_mv_test, _draw_calc_rr), box, "property",
                  "Comp = MV-OPT at a common eps: exact two-sided delta <= the procedure's"),
        Predicate(_seeded_test(_calc_point_test, _draw_calc_point), box, "property",
                  "point H0, sharper rule: exact one-sided delta <= the procedure's"),
        *(Smt(lambda j=j, pt=pt: combination_problem(j, pt),
              f"{j} matched pairs: " + ("point H0, e^eps = sum_i w_i e^{eps_i}" if pt else
                                          "eps = max_i eps_i, delta = sum_i w_i delta_i"))
          for j, pt in ((2, False), (2, True), (3, True))),
    ))


GCE_HDPCALC = Theorem(
    id="GCE-HDPCALC",
    title="Computing an HDP guarantee for a given hypothesis pair",
    family=FAMILY,
    source=cite(GCE, "Sec. V-B"),
    types=("ALGORITHM",),
    confidence=("DERIVED", "UNCERTAIN"),
    statement=(
        "1. Refine (H0, H1) with Alg. 3 into matched pairs (b_j^0, b_j^1, w_j). 2. For each "
        "pair find (eps_j, delta_j) with both Pr[V|b_j^0] <= e^{eps_j} Pr[V|b_j^1] + delta_j and "
        "the reverse, composing only the rounds I_j = {i : b_j^0[i] != b_j^1[i]} (agreeing "
        "rounds have identical output laws). 3. eps = max_j eps_j, delta = sum_j w_j delta_j; "
        "over a set H take the worst pair. With H0 a point mass, e^eps = sum_j w_j e^{eps_j} "
        "(direction H1 vs H0 only)."),
    domain="finite hypotheses; any compatible Comp",
    claims=(
        Claim(1, "For random finite mechanisms and random (H0, H1), the procedure's (eps, "
              "delta) satisfies both inequalities of Def. 3 (exact hockey-stick of the two "
              "mixtures at eps is <= delta, in both orders). The combination rule is proved by "
              "z3 (problems of claim 3) for one event and 2 matched pairs with any per-pair "
              "guarantees and weights (general rule and point-H0 rule).",
              (Predicate(_calc_basic_test,
                         Generated(_draw_calc, 300, "random (log x_i, delta_i)-DP mechanisms "
                                   "(kernels of the worst mechanism, n <= 4) and random (H0, H1)"),
                         "oracle", "Comp = basic composition on I_j: exact two-sided delta at "
                         "e^eps = max_j prod_{I_j} x_i is <= sum_j w_j sum_{I_j} delta_i"),
               Predicate(_calc_mv_test,
                         Generated(_draw_calc_rr, 300, "RR(log x_i) with rational x_i, random "
                                   "composite (H0, H1), exact z = e^eps in [1, 3]"),
                         "oracle", "Comp = MV-OPT at a common eps on I_j: exact two-sided delta "
                         "<= sum_j w_j MV-OPT.delta_pure(eps_{I_j}, eps)"),
               Predicate(_calc_point_test,
                         Generated(_draw_calc_point, 300, "random DP mechanisms, H0 a random "
                                   "point mass, random H1"),
                         "oracle", "point H0, sharper rule: exact H_z(V|H1 || V|H0) <= sum_j "
                         "w_j delta_j at z = sum_j w_j e^{eps_j}"),
               *(Smt(lambda pt=pt: combination_problem(2, pt),
                     "2 matched pairs: " + ("point H0, e^eps = sum_i w_i e^{eps_i}" if pt else
                                            "eps = max_i eps_i, delta = sum_i w_i delta_i"))
                 for pt in (False, True)))),
        Claim(2, "Composing only the rounds in I_j gives the same exact delta as composing all "
              "n rounds for the point pair (b_j^0, b_j^1).",
              (Predicate(_restrict_test,
                         Generated(_draw_restrict, 300, "random rational mechanisms (n <= 4) "
                                   "and random (b0, b1), exact z"),
                         "oracle", "two-sided delta over all n rounds == over the rounds I "
                         "(exact)"),)),
        hdpcalc_universal(3),
    ),
    notes=("The combination rule of step 3 is derived (catalogue open question 9): it follows "
           "from summing the per-pair inequalities with the refinement weights, and claim 1 "
           "checks it exactly. As a user feature, `dpverify hdp` and the evaluators of GCE-V1, "
           "GCE-V2, GCE-V3 and GCE-T3 apply it to hypothesis sets given by a membership "
           "constraint, with Comp = MV-OPT."),
)
