"""Rényi DP: STK-PDP-ZCDP (pure DP implies zCDP; the sharp RDP curve of pure DP, attained by RR)
and STK-RDP-DEF (the definition and its monotonicity in the order).

Formulas: :mod:`dpverify.theorems.formulas.rr`.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Generated, Smt, SmtProblem, Tol, grid
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.rr import pdp_rho, pdp_rho_simple, pdp_tau
from dpverify.theorems.numerics.finite import (
    random_eps_dp_pair,
    random_pair,
    randomized_response,
    renyi,
)
from dpverify.theorems.params import ALPHA, EPS0
from dpverify.theorems.privacy_loss.common import FAMILY, sym
from dpverify.theorems.privacy_loss.universal import (
    moment_in_powers,
    real_vars,
    seeded_eps_dp_pair,
    seeded_pair,
)
from dpverify.theorems.refs import BS16, MIR17, cite
from dpverify.theorems.symbolic import strip_log

# ==========================================================================================
# STK-PDP-ZCDP


def _rr_renyi(ctx: Any, eps0: Any, alpha: Any) -> Any:
    p, q = randomized_response(ctx, eps0)
    return renyi(ctx, p, q, alpha)


def _pdp_identity_problem() -> SmtProblem:
    import sympy as sp

    eps, x, w, T = sym("eps", "x", "w", "T")
    return SmtProblem(
        {"eps": "real", "x": "real", "w": "real", "T": "real"},
        (sp.Gt(w, 0), sp.Eq(x, w**2), sp.Eq(T * (w**2 + 1), w**2 - 1)),
        sp.Eq(eps * (x - 1), eps * T * (x + 1)),
        ("x = e^eps", "w = e^{eps/2}", "T = tanh(eps/2) = (w - 1/w)/(w + 1/w)"),
    )


def _draw_seeded_pair(seed: int, r_num: int) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    return random_eps_dp_pair(random.Random(seed), r_num, 100)


def _seeded_pair_renyi(ctx: Any, seed: int, r_num: int, alpha: Any) -> Any:
    p, q = _draw_seeded_pair(seed, r_num)
    return renyi(ctx, tuple(ctx.num(x) for x in p), tuple(ctx.num(x) for x in q), alpha)


def _seeded_pair_tau(ctx: Any, seed: int, r_num: int, alpha: Any) -> Any:
    eps0 = ctx.log(1 + ctx.num(Fraction(r_num, 100)))  # the pair is eps0-DP for this eps0
    return pdp_tau(ctx, eps0, alpha)


_PDP_GRID = grid(eps0=["0.5", "1", "2"], alpha=["1.5", "4"])

STK_PDP_ZCDP = Theorem(
    id="STK-PDP-ZCDP",
    title="Pure DP implies zCDP (and the sharp RDP curve of pure DP)",
    family=FAMILY,
    source=cite(BS16, "Prop. 1.4 (eps^2/2); sharp forms: [SteinkeBlog24] Thm 4 (RDP "
                  "curve) and its zCDP corollary; [S22] Sec. 4.1"),
    types=("BOUND", "TIGHT"),
    confidence=("HIGH",),
    statement=(
        "eps-DP => (eps^2/2)-zCDP; sharp: eps-DP => rho-zCDP with rho = eps (e^eps - 1)/(e^eps + "
        "1) = eps tanh(eps/2) <= eps^2/2. The sharp RDP curve of eps-DP is eps_hat(alpha) = "
        "log(e^{alpha eps}/(e^eps + 1) + e^eps e^{-alpha eps}/(e^eps + 1))/(alpha - 1), attained "
        "by randomized response."
    ),
    domain="eps >= 0, alpha > 1",
    evaluators=(
        Evaluator("rho", (EPS0,), pdp_rho, "eps0 tanh(eps0/2) (sharp)"),
        Evaluator("rho_simple", (EPS0,), pdp_rho_simple, "eps0^2/2"),
        Evaluator("tau", (EPS0, ALPHA), pdp_tau, "eps_hat(alpha), the sharp RDP curve"),
    ),
    claims=(
        Claim(1, "The Rényi divergence of RR(eps) equals eps_hat(alpha) to 1e-45 for eps in "
                 "{0.5, 1, 2} and alpha in {1.5, 4}.",
              (Compare(_rr_renyi, "eq", pdp_tau, _PDP_GRID, "oracle", Tol.abs("1e-45"),
                       "D_alpha(RR(eps))", "eps_hat(alpha)"),), scope="instance"),
        Claim(2, "D_alpha(RR(eps)) <= alpha eps tanh(eps/2) (same grid).",
              (Compare(_rr_renyi, "le", lambda ctx, eps0, alpha: alpha * pdp_rho(ctx, eps0),
                       _PDP_GRID, "numeric", lhs_name="D_alpha(RR(eps))",
                       rhs_name="alpha eps tanh(eps/2)"),), scope="instance"),
        Claim(3, "lim_{alpha->1} D_alpha(RR(eps))/alpha = eps tanh(eps/2) (evaluated at alpha = "
                 "1 + 1e-20, to 1e-18).",
              (Compare(lambda ctx, eps0, alpha: _rr_renyi(ctx, eps0, alpha) / alpha, "eq",
                       lambda ctx, eps0, **_: pdp_rho(ctx, eps0),
                       grid(eps0=["0.5", "1", "2"], alpha=["1.00000000000000000001"]),
                       "numeric", Tol.abs("1e-18"), "D_alpha(RR(eps))/alpha at alpha = 1+1e-20",
                       "eps tanh(eps/2)"),), scope="instance"),
        Claim(4, "eps tanh(eps/2) <= eps^2/2 for eps in {0.5, 1, 2}, and over the box eps in "
                 "[0, 50].",
              (Compare(pdp_rho, "le", pdp_rho_simple, grid(eps0=["0.5", "1", "2"]), "numeric",
                       lhs_name="eps tanh(eps/2)", rhs_name="eps^2/2"),
               Compare(pdp_rho, "le", pdp_rho_simple, Box(reals={"eps0": ("0", "50")}),
                       "interval", lhs_name="eps tanh(eps/2)", rhs_name="eps^2/2"))),
        Claim(5, "eps (e^eps - 1)/(e^eps + 1) = eps tanh(eps/2) (identity after x = e^eps).",
              (Smt(_pdp_identity_problem,
                   "eps (x - 1)/(x + 1) = eps T with x = w^2, T (w^2 + 1) = w^2 - 1, w > 0"),)),
        Claim(6, "For any random finite eps-DP pair, D_alpha <= eps_hat(alpha). Proved by z3 "
                 "for every pair on 2 outputs with all ratios in [1/r, r] at alpha = 2 (both "
                 "moments from the formula bodies, e^eps = r; alpha = 3 and 3 outputs return "
                 "unknown within 30 s); searched on seeded random pairs on 2–5 outputs, r = 1 + "
                 "r_num/100 with r_num in {1..400}, real alpha in [1.01, 40].",
              (Compare(_seeded_pair_renyi, "le", _seeded_pair_tau,
                       Box(ints={"seed": (0, 2**31 - 1), "r_num": (1, 400)},
                           reals={"alpha": ("1.01", "40")}, log_scale=frozenset({"alpha"})),
                       "property", lhs_name="D_alpha(P||Q), P/Q in [1/r, r]",
                       rhs_name="eps_hat(alpha) at eps = log r"),
               Smt(lambda: _rdp_of_dp_problem(2, 2, sharp=True),
                   "sum P^2/Q <= (r^2 - r + 1)/r = e^{eps_hat(2)} on 2 outputs"))),
    ),
    aliases=("STK-BLOG-PDP-RDP",),
    notes="The zCDP value eps tanh(eps/2) is the alpha -> 1 limit of eps_hat(alpha)/alpha (the "
          "KL divergence of RR). Claim 6 draws exact eps-DP pairs with ratio bound r = 1 + "
          "r_num/100 from a seed, so hypothesis searches and shrinks over (seed, r_num, alpha).",
)


# ==========================================================================================
# STK-RDP-DEF


def _draw_eps_dp(rng: random.Random) -> dict[str, Any]:
    num = rng.randint(1, 300)
    p, q = random_eps_dp_pair(rng, num, 100)
    return {"p": p, "q": q, "r": 1 + Fraction(num, 100),
            "alpha": 1 + Fraction(rng.randint(1, 4000), 100)}


def _draw_two_orders(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng)
    a1 = 1 + Fraction(rng.randint(1, 2000), 100)
    return {"p": p, "q": q, "alpha1": a1, "alpha2": a1 + Fraction(rng.randint(1, 2000), 100)}


_DP_BOX = Box(ints={"seed": (0, 2**31 - 1), "r_num": (1, 400)},
              reals={"alpha": ("1.01", "40")}, log_scale=frozenset({"alpha"}))


def _seeded_renyi(ctx: Any, seed: int, alpha: Any) -> Any:
    p, q = seeded_pair(seed)
    return renyi(ctx, ctx.convert(p), ctx.convert(q), alpha)


def _seeded_renyi_dp(ctx: Any, seed: int, r_num: int, alpha: Any, **_: Any) -> Any:
    p, q = seeded_eps_dp_pair(seed, r_num)
    return renyi(ctx, ctx.convert(p), ctx.convert(q), alpha)


def _seeded_log_r(ctx: Any, r_num: int, **_: Any) -> Any:
    return ctx.log(1 + ctx.num(Fraction(r_num, 100)))


def _rdp_of_dp_problem(alpha: int, outputs: int, sharp: bool = False) -> SmtProblem:
    """``e^{(alpha-1) D_alpha(P||Q)} <= r^{alpha-1}`` (``sharp``: ``<= e^{(alpha-1)
    eps_hat(alpha)}``, STK-PDP-ZCDP.tau from its formula body at e^eps = r) for every pair on
    ``outputs`` outputs with all ratios in [1/r, r]."""
    import sympy as sp

    ctx = SymCtx()
    p = list(sp.symbols(" ".join(f"p{i}" for i in range(1, outputs + 1)), positive=True))
    q = list(sp.symbols(" ".join(f"q{i}" for i in range(1, outputs + 1)), positive=True))
    r = sp.Symbol("r", positive=True)
    a = sp.Integer(alpha)
    moment = strip_log(renyi(ctx, p, q, a), a - 1)
    hyps = [sp.Eq(sum(p), 1), sp.Eq(sum(q), 1), sp.Ge(r, 1)]
    hyps += [sp.Le(pi, r * qi) for pi, qi in zip(p, q, strict=True)]
    hyps += [sp.Le(qi, r * pi) for pi, qi in zip(p, q, strict=True)]
    num, den = sp.fraction(sp.together(moment))  # den: a product of powers of the q_i > 0
    if not sharp:
        return SmtProblem(real_vars(*p, *q, r), tuple(hyps),
                          sp.Le(sp.expand(num), sp.expand(r ** (a - 1) * den)),
                          ("x = e^eps = r", f"alpha = {alpha}",
                           "e^{(alpha-1) D_alpha} = sum P^alpha Q^{1-alpha}",
                           "multiplied by its denominator, a product of powers of the Q(y) > 0"))
    eps = sp.Symbol("eps", positive=True)
    bound = moment_in_powers(pdp_tau(ctx, eps, a), a, eps, r)
    b_num, b_den = sp.fraction(bound)  # b_den: a polynomial in r with positive coefficients
    # the last masses eliminated by the sum constraints (z3 then closes 2 outputs, alpha = 2)
    last = {p[-1]: 1 - sum(p[:-1]), q[-1]: 1 - sum(q[:-1])}
    hyps = [h.subs(last) for h in hyps[2:]] + [sp.Gt(v, 0) for v in last.values()]
    return SmtProblem(real_vars(*p[:-1], *q[:-1], r), tuple(hyps),
                      sp.Le(sp.expand((num * b_den).subs(last)),
                            sp.expand((b_num * den).subs(last))),
                      ("x = e^eps = r", f"alpha = {alpha}",
                       "e^{(alpha-1) D_alpha} = sum P^alpha Q^{1-alpha}",
                       f"e^{{(alpha-1) eps_hat(alpha)}} = {bound}",
                       "cross-multiplied by the positive denominators",
                       "P(last) = 1 - sum of the others, likewise Q"))


STK_RDP_DEF = Theorem(
    id="STK-RDP-DEF",
    title="Rényi DP",
    family=FAMILY,
    source=cite(MIR17, "Def. 4; [S22] Sec. 6.4 (result numbers there not confirmed)"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "(alpha, tau)-RDP means D_alpha(M(x)||M(x')) <= tau for all neighbours, i.e. "
        "E[e^{(alpha-1)Z}] <= e^{(alpha-1)tau}. Adaptive composition adds tau's; closed under "
        "post-processing; rho-zCDP <=> (alpha, alpha rho)-RDP for all alpha > 1; eps-DP => "
        "(alpha, eps)-RDP (and the sharper STK-PDP-ZCDP curve)."
    ),
    domain="alpha > 1, tau >= 0",
    claims=(
        Claim(1, "For random finite eps-DP pairs, D_alpha <= eps for every alpha > 1. Proved "
                 "by z3 for every pair on 2 outputs at alpha = 2 (the problem of claim 3, which "
                 "states the same fact for all pairs); certified on random pairs on 2–6 outputs, "
                 "alpha in (1, 41].",
              (Compare(lambda ctx, p, q, alpha, **_: renyi(ctx, p, q, alpha), "le",
                       lambda ctx, r, **_: ctx.log(r),
                       Generated(_draw_eps_dp, 100, "random pairs with P/Q in [1/r, r], eps = "
                                                    "log r, alpha in (1, 41]"),
                       "oracle", lhs_name="D_alpha(P||Q)", rhs_name="eps = log r"),
               Smt(lambda: _rdp_of_dp_problem(2, 2),
                   "sum P^2/Q <= r on 2 outputs (alpha = 2)"))),
        Claim(2, "D_alpha(P||Q) is nondecreasing in alpha for random finite pairs.",
              (Compare(lambda ctx, p, q, alpha1, **_: renyi(ctx, p, q, alpha1), "le",
                       lambda ctx, p, q, alpha2, **_: renyi(ctx, p, q, alpha2),
                       Generated(_draw_two_orders, 100, "random pairs, 1 < alpha1 < alpha2"),
                       "oracle", lhs_name="D_alpha1", rhs_name="D_alpha2"),)),
        Claim(3, "eps-DP implies (alpha, eps)-RDP: for every pair with all ratios P(y)/Q(y) in "
                 "[1/r, r], e^{(alpha-1) D_alpha} = sum P (P/Q)^{alpha-1} <= r^{alpha-1}. Proved "
                 "by z3 for all pairs on 2 outputs at alpha = 2 (x = e^eps = r; D_alpha from the "
                 "formula, symbolically; 3 outputs or alpha = 3 return unknown within 15 s); "
                 "searched on seeded random pairs with r = 1 + "
                 "r_num/100, r_num in {1..400}, and real alpha in [1.01, 40].",
              (Compare(_seeded_renyi_dp, "le", _seeded_log_r, _DP_BOX, "property",
                       lhs_name="D_alpha(P||Q)", rhs_name="eps = log r"),
               Smt(lambda: _rdp_of_dp_problem(2, 2),
                   "sum P^2/Q <= r on 2 outputs (alpha = 2)"))),
        Claim(4, "D_alpha(P||Q) is nondecreasing in alpha: searched on seeded random pairs on "
                 "2–6 outputs, alpha in [1.01, 40], alpha + d with d in [0.01, 40] (no region "
                 "proof: the orders enter as real exponents).",
              (Compare(lambda ctx, seed, alpha, **_: _seeded_renyi(ctx, seed, alpha), "le",
                       lambda ctx, seed, alpha, d, **_: _seeded_renyi(ctx, seed, alpha + d),
                       Box(ints={"seed": (0, 2**31 - 1)},
                           reals={"alpha": ("1.01", "40"), "d": ("1/100", "40")}),
                       "property", lhs_name="D_alpha", rhs_name="D_{alpha + d}"),)),
    ),
)
