"""Re-checking a z3 model before it becomes a ``failed`` verdict.

The model is made rational where z3 allows, then the hypotheses and the negated goal are
re-checked exactly (rational arithmetic) or rigorously (arb balls around algebraic
approximations), in mpmath, and by the check's ``check_model`` when it has one.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Smt, SmtProblem
from dpverify.theorems.core import fmt_fraction
from dpverify.theorems.errors import TranslationError
from dpverify.verifiers.verdict import Budget, Status

APPROX_DIGITS = 40
RECHECK_BITS = 256


def _three_valued(rel: Any, exact: Mapping[Any, Any] | None, balls: Mapping[str, Any],
                  algebraic: Mapping[Any, Any] | None = None) -> bool | None:
    """Truth of a relation at the model: exactly when the model is rational, else by arb
    balls around the algebraic approximations; None if undecided."""
    import sympy as sp

    if rel is sp.true or rel is True:
        return True
    if rel is sp.false or rel is False:
        return False
    if isinstance(rel, sp.And | sp.Or):
        vals = [_three_valued(a, exact, balls, algebraic) for a in rel.args]
        if isinstance(rel, sp.And):
            return False if False in vals else (True if all(v is True for v in vals) else None)
        return True if True in vals else (False if all(v is False for v in vals) else None)
    if isinstance(rel, sp.Not):
        v = _three_valued(rel.args[0], exact, balls, algebraic)
        return None if v is None else not v
    if isinstance(rel, sp.Implies):
        return _three_valued(sp.Or(sp.Not(rel.args[0]), rel.args[1]), exact, balls, algebraic)
    diff = sp.sympify(rel.lhs - rel.rhs)
    sign = _sign_at(diff, exact, balls, algebraic)
    if sign is None:
        return None
    table = {sp.StrictLessThan: sign < 0, sp.LessThan: sign <= 0, sp.StrictGreaterThan: sign > 0,
             sp.GreaterThan: sign >= 0, sp.Equality: sign == 0, sp.Unequality: sign != 0}
    return table[type(rel)]


def _sign_at(diff: Any, exact: Mapping[Any, Any] | None, balls: Mapping[str, Any],
             algebraic: Mapping[Any, Any] | None = None) -> int | None:
    """The sign of ``diff`` at the model: exactly for a rational model; otherwise by arb balls
    around the approximations, and an undecided ball is resolved as an exact 0 when the
    minimal polynomial of the exact algebraic value (sympy ``CRootOf``) is ``t``."""
    if exact is not None:
        v = diff.xreplace(exact)
        if v.is_Rational:
            return int(bool(v > 0)) - int(bool(v < 0))
        if v.is_zero is True:
            return 0
    import flint

    from dpverify.theorems.ctx import arb_precision
    from dpverify.verifiers.interval import compile_interval

    try:
        fn = compile_interval(diff)
        with arb_precision(RECHECK_BITS):
            iv = fn(balls)
    except Exception:  # an expression the evaluator cannot enclose: undecided
        iv = None
    if iv is not None and iv.is_finite():
        if iv.lo > 0:
            return 1
        if iv.hi < 0:
            return -1
        d = iv.ball()
        if isinstance(d, flint.arb) and d.is_exact() and d == 0:
            return 0
    if algebraic is not None:
        import sympy as sp

        t = sp.Dummy("t")
        try:
            if sp.minimal_polynomial(diff.xreplace(algebraic), t) == t:
                return 0
        except Exception:  # sympy cannot compute it: undecided
            return None
    return None


def _mp_sign(diff: Any, values: Mapping[str, Fraction]) -> float | None:
    """``diff`` at the model in mpmath at ``RECHECK_BITS`` bits (None if it cannot be)."""
    import mpmath
    import sympy as sp

    syms = sorted(diff.free_symbols, key=lambda s: s.name)
    try:
        f = sp.lambdify(syms, diff, modules="mpmath")
        with mpmath.workprec(RECHECK_BITS):
            args = [mpmath.mpf(values[s.name].numerator) / values[s.name].denominator
                    for s in syms]
            return float(f(*args))
    except Exception:  # e.g. a division by zero at the model: no mpmath value
        return None


def _z3_value(v: Any) -> tuple[Fraction, bool, Any]:
    """A model value: a Fraction (exact, or a 1e-40 approximation), whether it is exact, and
    the exact value as a sympy number (``CRootOf`` for an algebraic number)."""
    import sympy as sp
    import z3

    if z3.is_int_value(v):
        q = Fraction(v.as_long())
        return q, True, sp.Integer(q.numerator)
    if z3.is_rational_value(v):
        q = Fraction(v.as_fraction())
        return q, True, sp.Rational(q.numerator, q.denominator)
    if z3.is_algebraic_value(v):
        q = Fraction(v.approx(APPROX_DIGITS).as_fraction())
        t = sp.Dummy("t")
        coeffs = [int(str(c)) for c in v.poly()]
        root = sp.CRootOf(sp.Poly(list(reversed(coeffs)), t), v.index() - 1)
        if abs(Fraction(str(sp.Rational(root.evalf(50)))) - q) > Fraction(1, 10**30):
            root = None  # the root numbering did not match: no exact value
        return q, False, root
    raise TranslationError(f"unexpected model value {v}")


def _problem_symbols(problem: SmtProblem) -> set[Any]:
    import sympy as sp

    syms: set[Any] = set()
    for r in (*problem.hypotheses, problem.goal):
        syms |= sp.sympify(r).free_symbols
    return syms


def _rational_model(solver: Any, variables: Mapping[str, Any],
                    budget: Budget) -> dict[str, tuple[Fraction, bool, Any]]:
    """The model, with algebraic values pinned to rational approximations where the
    constraints still hold (then the counterexample can be checked exactly)."""
    import z3

    m = solver.model()
    values = {n: _z3_value(m.eval(v, model_completion=True)) for n, v in variables.items()}
    for name, (q, exact, _) in list(values.items()):
        if exact or budget.remaining() <= 0:
            continue
        solver.push()
        solver.set("timeout", max(1, int(min(budget.remaining(), 5.0) * 1000)))
        solver.add(variables[name] == z3.Q(q.numerator, q.denominator, variables[name].ctx))
        if solver.check() == z3.sat:
            m = solver.model()
            values = {n: _z3_value(m.eval(v, model_completion=True))
                      for n, v in variables.items()}
        solver.pop()
    return values


def _confirm(check: Smt, problem: SmtProblem, hyps: list[tuple[str, Any, Any]],
             model: Mapping[str, tuple[Fraction, bool, Any]],
             evidence: dict[str, Any]) -> tuple[Status, str, dict[str, Any]]:
    import flint
    import sympy as sp

    from dpverify.verifiers.interval import Iv

    shown = {n: fmt_fraction(q) if exact else _show_algebraic(q, alg)
             for n, (q, exact, alg) in model.items()}
    evidence["model"] = shown
    all_exact = all(exact for _, exact, _ in model.values())
    exact_sub = None
    if all_exact:  # substitute by name: the problem's symbols may carry assumptions
        exact_sub = {s: sp.Rational(model[s.name][0].numerator, model[s.name][0].denominator)
                     for s in _problem_symbols(problem) if s.name in model}
    radius = flint.arb(flint.fmpq(1, 10**APPROX_DIGITS))
    balls: dict[str, Iv] = {}
    for n, (q, exact, _) in model.items():
        c = flint.arb(flint.fmpq(q.numerator, q.denominator))
        balls[n] = Iv(c) if exact else Iv(c - radius, c + radius)
    values = {n: q for n, (q, _, _) in model.items()}
    algebraic = None
    if not all_exact and all(alg is not None for _, _, alg in model.values()):
        algebraic = {s: model[s.name][2] for s in _problem_symbols(problem) if s.name in model}
    failures: list[str] = []
    for name, rel, _ in hyps:
        v = _three_valued(sp.sympify(rel), exact_sub, balls, algebraic)
        if v is not True:
            failures.append(f"hypothesis {name} is {'violated' if v is False else 'undecided'}")
    goal = sp.sympify(problem.goal)
    g = _three_valued(goal, exact_sub, balls, algebraic)
    if g is not False:
        failures.append(f"the goal is {'satisfied' if g else 'undecided'} at the model")
    evidence["recheck"] = "exact rational arithmetic" if all_exact else (
        f"arb balls of radius 1e-{APPROX_DIGITS} around algebraic values"
        + (", exact zeros by minimal polynomials" if algebraic else ""))
    mp_note = _mp_recheck(goal, values)
    if mp_note:
        evidence["mpmath_recheck"] = mp_note
        if mp_note.startswith("disagrees"):
            failures.append(f"mpmath {mp_note}")
    if check.check_model is not None and not failures:
        from dpverify.theorems.ctx import MpCtx

        point = {n: (int(q) if problem.variables[n] == "int" else q) for n, q in values.items()}
        try:
            confirmed = MpCtx(RECHECK_BITS).run(check.check_model, **point)
        except Exception as e:  # the original claim cannot be evaluated there
            confirmed = None
            failures.append(f"check_model raised {type(e).__name__}: {e}")
        evidence["check_model"] = confirmed
        if confirmed is not True and not failures:
            failures.append("the original (non-polynomial) claim holds at the model: the "
                            "polynomial relaxation is too weak")
    if failures:
        evidence["not_confirmed"] = failures
        return (Status.INCONCLUSIVE,
                "z3 found a model of hypotheses ∧ ¬goal that the re-check does not confirm: "
                + "; ".join(failures), evidence)
    evidence["counterexample"] = shown
    return Status.FAILED, f"counterexample {shown} (confirmed by re-check)", evidence


def _show_algebraic(q: Fraction, alg: Any) -> str:
    approx = f"{float(q):.17g}"
    return f"{approx} ({alg})" if alg is not None else f"{approx} (±1e-{APPROX_DIGITS})"


def _mp_recheck(goal: Any, values: Mapping[str, Fraction]) -> str:
    """The goal's two sides in mpmath at high precision (a second opinion on the sign)."""
    import sympy as sp

    if not isinstance(goal, sp.Rel):
        return ""
    diff = sp.sympify(goal.lhs - goal.rhs)
    v = _mp_sign(diff, values)
    if v is None:
        return ""
    holds = {sp.StrictLessThan: v < 0, sp.LessThan: v <= 0, sp.StrictGreaterThan: v > 0,
             sp.GreaterThan: v >= 0, sp.Equality: v == 0, sp.Unequality: v != 0}[type(goal)]
    state = "agrees" if not holds else "disagrees"
    return f"{state}: lhs - rhs = {v:.6g} at {RECHECK_BITS} bits"
