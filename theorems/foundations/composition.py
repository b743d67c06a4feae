"""SMITH-ADAPT-COMP, PAR and SMITH-LLOYD: adaptive sequential composition, parallel composition
and the budget of DP Lloyd.

Main results
------------
- SMITH-ADAPT-COMP: for adaptive randomized-response strategy trees, the full transcript is
  (sum eps_i)-DP, by enumeration of all transcripts.
- PAR: the exact pure eps of the joint release over a data-independent partition (clamped
  geometric counts) is ``max_i eps_i`` under add/remove and ``2 max_i eps_i`` in the worst case
  under replace-one; in the multi-database example GCE beats parallel composition.
- SMITH-LLOYD: the DP Lloyd budget as a polynomial identity for z3.

The formulas are in :mod:`dpverify.theorems.formulas.adaptive_rr`,
:mod:`~dpverify.theorems.formulas.parallel_composition` and
:mod:`~dpverify.theorems.formulas.dp_lloyd`.

References
----------
- [SmithLN] A. Smith, lecture notes (no arXiv): Lemmas 1.1, 1.2, Alg. 2, Prop. 2.1.
- [McS] F. McSherry, *Privacy Integrated Queries*, SIGMOD 2009 (no arXiv), parallel composition.
- [GCE] V. Hartmann, V. Bindschaedler, R. West, arXiv 2209.13697 (version not recorded), Def. 5,
  Thm 2, Sec. V-A1.
- [KOV] P. Kairouz, S. Oh, P. Viswanath, arXiv 1311.0776, Thm 3.3; [MV] J. Murtagh,
  S. Vadhan, arXiv 1507.03113, Thm 1.4 (exact k-fold RR profile).
- [Blog] the introductory blog post (no arXiv): sequential and parallel composition.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Claim,
    Compare,
    Generated,
    Points,
    Predicate,
    Smt,
    SmtProblem,
    Tol,
)
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.adaptive_rr import adaptive_rr_transcripts
from dpverify.theorems.formulas.dp_lloyd import lloyd_b, lloyd_eps_step
from dpverify.theorems.formulas.parallel_composition import (
    gce_multi_database_eps,
    joint_pure_eps,
    par_eps,
    par_multi_database_eps,
)
from dpverify.theorems.foundations.law_smt import (
    adaptive_law_problem,
    clamped_law_problem,
    par_joint_eps_problem,
)
from dpverify.theorems.foundations.mutation_guards import (
    ADAPTIVE_BOX,
    CLAMPED_BOX,
    ROUND_TRIP_BOX,
    adaptive_rr_mass_defect,
    clamped_geometric_mass_defect,
    rr_eps_round_trip,
)
from dpverify.theorems.foundations.terms import EPS_POS, FAMILY, TINY
from dpverify.theorems.foundations.universal import (
    adapt_comp_universal,
    adapt_problem,
    par_universal,
)
from dpverify.theorems.numerics.finite import max_log_ratio
from dpverify.theorems.params import EPS_LIST, NEIGHBORING, K
from dpverify.theorems.refs import MCS, SMITH_LN, cite

# ==========================================================================================
# SMITH-ADAPT-COMP


def _draw_strategy_tree(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 6)
    nodes = 2**k - 1
    return {
        "eps_list": tuple(Fraction(rng.randint(1, 15), 10) for _ in range(k)),
        "frac": tuple(Fraction(rng.randint(0, 999), 1000) for _ in range(nodes)),
        "flip": tuple(rng.randint(0, 1) for _ in range(nodes)),
    }


SMITH_ADAPT_COMP = Theorem(
    id="SMITH-ADAPT-COMP",
    title="Adaptive sequential composition of pure DP",
    family=FAMILY,
    source=cite(SMITH_LN, "Lemma 1.1, Lemma 1.2; [Blog] sequential composition eps1 + eps2"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "If A_1 is eps_1-DP and A_i(a_1..a_{i-1}, .) is eps_i-DP for every prefix, the adaptive "
        "composition (a_1, ..., a_k) is (sum eps_i)-DP (factorise P[A(x) = a] and bound each "
        "factor). Tight (STK-BASIC-OPT)."
    ),
    domain="eps_i >= 0; the same neighbouring relation at every step",
    claims=(
        Claim(1, "For an explicit adaptive strategy tree of randomized-response steps whose "
                 "parameter at step i depends on the history but never exceeds the budget "
                 "eps_i, the largest pointwise |log-ratio| of the full transcript is at most "
                 "sum eps_i (all transcripts enumerated, k <= 6). Proved by z3 (the problem of "
                 "claim 2) for k = 2, every flip pattern, all real eps_i >= 0 and step "
                 "parameters in [0, eps_i].", (
            Compare(lambda ctx, eps_list, frac, flip, **_: max_log_ratio(
                        ctx, adaptive_rr_transcripts(ctx, eps_list, frac, flip, 0),
                        adaptive_rr_transcripts(ctx, eps_list, frac, flip, 1)),
                    "le", lambda ctx, eps_list, **_: ctx.fsum(eps_list),
                    Generated(_draw_strategy_tree, 300,
                              "adaptive RR strategy trees, k in 1..6, eps_i in {0.1..1.5}, "
                              "step parameter eps_i * f(history), f in [0, 1)"),
                    "oracle", lhs_name="max over transcripts |ln P(t)/Q(t)|",
                    rhs_name="sum eps_i"),
            Smt(adapt_problem, "k = 2: transcript ratios within e^{eps_0 + eps_1} for every "
                "history-dependent step parameter in [0, eps_i] and every flip pattern"),
        )),
        adapt_comp_universal(2),
        Claim(3, "The transcript law of every adaptive RR strategy tree (depth k <= 5, random "
                 "eps_i in [0, 3], fractions and flips) is a probability law on either input: "
                 "|sum_t P(t) - 1| <= 1e-30 (searched; the ratio claims above hold for many "
                 "non-laws). Proved by z3 for depth k <= 3 (every flip pattern, both inputs, "
                 "every step parameter e^{eps_i f} > 0), from adaptive_rr_transcripts in the sym "
                 "context; depths 4 and 5 searched only.", (
            Compare(adaptive_rr_mass_defect, "eq", lambda ctx, **_: ctx.zero, ADAPTIVE_BOX,
                    "property", Tol.abs("1e-30"), "max over inputs |sum_t P(t) - 1|", "0"),
            *(Smt(lambda k=k: adaptive_law_problem(k), f"depth k = {k}: sum_t P(t) = 1 for "
                  "every flip pattern, both inputs, every step parameter z > 0")
              for k in (1, 2, 3)),
        )),
    ),
    aliases=("BLOG-SEQ",),
    notes="The approximate-DP version and evaluators are in BASIC; tightness: STK-BASIC-OPT.",
)


# ==========================================================================================
# PAR


def _draw_count_partition(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(2, 3)
    return {"eps_list": tuple(Fraction(rng.randint(1, 20), 10) for _ in range(k)),
            "sizes": tuple(rng.randint(1, 2) for _ in range(k))}


def _par_counts_addremove(ctx: Any, eps_list: Sequence[Any], sizes: Sequence[int],
                          **_: Any) -> Any:
    """Universe: ``sizes[i]`` record types in chunk i (a data-independent partition); datasets
    are sets of records; chunk i releases its count by a clamped geometric on [0, sizes[i]];
    all add/remove neighbours (toggle one record) are enumerated."""
    universe = [i for i, m in enumerate(sizes) for _ in range(m)]
    pairs = set()
    for x in itertools.product((0, 1), repeat=len(universe)):
        for r in range(len(universe)):
            y = list(x)
            y[r] ^= 1
            s1 = tuple(sum(v for v, c in zip(x, universe, strict=True) if c == i)
                       for i in range(len(sizes)))
            s2 = tuple(sum(v for v, c in zip(y, universe, strict=True) if c == i)
                       for i in range(len(sizes)))
            pairs.add((s1, s2))
    return joint_pure_eps(ctx, eps_list, [(0, m) for m in sizes], pairs)


def _draw_signed_partition(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(2, 3)
    i, j = rng.sample(range(k), 2)
    background = () if rng.random() < 0.5 else ((rng.randrange(k), rng.choice((-1, 1))),)
    return {"eps_list": tuple(Fraction(rng.randint(1, 20), 10) for _ in range(k)),
            "i": i, "j": j, "background": background}


def _signed_pairs(k: int, kind: str, i: int, j: int,
                  background: Sequence[tuple[int, int]]
                  ) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Chunk-sum pairs of neighbouring datasets ``B + {e}`` vs ``B + {e'}`` (replace-one) or
    ``B + {e}`` vs ``B`` (add/remove), for a background B of at most one record. Records are
    ``(chunk, value)`` with value in {-1, +1}; chunk i releases the sum of its values."""
    universe = [(c, v) for c in range(k) for v in (1, -1)]

    def sums(records: Sequence[tuple[int, int]]) -> tuple[int, ...]:
        return tuple(sum(v for c, v in records if c == ch) for ch in range(k))

    pairs = set()
    for b in [tuple(tuple(r) for r in background)]:
        for e in universe:
            if kind == "add_remove":
                pairs.add((sums([*b, e]), sums(b)))
                continue
            for e2 in universe:
                if e2 == e:
                    continue
                if kind == "move" and not (e[0] == i and e2[0] == j):
                    continue
                if kind == "inside" and not (e[0] == i and e2[0] == i):
                    continue
                pairs.add((sums([*b, e]), sums([*b, e2])))
    return pairs


