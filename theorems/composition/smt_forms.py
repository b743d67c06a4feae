"""SMT problems of the composition family, built from the formula bodies evaluated in the sym
context (``delta = e^{-L}``, ``x = e^eps0``, square roots left to the smt translation as
constrained auxiliary variables).

A logarithm that a goal does not depend on for its truth (a term of a minimum that is never
the one compared) is replaced by a free variable: the goal is then proved for every value of
it, a stronger statement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.composition.mutation_guards import log_inv_round_trip
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.advanced_composition import (
    stk_approx_eps,
    stk_eps,
    stk_eps_het,
)
from dpverify.theorems.numerics.composition_enum import het_rr_delta_enum
from dpverify.theorems.symbolic import exp_as_powers

_SUBS_DELTA = "delta = e^{-L}, L > 0"


def _symbols() -> tuple[Any, Any, Any]:
    import sympy as sp

    return (sp.Symbol("eps0", nonnegative=True), sp.Symbol("L", positive=True),
            sp.Symbol("k", positive=True, integer=True))


def _opaque_as_variables(expr: Any) -> tuple[Any, list[Any]]:
    """Each ``log(...)``, ``tanh(...)`` or remaining ``exp(...)`` in ``expr`` replaced by a fresh
    real variable ``w_i`` (outermost first)."""
    import sympy as sp

    kinds = (sp.log, sp.tanh, sp.exp)
    nodes = {n for n in sp.preorder_traversal(expr) if isinstance(n, kinds)}
    outer = sorted((n for n in nodes if not any(m != n and m.has(n) for m in nodes)), key=str)
    names = [sp.Symbol(f"w{i}", real=True) for i in range(len(outer))]
    return expr.subs(dict(zip(outer, names, strict=True))), names


def stk_het_equal_problem(k_max: int) -> SmtProblem:
    """``stk_eps_het([eps0]*k, delta) = stk_eps(eps0, k, delta)`` for k = 1..k_max (one
    conjunction), every eps0 >= 0 and delta in (0, 1)."""
    import sympy as sp

    eps0, lg, _ = _symbols()
    ctx = SymCtx()
    delta = sp.exp(-lg)
    goal = sp.And(*(sp.Eq(stk_eps_het(ctx, [eps0] * k, delta), stk_eps(ctx, eps0, k, delta))
                    for k in range(1, k_max + 1)))
    return SmtProblem({"eps0": "real", "L": "real"}, (sp.Ge(eps0, 0), sp.Gt(lg, 0)), goal,
                      (_SUBS_DELTA, f"k = 1..{k_max}, one equation each"))


def stk_approx_pure_problem() -> SmtProblem:
    """``stk_approx_eps(eps0, k, delta, delta0 = 0) = stk_eps(eps0, k, delta)`` for every
    integer k >= 1, eps0 >= 0, delta in (0, 1)."""
    import sympy as sp

    eps0, lg, k = _symbols()
    ctx = SymCtx()
    delta = sp.exp(-lg)
    goal = sp.Eq(stk_approx_eps(ctx, eps0, k, delta, 0), stk_eps(ctx, eps0, k, delta))
    return SmtProblem({"eps0": "real", "L": "real", "k": "int"},
                      (sp.Ge(eps0, 0), sp.Gt(lg, 0), sp.Ge(k, 1)), goal, (_SUBS_DELTA,))


def clipped_problem(bound: Callable[[Any, Any, Any, Any], Any]) -> SmtProblem:
    """``bound(eps0, k, delta) <= k eps0`` for a clipped bound ``min(k eps0, ...)`` for every
    integer k >= 1, eps0 > 0, delta in (0, 1): x = e^eps0, each logarithm or tanh inside the
    other terms of the minimum a free variable."""
    import sympy as sp

    eps0, lg, k = _symbols()
    x = sp.Symbol("x", positive=True)
    value = exp_as_powers(bound(SymCtx(), eps0, k, sp.exp(-lg)), eps0, x)
    value, free = _opaque_as_variables(value)
    return SmtProblem({"eps0": "real", "L": "real", "k": "int", "x": "real",
                       **{str(w): "real" for w in free}},
                      (sp.Gt(eps0, 0), sp.Gt(lg, 0), sp.Ge(k, 1), sp.Gt(x, 1)),
                      sp.Le(value, k * eps0),
                      (_SUBS_DELTA, "x = e^eps0", "w_i: each log or tanh as a free variable"))


def witness_ratio_problem(ratio: Callable[..., Any], k_max: int) -> SmtProblem:
    """``ratio(eps, k, k + off) = e^eps`` for k = 1..k_max, eps > 0, off >= 0: the likelihood
    ratio of the Laplace witness at (a, ..., a), a >= k, simplified by sympy (|a - j| = a - j
    from the signs, exponentials merged), then x = e^eps."""
    import sympy as sp

    eps, off = sp.Symbol("eps", positive=True), sp.Symbol("off", nonnegative=True)
    x = sp.Symbol("x", positive=True)
    ctx = SymCtx()
    goal = sp.And(*(sp.Eq(exp_as_powers(sp.powsimp(ratio(ctx, eps, k, k + off)), eps, x), x)
                    for k in range(1, k_max + 1)))
    return SmtProblem({"x": "real", "off": "real"}, (sp.Gt(x, 1), sp.Ge(off, 0)), goal,
                      ("x = e^eps", f"k = 1..{k_max}, one equation each"))


def _rr_enum_in_powers(k: int, eps: Any, y: Any) -> tuple[tuple[Any, ...], Any]:
    """The exact delta of RR(eps_1) x ... x RR(eps_k) by enumeration of the 2^k outputs
    (het_rr_delta_enum) at ``eps`` (a sympy expression in the eps_i and ``eps``), written in
    ``x_i = e^{eps_i}`` and ``y = e^eps``; returns the x_i and the value."""
    import sympy as sp

    eps_list = sp.symbols(f"eps1:{k + 1}", positive=True)
    xs = sp.symbols(f"x1:{k + 1}", positive=True)
    eps_sym = sp.Symbol("eps", nonnegative=True)
    target = eps(eps_list, eps_sym)
    value = exp_as_powers(het_rr_delta_enum(SymCtx(), list(eps_list), target), eps_sym, y)
    for e, x in zip(eps_list, xs, strict=True):
        value = exp_as_powers(value, e, x)
    return xs, value


def rr_enum_positive_problem(k: int) -> SmtProblem:
    """The exact delta of RR(eps_1) x ... x RR(eps_k) by enumeration of the 2^k outputs
    (het_rr_delta_enum) is > 0 at every eps in [0, sum eps_i): x_i = e^{eps_i} > 1, y = e^eps
    in [1, prod x_i)."""
    import sympy as sp

    y = sp.Symbol("y", positive=True)
    xs, value = _rr_enum_in_powers(k, lambda _eps_list, eps: eps, y)
    hyps = (*(sp.Gt(x, 1) for x in xs), sp.Ge(y, 1), sp.Lt(y, sp.Mul(*xs)))
    return SmtProblem({**{str(x): "real" for x in xs}, "y": "real"}, hyps, sp.Gt(value, 0),
                      ("x_i = e^{eps_i}", "y = e^eps"))


def rr_enum_zero_at_sum_problem(k: int) -> SmtProblem:
    """The subset sum of [MV] Thm 1.5, ``sum_S (e^{sum_S eps_i} - e^eps e^{sum_{not S}
    eps_i})_+ / prod_i (1 + e^{eps_i})`` (built term for term by het_rr_delta_enum: the output
    S of RR(eps_1) x ... x RR(eps_k) has those P and Q masses), is 0 at eps = sum eps_i for
    every eps_i >= 0: x_i = e^{eps_i} >= 1."""
    import sympy as sp

    y = sp.Symbol("y", positive=True)
    xs, value = _rr_enum_in_powers(k, lambda eps_list, _eps: sp.Add(*eps_list), y)
    return SmtProblem({str(x): "real" for x in xs}, tuple(sp.Ge(x, 1) for x in xs),
                      sp.Eq(value, 0), ("x_i = e^{eps_i}", "eps = sum eps_i"))


def log_inv_round_trip_problem() -> SmtProblem:
    """STK-ADV-PURE claim 6 for every delta in (0, 1]: ``log_inv_round_trip`` evaluated
    symbolically at a positive symbol delta and simplified by sympy (``e^{log d} = d`` and
    ``e^{-log d} = 1/d`` for d > 0): ``delta e^{log_inv(delta)} = 1``."""
    import sympy as sp

    delta = sp.Symbol("delta", positive=True)
    value = sp.simplify(log_inv_round_trip(SymCtx(), delta))
    return SmtProblem({"delta": "real"}, (sp.Gt(delta, 0), sp.Le(delta, 1)),
                      sp.Eq(value, 1, evaluate=False),
                      ("delta in (0, 1], exponentials of logarithms simplified by sympy",))
