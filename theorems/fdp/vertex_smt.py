"""Region proofs (z3) for the vertex guards of DRS-TENSOR (no Theorem here): claims 7 and 8 were
searched only; here the SAME vertex list (``formulas.tradeoff_composition.rr_hom_vertices``) is
evaluated in the sympy context at ``eps0 = ln x`` for a free ``x > 0`` (every real eps0), each
coordinate is a rational function with denominator ``(1 + x)^k``, and every relation is handed
to z3 multiplied by ``(1 + x)^k > 0`` (a polynomial in x; the same relation).

- :func:`rr_complement_problem` (claim 7): ``a_t + P(J < t) = 1`` and ``b_t + Q(J >= t) = 1`` at
  every vertex, every k in 1..k_max.
- :func:`rr_shape_problem` (claim 8): the k + 2 vertices run from (0, 1) to (1, 0) with type-I
  errors strictly increasing and type-II errors strictly decreasing, every k in 1..k_max.

References
----------
- [DRS] J. Dong, A. Roth, W. Su, arXiv 1905.02383 (version not recorded), Thm 3.3 and the RR
  trade-off ``f_{eps0,0}``; the binomial vertices are derived (catalogue DRS-TENSOR).
"""

from __future__ import annotations

import itertools
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.tradeoff_composition import rr_hom_vertices

_SUBS = ("x = e^eps0 > 0: every real eps0", "each relation multiplied by (1 + x)^k > 0")


def _cleared(expr: Any, weight: Any) -> Any:
    """``expr * weight`` expanded term by term (each ``x^j/(1 + x)^k`` times ``(1 + x)^k``
    collapses to ``x^j`` before the expansion; a term with another denominator keeps it)."""
    import sympy as sp

    return sp.expand(sp.Add(*(term * weight for term in sp.Add.make_args(expr))))


def _vertices(k: int, with_complements: bool) -> tuple[Any, Any, list[tuple[Any, ...]]]:
    import sympy as sp

    x = sp.Symbol("x", positive=True)
    return x, (1 + x)**k, rr_hom_vertices(SymCtx(), sp.log(x), k, with_complements)


def rr_complement_problem(k_max: int) -> SmtProblem:
    """DRS-TENSOR claim 7 for every eps0 and every k in 1..k_max (one conjunction)."""
    import sympy as sp

    goals: list[Any] = []
    for k in range(1, k_max + 1):
        _, w, vertices = _vertices(k, True)
        for a, b, ca, cb in vertices:
            goals += [sp.Eq(_cleared(a + ca - 1, w), 0, evaluate=False),
                      sp.Eq(_cleared(b + cb - 1, w), 0, evaluate=False)]
    x = sp.Symbol("x", positive=True)
    return SmtProblem({"x": "real"}, (sp.Gt(x, 0),), sp.And(*goals),
                      (*_SUBS, f"k = 1..{k_max}, two equations per vertex"))


def rr_shape_problem(k_max: int) -> SmtProblem:
    """DRS-TENSOR claim 8 for every eps0 and every k in 1..k_max: ``k + 2`` vertices (a count
    checked here, a false goal otherwise), ends exactly (0, 1) and (1, 0), and each step
    ``a_{t} < a_{t-1}``, ``b_{t} > b_{t-1}`` (by increasing type-I error)."""
    import sympy as sp

    goals: list[Any] = []
    for k in range(1, k_max + 1):
        _, w, vertices = _vertices(k, False)
        if len(vertices) != k + 2:
            goals.append(sp.false)
            continue
        (a0, b0), (a1, b1) = vertices[0], vertices[-1]
        goals += [sp.Eq(_cleared(a0, w), 0, evaluate=False),
                  sp.Eq(_cleared(b0 - 1, w), 0, evaluate=False),
                  sp.Eq(_cleared(a1 - 1, w), 0, evaluate=False),
                  sp.Eq(_cleared(b1, w), 0, evaluate=False)]
        for (ua, ub), (va, vb) in itertools.pairwise(vertices):
            goals += [sp.Gt(_cleared(va - ua, w), 0), sp.Gt(_cleared(ub - vb, w), 0)]
    x = sp.Symbol("x", positive=True)
    return SmtProblem({"x": "real"}, (sp.Gt(x, 0),), sp.And(*goals),
                      (*_SUBS, f"k = 1..{k_max}: ends, and each step strictly monotone"))
