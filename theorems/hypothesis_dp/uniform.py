"""GCE-E34 (the uniform prior in closed form, [GCE] arXiv 2209.13697, Sec. V-B, Eq. 3-4) and
GCE-SUB (subsampling at rate 1/2 through [BBG18] arXiv 1807.01647v2, Thm 8).
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
    SmtProblem,
    Tol,
)
from dpverify.theorems.core import (
    Evaluator,
    Theorem,
)
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.hdp_bounds import (
    e34_enumeration,
    e34_eps,
    e34_eps_reverse,
    e34_factor,
)
from dpverify.theorems.hypothesis_dp.instances import FAMILY, constant, draw_mechs, subst_exp
from dpverify.theorems.hypothesis_dp.universal import sym_mechanism
from dpverify.theorems.numerics import gce
from dpverify.theorems.params import (
    EPS0_POS,
    N,
)
from dpverify.theorems.refs import GCE, cite
from dpverify.theorems.values import exact_params

# ==========================================================================================
# GCE-E34, GCE-SUB


def _rr_homog(ctx: Any, eps0: Any, n: int) -> list[gce.Mechanism]:
    return [gce.rr(ctx, eps0)] * n


def _e34_forward_exact(ctx: Any, eps0: Any, n: int, **_: Any) -> Any:
    mechs = _rr_homog(ctx, eps0, n)
    return gce.max_log_ratio(ctx, gce.mixture_law(mechs, gce.uniform_nonzero(n)),
                             gce.point_law(mechs, (0,) * n))


def _e34_reverse_exact(ctx: Any, eps0: Any, n: int, **_: Any) -> Any:
    mechs = _rr_homog(ctx, eps0, n)
    return gce.max_log_ratio(ctx, gce.point_law(mechs, (0,) * n),
                             gce.mixture_law(mechs, gce.uniform_nonzero(n)))


def _e34_identity_problem() -> SmtProblem:
    """Eq. (3) = Eq. (4) as rational functions of ``x = e^eps0`` for n = 1..10, both sides
    built from the product's formulas in the sym context."""
    import sympy as sp

    eps0 = sp.Symbol("eps0", positive=True)
    x = sp.Symbol("x", positive=True)
    ctx = SymCtx()
    goals = []
    for n in range(1, 11):
        lhs = sp.exp(e34_enumeration(ctx, eps0, n))
        rhs = sp.exp(e34_eps(ctx, eps0, n))
        lhs = subst_exp(lhs, eps0, x)
        rhs = subst_exp(rhs, eps0, x)
        goals.append(sp.Eq(lhs * (2**n - 1), rhs * (2**n - 1), evaluate=False))
    return SmtProblem({"x": "real"}, (sp.Gt(x, 0),), sp.And(*goals),
                      ("x = e^eps0; both sides exponentiated and multiplied by 2^n - 1",))




