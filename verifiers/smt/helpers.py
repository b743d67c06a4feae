"""Helpers for authors of ``[smt]`` claims: polynomial forms of inequalities.

:func:`substitute_exp` writes a formula as a rational function of ``x = e^eps``;
:func:`clear_denominators`, :func:`polynomial_le` and :func:`polynomial_lt` multiply out
denominators whose sign is known (:func:`positive_symbols`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dpverify.theorems.symbolic import exp_as_powers


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

    out = exp_as_powers(e, var, xp)

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
