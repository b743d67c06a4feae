"""The ``interval`` route: rigorous branch and bound over a box with arb balls.

Each side of a comparison is evaluated in :class:`~theorems.ctx.ArbCtx` with interval inputs,
which encloses its range over the whole sub-box. A sub-box is certified when the enclosures
decide the comparison for all of it. Otherwise the difference ``g`` (``rhs - lhs`` for ``le``/
``lt``, ``lhs - rhs`` for ``ge``/``gt``; the claim is ``g >= 0`` or ``g > 0``) is bounded below
by **monotonicity pruning** and the **mean-value form**:

- if a partial derivative ``dg/dx`` has a certified sign on the sub-box, ``g`` is monotone in
  ``x`` there and its minimum lies on one face: the interval of ``x`` is replaced by that
  endpoint (the worst case for the claim). The sign of a derivative is certified the same way,
  with higher derivatives a few levels deep, and from the signs of the factors of a product
  (``(e^x - 1)^2 >= 0``). This is what proves bounds that are tight on a face (``g = 0`` at
  ``eps0 = 0``, at ``q = 0``), where no enclosure of ``g`` alone can;
- on what remains, ``g(c) + sum_i g_i(B) (B_i - c_i)`` (``c`` the centre) encloses ``g``.

Derivatives come from sympy: the terms are evaluated in :class:`~theorems.ctx.SymCtx` over
symbols carrying the sign assumptions of the whole box, normalised (expanded, exponentials
merged; ``sympy.simplify`` while small and cheap), differentiated with ``sympy.diff`` and
evaluated by :func:`compile_interval` over intervals whose ends are arb balls (so that an end
that is exactly 0 stays 0 and monotone functions are evaluated at both ends). Two safeguards,
not sources of rigour: the symbolic ``g`` must agree with the arb evaluation of the terms at a
few points, and a derivative with the difference quotient of its function (mean-value
theorem). Where sympy cannot represent a term (``ctx.solve``, ``ctx.quad``, a Python branch on
a value), first derivatives come from forward-mode automatic differentiation over arb balls
(:class:`DualCtx`, with the implicit-function rule for ``ctx.solve``); where neither works,
there is no pruning. Derivatives are used only where ``g`` is continuous on the sub-box: every
``Piecewise`` branch decided there (sympy drops the condition of a ``Piecewise`` whose branches
have equal derivatives, so a jump would otherwise go unseen), no step function, a finite
enclosure of the derivative.

Integer parameters are enumerated over their stated range; a sub-box that stays undecided is
split along its widest side (geometrically for ``log_scale`` parameters).

Verdicts: ``proved`` only when every sub-box of the whole region is certified; ``failed`` with a
point certified to violate the claim (a sub-box midpoint, or the worst-case corner found by
monotonicity), re-checked at higher precision by :func:`verifiers.numeric.decide`; otherwise
``inconclusive`` with the undecided boxes in the evidence. The evidence counts the boxes
processed, certified directly, pruned by monotonicity and certified by the mean-value form,
and the boxes per second.

Main results
------------
- :func:`verify_box`: the route, called by :mod:`verifiers.dispatch`.
- :func:`compile_interval`: a sympy expression as a rigorous function of intervals
  (:class:`Iv`); :func:`compile_arb` the same over arb balls.
- :class:`DualCtx`: the formula context of dual numbers over arb balls (value and gradient).
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import Box, Compare, Predicate
from dpverify.theorems.ctx import (
    ArbCtx,
    Ctx,
    Interval,
    PrecisionExhausted,
    SymCtx,
    Unsupported,
    arb_precision,
)
from dpverify.verifiers.numeric import _decide_arb, decide, show_point
from dpverify.verifiers.verdict import Budget, Status

START_BITS = 96
SIMPLIFY_MAX_NODES = 250  # expand (and simplify) only expressions this small (tree nodes)
MAX_DERIVATIVE_NODES = 1000  # larger derivatives evaluate slowly and loosely: not used
SIMPLIFY_SECONDS = 1.0  # time after which a check stops calling sympy.simplify
SYMPY_SECONDS = 8.0  # symbolic work (building, differentiating) per check
SYMPY_STEP_SECONDS = 2.0  # one symbolic operation
_EVAL_ERRORS = (PrecisionExhausted, Unsupported, ZeroDivisionError, ValueError, ArithmeticError,
                TypeError, OverflowError)


# ==========================================================================================
# sub-boxes


@dataclass
class SubBox:
    reals: dict[str, tuple[Fraction, Fraction]]
    ints: dict[str, int]
    depth: int = 0

    def point(self) -> dict[str, Any]:
        p: dict[str, Any] = dict(self.ints)
        for k, (lo, hi) in self.reals.items():
            p[k] = (lo + hi) / 2
        return p

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: [_f(lo), _f(hi)] for k, (lo, hi) in self.reals.items()}
        d.update(self.ints)
        return d


def _f(x: Fraction) -> str:
    return f"{float(x):.6g}"


def _int_assignments(box: Box) -> Iterator[dict[str, int]]:
    names = list(box.ints)
    ranges = [range(lo, hi + 1) for lo, hi in (box.ints[n] for n in names)]
    for combo in itertools.product(*ranges):
        yield dict(zip(names, combo, strict=True))


def _width(name: str, lo: Fraction, hi: Fraction, log_scale: frozenset[str]) -> float:
    if name in log_scale and lo > 0:
        return math.log(float(hi) / float(lo))
    return float(hi - lo)


def _split(sub: SubBox, log_scale: frozenset[str]) -> tuple[SubBox, SubBox]:
    name = max(sub.reals, key=lambda n: _width(n, *sub.reals[n], log_scale))
    lo, hi = sub.reals[name]
    if name in log_scale and lo > 0:
        mid = Fraction(math.sqrt(float(lo) * float(hi)))
        if not lo < mid < hi:
            mid = (lo + hi) / 2
    else:
        mid = (lo + hi) / 2
    left = dict(sub.reals)
    right = dict(sub.reals)
    left[name] = (lo, mid)
    right[name] = (mid, hi)
    return SubBox(left, sub.ints, sub.depth + 1), SubBox(right, sub.ints, sub.depth + 1)


def _fixed_values(fixed: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (Fraction(v) if isinstance(v, str) else v) for k, v in fixed.items()}


def _box_params(sub: SubBox, fixed: Mapping[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {k: Interval(lo, hi) for k, (lo, hi) in sub.reals.items()}
    params.update(sub.ints)
    params.update(_fixed_values(fixed))
    return params


def _arb_fraction(q: Fraction) -> flint.arb:
    if q.denominator == 1:
        return flint.arb(flint.fmpz(q.numerator))
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def _arb_interval(lo: Fraction, hi: Fraction) -> flint.arb:
    if lo == hi:
        return _arb_fraction(lo)
    return _arb_fraction(lo).union(_arb_fraction(hi))


def decide_box(check: Compare | Predicate, params: Mapping[str, Any], prec: int) -> bool | None:
    """Certified decision for a whole box: True/False for every point, None if undecided."""
    ctx = ArbCtx(prec)
    try:
        if isinstance(check, Predicate):
            return ctx.run(check.test, **params)
        lhs = ctx.run(check.lhs, **params)
        rhs = ctx.run(check.rhs, **params)
    except (PrecisionExhausted, ZeroDivisionError, ValueError):
        return None
    with arb_precision(prec):
        holds, _ = _decide_arb(flint.arb(lhs), check.op, flint.arb(rhs), check.tol)
    return holds


# ==========================================================================================
# intervals with arb endpoints, and sympy -> intervals


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
        o = Iv.of(o)
        if self.lo is self.hi and o.lo is o.hi:
            p = self.lo * o.lo
            return Iv(p, p)
        if o.lo is o.hi or self.lo is self.hi:
            pt, iv = (o, self) if o.lo is o.hi else (self, o)
            c = pt.lo
            if c >= 0:
                return Iv(iv.lo * c, iv.hi * c)
            if c <= 0:
                return Iv(iv.hi * c, iv.lo * c)
        if self.nonneg() and o.nonneg():
            return Iv(self.lo * o.lo, self.hi * o.hi)
        ps = (self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi)
        return Iv(_amin(*ps), _amax(*ps))

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
    :class:`~theorems.ctx.Unsupported`.
    """
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

    return build(sp.sympify(expr))