GCE_E34 = Theorem(
    id="GCE-E34",
    title="Uniform-prior example, Eq. (3)–(4)",
    family=FAMILY,
    source=cite(GCE, "Sec. V-B, Eq. (3) and (4)"),
    types=("TIGHT",),
    confidence=("DERIVED",),
    statement=(
        "H0 = delta_0 (in no database), H1 = U* (uniform over {0,1}^n \\ {0}); each M_i is "
        "eps-DP and simple composition gives Pr[V^b in S] <= e^{|b| eps} Pr[V^0 in S], so "
        "Pr[V in S | U*] <= (1/(2^n - 1)) sum_{j=1}^n C(n,j) e^{j eps} Pr[V in S | 0] (3) = "
        "((e^eps + 1)^n - 1)/(2^n - 1) Pr[V in S | 0] (4): eps_HDP = ln(((1+e^eps)^n - 1)/(2^n "
        "- 1)), delta = 0. Other direction (derived): Pr[V|0] <= (2^n - 1)/((1+e^-eps)^n - 1) "
        "Pr[V|U*]. The factor n eps/eps_HDP tends to (2^n - 1)/2^{n-1} as eps -> 0."),
    domain="eps0 > 0, n >= 1 (eps0 is the per-mechanism eps of the statement)",
    evaluators=(
        Evaluator("eps", (EPS0_POS, N), e34_eps, "ln(((1+e^eps0)^n - 1)/(2^n - 1))"),
        Evaluator("eps_reverse", (EPS0_POS, N), e34_eps_reverse,
                  "ln((2^n - 1)/((1+e^-eps0)^n - 1))"),
        Evaluator("factor", (EPS0_POS, N), e34_factor, "n eps0 / eps(eps0, n)"),
    ),
    claims=(
        Claim(1, "Enumeration of (3) over {0,1}^n equals the closed form (4) to 1e-50 at (eps0, "
              "n) in {(0.1, 3), (0.5, 6), (2.0, 8), (0.01, 10)}.",
              (Compare(lambda ctx, eps0, n, **_: e34_enumeration(ctx, eps0, n), "eq",
                       lambda ctx, eps0, n, **_: e34_eps(ctx, eps0, n),
                       Points(tuple({"eps0": e, "n": n} for e, n in
                                    (("0.1", 3), ("0.5", 6), ("2.0", 8), ("0.01", 10)))),
                       "oracle", Tol.abs("1e-50"), "ln of the enumerated sum (3)",
                       "GCE-E34.eps (4)"),), scope="instance"),
        Claim(2, "With RR mechanisms the bound is attained: the exact maximum of ln "
              "Pr[y|U*]/Pr[y|0] equals Eq. (4) at (eps0, n) in {(0.3, 3), (1.0, 5)}.",
              (Compare(_e34_forward_exact, "eq",
                       lambda ctx, eps0, n, **_: e34_eps(ctx, eps0, n),
                       Points(({"eps0": "0.3", "n": 3}, {"eps0": "1.0", "n": 5})), "oracle",
                       Tol.abs("1e-50"), "max_y ln Pr[y|U*]/Pr[y|0] (RR, enumerated)",
                       "GCE-E34.eps"),), scope="instance"),
        Claim(3, "The exact maximum of ln Pr[y|0]/Pr[y|U*] for RR equals eps_reverse, and "
              "eps_reverse <= eps.",
              (Compare(_e34_reverse_exact, "eq",
                       lambda ctx, eps0, n, **_: e34_eps_reverse(ctx, eps0, n),
                       Points(({"eps0": "0.3", "n": 3}, {"eps0": "1.0", "n": 5})), "oracle",
                       Tol.abs("1e-50"), "max_y ln Pr[y|0]/Pr[y|U*] (RR, enumerated)",
                       "GCE-E34.eps_reverse", part="exact maximum"),
               Compare(lambda ctx, eps0, n, **_: e34_eps_reverse(ctx, eps0, n), "le",
                       lambda ctx, eps0, n, **_: e34_eps(ctx, eps0, n),
                       Box(reals={"eps0": ("0.001", "5")}, ints={"n": (2, 40)},
                           log_scale=frozenset({"eps0"})), "property",
                       lhs_name="eps_reverse", rhs_name="eps", part="reverse <= forward"))),
        Claim(4, "The factor tends to 2: factor(1e-4, 20) equals 2(1 - 2^-20) within 1e-3.",
              (Compare(lambda ctx, eps0, n, **_: e34_factor(ctx, eps0, n), "eq",
                       constant(str(2 * (1 - Fraction(1, 2**20)))),
                       Points(({"eps0": "1e-4", "n": 20},)), "numeric", Tol.abs("1e-3"),
                       "GCE-E34.factor(1e-4, 20)", "2(1 - 2^-20)"),), scope="instance"),
        Claim(5, "Identity (3) = (4) as polynomials in x = e^eps0 for each fixed n.",
              (Smt(_e34_identity_problem, "sum_{b != 0} x^{|b|} = (2^n - 1)(exp of Eq. (4)) for "
                   "n = 1..10, both sides from the product's formulas"),)),
    ),
    notes="The HDP guarantee for (delta_0, U*) is (eps(eps0, n), 0): the forward direction is "
          "the binding one (claim 3). The paper's bracketed words around 'factor of almost 2' "
          "were not recovered.",
)


def _sub_diff(ctx: Any, eps0: Any, delta0: Any, n: int, **_: Any) -> Any:
    mechs = [gce.worst(ctx, eps0, delta0)] * n
    uniform_all = gce.mixture_law(mechs, gce.uniform(gce.vectors(n)))
    sub = gce.point_law([gce.subsampled(m) for m in mechs], (1,) * n)
    return ctx.max(*(ctx.abs(a - b) for a, b in zip(uniform_all, sub, strict=True)))


