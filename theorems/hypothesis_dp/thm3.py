"""GCE-T3, GCE-C6, GCE-C7: [GCE] arXiv 2209.13697, Thm 3 with MV-OPT as Comp, and its
Corollaries 6 and 7 (simple composition inside each summand; the closed form).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
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
from dpverify.theorems.core import (
    Evaluator,
    Theorem,
)
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.hdp_bounds import (
    c6_delta,
    c6_delta_primes,
    c6_delta_reverse,
    c6_eps,
    c6_eps_reverse,
    c7_delta,
    c7_eps,
    t3_delta,
    t3_eps,
    weights,
)
from dpverify.theorems.formulas.kov_mv import mv_delta_pure
from dpverify.theorems.hypothesis_dp.instances import (
    DELTA_LIST_OPT,
    EPS_LIST_V,
    FAMILY,
    constant,
    exp_eps,
    rr_mechs,
    subst_exp,
)
from dpverify.theorems.hypothesis_dp.universal_uniform import c6_universal, t3_universal
from dpverify.theorems.numerics import gce
from dpverify.theorems.params import (
    DELTA,
    DELTA0,
    DELTA_LIST,
    EPS,
    EPS0,
    N,
)
from dpverify.theorems.refs import GCE, cite
from dpverify.theorems.values import exact_params, to_ctx

# ==========================================================================================
# GCE-T3, GCE-C6, GCE-C7

T3_EPS = (Fraction(2, 5), Fraction(7, 10), Fraction(3, 10), Fraction(9, 10))


def _t3_forward_exact(ctx: Any, eps: Any, **_: Any) -> Any:
    n = len(T3_EPS)
    mechs = rr_mechs(ctx, T3_EPS)
    return gce.hockey(gce.mixture_law(mechs, gce.uniform_nonzero(n)),
                      gce.point_law(mechs, (0,) * n), exp_eps(ctx, eps), ctx)


def _worst_uniform(ctx: Any, eps_list: Sequence[Any], delta_list: Sequence[Any]
                   ) -> tuple[gce.Law, gce.Law]:
    """(view under U*, view under 0) for worst (eps_i, delta_i) mechanisms."""
    mechs = [gce.worst(ctx, to_ctx(ctx, e), to_ctx(ctx, d))
             for e, d in zip(eps_list, delta_list, strict=True)]
    n = len(mechs)
    return gce.mixture_law(mechs, gce.uniform_nonzero(n)), gce.point_law(mechs, (0,) * n)


@exact_params("delta0")
def _t3_reverse_exact(ctx: Any, eps0: Any, delta0: Any, n: int, **_: Any) -> Any:
    eps_list = (eps0,) * n
    law_u, law_0 = _worst_uniform(ctx, eps_list, (delta0,) * n)
    return gce.hockey(law_0, law_u, ctx.exp(c6_eps_reverse(ctx, eps_list)), ctx)


@exact_params("delta0")
def _t3_reverse_bound(ctx: Any, eps0: Any, delta0: Any, n: int, **_: Any) -> Any:
    return c6_delta_reverse(ctx, (eps0,) * n, (delta0,) * n)


GCE_T3 = Theorem(
    id="GCE-T3",
    title="HDP for (delta_0, U*) via subsampling",
    family=FAMILY,
    source=cite(GCE, "Thm 3; proof in App. C"),
    types=("BOUND",),
    confidence=("DERIVED", "UNCERTAIN"),
    statement=(
        "Partition {0,1}^n \\ {0} by the position i of the first 1: class i has 2^{n-i} "
        "vectors, weight w_i = 2^{n-i}/(2^n - 1); given class i, rounds < i run on D^0, round "
        "i on D^1, rounds > i on subsampled D^1. Hence Pr[V|U*] = sum_i w_i Pr[V|c_i] and "
        "(eps, delta)-HDP (direction U* vs 0) holds with eps = ln(sum_i w_i e^{eps_i'}), delta "
        "= sum_i w_i delta_i', where (eps_i', delta_i') = Comp(M_i, M_{i+1}^{1/2}, ..., "
        "M_n^{1/2}). Reverse (derived): e^{-eps_r} = sum_i w_i e^{-eps_i'}, delta_r = sum_i "
        "w_i e^{-eps_i'} delta_i' / sum_i w_i e^{-eps_i'}; with a common eps_i' = eps both "
        "directions give (eps, sum_i w_i delta_i')."),
    domain="n >= 1; eps_i' >= 0, delta_i' in [0, 1]",
    evaluators=(
        Evaluator("delta", (EPS_LIST_V, EPS, DELTA_LIST_OPT), t3_delta,
                  "sum_i w_i MV-OPT.delta([eps_i, s(eps_{i+1}), ..., s(eps_n)], eps, [delta_i, "
                  "delta_{i+1}/2, ...]), s(e) = ln(1 + (e^e - 1)/2); delta_list (optional, "
                  "added) defaults to zeros"),
        Evaluator("eps", (EPS_LIST_V, DELTA, DELTA_LIST_OPT), t3_eps,
                  "least eps >= 0 with delta(eps_list, eps) <= delta (bisection)"),
    ),
    claims=(
        Claim(1, "RR mechanisms, eps_list = (0.4, 0.7, 0.3, 0.9), common eps_i' = 0.9: the "
              "exact H_{e^0.9}(V|U* || V|0) (0.0410) is at most the Thm 3 delta (0.0779).",
              (Compare(_t3_forward_exact, "le",
                       lambda ctx, eps, **_: t3_delta(ctx, T3_EPS, eps),
                       Points(({"eps": "0.9"},)), "oracle",
                       lhs_name="exact H_{e^0.9}(V|U* || V|0)", rhs_name="GCE-T3.delta"),),
                       scope="instance"),
        Claim(2, "The Thm 3 delta beats the classic MV value over all n mechanisms, "
              "MV-OPT.delta_pure(eps_list, 0.9) (0.239).",
              (Compare(lambda ctx, eps, **_: t3_delta(ctx, T3_EPS, eps), "lt",
                       lambda ctx, eps, **_: mv_delta_pure(ctx, T3_EPS, eps),
                       Points(({"eps": "0.9"},)), "numeric", lhs_name="GCE-T3.delta",
                       rhs_name="MV-OPT.delta_pure(eps_list, 0.9)"),), scope="instance"),
        Claim(3, "The reverse bound is valid: for n worst-case 4-point (eps0, delta0) mechanisms "
              "at (eps0, delta0, n) in {(0.5, 0.01, 3), (1.0, 0.02, 4)}, with (eps_i', "
              "delta_i') from GCE-C6, the exact H_{e^{eps_r}}(V|0 || V|U*) <= delta_r.",
              (Compare(_t3_reverse_exact, "le", _t3_reverse_bound,
                       Points(({"eps0": "0.5", "delta0": "0.01", "n": 3},
                               {"eps0": "1.0", "delta0": "0.02", "n": 4})), "oracle",
                       lhs_name="exact H_{e^{eps_r}}(V|0 || V|U*)",
                       rhs_name="delta_r (GCE-C6.delta_reverse)"),), scope="instance"),
        t3_universal(4),
    ),
    notes=("The display of Thm 3 and the reverse direction were not recovered from the paper "
           "(catalogue open question 7): both are derived (mixture over the classes of the "
           "first 1) and checked against exact enumeration. `dpverify hdp --constraint "
           "uniform-nonzero` uses this theorem."),
)


def _draw_c6_rr(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(1, 8)
    return {"eps_list": tuple(Fraction(rng.randint(1, 30), 20) for _ in range(n))}


def _c6_rr_exact(ctx: Any, eps_list: Any, **_: Any) -> Any:
    n = len(eps_list)
    mechs = rr_mechs(ctx, eps_list)
    laws = gce.all_point_laws(mechs)
    return gce.max_log_ratio(ctx, gce.mixture_law(mechs, gce.uniform_nonzero(n), laws),
                             laws[(0,) * n])


def _draw_c6_worst(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(1, 3)
    return {"xs": tuple(Fraction(rng.randint(105, 300), 100) for _ in range(n)),
            "delta_list": tuple(Fraction(rng.randint(0, 40), 1000) for _ in range(n))}


def c6_exp_primes(xs: Sequence[Fraction]) -> list[Fraction]:
    """``e^{eps_i'} = x_i prod_{j > i} (1 + (x_j - 1)/2)`` with ``x_i = e^{eps_i}`` exactly
    (Cor. 6 in exponential form)."""
    return [xs[i] * math.prod(((1 + x) / 2 for x in xs[i + 1:]), start=Fraction(1))
            for i in range(len(xs))]


@lru_cache(maxsize=1024)
def _c6_worst_exact(xs: tuple[Fraction, ...], deltas: tuple[Fraction, ...]
                    ) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(exact forward H at Cor. 6's e^eps, Cor. 6 delta, exact reverse H at e^{eps_r},
    delta_r), all exact for worst (log x_i, delta_i) mechanisms."""
    n = len(xs)
    w = weights(n)
    e = c6_exp_primes(xs)
    dp = c6_delta_primes(deltas)
    z = sum((wi * ei for wi, ei in zip(w, e, strict=True)), Fraction(0))
    inv = sum((wi / ei for wi, ei in zip(w, e, strict=True)), Fraction(0))
    delta_r = sum((wi / ei * di for wi, ei, di in zip(w, e, dp, strict=True)), Fraction(0)) / inv
    delta_f = sum((wi * di for wi, di in zip(w, dp, strict=True)), Fraction(0))
    mechs = [gce.worst_exp(x, d) for x, d in zip(xs, deltas, strict=True)]
    law_u = gce.mixture_law(mechs, gce.uniform_nonzero(n))
    law_0 = gce.point_law(mechs, (0,) * n)
    return gce.hockey(law_u, law_0, z), delta_f, gce.hockey(law_0, law_u, 1 / inv), delta_r


@exact_params("xs", "delta_list")
def _c6_worst_test(ctx: Any, xs: Any, delta_list: Any, **_: Any) -> bool:
    forward, delta_f, reverse, delta_r = _c6_worst_exact(xs, delta_list)
    return forward <= delta_f and reverse <= delta_r


@exact_params("xs", "delta_list")
def _c6_log_forms(ctx: Any, xs: Any, delta_list: Any, **_: Any) -> Any:
    """``|C6.eps(ln x) - ln z| + |C6.eps_reverse(ln x) - ln z_r| + |C6.delta - delta_f| +
    |C6.delta_reverse(ln x) - delta_r|`` against the exact exponential forms."""
    n = len(xs)
    w = weights(n)
    e = c6_exp_primes(xs)
    eps_list = tuple(ctx.log(ctx.num(x)) for x in xs)
    z = sum((wi * ei for wi, ei in zip(w, e, strict=True)), Fraction(0))
    inv = sum((wi / ei for wi, ei in zip(w, e, strict=True)), Fraction(0))
    _, delta_f, _, delta_r = _c6_worst_exact(xs, delta_list)
    return (ctx.abs(c6_eps(ctx, eps_list) - ctx.log(ctx.num(z)))
            + ctx.abs(c6_eps_reverse(ctx, eps_list) + ctx.log(ctx.num(inv)))
            + ctx.abs(c6_delta(ctx, delta_list) - ctx.num(delta_f))
            + ctx.abs(c6_delta_reverse(ctx, eps_list, delta_list) - ctx.num(delta_r)))


C7_POINTS = Points(({"eps0": "0.2", "delta0": "1e-6", "n": 5},
                    {"eps0": "1.0", "delta0": "1e-5", "n": 9}))

GCE_C6 = Theorem(
    id="GCE-C6",
    title="Cor. 6: simple composition inside each summand of Thm 3",
    family=FAMILY,
    source=cite(GCE, "Cor. 6"),
    types=("BOUND",),
    confidence=("DERIVED", "UNCERTAIN"),
    statement=(
        "eps_i' = eps_i + eps~_i, delta_i' = delta_i + delta~_i, where (eps~_i, delta~_i) is a "
        "guarantee for (M_{i+1}^{1/2}, ..., M_n^{1/2}); with simple composition and BBG-T8, "
        "eps~_i = sum_{j>i} ln(1 + (e^{eps_j} - 1)/2) and delta~_i = sum_{j>i} delta_j/2. "
        "Plugged into GCE-T3: (ln sum_i w_i e^{eps_i'}, sum_i w_i delta_i') (direction U* vs "
        "0) and, with the reverse formulas of GCE-T3, the other direction."),
    domain="eps_i >= 0, delta_i in [0, 1); n = len(eps_list) = len(delta_list)",
    evaluators=(
        Evaluator("eps", (EPS_LIST_V,), c6_eps, "ln(sum_i w_i e^{eps_i'})"),
        Evaluator("delta", (replace(DELTA_LIST, min_len=1),), c6_delta, "sum_i w_i delta_i'"),
        Evaluator("eps_reverse", (EPS_LIST_V,), c6_eps_reverse, "-ln(sum_i w_i e^{-eps_i'})"),
        Evaluator("delta_reverse", (EPS_LIST_V, replace(DELTA_LIST, min_len=1)),
                  c6_delta_reverse,
                  "sum_i w_i e^{-eps_i'} delta_i' / sum_i w_i e^{-eps_i'}"),
    ),
    claims=(
        Claim(1, "With all entries equal, eps and delta equal GCE-C7 (see GCE-C7 claims 1–2).",
              (Compare(lambda ctx, eps0, n, **_: c6_eps(ctx, (eps0,) * n), "eq",
                       lambda ctx, eps0, n, **_: c7_eps(ctx, eps0, n), C7_POINTS, "numeric",
                       Tol.abs("1e-50"), "GCE-C6.eps(eps0 x n)", "GCE-C7.eps(eps0, n)"),
               Compare(exact_params("delta0")(
                   lambda ctx, delta0, n, **_: c6_delta(ctx, (delta0,) * n)),
                       "eq", exact_params("delta0")(
                           lambda ctx, delta0, n, **_: c7_delta(ctx, delta0, n)),
                       C7_POINTS, "numeric", Tol.abs("1e-50"), "GCE-C6.delta(delta0 x n)",
                       "GCE-C7.delta(delta0, n)")), scope="instance"),
        Claim(2, "For RR mechanisms, the exact forward HDP value max ln Pr[y|U*]/Pr[y|0] is at "
              "most eps(eps_list) for random eps_list (n <= 8); in fact it is equal (the bound "
              "is attained by RR: sum_i x_i prod_{j>i}(1 + x_j) = prod_j(1 + x_j) - 1), so the "
              "check is equality to 1e-40. Also, for random worst-case (eps_i, delta_i) "
              "mechanisms (n <= 3), the exact forward and reverse hockey-stick divergences at "
              "the Cor. 6 (reverse) eps are at most the Cor. 6 (reverse) delta.",
              (Compare(_c6_rr_exact, "eq", lambda ctx, eps_list, **_: c6_eps(ctx, eps_list),
                       Generated(_draw_c6_rr, 40, "random eps_list (n <= 8, eps_i in [0.05, "
                                 "1.5])"), "oracle", Tol.abs("1e-40"),
                       "max_y ln Pr[y|U*]/Pr[y|0] (RR, enumerated)", "GCE-C6.eps"),
               Predicate(_c6_worst_test,
                         Generated(_draw_c6_worst, 60, "random worst-case (ln x_i, delta_i) "
                                   "mechanisms, rational x_i in [1.05, 3], n <= 3"), "oracle",
                         "exact H_{e^eps}(V|U* || V|0) <= delta and H_{e^eps_r}(V|0 || V|U*) <= "
                         "delta_r, with Cor. 6's (eps, delta) and the reverse (eps_r, delta_r) in "
                         "exponential form (exact rationals; some cases are tight)"),
               Compare(_c6_log_forms, "eq", constant("0"),
                       Generated(_draw_c6_worst, 60, "random instances drawn as above"), "oracle",
                       Tol.abs("1e-45"), "sum of |evaluator - exact exponential form| (eps, "
                       "eps_reverse, delta, delta_reverse)", "0"))),
        c6_universal(3),
    ),
    notes="ln(1 + (e^{eps_j} - 1)/2) = ln((1 + e^{eps_j})/2). The split between Cor. 6 "
          "(generic subsampled part) and Cor. 7 (BBG plugged in) was not recovered (open "
          "question 7); here Cor. 6 is the BBG-T8 instance, as the catalogue states it.",
)


def _c7_sum_delta(delta0: Fraction, n: int) -> Fraction:
    """``sum_i w_i (delta0 + (n - i) delta0/2)``, the Cor. 6 sum with equal entries."""
    w = weights(n)
    return sum((w[i - 1] * (delta0 + (n - i) * delta0 / 2) for i in range(1, n + 1)),
               Fraction(0))


@exact_params("delta0")
def _c7_delta_test(ctx: Any, delta0: Any, n: int, **_: Any) -> bool:
    closed = Fraction(n * 2 ** (n - 1), 2**n - 1) * Fraction(delta0)
    via_c6 = sum((w * d for w, d in zip(weights(n), c6_delta_primes((Fraction(delta0),) * n),
                                        strict=True)), Fraction(0))
    return _c7_sum_delta(Fraction(delta0), n) == closed == via_c6


def _c7_induction_problem() -> SmtProblem:
    """Induction step of ``U(n) = sum_{k=0}^{n-1} 2^k (1 + k/2) = n 2^{n-1}``: with ``t =
    2^n``, ``U(n) = n t/2`` implies ``U(n) + t (1 + n/2) = (n + 1)(2t)/2``."""
    import sympy as sp

    n, t, u = sp.symbols("n t U", real=True)
    hyps = (sp.Ge(n, 1), sp.Gt(t, 0), sp.Eq(u, n * t / 2))
    goal = sp.Eq(u + t * (1 + n / 2), (n + 1) * (2 * t) / 2, evaluate=False)
    return SmtProblem({"n": "real", "t": "real", "U": "real"}, hyps, goal,
                      ("t = 2^n; U(n) = (2^n - 1) delta_HDP / delta",))


def _c7_n1_problem() -> SmtProblem:
    """GCE-C7 at n = 1: ``exp(eps(eps0, 1)) = e^eps0`` and ``delta(delta0, 1) = delta0``, from
    the product's formulas in the sym context."""
    import sympy as sp

    ctx = SymCtx()
    eps0 = sp.Symbol("eps0", positive=True)
    x, d0 = sp.symbols("x delta0", real=True)
    lhs = subst_exp(sp.exp(c7_eps(ctx, eps0, 1)), eps0, x)
    dl = c7_delta(ctx, d0, 1)
    goal = sp.And(sp.Eq(lhs, x, evaluate=False), sp.Eq(dl, d0, evaluate=False))
    return SmtProblem({"x": "real", "delta0": "real"}, (sp.Gt(x, 0), sp.Ge(d0, 0)), goal,
                      ("x = e^eps0",))


@exact_params("delta0")
def _c7_worst_exact(ctx: Any, eps0: Any, delta0: Any, n: int, **_: Any) -> Any:
    e0 = to_ctx(ctx, eps0)
    law_u, law_0 = _worst_uniform(ctx, (e0,) * n, (delta0,) * n)
    return gce.hockey(law_u, law_0, ctx.exp(c7_eps(ctx, e0, n)), ctx)


GCE_C7 = Theorem(
    id="GCE-C7",
    title="Cor. 7: homogeneous closed form",
    family=FAMILY,
    source=cite(GCE, "Cor. 7 (Eq. 5 to 6)"),
    types=("BOUND",),
    confidence=("DERIVED", "UNCERTAIN"),
    statement=(
        "If all eps_i = eps and delta_i = delta, the sequence is (eps_HDP, delta_HDP)-HDP "
        "w.r.t. (delta_0, U*) with eps_HDP = ln(((1+e^eps)^n - 1)/(2^n - 1)) and delta_HDP = "
        "n 2^{n-1} delta/(2^n - 1). The eps sum is a partial geometric series in x = 1 + e^eps "
        "(Eq. 5 to 6) and recovers Eq. (4); the delta sum is sum 2^{n-i}(delta + (n-i) "
        "delta/2)/(2^n - 1), evaluated via d/dx sum x^m at x = 2."),
    domain="eps >= 0, delta in [0, 1), n >= 1 (eps0, delta0 are the per-mechanism values)",
    evaluators=(
        Evaluator("eps", (EPS0, N), c7_eps, "ln(((1+e^eps0)^n - 1)/(2^n - 1))"),
        Evaluator("delta", (DELTA0, N), c7_delta, "n 2^{n-1} delta0/(2^n - 1)"),
    ),
    claims=(
        Claim(1, "The sum form (GCE-C6 with equal entries) equals the closed-form eps at (eps0, "
              "delta0, n) in {(0.2, 1e-6, 5), (1.0, 1e-5, 9)} to 1e-50.",
              (Compare(lambda ctx, eps0, n, **_: c6_eps(ctx, (eps0,) * n), "eq",
                       lambda ctx, eps0, n, **_: c7_eps(ctx, eps0, n), C7_POINTS, "numeric",
                       Tol.abs("1e-50"), "GCE-C6.eps (sum form)", "GCE-C7.eps"),),
                       scope="instance"),
        Claim(2, "The sum form equals the closed-form delta exactly (rational identity; same "
              "cases, and for every n).",
              (Predicate(_c7_delta_test,
                         Points((*C7_POINTS.points,
                                 *({"delta0": "1/7", "n": n} for n in range(1, 61)))),
                         "oracle", "sum_i w_i delta_i' == n 2^{n-1} delta0/(2^n - 1) (exact "
                         "rationals; the two cases and n = 1..60)"),
               Smt(_c7_induction_problem, "for every n: U(1) = 1 (the exact check at n = 1) "
                   "and the induction step U(n+1) = U(n) + 2^n (1 + n/2)"))),
        Claim(3, "n = 1 gives (eps0, delta0).",
              (Smt(_c7_n1_problem, "exp(GCE-C7.eps(eps0, 1)) = e^eps0 and GCE-C7.delta(delta0, "
                   "1) = delta0"),)),
        Claim(4, "Validity against the exact hockey-stick H_{e^{eps_HDP}}(V|U* || V|0) for "
              "products of n worst-case 4-point (eps0, delta0) mechanisms: 0.017057 <= 0.017143 "
              "at (eps0, delta0, n) = (0.5, 0.01, 3) and 0.042031 <= 0.042667 at (1.0, 0.02, "
              "4), i.e. nearly tight.",
              (Compare(_c7_worst_exact, "le",
                       exact_params("delta0")(lambda ctx, delta0, n, **_: c7_delta(ctx, delta0, n)),
                       Points(({"eps0": "0.5", "delta0": "0.01", "n": 3},
                               {"eps0": "1.0", "delta0": "0.02", "n": 4})), "oracle",
                       lhs_name="exact H_{e^{eps_HDP}}(V|U* || V|0)",
                       rhs_name="GCE-C7.delta"),), scope="instance"),
    ),
    notes="The eps part equals GCE-E34 Eq. (4) exactly, as the paper says; the delta closed "
          "form is an evaluation of the stated sum (open question 8), proved for every n.",
)