def compile_arb(expr: Any, strict_branches: bool = False) -> Callable[[Mapping[str, Any]], Any]:
    """A sympy expression as a function of arb balls keyed by symbol name (an enclosure)."""
    f = compile_interval(expr, strict_branches)
    return lambda env: f({k: Iv.of(v) for k, v in env.items()}).ball()


# ==========================================================================================
# forward-mode automatic differentiation over arb balls


def _lift_arb(x: Any) -> flint.arb:
    if isinstance(x, flint.arb):
        return x
    if isinstance(x, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(x, int):
        return flint.arb(flint.fmpz(x))
    if isinstance(x, Fraction):
        return _arb_fraction(x)
    if isinstance(x, float):
        return flint.arb(x)
    raise TypeError(f"cannot use {type(x).__name__} in a dual number")


class Dual:
    """A value ball and the balls of its partial derivatives (by parameter name)."""

    __slots__ = ("d", "v")

    def __init__(self, v: flint.arb, d: dict[str, flint.arb] | None = None) -> None:
        self.v = v
        self.d = d or {}

    @staticmethod
    def lift(x: Any) -> Dual:
        return x if isinstance(x, Dual) else Dual(_lift_arb(x))

    def chain(self, v: flint.arb, dv: flint.arb) -> Dual:
        """``f(self)`` with value ``v`` and ``f'(self) = dv``."""
        return Dual(v, {k: dv * g for k, g in self.d.items()})

    def __add__(self, o: Any) -> Dual:
        o = Dual.lift(o)
        d = dict(self.d)
        for k, g in o.d.items():
            d[k] = d[k] + g if k in d else g
        return Dual(self.v + o.v, d)

    __radd__ = __add__

    def __neg__(self) -> Dual:
        return Dual(-self.v, {k: -g for k, g in self.d.items()})

    def __pos__(self) -> Dual:
        return self

    def __sub__(self, o: Any) -> Dual:
        return self + (-Dual.lift(o))

    def __rsub__(self, o: Any) -> Dual:
        return Dual.lift(o) + (-self)

    def __mul__(self, o: Any) -> Dual:
        o = Dual.lift(o)
        d = {k: g * o.v for k, g in self.d.items()}
        for k, g in o.d.items():
            d[k] = d[k] + self.v * g if k in d else self.v * g
        return Dual(self.v * o.v, d)

    __rmul__ = __mul__

    def __truediv__(self, o: Any) -> Dual:
        o = Dual.lift(o)
        inv = 1 / o.v
        return self * Dual(inv, {k: -g * inv * inv for k, g in o.d.items()})

    def __rtruediv__(self, o: Any) -> Dual:
        return Dual.lift(o) / self

    def __pow__(self, y: Any) -> Dual:
        if isinstance(y, int) and not isinstance(y, bool):
            if y == 0:
                return Dual(flint.arb(1))
            return self.chain(self.v**y, y * self.v ** (y - 1))
        y = Dual.lift(y)
        if not y.d and y.v.is_exact() and y.v == 0:
            return Dual(flint.arb(1))
        return _dexp(y * _dlog(self))

    def __rpow__(self, b: Any) -> Dual:
        return Dual.lift(b) ** self

    def __abs__(self) -> Dual:
        if self.v >= 0:
            return self
        if self.v <= 0:
            return -self
        return Dual(abs(self.v), {k: g.union(-g) for k, g in self.d.items()})

    def __lt__(self, o: Any) -> bool:
        return bool(self.v < Dual.lift(o).v)

    def __le__(self, o: Any) -> bool:
        return bool(self.v <= Dual.lift(o).v)

    def __gt__(self, o: Any) -> bool:
        return bool(self.v > Dual.lift(o).v)

    def __ge__(self, o: Any) -> bool:
        return bool(self.v >= Dual.lift(o).v)

    def __repr__(self) -> str:
        return f"Dual({self.v}, {self.d})"


def _dexp(x: Dual) -> Dual:
    v = x.v.exp()
    return x.chain(v, v)


def _dlog(x: Dual) -> Dual:
    return x.chain(x.v.log(), 1 / x.v)


def _hull_grads(a: Dual, b: Dual) -> dict[str, flint.arb]:
    zero = flint.arb(0)
    return {k: a.d.get(k, zero).union(b.d.get(k, zero)) for k in set(a.d) | set(b.d)}


class DualCtx(Ctx):
    """Dual numbers over arb balls: the value and the gradient of a formula over a box.

    Parameters named in ``active`` that arrive as :class:`~theorems.ctx.Interval` are seeded
    with a unit derivative. A branch (``piecewise_lt``) undecided over the box raises
    :class:`~theorems.ctx.Unsupported`: a derivative across a possible jump says nothing about
    monotonicity. ``max``/``min``/``abs`` undecided take the hull of the one-sided gradients (a
    generalised gradient, valid for these continuous functions). ``solve`` returns the
    enclosure of the root with the derivative of the implicit-function theorem.
    """

    name = "dual"
    rigorous = True

    def __init__(self, prec: int = START_BITS, active: tuple[str, ...] = ()) -> None:
        self.prec = prec
        self.active = active
        self._solves = itertools.count()

    def run(self, formula: Callable[..., Any], **params: Any) -> Any:
        keep = set(getattr(formula, "exact_params", ())) & set(self.active)
        if keep:  # the formula converts them itself: their derivatives would be lost
            raise Unsupported(f"exact parameters {sorted(keep)} cannot carry derivatives")
        with arb_precision(self.prec):
            conv: dict[str, Any] = {}
            for k, v in params.items():
                if isinstance(v, Interval) and k in self.active:
                    conv[k] = Dual(_arb_interval(v.lo, v.hi), {k: flint.arb(1)})
                else:
                    conv[k] = self.convert(v)
            return formula(self, **conv)

    def num(self, x: Fraction | int | str) -> Dual:
        return Dual(_arb_fraction(Fraction(x)))

    def interval(self, lo: Fraction, hi: Fraction) -> Dual:
        return Dual(_arb_interval(lo, hi))

    @property
    def pi(self) -> Dual:
        return Dual(flint.arb.pi())

    @property
    def inf(self) -> Dual:
        return Dual(flint.arb.pos_inf())

    def exp(self, x: Any) -> Dual:
        return _dexp(Dual.lift(x))

    def log(self, x: Any) -> Dual:
        return _dlog(Dual.lift(x))

    def log1p(self, x: Any) -> Dual:
        x = Dual.lift(x)
        return x.chain(x.v.log1p(), 1 / (1 + x.v))

    def expm1(self, x: Any) -> Dual:
        x = Dual.lift(x)
        return x.chain(x.v.expm1(), x.v.exp())

    def sqrt(self, x: Any) -> Dual:
        x = Dual.lift(x)
        s = x.v.sqrt()
        return x.chain(s, 1 / (2 * s))

    def erfc(self, x: Any) -> Dual:
        x = Dual.lift(x)
        return x.chain(x.v.erfc(), -2 * (-(x.v**2)).exp() / flint.arb.pi().sqrt())

    def tanh(self, x: Any) -> Dual:
        x = Dual.lift(x)
        t = x.v.tanh()
        return x.chain(t, 1 - t**2)

    def lgamma(self, x: Any) -> Dual:
        x = Dual.lift(x)
        return x.chain(x.v.lgamma(), x.v.digamma())

    def pow(self, x: Any, y: Any) -> Dual:
        return Dual.lift(x) ** y

    def lt(self, a: Any, b: Any) -> bool | None:
        a, b = Dual.lift(a).v, Dual.lift(b).v
        return True if a < b else (False if a >= b else None)

    def le(self, a: Any, b: Any) -> bool | None:
        a, b = Dual.lift(a).v, Dual.lift(b).v
        return True if a <= b else (False if a > b else None)

    def _extreme(self, xs: tuple[Any, ...], method: str) -> Dual:
        out = Dual.lift(xs[0])
        for x in xs[1:]:
            x = Dual.lift(x)
            first = out.v >= x.v if method == "max" else out.v <= x.v
            second = x.v >= out.v if method == "max" else x.v <= out.v
            if first:
                continue
            if second:
                out = x
                continue
            out = Dual(getattr(out.v, method)(x.v), _hull_grads(out, x))
        return out

    def max(self, *xs: Any) -> Dual:
        return self._extreme(xs, "max")

    def min(self, *xs: Any) -> Dual:
        return self._extreme(xs, "min")

    def abs(self, x: Any) -> Dual:
        return abs(Dual.lift(x))

    def hull(self, a: Any, b: Any) -> Dual:
        raise Unsupported("a branch is undecided over the box: no derivative across it")

    def solve(self, f: Callable[[Any], Any], target: Any, lo: Fraction | int,
              hi: Fraction | int | None = None, decreasing: bool = True,
              max_doublings: int = 200) -> Dual:
        """The hull of the roots over the box and their implicit derivative.

        The root ``r(p)`` (least ``x >= lo`` past the target) is monotone bracketed by two
        bisections: the largest point certified before the crossing for every parameter of
        the box, and the least point certified past it. Its derivative is
        ``(t_p - f_p)/f_x`` over that hull (implicit-function theorem), joined with 0 where
        the root may be clipped at ``lo`` (``r`` is continuous there).
        """
        t = Dual.lift(target)

        def past(x: flint.arb) -> bool | None:
            v = Dual.lift(f(Dual(x))).v
            return self.le(v, t.v) if decreasing else self.le(t.v, v)

        lo_x = _arb_fraction(Fraction(lo))
        at_lo = past(lo_x)
        if at_lo is True:
            return Dual(lo_x)  # clipped at lo for the whole box: constant
        width = flint.arb(1) if hi is None else _arb_fraction(Fraction(hi)) - lo_x
        a, b = lo_x, lo_x + width
        for _ in range(max_doublings):
            c = past(b)
            if c is True:
                break
            if c is False:
                a = b
            width = width * 2
            b = b + width
        else:
            raise Unsupported("cannot bracket the root over the box")
        upper_a, upper_b = a, b  # past(upper_b) is True
        for _ in range(self.prec // 2 + 8):
            m = ((upper_a + upper_b) / 2).mid()
            if past(m) is True:
                upper_b = m
            else:
                upper_a = m
        lower_a, lower_b = a, upper_b  # past(lower_a) is False (or lower_a = lo undecided)
        if at_lo is False:
            for _ in range(self.prec // 2 + 8):
                m = ((lower_a + lower_b) / 2).mid()
                if past(m) is False:
                    lower_a = m
                else:
                    lower_b = m
        root = lower_a.union(upper_b)
        key = f"__solve{next(self._solves)}"
        fx = Dual.lift(f(Dual(root, {key: flint.arb(1)})))
        slope = fx.d.get(key)
        if slope is None or not (slope > 0 or slope < 0):
            raise Unsupported("the implicit derivative is unbounded over the box")
        zero = flint.arb(0)
        grads = {k: (t.d.get(k, zero) - fx.d.get(k, zero)) / slope
                 for k in (set(fx.d) | set(t.d)) - {key}}
        if at_lo is None:
            grads = {k: g.union(zero) for k, g in grads.items()}
        return Dual(root, grads)


# ==========================================================================================
# derivative engines


class _SymEngine:
    """``g`` and its partial derivatives as sympy expressions, evaluated by :func:`compile_arb`."""

    kind = "sympy"

    def __init__(self, g: Any, symbols: Mapping[str, Any],
                 base: Mapping[str, tuple[Fraction, Fraction]],
                 simplify: Callable[..., Any],
                 allowance: Callable[[], float] = lambda: SYMPY_STEP_SECONDS) -> None:
        self.allowance = allowance
        self.g = g
        self.symbols = dict(symbols)
        self.names = tuple(symbols)
        self.base = dict(base)
        self.simplify = simplify
        self._compiled: dict[Any, Callable[[Mapping[str, Iv]], Iv] | None] = {}
        self._diff: dict[tuple[Any, str], Any] = {}
        self._faces: dict[tuple[Any, frozenset[tuple[str, Fraction]]], Any] = {}
        self._factored: dict[Any, Any] = {}
        self._smooth: dict[Any, list[Callable[[Mapping[str, Iv]], Iv]] | None] = {}

    @property
    def root(self) -> Any:
        return self.g

    def _fn(self, node: Any) -> Callable[[Mapping[str, Iv]], Iv] | None:
        if node not in self._compiled:
            try:
                self._compiled[node] = compile_interval(node)
            except Unsupported:
                self._compiled[node] = None
        return self._compiled[node]

    def _face_node(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]]) -> Any:
        """On a face of the whole region (a variable at its region end) substitute it exactly:
        sympy then cancels what is identically zero there (``g = 0`` at ``q = 0``)."""
        ends = frozenset((n, lo) for n, (lo, hi) in box.items()
                         if lo == hi and lo in self.base[n])
        if not ends:
            return node
        key = (node, ends)
        if key not in self._faces:
            import sympy as sp

            sub = {self.symbols[n]: sp.Rational(v.numerator, v.denominator) for n, v in ends}
            try:
                with _time_limit(self.allowance()):
                    self._faces[key] = self.simplify(node.subs(sub))
            except Exception:  # sympy failed or timed out on the substitution: keep the node
                self._faces[key] = node
        return self._faces[key]

    def enclose(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]],
                prec: int) -> Iv | None:
        fn = self._fn(self._face_node(node, box))
        if fn is None:
            fn = self._fn(node)
        if fn is None:
            return None
        with arb_precision(prec):
            env = {n: Iv.exact(lo, hi) for n, (lo, hi) in box.items()}
            try:
                v = fn(env)
            except (_Undecided, *_EVAL_ERRORS):
                return None
        return v if isinstance(v, Iv) else None

    def deriv(self, node: Any, name: str) -> Any:
        key = (node, name)
        if key not in self._diff:
            import sympy as sp

            try:
                with _time_limit(self.allowance()):
                    raw = sp.diff(node, self.symbols[name])
                    d = (None if _size(raw) > MAX_DERIVATIVE_NODES
                         else self.simplify(raw, node is self.g))
            except Exception:  # sympy failed or timed out: no derivative information
                d = None
            if d is not None and (d.has(sp.Derivative, sp.Subs)
                                  or _size(d) > MAX_DERIVATIVE_NODES or self._fn(d) is None
                                  or not self._consistent(node, d, name)):
                d = None
            self._diff[key] = d
        return self._diff[key]

    def smooth(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]]) -> bool:
        """May derivatives of ``node`` be used on ``box``? Only where it is continuous: no
        step functions, and every ``Piecewise`` branch decided on the whole box (sympy drops
        the conditions of a ``Piecewise`` whose branches have equal derivatives, so a jump
        would otherwise go unseen)."""
        import sympy as sp

        if node not in self._smooth:
            if node.has(sp.Heaviside, sp.sign, sp.floor, sp.ceiling, sp.frac, sp.DiracDelta):
                self._smooth[node] = None
            else:
                pieces = [p for p in sp.preorder_traversal(node) if isinstance(p, sp.Piecewise)]
                try:
                    self._smooth[node] = [compile_interval(p, True) for p in pieces]
                except Unsupported:
                    self._smooth[node] = None
        checks = self._smooth[node]
        if checks is None:
            return False
        if not checks:
            return True
        env = {n: Iv.exact(lo, hi) for n, (lo, hi) in box.items()}
        try:
            with arb_precision(START_BITS):
                for f in checks:
                    f(env)
        except (_Undecided, *_EVAL_ERRORS):
            return False
        return True

    def factored(self, node: Any) -> Any:
        """``node`` as a product (sums factored by sympy), or None if it is not one."""
        if node not in self._factored:
            import sympy as sp

            out = None
            if isinstance(node, sp.Mul | sp.Pow | sp.exp):
                out = node
            elif isinstance(node, sp.Add) and _size(node) <= SIMPLIFY_MAX_NODES // 2:
                # square-free factorisation (gcd-based, cheap) of a small polynomial in few
                # generators: full factorisation can take minutes
                try:
                    with _time_limit(self.allowance()):
                        poly = sp.Poly(node)
                        small = len(poly.gens) <= 3 and poly.total_degree() <= 8
                        f = sp.sqf(node) if small else None
                except Exception:  # not a polynomial, or too slow: no structural sign
                    f = None
                if isinstance(f, sp.Mul | sp.Pow) and self._fn(f) is not None:
                    out = f
            self._factored[node] = out
        return self._factored[node]

    def _consistent(self, node: Any, d: Any, name: str) -> bool:
        """A safeguard on sympy's derivative (not a source of rigour): by the mean-value
        theorem the difference quotient of ``node`` over ``[x, x + h]`` lies in the range of
        ``d`` over that segment, so the two enclosures must overlap."""
        for t in (Fraction(3, 10), Fraction(2, 3)):
            pt = {n: lo + t * (hi - lo) for n, (lo, hi) in self.base.items()}
            lo, hi = self.base[name]
            h = (hi - lo) / 1024
            if h == 0:
                return True
            x = pt[name]
            left = {n: (v, v) for n, v in pt.items()}
            right = dict(left)
            right[name] = (x + h, x + h)
            seg = dict(left)
            seg[name] = (x, x + h)
            a, b = self.enclose(node, left, START_BITS), self.enclose(node, right, START_BITS)
            dv = self.enclose(d, seg, START_BITS)
            if a is None or b is None or dv is None:
                continue
            with arb_precision(START_BITS):
                q = ((b - a) / Iv.exact(h, h)).ball()
            if q.is_finite() and dv.is_finite() and not q.overlaps(dv.ball()):
                return False
        return True