def _draw_sub(rng: random.Random) -> dict[str, Any]:
    return {"mechs": draw_mechs(rng)}


@exact_params("mechs")
def _sub_test(ctx: Any, mechs: Any, **_: Any) -> bool:
    n = len(mechs)
    return (gce.mixture_law(mechs, gce.uniform(gce.vectors(n)))
            == gce.point_law([gce.subsampled(m) for m in mechs], (1,) * n))


def _sub_problem(n: int) -> SmtProblem:
    """The view under the uniform prior over {0,1}^n equals the view of the 1/2-subsampled
    mechanisms on D^1, for n generic binary-output rounds (both built by numerics.gce)."""
    import sympy as sp

    names: list[Any] = []
    hyps: list[Any] = []
    mechs = []
    for i in range(n):
        m, v, h = sym_mechanism(f"m{i}")
        mechs.append(m)
        names += v
        hyps += h
    uniform_all = gce.mixture_law(mechs, gce.uniform(gce.vectors(n)))
    sub = gce.point_law([gce.subsampled(m) for m in mechs], (1,) * n)
    goal = sp.And(*(sp.Eq(sp.expand(a), sp.expand(b), evaluate=False)
                    for a, b in zip(uniform_all, sub, strict=True)))
    return SmtProblem({str(v): "real" for v in names}, tuple(hyps), goal,
                      (f"{n} generic rounds with 2 outputs (laws as symbols)",))


@exact_params("inst")
def _sub_seeded(ctx: Any, inst: Any, **_: Any) -> bool:
    return _sub_test(ctx, **_draw_sub(random.Random(int(inst))))


GCE_SUB = Theorem(
    id="GCE-SUB",
    title="Uniform prior over all of {0,1}^n = Poisson subsampling with rate 1/2",
    family=FAMILY,
    source=cite(GCE, "Sec. V-B"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "Without loss of generality D_i^1 = D_i^0 ∪ {r} and D_i^0 = {}. Poisson subsampling "
        "with rate 1/2 of D_i^1 runs M_i on D^0 or D^1 with probability 1/2 each: "
        "Pr[M_i^{1/2}(D^1) in S] = Pr[M_i(D^0) in S]/2 + Pr[M_i(D^1) in S]/2; the view under "
        "the uniform prior over all of {0,1}^n equals the view of the subsampled mechanisms "
        "on D^1."),
    domain="n >= 1; any mechanisms",
    claims=(
        Claim(1, "For n = 3 copies of the worst (eps0, delta0) 4-point mechanism (KOV-OPT) with "
              "eps0 = 0.6, delta0 = 0.01, the exact view distribution under the uniform prior "
              "over {0,1}^3 equals that of the three 1/2-subsampled mechanisms on D^1 (and, "
              "exactly, for random rational mechanisms with n <= 4).",
              (Compare(_sub_diff, "eq", constant("0"),
                       Points(({"eps0": "0.6", "delta0": "0.01", "n": 3},)), "oracle",
                       Tol.abs("1e-50"), "max_y |Pr[y | uniform prior] - Pr[y | subsampled]|",
                       "0"),
               Predicate(_sub_test, Generated(_draw_sub, 300, "random rational mechanisms "
                                              "(n <= 4)"), "oracle",
                         "uniform-prior view == view of the 1/2-subsampled mechanisms on D^1 "
                         "(exact rationals)")), scope="instance"),
        Claim(2, "For all finite mechanisms, the view under the uniform prior over all of "
              "{0,1}^n equals the view of the 1/2-subsampled mechanisms on D^1. Searched over "
              "seeded random rational mechanisms (n <= 4 rounds, 2-3 outputs), exactly; proved "
              "by z3 as a polynomial identity in the laws for n = 1, 2, 3 generic binary-output "
              "rounds.",
              (Predicate(_sub_seeded, Box(ints={"inst": (0, 10**9)}), "property",
                         "uniform-prior view == view of the subsampled mechanisms (exact)"),
               *(Smt(lambda n=n: _sub_problem(n), f"n = {n}: uniform-prior view == subsampled "
                     "view, every output, all laws") for n in (1, 2, 3)))),
    ),
    notes="This identity is why BBG-T8 at rate 1/2 appears in GCE-T3, GCE-C6 and GCE-C7.",
)
