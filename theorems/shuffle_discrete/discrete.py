"""DLAP: the exact privacy profile of the discrete Laplace mechanism at integer sensitivity,
against enumeration, randomized response (KOV-DELTA) and the continuous Laplace (STK-LAPLACE).

Formulas: :mod:`dpverify.theorems.formulas.discrete_laplace`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Smt, SmtProblem, Tol, grid
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.discrete_laplace import (
    dlap_delta,
    dlap_delta_enum,
    dlap_eps,
    dlap_eps_argument,
    dlap_piece,
    dlap_pld_pair,
    dlap_pmf,
    dlap_variance,
    dlap_variance_enum,
)
from dpverify.theorems.formulas.kov_mv import kov_delta_pure
from dpverify.theorems.formulas.laplace import laplace_delta
from dpverify.theorems.numerics.finite import hockey_stick, product
from dpverify.theorems.params import B_DISCRETE, DELTA, EPS, SENSITIVITY_INT
from dpverify.theorems.refs import CKS20_V3, cite
from dpverify.theorems.shuffle_discrete.discrete_common import FAMILY, const
from dpverify.theorems.symbolic import clear_denominators, exp_as_powers
from dpverify.theorems.values import to_ctx


def _dlap(ctx: Any, b: Any, eps: Any, sensitivity: int, **_: Any) -> Any:
    return dlap_delta(ctx, b, eps, sensitivity)


def _dlap_enum(ctx: Any, b: Any, eps: Any, sensitivity: int, **_: Any) -> Any:
    return dlap_delta_enum(ctx, b, eps, sensitivity)


def _symbols() -> tuple[Any, Any, Any, Any, Any]:
    """``a = 1/b``, eps, and the polynomial variables ``y = e^{a/2}``, ``x = e^{eps/2}``."""
    import sympy as sp

    a, e, x, y, h = sp.symbols("a e x y h", positive=True)
    return a, e, x, y, h


def _as_poly(expr: Any) -> Any:
    """Exponentials of ``a`` and ``eps`` as powers of ``y = e^{a/2}`` and ``x = e^{eps/2}``."""
    import sympy as sp

    a, e, x, y, h = _symbols()
    expr = sp.sympify(expr).replace(lambda n: isinstance(n, sp.tanh),
                                    lambda n: sp.tanh(n.args[0]).rewrite(sp.exp))
    out = exp_as_powers(expr.subs(e, 2 * h), h, x)
    out = exp_as_powers(out.subs(a, 2 * h), h, y)
    if any(isinstance(n, sp.exp) for n in sp.preorder_traversal(out)):
        raise ValueError(f"exponentials left in {out}")
    return out


def _rr_identity_problem() -> SmtProblem:
    """``dlap_delta(b, eps, 1) == (e^a - e^eps)_+/(e^a + 1)`` for every ``a > 0``, ``eps >=
    0``, from the formula body in the sym context."""
    import sympy as sp

    a, e, x, y, _ = _symbols()
    lhs = _as_poly(dlap_delta(SymCtx(), 1 / a, e, 1))
    rhs = sp.Max(y**2 - x**2, 0) / (y**2 + 1)
    hyps = (sp.Gt(y, 1), sp.Ge(x, 1))
    return SmtProblem({"x": "real", "y": "real"}, hyps, sp.Eq(lhs, rhs),
                      ("y = e^{a/2}, a = 1/b", "x = e^{eps/2}"))


def _dominance_problem() -> SmtProblem:
    """``dlap_delta(b, eps, 1) >= laplace_delta(b, eps, 1)`` on ``0 <= eps <= a``."""
    import sympy as sp

    a, e, x, y, _ = _symbols()
    ctx = SymCtx()
    lhs = _as_poly(dlap_delta(ctx, 1 / a, e, 1))
    rhs = _as_poly(laplace_delta(ctx, 1 / a, e, ctx.one).subs(sp.Lt(e, a), sp.Lt(x, y)))
    rhs = rhs.replace(lambda n: isinstance(n, sp.Lt), lambda n: sp.Lt(x, y))
    hyps = (sp.Gt(y, 1), sp.Ge(x, 1), sp.Le(x, y))
    return SmtProblem({"x": "real", "y": "real"}, hyps, sp.Ge(lhs, rhs),
                      ("y = e^{a/2}, a = 1/b", "x = e^{eps/2}", "0 <= eps <= a"))


def _inverse_problem() -> SmtProblem:
    """The s = 1 inverse: the argument ``e^a - delta(e^a + 1)`` of its logarithm, at ``delta =
    dlap_delta(b, eps, 1)`` with ``0 <= eps < a``, equals ``e^eps >= 1`` (so ``dlap_eps`` takes
    the log branch and returns ``log e^eps = eps``)."""
    import sympy as sp

    a, e, x, y, _ = _symbols()
    ctx = SymCtx()
    arg = _as_poly(dlap_eps_argument(ctx, 1 / a, dlap_delta(ctx, 1 / a, e, 1)))
    hyps = (sp.Gt(y, 1), sp.Ge(x, 1), sp.Lt(x, y))
    return SmtProblem({"x": "real", "y": "real"}, hyps, sp.And(sp.Eq(arg, x**2), sp.Ge(arg, 1)),
                      ("y = e^{a/2}, a = 1/b", "x = e^{eps/2}", "0 <= eps < a"))


def _tight_problem(s: int) -> SmtProblem:
    """``delta(b, eps, s) = 0`` for ``eps >= a s`` and ``> 0`` for ``0 <= eps < a s`` (z3, the
    formula body at sensitivity s in the sym context)."""
    import sympy as sp

    a, e, x, y, _ = _symbols()
    d = _as_poly(dlap_delta(SymCtx(), 1 / a, e, s))
    hyps = (sp.Gt(y, 1), sp.Ge(x, 1))
    goal = sp.And(sp.Implies(sp.Ge(x, y**s), sp.Eq(d, 0)), sp.Implies(sp.Lt(x, y**s), sp.Gt(d, 0)))
    return SmtProblem({"x": "real", "y": "real"}, hyps, goal,
                      ("y = e^{a/2}, a = 1/b", "x = e^{eps/2}", f"sensitivity = {s}"))


def _piece_problem(s: int, k: int) -> SmtProblem:
    """On the piece ``I_k`` of the s >= 2 inverse, ``(C_k - delta(eps))/D_k = e^eps``: the
    inverse ``log((C_k - delta)/D_k)`` returns eps (z3, the formula bodies)."""
    import sympy as sp

    a, e, x, y, _ = _symbols()
    ctx = SymCtx()
    c, d = dlap_piece(ctx, 1 / a, s, k)
    arg = _as_poly((c - dlap_delta(ctx, 1 / a, e, s)) / d)
    lo = max(0, s - 2 * k - 2)
    hyps = (sp.Gt(y, 1), sp.Ge(x, 1), sp.Ge(x, y**lo), sp.Lt(x, y ** (s - 2 * k)))
    return SmtProblem({"x": "real", "y": "real"}, hyps, sp.Eq(arg, x**2),
                      ("y = e^{a/2}, a = 1/b", "x = e^{eps/2}", f"sensitivity = {s}",
                       f"eps in I_{k} = [a max(0, s - 2k - 2), a(s - 2k))"))


def _piecewise_as_logic(expr: Any) -> Any:
    """A ``Piecewise`` of relations as plain logic, ``Or_i (c_i & ~c_j (j < i) & r_i)``: the
    first true condition selects its relation (sympy's ``And``/``Implies`` and the re-check of a
    z3 model take Boolean arguments only)."""
    import sympy as sp

    if not isinstance(expr, sp.Piecewise):
        return expr
    cases, earlier = [], []
    for rel, cond in expr.args:
        cases.append(sp.And(cond, *(sp.Not(c) for c in earlier), _piecewise_as_logic(rel)))
        earlier.append(cond)
    return sp.Or(*cases)


_ROUND_TRIP_SENSITIVITIES = (1, 2, 3, 4)


def _round_trip_problem(inverse_of: Any = dlap_eps) -> SmtProblem:
    """The evaluator's round trip ``eps(b, delta(b, e, s), s) = e`` for every ``b > 0``, ``e in
    [0, s/b)`` and ``s`` in :data:`_ROUND_TRIP_SENSITIVITIES`, from the two formula bodies in the
    sym context: :func:`dlap_eps` is there a nested ``Piecewise`` (its piece selection), so the
    goal ``e^{eps(delta(e))} = e^e`` is one piecewise rational identity per ``s``, denominators
    cleared (:func:`clear_denominators`). ``inverse_of`` is the inverse under test (the quality
    tests plant wrong ones)."""
    import sympy as sp

    a, e, x, y, _ = _symbols()
    ctx = SymCtx()
    goals = []
    for s in _ROUND_TRIP_SENSITIVITIES:
        inverse = inverse_of(ctx, 1 / a, dlap_delta(ctx, 1 / a, e, s), s)
        same = sp.Eq(sp.piecewise_fold(sp.exp(inverse)), sp.exp(e))
        goals.append(sp.Implies(sp.Lt(x, y**s),
                                _piecewise_as_logic(clear_denominators(_as_poly(same)))))
    hyps = (sp.Gt(y, 1), sp.Ge(x, 1))
    return SmtProblem({"x": "real", "y": "real"}, hyps, sp.And(*goals),
                      ("y = e^{a/2}, a = 1/b", "x = e^{eps/2}",
                       "sensitivity s in {1..4}: 0 <= eps < a s, i.e. x < y^s"))


def _enumeration_problem(s: int, profile: Any = dlap_delta) -> SmtProblem:
    """The closed form equals ``sum_{x in Z} (P(x) - e^eps P(x - s))_+`` for every ``b > 0``,
    ``eps >= 0`` at sensitivity ``s`` (one problem per s: z3 does not split a conjunction over
    several s, 60 s unknown for s in {1..4} at once), the terms built by the pmf body
    (:func:`dlap_pmf`) at ``x = -m``, ``x = s + m`` (``m >= 0`` an integer symbol, ``u =
    e^{-a m}`` in ``(0, 1]``) and ``x = 0..s-1``: every term at ``x <= 0`` is ``e^{-a m}`` times
    the ``x = 0`` term, every term at ``x >= s`` is 0, and the closed form is the terms ``x =
    1..s-1`` plus the ``x = 0`` term times ``sum_{m >= 0} e^{-a m} = 1/(1 - e^{-a})`` (the
    geometric series: the one step not checked by z3). Polynomial variables ``y = e^a``, ``x =
    e^eps`` (``tanh(a/2) = (e^a - 1)/(e^a + 1)``), denominators cleared. ``profile`` is the
    closed form under test (the quality tests plant wrong ones)."""
    import sympy as sp

    a, e = sp.symbols("a e", positive=True)
    x, y, u = sp.symbols("x y u", positive=True)
    m = sp.Symbol("m", integer=True, nonnegative=True)
    ctx = SymCtx()

    def term(at: Any, s: int) -> Any:
        return ctx.pos(dlap_pmf(ctx, a, at) - ctx.exp(e) * dlap_pmf(ctx, a, at - s))

    def split(expr: Any) -> Any:  # e^{-a(m + s)} -> u e^{-a s}
        expr = expr.replace(lambda n: isinstance(n, sp.exp), lambda n: sp.Mul(
            *(sp.exp(t) for t in sp.Add.make_args(sp.expand(n.args[0])))))
        return expr.subs(sp.exp(-a * m), u)

    def poly(expr: Any) -> Any:
        expr = expr.replace(lambda n: isinstance(n, sp.tanh), lambda n: (
            sp.exp(2 * n.args[0]) - 1) / (sp.exp(2 * n.args[0]) + 1))
        out = exp_as_powers(exp_as_powers(expr, e, x), a, y)
        if out.has(sp.exp):
            raise ValueError(f"exponentials left in {out}")
        return clear_denominators(out)

    first = term(0, s)
    middle = ctx.fsum(term(j, s) for j in range(1, s))
    goals = (poly(sp.Eq(split(term(-m, s)), u * first)), poly(sp.Eq(split(term(s + m, s)), 0)),
             poly(sp.Eq(profile(ctx, 1 / a, e, s), middle + first / (1 - sp.exp(-a)))))
    hyps = (sp.Gt(y, 1), sp.Ge(x, 1), sp.Le(u, 1))
    return SmtProblem({"x": "real", "y": "real", "u": "real"}, hyps, sp.And(*goals),
                      ("y = e^a, a = 1/b", "x = e^eps", "u = e^{-a m}, m >= 0 an integer",
                       "sum_{m >= 0} e^{-a m} = 1/(1 - e^{-a})", f"sensitivity = {s}"))


def _kfold_pld(ctx: Any, b: Any, k: int, eps: Any, **_: Any) -> Any:
    """``H_{e^eps}`` of the k-fold product of the enumerated two-point PLD pair of DLap(b)."""
    p1, q1 = dlap_pld_pair(ctx, b)
    p, q = p1, q1
    for _i in range(k - 1):
        p, q = product(p, p1), product(q, q1)
    return hockey_stick(ctx, p, q, eps)


def _kov(ctx: Any, b: Any, k: int, eps: Any, **_: Any) -> Any:
    return kov_delta_pure(ctx, 1 / b, k, eps)


def _round_trip(sensitivity: int | None = None) -> Any:
    def term(ctx: Any, b: Any, t: Any, sensitivity: int = 1, **_: Any) -> Any:
        e = t * sensitivity / b  # t in [0, 1): eps in [0, s/b)
        return dlap_eps(ctx, b, dlap_delta(ctx, b, e, sensitivity), sensitivity)

    return term


def _eps_of_t(ctx: Any, b: Any, t: Any, sensitivity: int = 1, **_: Any) -> Any:
    return t * sensitivity / b


_ENUM_POINTS = tuple({"b": b, "eps": e, "sensitivity": s} for b, e, s in (
    ("1", "0.3", 1), ("0.5", "1", 1), ("2", "0.2", 3), ("1", "0", 2), ("0.25", "2.5", 1)))
_ENUM_BOX = Box(reals={"b": ("0.2", "4"), "eps": ("0", "3")}, ints={"sensitivity": (1, 4)})
_ROUND_BOX = Box(reals={"b": ("0.2", "5"), "t": ("0", "0.999")}, ints={"sensitivity": (1, 4)})


def _values(ctx: Any, value: Any, **_: Any) -> Any:
    return to_ctx(ctx, value)


DLAP = Theorem(
    id="DLAP",
    title="Exact privacy profile of the discrete Laplace (two-sided geometric) mechanism",
    family=FAMILY,
    source=cite(CKS20_V3, "pmf of sample_dlaplace and plots.dl_var in the authors' code "
                "(cb190d2); dp_accounting DiscreteLaplacePrivacyLoss (b5b0286e); profile "
                "derived"),
    types=("EXACT",),
    confidence=("DERIVED", "CONFIRMED"),
    statement="M(x) = f(x) + Y, f integer-valued with sensitivity s, Y ~ DLap(b), P[Y = y] = "
              "tanh(a/2) e^{-a|y|}, a = 1/b. For eps >= 0: delta(eps) = (e^a/(e^a + 1))(1 - "
              "e^{eps - a s})_+ + tanh(a/2) sum_{x=1}^{s-1} (e^{-a x} - e^{eps - a(s-x)})_+. "
              "s = 1: (e^a - e^eps)_+/(e^a + 1), the profile of RR(a). M is (s/b)-DP, tight. "
              "For s = 1 it dominates the continuous Laplace profile of the same scale. "
              "Var[Y] = 2 e^a/(e^a - 1)^2.",
    domain="b > 0; sensitivity integer >= 1; eps >= 0; delta in (0, 1)",
    evaluators=(
        Evaluator("delta", (B_DISCRETE, EPS, SENSITIVITY_INT), dlap_delta, "the closed form"),
        Evaluator("eps", (B_DISCRETE, DELTA, SENSITIVITY_INT), dlap_eps,
                  "least eps >= 0 with delta(b, eps, s) <= delta (closed form for s = 1, "
                  "bisection otherwise)"),
        Evaluator("variance", (B_DISCRETE,), dlap_variance, "2 e^{1/b}/(e^{1/b} - 1)^2"),
    ),
    claims=(
        Claim(1, "The closed form equals direct enumeration sum_x (P(x) - e^eps P(x - s))_+ "
                 "(window |x| <= N, remainder enclosed by P(|Y| > N) = 2 e^{-aN}/(e^a + 1)) to "
                 "1e-45 at (b, eps, s) = (1, 0.3, 1), (0.5, 1, 1), (2, 0.2, 3), (1, 0, 2), "
                 "(0.25, 2.5, 1); values 0.3680256322717079, 0.5567699411459397, "
                 "0.4913210025914842, 0.6321205588285577 (= 1 - e^{-1}), 0.7628968957987834 "
                 "(to 1e-16).",
              (Compare(_dlap, "eq", _dlap_enum, Points(_ENUM_POINTS), "oracle",
                       Tol.abs("1e-45"), "DLAP.delta", "enumeration"),
               Compare(_dlap, "eq", _values, Points(tuple(
                   {**p, "value": v} for p, v in zip(_ENUM_POINTS, (
                       "0.3680256322717079", "0.5567699411459397", "0.4913210025914842",
                       "0.6321205588285577", "0.7628968957987834"), strict=True))),
                       "numeric", Tol.abs("1e-16"), "DLAP.delta", "catalogue value")),
              scope="instance"),
        Claim(2, "s = 1 is RR(1/b): delta(b, eps, 1) = (e^{1/b} - e^eps)_+/(e^{1/b} + 1) for "
                 "every b > 0 and eps >= 0 (z3, with y = e^{a/2}, x = e^{eps/2}) [smt]; and the "
                 "k-fold composition, by the k-fold product of the enumerated two-point PLD "
                 "pair, equals KOV-DELTA.delta_pure(1/b, k, eps) to 1e-40 at b in {1, 0.5}, k "
                 "in {2, 10}, eps in {0.1, 0.7} [oracle].",
              (Smt(_rr_identity_problem, "DLAP.delta(b, eps, 1) == (e^a - e^eps)_+/(e^a + 1)",
                   part="s = 1 is RR(1/b)"),
               Compare(_kfold_pld, "eq", _kov, grid(b=["1", "0.5"], k=[2, 10],
                                                    eps=["0.1", "0.7"]),
                       "oracle", Tol.abs("1e-40"), "k-fold product of the PLD pair",
                       "KOV-DELTA.delta_pure(1/b, k, eps)", part="k-fold composition"))),
        Claim(3, "Discrete dominates continuous (s = 1): delta(b, eps, 1) >= STK-LAPLACE.delta("
                 "b, eps) for every a = 1/b > 0 and eps in [0, a] (z3 on the two formula bodies, "
                 "y = e^{a/2}, x = e^{eps/2}) [smt]; the worked values at b = 1, eps = 0.3 are "
                 "claim 9.",
              (Smt(_dominance_problem, "DLAP.delta >= STK-LAPLACE.delta on 0 <= eps <= a"),)),
        Claim(4, "Variance by enumeration (rigorous tail) equals 2e^a/(e^a - 1)^2 to 1e-45: b = "
                 "1 gives 1.841347188415585, b = 0.5 gives 0.3620308304831552, b = 3 gives "
                 "17.83425519251301 (to 1e-14).",
              (Compare(lambda ctx, b, **_: dlap_variance(ctx, b), "eq",
                       lambda ctx, b, **_: dlap_variance_enum(ctx, b),
                       grid(b=["1", "0.5", "3"]), "numeric", Tol.abs("1e-45"),
                       "DLAP.variance", "enumeration"),
               Compare(lambda ctx, b, value, **_: dlap_variance(ctx, b), "eq", _values,
                       Points(({"b": "1", "value": "1.841347188415585"},
                                     {"b": "0.5", "value": "0.3620308304831552"},
                                     {"b": "3", "value": "17.83425519251301"})),
                       "numeric", Tol.abs("1e-14"), "DLAP.variance", "catalogue value")),
              scope="instance"),
        Claim(5, "Inverse (s = 1): eps(b, delta(b, e, 1), 1) = e for every e in [0, 1/b): the "
                 "argument e^a - delta(e^a + 1) of the logarithm equals e^e >= 1 (z3) [smt]; "
                 "searched with the evaluators over b in [0.2, 5], e = t/b, t in [0, 0.999] "
                 "(1e-30) [property].",
              (Smt(_inverse_problem, "e^a - delta(eps)(e^a + 1) == e^eps >= 1"),
               Compare(_round_trip(), "eq", _eps_of_t,
                       Box(reals={"b": ("0.2", "5"), "t": ("0", "0.999")}), "property",
                       Tol.abs("1e-30"), "eps(b, delta(b, e))", "e"))),
        Claim(6, "The closed form equals the enumeration sum_x (P(x) - e^eps P(x - s))_+ for "
                 "every b > 0, eps >= 0 and s in {1..4}: z3 on the terms built by the pmf body "
                 "(every term at x = -m <= 0 is e^{-a m} times the x = 0 term, every term at x "
                 ">= s is 0, and the closed form is the terms x = 1..s-1 plus the x = 0 term "
                 "times sum_{m >= 0} e^{-a m} = 1/(1 - e^{-a}); the geometric series is the one "
                 "step outside z3) [smt]; the enumeration with its rigorous tail searched over b "
                 "in [0.2, 4], eps in [0, 3], s in {1..4} (1e-30) [property].",
              tuple(check for s in range(1, 5) for check in (
                  Smt(lambda s=s: _enumeration_problem(s),
                      f"closed form == sum_x (P(x) - e^eps P(x - s))_+, s = {s}", part=f"s = {s}"),
                  Compare(_dlap, "eq", _dlap_enum, replace(_ENUM_BOX, ints={}, fixed={
                      "sensitivity": s}), "property", Tol.abs("1e-30"), "DLAP.delta",
                      "enumeration", part=f"s = {s}")))),
        Claim(7, "Inverse at every sensitivity: on each piece I_k = [a max(0, s - 2k - 2), a(s "
                 "- 2k)) the profile is C_k - e^eps D_k and (C_k - delta(eps))/D_k = e^eps, so "
                 "the piece inverse returns eps: proved by z3 for every b > 0 and eps in I_k, "
                 "s in {2, 3, 4}, every k [smt]; the evaluator's round trip eps(b, delta(b, "
                 "e, s), s) = e, with its piece selection by comparisons (a nested Piecewise "
                 "in the sym context), proved by z3 for every b > 0, e in [0, s/b) and s in "
                 "{1..4} [smt], and searched for e = t s/b, b in [0.2, 5], t in [0, 0.999], s "
                 "in {1..4} (1e-25) [property].",
              (*(Smt(lambda s=s, k=k: _piece_problem(s, k),
                     f"(C_k - delta)/D_k == e^eps on I_k, s = {s}, k = {k}",
                     part=f"piece inverse, s = {s}, k = {k}")
                 for s in (2, 3, 4) for k in range((s - 1) // 2 + 1)),
               Smt(_round_trip_problem, "e^{eps(b, delta(b, e, s), s)} == e^e on 0 <= e < s/b, "
                   "s in {1..4}", part="the evaluator's round trip"),
               Compare(_round_trip(), "eq", _eps_of_t, _ROUND_BOX, "property",
                       Tol.abs("1e-25"), "eps(b, delta(b, e, s), s)", "e",
                       part="the evaluator's round trip"))),
        Claim(8, "M is (s/b)-DP, tight: delta(b, eps, s) = 0 for eps >= s/b and > 0 for 0 <= "
                 "eps < s/b, for every b > 0 and eps >= 0 at s in {1, 2, 3, 4} (z3 on the "
                 "formula body) [smt].",
              tuple(Smt(lambda s=s: _tight_problem(s), f"delta = 0 iff eps >= s/b, s = {s}")
                    for s in (1, 2, 3, 4))),
        Claim(9, "Worked values of claim 3 at b = 1, eps = 0.3: delta(1, 0.3, 1) = 0.3680256 "
                 "vs STK-LAPLACE.delta(1, 0.3) = 0.2953119 (to 1e-7).",
              (Compare(lambda ctx, **_: dlap_delta(ctx, ctx.one, ctx.num("0.3"), 1), "eq",
                       const("0.3680256"), Points(({},)), "numeric", Tol.abs("1e-7"),
                       "DLAP.delta(1, 0.3, 1)", "catalogue value", part="DLAP value"),
               Compare(lambda ctx, **_: laplace_delta(ctx, ctx.one, ctx.num("0.3"), ctx.one),
                       "eq", const("0.2953119"), Points(({},)), "numeric", Tol.abs("1e-7"),
                       "STK-LAPLACE.delta(1, 0.3)", "catalogue value",
                       part="STK-LAPLACE value")),
              scope="instance"),
    ),
    notes="The continuous Laplace of the same scale has a strictly smaller profile for eps < "
          "a; at sensitivity 1 the discrete mechanism is exactly as private as RR(1/b).",
)