class _DualEngine:
    """``g`` and its gradient by forward-mode AD (first derivatives only)."""

    kind = "dual"
    root = "g"

    def __init__(self, check: Compare, ints: Mapping[str, int], fixed: Mapping[str, Any],
                 names: tuple[str, ...]) -> None:
        self.check = check
        self.ints = dict(ints)
        self.fixed = dict(fixed)
        self.names = names
        self._cache: dict[tuple[Any, ...], Dual | None] = {}

    def _eval(self, box: Mapping[str, tuple[Fraction, Fraction]], prec: int) -> Dual | None:
        key = (prec, *((n, *box[n]) for n in self.names))
        if key in self._cache:
            return self._cache[key]
        if len(self._cache) > 64:
            self._cache.clear()
        ctx = DualCtx(prec, self.names)
        params: dict[str, Any] = {n: Interval(lo, hi) for n, (lo, hi) in box.items()}
        params.update(self.ints)
        params.update(self.fixed)
        try:
            lhs = Dual.lift(ctx.run(self.check.lhs, **params))
            rhs = Dual.lift(ctx.run(self.check.rhs, **params))
            out: Dual | None = rhs - lhs if self.check.op in ("le", "lt") else lhs - rhs
        except (_Undecided, *_EVAL_ERRORS):
            out = None
        self._cache[key] = out
        return out

    def enclose(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]],
                prec: int) -> Iv | None:
        g = self._eval(box, prec)
        if g is None:
            return None
        if node == "g":
            return Iv.of(g.v)
        return Iv.of(g.d.get(node[1], flint.arb(0)))

    def deriv(self, node: Any, name: str) -> Any:
        return ("d", name) if node == "g" else None

    def smooth(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]]) -> bool:
        return True  # DualCtx raises on a branch undecided over the box


