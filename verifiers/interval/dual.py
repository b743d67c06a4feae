"""Forward-mode automatic differentiation over arb balls.

:class:`DualCtx` is the formula context of dual numbers (value and gradient, both arb balls),
with the implicit-function rule for ``ctx.solve``: first derivatives of terms that sympy
cannot represent (``ctx.solve``, ``ctx.quad``, a Python branch on a value).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import Ctx, Interval, Unsupported, arb_precision
from dpverify.verifiers.interval.boxes import START_BITS, _arb_fraction, _arb_interval, _lift_arb


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
