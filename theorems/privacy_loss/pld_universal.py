"""Universal claims of STK-PLD-DEF, STK-APPROX-PLD and STK-COMP-PLD (issue 11): property
search over stated boxes plus an SMT or interval proof over a region.

Facts relied on: the PLD of a finite pair is the list of atoms ``(log(P(y)/Q(y)), P(y))``
([S22] arXiv 2210.00597v4, Sec. 3); the Gaussian PLD is ``N(rho, 2 rho)``, ``rho = 1/(2
sigma^2)`` ([S22] Sec. 3.1), and the sum of k independent copies is ``N(k rho, 2k rho)`` (sum
of independent normals; [S22] Sec. 4); the PLD closed form of the hockey-stick divergence is
:func:`~dpverify.theorems.formulas.gaussian.normal_pld_delta` (derived there by exponential
tilting, independently of [BW18]).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Smt, SmtProblem, Tol, eq_checks
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.gaussian import (
    comp_gauss_delta,
    comp_gauss_eps,
    gauss_delta,
    gauss_pld_mean,
    normal_pld_delta,
)
from dpverify.theorems.numerics.finite import privacy_loss_atoms, renyi
from dpverify.theorems.privacy_loss.universal import real_vars, seeded_pair
from dpverify.theorems.symbolic import strip_log

# ==========================================================================================
# STK-PLD-DEF


def pld_moment(ctx: Any, p: Any, q: Any, g: Any) -> Any:
    """``E[g(Z)]`` for ``Z ~ PrivLoss(P||Q)`` from the PLD atoms."""
    return ctx.fsum(prob * g(z) for z, prob in privacy_loss_atoms(ctx, p, q))


def _three_output_pair() -> tuple[list[Any], list[Any], list[Any]]:
    import sympy as sp

    p = list(sp.symbols("p1 p2 p3", positive=True))
    q = list(sp.symbols("q1 q2 q3", positive=True))
    hyps = [sp.Eq(sum(p), 1), sp.Eq(sum(q), 1)]
    return p, q, hyps


def _mass_problem() -> SmtProblem:
    import sympy as sp

    ctx = SymCtx()
    p, q, hyps = _three_output_pair()
    lhs = pld_moment(ctx, p, q, lambda z: sp.exp(-z))
    return SmtProblem(real_vars(*p, *q), tuple(hyps), sp.Eq(sp.cancel(lhs), 1),
                      ("Z = log(P(y)/Q(y)) on the 3 outputs (full support)",))


def mgf_problem(alpha: int) -> SmtProblem:
    import sympy as sp

    ctx = SymCtx()
    p, q, hyps = _three_output_pair()
    a = sp.Integer(alpha)
    mgf = pld_moment(ctx, p, q, lambda z: sp.exp((a - 1) * z))
    direct = strip_log(renyi(ctx, p, q, a), a - 1)
    return SmtProblem(real_vars(*p, *q), tuple(hyps),
                      sp.Eq(sp.cancel(sp.together(mgf - direct)), 0),
                      (f"alpha = {alpha}", "e^{(alpha-1) D_alpha} = sum P^alpha Q^{1-alpha}"))


def _seeded_mass(ctx: Any, seed: int, **_: Any) -> Any:
    p, q = seeded_pair(seed)
    return pld_moment(ctx, ctx.convert(p), ctx.convert(q), lambda z: ctx.exp(-z))


def _seeded_mgf_renyi(ctx: Any, seed: int, alpha: Any, **_: Any) -> Any:
    p, q = seeded_pair(seed)
    p, q = ctx.convert(p), ctx.convert(q)
    return ctx.log(pld_moment(ctx, p, q, lambda z: ctx.exp((alpha - 1) * z))) / (alpha - 1)


def _seeded_renyi(ctx: Any, seed: int, alpha: Any, **_: Any) -> Any:
    p, q = seeded_pair(seed)
    return renyi(ctx, ctx.convert(p), ctx.convert(q), alpha)


_SEEDS = {"seed": (0, 2**31 - 1)}


def pld_def_universal() -> tuple[Claim, ...]:
    return (
        Claim(5, "E[e^{-Z}] = Q(supp P) = 1 for every pair with full support: proved for all "
                 "pairs on 3 outputs (z3, the PLD atoms evaluated symbolically: e^{-log(P/Q)} P "
                 "= Q); searched on seeded random pairs on 2–6 outputs (rational, to 1e-40).",
              (Compare(_seeded_mass, "eq", lambda ctx, **_: ctx.one, Box(ints=_SEEDS),
                       "property", Tol.abs("1e-40"), "E[e^{-Z}] (PLD atoms)", "1"),
               Smt(_mass_problem, "sum_y P(y) e^{-log(P(y)/Q(y))} = 1 on 3 outputs"))),
        Claim(6, "D_alpha(P||Q) = log E[e^{(alpha-1)Z}]/(alpha-1) for every full-support pair: "
                 "proved for all pairs on 3 outputs at alpha in {2, 3} (z3, both sides from the "
                 "formulas: the PLD moment and the direct sum P^alpha Q^{1-alpha}); searched on "
                 "seeded random pairs on 2–6 outputs and real alpha in [1.01, 40].",
              (Compare(_seeded_mgf_renyi, "eq", _seeded_renyi,
                       Box(ints=_SEEDS, reals={"alpha": ("1.01", "40")},
                           log_scale=frozenset({"alpha"})),
                       "property", Tol.abs("1e-35"), "log E[e^{(alpha-1)Z}]/(alpha-1)",
                       "D_alpha(P||Q)"),
               Smt(lambda: mgf_problem(2), "E[e^{Z}] = sum P^2/Q on 3 outputs (alpha = 2)"),
               Smt(lambda: mgf_problem(3), "E[e^{2Z}] = sum P^3/Q^2 on 3 outputs (alpha = 3)"))),
    )


# ==========================================================================================
# STK-APPROX-PLD and STK-COMP-PLD


def _gauss_pld_form(ctx: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    return normal_pld_delta(ctx, gauss_pld_mean(ctx, sigma), eps)


def _gauss_bw(ctx: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    return gauss_delta(ctx, sigma, eps)


def approx_pld_universal() -> tuple[Claim, ...]:
    box = Box(reals={"sigma": ("0.25", "8"), "eps": ("-4", "8")}, log_scale=frozenset({"sigma"}))
    return (
        Claim(6, "For every sigma in [0.25, 8] and eps in [-4, 8], the PLD form E[max(0, 1 - "
                 "e^{eps-Z})] of the Gaussian, in closed form Phi((rho - eps)/sqrt(2 rho)) - e^eps "
                 "Phi((-rho - eps)/sqrt(2 rho)) (Z ~ N(rho, 2 rho), exponential tilting), equals "
                 "BW-ANALYTIC-GAUSS.delta(sigma, eps) to 1e-30: searched (property) and proved "
                 "as two inequalities over the whole box (interval).",
              eq_checks(_gauss_pld_form, _gauss_bw, box, "1e-30",
                        "E[(1 - e^{eps-Z})_+], Z ~ N(rho, 2 rho)", "BW closed form")),
    )


def _comp_pld_form(ctx: Any, sigma: Any, k: int, eps: Any, **_: Any) -> Any:
    return normal_pld_delta(ctx, k * gauss_pld_mean(ctx, sigma), eps)


def _comp_delta(ctx: Any, sigma: Any, k: int, eps: Any, **_: Any) -> Any:
    return comp_gauss_delta(ctx, sigma, k, eps)


def _delta_at_zero(point: dict[str, Any]) -> float:
    """``comp_gauss_delta(sigma, k, 0) = 2 Phi(sqrt(k)/(2 sigma)) - 1`` in floats (only to keep
    the round trip's target below the profile at eps = 0, where eps(delta) = 0)."""
    return math.erf(math.sqrt(point["k"]) / (2 * float(point["sigma"])) / math.sqrt(2))


def _round_trip(ctx: Any, sigma: Any, k: int, delta: Any, **_: Any) -> Any:
    return comp_gauss_delta(ctx, sigma, k, comp_gauss_eps(ctx, sigma, k, delta))


def comp_pld_universal() -> tuple[Claim, ...]:
    box = Box(reals={"sigma": ("0.5", "8"), "eps": ("-2", "6")}, ints={"k": (1, 6)},
              log_scale=frozenset({"sigma"}))
    search = Box(reals={"sigma": ("0.5", "64"), "eps": ("-2", "6")}, ints={"k": (1, 1000)},
                 log_scale=frozenset({"sigma"}))
    trip = Box(reals={"sigma": ("0.5", "64"), "delta": ("1e-12", "0.9")}, ints={"k": (1, 1000)},
               log_scale=frozenset({"sigma", "delta"}),
               constraint=lambda pt: float(pt["delta"]) < 0.999 * _delta_at_zero(pt))
    prop, up, down = eq_checks(_comp_delta, _comp_pld_form, box, "1e-30",
                               "STK-COMP-PLD.delta(sigma, k, eps)",
                               "E[(1 - e^{eps-Z})_+], Z ~ N(k rho, 2k rho)")
    prop = Compare(prop.lhs, "eq", prop.rhs, search, "property", prop.tol, prop.lhs_name,
                   prop.rhs_name)
    return (
        Claim(4, "k-fold composition of the Gaussian: STK-COMP-PLD.delta(sigma, k, eps) equals "
                 "the PLD form for the convolution Z_1 + ... + Z_k ~ N(k rho, 2k rho) in closed "
                 "form (Phi((k rho - eps)/sqrt(2k rho)) - e^eps Phi((-k rho - eps)/sqrt(2k rho)), "
                 "exponential tilting) to 1e-30: proved as two inequalities over sigma in [0.5, "
                 "8], eps in [-2, 6] for each k in {1..6} (interval); searched on sigma in [0.5, "
                 "64], eps in [-2, 6], k in {1..1000} (property).",
              (prop, up, down)),
        Claim(5, "Round trip of the inverse evaluator: delta(sigma, k, eps(sigma, k, delta)) = "
                 "delta (rel 1e-20) for sigma in [0.5, 64], k in {1..1000}, delta in [1e-12, 0.9] "
                 "below the profile at eps = 0 (where eps = 0 and the round trip is an "
                 "inequality); searched only (the inverse is a bisection).",
              (Compare(_round_trip, "eq", lambda ctx, delta, **_: delta, trip, "property",
                       Tol(rel_tol=Fraction(1, 10**20)), "delta(sigma, k, eps(sigma, k, delta))",
                       "delta"),)),
    )