def _sign(v: Iv | None, sense: int, strict: bool) -> bool | None:
    """Is ``sense * v >= 0`` (``> 0`` if strict) everywhere (True), violated everywhere
    (False), or undecided (None)?"""
    if v is None or not v.is_finite():
        return None
    w = v if sense > 0 else -v
    if strict:
        return True if w.lo > 0 else (False if w.hi <= 0 else None)
    return True if w.lo >= 0 else (False if w.hi < 0 else None)


@dataclass
class _Trace:
    """What certified (or refuted) the top-level box."""

    how: str = ""
    face: dict[str, tuple[Fraction, Fraction]] | None = None


class _Memo:
    """Enclosures and derivative signs of one top-level box, computed once each."""

    def __init__(self, engine: Any, prec: int, deadline: float = math.inf) -> None:
        self.deadline = deadline
        self.engine = engine
        self.names = engine.names
        self.prec = prec
        self._enc: dict[tuple[Any, ...], Iv | None] = {}
        self._sign: dict[tuple[Any, ...], int] = {}

    @staticmethod
    def key(box: Mapping[str, tuple[Fraction, Fraction]]) -> tuple[Any, ...]:
        return tuple(box.values())

    def enclose(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]],
                prec: int | None = None) -> Iv | None:
        prec = prec or self.prec
        k = (node, self.key(box), prec)
        if k not in self._enc:
            self._enc[k] = self.engine.enclose(node, box, prec)
        return self._enc[k]

    def deriv(self, node: Any, name: str) -> Any:
        return self.engine.deriv(node, name)

    def smooth(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]]) -> bool:
        k = ("smooth", node, self.key(box))
        if k not in self._enc:
            self._enc[k] = self.engine.smooth(node, box)  # type: ignore[assignment]
        return bool(self._enc[k])


