"""Optimal homogeneous composition: KOV-OPT ([KOV] arXiv 1311.0776v4, Thm 3.3), KOV-DELTA ([MV]
arXiv 1507.03113, Thm 1.4) and its exact inverse KOV-EPS.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

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
    grid,
    points,
)
from dpverify.theorems.composition.terms import (
    FAMILY,
    ORDER_BOX_TEXT,
    adaptive_kov_bound,
    const,
    delta_side,
    order_check,
    stk_bound,
)
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.advanced_composition import stk_eps
from dpverify.theorems.formulas.kov_mv import (
    is_inf,
    kov33_delta_i,
    kov33_point,
    kov_delta,
    kov_delta_pure,
    kov_eps,
    kov_opt_delta,
    mv_delta,
)
from dpverify.theorems.numerics.composition_enum import (
    adaptive_delta,
    rr_kfold_delta_enum,
    worst_kfold_delta_enum,
)
from dpverify.theorems.numerics.finite import push_forward, randomized_response
from dpverify.theorems.params import (
    DELTA,
    DELTA0,
    EPS0,
    EPS0_POS,
    EPS_REAL,
    K,
)
from dpverify.theorems.refs import KOV, MV, cite
from dpverify.theorems.values import exact_params, to_ctx

# ==========================================================================================
# KOV-OPT


def _thm33_points(cases: Sequence[tuple[str, str, int]], idx: Sequence[int] | None) -> Points:
    pts = []
    for eps0, delta0, k in cases:
        for i in (idx if idx is not None else range(k // 2 + 1)):
            pts.append({"eps0": eps0, "delta0": delta0, "k": k, "i": i})
    return Points(tuple(pts))


def _kov_at_grid(ctx: Any, eps0: Any, delta0: Any, k: int, i: int, **_: Any) -> Any:
    return kov_delta(ctx, eps0, delta0, k, (k - 2 * i) * eps0)


def _draw_kov_opt(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 50)
    eps0 = Fraction(rng.randint(1, 2000), 1000)
    return {"eps0": eps0, "delta0": rng.choice([Fraction(0), Fraction(rng.randint(1, 999), 10**5)]),
            "k": k, "eps": Fraction(rng.randint(-1000, 1000), 1000) * k * eps0}


def _draw_adaptive(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 4)
    r = 1 + Fraction(rng.randint(1, 30), 20)
    return {"r": r, "delta0": rng.choice([Fraction(0), Fraction(rng.randint(1, 50), 1000)]),
            "k": k, "eps": Fraction(rng.randint(0, 100 * k), 100), "tree": rng.randint(0, 10**9)}


KOV_OPT = Theorem(
    id="KOV-OPT",
    title="Optimal homogeneous composition (Kairouz–Oh–Viswanath), grid and PLD forms",
    family=FAMILY,
    source=cite(KOV, "Thm 3.3; [MV] Thm 1.4; [S22] Secs. 4.3, 7"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "k-fold adaptive composition of (eps0, delta0)-DP mechanisms is ((k-2i) eps0, 1 - "
        "(1-delta0)^k (1 - delta_i))-DP for i = 0..floor(k/2), delta_i = sum_{l<i} C(k,l) "
        "(e^{(k-l) eps0} - e^{(k-2i+l) eps0})/(1+e^eps0)^k; this is the exact privacy region, "
        "attained by the four-output mechanism (RR when delta0 = 0). PLD form: delta_RR(eps) = "
        "E[max(0, 1 - e^{eps - Z})], Z = eps0 (k - 2L), L ~ Bin(k, 1/(1+e^eps0))."),
    domain="eps0 >= 0, delta0 in [0, 1), k >= 1 integer; eps real for the PLD form",
    evaluators=(
        Evaluator("delta", (EPS0, DELTA0, K, EPS_REAL), kov_opt_delta,
                  "1 - (1 - delta0)^k (1 - delta_RR(eps)), PLD/binomial route"),
    ),
    claims=(
        Claim(1, "The Thm 3.3 point equals KOV-DELTA.delta at eps = (k-2i) eps0 to 1e-50 for "
              "(eps0, delta0, k) = (0.1, 0, 20) and (0.7, 1e-5, 9), i = 0..floor(k/2).",
              (Compare(lambda ctx, eps0, delta0, k, i, **_: kov33_point(ctx, eps0, delta0, k, i),
                       "eq", _kov_at_grid,
                       _thm33_points([("0.1", "0", 20), ("0.7", "1e-5", 9)], None), "numeric",
                       Tol.abs("1e-50"), "Thm 3.3 point", "KOV-DELTA.delta((k-2i) eps0)"),),
              scope="instance"),
        Claim(2, "The closed form delta_i equals the PLD/binomial value (KOV-OPT.delta, delta0 "
              "= 0) at eps = (k-2i) eps0 to 1e-40 for (k, eps0) in {(10, 0.1), (30, 0.5), (7, "
              "1)}, i in {1, 2, 3}.",
              (Compare(lambda ctx, eps0, k, i, **_: kov33_delta_i(ctx, eps0, k, i), "eq",
                       lambda ctx, eps0, k, i, **_: kov_opt_delta(ctx, eps0, 0, k,
                                                                  (k - 2 * i) * eps0),
                       _thm33_points([("0.1", "0", 10), ("0.5", "0", 30), ("1", "0", 7)],
                                     [1, 2, 3]), "numeric", Tol.abs("1e-40"), "delta_i",
                       "KOV-OPT.delta (PLD)"),),
              scope="instance"),
        Claim(3, "KOV-OPT.delta (a plain walk over the binomial PLD) = KOV-DELTA.delta (the "
              "truncated sum from the mode) on random (eps0, delta0, k <= 50, eps), rel 1e-40.",
              (Compare(lambda ctx, eps0, delta0, k, eps, **_: kov_opt_delta(ctx, eps0, delta0,
                                                                            k, eps),
                       "eq", lambda ctx, eps0, delta0, k, eps, **_: kov_delta(ctx, eps0, delta0,
                                                                              k, eps),
                       Generated(_draw_kov_opt, 100, "random (eps0, delta0, k <= 50, eps)"),
                       "property", Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "KOV-OPT.delta", "KOV-DELTA.delta"),)),
        Claim(4, "KOV-EPS.eps <= min(STK-ADV-PURE.eps, k eps0) for (k, eps0, delta) = (100, "
              "0.1, 1e-5), (1000, 0.02, 1e-6), (10, 1, 1e-3); KOV-EPS <= STK-ADV-PURE proved on "
              f"{ORDER_BOX_TEXT} as KOV-DELTA.delta_pure(eps0, k, STK eps) <= delta.",
              (Compare(lambda ctx, eps0, k, delta, **_: kov_eps(ctx, eps0, 0, k, delta), "le",
                       lambda ctx, eps0, k, delta, **_: ctx.min(
                           stk_eps(ctx, eps0, k, to_ctx(ctx, delta)), k * eps0),
                       Points(({"k": 100, "eps0": "0.1", "delta": "1e-5"},
                               {"k": 1000, "eps0": "0.02", "delta": "1e-6"},
                               {"k": 10, "eps0": "1", "delta": "1e-3"})), "numeric",
                       lhs_name="KOV-EPS.eps", rhs_name="min(STK-ADV-PURE.eps, k eps0)"),
               order_check(stk_bound, "STK-ADV-PURE eps"))),
        Claim(5, "Adaptivity does not help: for k <= 4 and random history-dependent choices of "
              "(eps0, delta0)-DP mechanisms with at most 4 outputs (exact rationals, e^eps0 "
              "rational), the exact hockey-stick value of the transcript (both orders) never "
              "exceeds KOV-DELTA.delta.",
              (Compare(adaptive_delta, "le", adaptive_kov_bound,
                       Generated(_draw_adaptive, 200, "random adaptive compositions, k <= 4"),
                       "property", lhs_name="transcript hockey-stick",
                       rhs_name="KOV-DELTA.delta"),)),
    ),
    notes="Computing the exact value for heterogeneous eps_j is #P-hard (MV-HARD).",
)


# ==========================================================================================
# KOV-DELTA


def _affine_problem(k: int, j: int) -> SmtProblem:
    """On ``z in [y^{2j-k}, y^{2j+2-k}]`` (``y = e^eps0 > 1``, ``z = e^eps``) every term ``y^i -
    z y^{k-i}`` has a fixed sign: negative or zero for ``i <= j``, positive or zero for ``i >
    j``. So ``delta_pure = (1+y)^-k sum_{i>j} C(k,i)(y^i - z y^{k-i})``, affine in z."""
    import sympy as sp

    y, z = sp.symbols("y z", real=True)

    def ge_power(lhs_z: Any, exp: int) -> Any:  # z >= y^exp, polynomially
        return sp.Ge(lhs_z * y ** (-exp), 1) if exp < 0 else sp.Ge(lhs_z, y**exp)

    def le_power(lhs_z: Any, exp: int) -> Any:
        return sp.Le(lhs_z * y ** (-exp), 1) if exp < 0 else sp.Le(lhs_z, y**exp)

    hyps = (sp.Gt(y, 1), ge_power(z, 2 * j - k), le_power(z, 2 * j + 2 - k))
    goal = sp.And(*[sp.Le(y**i - z * y ** (k - i), 0) if i <= j else
                    sp.Ge(y**i - z * y ** (k - i), 0) for i in range(k + 1)])
    return SmtProblem({"y": "real", "z": "real"}, hyps, goal,
                      ("y = e^eps0", "z = e^eps", f"k = {k}, piece j = {j}"))


def _rr_degradation_problem() -> SmtProblem:
    """RR(eps0') is RR(eps0) followed by a binary symmetric channel with flip probability ``a =
    (x - x')/((1 + x')(x - 1))``, ``a in [0, 1/2]``, for ``1 <= x' <= x`` (x = e^eps0, x' =
    e^eps0'): the output laws from :func:`theorems.finite.randomized_response` pushed through
    :func:`theorems.finite.push_forward`, denominators cleared."""
    import sympy as sp

    ctx = SymCtx()
    e, ep = sp.symbols("eps0 eps0p", positive=True)
    x, xp, a = sp.symbols("x xp a", real=True)
    kernel = ((1 - a, a), (a, 1 - a))
    p, q = randomized_response(ctx, e)
    pp, qp = randomized_response(ctx, ep)
    goals = [sp.Ge(a, 0), sp.Le(a, sp.Rational(1, 2))]
    for out, want in ((push_forward(p, kernel), pp), (push_forward(q, kernel), qp)):
        for o, w in zip(out, want, strict=True):
            num, _ = sp.fraction(sp.together((o - w).subs({sp.exp(e): x, sp.exp(ep): xp})))
            goals.append(sp.Eq(sp.expand(num), 0))
    return SmtProblem({"x": "real", "xp": "real", "a": "real"},
                      (sp.Gt(x, 1), sp.Ge(xp, 1), sp.Le(xp, x),
                       sp.Eq(a * (1 + xp) * (x - 1), x - xp)),
                      sp.And(*goals),
                      ("x = e^eps0 > 1", "x' = e^eps0' in [1, x]",
                       "a = (x - x')/((1 + x')(x - 1))", "denominators (1 + x)(1 + x') > 0"))


def _affine_mid(ctx: Any, eps0: Any, k: int, j: int, **_: Any) -> Any:
    """``delta_pure`` at the midpoint in z of ``[z_j, z_{j+1}]``."""
    zm = (ctx.exp((2 * j - k) * eps0) + ctx.exp((2 * j + 2 - k) * eps0)) / 2
    return kov_delta_pure(ctx, eps0, k, ctx.log(zm))


def _affine_mean(ctx: Any, eps0: Any, k: int, j: int, **_: Any) -> Any:
    return (kov_delta_pure(ctx, eps0, k, (2 * j - k) * eps0)
            + kov_delta_pure(ctx, eps0, k, (2 * j + 2 - k) * eps0)) / 2


def _kov_delta_box() -> Box:
    return Box(reals={"eps0": ("0.01", "2"), "delta0": ("0", "0.1"), "eps": ("-2", "10"),
                      "h": ("1e-6", "1")}, ints={"k": (1, 40)}, log_scale=frozenset({"h"}),
               constraint=lambda p: p["eps"] + p["h"] < p["k"] * p["eps0"])


def _draw_homog_mv(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 12)
    eps0 = Fraction(rng.randint(1, 1500), 1000)
    return {"eps0": eps0, "delta0": rng.choice([Fraction(0), Fraction(rng.randint(1, 99), 1000)]),
            "k": k, "eps": Fraction(rng.randint(-500, 1000), 1000) * k * eps0}


@exact_params("eps0", "delta0")
def _mv_homog(ctx: Any, eps0: Any, delta0: Any, k: int, eps: Any, **_: Any) -> Any:
    return mv_delta(ctx, (Fraction(eps0),) * k, eps, (Fraction(delta0),) * k)


KOV_DELTA = Theorem(
    id="KOV-DELTA",
    title="Optimal delta as a function of eps",
    family=FAMILY,
    source=cite(MV, "Thm 1.4 (restatement of [KOV] Thm 3.3 as a function of eps_g)"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "delta_opt(eps) = 1 - (1-delta0)^k [1 - (1+e^eps0)^-k sum_{i=0}^k C(k,i) max(e^{i eps0}"
        " - e^eps e^{(k-i) eps0}, 0)]; the pure part is affine in z = e^eps between the "
        "breakpoints z_j = e^{(2j-k) eps0}. Exact for adaptive and non-adaptive composition."),
    domain="eps real; eps0 >= 0; delta0 in [0, 1); k >= 1 integer",
    evaluators=(
        Evaluator("delta", (EPS0, DELTA0, K, EPS_REAL), kov_delta,
                  "1 - (1-delta0)^k (1 - delta_pure(eps)) (arb enclosure, O(sqrt(k)) terms)"),
        Evaluator("delta_pure", (EPS0, K, EPS_REAL), kov_delta_pure,
                  "(1+e^eps0)^-k sum_i C(k,i) max(e^{i eps0} - e^eps e^{(k-i) eps0}, 0)"),
    ),
    claims=(
        Claim(1, "Equals brute force over the 2^k outputs of k-fold RR (delta0 = 0) to 1e-50 at "
              "(eps0, k, eps) in {(0.1, 1, 0.05), (0.3, 4, 0.2), (0.5, 7, 0.0), (1.0, 10, 2.5), "
              "(0.05, 10, 0.12)}.",
              (Compare(lambda ctx, eps0, k, eps, **_: kov_delta(ctx, eps0, 0, k, eps), "eq",
                       lambda ctx, eps0, k, eps, **_: rr_kfold_delta_enum(ctx, eps0, k, eps),
                       Points(({"eps0": "0.1", "k": 1, "eps": "0.05"},
                               {"eps0": "0.3", "k": 4, "eps": "0.2"},
                               {"eps0": "0.5", "k": 7, "eps": "0"},
                               {"eps0": "1.0", "k": 10, "eps": "2.5"},
                               {"eps0": "0.05", "k": 10, "eps": "0.12"})), "oracle",
                       Tol.abs("1e-50"), "KOV-DELTA.delta", "2^k enumeration of k-fold RR"),),
              scope="instance"),
        Claim(2, "Equals brute force over the 4^k outputs of the worst (eps0, delta0) mechanism "
              "to 1e-50 at (eps0, delta0, k, eps) in {(0.2, 1e-3, 3, 0.1), (0.5, 1e-2, 4, 0.7), "
              "(1.0, 1e-4, 5, 1.5)}.",
              (Compare(kov_delta, "eq", worst_kfold_delta_enum,
                       Points(({"eps0": "0.2", "delta0": "1e-3", "k": 3, "eps": "0.1"},
                               {"eps0": "0.5", "delta0": "1e-2", "k": 4, "eps": "0.7"},
                               {"eps0": "1.0", "delta0": "1e-4", "k": 5, "eps": "1.5"})),
                       "oracle", Tol.abs("1e-50"), "KOV-DELTA.delta",
                       "4^k enumeration of the worst mechanism"),),
              scope="instance"),
        Claim(3, "delta_pure is affine in z = e^eps on each [z_j, z_{j+1}]: the value at the "
              "midpoint in z equals the mean of the endpoint values (eps0 = 0.3, k = 8, pieces "
              "j = 2, 4, 6, to 1e-50); symbolically for k = 8 (same pieces), y = e^eps0, z = "
              "e^eps: every term of the sum has a fixed sign on the piece.",
              (Compare(_affine_mid, "eq", _affine_mean,
                       grid(eps0=["0.3"], k=[8], j=[2, 4, 6]), "numeric", Tol.abs("1e-50"),
                       "delta_pure(midpoint in z)", "mean of endpoint values"),
               *(Smt(lambda j=j: _affine_problem(8, j),
                     f"k = 8, piece j = {j}: fixed signs of y^i - z y^(k-i)") for j in (2, 4, 6)))),
        Claim(4, "Nonincreasing in eps (strictly while eps < k eps0); equal to 1 - (1-delta0)^k "
              "for eps >= k eps0; equal to MV-OPT.delta with all eps_i = eps0, delta_i = "
              "delta0. Also, for the box enclosures of the ordering claims: delta_pure is "
              "nondecreasing in eps0, because RR(eps0') is RR(eps0) followed by a binary "
              "symmetric channel with flip probability in [0, 1/2] when eps0' <= eps0 [smt] "
              "(post-processing, SMITH-POST); and delta_pure(eps0, k, eps0 s) is nondecreasing "
              "in eps0 for fixed s [property].",
              (Compare(lambda ctx, eps0, delta0, k, eps, h, **_: kov_delta(ctx, eps0, delta0, k,
                                                                           eps + h),
                       "lt", lambda ctx, eps0, delta0, k, eps, **_: kov_delta(ctx, eps0, delta0,
                                                                              k, eps),
                       _kov_delta_box(), "property", lhs_name="delta(eps + h)",
                       rhs_name="delta(eps)", part="nonincreasing in eps"),
               Compare(lambda ctx, eps0, delta0, k, h, **_: kov_delta(ctx, eps0, delta0, k,
                                                                      k * eps0 + h),
                       "eq", lambda ctx, delta0, k, **_: 1 - ctx.pow(1 - delta0, k),
                       Box(reals={"eps0": ("0", "2"), "delta0": ("0", "0.5"), "h": ("0", "5")},
                           ints={"k": (1, 200)}), "property",
                       Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "delta(k eps0 + h)", "1 - (1 - delta0)^k",
                       part="1 - (1 - delta0)^k beyond k eps0"),
               Compare(lambda ctx, eps0, delta0, k, eps, **_: kov_delta(ctx, eps0, delta0, k,
                                                                        eps),
                       "eq", _mv_homog, Generated(_draw_homog_mv, 60, "random homogeneous lists"),
                       "property", Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**40)),
                       "KOV-DELTA.delta", "MV-OPT.delta", part="equal to MV-OPT"),
               Smt(_rr_degradation_problem, "RR(eps0') = BSC(a) o RR(eps0), a in [0, 1/2], for "
                   "0 <= eps0' <= eps0 (x = e^eps0, x' = e^eps0')",
                   part="nondecreasing in eps0"),
               Compare(lambda ctx, eps0, k, eps, h, **_: kov_delta_pure(ctx, eps0, k, eps),
                       "le", lambda ctx, eps0, k, eps, h, **_: kov_delta_pure(ctx, eps0 + h, k,
                                                                              eps),
                       Box(reals={"eps0": ("0.01", "2"), "eps": ("-2", "20"), "h": ("1e-6", "1")},
                           ints={"k": (1, 60)}, log_scale=frozenset({"h"}),
                           # outside (-k eps0, k eps0) both sides are the same constant
                           constraint=lambda p: -p["k"] * p["eps0"] < p["eps"]
                           < p["k"] * p["eps0"]), "property",
                       lhs_name="delta_pure(eps0)", rhs_name="delta_pure(eps0 + h)",
                       part="nondecreasing in eps0"),
               Compare(lambda ctx, eps0, k, s, h, **_: kov_delta_pure(ctx, eps0, k, eps0 * s),
                       "le", lambda ctx, eps0, k, s, h, **_: kov_delta_pure(ctx, eps0 + h, k,
                                                                            (eps0 + h) * s),
                       Box(reals={"eps0": ("0.01", "2"), "s": ("-5", "60"), "h": ("1e-6", "1")},
                           ints={"k": (1, 60)}, log_scale=frozenset({"h"}),
                           constraint=lambda p: p["s"] < p["k"]), "property",
                       lhs_name="delta_pure(eps0, k, eps0 s)",
                       rhs_name="delta_pure(eps0 + h, k, (eps0 + h) s)",
                       part="nondecreasing in eps0 at eps = eps0 s"))),
    ),
    notes="Large k: the sum is taken from the mode of the binomial outwards and stops once "
          "the pmf is negligible, with a certified tail enclosure (O(sqrt(k) digits) terms).",
)


# ==========================================================================================
# KOV-EPS


@exact_params("delta0", "delta")
def _kov_eps_bisection(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any, **_: Any) -> Any:
    """200-step bisection of KOV-DELTA on [0, k eps0] (an independent route to the inverse)."""
    d = to_ctx(ctx, delta)
    lo, hi = ctx.zero, k * eps0
    if ctx.le(kov_delta(ctx, eps0, delta0, k, lo), d):
        return lo
    for _ in range(200):
        mid = (lo + hi) / 2
        if ctx.le(kov_delta(ctx, eps0, delta0, k, mid), d):
            hi = mid
        else:
            lo = mid
    return hi


@exact_params("delta0", "delta")
def _kov_eps_term(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any, **_: Any) -> Any:
    return kov_eps(ctx, eps0, delta0, k, delta)


@exact_params("delta0", "delta")
def _kov_delta_at_eps_opt(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any, **_: Any) -> Any:
    return kov_delta(ctx, eps0, delta0, k, kov_eps(ctx, eps0, delta0, k, delta))


@exact_params("delta0", "delta")
def _kov_eps_structure(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any,
                       **_: Any) -> bool | None:
    """inf exactly when delta < 1 - (1-delta0)^k; 0 exactly when KOV-DELTA(0) <= delta."""
    v = kov_eps(ctx, eps0, delta0, k, delta)
    below = Fraction(delta) < 1 - (1 - Fraction(delta0)) ** k
    if below:
        return is_inf(v)
    if is_inf(v):
        return False
    at_zero = ctx.le(kov_delta(ctx, eps0, delta0, k, ctx.zero), to_ctx(ctx, delta))
    if at_zero is None:
        return None
    is_zero = bool(v.is_exact() and v == 0) if isinstance(v, flint.arb) else bool(v == 0)
    return is_zero == at_zero


_KOV_EPS_POINTS = Points((
    {"eps0": "0.1", "delta0": "0", "k": 50, "delta": "1e-6"},
    {"eps0": "0.25", "delta0": "1e-7", "k": 30, "delta": "1e-5"},
    {"eps0": "1.0", "delta0": "0", "k": 12, "delta": "1e-3"},
))


KOV_EPS = Theorem(
    id="KOV-EPS",
    title="Optimal eps as a function of delta (exact inverse)",
    family=FAMILY,
    source=cite(KOV, "Thm 3.3 / [MV] Thm 1.4, inverted"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "eps_opt(delta) = min{eps >= 0 : KOV-DELTA.delta(eps) <= delta}, infinite when delta < "
        "1 - (1-delta0)^k. With T = 1 - (1-delta)/(1-delta0)^k, on the piece between the atoms "
        "z_{j-1}, z_j the pure part is A_j - z B_j (suffix sums over i >= j), so z = (A_j - T)/"
        "B_j and eps = max(0, ln z) on the right piece."),
    domain="eps0 > 0, delta0 in [0, 1), k >= 1 integer, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (EPS0_POS, DELTA0, K, DELTA), kov_eps,
                  "exact piecewise inverse of KOV-DELTA (inf when delta < 1 - (1-delta0)^k)"),
    ),
    claims=(
        Claim(1, "The exact piecewise inverse equals 200-step bisection on KOV-DELTA to 1e-46 "
              "at (eps0, delta0, k, delta) in {(0.1, 0, 50, 1e-6), (0.25, 1e-7, 30, 1e-5), "
              "(1.0, 0, 12, 1e-3)}.",
              (Compare(_kov_eps_term, "eq", _kov_eps_bisection, _KOV_EPS_POINTS, "numeric",
                       Tol.abs("1e-46"), "KOV-EPS.eps", "bisection on KOV-DELTA", ctx="mp"),),
              scope="instance"),
        Claim(2, "KOV-DELTA.delta(eps0, delta0, k, eps_opt(delta)) = delta whenever eps_opt > 0 "
              "(rel 1e-40; the points of claims 1 and 4).",
              (Compare(_kov_delta_at_eps_opt, "eq", delta_side,
                       Points((*_KOV_EPS_POINTS.points,
                               {"eps0": "0.01", "delta0": "0", "k": 365, "delta": "1e-6"},
                               {"eps0": "0.1", "delta0": "0", "k": 100, "delta": "1e-5"},
                               {"eps0": "0.02", "delta0": "1e-9", "k": 1000, "delta": "1e-5"})),
                       "numeric", Tol.rel("1e-40"), "KOV-DELTA(eps_opt)", "delta"),)),
        Claim(3, "Returns inf exactly when delta < 1 - (1-delta0)^k, and 0 exactly when "
              "KOV-DELTA.delta(eps0, delta0, k, 0) <= delta.",
              (Predicate(_kov_eps_structure,
                         Box(reals={"eps0": ("0.001", "2"), "delta0": ("0", "0.02"),
                                    "delta": ("1e-12", "0.9")}, ints={"k": (1, 30)},
                             log_scale=frozenset({"eps0", "delta"})), "property",
                         "inf iff delta < 1 - (1-delta0)^k; 0 iff KOV-DELTA(0) <= delta"),)),
        Claim(4, "Golden values (delta0 = 0): (eps0, k, delta) = (0.01, 365, 1e-6) -> "
              "0.790112738286; (0.01, 730, 1e-6) -> 1.151273512711; (0.1, 100, 1e-5) -> "
              "4.306791372517; (1, 10, 1e-3) -> 9.976799010199.",
              tuple(Compare(_kov_eps_term, "eq", const(value),
                            points({"eps0": e0, "delta0": "0", "k": k, "delta": d}), "numeric",
                            Tol.abs("5e-13"), f"KOV-EPS.eps({e0}, 0, {k}, {d})", value)
                    for e0, k, d, value in (("0.01", 365, "1e-6", "0.790112738286"),
                                            ("0.01", 730, "1e-6", "1.151273512711"),
                                            ("0.1", 100, "1e-5", "4.306791372517"),
                                            ("1", 10, "1e-3", "9.976799010199"))),
              scope="instance"),
    ),
    notes="The suffix sums are accumulated in one pass upwards from the lowest candidate piece "
          "(truncated with a certified tail), so large k costs O(sqrt(k) digits) terms.",
)
