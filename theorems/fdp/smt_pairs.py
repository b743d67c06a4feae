"""SMT problems over every finite pair on up to three outcomes (FDP-PLD-CONV's Neyman-Pearson
construction; DRS-TRADEOFF claim 3): the masses ``p_i, q_i`` are real variables (nonnegative,
each summing to 1), so a pair on two outcomes is one with a null third outcome.

The Neyman-Pearson curve depends on the order of the likelihood ratios; the problem takes every
order sigma of the three outcomes as a case, ``(order sigma) -> goal(vertices in order sigma)``.
The order is written cross-multiplied for every pair i before j, ``q_i p_j >= q_j p_i`` (i.e.
``q_i/p_i >= q_j/p_j`` with Q-only outcomes first); every pair and not only neighbours, because
a null outcome ``p = q = 0`` is comparable with everything. The vertices come from the same
accumulation the exact routine uses after sorting (:func:`np_vertices_in_order`). Every pair
satisfies the order of its own sort and ties only add collinear vertices, so the cases cover
every pair. The reverse pair ``(Q, P)`` is rejected in the reverse order.

Tried and left out (z3 does not close them in the budget): the (eps, delta)-DP iff
f_{eps,delta}-DP statement and Fenchel-Young with the hockey-stick ``Max`` terms and ``x = e^eps``
a variable (unknown after 30 s per problem; split on the signs of ``q_i - x p_i``, one order of
the six closes in about 23 s).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.formulas.tradeoff_composition import np_vertices_in_order

OUTCOMES = 3
Vertices = list[tuple[Any, Any]]


def _masses() -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    import sympy as sp

    return (tuple(sp.Symbol(f"p{i}", real=True) for i in range(OUTCOMES)),
            tuple(sp.Symbol(f"q{i}", real=True) for i in range(OUTCOMES)))


def _pair_hypotheses(p: tuple[Any, ...], q: tuple[Any, ...]) -> tuple[Any, ...]:
    import sympy as sp

    return (*(sp.Ge(m, 0) for m in p + q), sp.Eq(sp.Add(*p), 1), sp.Eq(sp.Add(*q), 1))


def _in_order(p: Any, q: Any, order: tuple[int, ...]) -> Vertices:
    import sympy as sp

    return np_vertices_in_order(p, q, [[i] for i in order], sp.Integer(0), sp.Integer(1))


def _ordered(p: Any, q: Any, order: tuple[int, ...]) -> Any:
    import sympy as sp

    return sp.And(*(sp.Ge(q[i] * p[j], q[j] * p[i]) for i, j in itertools.combinations(order, 2)))


def _every_order(p: Any, q: Any, goal: Callable[[Vertices, Vertices], Any]) -> Any:
    """``And over sigma of (order sigma -> goal(T(P,Q) vertices, T(Q,P) vertices))``."""
    import sympy as sp

    return sp.And(*(sp.Implies(_ordered(p, q, order),
                               goal(_in_order(p, q, order), _in_order(q, p, order[::-1])))
                    for order in itertools.permutations(range(OUTCOMES))))


def _problem(goal: Any, extra: dict[str, str], hyps: tuple[Any, ...], p: Any, q: Any,
             notes: tuple[str, ...]) -> SmtProblem:
    names = {str(m): "real" for m in p + q} | extra
    return SmtProblem(names, (*_pair_hypotheses(p, q), *hyps), goal,
                      ("pairs on <= 3 outcomes, masses real", "one case per order of q_i/p_i",
                       *notes))


def characterization_problem() -> SmtProblem:
    """The vertices of ``T(P, Q)``: type-I nondecreasing, type-II nonincreasing, every turn
    convex (cross product ``>= 0``), ends at ``(1, 0)``, and ``0 <= b <= 1 - a`` at each (so the
    interpolating curve is convex, nonincreasing, ``T(1) = 0`` and ``T <= Id``)."""
    import sympy as sp

    p, q = _masses()

    def goal(v: Vertices, _: Vertices) -> Any:
        steps = [(a1 - a0, b1 - b0) for (a0, b0), (a1, b1) in itertools.pairwise(v)]
        return sp.And(*(sp.Ge(da, 0) & sp.Le(db, 0) for da, db in steps),
                      *(sp.Ge(d0[0] * d1[1] - d0[1] * d1[0], 0)
                        for d0, d1 in itertools.combinations(steps, 2)),
                      sp.Eq(v[-1][0], 1), sp.Eq(v[-1][1], 0),
                      *(sp.Ge(b, 0) & sp.Le(b, 1 - a) for a, b in v))

    return _problem(_every_order(p, q, goal), {}, (), p, q, ())
