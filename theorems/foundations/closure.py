"""SMITH-POST and SMITH-GROUP: closure under post-processing, and group privacy.

Main results
------------
- SMITH-POST: data processing for the whole privacy profile and for the pure-DP level, over
  random finite pairs and Markov kernels (ball arithmetic and exact rationals).
- SMITH-GROUP: ``k eps0`` is attained by the Laplace mechanism on a count; the approximate-DP
  bound ``k e^{(k-1) eps} delta`` against the Gaussian (GDP) profile, at points and on a box.

The formulas are in :mod:`dpverify.theorems.formulas.group_privacy`.

References
----------
- [SmithLN] A. Smith, lecture notes (no arXiv): Lemmas 1.6, 1.7.
- [DR14] C. Dwork, A. Roth, *The Algorithmic Foundations of Differential Privacy* (2014, no
  arXiv), Sec. 2.3 (approximate-DP group privacy).
- [DRS] J. Dong, A. Roth, W. Su, *Gaussian Differential Privacy*, arXiv 1905.02383, Cor. 2.13.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
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
    grid,
)
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.gdp import gdp_delta
from dpverify.theorems.formulas.group_privacy import group_delta, group_eps
from dpverify.theorems.formulas.hockey_stick_exact import (
    hockey_stick_exact,
    max_ratio_exact,
    normalise,
)
from dpverify.theorems.formulas.laplace_calibration import laplace_llr
from dpverify.theorems.foundations.region_smt import post_ratio_problem
from dpverify.theorems.foundations.terms import FAMILY, TINY, nums
from dpverify.theorems.foundations.universal import post_problem, post_universal
from dpverify.theorems.numerics.finite import (
    hockey_stick,
    max_log_ratio,
    push_forward,
    random_distribution,
    random_pair,
)
from dpverify.theorems.params import DELTA0, EPS0, K
from dpverify.theorems.refs import SMITH_LN, cite
from dpverify.theorems.symbolic import exp_as_powers

# ==========================================================================================
# SMITH-POST

_POST_EPS_GRID = tuple(Fraction(x) for x in ("0", "0.125", "0.25", "0.5", "1", "2", "4"))
_POST_Z_GRID = tuple(Fraction(x) for x in ("1/8", "1/3", "1/2", "3/4", "1", "5/4", "2", "7",
                                           "50"))


def _draw_post(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng, allow_zero=rng.random() < 0.3)
    n_out = rng.randint(1, 6)
    kernel = tuple(random_distribution(rng, n_out, allow_zero=True) for _ in p)
    return {"p": p, "q": q, "kernel": kernel}


def _post_hs_grid(ctx: Any, p: Any, q: Any, kernel: Any, **_: Any) -> bool | None:
    """``H_{e^eps}(BP||BQ) <= H_{e^eps}(P||Q)`` at every eps of the grid (ball arithmetic)."""
    bp, bq = push_forward(p, kernel), push_forward(q, kernel)
    verdicts = [ctx.le(hockey_stick(ctx, bp, bq, e), hockey_stick(ctx, p, q, e))
                for e in (ctx.num(x) for x in _POST_EPS_GRID)]
    if False in verdicts:
        return False
    return None if None in verdicts else True


def _int_weights(rng: random.Random, n: int, positive: bool) -> tuple[int, ...]:
    w = [rng.randint(1 if positive else 0, 997) for _ in range(n)]
    if sum(w) == 0:
        w[0] = 1
    return tuple(w)


def _draw_post_exact(rng: random.Random) -> dict[str, Any]:
    """Distributions as integer weights (kept exact through the context)."""
    n_in, n_out = rng.randint(2, 6), rng.randint(1, 6)
    zeros = rng.random() < 0.3
    return {"pw": _int_weights(rng, n_in, not zeros), "qw": _int_weights(rng, n_in, not zeros),
            "kw": tuple(_int_weights(rng, n_out, False) for _ in range(n_in))}


def _draw_post_positive(rng: random.Random) -> dict[str, Any]:
    n_in, n_out = rng.randint(2, 6), rng.randint(1, 6)
    return {"pw": _int_weights(rng, n_in, True), "qw": _int_weights(rng, n_in, True),
            "kw": tuple(_int_weights(rng, n_out, True) for _ in range(n_in))}


def _post_exact_objects(pw: Sequence[int], qw: Sequence[int], kw: Sequence[Sequence[int]]
                        ) -> tuple[tuple[Fraction, ...], ...]:
    p, q = normalise(pw), normalise(qw)
    kernel = tuple(normalise(row) for row in kw)
    return p, q, push_forward(p, kernel), push_forward(q, kernel)


def _post_hs_exact(ctx: Any, pw: Any, qw: Any, kw: Any, **_: Any) -> bool:
    """``H_z(BP||BQ) <= H_z(P||Q)`` for every z of a rational grid (z = e^eps, eps = ln z,
    including eps < 0), in exact arithmetic."""
    p, q, bp, bq = _post_exact_objects(pw, qw, kw)
    return all(hockey_stick_exact(bp, bq, z) <= hockey_stick_exact(p, q, z)
               for z in _POST_Z_GRID)


def _post_ratio_exact(ctx: Any, pw: Any, qw: Any, kw: Any, **_: Any) -> bool:
    """``max_y |ln BP/BQ| <= max_y |ln P/Q|`` (as ratios ``max(r, 1/r)``), exactly."""
    p, q, bp, bq = _post_exact_objects(pw, qw, kw)
    return max_ratio_exact(bp, bq) <= max_ratio_exact(p, q)


def _post_ratio_arb(ctx: Any, pw: Any, qw: Any, kw: Any, **_: Any) -> tuple[Any, Any]:
    p, q, bp, bq = _post_exact_objects(pw, qw, kw)
    return (max_log_ratio(ctx, nums(ctx, bp), nums(ctx, bq)),
            max_log_ratio(ctx, nums(ctx, p), nums(ctx, q)))


SMITH_POST = Theorem(
    id="SMITH-POST",
    title="Post-processing",
    family=FAMILY,
    source=cite(SMITH_LN, "Lemma 1.6; [Blog] post-processing; zCDP/RDP: STK-ADAPT-POST"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "If A is eps-DP, so is B∘A for any randomised B (B(a) = f(a, R), R independent); the "
        "same closure holds for the whole privacy profile: H_{e^eps}(B(P)||B(Q)) <= "
        "H_{e^eps}(P||Q) for every Markov kernel B (data processing)."
    ),
    domain="any randomised B whose randomness is independent of the data",
    claims=(
        Claim(1, "For random finite P, Q and a random Markov kernel B, H_{e^eps}(BP||BQ) <= "
                 "H_{e^eps}(P||Q) for every eps on a grid. Proved by z3 (the problem of claim "
                 "3) for all laws on 2 points, all kernels to 2 outputs and every eps.", (
            Predicate(_post_hs_grid,
                      Generated(_draw_post, 500, "random pairs on 2..6 points and random "
                                                 "kernels to 1..6 outputs (zeros allowed)"),
                      "oracle", "H_{e^eps}(BP||BQ) <= H_{e^eps}(P||Q) for eps in "
                                "{0, 1/8, 1/4, 1/2, 1, 2, 4} (arb)"),
            Predicate(_post_hs_exact,
                      Generated(_draw_post_exact, 500, "random rational pairs and kernels "
                                                       "(integer weights, zeros allowed)"),
                      "oracle", "H_z(BP||BQ) <= H_z(P||Q) for z = e^eps in {1/8, 1/3, 1/2, "
                                "3/4, 1, 5/4, 2, 7, 50} (exact rationals, eps < 0 included)"),
            Smt(lambda: post_problem(2), "2 points -> 2 outputs: H_z(BP||BQ) <= H_z(P||Q), all "
                "z > 0, all laws and kernels"),
        )),
        Claim(2, "For the same objects, max_y |ln(BP(y)/BQ(y))| <= max_y |ln(P(y)/Q(y))|. "
                 "Proved by z3 for all full-support laws on 2 points and all kernels to 3 "
                 "outputs (every common ratio bound L of (P, Q) bounds the ratios of (BP, "
                 "BQ)), from push_forward in the sym context.", (
            Predicate(_post_ratio_exact,
                      Generated(_draw_post_positive, 500,
                                "random full-support rational pairs and kernels"),
                      "oracle", "max_y max(BP/BQ, BQ/BP) <= max_y max(P/Q, Q/P) (exact)"),
            Compare(lambda ctx, **pt: _post_ratio_arb(ctx, **pt)[0], "le",
                    lambda ctx, **pt: _post_ratio_arb(ctx, **pt)[1],
                    Generated(_draw_post_positive, 300,
                              "random full-support rational pairs and strictly positive "
                              "kernels"),
                    "oracle", lhs_name="max_y |ln BP(y)/BQ(y)|", rhs_name="max_y |ln P/Q|"),
            Smt(post_ratio_problem(2, 3), "P <= L Q and Q <= L P pointwise imply BP <= L BQ and "
                "BQ <= L BP, 2 points -> 3 outputs"),
        )),
        post_universal(3),
    ),
    aliases=("BLOG-POST",),
    notes="Source typo: the last term of Eq. (2) of [SmithLN] should read P(B(A(x')) = b).",
)


# ==========================================================================================
# SMITH-GROUP


def _group_gauss_lhs(ctx: Any, k: int, mu: Any, eps: Any, **_: Any) -> Any:
    return gdp_delta(ctx, k * mu, k * eps)


def _group_gauss_rhs(ctx: Any, k: int, mu: Any, eps: Any, **_: Any) -> Any:
    return group_delta(ctx, eps, gdp_delta(ctx, mu, eps), k)


def _smith_group_claims() -> tuple[Claim, ...]:
    f = Fraction
    eps0 = f(2, 5)
    inside = []
    attained = []
    for k in (2, 3, 5):
        b = 1 / eps0
        for y in (f(-7), f(-1), f(0)):
            attained.append({"k": k, "eps0": eps0, "y": y})
        for u in (f(1, 1000), f(1, 3), f(1, 2), f(1), f(2), f(10)):
            inside.append({"k": k, "eps0": eps0, "y": k * u if u < 1 else k + (u - 1) * b})

    def llr(ctx: Any, k: int, eps0: Any, y: Any, **_: Any) -> Any:
        # counts c = 0 and c = k, Laplace scale 1/eps0
        return laplace_llr(ctx, y, 1 / eps0, ctx.num(k))

    return (
        Claim(1, "For Laplace noise with scale 1/eps0 on a count, datasets at distance k have "
                 "supremum log-ratio exactly k eps0 (k = 2, 3, 5; eps0 = 0.4).", (
            Compare(llr, "eq", lambda ctx, k, eps0, **_: group_eps(ctx, eps0, k),
                    Points(tuple(attained)), "numeric", TINY,
                    "ln p(y)/q(y) at y <= 0 (attained)", "SMITH-GROUP.eps(eps0, k)"),
            Compare(llr, "lt", lambda ctx, k, eps0, **_: group_eps(ctx, eps0, k),
                    Points(tuple(inside)), "numeric",
                    lhs_name="ln p(y)/q(y) at y > 0", rhs_name="k eps0"),
        ), scope="instance"),
        Claim(2, "Gaussian: delta_G(k eps; k mu) <= k e^{(k-1) eps} delta_G(eps; mu) for "
                 "k = 2, 3, 5, mu = 0.5, eps = 1, with delta_G(eps; mu) = DRS-GDP.delta(mu, eps).",
              (
            Compare(_group_gauss_lhs, "le", _group_gauss_rhs,
                    grid(k=[2, 3, 5], mu=["0.5"], eps=["1"]), "numeric",
                    lhs_name="delta_G(k eps; k mu)",
                    rhs_name="k e^{(k-1) eps} delta_G(eps; mu)"),
        ), scope="instance"),
        Claim(3, "The inequality of claim 2 over the box k in {2..6}, mu in [0.05, 3], "
                 "eps in [0, 5]: searched by property over the whole box; proved by branch and "
                 "bound on the sub-box mu in [0.5, 3], eps in [0, 1] (k in {2..6}, ~800 boxes). "
                 "The rest stays searched: for eps > 1 with small mu both sides are differences "
                 "of Gaussian tails below 1e-10 whose ball enclosures do not separate, and as "
                 "mu -> 0 at eps = 0 the two sides agree to first order (ratio 0.997 at mu = "
                 "0.05, k = 5); the whole box left 1901 of 3000 boxes undecided.", (
            Compare(_group_gauss_lhs, "le", _group_gauss_rhs,
                    Box(ints={"k": (2, 6)}, reals={"mu": ("0.05", "3"), "eps": ("0", "5")}),
                    "property", lhs_name="delta_G(k eps; k mu)",
                    rhs_name="k e^{(k-1) eps} delta_G(eps; mu)"),
            Compare(_group_gauss_lhs, "le", _group_gauss_rhs,
                    Box(ints={"k": (2, 6)}, reals={"mu": ("0.5", "3"), "eps": ("0", "1")}),
                    "interval", lhs_name="delta_G(k eps; k mu)",
                    rhs_name="k e^{(k-1) eps} delta_G(eps; mu)"),
        )),
        Claim(4, "A group of one record is the record: SMITH-GROUP.eps(eps0, 1) = eps0 and "
                 "SMITH-GROUP.delta(eps0, delta0, 1) = delta0 for eps0 in [0, 10], delta0 in "
                 "[0, 1] (searched, to 1e-40; proved by z3 from the formula bodies evaluated "
                 "symbolically for every eps0 >= 0, delta0 in [0, 1]); the other claims only "
                 "bound the approximate-DP form from one side.", (
            Smt(lambda: group_of_one_problem("eps"), "SMITH-GROUP.eps(eps0, 1) = eps0, "
                "eps0 >= 0", check_model=_group_of_one_fails, part="eps"),
            Smt(lambda: group_of_one_problem("delta"), "SMITH-GROUP.delta(eps0, delta0, 1) = "
                "delta0, eps0 >= 0, delta0 in [0, 1]", check_model=_group_of_one_fails,
                part="delta"),
            Compare(lambda ctx, eps0, **_: group_eps(ctx, eps0, 1), "eq",
                    lambda ctx, eps0, **_: eps0, _GROUP_OF_ONE, "property", Tol.abs("1e-40"),
                    "SMITH-GROUP.eps(eps0, 1)", "eps0", part="eps"),
            Compare(lambda ctx, eps0, delta0, **_: group_delta(ctx, eps0, delta0, 1), "eq",
                    lambda ctx, delta0, **_: delta0, _GROUP_OF_ONE, "property",
                    Tol.abs("1e-40"), "SMITH-GROUP.delta(eps0, delta0, 1)", "delta0",
                    part="delta"),
        )),
    )


def group_of_one_problem(which: str) -> SmtProblem:
    """SMITH-GROUP claim 4, one part: ``group_eps(eps0, 1) = eps0`` (``which = "eps"``) or
    ``group_delta(eps0, delta0, 1) = delta0`` (``"delta"``), the bodies evaluated in the sympy
    context at symbols eps0 >= 0, delta0 in [0, 1] (at k = 1, ``e^{(k-1) eps0}`` is ``e^0 = 1``
    exactly). An exponential ``e^{c eps0}`` left by a wrong body becomes ``x^c`` with ``x =
    e^eps0 >= 1`` a free variable (a model is re-checked by :func:`_group_of_one_fails`)."""
    import sympy as sp

    ctx = SymCtx()
    eps0, delta0, x = sp.symbols("eps0 delta0 x", real=True)
    if which == "eps":
        lhs, rhs = group_eps(ctx, eps0, 1), eps0
    else:
        lhs, rhs = group_delta(ctx, eps0, delta0, 1), delta0
    return SmtProblem({"eps0": "real", "delta0": "real", "x": "real"},
                      (sp.Ge(eps0, 0), sp.Ge(delta0, 0), sp.Le(delta0, 1), sp.Ge(x, 1)),
                      sp.Eq(exp_as_powers(lhs, eps0, x), rhs, evaluate=False),
                      ("k = 1", f"part {which}", "x = e^eps0 >= 1 (free) for any e^{c eps0}"))


def _group_of_one_fails(ctx: Any, eps0: Any, delta0: Any, **_: Any) -> bool:
    """Does claim 4 fail at a z3 model's (eps0, delta0), either part (re-evaluated in mpmath)?"""
    gap = ctx.max(abs(group_eps(ctx, eps0, 1) - eps0), abs(group_delta(ctx, eps0, delta0, 1)
                                                            - delta0))
    return bool(gap > ctx.num(Fraction(1, 10**30)))


