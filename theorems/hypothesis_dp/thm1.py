"""GCE-T1: [GCE] arXiv 2209.13697, Thm 1, both ways: on random mechanisms for n <= 4 (exact),
and by z3 for randomized response with n = 2 and 3 (``x = e^eps0``, ``z = e^eps``, everything
scaled by ``(1+x)^n``): point pairs under classic DP, the binary-mixture induction step, and the
converse.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache
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
)
from dpverify.theorems.core import (
    Theorem,
)
from dpverify.theorems.formulas.kov_mv import mv_delta_pure
from dpverify.theorems.hypothesis_dp.instances import (
    FAMILY,
    T1_EPS,
    draw_mechs,
    exp_eps,
    rational_z,
    rr_mechs,
)
from dpverify.theorems.numerics import gce
from dpverify.theorems.refs import GCE, cite
from dpverify.theorems.values import exact_params, to_ctx

# ==========================================================================================
# GCE-T1


def _draw_t1_rr(rng: random.Random) -> dict[str, Any]:
    while True:
        h0 = gce.random_hypothesis(rng, 4, (1, 6))
        h1 = gce.random_hypothesis(rng, 4, (1, 6))
        if not (len(h0) == len(h1) == 1
                and all(a != b for a, b in zip(h0[0][0], h1[0][0], strict=True))):
            break  # the classic pair itself is a tie, not a composite pair
    eps = rng.choice((Fraction(0), Fraction(3, 10), Fraction(9, 10)))
    return {"h0": h0, "h1": h1, "eps": eps}


def _t1_rr_hdp(ctx: Any, h0: Any, h1: Any, eps: Any, **_: Any) -> Any:
    return gce.hdp_delta(rr_mechs(ctx, T1_EPS), h0, h1, exp_eps(ctx, eps), ctx)


def _t1_rr_mv(ctx: Any, eps: Any, **_: Any) -> Any:
    return mv_delta_pure(ctx, T1_EPS, to_ctx(ctx, eps))


def _draw_t1_random(rng: random.Random) -> dict[str, Any]:
    mechs = draw_mechs(rng)
    n = len(mechs)
    return {"mechs": mechs, "h0": gce.random_hypothesis(rng, n, (1, 6)),
            "h1": gce.random_hypothesis(rng, n, (1, 6)), "z": rational_z(rng)}


@lru_cache(maxsize=4096)
def _classic_exact(mechs: tuple[gce.Mechanism, ...], z: Fraction) -> Fraction:
    return gce.classic_delta(mechs, z)


@exact_params("mechs", "h0", "h1", "z")
def _t1_random_test(ctx: Any, mechs: Any, h0: Any, h1: Any, z: Any, **_: Any) -> bool:
    return gce.hdp_delta(mechs, h0, h1, z) <= _classic_exact(mechs, z)


def _t1_seed_instance(seed: int) -> tuple[tuple[gce.Mechanism, ...], gce.Hypothesis,
                                          gce.Hypothesis]:
    rng = random.Random(seed)
    mechs = draw_mechs(rng)
    n = len(mechs)
    return mechs, gce.random_hypothesis(rng, n, (2, 6)), gce.random_hypothesis(rng, n, (2, 6))


@exact_params("seed", "z")
def _t1_support_test(ctx: Any, seed: int, z: Any, **_: Any) -> bool:
    mechs, h0, h1 = _t1_seed_instance(int(seed))
    z = Fraction(z)
    cache: dict[gce.Vector, gce.Law] = {}
    worst = max(gce.two_sided(gce.mixture_law(mechs, gce.point(b), cache),
                              gce.mixture_law(mechs, gce.point(c), cache), z)
                for b, _ in h0 for c, _ in h1)
    return gce.hdp_delta(mechs, h0, h1, z, cache=cache) <= worst


T1_H0 = (((0, 0, 1, 0), Fraction(1, 3)), ((1, 1, 0, 0), Fraction(2, 3)))
T1_H1 = (((1, 0, 1, 1), Fraction(1, 2)), ((0, 1, 0, 0), Fraction(1, 4)),
         ((0, 0, 0, 0), Fraction(1, 4)))


def _t1_refined_bound(ctx: Any, eps: Any, **_: Any) -> Any:
    """``sum_j w_j delta_{b_j^0, b_j^1}(eps)`` over the FIFO refinement of (T1_H0, T1_H1)."""
    mechs = rr_mechs(ctx, T1_EPS)
    z = exp_eps(ctx, eps)
    terms = [ctx.num(w) * gce.two_sided(gce.point_law(mechs, b0), gce.point_law(mechs, b1), z,
                                        ctx)
             for b0, b1, w in gce.matched(gce.refine(T1_H0, T1_H1))]
    return ctx.fsum(terms)


def _t1_fixed_hdp(ctx: Any, eps: Any, **_: Any) -> Any:
    return gce.hdp_delta(rr_mechs(ctx, T1_EPS), T1_H0, T1_H1, exp_eps(ctx, eps), ctx)


@lru_cache(maxsize=4096)
def _point_pairs_max(mechs: tuple[gce.Mechanism, ...], z: Fraction) -> Fraction:
    laws = gce.all_point_laws(mechs)
    return max(gce.hockey(laws[b], laws[c], z) for b in laws for c in laws)


@exact_params("mechs", "z")
def _t1_converse_test(ctx: Any, mechs: Any, z: Any, **_: Any) -> bool:
    return _point_pairs_max(mechs, z) == _classic_exact(mechs, z)


def _draw_t1_converse(rng: random.Random) -> dict[str, Any]:
    mechs = tuple(gce.random_mechanism(rng, (2, 2)) for _ in range(rng.randint(1, 4)))
    return {"mechs": mechs, "z": rational_z(rng)}


# --- z3: randomized response with n = 2, 3 --------------------------------------------------


def _rr_sym(n: int) -> tuple[Any, Any, Any, list[gce.Mechanism]]:
    """Symbols ``x = e^eps0``, ``z = e^eps``, ``D = delta (1+x)^n`` and n rounds of RR(eps0)
    with both laws multiplied by ``1 + x`` (so every view probability times ``(1+x)^n`` is a
    monomial in x)."""
    import sympy as sp

    x, z, d = sp.symbols("x z D", real=True)
    p, q = gce.rr_exp(x)
    scaled = (tuple(sp.cancel((1 + x) * v) for v in p), tuple(sp.cancel((1 + x) * v) for v in q))
    return x, z, d, [scaled] * n


def _hs_scaled(p: gce.Law, q: gce.Law, z: Any) -> Any:
    """``H_z(P||Q)`` of the scaled laws, as a sum of ``Max(0, polynomial)``."""
    import sympy as sp

    return sp.Add(*(sp.Max(0, a - z * b, evaluate=False) for a, b in zip(p, q, strict=True)))


def _t1_point_problem(n: int) -> SmtProblem:
    """Classic DP of n-fold RR(eps0) at level D (all per-round orders, Alg. 1) implies the HDP
    inequality for every pair of point hypotheses (b, b') and every event."""
    import sympy as sp

    x, z, d, mechs = _rr_sym(n)
    vs = gce.vectors(n)
    hyps = [sp.Gt(x, 0), sp.Ge(z, 0)]
    for order in vs:
        v0, v1 = gce.classic_laws(mechs, order)
        hyps.append(sp.Le(_hs_scaled(v0, v1, z), d))
    laws = {b: gce.point_law(mechs, b) for b in vs}
    goal = sp.And(*(sp.Le(_hs_scaled(laws[b], laws[c], z), d) for b in vs for c in vs))
    return SmtProblem({"x": "real", "z": "real", "D": "real"}, tuple(hyps), goal,
                      (f"x = e^eps0, z = e^eps, D = delta (1+x)^{n} (both sides times "
                       f"(1+x)^{n} > 0)",))


def mixture_step_problem(side: str) -> SmtProblem:
    """The induction step that extends point pairs to composite hypotheses: for one event S,
    ``P_H(S) = t P_b(S) + (1-t) P_H'(S)`` (binary mixture)."""
    import sympy as sp

    a0, a1, c0, c1, z, d, t = sp.symbols("a0 a1 c0 c1 z D t", real=True)
    base = [sp.Ge(t, 0), sp.Le(t, 1), sp.Ge(z, 0)]
    if side == "H0":
        hyps = [*base, sp.Le(a0 - z * c0, d), sp.Le(a1 - z * c0, d)]
        goal = sp.Le(t * a0 + (1 - t) * a1 - z * c0, d)
    else:
        hyps = [*base, sp.Le(a0 - z * c0, d), sp.Le(a0 - z * c1, d)]
        goal = sp.Le(a0 - z * (t * c0 + (1 - t) * c1), d)
    names = {s.name: "real" for s in (a0, a1, c0, c1, z, d, t)}
    return SmtProblem(names, tuple(hyps), goal, ("a_i = P(S) under H0's parts, c_i = P(S) "
                                                  "under H1's parts, z = e^eps",))


def _t1_converse_problem(n: int) -> SmtProblem:
    """HDP at level D for the pairs (delta_c, delta_{~c}) of P x P (GCE view mixtures) implies
    classic DP at level D (every order of Alg. 1) and D >= the classic optimum
    ``sum_k C(n,k) (x^{n-k} - z x^k)_+ / (1+x)^n`` ([KOV] Thm 3.3, [MV] Thm 1.4)."""
    import sympy as sp

    x, z, d, mechs = _rr_sym(n)
    vs = gce.vectors(n)
    hyps = [sp.Gt(x, 0), sp.Ge(z, 0)]
    for c in vs:
        cc = tuple(1 - v for v in c)
        hyps.append(sp.Le(_hs_scaled(gce.mixture_law(mechs, gce.point(c)),
                                     gce.mixture_law(mechs, gce.point(cc)), z), d))
    goals = []
    for order in vs:
        v0, v1 = gce.classic_laws(mechs, order)
        goals.append(sp.Le(_hs_scaled(v0, v1, z), d))
    kov = sp.Add(*(math.comb(n, k) * sp.Max(0, x ** (n - k) - z * x**k) for k in range(n + 1)))
    goals.append(sp.Ge(d, kov))
    return SmtProblem({"x": "real", "z": "real", "D": "real"}, tuple(hyps), sp.And(*goals),
                      (f"x = e^eps0, z = e^eps, D = delta (1+x)^{n}",))


GCE_T1 = Theorem(
    id="GCE-T1",
    title="DP is equivalent to HDP over all hypothesis pairs",
    family=FAMILY,
    source=cite(GCE, "Thm 1; proof in App. B"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "Let P be the set of all distributions over {0,1}^n. A sequence of mechanisms is "
        "(eps, delta)-DP (Def. 2) iff it is (eps, delta)-HDP w.r.t. P x P, with the same "
        "parameters. Point pairs (b, b') reduce to the classic experiment with per-round "
        "orders (flip agreeing bits); composite pairs are refined with Alg. 3 and the "
        "inequalities of the matched point pairs are summed. The worst case is always a pair "
        "of point hypotheses."),
    domain="eps >= 0, delta in [0, 1], n >= 1",
    claims=(
        Claim(1, "For 40 random composite pairs (H0, H1) over {0,1}^4 (random supports of 1 to "
              "6 vectors, random integer weights) with heterogeneous RR mechanisms eps_list = "
              "(0.3, 0.8, 0.5, 0.2) and eps in {0, 0.3, 0.9}, the exact two-sided "
              "delta_{H0,H1}(eps) <= MV-OPT.delta_pure(eps_list, eps). Also (DP => HDP): on "
              "random finite mechanisms (n <= 4) the exact HDP delta of random pairs is at most "
              "the exact classic delta; and, by z3 for RR with n = 2 and 3, classic DP implies "
              "the HDP inequality for every point pair and every event, extended to composite "
              "pairs by the binary-mixture induction step.",
              (Compare(_t1_rr_hdp, "le", _t1_rr_mv,
                       Generated(_draw_t1_rr, 40, "random composite pairs over {0,1}^4 and eps "
                                 "in {0, 0.3, 0.9}"), "oracle",
                       lhs_name="exact two-sided delta_{H0,H1}(eps)",
                       rhs_name="MV-OPT.delta_pure(eps_list, eps)"),
               Predicate(_t1_random_test,
                         Generated(_draw_t1_random, 1000, "random rational mechanisms (n <= 4 "
                                   "rounds, 2-3 outputs), random (H0, H1) (supports 1-6), exact "
                                   "z = e^eps in [1, 3]"), "oracle",
                         "exact HDP delta of (H0, H1) <= exact classic delta (max over the "
                         "per-round orders of Alg. 1)"),
               Smt(lambda: _t1_point_problem(2), "RR, n = 2: classic (eps, delta)-DP (all "
                   "orders) => the HDP inequality for all 16 point pairs, all events"),
               Smt(lambda: _t1_point_problem(3), "RR, n = 3: classic (eps, delta)-DP (all "
                   "orders) => the HDP inequality for all 64 point pairs, all events"),
               Smt(lambda: mixture_step_problem("H0"), "induction step on the support of H0: "
                   "a binary mixture of parts satisfying the inequality satisfies it"),
               Smt(lambda: mixture_step_problem("H1"), "induction step on the support of H1: "
                   "the same for the right-hand side"))),
        Claim(2, "Refinement bound: with H0 = {(0,0,1,0): 1/3, (1,1,0,0): 2/3}, H1 = "
              "{(1,0,1,1): 1/2, (0,1,0,0): 1/4, (0,0,0,0): 1/4}, the same mechanisms and eps = "
              "0.4, refine with GCE-A3 into matched pairs (b_j^0, b_j^1, w_j); then exact "
              "delta_{H0,H1}(eps) <= sum_j w_j delta_{b_j^0, b_j^1}(eps).",
              (Compare(_t1_fixed_hdp, "le", _t1_refined_bound, Points(({"eps": "0.4"},)),
                       "oracle", lhs_name="exact delta_{H0,H1}(0.4)",
                       rhs_name="sum_j w_j delta_{b_j^0, b_j^1}(0.4)"),), scope="instance"),
        Claim(3, "In the setting of claim 2, sum_j w_j delta_{b_j^0, b_j^1}(eps) <= the classic "
              "value MV-OPT.delta_pure(eps_list, eps).",
              (Compare(_t1_refined_bound, "le", _t1_rr_mv, Points(({"eps": "0.4"},)), "oracle",
                       lhs_name="sum_j w_j delta_j(0.4)", rhs_name="MV-OPT.delta_pure(0.4)"),),
                       scope="instance"),
        Claim(4, "For random composite pairs, the exact HDP delta never exceeds the largest "
              "two-sided delta over point pairs (b, b') with b in supp H0 and b' in supp H1. "
              "Proved for all finite supports by z3 on the two binary-mixture induction steps "
              "(one event S, every z = e^eps >= 0: a mixture of parts that satisfy P(S) - z "
              "Q(S) <= D satisfies it, on the H0 side and on the H1 side), which by induction "
              "on the support sizes give the bound D = max over point pairs for every event "
              "and both orders.",
              (Predicate(_t1_support_test,
                         Box(ints={"seed": (0, 10**9)}, reals={"z": ("1", "3")}), "property",
                         "random mechanisms and composite pairs drawn from the seed (n <= 4, "
                         "supports 2-6), exact z = e^eps: delta_{H0,H1} <= max over supp H0 x "
                         "supp H1 of the point-pair delta"),
               Smt(lambda: mixture_step_problem("H0"), "induction step on the support of H0: "
                   "a binary mixture of parts satisfying the inequality satisfies it"),
               Smt(lambda: mixture_step_problem("H1"), "induction step on the support of H1: "
                   "the same for the right-hand side"))),
        Claim(5, "(Added for the converse of Thm 1, HDP => DP with the same parameters.) The "
              "supremum over P x P of the HDP delta is attained by a point pair and equals the "
              "classic delta: on random finite mechanisms the maximum over all point pairs "
              "(b, b') equals the exact classic delta; by z3 for RR with n = 2 and 3, HDP at "
              "level delta for the instances (delta_c, delta_{~c}) of P x P implies classic DP "
              "at level delta and delta >= the classic optimum (KOV-OPT).",
              (Predicate(_t1_converse_test,
                         Generated(_draw_t1_converse, 1000, "random rational mechanisms (n <= 4 "
                                   "rounds, binary outputs), exact z = e^eps in [1, 3]"),
                         "oracle",
                         "max over all point pairs of the HDP delta == exact classic delta"),
               Smt(lambda: _t1_converse_problem(2), "RR, n = 2: HDP over P x P at level delta "
                   "=> classic DP at delta and delta >= KOV-OPT"),
               Smt(lambda: _t1_converse_problem(3), "RR, n = 3: HDP over P x P at level delta "
                   "=> classic DP at delta and delta >= KOV-OPT"))),
    ),
    notes=("Consequently, HDP guarantees for restricted hypothesis sets (GCE-V1 to GCE-V3, "
           "GCE-E34, GCE-T3) can only improve on classic DP. The z3 proof for composite "
           "hypotheses is split in two: point pairs (RR-specific, n = 2, 3) and the binary "
           "mixture step (generic), chained by induction on the supports; a direct z3 query "
           "over composite weights did not finish within a minute for n = 2."),
)
