"""sympy relations to z3: only polynomial arithmetic, with explicit domain conditions.

A division asserts its denominator is nonzero and a root its radicand is nonnegative, each
tracked like a hypothesis; anything that is not polynomial raises ``TranslationError``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dpverify.theorems.errors import TranslationError


@dataclass
class _Translation:
    variables: dict[str, Any]
    ctx: Any = None  # the z3 Context of the variables (None: z3's main context)
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
        out = z3.BoolVal(True, tr.ctx)
    elif e is sp.false or e is False:
        out = z3.BoolVal(False, tr.ctx)
    elif e.is_Symbol:
        if e.name not in tr.variables:
            raise TranslationError(f"variable {e.name} is not declared in the problem")
        out = tr.variables[e.name]
    elif e.is_Integer:
        out = z3.IntVal(int(e), tr.ctx)
    elif e.is_Rational:
        out = z3.Q(int(e.p), int(e.q), tr.ctx)
    elif e.is_Float:
        raise TranslationError(f"floating-point constant {e}: write it as a Rational")
    elif isinstance(e, sp.Add):
        terms = [_translate(a, tr) for a in e.args]
        out = z3.Sum(*terms) if len(terms) > 1 else terms[0]
    elif isinstance(e, sp.Mul):
        num = [a for a in e.args if not (isinstance(a, sp.Pow) and a.exp.is_negative)]
        den = [sp.Pow(a.base, -a.exp) for a in e.args
               if isinstance(a, sp.Pow) and a.exp.is_negative]
        top = [_translate(a, tr) for a in num] or [z3.IntVal(1, tr.ctx)]
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
    elif isinstance(e, sp.ITE):  # sympy folds nested Piecewise conditions into ITE
        c, t, f = (_translate(a, tr) for a in e.args)
        out = z3.If(c, t, f)
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
            return z3.RealVal(1, tr.ctx) / _denominator(sp.Pow(base, -n), tr)
        b = _translate(base, tr)
        if n == 0:
            return z3.IntVal(1, tr.ctx)
        return z3.Product(*([b] * n)) if n > 1 else b
    if x.is_Rational:  # principal root: r >= 0, r^q = base (base >= 0)
        p, q = int(x.p), int(x.q)
        b = _z3_real(_translate(base, tr))
        tr.aux += 1
        r = z3.Real(f"root{tr.aux}_of_{base}", tr.ctx)
        tr.domain.append((f"domain{len(tr.domain) + 1}", b >= 0, f"{base} >= 0"))
        tr.domain.append((f"root{tr.aux}", z3.And(r >= 0, z3.Product(*([r] * q)) == b),
                          f"root{tr.aux} = ({base})^(1/{q})"))
        power = z3.Product(*([r] * abs(p))) if abs(p) > 1 else r
        if p < 0:
            tr.domain.append((f"domain{len(tr.domain) + 1}", b != 0, f"{base} != 0"))
            return z3.RealVal(1, tr.ctx) / power
        return power
    raise TranslationError(f"power {e} with a non-rational exponent is not polynomial")
