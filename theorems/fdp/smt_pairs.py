"""SMT problems over every finite pair of a small size (FDP-PLD-CONV's Neyman-Pearson
construction; DRS-TRADEOFF claims 3 and 5, DRS-DUALITY claim 4, FDP-PLD-CONV claim 5): the masses
``p_i, q_i`` are real variables (nonnegative, each summing to 1), so a pair on fewer outcomes is
one with null outcomes. The characterization takes three outcomes; the statements with the
hockey-stick ``Max`` terms and ``x = e^eps`` a variable take two (z3 returns unknown after 30 s
on three outcomes, also with one rejection order and one rejection set at a time).

The Neyman-Pearson curve depends on the order of the likelihood ratios; the problem takes every
order sigma of the outcomes as a case, ``(order sigma) -> goal(vertices in order sigma)``. The
order is written cross-multiplied for every pair i before j, ``q_i p_j >= q_j p_i`` (i.e.
``q_i/p_i >= q_j/p_j`` with Q-only outcomes first); every pair and not only neighbours, because
a null outcome ``p = q = 0`` is comparable with everything. The vertices come from the same
accumulation the exact routine uses after sorting (:func:`np_vertices_in_order`). Every pair
satisfies the order of its own sort and ties only add collinear vertices, so the cases cover
every pair. The reverse pair ``(Q, P)`` is rejected in the reverse order. Hockey-stick
divergences, ``f_{eps,delta}`` and dp_accounting's TPR term come from the exact routines'
bodies with ``sympy.Max``/``Min``; ``x = e^eps >= 1`` and delta are real variables.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.formulas.tradeoff_composition import (
    f_approx_exact,
    hockey_stick,
    np_vertices_in_order,
    tpr_envelope_term,
)

CHARACTERIZATION_OUTCOMES = 3
PROFILE_OUTCOMES = 2
Vertices = list[tuple[Any, Any]]


def _masses(n: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    import sympy as sp

    return (tuple(sp.Symbol(f"p{i}", real=True) for i in range(n)),
            tuple(sp.Symbol(f"q{i}", real=True) for i in range(n)))


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
                    for order in itertools.permutations(range(len(p)))))


def _problem(goal: Any, extra: dict[str, str], hyps: tuple[Any, ...], p: Any, q: Any,
             notes: tuple[str, ...]) -> SmtProblem:
    names = {str(m): "real" for m in p + q} | extra
    return SmtProblem(names, (*_pair_hypotheses(p, q), *hyps), goal,
                      (f"pairs on <= {len(p)} outcomes, masses real",
                       "one case per order of q_i/p_i", *notes))


def characterization_problem() -> SmtProblem:
    """The vertices of ``T(P, Q)``: type-I nondecreasing, type-II nonincreasing, every turn
    convex (cross product ``>= 0``), ends at ``(1, 0)``, and ``0 <= b <= 1 - a`` at each (so the
    interpolating curve is convex, nonincreasing, ``T(1) = 0`` and ``T <= Id``)."""
    import sympy as sp

    p, q = _masses(CHARACTERIZATION_OUTCOMES)

    def goal(v: Vertices, _: Vertices) -> Any:
        steps = [(a1 - a0, b1 - b0) for (a0, b0), (a1, b1) in itertools.pairwise(v)]
        return sp.And(*(sp.Ge(da, 0) & sp.Le(db, 0) for da, db in steps),
                      *(sp.Ge(d0[0] * d1[1] - d0[1] * d1[0], 0)
                        for d0, d1 in itertools.combinations(steps, 2)),
                      sp.Eq(v[-1][0], 1), sp.Eq(v[-1][1], 0),
                      *(sp.Ge(b, 0) & sp.Le(b, 1 - a) for a, b in v))

    return _problem(_every_order(p, q, goal), {}, (), p, q, ())


def _x_delta() -> tuple[Any, Any]:
    import sympy as sp

    return sp.Symbol("x", real=True), sp.Symbol("delta", real=True)


def _profile(p: Any, q: Any, x: Any) -> Any:
    import sympy as sp

    return sp.Max(hockey_stick(p, q, x, sp.Max), hockey_stick(q, p, x, sp.Max))


def dp_iff_fdp_problem() -> SmtProblem:
    """``max(H_x(P||Q), H_x(Q||P)) <= delta`` iff both ``T(P,Q)`` and ``T(Q,P)`` are ``>=
    f_{eps,delta}`` at every Neyman-Pearson vertex, for every ``x = e^eps >= 1``, delta in
    [0, 1] and every pair on two outcomes."""
    import sympy as sp

    p, q = _masses(PROFILE_OUTCOMES)
    x, delta = _x_delta()
    dp = sp.Le(_profile(p, q, x), delta)

    def goal(v: Vertices, w: Vertices) -> Any:
        fdp = sp.And(*(sp.Ge(b, f_approx_exact(x, delta, a, sp.Max)) for a, b in v + w))
        return sp.And(sp.Implies(dp, fdp), sp.Implies(fdp, dp))

    return _problem(_every_order(p, q, goal), {"x": "real", "delta": "real"},
                    (sp.Ge(x, 1), sp.Ge(delta, 0), sp.Le(delta, 1)), p, q, ("x = e^eps",))


def fenchel_young_problem(envelope: bool = False) -> SmtProblem:
    """With ``delta(x)`` the two-order profile, for every ``x = e^eps >= 1`` and every pair on
    two outcomes: ``T(P,Q) >= f_{x, delta(x)}`` at every vertex (``envelope``: dp_accounting's
    TPR term ``min(1, x a + delta, 1 - (1 - delta - a)/x) >= 1 - T(P,Q)`` there, the same
    statement since the term is ``1 - f_{x,delta}(a)``). ``T - L`` is piecewise linear with
    breakpoints at the vertices for each linear branch L of ``f_{x,delta}``, so the vertices
    decide the whole interval [0, 1]; a minimum over a grid of x of such terms is then above
    the exact TPR too."""
    import sympy as sp

    p, q = _masses(PROFILE_OUTCOMES)
    x, _ = _x_delta()
    d = _profile(p, q, x)

    def goal(v: Vertices, _: Vertices) -> Any:
        if envelope:
            return sp.And(*(sp.Ge(tpr_envelope_term(x, d, a, sp.Min), 1 - b) for a, b in v))
        return sp.And(*(sp.Ge(b, f_approx_exact(x, d, a, sp.Max)) for a, b in v))

    return _problem(_every_order(p, q, goal), {"x": "real"}, (sp.Ge(x, 1),), p, q,
                    ("x = e^eps", "delta(x) = max(H_x(P||Q), H_x(Q||P))",
                     "vertices decide [0, 1] (T - L piecewise linear)"))


DUAL_MAX_CASES = tuple((first, piece) for first in range(PROFILE_OUTCOMES)
                       for piece in ("below", "above", "p_only"))


def dual_max_problem(first: int, piece: str) -> SmtProblem:
    """DRS-DUALITY claim 7 on two outcomes, one case: outcome ``first`` has the larger
    likelihood ratio (``q_o p_first >= q_first p_o``), so the ratios >= 1 are 1 and ``r =
    p_first/q_first``. With the one-order profile ``delta(y) = H_y(P||Q)`` (the exact routine's
    body), for every ``x = e^eps >= 1`` and ``a`` in [0, 1]: ``f_{x, delta(x)}(a) <=
    max(f_{1, delta(1)}(a), f_{r, delta(r)}(a))``. ``piece``: ``"below"`` (q_first > 0, x <= r),
    ``"above"`` (q_first > 0, x >= r), ``"p_only"`` (q_first = 0: no ratio but 1)."""
    import sympy as sp

    p, q = _masses(PROFILE_OUTCOMES)
    x, a, r = sp.Symbol("x", real=True), sp.Symbol("a", real=True), sp.Symbol("r", real=True)
    other = 1 - first

    def line(y: Any) -> Any:
        return f_approx_exact(y, hockey_stick(p, q, y, sp.Max), a, sp.Max)

    hyps = [sp.Ge(x, 1), sp.Ge(a, 0), sp.Le(a, 1), sp.Ge(q[other] * p[first], q[first] * p[other])]
    if piece == "p_only":
        hyps.append(sp.Eq(q[first], 0))
        goal = sp.Le(line(x), line(sp.Integer(1)))
        return _problem(goal, {"x": "real", "a": "real"}, tuple(hyps), p, q,
                        ("x = e^eps", f"case: outcome {first} P-only"))
    hyps += [sp.Gt(q[first], 0), sp.Eq(r * q[first], p[first]),
             sp.Le(x, r) if piece == "below" else sp.Ge(x, r)]
    goal = sp.Le(line(x), sp.Max(line(sp.Integer(1)), line(r)))
    return _problem(goal, {"x": "real", "a": "real", "r": "real"}, tuple(hyps), p, q,
                    ("x = e^eps", f"case: outcome {first} has the larger ratio r = p/q",
                     f"case: x {piece} r"))
