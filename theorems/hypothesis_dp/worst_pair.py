"""GCE-D4, GCE-V1, GCE-V2, GCE-V3: Comp on index sets and the worst allowed pair of databases
([GCE] arXiv 2209.13697, Def. 4, Sec. V-A, Ex. 1-3), checked against brute force over the
allowed pairs.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Generated,
    Points,
    Tol,
)
from dpverify.theorems.core import (
    Evaluator,
    Real,
    RealList,
    Theorem,
)
from dpverify.theorems.formulas.hdp_bounds import (
    MAX_SUBSETS,
    v1_delta,
    v1_eps,
    v2_delta,
    v2_eps,
    v3_delta,
    v3_eps,
)
from dpverify.theorems.formulas.kov_mv import mv_delta_pure, mv_eps
from dpverify.theorems.hypothesis_dp.instances import (
    DELTA_LIST_OPT,
    EPS_LIST_V,
    FAMILY,
    RR_SIX,
    exp_eps,
    rr_mechs,
)
from dpverify.theorems.hypothesis_dp.mutation_guards import MV_ROUND_TRIP_BOX, mv_round_trip
from dpverify.theorems.hypothesis_dp.universal import v1_universal, v2_universal, v3_universal
from dpverify.theorems.numerics import gce
from dpverify.theorems.params import (
    DELTA,
    EPS,
    EPS_LIST,
    NEIGHBORING,
    M,
)
from dpverify.theorems.refs import GCE, cite
from dpverify.theorems.values import exact_params

# ==========================================================================================
# GCE-D4


def _d4_instance(seed: int, n: int = 6) -> tuple[Fraction, ...]:
    rng = random.Random(seed)
    return tuple(Fraction(rng.randint(1, 24), 20) for _ in range(n))


def _top(eps_list: Sequence[Fraction], s: int) -> tuple[Fraction, ...]:
    return tuple(sorted(eps_list, reverse=True)[:s])


@exact_params("seed")
def _d4_max_delta(ctx: Any, seed: int, s: int, eps: Any, **_: Any) -> Any:
    eps_list = _d4_instance(int(seed))
    vals = [mv_delta_pure(ctx, idx, eps) for idx in itertools.combinations(eps_list, s)]
    return ctx.max(*vals) if len(vals) > 1 else vals[0]


@exact_params("seed")
def _d4_top_delta(ctx: Any, seed: int, s: int, eps: Any, **_: Any) -> Any:
    return mv_delta_pure(ctx, _top(_d4_instance(int(seed)), s), eps)


_D4_E_STAR: dict[tuple[Any, ...], Any] = {}


def _d4_at_top_eps(which: str) -> Callable[..., Any]:
    """At ``e* = MV-OPT.eps(s largest, delta)``: ``max_{|I| = s} MV-OPT.delta_pure(eps_I, e*)``
    (``which = "all"``) or the value of the s largest (``"top"``). If they are equal, every
    s-subset has ``delta_pure(eps_I, e*) <= delta_pure(top, e*) <= delta``, so ``MV-OPT.eps
    (eps_I, delta) <= e*`` (delta_pure is nonincreasing): the s largest attain the maximum.
    Other subsets can tie with the s largest (a round whose two atoms are both active drops
    out of the sum), so the check is an equality, not a strict order."""

    @exact_params("seed", "delta")
    def term(ctx: Any, seed: int, s: int, delta: Any, **_: Any) -> Any:
        eps_list = _d4_instance(int(seed))
        top = _top(eps_list, s)
        key = (int(seed), s, Fraction(delta), ctx.name, ctx.prec)
        if key not in _D4_E_STAR:  # both sides of the check share the bisection
            if len(_D4_E_STAR) > 64:
                _D4_E_STAR.clear()
            _D4_E_STAR[key] = mv_eps(ctx, top, Fraction(delta))
        e_star = _D4_E_STAR[key]
        if which == "top":
            return mv_delta_pure(ctx, top, e_star)
        vals = [mv_delta_pure(ctx, idx, e_star) for idx in itertools.combinations(eps_list, s)]
        return ctx.max(*vals) if len(vals) > 1 else vals[0]

    return term


_MV_ROUND_TRIP = mv_round_trip(lambda seed, s: _top(_d4_instance(seed), s))
_MV_ROUND_TRIP_TERMS = (_MV_ROUND_TRIP[0], "eq", _MV_ROUND_TRIP[1])


GCE_D4 = Theorem(
    id="GCE-D4",
    title="Compatible composition theorem and the Comp(.) notation",
    family=FAMILY,
    source=cite(GCE, "Def. 4"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "A composition theorem is compatible with (M_i) if it applies to them in the classic "
        "experiment: KOV (KOV-OPT) for homogeneous (eps, delta), MV (MV-OPT) for heterogeneous "
        "ones. Comp(M_1, ..., M_k) is any (eps, delta) guarantee of a compatible theorem; a max "
        "over several Comp's fixes delta and maximises eps, as in [MV]."),
    domain="as the chosen theorem",
    claims=(
        Claim(1, "For pure DP, MV-OPT is monotone in each eps_i, so among index sets of size s "
              "both max_{|I|=s} MV-OPT.eps(eps_I, delta) (fixed delta) and max_{|I|=s} "
              "MV-OPT.delta_pure(eps_I, eps) (fixed eps) are attained by the s largest eps_i.",
              (Compare(_d4_max_delta, "eq", _d4_top_delta,
                       Box(ints={"seed": (0, 10**9), "s": (1, 5)}, reals={"eps": ("0", "2")}),
                       "property", Tol.abs("1e-40"),
                       "max over all s-subsets of 6 random eps_i of MV-OPT.delta_pure",
                       "MV-OPT.delta_pure of the s largest"),
               Compare(_d4_at_top_eps("all"), "eq", _d4_at_top_eps("top"),
                       Box(ints={"seed": (0, 10**9), "s": (1, 5)},
                           reals={"delta": ("1e-8", "0.3")}, log_scale=frozenset({"delta"})),
                       "property", Tol.abs("1e-20"), "max over all s-subsets of "
                       "MV-OPT.delta_pure(eps_I, e*), e* = MV-OPT.eps(s largest, delta)",
                       "MV-OPT.delta_pure(s largest, e*) (<= delta)"))),
        Claim(2, "The inverse e* = MV-OPT.eps of claim 1 is a true inverse of MV-OPT.delta_pure "
                 "(a mutation guard, theorems/hypothesis_dp/mutation_guards.py): for the s "
                 "largest eps_i of a random instance, MV-OPT.eps(eps_I, MV-OPT.delta_pure(eps_I, "
                 "e)) = e for every e = t sum(eps_I), t in [0, 0.95] (delta_pure is strictly "
                 "decreasing below sum eps_I); searched (abs and rel 1e-20).",
              (Compare(*_MV_ROUND_TRIP_TERMS, MV_ROUND_TRIP_BOX, "property",
                       Tol(abs_tol=Fraction(1, 10**20), rel_tol=Fraction(1, 10**20)),
                       "MV-OPT.eps(eps_I, MV-OPT.delta_pure(eps_I, e))", "e", ctx="mp"),)),
    ),
    notes="The evaluators of this file fix Comp = MV-OPT (optimal).",
)


# ==========================================================================================
# GCE-V1, GCE-V2, GCE-V3


def _weight_vectors(n: int, pred: Callable[[int], bool]) -> list[gce.Vector]:
    return [b for b in gce.vectors(n) if pred(sum(b))]


def _brute_max(ctx: Any, pairs: Sequence[tuple[gce.Vector, gce.Vector]], eps: Any) -> Any:
    """``max`` of the exact two-sided delta of point pairs of the GCE with RR(RR_SIX)."""
    mechs = rr_mechs(ctx, RR_SIX)
    z = exp_eps(ctx, eps)
    laws: dict[gce.Vector, gce.Law] = {}

    def law(b: gce.Vector) -> gce.Law:
        if b not in laws:
            laws[b] = gce.point_law(mechs, b)
        return laws[b]

    return ctx.max(*(gce.two_sided(law(b), law(c), z, ctx) for b, c in pairs))


def _v1_unbounded_brute(ctx: Any, m: int, eps: Any, **_: Any) -> Any:
    zero = (0,) * len(RR_SIX)
    return _brute_max(ctx, [(zero, b) for b in _weight_vectors(len(RR_SIX), lambda w: w <= m)],
                      eps)


def _v1_bounded_brute(ctx: Any, m: int, eps: Any, **_: Any) -> Any:
    vs = _weight_vectors(len(RR_SIX), lambda w: w == m)
    return _brute_max(ctx, [(b, c) for b in vs for c in vs], eps)


def _v1_classic_brute(ctx: Any, eps: Any, **_: Any) -> Any:
    n = len(RR_SIX)
    return _brute_max(ctx, [((0,) * n, (1,) * n)], eps)


def _draw_v1_composite(rng: random.Random) -> dict[str, Any]:
    allowed = _weight_vectors(len(RR_SIX), lambda w: 1 <= w <= 2)
    return {"h1": gce.random_hypothesis(rng, len(RR_SIX), (2, 6), allowed=allowed),
            "m": 2, "eps": Fraction(1, 2)}


def _v1_composite(ctx: Any, h1: Any, eps: Any, **_: Any) -> Any:
    mechs = rr_mechs(ctx, RR_SIX)
    return gce.hdp_delta(mechs, gce.point((0,) * len(RR_SIX)), h1, exp_eps(ctx, eps), ctx)


def v1_claims(delta_formula: Callable[..., Any] = v1_delta) -> tuple[Claim, ...]:
    """The claims of GCE-V1 for a formula ``delta(ctx, eps_list, m, eps, neighboring)`` (the
    quality tests plant wrong ones)."""

    def formula(neighboring: str) -> Callable[..., Any]:
        def term(ctx: Any, m: int, eps: Any, **_: Any) -> Any:
            return delta_formula(ctx, RR_SIX, m, eps, neighboring)
        return term

    point = Points(({"m": 2, "eps": "0.5"},))
    return (
        Claim(1, "Unbounded: the brute-force maximum over all b with |b| <= m of the exact "
              "n-dimensional delta of (0^n, b) equals MV-OPT.delta_pure(worst m eps_i, eps) to "
              "1e-51 (n = 6, m = 2, RR, eps_list = (0.2, 0.9, 0.4, 0.7, 0.3, 0.6), eps = 0.5).",
              (Compare(_v1_unbounded_brute, "eq", formula("add_remove"), point, "oracle",
                       Tol.abs("1e-51"), "max_{|b| <= m} exact delta(0^n, b)",
                       "GCE-V1.delta(add_remove)"),), scope="instance"),
        Claim(2, "Bounded: the maximum over |b| = |b'| = m of the exact two-sided delta equals "
              "MV-OPT.delta_pure(worst 2m eps_i, eps).",
              (Compare(_v1_bounded_brute, "eq", formula("replace_one"), point, "oracle",
                       Tol.abs("1e-51"), "max_{|b| = |b'| = m} exact delta(b, b')",
                       "GCE-V1.delta(replace_one)"),), scope="instance"),
        Claim(3, "A composite H1 supported on B_m (20 random ones) never beats the worst point "
              "hypothesis.",
              (Compare(_v1_composite, "le", formula("add_remove"),
                       Generated(_draw_v1_composite, 20, "random H1 on {b : 1 <= |b| <= 2} "
                                 "(supports 2-6)"), "oracle",
                       lhs_name="exact delta(delta_0, H1)",
                       rhs_name="GCE-V1.delta (worst point hypothesis)"),), scope="instance"),
        Claim(4, "The result is strictly below the classic guarantee over all n mechanisms.",
              (Compare(formula("add_remove"), "lt", _v1_classic_brute, point, "oracle",
                       lhs_name="GCE-V1.delta", rhs_name="exact delta(0^n, 1^n) (classic)"),
               Compare(_v1_unbounded_brute, "lt", _v1_classic_brute, point, "oracle",
                       lhs_name="max_{|b| <= m} exact delta(0^n, b)",
                       rhs_name="exact delta(0^n, 1^n)")), scope="instance"),
    )



GCE_V1 = Theorem(
    id="GCE-V1",
    title="Example 1: each individual in at most m of n databases (hospitals)",
    family=FAMILY,
    source=cite(GCE, "Sec. V-A, Ex. 1 (with m = 365)"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "Unbounded DP: H = {delta_0} x P(B_m), B_m = {b : |b| <= m}; the worst case is a point "
        "hypothesis, so the guarantee is max_{I subset [n], |I| = m} Comp((M_i)_{i in I}), the "
        "composition of the worst m mechanisms. Bounded DP: max_{|I| = min(2m, n)} Comp(M_I). "
        "Always at least as good as classic composition over all n. General principle: the "
        "guarantee is the maximum over allowed pairs (b, b') of Comp over {i : b_i != b'_i}."),
    domain="n = len(eps_list) >= 1, 1 <= m <= n; eps_i >= 0",
    evaluators=(
        Evaluator("delta", (EPS_LIST_V, M, EPS, NEIGHBORING, DELTA_LIST_OPT), v1_delta,
                  "max_{|I| = s} Comp.delta(eps_I, eps, delta_I), Comp = MV-OPT (KOV when "
                  "homogeneous); s = m (add_remove) or "
                  "min(2m, n) (replace_one)"),
        Evaluator("eps", (EPS_LIST_V, M, DELTA, NEIGHBORING, DELTA_LIST_OPT), v1_eps,
                  "max_{|I| = s} Comp.eps(eps_I, delta, delta_I) (MV-OPT; KOV-EPS when "
                  "homogeneous)"),
    ),
    claims=(*v1_claims(), v1_universal(5)),
    notes=("With equal delta_i the maximum over |I| = s is attained by the s largest eps_i "
           "(GCE-D4); with unequal delta_i every s-subset is tried (at most "
           f"{MAX_SUBSETS}). With m = 365 and eps0 = 0.01 this is the hospital example of "
           "GCE-PARCMP; `dpverify hdp --constraint at-most` prints it beside classic and "
           "parallel composition."),
)


def _v2_unbounded_brute(ctx: Any, eps: Any, **_: Any) -> Any:
    n = len(RR_SIX)
    zero = (0,) * n
    return _brute_max(ctx, [(zero, tuple(int(j == i) for j in range(n))) for i in range(n)],
                      eps)


def _v2_bounded_brute(ctx: Any, eps: Any, **_: Any) -> Any:
    n = len(RR_SIX)
    units = [tuple(int(j == i) for j in range(n)) for i in range(n)]
    return _brute_max(ctx, [(a, b) for a in units for b in units if a != b], eps)


def _v2_formula(neighboring: str) -> Callable[..., Any]:
    def term(ctx: Any, eps: Any, **_: Any) -> Any:
        return v2_delta(ctx, RR_SIX, eps, neighboring)
    return term


GCE_V2 = Theorem(
    id="GCE-V2",
    title="Example 2: one-hot membership (subsidiaries)",
    family=FAMILY,
    source=cite(GCE, "Sec. V-A, Ex. 2"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=("Allowed vectors B = {0} ∪ {e_i}. Unbounded: max_i Comp(M_i) = max_i (eps_i, "
               "delta_i). Bounded: max_{i != j} Comp(M_i, M_j)."),
    domain="n = len(eps_list) >= 2",
    evaluators=(
        Evaluator("delta", (replace(EPS_LIST, min_len=2), EPS, NEIGHBORING), v2_delta,
                  "max_i MV-OPT.delta_pure([eps_i], eps) (add_remove); max_{i != j} "
                  "MV-OPT.delta_pure([eps_i, eps_j], eps) (replace_one)"),
        Evaluator("eps", (replace(EPS_LIST, min_len=2), DELTA, NEIGHBORING), v2_eps,
                  "max MV-OPT.eps over the same index sets (added: the calculator's eps form)"),
    ),
    claims=(
        Claim(1, "Unbounded: the brute-force maximum of the exact delta over pairs (0, e_i) "
              "equals max_i delta(M_i) (eps_list and eps = 0.5 as in GCE-V1).",
              (Compare(_v2_unbounded_brute, "eq", _v2_formula("add_remove"),
                       Points(({"eps": "0.5"},)), "oracle", Tol.abs("1e-50"),
                       "max_i exact delta(0, e_i)", "GCE-V2.delta(add_remove)"),),
                       scope="instance"),
        Claim(2, "Bounded: the brute-force maximum over pairs (e_i, e_j) equals max_{i != j} "
              "delta(M_i, M_j).",
              (Compare(_v2_bounded_brute, "eq", _v2_formula("replace_one"),
                       Points(({"eps": "0.5"},)), "oracle", Tol.abs("1e-50"),
                       "max_{i != j} exact delta(e_i, e_j)", "GCE-V2.delta(replace_one)"),),
                       scope="instance"),
    v2_universal(3),
    ),
)

V3_C = (Fraction(1, 5), Fraction(9, 10))
V3_A = (Fraction(2, 5), Fraction(7, 10))
V3_P = (Fraction(3, 10), Fraction(3, 5))


def _v3_vectors() -> tuple[gce.Vector, gce.Vector, gce.Vector]:
    n = len(RR_SIX)
    zero = (0,) * n
    ca = tuple(int(i in (0, 1, 2, 3)) for i in range(n))
    cp = tuple(int(i in (0, 1, 4, 5)) for i in range(n))
    return zero, ca, cp


def _v3_brute(neighboring: str) -> Callable[..., Any]:
    def term(ctx: Any, eps: Any, **_: Any) -> Any:
        zero, ca, cp = _v3_vectors()
        pairs = [(zero, ca), (zero, cp)]
        if neighboring == "replace_one":
            pairs.append((ca, cp))
        return _brute_max(ctx, pairs, eps)
    return term


def _v3_formula(neighboring: str) -> Callable[..., Any]:
    def term(ctx: Any, eps: Any, **_: Any) -> Any:
        return v3_delta(ctx, V3_C, V3_A, V3_P, eps, neighboring)
    return term


EPS_C = RealList("eps_c", Real("eps_c", lo=0), min_len=0, default="",
                 doc="eps_i of the common rounds C")
EPS_A = RealList("eps_a", Real("eps_a", lo=0), doc="eps_i of the rounds A (first group)")
EPS_P = RealList("eps_p", Real("eps_p", lo=0), doc="eps_i of the rounds P (second group)")

GCE_V3 = Theorem(
    id="GCE-V3",
    title="Example 3: disjoint feature groups (free vs paid columns)",
    family=FAMILY,
    source=cite(GCE, "Sec. V-A, Ex. 3"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=("Index sets C (common), A (ads, free users only) and P (premium, paid users "
               "only); B = {0, 1_{C∪A}, 1_{C∪P}}. Unbounded: max{Comp(M_{C∪A}), "
               "Comp(M_{C∪P})}. Bounded: max{Comp(M_{C∪A}), Comp(M_{C∪P}), Comp(M_{A∪P})}."),
    domain="C, A, P disjoint subsets of [n]",
    evaluators=(
        Evaluator("delta", (EPS_C, EPS_A, EPS_P, EPS, NEIGHBORING), v3_delta,
                  "max MV-OPT.delta_pure over C∪A, C∪P (and A∪P for replace_one); the rounds "
                  "of each index set are given by their eps lists (added for the calculator)"),
        Evaluator("eps", (EPS_C, EPS_A, EPS_P, DELTA, NEIGHBORING), v3_eps,
                  "max MV-OPT.eps over the same index sets (added)"),
    ),
    claims=(
        Claim(1, "Unbounded: the brute-force maximum over (0, 1_{C∪A}) and (0, 1_{C∪P}) equals "
              "max(MV(C∪A), MV(C∪P)) (n = 6, C = {1, 2}, A = {3, 4}, P = {5, 6}, eps_list and "
              "eps = 0.5 as in GCE-V1).",
              (Compare(_v3_brute("add_remove"), "eq", _v3_formula("add_remove"),
                       Points(({"eps": "0.5"},)), "oracle", Tol.abs("1e-50"),
                       "max exact delta over the allowed pairs", "GCE-V3.delta(add_remove)"),),
                       scope="instance"),
        Claim(2, "Bounded: adding the pair (1_{C∪A}, 1_{C∪P}) gives max(MV(C∪A), MV(C∪P), "
              "MV(A∪P)).",
              (Compare(_v3_brute("replace_one"), "eq", _v3_formula("replace_one"),
                       Points(({"eps": "0.5"},)), "oracle", Tol.abs("1e-50"),
                       "max exact delta over the allowed pairs", "GCE-V3.delta(replace_one)"),),
                       scope="instance"),
    v3_universal(3),
    ),
    notes=("The catalogue lists no evaluators (the inputs are index sets); they are added here "
           "with the rounds of C, A and P given as three eps lists, and `dpverify hdp "
           "--constraint groups` takes 1-based index sets for any number of groups."),
)