_SIGNED_RANGE = (-2, 2)  # sums of at most two records in {-1, +1}


def _par_signed(kind: str) -> Callable[..., Any]:
    def term(ctx: Any, eps_list: Sequence[Any], i: int, j: int,
             background: Sequence[tuple[int, int]], **_: Any) -> Any:
        k = len(eps_list)
        return joint_pure_eps(ctx, eps_list, [_SIGNED_RANGE] * k,
                               _signed_pairs(k, kind, i, j, background))

    return term


def _par_claims() -> tuple[Claim, ...]:
    hospital = Points((
        {"eps0": "0.01", "m": 365, "delta": "1e-6", "neighboring": "add_remove",
         "printed": "0.790"},
        {"eps0": "0.01", "m": 365, "delta": "1e-6", "neighboring": "replace_one",
         "printed": "1.151"},
    ))
    signed = Generated(_draw_signed_partition, 200,
                       "2..3 chunks, eps_i in {0.1..2}, records (chunk, +-1), chunk sums "
                       "released by clamped geometric noise, a random background of <= 1 "
                       "record")
    return (
        Claim(1, "For a data-independent partition with an eps_i-DP count release per chunk, "
                 "the exact pure eps of the joint release under add/remove equals "
                 "max_i eps_i. Proved by z3 for every partition shape of 2 or 3 chunks of 1 or 2 "
                 "record types (all 12 shapes the instances draw) and every eps_i > 0, from the "
                 "same enumeration and PAR.eps in the sym context (a_i = e^-eps_i).", (
            Compare(_par_counts_addremove, "eq",
                    lambda ctx, eps_list, **_: par_eps(ctx, eps_list, "add_remove"),
                    Generated(_draw_count_partition, 300,
                              "2..3 chunks of 1..2 record types, eps_i in {0.1..2}, counts "
                              "released by clamped geometric (discrete Laplace) noise"),
                    "oracle", Tol.abs("1e-25"), "exact joint eps (all add/remove pairs)",
                    "PAR.eps(eps_list, add_remove)"),
            *(Smt(lambda k=k: par_joint_eps_problem(
                      _par_counts_addremove, par_eps,
                      tuple(itertools.product((1, 2), repeat=k))),
                  f"{k} chunks of 1 or 2 record types (all {2**k} shapes): e^(exact joint eps) "
                  "= max_i e^eps_i, every a_i = e^-eps_i in (0, 1)")
              for k in (2, 3)),
        )),
        Claim(2, "Under replace-one, a record that moves from chunk i to chunk j gives exact "
                 "eps eps_i + eps_j, and a replacement inside chunk i gives 2 eps_i when M_i is "
                 "only known to be eps_i-DP under add/remove; hence 2 max_i eps_i is the worst "
                 "case.", (
            Compare(_par_signed("add_remove"), "eq",
                    lambda ctx, eps_list, **_: par_eps(ctx, eps_list, "add_remove"), signed,
                    "oracle", Tol.abs("1e-25"),
                    "exact joint eps under add/remove (each M_i is eps_i-DP)",
                    "max_i eps_i"),
            Compare(_par_signed("move"), "eq",
                    lambda ctx, eps_list, i, j, **_: eps_list[i] + eps_list[j], signed,
                    "oracle", Tol.abs("1e-25"), "exact eps, record moved from chunk i to j",
                    "eps_i + eps_j"),
            Compare(_par_signed("inside"), "eq",
                    lambda ctx, eps_list, i, **_: 2 * eps_list[i], signed, "oracle",
                    Tol.abs("1e-25"), "exact eps, replacement inside chunk i", "2 eps_i"),
            Compare(_par_signed("replace_one"), "eq",
                    lambda ctx, eps_list, **_: par_eps(ctx, eps_list, "replace_one"), signed,
                    "oracle", Tol.abs("1e-25"), "exact eps over all replace-one pairs",
                    "PAR.eps(eps_list, replace_one)"),
        )),
        Claim(3, "In the multi-database example, composing the worst m mechanisms (GCE) beats "
                 "parallel composition; see GCE-PARCMP.", (
            Compare(gce_multi_database_eps, "lt", par_multi_database_eps, hospital, "numeric",
                    lhs_name="GCE eps (optimal composition of the worst m or 2m)",
                    rhs_name="parallel composition s eps0"),
            Compare(gce_multi_database_eps, "eq", lambda ctx, printed, **_: printed, hospital,
                    "numeric", Tol.abs("5e-4"), "GCE eps",
                    "GCE-PARCMP printed value (0.790 / 1.151)"),
        ), scope="instance"),
        par_universal(4, _draw_signed_partition, _par_signed("replace_one")),
        Claim(5, "The clamped geometric law released per chunk is a probability law: its mass "
                 "on {0..s + width} is 1 within 1e-30 for eps in [0.01, 5], s in {0..6}, width in "
                 "{0..6} (searched; s = width = 0 is the one-point range, a point mass). Proved "
                 "by z3 exactly (mass = 1) for every eps > 0 and all s, width in {0..6}, from "
                 "clamped_geometric in the sym context with a = e^-eps in (0, 1).", (
            Compare(clamped_geometric_mass_defect, "eq", lambda ctx, **_: ctx.zero,
                    CLAMPED_BOX, "property", Tol.abs("1e-30"), "sum_o P[o] - 1", "0"),
            Smt(lambda: clamped_law_problem(6, 6), "sum_o P[o] = 1 for all s, width in {0..6} "
                "and every a = e^-eps in (0, 1)"),
        )),
        Claim(6, "The GCE side of claim 3 inverts the exact profile of k-fold eps0-DP ([KOV] "
                 "arXiv 1311.0776v4 Thm 3.3): eps = gce_homogeneous_rr_eps(eps0, k, delta), a "
                 "closed form over prefix sums, is a finite number >= 0, the profile at eps "
                 "equals delta (relative 1e-20) where eps > 0 and is <= delta where eps = 0 (a "
                 "round trip), searched over eps0 in [0.05, 2], k in {1..30}, delta in [1e-12, "
                 "0.9] (log scale).", (
            Predicate(rr_eps_round_trip, ROUND_TRIP_BOX, "property",
                      "delta(eps(delta)) = delta, eps finite >= 0"),
        )),
    )


