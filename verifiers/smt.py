"""The ``smt`` route: polynomial claims proved or refuted by z3.

A claim arrives as an :class:`~theorems.claims.SmtProblem`: sympy relations over named real (or
integer) variables, ``hypotheses ⇒ goal``, usually obtained from a formula by substituting
``x = e^eps`` (see :func:`substitute_exp`) and clearing positive denominators (see
:func:`polynomial_le`). The relations are translated to z3 (only polynomial arithmetic:
``+``, ``*``, integer powers, rational constants, rational roots through an auxiliary variable,
``Abs``/``Max``/``Min``/``Piecewise`` as if-then-else, ``< <= > >= == !=``,
``and``/``or``/``not``/``implies``; anything else is rejected and the check is
``not_applicable``), the hypotheses are asserted each tracked by a named boolean, and
``not goal`` is asserted. Then:

- ``unsat``: ``proved``; the unsat core names the hypotheses actually used. Hypotheses that
  are unsatisfiable by themselves make the claim vacuous: ``not_applicable``, never ``proved``;
- ``sat``: the model is made rational where z3 allows (algebraic values are pinned to their
  40-digit approximations when that stays a model), then the hypotheses and the negated goal
  are re-checked exactly (rational arithmetic) or rigorously (arb balls of radius 1e-40 around
  algebraic approximations), and in mpmath at 256 bits, and by the check's ``check_model`` (the
  original, non-polynomial claim in mpmath) when it has one. Only a confirmed model is a
  ``failed`` verdict; otherwise ``inconclusive``;
- ``unknown`` (timeout, incompleteness of non-linear integer arithmetic): ``inconclusive``.

Domain conditions are explicit: a division asserts its denominator is nonzero and a root its
radicand is nonnegative (sympy's principal roots), each tracked like a hypothesis and listed in
the evidence; sign assumptions of sympy symbols (``positive=True``) become tracked hypotheses
too, since sympy may already have used them.

Main results
------------
- :func:`verify`: the route, called by :mod:`verifiers.dispatch`.
- :func:`polynomial_le`, :func:`polynomial_lt`, :func:`clear_denominators`,
  :func:`substitute_exp`, :func:`positive_symbols`: helpers for authors of ``[smt]`` claims.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Smt, SmtProblem
from dpverify.theorems.core import fmt_fraction
from dpverify.theorems.errors import TranslationError as TranslationError
from dpverify.verifiers.verdict import Budget, Status

APPROX_DIGITS = 40
RECHECK_BITS = 256




# ==========================================================================================
# helpers for authors


def _sym(v: Any) -> Any:
    import sympy as sp

    return sp.Symbol(v, real=True) if isinstance(v, str) else v


def positive_symbols(hypotheses: Iterable[Any]) -> set[Any]:
    """Symbols that the hypotheses make positive: ``x > 0``, ``x >= c`` or ``x > c`` with
    ``c >= 0`` (``c > 0`` for ``>=``), in either orientation."""
    import sympy as sp

    out: set[Any] = set()
    for h in hypotheses:
        if not isinstance(h, sp.Rel):
            continue
        if isinstance(h, sp.GreaterThan | sp.StrictGreaterThan):
            big, small, strict = h.lhs, h.rhs, isinstance(h, sp.StrictGreaterThan)
        elif isinstance(h, sp.LessThan | sp.StrictLessThan):
            big, small, strict = h.rhs, h.lhs, isinstance(h, sp.StrictLessThan)
        else:
            continue
        if big.is_Symbol and small.is_number and (small > 0 or (strict and small >= 0)):
            out.add(big)
    return out


def _positive_factor(f: Any, positive: set[Any]) -> bool:
    """Is ``f`` certainly positive when the symbols of ``positive`` are?"""
    import sympy as sp

    sub = {s: sp.Symbol(f"__pos_{s.name}", positive=True) for s in f.free_symbols
           if s in positive}
    return bool(f.xreplace(sub).is_positive)


def clear_denominators(expr: Any, positive: Iterable[Any] = ()) -> Any:
    """The numerator ``N`` of ``expr = N/D`` with ``D`` certainly positive when the symbols of
    ``positive`` are (signs of the denominator's factors are moved into ``N``), expanded.

    ``expr >= 0`` iff ``N >= 0`` under those hypotheses. Raises :class:`ValueError` if a
    denominator factor has no certain sign.
    """
    import sympy as sp

    pos = {_sym(p) for p in positive}
    num, den = sp.fraction(sp.cancel(sp.together(sp.sympify(expr))))
    coeff, factors = sp.factor_list(den)
    sign = 1 if coeff > 0 else -1
    for f, mult in factors:
        if _positive_factor(f, pos):
            continue
        if _positive_factor(-f, pos):
            sign *= (-1) ** mult
            continue
        if mult % 2 == 0 and bool(f.is_nonzero):
            continue
        raise ValueError(f"cannot show that the denominator factor {f} has a constant sign; "
                         "add a hypothesis making its variables positive")
    return sp.expand(sign * num)


def polynomial_le(lhs: Any, rhs: Any, positive_vars: Iterable[Any] = ()) -> Any:
    """``lhs <= rhs`` as the polynomial relation ``N >= 0``, where ``N`` is the numerator of
    ``rhs - lhs`` after multiplying by its denominator, which must be positive when the
    variables ``positive_vars`` (symbols or names) are positive."""
    import sympy as sp

    return sp.Ge(clear_denominators(sp.sympify(rhs) - sp.sympify(lhs), positive_vars), 0)


def polynomial_lt(lhs: Any, rhs: Any, positive_vars: Iterable[Any] = ()) -> Any:
    """``lhs < rhs`` as ``N > 0`` (see :func:`polynomial_le`)."""
    import sympy as sp

    return sp.Gt(clear_denominators(sp.sympify(rhs) - sp.sympify(lhs), positive_vars), 0)


def substitute_exp(expr: Any, var: Any, x: Any) -> Any:
    """Replace ``e^{k var}`` by ``x^k`` (``x = e^var``, ``k`` rational) after rewriting
    ``tanh``, ``sinh``, ``cosh`` in exponentials, and normalise to a rational function of
    ``x``: ``tanh(var/2) -> (x - 1)/(x + 1)``. Raises :class:`ValueError` if an exponential of
    ``var`` or a fractional power of ``x`` remains."""
    import sympy as sp

    var, x = _sym(var), _sym(x)
    xp = sp.Symbol(f"__{x.name}_pos", positive=True)
    e = sp.sympify(expr).rewrite(sp.exp)

    def repl(node: Any) -> Any:
        arg = sp.expand(node.args[0])
        k = arg.coeff(var)
        rest = sp.expand(arg - k * var)
        if rest.has(var) or not sp.sympify(k).is_Rational:
            return node
        return xp**k * sp.exp(rest)

    out = e.replace(lambda n: isinstance(n, sp.exp) and n.has(var), repl)

    def fractional(t: Any) -> bool:
        return any(isinstance(n, sp.Pow) and n.base == xp and not n.exp.is_Integer
                   for n in sp.preorder_traversal(t))

    out = sp.factor(sp.cancel(sp.together(out)))
    if fractional(out):
        out = sp.simplify(out)
    if fractional(out) or any(isinstance(n, sp.exp) and n.has(var)
                              for n in sp.preorder_traversal(out)):
        raise ValueError(f"cannot write {expr} as a rational function of {x} = e^{var}")
    return out.xreplace({xp: x})


# ==========================================================================================
# sympy -> z3


@dataclass
class _Translation:
    variables: dict[str, Any]
    domain: list[tuple[str, Any, str]] = field(default_factory=list)  # (name, z3 bool, text)
    aux: int = 0
    cache: dict[Any, Any] = field(default_factory=dict)


def _z3_real(e: Any) -> Any:
    import z3

    return z3.ToReal(e) if z3.is_int(e) else e


def _translate(expr: Any, tr: _Translation) -> Any:
    import sympy as sp
    import z3

    if expr in tr.cache:
        return tr.cache[expr]
    e = expr
    if e is sp.true or e is True:
        out = z3.BoolVal(True)
    elif e is sp.false or e is False:
        out = z3.BoolVal(False)
    elif e.is_Symbol:
        if e.name not in tr.variables:
            raise TranslationError(f"variable {e.name} is not declared in the problem")
        out = tr.variables[e.name]
    elif e.is_Integer:
        out = z3.IntVal(int(e))
    elif e.is_Rational:
        out = z3.Q(int(e.p), int(e.q))
    elif e.is_Float:
        raise TranslationError(f"floating-point constant {e}: write it as a Rational")
    elif isinstance(e, sp.Add):
        terms = [_translate(a, tr) for a in e.args]
        out = z3.Sum(*terms) if len(terms) > 1 else terms[0]
    elif isinstance(e, sp.Mul):
        num = [a for a in e.args if not (isinstance(a, sp.Pow) and a.exp.is_negative)]
        den = [sp.Pow(a.base, -a.exp) for a in e.args
               if isinstance(a, sp.Pow) and a.exp.is_negative]
        top = [_translate(a, tr) for a in num] or [z3.IntVal(1)]
        out = z3.Product(*top) if len(top) > 1 else top[0]
        if den:
            out = _z3_real(out) / _denominator(sp.Mul(*den), tr)
    elif isinstance(e, sp.Pow):
        out = _translate_pow(e, tr)
    elif isinstance(e, sp.Abs):
        a = _translate(e.args[0], tr)
        out = z3.If(a >= 0, a, -a)
    elif isinstance(e, sp.Max | sp.Min):
        args = [_translate(a, tr) for a in e.args]
        out = args[0]
        for a in args[1:]:
            out = z3.If(out >= a, out, a) if isinstance(e, sp.Max) else z3.If(out <= a, out, a)
    elif isinstance(e, sp.Piecewise):
        out = None
        for value, cond in reversed(e.args):
            v = _translate(value, tr)
            out = v if out is None and cond is sp.true else z3.If(
                _translate(cond, tr), v, out if out is not None else v)
    elif isinstance(e, sp.Rel):
        a, b = _translate(e.lhs, tr), _translate(e.rhs, tr)
        ops = {sp.StrictLessThan: lambda: a < b, sp.LessThan: lambda: a <= b,
               sp.StrictGreaterThan: lambda: a > b, sp.GreaterThan: lambda: a >= b,
               sp.Equality: lambda: a == b, sp.Unequality: lambda: a != b}
        make = ops.get(type(e))
        if make is None:
            raise TranslationError(f"relation {type(e).__name__} is not supported")
        out = make()
    elif isinstance(e, sp.And):
        out = z3.And(*[_translate(a, tr) for a in e.args])
    elif isinstance(e, sp.Or):
        out = z3.Or(*[_translate(a, tr) for a in e.args])
    elif isinstance(e, sp.Not):
        out = z3.Not(_translate(e.args[0], tr))
    elif isinstance(e, sp.Implies):
        out = z3.Implies(_translate(e.args[0], tr), _translate(e.args[1], tr))
    else:
        raise TranslationError(
            f"{type(e).__name__} ({e}) is outside the polynomial fragment given to z3; "
            "substitute exponentials (x = e^eps) and clear denominators first")
    tr.cache[expr] = out
    return out


def _denominator(den: Any, tr: _Translation) -> Any:
    d = _z3_real(_translate(den, tr))
    tr.domain.append((f"domain{len(tr.domain) + 1}", d != 0, f"{den} != 0"))
    return d


def _translate_pow(e: Any, tr: _Translation) -> Any:
    import sympy as sp
    import z3

    base, x = e.args
    if x.is_Integer:
        n = int(x)
        if n < 0:
            return z3.RealVal(1) / _denominator(sp.Pow(base, -n), tr)
        b = _translate(base, tr)
        if n == 0:
            return z3.IntVal(1)
        return z3.Product(*([b] * n)) if n > 1 else b
    if x.is_Rational:  # principal root: r >= 0, r^q = base (base >= 0)
        p, q = int(x.p), int(x.q)
        b = _z3_real(_translate(base, tr))
        tr.aux += 1
        r = z3.Real(f"root{tr.aux}_of_{base}")
        tr.domain.append((f"domain{len(tr.domain) + 1}", b >= 0, f"{base} >= 0"))
        tr.domain.append((f"root{tr.aux}", z3.And(r >= 0, z3.Product(*([r] * q)) == b),
                          f"root{tr.aux} = ({base})^(1/{q})"))
        power = z3.Product(*([r] * abs(p))) if abs(p) > 1 else r
        if p < 0:
            tr.domain.append((f"domain{len(tr.domain) + 1}", b != 0, f"{base} != 0"))
            return z3.RealVal(1) / power
        return power
    raise TranslationError(f"power {e} with a non-rational exponent is not polynomial")


# ==========================================================================================
# re-checking a model


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


# ==========================================================================================
# the route


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


def _assumption_hypotheses(symbols: Iterable[Any], problem: SmtProblem) -> list[tuple[str, Any]]:
    """sympy sign assumptions of the symbols, as relations (sympy may have used them)."""
    import sympy as sp

    out: list[tuple[str, Any]] = []
    for s in sorted(symbols, key=lambda s: s.name):
        if s.is_integer and problem.variables.get(s.name) == "real":
            raise TranslationError(f"symbol {s.name} is declared integer in sympy but real in "
                                   "the problem; declare it 'int'")
        if s.is_positive:
            out.append((f"assume {s.name} > 0", sp.Gt(s, 0, evaluate=False)))
        elif s.is_nonnegative:
            out.append((f"assume {s.name} >= 0", sp.Ge(s, 0, evaluate=False)))
        if s.is_negative:
            out.append((f"assume {s.name} < 0", sp.Lt(s, 0, evaluate=False)))
        elif s.is_nonpositive:
            out.append((f"assume {s.name} <= 0", sp.Le(s, 0, evaluate=False)))
        if s.is_nonzero and not (s.is_positive or s.is_negative):
            out.append((f"assume {s.name} != 0", sp.Ne(s, 0, evaluate=False)))
    return out


def verify(check: Smt, budget: Budget) -> tuple[Status, str, dict[str, Any]]:
    """Prove ``hypotheses ⇒ goal`` (unsat of its negation) or refute it with a checked model."""
    import sympy as sp
    import z3

    started = time.monotonic()
    problem = check.build()
    evidence: dict[str, Any] = {
        "goal": str(problem.goal),
        "hypotheses": [str(h) for h in problem.hypotheses],
        "substitutions": list(problem.substitutions),
        "variables": dict(problem.variables),
        "z3_version": z3.get_version_string(),
    }
    bad = {k: v for k, v in problem.variables.items() if v not in ("real", "int")}
    if bad:
        return Status.NOT_APPLICABLE, f"variable types must be 'real' or 'int'; got {bad}", evidence
    try:
        symbols = _problem_symbols(problem)
        undeclared = sorted(s.name for s in symbols if s.name not in problem.variables)
        if undeclared:
            raise TranslationError(f"undeclared variables: {', '.join(undeclared)}")
        variables = {n: (z3.Int(n) if t == "int" else z3.Real(n))
                     for n, t in problem.variables.items()}
        tr = _Translation(variables)
        hyps: list[tuple[str, Any, Any]] = []  # (name, sympy relation, z3 bool)
        for i, h in enumerate(problem.hypotheses, 1):
            hyps.append((f"h{i}: {h}", h, _translate(sp.sympify(h), tr)))
        for name, rel in _assumption_hypotheses(symbols, problem):
            hyps.append((name, rel, _translate(rel, tr)))
        goal = _translate(sp.sympify(problem.goal), tr)
    except TranslationError as e:
        return Status.NOT_APPLICABLE, f"not a polynomial problem: {e}", evidence
    all_real = all(t == "real" for t in problem.variables.values())
    logic = "QF_NRA" if all_real else "QF_NIRA"
    solver = z3.SolverFor("QF_NRA") if all_real else z3.Solver()
    timeout_ms = max(1, int(min(budget.remaining(), budget.seconds) * 1000))
    solver.set("timeout", timeout_ms)
    tracked: dict[str, str] = {}
    for name, _rel, z in hyps:
        tag = f"t{len(tracked)}"
        tracked[tag] = name
        solver.assert_and_track(z, z3.Bool(tag))
    for name, z, text in tr.domain:
        tag = f"t{len(tracked)}"
        tracked[tag] = f"{name}: {text}"
        solver.assert_and_track(z, z3.Bool(tag))
    if tr.domain:
        evidence["domain_conditions"] = [text for _, _, text in tr.domain]
    solver.add(z3.Not(goal))
    result = solver.check()
    evidence["logic"] = logic
    evidence["timeout_ms"] = timeout_ms
    if result == z3.unsat:
        core = sorted(tracked[str(b)] for b in solver.unsat_core())
        evidence["unsat_core"] = core
        evidence["seconds"] = round(time.monotonic() - started, 3)
        if core and _vacuous(hyps, tr, budget):
            return (Status.NOT_APPLICABLE,
                    "the hypotheses are unsatisfiable by themselves: the claim holds vacuously",
                    evidence)
        used = f"using {len(core)} of {len(tracked)} hypotheses" if tracked else "unconditionally"
        return Status.PROVED, f"z3 ({logic}): hypotheses ∧ ¬goal is unsat ({used})", evidence
    if result == z3.unknown:
        evidence["reason_unknown"] = solver.reason_unknown()
        evidence["seconds"] = round(time.monotonic() - started, 3)
        return (Status.INCONCLUSIVE, f"z3 returned unknown ({solver.reason_unknown()})",
                evidence)
    model = _rational_model(solver, variables, budget)
    evidence["seconds"] = round(time.monotonic() - started, 3)
    return _confirm(check, problem, hyps, model, evidence)


def _vacuous(hyps: list[tuple[str, Any, Any]], tr: _Translation, budget: Budget) -> bool:
    import z3

    s = z3.SolverFor("QF_NRA") if all(not z3.is_int(v) for v in tr.variables.values()) \
        else z3.Solver()
    s.set("timeout", max(1, int(min(budget.remaining(), 10.0) * 1000)))
    for _, _, z in hyps:
        s.add(z)
    for _, z, _ in tr.domain:
        s.add(z)
    return s.check() == z3.unsat


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
        solver.add(variables[name] == z3.Q(q.numerator, q.denominator))
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
