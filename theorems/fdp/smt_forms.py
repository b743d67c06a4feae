"""SMT problems of the fdp family, each built from the formula bodies evaluated in the sym
context: ``x = e^eps0`` (or ``e^mu``), ``y = e^eps``, branch conditions written as polynomial
relations (:func:`theorems.symbolic.exp_relations`, :func:`theorems.symbolic.clear_denominators`).

A formula that changes (a wrong slope, a swapped vertex, a dropped branch) changes the problem,
so these are proofs of the code's statements, not of hand-copied ones.
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.tradeoff import (
    f_approx,
    laplace_tradeoff_cdf,
    laplace_tradeoff_mu,
    subsample_approx_points,
    subsample_rr_bbg,
    subsample_rr_delta,
    subsample_rr_f,
    subsample_rr_vertices,
)
from dpverify.theorems.symbolic import clear_denominators, exp_as_powers, exp_relations

_REAL = "real"


def _symbols() -> dict[str, Any]:
    import sympy as sp

    return {"mu": sp.Symbol("mu", nonnegative=True), "eps0": sp.Symbol("eps0", nonnegative=True),
            "eps": sp.Symbol("eps", nonnegative=True), "x": sp.Symbol("x", positive=True),
            "y": sp.Symbol("y", positive=True), "q": sp.Symbol("q", positive=True),
            "q2": sp.Symbol("q2", positive=True), "a": sp.Symbol("a", real=True),
            "d": sp.Symbol("d", nonnegative=True)}


# ------------------------------------------------------------------------------------------
# DRS-LAPLACE-FDP


def _laplace_in_x(s: dict[str, Any], fpr: Any) -> Any:
    return exp_as_powers(laplace_tradeoff_mu(SymCtx(), s["mu"], fpr), s["mu"], s["x"])


def laplace_cdf_problem() -> SmtProblem:
    """``laplace_tradeoff_mu(mu, a) = laplace_tradeoff_cdf(mu, a)`` for x = e^mu >= 1 and
    0 < a < 1 (the CDF route takes log 0 at a = 0, 1)."""
    import sympy as sp

    s = _symbols()
    x, a = s["x"], s["a"]
    closed = clear_denominators(_laplace_in_x(s, a))
    cdf = sp.piecewise_fold(laplace_tradeoff_cdf(SymCtx(), s["mu"], a))
    cdf = clear_denominators(exp_as_powers(exp_relations(cdf, s["mu"], x), s["mu"], x))
    return SmtProblem({"x": _REAL, "a": _REAL}, (sp.Ge(x, 1), sp.Gt(a, 0), sp.Lt(a, 1)),
                      sp.Eq(closed, cdf),
                      ("x = e^mu", "log-conditions of F^{-1} exponentiated (exp increasing)"))


def laplace_symmetry_problem() -> SmtProblem:
    """``T_Lap(T_Lap(a)) = a`` for x = e^mu >= 1, a in [0, 1], T_Lap = laplace_tradeoff_mu (the
    translation's domain conditions exclude a = 0, 1, 1/x: a denominator of an untaken branch)."""
    import sympy as sp

    s = _symbols()
    x, a = s["x"], s["a"]
    twice = clear_denominators(exp_as_powers(
        laplace_tradeoff_mu(SymCtx(), s["mu"], laplace_tradeoff_mu(SymCtx(), s["mu"], a)),
        s["mu"], x))
    return SmtProblem({"x": _REAL, "a": _REAL}, (sp.Ge(x, 1), sp.Ge(a, 0), sp.Le(a, 1)),
                      sp.Eq(twice, a), ("x = e^mu",))


# ------------------------------------------------------------------------------------------
# DRS-SUBSAMPLE


def mix_profile(ctx: Any, eps0: Any, q: Any, eps: Any, **_: Any) -> Any:
    """Two-order hockey-stick of the BBG-T9 witness ((1-q) RR_0 + q RR_1, RR_0), directly."""
    keep = ctx.exp(eps0) / (1 + ctx.exp(eps0))
    rr0 = (keep, 1 - keep)
    mix = ((1 - q) * keep + q * (1 - keep), (1 - q) * (1 - keep) + q * keep)
    x = ctx.exp(eps)

    def hs(p: Any, r: Any) -> Any:
        return ctx.fsum(ctx.max(ctx.zero, pi - x * ri) for pi, ri in zip(p, r, strict=True))

    return ctx.max(hs(mix, rr0), hs(rr0, mix))


def _in_x(expr: Any, s: dict[str, Any]) -> Any:
    return clear_denominators(exp_as_powers(expr, s["eps0"], s["x"]))


def _cq(s: dict[str, Any], q: Any) -> Any:
    return _in_x(subsample_rr_f(SymCtx(), s["eps0"], q, s["a"]), s)


def _rr(s: dict[str, Any]) -> Any:
    return _in_x(f_approx(SymCtx(), s["eps0"], 0, s["a"]), s)


def _kinks(s: dict[str, Any]) -> tuple[Any, Any]:
    """``x1 = 1/(1 + e^eps0)`` and ``y1``, the inner vertices' abscissae (subsample_rr_vertices)."""
    v = subsample_rr_vertices(SymCtx(), s["eps0"], s["q"])
    return exp_as_powers(v[1][0], s["eps0"], s["x"]), exp_as_powers(v[2][0], s["eps0"], s["x"])


def _sub_problem(s: dict[str, Any], hyps: tuple[Any, ...], goal: Any,
                 names: tuple[str, ...] = ("x", "q", "a")) -> SmtProblem:
    return SmtProblem({n: _REAL for n in names}, hyps, goal, ("x = e^eps0",))


def subsample_bbg_problem(part: str) -> SmtProblem:
    """C_q(f_{eps0,0}) vs f_{eps',0}, eps' = log(1 + q(e^eps0 - 1)) (subsample_rr_bbg):
    ``>=`` on [0, 1] (``part="ge"``), ``>`` strictly between the kinks x1 < a < y1 for
    e^eps0 > 1, q < 1 (``"middle"``), ``=`` outside them (``"outer"``)."""
    import sympy as sp

    s = _symbols()
    x, q, a = s["x"], s["q"], s["a"]
    cq = _cq(s, q)
    bbg = _in_x(subsample_rr_bbg(SymCtx(), s["eps0"], q, a), s)
    x1, y1 = _kinks(s)
    base = (sp.Ge(x, 1), sp.Le(q, 1), sp.Ge(a, 0), sp.Le(a, 1))
    if part == "ge":
        return _sub_problem(s, base, sp.Ge(cq, bbg))
    if part == "middle":
        hyps = (sp.Gt(x, 1), sp.Lt(q, 1), clear_denominators(sp.Gt(a, x1)),
                clear_denominators(sp.Lt(a, y1)))
        return _sub_problem(s, hyps, sp.Gt(cq, bbg))
    outer = sp.Or(clear_denominators(sp.Le(a, x1)), clear_denominators(sp.Ge(a, y1)))
    return _sub_problem(s, (*base, outer), sp.Eq(cq, bbg))


def subsample_order_problem(part: str) -> SmtProblem:
    """``C_q(f) > f`` on 0 < a < 1 for e^eps0 > 1, q < 1 (``"above"``); ``C_1(f) = f`` on
    [0, 1] (``"one"``); ``C_q(f) > C_{q2}(f)`` for q < q2 <= 1, 0 < a < 1 (``"decreasing"``);
    f = f_{eps0,0}."""
    import sympy as sp

    s = _symbols()
    x, q, q2, a = s["x"], s["q"], s["q2"], s["a"]
    inside = (sp.Gt(x, 1), sp.Gt(a, 0), sp.Lt(a, 1))
    if part == "above":
        return _sub_problem(s, (*inside, sp.Lt(q, 1)), sp.Gt(_cq(s, q), _rr(s)))
    if part == "one":
        return _sub_problem(s, (sp.Ge(x, 1), sp.Ge(a, 0), sp.Le(a, 1)),
                            sp.Eq(_cq(s, sp.Integer(1)), _rr(s)), ("x", "a"))
    return _sub_problem(s, (*inside, sp.Lt(q, q2), sp.Le(q2, 1)),
                        sp.Gt(_cq(s, q), _cq(s, q2)), ("x", "q", "q2", "a"))


def subsample_profile_problem() -> SmtProblem:
    """``subsample_rr_delta(eps0, q, eps)`` equals the two-order hockey-stick of the BBG-T9
    witness pair ``mix_profile`` for x = e^eps0 >= 1, y = e^eps >= 1, 0 < q <= 1."""
    import sympy as sp

    s = _symbols()
    x, y, q = s["x"], s["y"], s["q"]

    def in_xy(expr: Any) -> Any:
        return exp_as_powers(exp_as_powers(expr, s["eps0"], x), s["eps"], y)

    delta = in_xy(subsample_rr_delta(SymCtx(), s["eps0"], q, s["eps"]))
    witness = in_xy(mix_profile(SymCtx(), s["eps0"], q, s["eps"]))
    return SmtProblem({"x": _REAL, "q": _REAL, "y": _REAL},
                      (sp.Ge(x, 1), sp.Le(q, 1), sp.Ge(y, 1)), sp.Eq(delta, witness),
                      ("x = e^eps0", "y = e^eps"))


def _approx_points(s: dict[str, Any], q: Any) -> list[tuple[Any, Any]]:
    """The points whose lower hull is C_q(f_{eps0,delta0}) (subsample_approx_points), x = e^eps0."""
    pts = subsample_approx_points(SymCtx(), s["eps0"], s["d"], q)
    return [(exp_as_powers(a, s["eps0"], s["x"]), exp_as_powers(b, s["eps0"], s["x"]))
            for a, b in pts]


def _on_or_above_f(s: dict[str, Any], point: tuple[Any, Any]) -> Any:
    """``point`` lies in the epigraph of f_{eps0,delta0} (f_approx at its abscissa)."""
    import sympy as sp

    a, b = point
    return clear_denominators(sp.Ge(b, _in_x(f_approx(SymCtx(), s["eps0"], s["d"], a), s)))


def subsample_approx_order_problem(part: str) -> SmtProblem:
    """Claim 4 for the base f = f_{eps0,delta0}, over the points P_i(q) whose lower convex hull
    is C_q(f) (subsample_approx_points), for x = e^eps0 >= 1, delta0 in [0, 1]:

    - ``"above"``: every P_i(q) lies on or above f, 0 < q <= 1. The hull of points of the convex
      epigraph of f lies in it, so C_q(f) >= f.
    - ``"one"``: at q = 1 every P_i lies on or above f and each breakpoint of f, (0, 1 - delta0),
      (k, f(k)) with k = (1 - delta0)/(1 + x), (1 - delta0, f(1 - delta0)), (1, 0), is one of
      the P_i. The hull of f's breakpoints is f (f is convex, linear between them), and points
      above f do not lower it: C_1(f) = f.
    - ``"decreasing"``: for 0 < q <= q2 <= 1, P_i(q2) <= P_i(q) in both coordinates. C_{q2}(f)
      is nonincreasing (a convex hull whose lowest point, (1, 0), is its right end) and lies
      below each P_i(q2), so C_{q2}(f)(a_i(q)) <= C_{q2}(f)(a_i(q2)) <= b_i(q2) <= b_i(q): every
      P_i(q) is in the convex epigraph of C_{q2}(f), hence C_q(f) >= C_{q2}(f).
    """
    import sympy as sp

    s = _symbols()
    x, d, q, q2 = s["x"], s["d"], s["q"], s["q2"]
    base = (sp.Ge(x, 1), sp.Ge(d, 0), sp.Le(d, 1))
    names = {"x": _REAL, "d": _REAL, "q": _REAL}
    subs = ("x = e^eps0", "d = delta0")
    if part == "above":
        goal = sp.And(*(_on_or_above_f(s, p) for p in _approx_points(s, q)))
        return SmtProblem(names, (*base, sp.Gt(q, 0), sp.Le(q, 1)), goal, subs)
    if part == "one":
        pts = _approx_points(s, sp.Integer(1))
        k = (1 - d) / (1 + x)

        def f_at(a: Any) -> Any:
            return _in_x(f_approx(SymCtx(), s["eps0"], d, a), s)

        breaks = ((sp.Integer(0), f_at(sp.Integer(0))), (k, f_at(k)), (1 - d, f_at(1 - d)),
                  (sp.Integer(1), sp.Integer(0)))
        found = [sp.Or(*(sp.And(clear_denominators(sp.Eq(a, u)), clear_denominators(sp.Eq(b, v)))
                         for a, b in pts)) for u, v in breaks]
        goal = sp.And(*(_on_or_above_f(s, p) for p in pts), *found)
        return SmtProblem({"x": _REAL, "d": _REAL}, base, goal, subs)
    low, high = _approx_points(s, q), _approx_points(s, q2)
    goal = sp.And(*(sp.And(clear_denominators(sp.Le(a2, a1)), clear_denominators(sp.Le(b2, b1)))
                    for (a1, b1), (a2, b2) in zip(low, high, strict=True)))
    return SmtProblem({**names, "q2": _REAL}, (*base, sp.Gt(q, 0), sp.Le(q, q2), sp.Le(q2, 1)),
                      goal, subs)


# ------------------------------------------------------------------------------------------
# DRS-TRADEOFF: symmetry of G_mu


def _gauss_symbols() -> tuple[Any, Any]:
    import sympy as sp

    return sp.Symbol("mu", nonnegative=True), sp.Symbol("a", positive=True)


def _gauss_hypotheses(mu: Any, a: Any) -> tuple[Any, ...]:
    import sympy as sp

    return (sp.Ge(mu, 0), sp.Gt(a, 0), sp.Lt(a, 1))


def gauss_round_trip_problem() -> SmtProblem:
    """``f_gauss(mu, f_gauss(mu, a)) = a`` for every mu >= 0 and a in (0, 1), from the formula
    body in the sym context (``Phi^{-1}(p) = -sqrt(2) erfcinv(2p)``). The one rewriting,
    ``erfcinv(erfc(z)) = z``, holds for every real z (erfc is a strictly decreasing bijection
    of R onto (0, 2)); here ``z = mu/sqrt(2) - erfcinv(2a)`` is real because 2a is in (0, 2).
    sympy then closes ``erfc(erfcinv(2a))/2 = a``; z3 receives what remains."""
    import sympy as sp

    from dpverify.theorems.formulas.tradeoff import f_gauss

    ctx = SymCtx()
    mu, a = _gauss_symbols()
    value = f_gauss(ctx, mu, f_gauss(ctx, mu, a))
    value = value.replace(lambda n: isinstance(n, sp.erfcinv) and isinstance(n.args[0], sp.erfc),
                          lambda n: n.args[0].args[0])
    return SmtProblem({"mu": _REAL, "a": _REAL}, _gauss_hypotheses(mu, a),
                      sp.Eq(sp.simplify(value), a),
                      ("Phi^{-1}(p) = -sqrt(2) erfcinv(2p)", "erfcinv(erfc(z)) = z, z real"))


def gauss_complement_problem() -> SmtProblem:
    """``tpr_gauss(mu, a) + f_gauss(mu, a) = 1`` for every mu >= 0 and a in (0, 1): the two
    formula bodies in the sym context (``Phi^{-1}(p) = -sqrt(2) erfcinv(2p)``) are
    ``Phi(z) + Phi(-z)`` with ``z = Phi^{-1}(a) + mu`` real, which sympy closes by ``erfc(-w) =
    2 - erfc(w)``; z3 receives what remains."""
    import sympy as sp

    from dpverify.theorems.formulas.tradeoff import f_gauss, tpr_gauss

    ctx = SymCtx()
    mu, a = _gauss_symbols()
    value = tpr_gauss(ctx, mu, a) + f_gauss(ctx, mu, a)
    return SmtProblem({"mu": _REAL, "a": _REAL}, _gauss_hypotheses(mu, a),
                      sp.Eq(sp.simplify(value), 1),
                      ("Phi^{-1}(p) = -sqrt(2) erfcinv(2p)", "erfc(-w) = 2 - erfc(w)"))


# ------------------------------------------------------------------------------------------
# FDP-PLD-CONV: mu of one RR step


def _erfcinv_reflected(expr: Any) -> Any:
    """Each ``erfcinv(w)`` rewritten as ``-erfcinv(2 - w)`` where ``2 - w`` is the simpler
    form: ``erfc(-z) = 2 - erfc(z)`` for every real z, so the identity holds for w in (0, 2)."""
    import sympy as sp

    def repl(node: Any) -> Any:
        other = sp.cancel(2 - node.args[0])
        return -sp.erfcinv(other) if sp.count_ops(other) < sp.count_ops(node.args[0]) else node

    return expr.replace(lambda n: isinstance(n, sp.erfcinv), repl)


def mu_rr_one_problem() -> SmtProblem:
    """``mu_rr(eps0, 1)`` (the maximum over the Neyman-Pearson vertices of one RR(eps0) step)
    equals the closed form ``2 Phi^{-1}(e^eps0/(1 + e^eps0))`` for every eps0 > 0: both formula
    bodies in the sym context (``Phi^{-1}(p) = -sqrt(2) erfcinv(2p)``), each erfcinv argument in
    (0, 2) reflected by ``erfcinv(w) = -erfcinv(2 - w)`` where that is simpler, then sympy."""
    import sympy as sp

    from dpverify.theorems.formulas.tradeoff_composition import mu_rr, mu_rr_one

    ctx = SymCtx()
    eps0 = sp.Symbol("eps0", positive=True)
    diff = _erfcinv_reflected(mu_rr(ctx, eps0, 1) - mu_rr_one(ctx, eps0))
    return SmtProblem({"eps0": _REAL}, (sp.Gt(eps0, 0),), sp.Eq(sp.simplify(diff), 0),
                      ("Phi^{-1}(p) = -sqrt(2) erfcinv(2p)", "erfcinv(w) = -erfcinv(2 - w)"))
