"""Rigorous enclosures of sympy terms over boxes: intervals with arb endpoints.

:class:`Iv` is an interval whose ends are arb balls (an end that is exactly 0 stays 0, and
monotone functions are evaluated at both ends); :func:`compile_interval` turns a sympy
expression into a rigorous function of such intervals, :func:`compile_arb` the same over arb
balls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import Unsupported
from dpverify.verifiers.interval.boxes import _arb_fraction, _lift_arb


class _Undecided(Exception):
    """A branch condition is undecided over a box where the caller needs it decided."""


def _amin(*xs: flint.arb) -> flint.arb:
    out = xs[0]
    for x in xs[1:]:
        out = out.min(x)
    return out


def _amax(*xs: flint.arb) -> flint.arb:
    out = xs[0]
    for x in xs[1:]:
        out = out.max(x)
    return out


_INCREASING = ("exp", "log", "log1p", "expm1", "sqrt", "erf", "tanh", "atan", "sinh")
_DECREASING = ("erfc",)


class Iv:
    """A closed interval whose ends are arb balls: every value lies in ``[l, u]`` for some
    real ``l`` in the ball ``lo`` and ``u`` in the ball ``hi``.

    Ends are kept separately (not as one ball) so that an end that is exactly 0 stays exactly
    0 — a ball of a box ``[0, 1]`` has a rounded radius and dips below 0 — and monotone
    functions are evaluated at the two ends (tight), not by a ball's Lipschitz bound.
    """

    __slots__ = ("hi", "lo")

    def __init__(self, lo: flint.arb, hi: flint.arb | None = None) -> None:
        self.lo = lo
        self.hi = lo if hi is None else hi

    @staticmethod
    def of(x: Any) -> Iv:
        if isinstance(x, Iv):
            return x
        if isinstance(x, flint.arb):
            return Iv(x, x)
        return Iv(_lift_arb(x))

    @staticmethod
    def exact(lo: Fraction, hi: Fraction) -> Iv:
        a = _arb_fraction(lo)
        return Iv(a, a if hi == lo else _arb_fraction(hi))

    def ball(self) -> flint.arb:
        return self.lo if self.lo is self.hi else self.lo.union(self.hi)

    def is_finite(self) -> bool:
        return bool(self.lo.is_finite() and self.hi.is_finite())

    def nonneg(self) -> bool:
        return bool(self.lo >= 0)

    def nonpos(self) -> bool:
        return bool(self.hi <= 0)

    def __add__(self, o: Any) -> Iv:
        if type(o) is not Iv:
            o = Iv.of(o)
        if self.lo is self.hi and o.lo is o.hi:
            return Iv(self.lo + o.lo)
        return Iv(self.lo + o.lo, self.hi + o.hi)

    __radd__ = __add__

    def __neg__(self) -> Iv:
        if self.lo is self.hi:
            return Iv(-self.lo)
        return Iv(-self.hi, -self.lo)

    def __sub__(self, o: Any) -> Iv:
        return self + (-Iv.of(o))

    def __rsub__(self, o: Any) -> Iv:
        return Iv.of(o) + (-self)

    def __mul__(self, o: Any) -> Iv:
        if type(o) is not Iv:
            o = Iv.of(o)
        slo, shi, olo, ohi = self.lo, self.hi, o.lo, o.hi
        if olo is ohi or slo is shi:
            if olo is ohi:
                if slo is shi:
                    p = slo * olo
                    return Iv(p, p)
                c, ilo, ihi = olo, slo, shi
            else:
                c, ilo, ihi = slo, olo, ohi
            if c >= 0:
                return Iv(ilo * c, ihi * c)
            if c <= 0:
                return Iv(ihi * c, ilo * c)
        if slo >= 0 and olo >= 0:
            return Iv(slo * olo, shi * ohi)
        a, b, c, d = slo * olo, slo * ohi, shi * olo, shi * ohi
        return Iv(a.min(b).min(c).min(d), a.max(b).max(c).max(d))

    __rmul__ = __mul__

    def inv(self) -> Iv:
        if self.lo is self.hi:
            r = 1 / self.lo
            return Iv(r, r)
        if self.lo > 0 or self.hi < 0:
            return Iv(1 / self.hi, 1 / self.lo)
        nan = flint.arb("nan")
        return Iv(nan, nan)

    def __truediv__(self, o: Any) -> Iv:
        return self * Iv.of(o).inv()

    def __rtruediv__(self, o: Any) -> Iv:
        return Iv.of(o) * self.inv()

    def __pow__(self, n: int) -> Iv:
        if n < 0:
            return (self ** (-n)).inv()
        if n == 0:
            return Iv(flint.arb(1))
        a, b = self.lo**n, self.hi**n
        if self.lo is self.hi:
            return Iv(a, a)
        if n % 2 == 1 or self.nonneg():
            return Iv(a, b)
        if self.nonpos():
            return Iv(b, a)
        return Iv(flint.arb(0), a.max(b))

    def power(self, r: flint.arb, negative: bool) -> Iv:
        """``x^r`` for a non-integer exponent (defined for x >= 0)."""
        a, b = self.lo**r, self.hi**r
        return Iv(b, a) if negative else Iv(a, b)

    def apply(self, method: str) -> Iv:
        """A one-argument function: at both ends if monotone, else on the hull ball."""
        if self.lo is self.hi:
            v = getattr(self.lo, method)()
            return Iv(v, v)
        if method in _INCREASING:
            return Iv(getattr(self.lo, method)(), getattr(self.hi, method)())
        if method in _DECREASING:
            return Iv(getattr(self.hi, method)(), getattr(self.lo, method)())
        if method == "cosh":
            if self.nonneg():
                return Iv(self.lo.cosh(), self.hi.cosh())
            if self.nonpos():
                return Iv(self.hi.cosh(), self.lo.cosh())
            return Iv(flint.arb(1), self.lo.cosh().max(self.hi.cosh()))
        if method == "digamma" and self.lo > 0:
            return Iv(self.lo.digamma(), self.hi.digamma())
        v = getattr(self.ball(), method)()
        return Iv(v, v)

    def abs(self) -> Iv:
        if self.nonneg():
            return self
        if self.nonpos():
            return -self
        return Iv(flint.arb(0), (-self.lo).max(self.hi))

    def max(self, o: Iv) -> Iv:
        return Iv(self.lo.max(o.lo), self.hi.max(o.hi))

    def min(self, o: Iv) -> Iv:
        return Iv(self.lo.min(o.lo), self.hi.min(o.hi))

    def meet(self, o: Iv) -> Iv:
        """The intersection of two enclosures of the same quantity (both hold, so it does)."""
        return Iv(self.lo.max(o.lo), self.hi.min(o.hi))

    def magnitude(self) -> flint.arb:
        """An upper bound of ``|x|`` over the interval."""
        return abs(self.lo).max(abs(self.hi)).upper()

    def hull(self, o: Iv) -> Iv:
        return Iv(self.lo.min(o.lo), self.hi.max(o.hi))

    # three-valued comparisons: True for every point, False for none, None undecided
    def lt(self, o: Iv) -> bool | None:
        return True if self.hi < o.lo else (False if self.lo >= o.hi else None)

    def le(self, o: Iv) -> bool | None:
        return True if self.hi <= o.lo else (False if self.lo > o.hi else None)

    def eq(self, o: Iv) -> bool | None:
        if self.lt(o) is True or o.lt(self) is True:
            return False
        d = (self.lo - o.lo, self.hi - o.hi, self.lo - o.hi)
        return True if all(x.is_exact() and x == 0 for x in d) else None

    def __repr__(self) -> str:
        return f"Iv({self.lo}, {self.hi})"


def _tri_cmp(op: str) -> Callable[[Iv, Iv], bool | None]:
    def ne(a: Iv, b: Iv) -> bool | None:
        r = a.eq(b)
        return None if r is None else not r

    table: dict[str, Callable[[Iv, Iv], bool | None]] = {
        "lt": Iv.lt, "le": Iv.le, "gt": lambda a, b: b.lt(a), "ge": lambda a, b: b.le(a),
        "eq": Iv.eq, "ne": ne,
    }
    return table[op]


_CHAIN = 32  # operands per statement of a generated sum or product

_UNARY = {"exp": "exp", "log": "log", "erfc": "erfc", "erf": "erf", "tanh": "tanh",
          "sinh": "sinh", "cosh": "cosh", "atan": "atan", "loggamma": "lgamma",
          "gamma": "gamma"}


def compile_interval(expr: Any,
                     strict_branches: bool = False) -> Callable[[Mapping[str, Iv]], Iv]:
    """A sympy expression as a function ``env -> Iv`` of intervals keyed by symbol name.

    The result encloses the expression's range over the intervals of ``env`` (at flint's
    current working precision). Supported: numbers (no floats), ``pi``, ``E``, ``oo``, ``+``,
    ``*``, powers, ``exp``, ``log``, ``erf``, ``erfc``, ``tanh``, ``sinh``, ``cosh``, ``atan``,
    ``loggamma``, ``gamma``, ``polygamma(0, x)``, ``Abs``, ``Max``, ``Min``, ``sign``,
    ``Heaviside``, ``Piecewise`` with relational/boolean conditions. A ``Piecewise`` (or
    ``sign``/``Heaviside``) whose condition the intervals cannot decide takes the hull of its
    possible values, or raises ``_Undecided`` if ``strict_branches``. Anything else raises
    :class:`~theorems.ctx.Unsupported`. The function is a generated straight-line program
    (:func:`_straight_line`) running the same operations as the closures of :func:`_closures`.
    """
    import sympy as sp

    build, unary_types = _closures(strict_branches)
    return _straight_line(sp.sympify(expr), build, unary_types)


def _closures(strict_branches: bool) -> tuple[Callable[[Any], Callable[[Mapping[str, Iv]], Iv]],
                                              dict[Any, str]]:
    """A builder of one closure per node (the recursive evaluation of a sympy expression over
    intervals, subexpressions built once), and the sympy types of the one-argument
    functions with their arb method names."""
    import sympy as sp

    memo: dict[Any, Callable[[Mapping[str, Iv]], Iv]] = {}
    unary_types = {getattr(sp, k): v for k, v in _UNARY.items()}

    def build(e: Any) -> Callable[[Mapping[str, Iv]], Iv]:
        f = memo.get(e)
        if f is None:
            f = _build(e)
            memo[e] = f
        return f

    def cond(c: Any) -> Callable[[Mapping[str, Iv]], bool | None]:
        if c is sp.true:
            return lambda env: True
        if c is sp.false:
            return lambda env: False
        rel = {sp.StrictLessThan: "lt", sp.LessThan: "le", sp.StrictGreaterThan: "gt",
               sp.GreaterThan: "ge", sp.Equality: "eq", sp.Unequality: "ne"}.get(type(c))
        if rel is not None:
            fl, fr, cmp = build(c.lhs), build(c.rhs), _tri_cmp(rel)
            return lambda env: cmp(fl(env), fr(env))
        if isinstance(c, sp.Not):
            fc = cond(c.args[0])
            return lambda env: None if (r := fc(env)) is None else not r
        if isinstance(c, sp.And | sp.Or):
            parts = [cond(a) for a in c.args]
            is_and = isinstance(c, sp.And)

            def combine(env: Mapping[str, Iv]) -> bool | None:
                vals = [p(env) for p in parts]
                if is_and:
                    return False if False in vals else (True if all(vals) else None)
                if True in vals:
                    return True
                return False if all(v is False for v in vals) else None

            return combine
        raise Unsupported(f"condition {c} cannot be evaluated over intervals")

    def const(make: Callable[[], flint.arb]) -> Callable[[Mapping[str, Iv]], Iv]:
        return lambda env: Iv(make())

    def _build(e: Any) -> Callable[[Mapping[str, Iv]], Iv]:
        if e.is_Symbol:
            name = e.name
            return lambda env: env[name]
        if e.is_Integer:
            c = Iv(flint.arb(flint.fmpz(int(e))))
            return lambda env: c
        if e.is_Rational:
            p, q = int(e.p), int(e.q)
            return const(lambda: flint.arb(flint.fmpq(p, q)))
        if e.is_Float:
            raise Unsupported(f"floating-point constant {e} in a symbolic form")
        if e is sp.pi:
            return const(flint.arb.pi)
        if e is sp.E:
            return const(lambda: flint.arb(1).exp())
        if e is sp.oo:
            return const(flint.arb.pos_inf)
        if e is sp.S.NegativeInfinity:
            return const(flint.arb.neg_inf)
        if isinstance(e, sp.Add | sp.Mul):
            fs = [build(a) for a in e.args]
            is_add = isinstance(e, sp.Add)

            def fold(env: Mapping[str, Iv]) -> Iv:
                s = fs[0](env)
                for f in fs[1:]:
                    s = s + f(env) if is_add else s * f(env)
                return s

            return fold
        if isinstance(e, sp.Pow):
            b, x = e.args
            fb = build(b)
            if x.is_Integer:
                n = int(x)
                return lambda env: fb(env) ** n
            if x == sp.Rational(1, 2):
                return lambda env: fb(env).apply("sqrt")
            if x == sp.Rational(-1, 2):
                return lambda env: fb(env).apply("sqrt").inv()
            if x.is_Rational:
                p, q, neg = int(x.p), int(x.q), bool(x < 0)
                return lambda env: fb(env).power(flint.arb(flint.fmpq(p, q)), neg)
            fx = build(x)
            return lambda env: (fx(env) * fb(env).apply("log")).apply("exp")
        method = unary_types.get(type(e))
        if method is not None:
            if len(e.args) != 1:
                raise Unsupported(f"{type(e).__name__} with {len(e.args)} arguments")
            fa = build(e.args[0])
            return lambda env: fa(env).apply(method)
        if isinstance(e, sp.polygamma) and e.args[0] == 0:
            fa = build(e.args[1])
            return lambda env: fa(env).apply("digamma")
        if isinstance(e, sp.Abs):
            fa = build(e.args[0])
            return lambda env: fa(env).abs()
        if isinstance(e, sp.Max | sp.Min):
            fs = [build(a) for a in e.args]
            method = "max" if isinstance(e, sp.Max) else "min"

            def mm(env: Mapping[str, Iv]) -> Iv:
                out = fs[0](env)
                for f in fs[1:]:
                    out = getattr(out, method)(f(env))
                return out

            return mm
        if isinstance(e, sp.sign | sp.Heaviside):
            fa = build(e.args[0])
            if isinstance(e, sp.sign):
                neg, zero, pos = flint.arb(-1), flint.arb(0), flint.arb(1)
            else:
                h0 = e.args[1] if len(e.args) > 1 else sp.Rational(1, 2)
                if not h0.is_Rational:
                    raise Unsupported(f"Heaviside with value {h0} at 0")
                neg, pos = flint.arb(0), flint.arb(1)
                zero = flint.arb(flint.fmpq(int(h0.p), int(h0.q)))

            def step(env: Mapping[str, Iv]) -> Iv:
                a = fa(env)
                if a.lo > 0:
                    return Iv(pos)
                if a.hi < 0:
                    return Iv(neg)
                if a.eq(Iv(flint.arb(0))) is True:
                    return Iv(zero)
                if strict_branches:
                    raise _Undecided(str(e))
                return Iv(_amin(neg, zero, pos), _amax(neg, zero, pos))

            return step
        if isinstance(e, sp.Piecewise):
            branches = [(build(ex), cond(c)) for ex, c in e.args]

            def pw(env: Mapping[str, Iv]) -> Iv:
                acc = None
                for fe, fc in branches:
                    c = fc(env)
                    if c is False:
                        continue
                    if c is None and strict_branches:
                        raise _Undecided(str(e))
                    v = fe(env)
                    acc = v if acc is None else acc.hull(v)
                    if c is True:
                        return acc
                if acc is None:
                    raise _Undecided("no branch of a Piecewise applies")
                return acc

            return pw
        raise Unsupported(f"{type(e).__name__} ({e}) cannot be evaluated over intervals")

    return build, unary_types


def _straight_line(root: Any, tree: Callable[[Any], Callable[[Mapping[str, Iv]], Iv]],
                   unary_types: Mapping[Any, str]) -> Callable[[Mapping[str, Iv]], Iv]:
    """``root`` as one generated Python function: a straight-line program with one statement
    per distinct subexpression (so a subexpression shared by several terms is evaluated once
    per call), running the same :class:`Iv` operations in the same order as the closures of
    ``tree``. Nodes evaluated only on demand (``Piecewise``, ``sign``, ``Heaviside``, whose
    branches may not be evaluated where their condition is false) call their ``tree``
    closure; so does every node ``tree`` rejects (it raises :class:`Unsupported` now)."""
    import sympy as sp

    ns: dict[str, Any] = {"Iv": Iv, "_arb": flint.arb, "_fmpq": flint.fmpq}
    lines: list[str] = []
    reg: dict[Any, str] = {}

    def emit(code: str) -> str:
        r = f"r{len(lines)}"
        lines.append(f"    {r} = {code}")
        return r

    def visit(e: Any) -> str:
        r = reg.get(e)
        if r is None:
            r = reg[e] = emit(_code(e))
        return r

    def bound(value: Any) -> str:
        name = f"k{len(ns)}"
        ns[name] = value
        return name

    def _code(e: Any) -> str:
        if e.is_Symbol:
            return f"env[{e.name!r}]"
        if e.is_Integer:
            return bound(Iv(flint.arb(flint.fmpz(int(e)))))
        if e.is_Rational:
            return f"Iv(_arb(_fmpq({int(e.p)}, {int(e.q)})))"
        if e is sp.pi:
            return "Iv(_arb.pi())"
        if e is sp.E:
            return "Iv(_arb(1).exp())"
        if e is sp.oo:
            return "Iv(_arb.pos_inf())"
        if e is sp.S.NegativeInfinity:
            return "Iv(_arb.neg_inf())"
        if isinstance(e, sp.Add | sp.Mul):
            # a left fold, as in ``tree``, in statements of a few operands (a long chain of
            # operators would nest too deep for Python's compiler)
            op = " + " if isinstance(e, sp.Add) else " * "
            regs = [visit(a) for a in e.args]
            acc, rest = op.join(regs[:_CHAIN]), regs[_CHAIN:]
            while rest:
                acc = emit(acc)
                acc, rest = op.join([acc, *rest[:_CHAIN - 1]]), rest[_CHAIN - 1:]
            return acc
        if isinstance(e, sp.Pow):
            b, x = e.args
            if x.is_Integer:
                return f"{visit(b)} ** ({int(x)})"
            if x == sp.Rational(1, 2):
                return f"{visit(b)}.apply('sqrt')"
            if x == sp.Rational(-1, 2):
                return f"{visit(b)}.apply('sqrt').inv()"
            if x.is_Rational:
                return (f"{visit(b)}.power(_arb(_fmpq({int(x.p)}, {int(x.q)})), "
                        f"{bool(x < 0)})")
            return f"({visit(x)} * {visit(b)}.apply('log')).apply('exp')"
        method = unary_types.get(type(e))
        if method is not None and len(e.args) == 1:
            return f"{visit(e.args[0])}.apply({method!r})"
        if isinstance(e, sp.polygamma) and e.args[0] == 0:
            return f"{visit(e.args[1])}.apply('digamma')"
        if isinstance(e, sp.Abs):
            return f"{visit(e.args[0])}.abs()"
        if isinstance(e, sp.Max | sp.Min):
            method = "max" if isinstance(e, sp.Max) else "min"
            return "".join([visit(e.args[0])] + [f".{method}({visit(a)})" for a in e.args[1:]])
        return f"{bound(tree(e))}(env)"

    out = visit(root)
    source = "def program(env):\n" + "\n".join(lines) + f"\n    return {out}\n"
    exec(compile(source, "<compile_interval>", "exec"), ns)
    return ns["program"]  # type: ignore[no-any-return]


def compile_arb(expr: Any, strict_branches: bool = False) -> Callable[[Mapping[str, Any]], Any]:
    """A sympy expression as a function of arb balls keyed by symbol name (an enclosure)."""
    f = compile_interval(expr, strict_branches)
    return lambda env: f({k: Iv.of(v) for k, v in env.items()}).ball()