PAR = Theorem(
    id="PAR",
    title="Parallel composition",
    family=FAMILY,
    source=cite(MCS, "parallel composition; [GCE] arXiv 2209.13697 Def. 5, Thm 2, Sec. V-A1; "
                     "[Blog]"),
    types=("BOUND",),
    confidence=("HIGH",),
    statement=(
        "Def. 5 (McSherry DP): P[M(A) in S] <= exp(eps |A (+) B|) P[M(B) in S]. Thm 2: if each "
        "M_i is eps-DP and D_1..D_k are disjoint, (M_1(A cap D_1), ..., M_k(A cap D_k)) is "
        "eps-DP; heterogeneous: max_i eps_i. The partition must be data-independent; under "
        "replacement a changed record can move between chunks (2 eps). Pure DP only."
    ),
    domain="eps_i >= 0; a data-independent partition into disjoint chunks",
    evaluators=(
        Evaluator("eps", (EPS_LIST, NEIGHBORING), par_eps,
                  "max_i eps_i for add_remove; 2 max_i eps_i for replace_one"),
    ),
    claims=_par_claims(),
    aliases=("BLOG-PAR",),
    notes="The replace_one branch is the heterogeneous form of the homogeneous 2eps caveat "
          "[DERIVED]. Counts are released with clamped geometric (discrete Laplace) noise so "
          "that the joint output space is finite.",
)