def _bound_sign(m: _Memo, node: Any, box: dict[str, tuple[Fraction, Fraction]],
                depth: int) -> int:
    """+1 if ``node >= 0`` on ``box``, -1 if ``node <= 0``, 0 if neither is certified."""
    k = (node, m.key(box), depth)
    if k in m._sign:
        return m._sign[k]
    m._sign[k] = 0
    v = m.enclose(node, box)
    out = 0
    if v is not None and v.is_finite():
        if v.lo >= 0:
            out = 1
        elif v.hi <= 0:
            out = -1
        elif (out := _structural_sign(m, node, box, depth)) != 0:
            pass
        elif depth > 0:
            centre = {n: ((lo + hi) / 2,) * 2 for n, (lo, hi) in box.items()}
            c = m.enclose(node, centre)
            guess = 0 if c is None else (1 if c.lo > 0 else (-1 if c.hi < 0 else 0))
            for sense in ((guess,) if guess else (1, -1)):
                if _prove(m, node, box, sense, False, depth) is True:
                    out = sense
                    break
    m._sign[k] = out
    return out


def _structural_sign(m: _Memo, node: Any, box: dict[str, tuple[Fraction, Fraction]],
                     depth: int) -> int:
    """The sign of a symbolic product from the signs of its factors (``(e^x - 1)^2 >= 0``
    although its enclosure near ``x = 0`` straddles 0); sums are factored first."""
    factored = getattr(m.engine, "factored", None)
    if factored is None:
        return 0
    e = factored(node)
    if e is None:
        return 0
    import sympy as sp

    if isinstance(e, sp.Pow) and e.exp.is_Rational:
        if e.exp.is_Integer and int(e.exp) % 2 == 1:
            return _bound_sign(m, e.base, box, depth)
        return 1  # an even power, or a root (nonnegative where defined)
    if isinstance(e, sp.exp):
        return 1
    if isinstance(e, sp.Mul):
        sign = 1
        for f in e.args:
            s = _bound_sign(m, f, box, depth)
            if s == 0:
                return 0
            sign *= s
        return sign
    return 0


