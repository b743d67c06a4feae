"""Universal claims of the privacy_loss family (issue 11): each statement is searched by
hypothesis over a stated box (route ``property``) and attempted over a region by z3 (the
polynomial form of the SAME formula bodies, evaluated in :class:`SymCtx`) or by interval
branch and bound.

Facts relied on (besides the cited formulas): the Gaussian density integrates to 1; for
``Z ~ N(m, v)``, ``E[e^{tZ} 1{Z > c}] = e^{tm + t^2 v/2} P[N(m + tv, v) > c]`` (exponential
tilting); the product of k independent ``N(1, s^2)`` releases is ``N(1_k, s^2 I_k)``, whose
distance to ``N(0, s^2 I_k)`` has norm ``sqrt(k)`` ([S22] arXiv 2210.00597v4, Sec. 3.1).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Compare, Smt, SmtProblem, Tol
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.numerics.finite import random_eps_dp_pair, random_pair

# ------------------------------------------------------------------------------------------
# Symbolic helpers



def real_vars(*symbols: Any) -> dict[str, str]:
    return {str(s): "real" for s in symbols}


def moment_in_powers(tau: Any, alpha: Any, var: Any, x: Any) -> Any:
    """``e^{(alpha-1) tau}`` of an RDP curve ``tau`` (a SymCtx expression in ``var``) as a
    rational function of ``x = e^var``: the exponential split term by term, ``e^{log y} = y``
    (no ``simplify``, which would bring back hyperbolic functions)."""
    import sympy as sp

    from dpverify.theorems.symbolic import exp_as_powers

    split = sp.expand(sp.exp(sp.expand((alpha - 1) * tau)), power_exp=True)
    return sp.cancel(exp_as_powers(sp.expand_log(split, force=True), var, x))


def seeded_pair(seed: int) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """A random full-support pair on 2–6 outputs, drawn from ``seed`` (hypothesis searches and
    shrinks over the seed)."""
    return random_pair(random.Random(seed))


def seeded_eps_dp_pair(seed: int, r_num: int) -> tuple[tuple[Fraction, ...], ...]:
    """A random pair with every ratio in ``[1/r, r]``, ``r = 1 + r_num/100``."""
    return random_eps_dp_pair(random.Random(seed), r_num, 100)


# ------------------------------------------------------------------------------------------
# The Rényi divergence of two Gaussians by completing the square


def gauss_square_problem(tau_times_alpha_minus_1: Callable[[Any, Any, Any, Any], Any],
                         mean_sq: str) -> SmtProblem:
    """``gauss_renyi_exponent(mean, sigma, alpha, y) = -(y - alpha mean)^2/(2 sigma^2) + R``
    with ``R = tau_times_alpha_minus_1(ctx, sigma, alpha, k)`` and ``mean^2 = 1`` (``mean_sq =
    "1"``) or ``mean^2 = k`` (``"k"``), all terms evaluated in SymCtx."""
    import sympy as sp

    from dpverify.theorems.formulas.gaussian import gauss_renyi_exponent

    ctx = SymCtx()
    sigma, alpha, y, m, k = sp.symbols("sigma alpha y m k", real=True)
    lhs = gauss_renyi_exponent(ctx, m, sigma, alpha, y)
    rhs = -((y - alpha * m) ** 2) / (2 * sigma**2) + tau_times_alpha_minus_1(ctx, sigma, alpha, k)
    goal = sp.Eq(sp.expand(sp.cancel((lhs - rhs) * sigma**2)), 0)
    hyps = [sp.Gt(sigma, 0), sp.Gt(alpha, 1)]
    if mean_sq == "k":
        hyps += [sp.Ge(k, 1), sp.Ge(m, 0), sp.Eq(m**2, k)]
    else:
        hyps.append(sp.Eq(m, 1))
    return SmtProblem(real_vars(sigma, alpha, y, m, k), tuple(hyps), goal,
                      ("p^alpha q^{1-alpha} = e^{exponent}/(sigma sqrt(2 pi))",
                       "m = sensitivity (m^2 = k for k composed releases)"))


def gauss_square_terms(
    tau_times_alpha_minus_1: Callable[..., Any], mean_sq: str,
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The two sides of :func:`gauss_square_problem` as arb terms over (sigma, alpha, y[, k])."""
    from dpverify.theorems.formulas.gaussian import gauss_renyi_exponent

    def mean(ctx: Any, k: Any) -> Any:
        return ctx.sqrt(ctx.num(k)) if mean_sq == "k" else ctx.one

    def lhs(ctx: Any, sigma: Any, alpha: Any, y: Any, k: Any = 1, **_: Any) -> Any:
        m = mean(ctx, k)
        return gauss_renyi_exponent(ctx, m, sigma, alpha, y) + (y - alpha * m) ** 2 / (
            2 * sigma**2)

    def rhs(ctx: Any, sigma: Any, alpha: Any, k: Any = 1, **_: Any) -> Any:
        return tau_times_alpha_minus_1(ctx, sigma, alpha, k)

    return lhs, rhs


GAUSS_SQUARE_BOX = Box(reals={"sigma": ("0.05", "50"), "alpha": ("1.0001", "1000"),
                              "y": ("-100", "100")},
                       log_scale=frozenset({"sigma", "alpha"}))


def gauss_square_smt(tau_times_alpha_minus_1: Callable[..., Any], mean_sq: str,
                     description: str) -> Smt:
    return Smt(lambda: gauss_square_problem(tau_times_alpha_minus_1, mean_sq), description)


# ------------------------------------------------------------------------------------------
# Round trips of inverse evaluators (bisection: searched only)


def round_trip_check(forward: Callable[..., Any], inverse: Callable[..., Any], target: str,
                     box: Box, name: str) -> Compare:
    """``forward(inverse(point)) = point[target]`` (rel 1e-20) searched over ``box``: the
    inverse evaluators bisect, so the round trip pins the bisection to its forward formula."""
    def trip(ctx: Any, **point: Any) -> Any:
        return forward(ctx, inverse(ctx, **point), **point)

    return Compare(trip, "eq", lambda ctx, **point: point[target], box, "property",
                   Tol(abs_tol=Fraction(1, 10**60), rel_tol=Fraction(1, 10**20)), name, target)