# ==========================================================================================
# SMITH-LLOYD


def _cleared(var: Any, expr: Any) -> Any:
    """``var = expr`` as a polynomial equation (denominator cleared; it is nonzero under the
    hypotheses eps > 0, k >= 1)."""
    import sympy as sp

    num, _den = sp.fraction(sp.together(var - expr))
    return sp.Eq(sp.expand(num), 0)


def _lloyd_problem(which: str) -> Callable[[], SmtProblem]:
    def build() -> SmtProblem:
        import sympy as sp

        ctx = SymCtx()
        eps, k, b, s = sp.symbols("eps k b s", real=True)
        hyps = (sp.Gt(eps, 0), sp.Ge(k, 1), _cleared(b, lloyd_b(ctx, eps, k)),
                _cleared(s, lloyd_eps_step(ctx, eps, k)))
        goal = sp.Eq(s * b, 2) if which == "per_release" else sp.Eq(2 * k * s, eps)
        return SmtProblem(variables={"eps": "real", "k": "real", "b": "real", "s": "real"},
                          hypotheses=hyps, goal=goal,
                          substitutions=("b = SMITH-LLOYD.b(eps, k) = 4k/eps",
                                         "s = SMITH-LLOYD.eps_step(eps, k) = eps/(2k)"))

    return build