_GROUP_OF_ONE = Box(reals={"eps0": ("0", "10"), "delta0": ("0", "1")})


SMITH_GROUP = Theorem(
    id="SMITH-GROUP",
    title="Group privacy",
    family=FAMILY,
    source=cite(SMITH_LN, "Lemma 1.7 (pure DP); the approximate-DP analogue is standard and "
                          "not stated in the lecture notes"),
    types=("TIGHT", "BOUND"),
    confidence=("HIGH",),
    statement=(
        "If x, x' differ in k positions and A is eps-DP, P(A(x) in E) <= e^{k eps} "
        "P(A(x') in E). Approximate DP: (k eps, k e^{(k-1) eps} delta)."
    ),
    domain="k >= 1 integer (group size), eps >= 0, delta in [0, 1]",
    evaluators=(
        Evaluator("eps", (EPS0, replace(K, doc="group size")), group_eps, "k eps0"),
        Evaluator("delta", (EPS0, replace(DELTA0, hi_open=False),
                            replace(K, doc="group size")),
                  group_delta, "k e^{(k-1) eps0} delta0"),
    ),
    claims=_smith_group_claims(),
    notes="TIGHT for pure DP (Laplace witness), BOUND for approximate DP. For zCDP the "
          "group-of-k parameter is k^2 rho (STK-ZCDP-DEF).",
)
