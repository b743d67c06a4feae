"""Exact rational functions over Q in one or more variables, on python-flint polynomials: the
number type of the exact region checks of this family (much faster than sympy's fields).

A value is a reduced fraction ``num/den`` of ``fmpq_poly`` (one variable) or ``fmpq_mpoly``
(several, one context) with ``den`` monic (leading coefficient 1 in the context's ordering),
so each element has exactly one representation and ``==`` is equality in the field. Sums and
products reduce by the smaller gcds of Henrici's algorithms (Knuth, TAOCP vol. 2, 3rd ed.,
4.5.1 and 4.6.1): for reduced ``a/b``, ``c/d`` with ``gcd(b, d) = 1`` the sum ``(ad + cb)/bd``
is reduced, and ``(a/g1)(c/g2) / ((b/g2)(d/g1))`` with ``g1 = gcd(a, d)``, ``g2 = gcd(c, b)``
is the reduced product. A scalar (int, Fraction, fmpq) operand is never lifted to a fraction:
``num + s den`` over ``den`` is reduced when ``num/den`` is.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import flint

_SCALARS = (int, Fraction, flint.fmpz, flint.fmpq)


def field_generators(*names: str) -> list[RatFunc]:
    """The variables of ``Q(names)`` (``fmpq_mpoly``, lexicographic order) as rational
    functions."""
    ctx = flint.fmpq_mpoly_ctx.get(names, "lex")
    return [RatFunc(g) for g in ctx.gens()]


def _is_constant(p: Any) -> bool:
    return p.degree() <= 0 if type(p) is flint.fmpq_poly else p.is_constant()


def _lead(p: Any) -> Any:
    return p.leading_coefficient() if isinstance(p, flint.fmpq_mpoly) else p[p.degree()]


def _scalar(s: Any) -> Any:
    return flint.fmpq(s.numerator, s.denominator) if isinstance(s, Fraction) else s


class RatFunc:
    """An element of ``Q(x)`` (``fmpq_poly``) or ``Q(x_1, ..., x_k)`` (``fmpq_mpoly``)."""

    __slots__ = ("den", "num")

    def __init__(self, num: Any, den: Any = None) -> None:
        """``num/den`` reduced (``den=None``: the polynomial ``num``); a plain list of
        coefficients is an ``fmpq_poly``."""
        if not isinstance(num, (flint.fmpq_poly, flint.fmpq_mpoly)):
            num = flint.fmpq_poly(num)
        if den is None:
            self.num, self.den = num, num**0
            return
        if den == 0:
            raise ZeroDivisionError("a rational function with denominator 0")
        if not _is_constant(den):
            g = num.gcd(den)
            if not _is_constant(g):
                num, den = num / g, den / g  # exact: g divides both
        lead = _lead(den)
        self.num, self.den = (num, den) if lead == 1 else (num / lead, den / lead)

    @staticmethod
    def _reduced(num: Any, den: Any) -> RatFunc:
        """``num/den``, already reduced with a monic ``den`` (zero made canonical)."""
        out = RatFunc.__new__(RatFunc)
        out.num, out.den = (num, den) if num != 0 else (num, den**0)
        return out

    @staticmethod
    def lift(v: Any) -> RatFunc:
        """``v`` as a rational function (a scalar as a constant of ``Q(x)``)."""
        if isinstance(v, RatFunc):
            return v
        return RatFunc(flint.fmpq_poly([_scalar(v)]))

    # ``type(o) is RatFunc`` first: ``isinstance(o, Fraction)`` is an ABC check, the hot
    # path's largest cost (the region checks run ~10^5 field operations)
    def __add__(self, o: Any) -> RatFunc:
        if type(o) is not RatFunc and isinstance(o, _SCALARS):
            return RatFunc._reduced(self.num + _scalar(o) * self.den, self.den)
        if self.den == o.den:
            return RatFunc(self.num + o.num, self.den)
        if _is_constant(self.den.gcd(o.den)):
            return RatFunc._reduced(self.num * o.den + o.num * self.den, self.den * o.den)
        return RatFunc(self.num * o.den + o.num * self.den, self.den * o.den)

    __radd__ = __add__

    def __neg__(self) -> RatFunc:
        return RatFunc._reduced(-self.num, self.den)

    def __sub__(self, o: Any) -> RatFunc:
        return self + (-o if type(o) is RatFunc or not isinstance(o, _SCALARS)
                       else -_scalar(o))

    def __rsub__(self, o: Any) -> RatFunc:
        return (-self) + o

    def __mul__(self, o: Any) -> RatFunc:
        if type(o) is not RatFunc and isinstance(o, _SCALARS):
            return RatFunc._reduced(self.num * _scalar(o), self.den)
        a, b, c, d = self.num, self.den, o.num, o.den
        g1, g2 = a.gcd(d), c.gcd(b)  # monic (flint), so the quotients of b and d stay monic
        if not _is_constant(g1):
            a, d = a / g1, d / g1
        if not _is_constant(g2):
            c, b = c / g2, b / g2
        return RatFunc._reduced(a * c, b * d)

    __rmul__ = __mul__

    def inverse(self) -> RatFunc:
        if self.num == 0:
            raise ZeroDivisionError("a rational function divided by 0")
        return RatFunc(self.den, self.num)

    def __truediv__(self, o: Any) -> RatFunc:
        if isinstance(o, _SCALARS):
            if o == 0:
                raise ZeroDivisionError("a rational function divided by 0")
            return RatFunc._reduced(self.num / _scalar(o), self.den)
        return self * o.inverse()

    def __rtruediv__(self, o: Any) -> RatFunc:
        return self.inverse() * o

    def __pow__(self, k: int) -> RatFunc:
        if k < 0:
            return self.inverse() ** -k
        return RatFunc._reduced(self.num**k, self.den**k)  # powers of coprime stay coprime

    def __eq__(self, o: object) -> bool:
        if type(o) is not RatFunc and isinstance(o, _SCALARS):
            return bool(self.den == 1 and self.num == _scalar(o))
        if not isinstance(o, RatFunc):
            return NotImplemented
        return bool(self.num == o.num and self.den == o.den)

    __hash__ = None  # type: ignore[assignment]

    def sign_at(self, t: Fraction) -> int:
        """The sign of this element of ``Q(x)`` at the rational ``t`` (not a pole)."""
        v = Fraction(str(self.num(flint.fmpq(t.numerator, t.denominator)))) * Fraction(
            str(self.den(flint.fmpq(t.numerator, t.denominator))))
        return (v > 0) - (v < 0)


def factored_sympy(f: RatFunc, symbol: Any) -> Any:
    """An element of ``Q(x)`` as a sympy expression in ``symbol``: content times the powers of
    the irreducible factors over Z of its numerator and denominator (flint's factorization, at
    a fraction of sympy's cost). With a positive content it is the very expression
    ``sympy.factor`` gives; a negative one is distributed by sympy (an equal expression)."""
    import sympy as sp

    def factored(p: Any) -> Any:
        content, factors = p.factor()
        out = sp.Rational(int(content.p), int(content.q))
        for factor, power in factors:
            poly = sp.Add(*(sp.Integer(int(c)) * symbol**i
                            for i, c in enumerate(factor.coeffs()) if c != 0))
            out *= poly**power
        return out

    if f.num == 0:
        return sp.Integer(0)
    return factored(f.num) / factored(f.den)


def from_sympy(expr: Any, gens: dict[Any, RatFunc]) -> RatFunc:
    """A sympy rational expression (``+``, ``*``, integer powers, rationals and the symbols of
    ``gens``) as a :class:`RatFunc`; raises ValueError on anything else (a root, a function)."""
    import sympy as sp

    done: dict[Any, Any] = {}

    def ev(e: Any) -> Any:
        if e in done:
            return done[e]
        if e in gens:
            out = gens[e]
        elif e.is_Rational:
            out = Fraction(int(e.p), int(e.q))
        elif isinstance(e, sp.Add | sp.Mul):
            vals = [ev(a) for a in e.args]  # a RatFunc first: scalars are never lifted
            first = next((i for i, v in enumerate(vals) if isinstance(v, RatFunc)), 0)
            out = vals[first]
            for v in vals[:first] + vals[first + 1:]:
                out = out + v if isinstance(e, sp.Add) else out * v
        elif isinstance(e, sp.Pow) and e.exp.is_Integer:
            out = ev(e.base) ** int(e.exp)
        else:
            raise ValueError(f"not a rational function of {list(gens)}: {type(e).__name__}")
        done[e] = out
        return out

    out = ev(sp.sympify(expr))
    return out if isinstance(out, RatFunc) else RatFunc(
        next(iter(gens.values())).num**0 * _scalar(out))


def primitive_scale(p: Any) -> Fraction:
    """The positive rational ``s`` with ``s p`` a primitive polynomial over Z (coprime integer
    coefficients)."""
    from math import gcd, lcm

    coeffs = [Fraction(int(c.p), int(c.q)) for c in p.coeffs()]
    den = lcm(*(c.denominator for c in coeffs))
    num = gcd(*(int(c * den) for c in coeffs))
    return Fraction(den, num)


def factored_sympy_mpoly(p: Any, symbols: tuple[Any, ...]) -> Any:
    """A nonzero ``fmpq_mpoly`` as sympy's ``factor`` writes it: the content times the powers of
    flint's irreducible factors over Z (primitive, positive leading coefficient), the content
    kept outside a single sum as sympy keeps it."""
    import sympy as sp
    from sympy.core.mul import _keep_coeff

    content, factors = p.factor()
    out = []
    for factor, power in factors:
        poly = sp.Add(*(sp.Integer(int(c)) * sp.Mul(*(s**e for s, e in zip(symbols, m,
                                                                             strict=True)))
                        for m, c in factor.to_dict().items()))
        out.append(poly**int(power))
    return _keep_coeff(sp.Rational(int(content.p), int(content.q)), sp.Mul(*out))