SMITH_LLOYD = Theorem(
    id="SMITH-LLOYD",
    title="Budget of DP Lloyd (k-means)",
    family=FAMILY,
    source=cite(SMITH_LN, "Algorithm 2, Prop. 2.1"),
    types=("ALGORITHM",),
    confidence=("HIGH",),
    statement=(
        "DP Lloyd with T iterations uses eps' = eps/(2T). Counts and sums have global "
        "sensitivity 2 (replace-one); Lap(2/eps') = Lap(4T/eps) noise per entry makes each of the "
        "2T releases eps/(2T)-DP, so the total is eps by basic composition."
    ),
    domain="T >= 1 integer, eps > 0; data points with ||x||_1 <= 1",
    evaluators=(
        Evaluator("eps_step", (EPS_POS, replace(K, doc="Lloyd iterations T")), lloyd_eps_step,
                  "eps/(2k)"),
        Evaluator("b", (EPS_POS, replace(K, doc="Lloyd iterations T")), lloyd_b,
                  "4k/eps, the Laplace scale per entry"),
    ),
    claims=(
        Claim(1, "Per-release eps = sensitivity/scale = 2/b(eps, k) = eps/(2k), and the 2k "
                 "releases sum to eps exactly (checked at (T, eps) = (6, 0.5) and (10, 2); as "
                 "an identity in eps and k).", (
            Smt(_lloyd_problem("per_release"),
                "s b = 2, i.e. 2/b(eps, k) = eps_step(eps, k), for all real eps > 0, k >= 1"),
            Smt(_lloyd_problem("total"),
                "2k eps_step(eps, k) = eps for all real eps > 0, k >= 1"),
            Compare(lambda ctx, eps, k, **_: 2 / lloyd_b(ctx, eps, k), "eq", lloyd_eps_step,
                    Points(({"k": 6, "eps": "0.5"}, {"k": 10, "eps": "2"})), "numeric", TINY,
                    "2/b(eps, k)", "eps_step(eps, k)"),
            Compare(lambda ctx, eps, k, **_: 2 * k * lloyd_eps_step(ctx, eps, k), "eq",
                    lambda ctx, eps, **_: eps,
                    Points(({"k": 6, "eps": "0.5"}, {"k": 10, "eps": "2"})), "numeric", TINY,
                    "2k eps_step(eps, k)", "eps"),
        )),
    ),
    notes="Source inconsistency: the universe is ||x||_1 = 1 in the algorithm box but <= 1 in "
          "the text.",
)