def _prove(m: _Memo, node: Any, box: dict[str, tuple[Fraction, Fraction]], sense: int,
           strict: bool, depth: int, trace: _Trace | None = None) -> bool | None:
    """Certify ``sense * node >= 0`` (``> 0``) on ``box``: True, False (certified violated on
    a face or on the whole box) or None."""
    s = _sign(m.enclose(node, box), sense, strict)
    if s is not None:
        if trace is not None:
            trace.how, trace.face = "enclosure", box
        return s
    free = [n for n in m.names if box[n][0] < box[n][1]]
    if not free:
        s = _sign(m.enclose(node, box, 4 * m.prec), sense, strict)
        if trace is not None and s is not None:
            trace.how, trace.face = "enclosure", box
        return s
    if depth <= 0 or time.monotonic() > m.deadline or not m.smooth(node, box):
        return None
    face = dict(box)
    pending = list(free)
    moved = False
    progress = True
    while progress and pending:
        progress = False
        for n in list(pending):
            d = m.deriv(node, n)
            if d is None:
                pending.remove(n)
                continue
            # sense*node is nondecreasing in n where sense*d >= 0: its minimum is at lo
            sg = _bound_sign(m, d, face, depth - 1) * sense
            if sg == 0:
                continue
            lo, hi = face[n]
            end = lo if sg > 0 else hi
            face[n] = (end, end)
            pending.remove(n)
            moved = progress = True
    if moved:
        s = _sign(m.enclose(node, face), sense, strict)
        if s is None and all(face[n][0] == face[n][1] for n in m.names):
            s = _sign(m.enclose(node, face, 4 * m.prec), sense, strict)
        if s is not None:
            if trace is not None:
                trace.how, trace.face = "monotonicity", face
            return s
    # mean-value form on what is left: g(c) + sum_i g_i(B) (B_i - c_i)
    rest = [n for n in m.names if face[n][0] < face[n][1]]
    if not rest:
        return None
    centre = dict(face)
    for n in rest:
        mid = (face[n][0] + face[n][1]) / 2
        centre[n] = (mid, mid)
    total = m.enclose(node, centre)
    if total is None:
        return None
    with arb_precision(m.prec):
        for n in rest:
            d = m.deriv(node, n)
            dv = None if d is None else m.enclose(d, face)
            if dv is None or not dv.is_finite():
                return None
            lo, hi = face[n]
            mid = centre[n][0]
            total = total + dv * Iv.exact(lo - mid, hi - mid)
    s = _sign(total, sense, strict)
    if s is not None and trace is not None:
        trace.how, trace.face = ("monotonicity+mean-value" if moved else "mean-value"), face
    return s


