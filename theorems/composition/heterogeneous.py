"""Optimal heterogeneous composition: MV-OPT, MV-HARD, MV-APPROX ([MV] arXiv 1507.03113,
Thm 1.5, the #P-hardness and approximation theorems).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Claim,
    Compare,
    Generated,
    Points,
    Predicate,
    Tol,
    points,
)
from dpverify.theorems.composition.terms import FAMILY, const, delta_side
from dpverify.theorems.core import Evaluator, InvalidParameter, Real, Theorem
from dpverify.theorems.formulas.kov_mv import (
    MV_MAX_ENUM_K,
    kov_delta_pure,
    mv_approx_delta_upper,
    mv_delta,
    mv_delta_pure,
    mv_eps,
)
from dpverify.theorems.numerics.composition_enum import het_rr_delta_enum, het_worst_delta_enum
from dpverify.theorems.numerics.mv_lattice import MV_MAX_LATTICE_WORK
from dpverify.theorems.params import (
    DELTA,
    DELTA_LIST,
    EPS_LIST,
    EPS_REAL,
)
from dpverify.theorems.refs import MV, cite
from dpverify.theorems.values import exact_params

# ==========================================================================================
# MV-OPT, MV-HARD, MV-APPROX


def _draw_mv_rr(rng: random.Random) -> dict[str, Any]:
    k = rng.choice([3, 5, 8])
    return {"eps_list": tuple(Fraction(rng.randint(50, 1000), 1000) for _ in range(k)),
            "eps": Fraction(rng.randint(0, 1500), 1000)}


@exact_params("eps_list")
def _mv_pure_term(ctx: Any, eps_list: Any, eps: Any, **_: Any) -> Any:
    return mv_delta_pure(ctx, eps_list, eps)


@exact_params("eps_list", "delta_list")
def _mv_delta_term(ctx: Any, eps_list: Any, eps: Any, delta_list: Any = (), **_: Any) -> Any:
    return mv_delta(ctx, eps_list, eps, delta_list)


def _het_rr_term(ctx: Any, eps_list: Any, eps: Any, **_: Any) -> Any:
    return het_rr_delta_enum(ctx, eps_list, eps)


def _het_worst_term(ctx: Any, eps_list: Any, delta_list: Any, eps: Any, **_: Any) -> Any:
    return het_worst_delta_enum(ctx, eps_list, delta_list, eps)


@exact_params("eps_list", "delta_list")
def _mv_roundtrip(ctx: Any, eps_list: Any, delta_list: Any, delta: Any, **_: Any) -> Any:
    return mv_delta(ctx, eps_list, mv_eps(ctx, eps_list, delta, delta_list), delta_list)


def _draw_mv_monotone(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 6)
    eps_list = tuple(Fraction(rng.randint(10, 1500), 1000) for _ in range(k))
    delta_list = tuple(rng.choice([Fraction(0), Fraction(rng.randint(1, 100), 10**4)])
                       for _ in range(k))
    return {"eps_list": eps_list, "delta_list": delta_list, "j": rng.randrange(k),
            "h": Fraction(rng.randint(1, 1000), 1000), "hd": Fraction(rng.randint(1, 100), 10**4),
            "eps": sum(eps_list, Fraction(0)) * Fraction(rng.randint(-500, 999), 1000)}


def _mv_bump(which: str) -> Callable[..., Any]:
    @exact_params("eps_list", "delta_list", "h", "hd")
    def term(ctx: Any, eps_list: Any, delta_list: Any, j: int, h: Any, hd: Any, eps: Any,
             **_: Any) -> Any:
        el, dl = list(eps_list), list(delta_list)
        if which == "eps":
            el[j] = el[j] + Fraction(h)
        else:
            dl[j] = dl[j] + Fraction(hd)
        return mv_delta(ctx, tuple(el), eps, tuple(dl))

    return term


def _mv_monotone(which: str) -> Callable[..., Any]:
    bumped = _mv_bump(which)

    @exact_params("eps_list", "delta_list", "h", "hd")
    def test(ctx: Any, **p: Any) -> bool | None:
        base = _mv_plain(ctx, **p)
        return ctx.le(base, bumped(ctx, **p) + ctx.num("1e-40") * ctx.abs(base))

    return test


@exact_params("eps_list", "delta_list")
def _mv_plain(ctx: Any, eps_list: Any, delta_list: Any, eps: Any, **_: Any) -> Any:
    return mv_delta(ctx, eps_list, eps, delta_list)


MV_OPT = Theorem(
    id="MV-OPT",
    title="Optimal heterogeneous composition (Murtagh–Vadhan)",
    family=FAMILY,
    source=cite(MV, "Thm 1.5; restated as [DDR] Thm 2"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "For (eps_1, delta_1), ..., (eps_k, delta_k), the optimal eps_g at delta_g is the least "
        "eps_g >= 0 with (1/prod_i(1+e^eps_i)) sum_{S subset [k]} max(e^{sum_S eps_i} - e^eps_g "
        "e^{sum_{not S} eps_i}, 0) <= 1 - (1-delta_g)/prod_i(1-delta_i); delta_opt(eps_g) = 1 - "
        "prod(1-delta_i)(1 - LHS(eps_g)). Adaptivity does not help."),
    domain=(f"eps_i >= 0, delta_i in [0, 1), eps real, delta in (0, 1); exact evaluation for at "
            f"most {MV_MAX_ENUM_K} mechanisms (subset enumeration) or for eps_i on a lattice "
            f"with k*(2*sum a_i + 1) <= {MV_MAX_LATTICE_WORK}"),
    evaluators=(
        Evaluator("delta", (EPS_LIST, EPS_REAL, replace(DELTA_LIST, min_len=0, default="")),
                  mv_delta, "1 - prod(1-delta_i)(1 - LHS(eps)); delta_list defaults to zeros"),
        Evaluator("delta_pure", (EPS_LIST, EPS_REAL), mv_delta_pure, "LHS(eps)"),
        Evaluator("eps", (EPS_LIST, DELTA, replace(DELTA_LIST, min_len=0, default="")), mv_eps,
                  "least eps >= 0 with delta_opt(eps) <= delta (bisection; inf when delta < "
                  "1 - prod(1-delta_i))"),
    ),
    claims=(
        Claim(1, "The 2^k formula equals brute force on heterogeneous RR (hockey-stick over the "
              "2^k outputs of the product) to 1e-50 for k = 3, 5, 8, random eps_i in [0.05, 1], "
              "random eps in [0, 1.5].",
              (Compare(_mv_pure_term, "eq", _het_rr_term,
                       Generated(_draw_mv_rr, 60, "random eps_list (k in {3, 5, 8}) and eps"),
                       "oracle", Tol.abs("1e-50"), "MV-OPT.delta_pure",
                       "2^k enumeration of prod RR(eps_i)"),)),
        Claim(2, "Homogeneous case: equals KOV-DELTA (k = 9, eps0 = 0.4, eps = 0.8) to 1e-50.",
              (Compare(lambda ctx, **_: mv_delta_pure(ctx, (Fraction(2, 5),) * 9, ctx.num("0.8")),
                       "eq", lambda ctx, **_: kov_delta_pure(ctx, ctx.num("0.4"), 9,
                                                             ctx.num("0.8")),
                       points({}), "numeric", Tol.abs("1e-50"), "MV-OPT.delta_pure",
                       "KOV-DELTA.delta_pure"),),
              scope="instance"),
        Claim(3, "With delta_i > 0 it equals brute force over products of heterogeneous "
              "4-point mechanisms: eps_list = (0.3, 0.7, 1.1), delta_list = (0.01, 0.002, "
              "0.03), eps in {0.2, 0.9} (to 1e-50).",
              (Compare(_mv_delta_term, "eq", _het_worst_term,
                       Points(tuple({"eps_list": (Fraction(3, 10), Fraction(7, 10),
                                                  Fraction(11, 10)),
                                     "delta_list": (Fraction(1, 100), Fraction(2, 1000),
                                                    Fraction(3, 100)), "eps": e}
                                    for e in ("0.2", "0.9"))), "oracle", Tol.abs("1e-50"),
                       "MV-OPT.delta", "4^k enumeration of prod worst(eps_i, delta_i)"),),
              scope="instance"),
        Claim(4, "Bisection for the eps form: delta(eps_list, eps(eps_list, 1e-3, delta_list), "
              "delta_list) = 1e-3 to 1e-30 for eps_list = (0.3, 0.5, 0.8), delta_list = (1e-4, "
              "0, 2e-4).",
              (Compare(_mv_roundtrip, "eq", delta_side,
                       points({"eps_list": (Fraction(3, 10), Fraction(1, 2), Fraction(4, 5)),
                               "delta_list": (Fraction(1, 10**4), Fraction(0),
                                              Fraction(2, 10**4)), "delta": "1e-3"}),
                       "numeric", Tol.abs("1e-30"), "delta(eps(1e-3))", "1e-3"),),
              scope="instance"),
        Claim(5, "Monotone: increasing any eps_i or delta_i never decreases delta_opt (to rel "
              "1e-40: the optimum can be unchanged, e.g. when every active subset pairs with "
              "its partner without mechanism j, and equality is not decidable with balls).",
              (Predicate(_mv_monotone("eps"),
                         Generated(_draw_mv_monotone, 60, "random lists, one eps_j increased"),
                         "property", "delta_opt(eps_j + h) >= delta_opt (rel 1e-40)"),
               Predicate(_mv_monotone("delta"),
                         Generated(_draw_mv_monotone, 60, "random lists, one delta_j increased"),
                         "property", "delta_opt(delta_j + hd) >= delta_opt (rel 1e-40)"))),
    ),
    notes=f"Exact evaluation enumerates 2^k subsets (meet in the middle) for k <= "
          f"{MV_MAX_ENUM_K}; beyond, only lattice inputs are accepted (MV-HARD); MV-APPROX "
          "gives an upper bound.",
)


def _distinct_primes(n: int) -> list[int]:
    out, c = [], 101
    while len(out) < n:
        if all(c % p for p in range(2, int(c**0.5) + 1)):
            out.append(c)
        c += 1
    return out


def _refuses_large_k(ctx: Any, **_: Any) -> bool:
    """MV-OPT refuses MV_MAX_ENUM_K + 1 mechanisms off a small lattice, naming eps_list and the
    limit; and accepts MV_MAX_ENUM_K of them."""
    k = MV_MAX_ENUM_K + 1
    eps_list = tuple(Fraction(1, p) for p in _distinct_primes(k))
    try:
        mv_delta(ctx, eps_list, ctx.num("0.1"))
    except InvalidParameter as e:
        refused = "eps_list" in str(e) and str(MV_MAX_ENUM_K) in str(e)
    else:
        refused = False
    value = mv_delta_pure(ctx, eps_list[:MV_MAX_ENUM_K], ctx.num("0.1"))
    return refused and bool(ctx.le(ctx.zero, value))


MV_HARD = Theorem(
    id="MV-HARD",
    title="#P-completeness of optimal heterogeneous composition",
    family=FAMILY,
    source=cite(MV, "main hardness theorem (number not verified); [GCE] Sec. II-B"),
    types=("EXACT",),
    confidence=("HIGH", "UNCERTAIN"),
    statement=(
        "Computing the optimal heterogeneous composition exactly is #P-complete: no poly(k)-time "
        "exact algorithm exists unless FP = #P."),
    domain="heterogeneous (eps_i, delta_i) given as rationals",
    claims=(
        Claim(1, f"Not numerically checkable. MV-OPT documents its limit: it enumerates 2^k "
              f"subsets for at most {MV_MAX_ENUM_K} mechanisms (accepted), and refuses "
              f"{MV_MAX_ENUM_K + 1} mechanisms off a small lattice with an InvalidParameter "
              f"naming eps_list and the limit.",
              (Predicate(_refuses_large_k, points({}), "property",
                         f"k = {MV_MAX_ENUM_K + 1} refused, k = {MV_MAX_ENUM_K} accepted"),)),
    ),
    notes="The polynomial-time approximation is MV-APPROX.",
)


_MV_APPROX_LIST = (Fraction(3, 10), Fraction(11, 20), Fraction(9, 10), Fraction(1, 5),
                   Fraction(41, 100))


@exact_params("eps_list", "step")
def _mv_upper_term(ctx: Any, eps_list: Any, eps: Any, step: Any, **_: Any) -> Any:
    return mv_approx_delta_upper(ctx, eps_list, eps, step)


@exact_params("eps_list", "step")
def _mv_excess(ctx: Any, eps_list: Any, eps: Any, step: Any, **_: Any) -> Any:
    return mv_approx_delta_upper(ctx, eps_list, eps, step) - mv_delta_pure(ctx, eps_list, eps)


def _excess_shrinks(ctx: Any, **_: Any) -> bool | None:
    eps = ctx.num("0.5")
    exact = mv_delta_pure(ctx, _MV_APPROX_LIST, eps)
    ex = [mv_approx_delta_upper(ctx, _MV_APPROX_LIST, eps, Fraction(s)) - exact
          for s in ("0.07", "0.03", "0.007")]
    a, b = ctx.lt(ex[1], ex[0]), ctx.lt(ex[2], ex[1])
    if a is None or b is None:
        return None
    return a and b


def _draw_mv_approx(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 6)
    eps_list = tuple(Fraction(rng.randint(20, 1500), 997) for _ in range(k))
    return {"eps_list": eps_list, "step": Fraction(rng.randint(5, 100), 1000),
            "eps": sum(eps_list, Fraction(0)) * Fraction(rng.randint(-300, 999), 1000)}


MV_APPROX = Theorem(
    id="MV-APPROX",
    title="Polynomial-time approximation of the optimal composition",
    family=FAMILY,
    source=cite(MV, "approximation theorem (a modification of Dyer's knapsack dynamic "
                  "program; number and running time not recovered)"),
    types=("ALGORITHM",),
    confidence=("HIGH", "UNCERTAIN"),
    statement=(
        "[MV]: an algorithm outputs eps* with OPT <= eps* <= OPT + eta in time polynomial in k, "
        "1/eta and sum eps_i. Lattice analogue encoded here (an upper bound, not [MV]'s "
        "algorithm): round every eps_i up to a_i step, a_i = ceil(eps_i/step) exactly; the "
        "privacy loss lives on step Z; its law is computed by a knapsack dynamic program in "
        "O(k sum a_i) and delta_upper = sum_s P(S = s) max(0, 1 - e^{eps - s step})."),
    domain="eps_i >= 0, step > 0 (pure DP)",
    evaluators=(
        Evaluator("delta_upper", (EPS_LIST, EPS_REAL, Real("step", lo=0, lo_open=True,
                                                          doc="lattice step")),
                  mv_approx_delta_upper, "lattice upper bound on MV-OPT.delta_pure"),
    ),
    claims=(
        Claim(1, "eps_list = (0.3, 0.55, 0.9, 0.2, 0.41), eps = 0.5: the lattice value is >= "
              "the exact MV-OPT value at steps 0.07, 0.03, 0.007 and the excess shrinks "
              "monotonically (0.0108, 0.0060, 0.0022).",
              (Compare(_mv_upper_term, "ge", _mv_pure_term,
                       Points(tuple({"eps_list": _MV_APPROX_LIST, "eps": "0.5", "step": s}
                                    for s in ("0.07", "0.03", "0.007"))), "numeric",
                       lhs_name="MV-APPROX.delta_upper", rhs_name="MV-OPT.delta_pure"),
               *(Compare(_mv_excess, "eq", const(v),
                         points({"eps_list": _MV_APPROX_LIST, "eps": "0.5", "step": s}),
                         "numeric", Tol.abs("5e-5"), f"excess at step {s}", v)
                 for s, v in (("0.07", "0.0108"), ("0.03", "0.0060"), ("0.007", "0.0022"))),
               Predicate(_excess_shrinks, points({}), "numeric",
                         "excess(0.007) < excess(0.03) < excess(0.07)")),
              scope="instance"),
        Claim(2, "With step = 0.01, which divides every eps_i, the lattice value equals the "
              "exact MV-OPT value (subset enumeration) to 1e-35.",
              (Compare(_mv_upper_term, "eq", _mv_pure_term,
                       points({"eps_list": _MV_APPROX_LIST, "eps": "0.5", "step": "0.01"}),
                       "numeric", Tol.abs("1e-35"), "MV-APPROX.delta_upper(step 0.01)",
                       "MV-OPT.delta_pure"),),
              scope="instance"),
        Claim(3, "For random eps_list and step, delta_upper >= MV-OPT.delta_pure.",
              (Compare(_mv_upper_term, "ge", _mv_pure_term,
                       Generated(_draw_mv_approx, 100, "random eps_list (k <= 6) and step"),
                       "property", lhs_name="MV-APPROX.delta_upper",
                       rhs_name="MV-OPT.delta_pure"),)),
    ),
    notes="The lattice bound is a rounding-up analogue, not [MV]'s algorithm; its error is not "
          "controlled by a tolerance eta as in [MV].",
)