class _SympyTimeout(Exception):
    """A symbolic operation ran past its time limit."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt pure-Python sympy work after ``seconds`` (SIGALRM, main thread only; elsewhere
    and when a limit is already running, no new limit is set)."""
    import signal
    import threading

    if seconds <= 0:
        raise _SympyTimeout("no time left for symbolic work")
    if (threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "setitimer") or signal.getitimer(signal.ITIMER_REAL)[0] > 0):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise _SympyTimeout(f"symbolic work took more than {seconds:.1f} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _size(e: Any) -> int:
    """The number of nodes of a sympy expression tree (``count_ops`` can be slow)."""
    import sympy as sp

    return sum(1 for _ in sp.preorder_traversal(e))


def _pruning_depth(n: int) -> int:
    return {1: 4, 2: 3, 3: 2}.get(n, 1)


@dataclass
class _Pruner:
    """Builds (lazily, per integer assignment) the derivative engine of a comparison."""

    check: Compare
    box: Box
    fixed: Mapping[str, Any]
    notes: list[str] = field(default_factory=list)
    engines: dict[tuple[tuple[str, int], ...], Any] = field(default_factory=dict)
    simplify_seconds: float = 0.0
    sympy_deadline: float = field(default_factory=lambda: time.monotonic() + SYMPY_SECONDS)

    def allowance(self) -> float:
        """Seconds the next symbolic operation may take."""
        return min(SYMPY_STEP_SECONDS, self.sympy_deadline - time.monotonic())

    def engine(self, ints: Mapping[str, int]) -> Any:
        key = tuple(sorted(ints.items()))
        if key not in self.engines:
            self.engines[key] = self._build(ints)
        return self.engines[key]

    def _simplify(self, e: Any, thorough: bool = False) -> Any:
        """A cheap normal form (expand, then merge exponentials: cancels ``e^eps phi(a+b)``
        against ``phi(a-b)``), and ``sympy.simplify`` for a small ``g`` while time allows."""
        import sympy as sp

        t0 = time.monotonic()
        try:
            ops = _size(e)
            if ops > MAX_DERIVATIVE_NODES:
                return e
            out = sp.powsimp(e, combine="exp")
            if ops <= SIMPLIFY_MAX_NODES:
                expanded = sp.powsimp(sp.expand(e), combine="exp")
                if _size(expanded) <= 2 * ops + 20:
                    out = expanded
            if (thorough and _size(out) <= SIMPLIFY_MAX_NODES // 2
                    and self.simplify_seconds < SIMPLIFY_SECONDS):
                full = sp.simplify(out)
                if _size(full) < _size(out):
                    out = full
            return out
        finally:
            self.simplify_seconds += time.monotonic() - t0

    def _build(self, ints: Mapping[str, int]) -> Any:
        names = tuple(self.box.reals)
        if not names:
            return None
        sym = self._build_sym(ints, names)
        if sym is not None:
            return sym
        return _DualEngine(self.check, ints, self.fixed, names)

    def _build_sym(self, ints: Mapping[str, int], names: tuple[str, ...]) -> _SymEngine | None:
        import sympy as sp

        base = {n: (Fraction(lo), Fraction(hi)) for n, (lo, hi) in self.box.reals.items()}
        symbols = {n: _symbol(n, *base[n]) for n in names}
        params: dict[str, Any] = dict(symbols)
        params.update(ints)
        params.update(self.fixed)
        try:
            with _time_limit(self.allowance()):
                ctx = SymCtx()
                lhs = ctx.run(self.check.lhs, **params)
                rhs = ctx.run(self.check.rhs, **params)
                g = rhs - lhs if self.check.op in ("le", "lt") else lhs - rhs
                g = sp.sympify(g)
        except Exception as e:  # any failure of the symbolic route falls back to AD
            self._note(f"sympy cannot represent the terms ({type(e).__name__}: {e}); "
                       "derivatives by automatic differentiation")
            return None
        if g.has(sp.Heaviside, sp.sign, sp.floor, sp.ceiling, sp.frac, sp.DiracDelta):
            self._note("the symbolic form has a discontinuous function: no sympy derivatives")
            return None
        try:
            with _time_limit(self.allowance()):
                simplified = self._simplify(g, thorough=True)
        except Exception:  # too slow (or sympy failed): the form as evaluated
            simplified = g
        for candidate in (simplified, g):
            engine = _SymEngine(candidate, symbols, base, self._simplify, self.allowance)
            if engine._fn(candidate) is not None and self._agrees(engine, ints, base):
                return engine
        self._note("the symbolic form of the difference could not be cross-checked against "
                   "the arb evaluation; derivatives by automatic differentiation")
        return None

    def _agrees(self, engine: _SymEngine, ints: Mapping[str, int],
                base: Mapping[str, tuple[Fraction, Fraction]]) -> bool:
        """The symbolic form must enclose the same values as the terms in arb."""
        checked = 0
        for t in (Fraction(1, 2), Fraction(1, 7), Fraction(5, 6)):
            pt = {n: lo + t * (hi - lo) for n, (lo, hi) in base.items()}
            params: dict[str, Any] = dict(pt)
            params.update(ints)
            params.update(self.fixed)
            ctx = ArbCtx(START_BITS)
            try:
                lhs = flint.arb(ctx.run(self.check.lhs, **params))
                rhs = flint.arb(ctx.run(self.check.rhs, **params))
            except _EVAL_ERRORS:
                continue
            with arb_precision(START_BITS):
                ref = rhs - lhs if self.check.op in ("le", "lt") else lhs - rhs
            if not ref.is_finite():
                continue
            v = engine.enclose(engine.g, {n: (x, x) for n, x in pt.items()}, START_BITS)
            if v is None or not v.is_finite():
                continue
            if not v.ball().overlaps(ref):
                return False
            checked += 1
        return checked > 0

    def _note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


def _symbol(name: str, lo: Fraction, hi: Fraction) -> Any:
    """A real sympy symbol with the sign assumptions that hold on the whole box."""
    import sympy as sp

    kw: dict[str, bool] = {"real": True}
    if lo > 0:
        kw["positive"] = True
    elif lo >= 0:
        kw["nonnegative"] = True
    if hi < 0:
        kw["negative"] = True
    elif hi <= 0:
        kw["nonpositive"] = True
    return sp.Symbol(name, **kw)


# ==========================================================================================
# the route


def verify_box(
    check: Compare | Predicate, box: Box, budget: Budget
) -> tuple[Status, str, dict[str, Any]]:
    if isinstance(check, Compare) and check.op == "eq":
        return (Status.NOT_APPLICABLE,
                "branch and bound certifies inequalities, not equalities", {})
    started = time.monotonic()
    fixed = _fixed_values(box.fixed)
    base = {k: (Fraction(lo), Fraction(hi)) for k, (lo, hi) in box.reals.items()}
    pruner = _Pruner(check, box, fixed) if isinstance(check, Compare) else None
    strict = isinstance(check, Compare) and check.op in ("lt", "gt")
    counter = itertools.count()
    heap: list[tuple[int, int, SubBox]] = []
    for ints in _int_assignments(box):
        heapq.heappush(heap, (0, next(counter), SubBox(dict(base), ints)))
    stats = {"direct": 0, "enclosure": 0, "monotonicity": 0, "mean-value": 0,
             "monotonicity+mean-value": 0}
    processed = 0
    max_depth = 0
    undecided: list[SubBox] = []

    def evidence() -> dict[str, Any]:
        secs = time.monotonic() - started
        ev: dict[str, Any] = {
            "region": box.describe(), "boxes_processed": processed,
            "boxes_certified": sum(stats.values()),
            "boxes_certified_directly": stats["direct"],
            "boxes_pruned_by_monotonicity": stats["monotonicity"]
            + stats["monotonicity+mean-value"],
            "boxes_certified_by_mean_value_form": stats["mean-value"],
            "boxes_certified_by_symbolic_enclosure": stats["enclosure"],
            "max_depth": max_depth, "seconds": round(secs, 3),
            "boxes_per_second": round(processed / secs, 1) if secs > 0 else None,
        }
        if pruner is not None:
            kinds = sorted({e.kind for e in pruner.engines.values() if e is not None})
            ev["derivatives"] = ", ".join(kinds) or "none"
            if pruner.notes:
                ev["derivative_notes"] = pruner.notes
        return ev

    def failed(point: dict[str, Any], d: Any, how: str) -> tuple[Status, str, dict[str, Any]]:
        ev = evidence()
        ev.update({"counterexample": show_point(point), "lhs": d.lhs, "rhs": d.rhs,
                   "margin": d.margin, "certified": d.certified, "found_by": how})
        return Status.FAILED, f"certified counterexample at {show_point(point)}", ev

    def violates(point: dict[str, Any]) -> Any:
        if box.constraint is not None and not box.constraint(point):
            return None
        d = decide(check, point, 30, budget.max_bits)
        return d if d.holds is False else None

    try:
        while heap:
            if budget.expired() or processed >= budget.boxes:
                undecided.extend(s for _, _, s in heap)
                break
            _, _, sub = heapq.heappop(heap)
            processed += 1
            max_depth = max(max_depth, sub.depth)
            params = _box_params(sub, fixed)
            holds = decide_box(check, params, START_BITS)
            if holds is None and sub.depth > 30:
                holds = decide_box(check, params, 4 * START_BITS)
            if holds is True:
                stats["direct"] += 1
                continue
            if holds is None and pruner is not None and sub.reals:
                engine = pruner.engine(sub.ints)
                if engine is not None:
                    trace = _Trace()
                    deadline = time.monotonic() + budget.remaining()
                    r = _prove(_Memo(engine, START_BITS, deadline), engine.root, dict(sub.reals), 1,
                               strict, _pruning_depth(len(sub.reals)), trace)
                    if r is True:
                        stats[trace.how] += 1
                        continue
                    if r is False and trace.face is not None:
                        corner = SubBox({n: (lo, lo) if lo == hi else (lo, hi)
                                         for n, (lo, hi) in trace.face.items()}, sub.ints)
                        point = {**corner.point(), **fixed}
                        d = violates(point)
                        if d is not None:
                            return failed(point, d, f"worst case by {trace.how}")
            point = {**sub.point(), **fixed}
            d = violates(point)
            if d is not None:
                return failed(point, d, "sub-box midpoint")
            if not sub.reals or sub.depth >= 60:
                undecided.append(sub)
                continue
            for child in _split(sub, box.log_scale):
                heapq.heappush(heap, (child.depth, next(counter), child))
    except Unsupported as e:
        return Status.NOT_APPLICABLE, f"a term cannot be evaluated over a box: {e}", {}
    ev = evidence()
    if undecided:
        ev["undecided_boxes"] = [s.describe() for s in undecided[:10]]
        ev["undecided_count"] = len(undecided)
        return (Status.INCONCLUSIVE,
                f"{len(undecided)} sub-boxes undecided after {processed} boxes", ev)
    return (Status.PROVED,
            f"certified on every sub-box of {box.describe()} ({processed} boxes, "
            f"{ev['boxes_pruned_by_monotonicity']} by monotonicity)", ev)
